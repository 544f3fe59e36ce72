/*
 * html: the static site. Every page is written from a theme template in
 * one walk (theme_render), with values rendered from the content trees.
 */
#ifndef QUIZDECK_HTML_H
#define QUIZDECK_HTML_H

#include <signal.h>

#include "cache.h"
#include "model.h"

/*
 * Writes the whole site (pages, assets, theme files, 404.html,
 * sitemap.xml) below outdir, which exists and is empty, the pages on
 * nthreads threads (the output is the same for any number). Returns 0, or
 * -1 with diagnostics added (or, without one, when *stop, if stop is not
 * NULL, turned non-zero: it is read between pages, and may be set by a
 * signal handler). With outdir NULL it loads the theme and its templates,
 * reporting what is wrong with them as a build would, and writes nothing.
 *
 * cache is NULL but for serve. With one, outdir holds what the last
 * build with the same cache wrote (or is empty, for a new cache): a
 * piece of a page whose inputs hash as before is taken from the cache
 * instead of rendered, a file whose bytes are unchanged is not written
 * again, and files the last build wrote that this one does not are
 * removed. A cache must be dropped after a build that failed, and
 * whenever the theme or site.toml changes: neither is in its keys.
 *
 * With offline set (a build to host, not serve's) every page links the
 * manifest and assets/offline.js, which registers the service worker
 * (offline.h), and OUTPUT_OFFLINE_PAGE is written for the worker to show.
 *
 * exports holds the bits 1 << enum export_format (outputs.h) of the
 * exports the build writes beside the pages, for every deck and test:
 * deck and test pages link those files, and only those (0 for serve and
 * --no-export, which write none).
 */
int html_build(const struct site *site, const char *outdir, int nthreads,
    const volatile sig_atomic_t *stop, struct cache *cache, int offline, unsigned exports,
    struct diag_list *dl);

#endif

/*
 * html: the static site. Every page is written from a theme template in
 * one walk (theme_render), with values rendered from the content trees.
 */
#ifndef QUIZDECK_HTML_H
#define QUIZDECK_HTML_H

#include <signal.h>

#include "model.h"

/*
 * Writes the whole site (pages, assets, theme files, 404.html,
 * sitemap.xml) below outdir, which exists and is empty, the pages on
 * nthreads threads (the output is the same for any number). Returns 0, or
 * -1 with diagnostics added (or, without one, when *stop, if stop is not
 * NULL, turned non-zero: it is read between pages, and may be set by a
 * signal handler).
 */
int html_build(const struct site *site, const char *outdir, int nthreads,
    const volatile sig_atomic_t *stop, struct diag_list *dl);

/*
 * The same in steps, for serve: a theme loaded and every question of the
 * bank rendered, kept so that after site_reload only what it changed is
 * rendered and written again. html_write writes the whole site (as
 * html_build, stop as there) into outdir; html_update the pages of ch, each replacing
 * its file in one rename, on a site written before into outdir, and
 * returns how many (or -1, with diagnostics). site
 * must outlive hs and stay loaded in between (site_reload keeps it so).
 */
struct html_site;
struct site_change;
struct html_site *html_open(const struct site *site, struct diag_list *dl);
int html_write(struct html_site *hs, const char *outdir, int nthreads,
    const volatile sig_atomic_t *stop, struct diag_list *dl);
int html_update(struct html_site *hs, const struct site_change *ch, const char *outdir,
    int nthreads, struct diag_list *dl);
void html_close(struct html_site *hs);

#endif

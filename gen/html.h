/*
 * html: the static site. Every page is a libxml2 tree built from a theme
 * template and the content trees, then serialised.
 */
#ifndef QUIZDECK_HTML_H
#define QUIZDECK_HTML_H

#include "model.h"

/*
 * Writes the whole site (pages, assets, theme files, 404.html,
 * sitemap.xml) below outdir, which exists and is empty, the pages on
 * nthreads threads (the output is the same for any number). Returns 0, or
 * -1 with diagnostics added.
 */
int html_build(const struct site *site, const char *outdir, int nthreads,
    struct diag_list *dl);

#endif

/*
 * outputs: the files a build writes, checked against each other before
 * any is written.
 */
#ifndef QUIZDECK_OUTPUTS_H
#define QUIZDECK_OUTPUTS_H

#include "diag.h"
#include "model.h"

/*
 * An error for each output that would be written over another on a
 * disk that ignores case or normalises Unicode: the home, 404, sitemap and search index, every test, deck,
 * deck PDF and chapter page, and every asset links_resolve found (so it
 * runs after that), each with the folders above it. Messages go in the
 * order of the name they are about, each naming the source that sorts
 * first.
 */
/* The search index's file below out/ (search.h), a name the theme's pages load. */
#define OUTPUT_SEARCH_INDEX "assets/search-index.js"

void outputs_check(const struct site *site, struct diag_list *dl);

#endif

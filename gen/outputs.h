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
 * disk that ignores case or normalises Unicode: the home, 404, sitemap,
 * search index and guide contents, the offline files (OUTPUT_OFFLINE_PAGE
 * ... OUTPUT_ICON_512), every test, deck, deck PDF and chapter page, and
 * every asset links_resolve found (so it
 * runs after that), each with the folders above it. Messages go in the
 * order of the name they are about, each naming the source that sorts
 * first.
 */
/* The search index's file below out/ (search.h), a name the theme's pages load. */
#define OUTPUT_SEARCH_INDEX "assets/search-index.js"
/* The learner's strings for the scripts (lang.h), a name the theme's pages load. */
#define OUTPUT_STRINGS "assets/strings.js"
/* The guide's contents page, written when the guide has a chapter. */
#define OUTPUT_GUIDE_CONTENTS "guide/index.html"
/* What a build to host writes for offline use (offline.h), below out/. */
#define OUTPUT_OFFLINE_PAGE "offline.html"
#define OUTPUT_MANIFEST "manifest.webmanifest"
#define OUTPUT_SERVICE_WORKER "sw.js"
#define OUTPUT_ICON_192 "icon-192.png"
#define OUTPUT_ICON_512 "icon-512.png"
/* The guide as a book (book.h), when the site has a guide. */
#define OUTPUT_BOOK "print/guide.pdf"
/* A test's handout, relative to out/: "print/<slug>-handout.pdf". Caller frees. */
char *outputs_handout_path(const char *slug);

void outputs_check(const struct site *site, struct diag_list *dl);

/*
 * The exports (export.c): one file per deck or per test in
 * out/export/, named by its slug and the format's suffix. This table is
 * the one the command line, its help and the collision check read.
 */
#define OUTPUT_EXPORT_DIR "export"
enum export_format { EXPORT_ANKI, EXPORT_CSV, EXPORT_TSV, EXPORT_MOODLE, EXPORT_GIFT, EXPORT_NFORMATS };
struct export_format_info {
	const char *name;          /* as `quizdeck export` takes it */
	const char *suffix;        /* after the slug */
	int of_tests;              /* one per test, else one per deck */
	const char *what;          /* for --help */
};
extern const struct export_format_info outputs_export_formats[EXPORT_NFORMATS];
/* "export/<slug><suffix>" for format f. Caller frees. */
char *outputs_export_path(enum export_format f, const char *slug);

#endif

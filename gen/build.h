/*
 * build: writing a loaded site to disk without ever leaving a half-built
 * output behind. Everything goes into a staging folder beside the output;
 * only when all of it succeeded is it swapped into place.
 */
#ifndef QUIZDECK_BUILD_H
#define QUIZDECK_BUILD_H

#include <signal.h>

#include "handout.h"
#include "model.h"

/*
 * Set by SIGINT/SIGTERM while a build runs: the build passes it down to
 * the renderers, which stop between pages, so the staging folder can be
 * removed before exiting.
 */
extern volatile sig_atomic_t build_cancelled;

struct build_options {
	const char *outdir;        /* the output folder */
	int html;                  /* write the site */
	int pdf;                   /* write out/print/<deck>.pdf */
	unsigned exports;          /* write out/export/: bits 1 << enum export_format (outputs.h) */
	char **decks;              /* only these decks (by slug; with exports, tests too) when ndecks > 0 */
	size_t ndecks;
	/*
	 * Handouts (handout.h) of these tests only, by slug, when ntests > 0:
	 * then with no deck named no deck nor the book is written. With every
	 * deck and no test named, every test's handout.
	 */
	char **tests;
	size_t ntests;
	const struct handout_choice *handout;   /* which questions; NULL: the whole test */
	int progress;              /* a progress line on a terminal */
	int jobs;                  /* threads for pages and decks; 0: one per core */
	struct cache *cache;       /* serve's, or NULL: html_build */
	int offline;               /* with html: the manifest and service worker (offline.h); never serve's */
	struct build_counts *counts;   /* if not NULL, filled when the build succeeds */
};

/* What a build wrote: for the summary line. */
struct build_counts {
	size_t pages;              /* .html files */
	size_t pdfs;               /* deck PDFs, the book and the handouts */
	size_t exports;            /* files in out/export/ */
};

/*
 * Builds into <outdir>.staging-<pid>, then swaps it for outdir. With
 * html off (`quizdeck print`, `quizdeck export`) only the PDFs and the
 * exports asked for are written, each through a temporary file renamed
 * into place. Returns 0, or -1 with diagnostics
 * added and the previous output untouched. build_begin, then
 * build_finish.
 */
int build_run(const struct site *site, const struct build_options *opt,
    struct diag_list *dl);

/*
 * A build in two steps, so that an output that cannot be written is
 * refused before the site is loaded: build_begin checks and locks the
 * output for a site at root and makes the staging folder; build_finish
 * writes everything and puts it in place, or with site NULL (the load
 * failed) removes what the build made. opt must outlive the build. NULL,
 * with a diagnostic, if the output cannot be written.
 */
struct build;
struct build *build_begin(const char *root, const struct build_options *opt,
    struct diag_list *dl);
int build_finish(struct build *b, const struct site *site, struct diag_list *dl);

/*
 * Refuses an output folder that would destroy sources: "/", the site
 * root, content/, themes/, or any folder that contains one of them.
 * Returns 0 if outdir is safe, -1 with a diagnostic.
 */
int build_check_outdir(const char *root, const char *outdir, struct diag_list *dl);

#endif

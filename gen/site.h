/*
 * site: loading a whole site into the model, opening a doc's tree again
 * for an output, freeing, and reporting what was loaded.
 *
 * site_load runs the index step for every content file, in parallel
 * (the kinds are built by quiz.c, deck.c and guide.c); linking is the
 * caller's next step (links.h). doc_tree_open parses one doc again for
 * as long as an output renders it.
 */
#ifndef QUIZDECK_SITE_H
#define QUIZDECK_SITE_H

#include <stdio.h>

#include "config.h"
#include "diag.h"
#include "model.h"

struct site_options {
	int strict;                /* warnings are errors */
	int jobs;                  /* threads for indexing and linking; 0: one per core */
	/* Print settings that win over site.toml's, or NULL (checked by the caller: config_apply_print). */
	const struct print_overrides *print;
};

/*
 * Loads and parses a site rooted at `root`: site.toml, content/. Returns
 * 0 if no error was found; diagnostics go to dl either way. The site
 * must be freed with site_free whatever the result. Linking comes next,
 * whatever the result (links_resolve, then outputs_check), so that one
 * run reports every mistake.
 */
int site_load(struct site *site, const char *root, const struct site_options *opt,
    struct diag_list *dl);
void site_free(struct site *site);

/* The summary line of `quizdeck check` (no trailing newline); caller frees. */
char *site_summary(const struct site *site, const struct diag_list *dl);
/* A stable text dump of the model, for golden tests (`check --dump`). */
void site_dump(const struct site *site, FILE *fp);

/*
 * Parses d's source again and points d's questions, cards, sections,
 * anchors and intros into the tree (d->root) until doc_tree_close frees
 * it. Two threads must never hold the same doc open; others may read an
 * open tree meanwhile.
 */
struct doc_tree;
struct doc_tree *doc_tree_open(struct doc *d);
void doc_tree_close(struct doc_tree *t);

#endif

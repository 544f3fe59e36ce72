/*
 * site: loading a whole site into the model, opening a doc's tree again
 * for an output, freeing, and reporting what was loaded.
 *
 * site_load runs the index step for every content file, in parallel
 * (the kinds are built by quiz.c, deck.c and guide.c); linking is the
 * caller's next step (links.h). doc_tree_open parses one doc again for
 * as long as an output renders it; the tree owns every node an output
 * needs, found from the model's questions, cards and sections.
 */
#ifndef QUIZDECK_SITE_H
#define QUIZDECK_SITE_H

#include <stdio.h>
#include <cmark-gfm.h>

#include "config.h"
#include "diag.h"
#include "markdown.h"
#include "model.h"

struct site_options {
	int strict;                /* warnings are errors */
	int jobs;                  /* threads for indexing and linking; 0: one per core */
	/* Print settings that win over site.toml's, or NULL (checked by the caller: config_apply_print). */
	const struct print_overrides *print;
	/*
	 * serve's last load of the same site with the same site.toml, or
	 * NULL. A guide chapter whose file has the same bytes as then is not
	 * parsed again: its doc and chapter are moved over from previous
	 * (which loses them; it is still to be freed with site_free), with
	 * what its index reported then.
	 */
	struct site *previous;
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
 * A doc's parse tree, and the nodes of its questions, cards and sections
 * in it: made by the same build that indexes the doc, run again on the
 * same source, so it has the structure the model was indexed with.
 */
struct doc_tree;

/*
 * Parses d's source again, for as long as an output renders it; free
 * with doc_tree_close. d is only read: several threads may each open
 * the same doc, and any number may read one open tree.
 */
struct doc_tree *doc_tree_open(const struct doc *d);
void doc_tree_close(struct doc_tree *t);

/* The document node. */
cmark_node *doc_tree_root(const struct doc_tree *t);
/*
 * What introduces the doc's test, topic or deck: the top-level blocks
 * before the first `##`, its `#` title left out (all of a test's
 * _index.md but the title). A one-file test's is the test's, and its
 * topic has none. Empty for other docs.
 */
const struct block_range *doc_tree_intro(const struct doc_tree *t);

/* A task-list option: its item, and the block quote in it that is its feedback, or NULL. */
struct option_nodes {
	cmark_node *item;
	cmark_node *feedback;
};

struct question_nodes {
	cmark_node *heading;
	struct block_range stem;   /* further stem blocks after the heading */
	cmark_node *hint;          /* the block quote before the options, or NULL */
	struct option_nodes *options;   /* as question.options, one for one */
	struct block_range explanation;
};

struct card_nodes {
	cmark_node *heading;
	struct block_range back;
};

/* The nodes of question q, or NULL if q is not in t's doc. */
const struct question_nodes *doc_tree_question(const struct doc_tree *t, const struct question *q);
/* The nodes of card c, or NULL if c is not in t's doc. */
const struct card_nodes *doc_tree_card(const struct doc_tree *t, const struct card *c);
/*
 * The section whose heading is the node `heading` of chapter tree t, or
 * NULL (for any other node, or t NULL or no chapter's).
 */
const struct section *doc_tree_section_at(const struct doc_tree *t, cmark_node *heading);

#endif

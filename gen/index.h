/*
 * index: for the model's own modules only (model.c, quiz.c, deck.c,
 * guide.c, site.c). Nothing outside the model includes this header; what
 * other layers use is in model.h and site.h.
 *
 * Indexing a doc: site.c makes the docs and runs a job per doc; the job
 * parses the doc into a struct doc_tree (model_doc_parse), collects its
 * headings (model_collect_headings), builds its kind (quiz.c, deck.c,
 * guide.c, or a plain page: model_build_page) and ends
 * (model_index_end): its links recorded, its tree freed. Each build
 * fills the model and, beside it, the tree's nodes of what it built
 * (arrays parallel to the model's questions, cards and sections).
 * doc_tree_open (site.c) runs the same build on a fresh tree of the same
 * source, keeps the tree and drops the model data built: the model is
 * the first build's.
 */
#ifndef QUIZDECK_INDEX_H
#define QUIZDECK_INDEX_H

#include "markdown.h"
#include "model.h"
#include "site.h"

/*
 * A parse tree and the nodes of what was built from it. questions,
 * cards and sections are parallel to the built topic's questions, the
 * deck's cards and the chapter's sections (one kind per doc). A
 * chapter's tree opened for an output also carries each section as its
 * heading node's cmark user data (doc_tree_section_at); nothing else sets
 * user data.
 */
struct doc_tree {
	const struct doc *d;       /* the doc whose model the nodes match */
	cmark_node *root;
	struct block_range intro;
	struct question_nodes *questions;
	size_t nquestions;
	struct card_nodes *cards;
	size_t ncards;
	cmark_node **sections;     /* each section's heading */
	size_t nsections;
};

/* One heading of a doc, as found before the kind-specific pass. */
struct heading {
	cmark_node *node;
	int level;
	int line, col;             /* in the file */
	int top;                   /* a child of the document itself */
	struct md_attrs attrs;
	int has_attrs;
	char *text;                /* plain text, attributes taken off */
	char *id;                  /* explicit or slug, unique in the file */
};

struct heading_list {
	struct heading *v;
	size_t len, cap;
};

/* A topic or deck's top-level blocks, split at `##`: one part per question or card. */
struct part {
	const struct heading *h;
	struct block_range body;   /* blocks after the heading */
};

struct parts {
	struct block_range intro;
	struct part *v;
	size_t len, cap;
};

/* model.c: what every kind of doc is indexed with. */

/*
 * Parses d for its index job; the tree is freed by model_index_end. A
 * file with more Markdown elements than [limits] max_elements is an
 * error, and is indexed as empty: the model and the pages cost memory
 * per element (a heading most), so this bounds what one file can cost.
 */
struct doc_tree *model_doc_parse(struct doc *d, struct diag_list *dl);
/* A tree of root (owned from now on), with no nodes found yet. */
struct doc_tree *model_tree_new(cmark_node *root);
/* Frees t, its nodes and its parallel arrays. */
void model_tree_free(struct doc_tree *t);
/* A node's start position in d's file (cmark counts from the body's start). */
void doc_node_pos(const struct doc *d, cmark_node *node, int *line, int *col);
/*
 * Finds every heading of d in tree t, takes its attributes off and gives
 * it an id: explicit ids first (so slugs step around them), then slugs
 * in file order with -N for repeats. `top_fallback` ("question" or
 * "card") is the id stem of a top-level `##` whose slug is empty, NULL in
 * pages; `check_dups` reports explicit ids given twice. Free hl with
 * model_headings_free.
 */
void model_collect_headings(struct doc *d, struct doc_tree *t, struct heading_list *hl,
    const char *top_fallback, int check_dups, struct diag_list *dl);
void model_headings_free(struct heading_list *hl);
/* Column of the last "{" on h's line, where its attributes start (for diagnostics). */
int model_attrs_col(struct doc *d, const struct heading *h);
/* Column of h's attribute .name (is_class) or name= (else), or of its "{" if not found. */
int model_attr_col(struct doc *d, const struct heading *h, int is_class, const char *name);
/*
 * Warns at every key=value of h's attributes, and at every class unless
 * classes_checked (the caller checks them): no heading takes any. what
 * names the heading (question "q"), takes says what it does take; a key
 * written for an attribute it takes ("id=x" without an #id; on a
 * question, which is what classes_checked means, "difficulty=easy" or
 * "class=sample") gets the attribute to write instead.
 */
void model_attrs_check(struct doc *d, const struct heading *h, const char *what, const char *takes,
    int classes_checked, struct diag_list *dl);
/* model_attrs_check for a heading that is no question or card: it takes only {#id}. */
void model_heading_attrs_check(struct doc *d, const struct heading *h, struct diag_list *dl);
/*
 * The block after n in document order below root, or NULL: descends into
 * quotes, lists, items and footnotes only.
 */
cmark_node *model_next_block(cmark_node *root, cmark_node *n);
/* The first top-level `#` heading before any `##`, used as a title, or NULL. */
const struct heading *model_title_heading(const struct heading_list *hl);
/*
 * The title of a page: front matter, else its first `#` heading. NULL
 * (and an error, unless the front matter already had one) without
 * either; *used gets the heading taken, or NULL. Caller frees.
 */
char *model_page_title(struct doc *d, const struct heading_list *hl, const char *what,
    const struct heading **used, struct diag_list *dl);
/* A file name without its folder and .md; caller frees. */
char *model_file_stem(const char *rel);
void model_range_add(struct block_range *r, cmark_node *n);
/*
 * Splits the top-level blocks of d's tree t at `##` (title, a `#`
 * heading, is left out of the intro); a `#` after the first `##` is an
 * error naming `what`. Caller frees ps->v.
 */
void model_split_parts(struct doc *d, struct doc_tree *t, const struct heading_list *hl,
    const struct heading *title, const char *what, struct parts *ps, struct diag_list *dl);
/* The body of a heading-only page: every heading an anchor. */
void model_build_page(struct doc *d, struct doc_tree *t, struct heading_list *hl,
    struct diag_list *dl);
/* Adds an anchor to d; target is the section, question, card or topic (by kind). */
void model_anchor_add(struct doc *d, const char *id, enum anchor_kind kind, int line, int col,
    void *target);
/* For qsort of a doc's anchors: by id, then line, as doc_anchor expects. */
int model_cmp_anchor(const void *a, const void *b);
/* Sibling order: pages with a weight first, by weight, then by name. */
int model_cmp_weighted(int ha, long wa, const char *na, int hb, long wb, const char *nb);
/* The end of d's index job: its links recorded (from its tree t), t freed. */
void model_index_end(struct doc *d, struct doc_tree *t);

/* quiz.c: tests > topics > questions. */

/*
 * The topic in d (published at url), with its questions and their
 * anchors; tr gets its intro and its questions' nodes. deflt is the
 * test's difficulty (DIFF_NONE: medium). Free with quiz_topic_free.
 */
struct topic *quiz_build_topic(struct doc *d, struct doc_tree *tr, struct test *t, const char *url,
    const char *slug, enum difficulty deflt, struct diag_list *dl);
/*
 * A test's _index.md: its anchors, and its title (the front matter's, or
 * a leading # heading's; NULL with an error if neither); tr gets its
 * introduction (every other top-level block). Caller frees the title.
 */
char *quiz_test_index(struct doc *d, struct doc_tree *tr, struct diag_list *dl);
/* Builds site->tests from content/quiz, sorted; each doc's index job ended. */
void quiz_build_tests(struct site *site, struct diag_list *dl);
void quiz_topic_free(struct topic *tp);
/* A test and its topics. */
void quiz_test_free(struct test *t);

/* deck.c: decks > cards. */

/*
 * The deck in d, with its cards and their anchors; t gets its intro and
 * its cards' nodes. Free with deck_free.
 */
struct deck *deck_build(struct doc *d, struct doc_tree *t, struct diag_list *dl);
/* For qsort of site->decks: by weight, then slug. */
int deck_cmp(const void *a, const void *b);
void deck_free(struct deck *dk);

/* guide.c: guide > chapters > sections, in reading order. */

/*
 * The chapter in d, a section and an anchor per heading; t gets each
 * section's heading. Free with guide_chapter_free.
 */
struct chapter *guide_build_chapter(struct doc *d, struct doc_tree *t, struct diag_list *dl);
/* Builds site->chapters in reading order (prev, next); each doc's index job ended. */
void guide_build(struct site *site, struct diag_list *dl);
void guide_chapter_free(struct chapter *c);

#endif

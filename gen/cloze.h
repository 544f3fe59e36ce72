/*
 * cloze: deletions in a card's front, written as Anki writes them,
 * {{c1::answer}} or {{c1::answer::hint}}.
 *
 * Deletions are found in the heading's parsed inline nodes, not in its
 * source text: cmark has already decided what is a code span (whose
 * `{{c1::x}}` is code, not a deletion), a link or emphasis, and every
 * output walks those same nodes. cloze_mark rewrites a heading in place,
 * in each tree that holds it (the index and every output open a doc the
 * same way, so they all see the same nodes): a deletion becomes a custom
 * inline node holding the answer's nodes, with the markers as written as
 * its on_enter ("{{c1::") and on_exit ("}}" or "::hint}}"). A renderer
 * that does not know deletions shows the answer as plain text; one that
 * writes on_enter and on_exit around the children writes the deletion as
 * Anki reads it (an exporter's cloze note).
 *
 * A deletion opens and closes among the children of one node (the
 * heading, or one emphasis or link): `{{c1::*a*}}` and `*{{c1::a}}*` are
 * deletions, `*{{c1::a*}}` is not closed.
 */
#ifndef QUIZDECK_CLOZE_H
#define QUIZDECK_CLOZE_H

#include <stddef.h>

#include <cmark-gfm.h>

/* The highest cloze number: c1 to c99. */
#define CLOZE_MAX 99

enum cloze_problem {
	CLOZE_UNCLOSED,            /* {{c1:: without its }} among the same siblings */
	CLOZE_BAD_NUMBER,          /* {{c0::, {{c::, {{c100:: */
	CLOZE_EMPTY,               /* {{c1::}} or only spaces */
	CLOZE_NESTED               /* a deletion inside another */
};

/* A mistake cloze_mark found; line and column are cmark's, in the body. */
struct cloze_issue {
	enum cloze_problem what;
	int line, col;             /* of the {{ */
};

/* One deletion, in the order written. */
struct cloze_deletion {
	int number;
	char *answer;              /* plain text */
	char *hint;                /* NULL when none */
	int line, col;             /* cmark's, of the {{ */
};

struct cloze_list {
	struct cloze_deletion *v;
	size_t len, cap;
	struct cloze_issue *issues;
	size_t nissues, issues_cap;
};

/*
 * Rewrites the deletions among heading's inline nodes into deletion
 * nodes and lists them in out, with what was wrong in out->issues (a
 * wrong deletion is left as text). Returns out->len.
 */
size_t cloze_mark(cmark_node *heading, struct cloze_list *out);
void cloze_list_free(struct cloze_list *l);

/* The number of a deletion node, or 0 for any other node. */
int cloze_number(cmark_node *n);
/* 1 if heading holds a deletion node. */
int cloze_has(cmark_node *heading);
/* A deletion node's hint, or NULL; points into the node. */
const char *cloze_hint(cmark_node *n, size_t *len);

/* What a deletion shows, in cloze_text and in the renderers. */
enum cloze_show {
	CLOZE_SHOW_TEXT,           /* every answer as text */
	CLOZE_SHOW_BLANK,          /* deletion `number` as [hint] or [...], others as text */
	CLOZE_SHOW_NONE,           /* no answer at all: for ids, labels and folios */
	CLOZE_SHOW_SOURCE          /* every deletion as written: {{c1::answer::hint}} */
};

/* The blank a front shows for deletion node n: "[hint]" or "[…]"; caller frees. */
char *cloze_blank(cmark_node *n);

/*
 * The plain text of a heading with its deletion nodes shown as `show`
 * says (number: the deletion blanked), spaces collapsed. Caller frees.
 */
char *cloze_text(cmark_node *heading, enum cloze_show show, int number);

#endif

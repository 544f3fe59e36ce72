/*
 * paper: what the printed documents of running text (the guide as a
 * book, a test's handout) set alike on a flow (flow.h): a question as a
 * test sets it, its answer as a key gives it, a Markdown table, and a
 * picture of the site. The caller says how its Markdown becomes the
 * flow's (struct paper_text): the book marks links and walks every kind
 * of block, the handout sets links as their text.
 */
#ifndef QUIZDECK_PAPER_H
#define QUIZDECK_PAPER_H

#include <stddef.h>

#include <cmark-gfm.h>

#include "diag.h"
#include "flow.h"
#include "image.h"
#include "model.h"
#include "site.h"

struct paper_text {
	/*
	 * The markup of inline container n (a heading, paragraph or cell);
	 * *links the links its FLOW_LINK_BEGIN marks lead to, valid until
	 * the next call. Caller frees the markup.
	 */
	char *(*inline_markup)(void *ctx, cmark_node *n, const struct flow_link **links, size_t *nlinks);
	/* Blocks first..last (siblings) into the flow in role, indent em in; keep: with what follows. */
	void (*blocks)(void *ctx, cmark_node *first, cmark_node *last, enum flow_role role, double indent,
	    int keep);
	void *ctx;
};

/*
 * Question q (its nodes qn, or NULL: its stem as plain text) as a test
 * sets it: the stem in the question role with marker (or NULL) in the
 * indent of indent em, its further blocks, a hint for what is asked
 * other than one choice (in l's words), then the options lettered A, B ... (2 em
 * further in) or a box to write the answer in. Kept on one page where it
 * fits.
 */
/*
 * A paragraph of markup (its links' targets in links) in role, indent em
 * in, with marker (or NULL) in the indent; tight: no space after it;
 * keep: on a page with the block after it.
 */
void paper_para(struct flow *f, const char *markup, const struct flow_link *links, size_t nlinks,
    enum flow_role role, double indent, const char *marker, int tight, int keep);

struct lang;
void paper_question(const struct lang *l, struct flow *f, const struct question *q,
    const struct question_nodes *qn, const char *marker, double indent, const struct paper_text *tx);
/*
 * q's answer in the key role, in bold after label (markup, or NULL)
 * with marker (or NULL) in the indent: the letters of the right options
 * ("B, D") or the accepted typed answers; then its explanation.
 */
void paper_answer(const struct lang *l, struct flow *f, const struct question *q,
    const struct question_nodes *qn, const char *marker, const char *label, double indent,
    const struct paper_text *tx);

/* A GFM table node into the flow, its cells' markup (and links) from tx. */
void paper_table(struct flow *f, cmark_node *table, double indent, const struct paper_text *tx);

/*
 * The picture image node img of doc shows, loaded (caller frees with
 * image_free), or NULL with a warning at its place in doc that document
 * ("the book", "the handout") sets its description instead.
 */
struct image *paper_picture(const struct site *site, const struct doc *doc, cmark_node *img,
    const char *document, struct diag_list *dl);
/* The image a paragraph holds alone, or NULL: drawn as a picture rather than set as text. */
cmark_node *paper_lone_image(cmark_node *para);

#endif

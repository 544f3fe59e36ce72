/*
 * render: cmark-gfm trees to HTML, written through a theme_writer.
 *
 * One iterator loop over the cmark tree (no recursion); text is always
 * written as text, so content can never turn into markup. Links are
 * rewritten to output pages and made relative to the page being built;
 * unsafe URLs are never emitted; raw HTML is dropped unless the site sets
 * [markdown] unsafe_html, and then read by libxml2's HTML parser, which
 * balances it, has its unsafe URLs removed, and is written like the rest.
 * Footnotes referenced by what was rendered are collected and written
 * out by render_out_footnotes.
 */
#ifndef QUIZDECK_RENDER_H
#define QUIZDECK_RENDER_H

#include <cmark-gfm.h>

#include "model.h"
#include "site.h"

struct render_opts {
	const struct site *site;
	const struct doc *doc;     /* the source, for resolving links */
	const char *page_url;      /* the page being built, below out/ */
	const char *id_prefix;     /* keeps footnote ids unique on the page ("" or "q1-") */
	/*
	 * Chapter pages: the chapter's open tree, whose headings get the ids
	 * of their sections (doc_tree_section_at) and a self-link. NULL
	 * elsewhere: headings get no id.
	 */
	const struct doc_tree *chapter_tree;
	/* A second rendering of the same content on one page: emit no ids. */
	int copy;
	/* The footnotes section's name, unique on the page; NULL: "Footnotes". */
	const char *footnotes_label;
	/*
	 * HTML that leaves the site (an export): when set, each link's and
	 * image's destination as written in doc goes to url(url_arg, ...)
	 * with its node (where the source has it), which returns the URL to
	 * write (caller frees) or NULL to leave it out (a link keeps its
	 * text, an image its alt text). NULL: URLs lead to the site's pages,
	 * relative to page_url.
	 */
	char *(*url)(void *url_arg, cmark_node *node, const char *dest, int is_image);
	void *url_arg;
	/*
	 * A cloze card's heading: deletion `cloze` is written as a blank
	 * (span.cloze-blank, "[hint]" or "[…]"), or with cloze_answer as its
	 * answer in a <mark>; the other deletions as their text. 0: every
	 * deletion as its text.
	 */
	int cloze;
	int cloze_answer;
	/*
	 * Every deletion with its markers as written around its rendered
	 * answer ({{c1::<b>x</b>::hint}}): the Text field of an Anki cloze
	 * note. Used with cloze 0.
	 */
	int cloze_markers;
};

/*
 * A rendering session: one per doc and page region, since footnotes are
 * numbered per doc and written once per session.
 */
struct render;

struct render *render_new(const struct render_opts *o);
void render_free(struct render *r);

/*
 * Where rendered HTML goes: bytes through w, by the rules pages are
 * written by. The render_out calls write there; html.c's builders use
 * them too. Element and attribute names must be string literals. The
 * bytes go into a page with tvars_html.
 */
struct theme_writer;
struct render_out {
	struct theme_writer *w;
};

void render_out_open(struct render_out *o, const char *name, const char *cls);
/* An attribute of the element just opened, before any child. */
void render_out_attr(struct render_out *o, const char *name, const char *value);
void render_out_text(struct render_out *o, const char *text);
void render_out_close(struct render_out *o);
void render_out_nl(struct render_out *o);
/* Renders the sibling blocks first..last (inclusive) into o. */
void render_out_blocks(struct render *r, struct render_out *o, cmark_node *first, cmark_node *last);
/* Renders the children of node (a heading, paragraph, item...) into o. */
void render_out_children(struct render *r, struct render_out *o, cmark_node *node);
/* Writes the footnotes referenced so far (a section.footnotes), if any. */
void render_out_footnotes(struct render *r, struct render_out *o);


#endif

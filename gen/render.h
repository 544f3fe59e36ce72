/*
 * render: cmark-gfm trees to HTML: bytes through a theme_writer, or
 * libxml2 nodes for what raw HTML and footnotes need.
 *
 * One iterator loop over the cmark tree (no recursion); text always
 * becomes text nodes, so content can never turn into markup. Links are
 * rewritten to output pages and made relative to the page being built;
 * unsafe URLs are never emitted; raw HTML is dropped unless the site sets
 * [markdown] unsafe_html. Footnotes referenced by what was rendered are
 * collected and written out by render_footnotes.
 */
#ifndef QUIZDECK_RENDER_H
#define QUIZDECK_RENDER_H

#include <cmark-gfm.h>
#include <libxml/tree.h>

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
};

/*
 * A rendering session: one per doc and page region, since footnotes are
 * numbered per doc and written once per session.
 */
struct render;

struct render *render_new(const struct render_opts *o);
void render_free(struct render *r);

/* Renders the sibling blocks first..last (inclusive) as children of parent. */
void render_blocks(struct render *r, xmlNodePtr parent, cmark_node *first, cmark_node *last);
/* Renders the children of node (a heading, paragraph, item...) into parent. */
void render_children(struct render *r, xmlNodePtr parent, cmark_node *node);
/* Appends the footnotes referenced so far (a section.footnotes), if any. */
void render_footnotes(struct render *r, xmlNodePtr parent);

/*
 * Where rendered HTML goes: nodes under cur (w NULL), or bytes through w,
 * exactly those theme_serialize_children writes for the nodes. The
 * render_out_ calls write either way; html.c's builders use them too, so
 * one piece of code makes both. Element and attribute names must be
 * string literals. The bytes go into a page with tvars_html.
 */
struct theme_writer;
struct render_out {
	xmlNodePtr cur;
	struct theme_writer *w;
};

void render_out_open(struct render_out *o, const char *name, const char *cls);
/* An attribute of the element just opened, before any child. */
void render_out_attr(struct render_out *o, const char *name, const char *value);
void render_out_text(struct render_out *o, const char *text);
void render_out_close(struct render_out *o);
void render_out_nl(struct render_out *o);
/* render_blocks, render_children and render_footnotes, into o. */
void render_out_blocks(struct render *r, struct render_out *o, cmark_node *first, cmark_node *last);
void render_out_children(struct render *r, struct render_out *o, cmark_node *node);
void render_out_footnotes(struct render *r, struct render_out *o);

/* Helpers for building pages. */
xmlNodePtr render_el(xmlNodePtr parent, const char *name, const char *cls);
void render_text(xmlNodePtr parent, const char *text);
void render_attr(xmlNodePtr el, const char *name, const char *value);
/* A newline text node after a block, so the output reads line by line. */
void render_nl(xmlNodePtr parent);

#endif

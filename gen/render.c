/*
 * render: cmark-gfm trees to HTML bytes through a theme_writer, in one
 * iterator loop.
 *
 * The loop keeps its own stack (on the heap) of the writer's depth at
 * each cmark container entered, so nesting depth costs memory, never C
 * stack. Raw inline HTML (only with unsafe_html) may open an element that
 * a later inline closes; leaving a container closes what is still open
 * in it.
 *
 * An author's raw HTML (unsafe_html) is read by libxml2's HTML parser:
 * it balances the tags as a browser's parser would, so raw HTML cannot
 * close or break the page around it, and it gives attributes as values,
 * entities decoded, for S_scrub to check for javascript: and the like.
 * The parsed fragment is then written through the writer like the rest
 * and freed; an opening tag alone is parsed for its name and attributes.
 */
#include "render.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <cmark-gfm-core-extensions.h>

#include "cloze.h"
#include "lang.h"
#include "links.h"
#include "markdown.h"
#include "theme.h"
#include "util.h"

#define RENDER_MAX_DEPTH 64

struct frame {
	size_t sdepth;             /* elements open before it was entered */
	size_t eldepth;            /* elements open with the one made for it */
	int has_el;                /* an element was made for it */
	const struct section *section;  /* a heading's section, for its self-link */
	int cloze_markers;         /* a deletion whose on_enter was written: on_exit goes after it */
};

struct render {
	struct render_opts o;
	struct frame *stack;
	size_t depth, cap;
	size_t column;             /* the next table cell's column */
	char *page;                /* o.page_url percent-encoded, made on the first link */
	/* Footnotes: definitions of the doc, and the numbers referenced. */
	cmark_node *fn_root;
	cmark_node **fn_defs;
	size_t nfn_defs, fn_defs_cap;
	int *fn_refs;              /* per definition: how many references so far */
	int *fn_order;             /* footnote numbers in order of first reference */
	size_t nfn, fn_cap;
	struct render_out *out;    /* where the walk writes, during a call */
	struct theme_writer *fn_w; /* a footnote definition's body, before its back-link goes in */
	struct buf scratch;        /* a value being put together */
};

struct render *
render_new(const struct render_opts *o)
{
	struct render *r = xcalloc(1, sizeof(*r));

	r->o = *o;
	buf_init(&r->scratch);
	if (r->o.id_prefix == NULL)
		r->o.id_prefix = "";
	return r;
}

void
render_free(struct render *r)
{
	if (r == NULL)
		return;
	free(r->stack);
	free(r->page);
	free(r->fn_defs);
	free(r->fn_refs);
	free(r->fn_order);
	theme_writer_free(r->fn_w);
	buf_free(&r->scratch);
	free(r);
}

/* ---- links ------------------------------------------------------------- */

/*
 * The URL to emit for a destination of doc on page (percent-encoded, as
 * the targets are, to compare), or NULL if it must not be emitted.
 */
static char *
S_site_url(const struct site *site, const struct doc *doc, const char *page, const char *dest,
    int is_image)
{
	char *target, *res;
	const char *hash;
	struct buf b;
	size_t n;

	target = links_output_target(site, doc, dest);
	/* A relative destination that did not resolve is broken: never emitted as written. */
	if (target == NULL)
		return links_is_external(dest) && links_url_is_safe(dest, is_image) ? xstrdup(dest) : NULL;
	hash = strchr(target, '#');
	n = hash ? (size_t)(hash - target) : strlen(target);
	/* A place on this page: the fragment alone. */
	if (hash && (n == 0 || (strncmp(target, page, n) == 0 && page[n] == '\0')))
		res = xstrdup(hash);
	else {
		/* One block for it all: most URLs fit in what is reserved. */
		buf_init(&b);
		buf_reserve(&b, strlen(target) + 64);
		path_relative_put(&b, page, target, n);
		if (hash)
			buf_puts(&b, hash);
		res = buf_detach(&b);
	}
	free(target);
	return res;
}

static char *
S_url(struct render *r, cmark_node *node, const char *dest, int is_image)
{
	if (r->o.url)
		return r->o.url(r->o.url_arg, node, dest, is_image);
	if (r->page == NULL)
		r->page = url_encode_path(r->o.page_url);
	return S_site_url(r->o.site, r->o.doc, r->page, dest, is_image);
}

/* Drops URL attributes a links_url_is_safe check refuses, in parsed raw HTML. */
static void
S_scrub(xmlNodePtr top)
{
	static const char *const url_attrs[] = {
		"href", "src", "action", "formaction", "poster", "data", "xlink:href", "srcset",
	};
	xmlNodePtr n = top;

	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			size_t i;

			for (i = 0; i < sizeof(url_attrs) / sizeof(url_attrs[0]); i++) {
				xmlChar *v = xmlGetProp(n, (const xmlChar *)url_attrs[i]);

				if (v && !links_url_is_safe((const char *)v,
				    strcmp((const char *)n->name, "img") == 0))
					xmlUnsetProp(n, (const xmlChar *)url_attrs[i]);
				xmlFree(v);
			}
		}
		n = theme_next_node(n, top);
	}
}

/* ---- raw HTML (unsafe_html only) ----------------------------------------- */

static htmlDocPtr
S_parse_fragment(const char *html)
{
	return htmlReadMemory(html, (int)strlen(html), NULL, "UTF-8",
	    HTML_PARSE_NOIMPLIED | HTML_PARSE_NODEFDTD | HTML_PARSE_NOERROR |
	    HTML_PARSE_NOWARNING | HTML_PARSE_NONET | XML_PARSE_NODICT);
}

/* Writes raw HTML, balanced and scrubbed, into the current element. */
static void
S_raw(struct render *r, const char *html)
{
	htmlDocPtr frag = S_parse_fragment(html);
	xmlNodePtr n;

	if (frag == NULL)
		return;
	for (n = frag->children; n; n = n->next) {
		if (n->type == XML_DTD_NODE)
			continue;
		S_scrub(n);
		theme_writer_node(r->out->w, n);
	}
	xmlFreeDoc(frag);
}

static int
S_is_void(const char *name)
{
	static const char *const v[] = {
		"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
		"meta", "source", "track", "wbr",
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcmp(name, v[i]) == 0)
			return 1;
	return 0;
}

/*
 * An inline piece of raw HTML: an opening tag opens an element that
 * following inlines go into; a closing tag closes the innermost element
 * if it has that name and was opened above floor (the writer's depth in
 * the container being rendered); any other piece is written whole.
 */
static void
S_inline_html(struct render *r, size_t floor, const char *lit)
{
	struct theme_writer *w = r->out->w;
	size_t n = strlen(lit);
	htmlDocPtr frag;
	xmlNodePtr el;

	if (lit[0] == '<' && lit[1] == '/') {
		const char *p = lit + 2, *top = theme_writer_top(w);
		size_t k = strcspn(p, " \t\n>");

		if (theme_writer_depth(w) > floor && top && strlen(top) == k &&
		    strncasecmp(top, p, k) == 0)
			theme_writer_end(w);
		return;
	}
	if (lit[0] != '<' || lit[1] == '!' || lit[1] == '?' || (n >= 2 && lit[n - 2] == '/')) {
		S_raw(r, lit);
		return;
	}
	if ((frag = S_parse_fragment(lit)) == NULL)
		return;
	for (el = frag->children; el && el->type != XML_ELEMENT_NODE; el = el->next)
		;
	if (el == NULL || S_is_void((const char *)el->name))
		S_raw(r, lit);
	else {
		S_scrub(el);
		theme_writer_start_node(w, el);
	}
	xmlFreeDoc(frag);
}

/* ---- the loop ---------------------------------------------------------- */

static int
S_is_leaf(cmark_node *node)
{
	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_HTML_BLOCK:
	case CMARK_NODE_THEMATIC_BREAK:
	case CMARK_NODE_CODE_BLOCK:
	case CMARK_NODE_TEXT:
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
	case CMARK_NODE_CODE:
	case CMARK_NODE_HTML_INLINE:
		return 1;
	default:
		return 0;
	}
}

static int
S_is_skipped(cmark_node *node)
{
	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_IMAGE:
	case CMARK_NODE_FOOTNOTE_REFERENCE:
	case CMARK_NODE_FOOTNOTE_DEFINITION:
		return 1;
	default:
		return 0;
	}
}

static int
S_is(cmark_node *node, const char *type)
{
	const char *t = cmark_node_get_type_string(node);

	return t && strcmp(t, type) == 0;
}

static int
S_tight_paragraph(cmark_node *p)
{
	cmark_node *item = cmark_node_parent(p), *list;

	if (item == NULL || cmark_node_get_type(item) != CMARK_NODE_ITEM)
		return 0;
	list = cmark_node_parent(item);
	return list && cmark_node_get_list_tight(list);
}

/*
 * 1 for a chapter's paragraph that holds one picture and nothing else:
 * a figure, drawn in a block that scrolls sideways when the picture is
 * wider than the page and linked to the picture to open it full size.
 * A picture among words stays inline, unlinked.
 */
static int
S_figure(const struct render *r, cmark_node *p)
{
	cmark_node *only = cmark_node_first_child(p);

	return r->o.chapter_tree != NULL && r->o.url == NULL &&
	    cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH &&
	    only != NULL && cmark_node_next(only) == NULL &&
	    cmark_node_get_type(only) == CMARK_NODE_IMAGE;
}

/* The code block's language, reduced to [A-Za-z0-9_+-]; "" if none. */
static char *
S_language(const char *info)
{
	struct buf b;
	const char *p;

	buf_init(&b);
	buf_puts(&b, "");
	for (p = info ? info : ""; *p && *p != ' ' && *p != '\t'; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '+' || *p == '-')
			buf_putc(&b, *p);
	return buf_detach(&b);
}

/*
 * ---- the output ---------------------------------------------------------
 *
 * The walk, and html.c's builders, write through these into o's writer.
 */

void
render_out_open(struct render_out *o, const char *name, const char *cls)
{
	theme_writer_start(o->w, name);
	if (cls)
		theme_writer_attr(o->w, "class", cls);
}

void
render_out_attr(struct render_out *o, const char *name, const char *value)
{
	theme_writer_attr(o->w, name, value);
}

void
render_out_text(struct render_out *o, const char *text)
{
	theme_writer_text(o->w, text);
}

void
render_out_close(struct render_out *o)
{
	theme_writer_end(o->w);
}

void
render_out_nl(struct render_out *o)
{
	render_out_text(o, "\n");
}

static void
S_open(struct render *r, const char *name, const char *cls)
{
	render_out_open(r->out, name, cls);
}

/* The learner's string for key, in the site's language (lang.h). */
static const char *
S_str(const struct render *r, const char *key)
{
	return lang_get(r->o.site->lang, key);
}

/*
 * The name of a table's scrolling region: its column headings, in the
 * site's language ("Table: Collective, Before, After"), so that a page's
 * tables are told apart. Caller frees.
 */
static char *
S_table_name(const struct render *r, cmark_node *table)
{
	cmark_node *row = cmark_node_first_child(table), *cell;
	struct buf cols;
	char *name;

	buf_init(&cols);
	for (cell = row && S_is(row, "table_header") ? cmark_node_first_child(row) : NULL; cell;
	    cell = cmark_node_next(cell)) {
		char *text = md_plain_text(cell);

		if (text && *text) {
			if (cols.len > 0)
				buf_puts(&cols, S_str(r, "render.table.separator"));
			buf_puts(&cols, text);
		}
		free(text);
	}
	name = cols.len > 0 ? lang_format(r->o.site->lang, "render.table.region", "columns", cols.data, NULL) :
	    xstrdup(S_str(r, "render.table.region-plain"));
	buf_free(&cols);
	return name;
}

static void
S_attr(struct render *r, const char *name, const char *value)
{
	render_out_attr(r->out, name, value);
}

static void
S_text(struct render *r, const char *text)
{
	render_out_text(r->out, text);
}

static void
S_close(struct render *r)
{
	render_out_close(r->out);
}

/* Closes elements until depth are open. */
static void
S_close_to(struct render *r, size_t depth)
{
	while (theme_writer_depth(r->out->w) > depth)
		theme_writer_end(r->out->w);
}

static void
S_nl(struct render *r)
{
	S_text(r, "\n");
}

static void
S_footnote_ref(struct render *r, cmark_node *node)
{
	const char *lit = cmark_node_get_literal(node);
	long num = lit ? strtol(lit, NULL, 10) : 0;
	cmark_node *root;
	char *s;

	S_open(r, "sup", "footnote-ref");
	if (num <= 0 || r->o.copy) {
		S_text(r, lit ? lit : "");
		S_close(r);
		return;
	}
	/* The doc's definitions, in number order (cmark-gfm sorts them last in the document). */
	for (root = node; cmark_node_parent(root); root = cmark_node_parent(root))
		;
	if (root != r->fn_root) {
		cmark_node *c;

		r->fn_root = root;
		r->nfn_defs = 0;
		for (c = cmark_node_first_child(root); c; c = cmark_node_next(c))
			if (cmark_node_get_type(c) == CMARK_NODE_FOOTNOTE_DEFINITION) {
				r->fn_defs = xgrow(r->fn_defs, &r->fn_defs_cap, r->nfn_defs + 1,
				    sizeof(*r->fn_defs));
				r->fn_defs[r->nfn_defs++] = c;
			}
		free(r->fn_refs);
		r->fn_refs = xcalloc(r->nfn_defs + 1, sizeof(*r->fn_refs));
		r->nfn = 0;
	}
	if ((size_t)num > r->nfn_defs) {
		S_text(r, lit);
		S_close(r);
		return;
	}
	if (r->fn_refs[num] == 0) {
		r->fn_order = xgrow(r->fn_order, &r->fn_cap, r->nfn + 1, sizeof(*r->fn_order));
		r->fn_order[r->nfn++] = (int)num;
	}
	r->fn_refs[num]++;
	S_open(r, "a", NULL);
	s = xasprintf("#fn-%s%ld", r->o.id_prefix, num);
	S_attr(r, "href", s);
	free(s);
	if (r->fn_refs[num] == 1)
		s = xasprintf("fnref-%s%ld", r->o.id_prefix, num);
	else
		s = xasprintf("fnref-%s%ld-%d", r->o.id_prefix, num, r->fn_refs[num]);
	S_attr(r, "id", s);
	free(s);
	S_text(r, lit);
	S_close(r);
	S_close(r);
}

/* A cell; ix is its column, counted by the caller as the row is walked. */
static void
S_table_cell(struct render *r, cmark_node *node, size_t ix)
{
	cmark_node *row = cmark_node_parent(node), *table;
	int header = row && cmark_gfm_extensions_get_table_row_is_header(row);
	uint8_t *align;
	uint16_t ncols;

	S_open(r, header ? "th" : "td", NULL);
	table = row ? cmark_node_parent(row) : NULL;
	if (table == NULL)
		return;
	ncols = cmark_gfm_extensions_get_table_columns(table);
	align = cmark_gfm_extensions_get_table_alignments(table);
	if (align && ix < ncols) {
		const char *cls = align[ix] == 'l' ? "align-left" :
		    align[ix] == 'c' ? "align-center" : align[ix] == 'r' ? "align-right" : NULL;

		if (cls)
			S_attr(r, "class", cls);
	}
	if (header)
		S_attr(r, "scope", "col");
}

/*
 * Goes into the table's tbody (or thead), made on first use: the table
 * is open, or the part a row left open.
 */
static void
S_table_part(struct render *r, const char *name)
{
	const char *top = theme_writer_top(r->out->w);

	if (top && strcmp(top, name) == 0)
		return;
	if (top && (strcmp(top, "thead") == 0 || strcmp(top, "tbody") == 0))
		theme_writer_end(r->out->w);
	S_open(r, name, NULL);
	S_nl(r);
}

/*
 * Handles entering a node. Returns 1 when it opened an element for a
 * container (its children go there; S_exit closes it), 0 when the
 * children go where the output was. Leaves close what they open.
 */
static int
S_enter(struct render *r, cmark_iter *it, cmark_node *node, struct frame *fr)
{
	static const char *const hn[] = { "h1", "h2", "h3", "h4", "h5", "h6" };
	const char *lit = cmark_node_get_literal(node);
	char *s;

	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_DOCUMENT:
		return 0;
	case CMARK_NODE_BLOCK_QUOTE:
		S_open(r, "blockquote", NULL);
		S_nl(r);
		return 1;
	case CMARK_NODE_LIST: {
		cmark_node *first = cmark_node_first_child(node);
		int ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;

		S_open(r, ordered ? "ol" : "ul",
		    first && S_is(first, "tasklist") ? "task-list" : NULL);
		if (ordered && cmark_node_get_list_start(node) != 1) {
			s = xasprintf("%d", cmark_node_get_list_start(node));
			S_attr(r, "start", s);
			free(s);
		}
		S_nl(r);
		return 1;
	}
	case CMARK_NODE_ITEM:
		if (!S_is(node, "tasklist")) {
			S_open(r, "li", NULL);
			return 1;
		}
		S_open(r, "li", "task-list-item");
		S_open(r, "input", NULL);
		S_attr(r, "type", "checkbox");
		S_attr(r, "disabled", "");
		if (cmark_gfm_extensions_get_tasklist_item_checked(node)) {
			S_attr(r, "checked", "");
			S_attr(r, "aria-label", S_str(r, "render.done"));
		} else
			S_attr(r, "aria-label", S_str(r, "render.not-done"));
		S_close(r);
		S_text(r, " ");
		return 1;
	case CMARK_NODE_PARAGRAPH:
		if (S_tight_paragraph(node))
			return 0;
		S_open(r, "p", S_figure(r, node) ? "figure" : NULL);
		return 1;
	case CMARK_NODE_HEADING: {
		int level = cmark_node_get_heading_level(node);

		S_open(r, hn[level >= 1 && level <= 6 ? level - 1 : 0], NULL);
		fr->section = doc_tree_section_at(r->o.chapter_tree, node);
		if (fr->section != NULL && !r->o.copy)
			S_attr(r, "id", fr->section->id);
		else
			fr->section = NULL;
		return 1;
	}
	case CMARK_NODE_CODE_BLOCK:
		S_open(r, "pre", NULL);
		S_open(r, "code", NULL);
		s = S_language(cmark_node_get_fence_info(node));
		if (*s) {
			char *cls = xconcat("language-", s, NULL);

			S_attr(r, "class", cls);
			free(cls);
		}
		free(s);
		S_text(r, lit);
		S_close(r);
		S_close(r);
		S_nl(r);
		return 0;
	case CMARK_NODE_HTML_BLOCK:
		if (r->o.site->cfg.markdown.unsafe_html && lit)
			S_raw(r, lit);
		return 0;
	case CMARK_NODE_THEMATIC_BREAK:
		S_open(r, "hr", NULL);
		S_close(r);
		S_nl(r);
		return 0;
	case CMARK_NODE_FOOTNOTE_DEFINITION:
		/* Written by render_out_footnotes, where referenced. */
		cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
		return 0;
	case CMARK_NODE_TEXT:
		S_text(r, lit);
		return 0;
	case CMARK_NODE_SOFTBREAK:
		S_text(r, "\n");
		return 0;
	case CMARK_NODE_LINEBREAK:
		S_open(r, "br", NULL);
		S_close(r);
		S_text(r, "\n");
		return 0;
	case CMARK_NODE_CODE:
		S_open(r, "code", NULL);
		S_text(r, lit);
		S_close(r);
		return 0;
	case CMARK_NODE_HTML_INLINE:
		/* Handled by the loop, which knows the container's depth. */
		return 0;
	case CMARK_NODE_EMPH:
		S_open(r, "em", NULL);
		return 1;
	case CMARK_NODE_STRONG:
		S_open(r, "strong", NULL);
		return 1;
	case CMARK_NODE_LINK: {
		const char *title = cmark_node_get_title(node);
		const char *dest = cmark_node_get_url(node) ? cmark_node_get_url(node) : "";

		if ((s = S_url(r, node, dest, 0)) == NULL)
			return 0;           /* the text stays, the link goes */
		else {
			S_open(r, "a", NULL);
			S_attr(r, "href", s);
			free(s);
		}
		if (title && *title)
			S_attr(r, "title", title);
		return 1;
	}
	case CMARK_NODE_IMAGE: {
		const char *title = cmark_node_get_title(node);
		const char *dest = cmark_node_get_url(node) ? cmark_node_get_url(node) : "";
		char *alt = md_plain_text(node);

		s = S_url(r, node, dest, 1);
		if (s == NULL)
			S_text(r, alt);     /* an image that must not load: its words stay */
		else {
			int figure = S_figure(r, cmark_node_parent(node));

			if (figure) {
				S_open(r, "a", "figure-link");
				S_attr(r, "href", s);
			}
			S_open(r, "img", NULL);
			S_attr(r, "src", s);
			S_attr(r, "alt", alt ? alt : "");
			if (title && *title)
				S_attr(r, "title", title);
			S_close(r);
			if (figure)
				S_close(r);
		}
		free(s);
		free(alt);
		cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
		return 0;
	}
	case CMARK_NODE_FOOTNOTE_REFERENCE:
		S_footnote_ref(r, node);
		cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
		return 0;
	default:
		break;
	}
	if (S_is(node, "table")) {
		/*
		 * A wide table scrolls sideways in its block: on a page, a named
		 * region (a section with a name) in the tab order, so that the
		 * keyboard can scroll it (WCAG 2.1.1). An export's HTML is read in
		 * another app, and keeps the bare block.
		 */
		if (r->o.url == NULL) {
			char *name = S_table_name(r, node);

			S_open(r, "section", "table-wrap");
			S_attr(r, "tabindex", "0");
			S_attr(r, "aria-label", name);
			free(name);
		} else
			S_open(r, "div", "table-wrap");
		S_open(r, "table", NULL);
		S_nl(r);
		return 1;
	}
	if (S_is(node, "table_header")) {
		r->column = 0;
		S_table_part(r, "thead");
		S_open(r, "tr", NULL);
		return 1;
	}
	if (S_is(node, "table_row")) {
		r->column = 0;
		S_table_part(r, "tbody");
		S_open(r, "tr", NULL);
		return 1;
	}
	if (S_is(node, "table_cell")) {
		S_table_cell(r, node, r->column++);
		return 1;
	}
	if (S_is(node, "strikethrough")) {
		S_open(r, "del", NULL);
		return 1;
	}
	if (r->o.cloze && cloze_number(node) == r->o.cloze) {
		S_open(r, "mark", "cloze");
		return 1;
	}
	if (r->o.cloze_markers && fr && cloze_number(node)) {
		S_text(r, cmark_node_get_on_enter(node));
		fr->cloze_markers = 1;
	}
	return 0;                     /* custom and unknown nodes: their children only */
}

/*
 * 1 for cmark's own node types; an extension's (tables, strikethrough)
 * are told apart by name (S_is), which costs a look-up and a compare.
 */
static int
S_is_core(cmark_node *node)
{
	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_DOCUMENT:
	case CMARK_NODE_BLOCK_QUOTE:
	case CMARK_NODE_LIST:
	case CMARK_NODE_ITEM:
	case CMARK_NODE_CODE_BLOCK:
	case CMARK_NODE_HTML_BLOCK:
	case CMARK_NODE_CUSTOM_BLOCK:
	case CMARK_NODE_PARAGRAPH:
	case CMARK_NODE_HEADING:
	case CMARK_NODE_THEMATIC_BREAK:
	case CMARK_NODE_FOOTNOTE_DEFINITION:
	case CMARK_NODE_TEXT:
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
	case CMARK_NODE_CODE:
	case CMARK_NODE_HTML_INLINE:
	case CMARK_NODE_CUSTOM_INLINE:
	case CMARK_NODE_EMPH:
	case CMARK_NODE_STRONG:
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE:
	case CMARK_NODE_FOOTNOTE_REFERENCE:
		return 1;
	default:
		return 0;
	}
}

/* A table's header or body row. */
static int
S_is_row(cmark_node *node)
{
	return !S_is_core(node) && (S_is(node, "table_header") || S_is(node, "table_row"));
}

static int
S_is_block(cmark_node *node)
{
	switch (cmark_node_get_type(node)) {
	case CMARK_NODE_BLOCK_QUOTE:
	case CMARK_NODE_LIST:
	case CMARK_NODE_ITEM:
	case CMARK_NODE_PARAGRAPH:
	case CMARK_NODE_HEADING:
		return 1;
	default:
		return !S_is_core(node) && (S_is(node, "table") || S_is_row(node));
	}
}

/* Leaves the container of fr: the output goes back to where it was before it. */
static void
S_exit(struct render *r, cmark_node *node, const struct frame *fr)
{
	/* Rows sit in a thead or tbody, which stays open for the next row. */
	int row = fr->has_el && S_is_row(node);

	if (fr->section && fr->has_el) {
		buf_reset(&r->scratch);
		buf_putc(&r->scratch, '#');
		buf_puts(&r->scratch, fr->section->id);
		S_close_to(r, fr->eldepth);
		S_text(r, " ");
		S_open(r, "a", "anchor");
		S_attr(r, "href", r->scratch.data);
		S_attr(r, "aria-label", S_str(r, "render.section-link"));
		S_text(r, "#");
		S_close(r);
	}
	S_close_to(r, row ? fr->eldepth - 1 : fr->sdepth);
	if (fr->cloze_markers)
		S_text(r, cmark_node_get_on_exit(node));
	if (S_is_block(node) && !(cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH && !fr->has_el))
		S_nl(r);
}

/* Renders node and its subtree into r->out, which it leaves as deep as it was. */
static void
S_render(struct render *r, cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	size_t base = r->depth, open = theme_writer_depth(r->out->w);

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		struct frame *fr;

		if (ev == CMARK_EVENT_EXIT) {
			if (r->depth == base)
				continue;
			fr = &r->stack[--r->depth];
			S_exit(r, node, fr);
			continue;
		}
		if (cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE) {
			if (r->o.site->cfg.markdown.unsafe_html && cmark_node_get_literal(node)) {
				const struct frame *in = r->depth > base ? &r->stack[r->depth - 1] : NULL;

				S_inline_html(r, in == NULL ? open : in->has_el ? in->eldepth : in->sdepth,
				    cmark_node_get_literal(node));
			}
			continue;
		}
		/*
		 * Leaves, and the containers S_enter skips over with
		 * cmark_iter_reset (which consumes their exit event), get no frame.
		 */
		if (r->o.cloze && !r->o.cloze_answer && cloze_number(node) == r->o.cloze) {
			char *blank = cloze_blank(node);

			S_open(r, "span", "cloze-blank");
			S_text(r, blank);
			S_close(r);
			free(blank);
			cmark_iter_reset(it, node, CMARK_EVENT_EXIT);
			continue;
		}
		if (S_is_leaf(node) || S_is_skipped(node)) {
			S_enter(r, it, node, NULL);
			continue;
		}
		r->stack = xgrow(r->stack, &r->cap, r->depth + 1, sizeof(*r->stack));
		fr = &r->stack[r->depth++];
		memset(fr, 0, sizeof(*fr));
		fr->sdepth = theme_writer_depth(r->out->w);
		/*
		 * Past RENDER_MAX_DEPTH containers, children go into the
		 * deepest element: the page's depth stays bounded whatever the
		 * input.
		 */
		if (r->depth > RENDER_MAX_DEPTH)
			continue;
		if ((fr->has_el = S_enter(r, it, node, fr)) != 0)
			fr->eldepth = theme_writer_depth(r->out->w);
	}
	r->depth = base;
	S_close_to(r, open);
	cmark_iter_free(it);
}

/* The back-link at the end of footnote num's definition. */
static void
S_backref(struct render *r, int num)
{
	char *s, n[24];

	S_text(r, " ");
	S_open(r, "a", "footnote-backref");
	s = xasprintf("#fnref-%s%d", r->o.id_prefix, num);
	S_attr(r, "href", s);
	free(s);
	snprintf(n, sizeof(n), "%d", num);
	s = lang_format(r->o.site->lang, "render.back-to-reference", "n", n, NULL);
	S_attr(r, "aria-label", s);
	free(s);
	S_text(r, "\xe2\x86\xa9");   /* ↩ */
	S_close(r);
}

/*
 * Footnote num's list item. The back-link goes at the end of the
 * definition's last paragraph when its last element is one, else after
 * it: the definition is written apart first, to find that place.
 */
static void
S_footnote(struct render *r, int num, struct buf *body)
{
	struct render_out *o = r->out, def;
	const char *last;
	size_t at;
	char *s;

	S_open(r, "li", NULL);
	s = xasprintf("fn-%s%d", r->o.id_prefix, num);
	S_attr(r, "id", s);
	free(s);
	s = xasprintf("%d", num);
	S_attr(r, "value", s);
	free(s);
	if (r->fn_w == NULL)
		r->fn_w = theme_writer_new();
	buf_reset(body);
	buf_put(body, "", 0);
	theme_writer_begin(r->fn_w, body);
	def.w = r->fn_w;
	render_out_children(r, &def, r->fn_defs[num - 1]);
	last = theme_writer_last(r->fn_w, &at);
	if (last == NULL || strcmp(last, "p") != 0)
		at = body->len;
	if (at > 0)
		theme_writer_raw(o->w, body->data, at);
	S_backref(r, num);
	if (body->len > at)
		theme_writer_raw(o->w, body->data + at, body->len - at);
	S_close(r);
}

void
render_out_blocks(struct render *r, struct render_out *o, cmark_node *first, cmark_node *last)
{
	struct render_out *was = r->out;
	cmark_node *n;

	if (first == NULL)
		return;
	r->out = o;
	for (n = first; n; n = cmark_node_next(n)) {
		S_render(r, n);
		if (n == last)
			break;
	}
	r->out = was;
}

void
render_out_children(struct render *r, struct render_out *o, cmark_node *node)
{
	cmark_node *first = cmark_node_first_child(node);

	if (first)
		render_out_blocks(r, o, first, cmark_node_last_child(node));
}

void
render_out_footnotes(struct render *r, struct render_out *o)
{
	struct render_out *was = r->out;
	struct buf body;
	size_t i;

	if (r->nfn == 0)
		return;
	r->out = o;
	buf_init(&body);
	S_open(r, "section", "footnotes");
	S_attr(r, "aria-label", r->o.footnotes_label ? r->o.footnotes_label : S_str(r, "render.footnotes"));
	S_nl(r);
	S_open(r, "ol", NULL);
	S_nl(r);
	/* Rendering a definition may reference more footnotes: r->nfn grows. */
	for (i = 0; i < r->nfn; i++) {
		S_footnote(r, r->fn_order[i], &body);
		S_nl(r);
	}
	S_close(r);
	S_close(r);
	S_nl(r);
	buf_free(&body);
	r->out = was;
}

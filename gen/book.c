/*
 * book: the guide as a printed book. See book.h.
 *
 * One pass over the linked model: each chapter's tree is opened again
 * (doc_tree_open), walked once into the blocks of a flow (flow.h), and
 * closed; the flow then does the pages. Inline Markdown becomes Pango
 * markup through cardtext's one conversion, with a hook that marks the
 * links: a link to a chapter or section becomes a PDF link followed by
 * its page, a link out of the site its URL.
 *
 * The text is justified: with hyphenation the spaces of a justified
 * line stay close to even even on A5, and an even right edge is what a
 * reader of a printed book expects. Headings, captions and asides are
 * ragged. Chapters start on the next page rather than the next right-hand
 * one: the book is read on screens as much as on paper, where a blank
 * page is only a gap, and the page numbers then are the viewer's.
 */
#include "book.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <glib.h>

#include "cardtext.h"
#include "flow.h"
#include "image.h"
#include "lang.h"
#include "links.h"
#include "paper.h"
#include "pdf.h"
#include "site.h"
#include "util.h"

#define PT_PER_MM (72.0 / 25.4)

struct book {
	const struct site *site;
	struct flow *flow;
	struct diag_list *dl;
	int *chapter_dest;           /* per chapter */
	GHashTable *section_dest;    /* struct section * -> dest + 1 */
	int *chapter_entry;          /* per chapter: its line of the contents */
	GHashTable *section_entry;   /* struct section * -> its line of the contents + 1 */
	struct image **images;       /* loaded pictures, freed after the flow is written */
	size_t nimages, images_cap;
	/* the chapter being walked, and the doc whose nodes are (the chapter's, or an embedded question's topic) */
	const struct chapter *chapter;
	const struct doc *doc;
	const struct doc_tree *tree;
	const char *file;
	int body_line;
	/* the paragraph being converted: its links */
	struct flow_link *links;
	size_t nlinks, links_cap;
	int link_open;               /* the link entered last was marked (its exit must close it) */
	int *link_marked;            /* per open link depth: marked or not */
	size_t depth, depth_cap;
	int html_warned;             /* the chapter's raw HTML was reported */
};

/* What the block walk is inside of. */
enum nest_kind { NEST_LIST, NEST_ITEM, NEST_QUOTE };
struct nest {
	enum nest_kind kind;
	double indent;               /* em */
	int ordered, tight, delim_paren, next, quotes;
};

/* ---- links ----------------------------------------------------------- */

static int
S_section_dest(const struct book *bk, const struct section *s)
{
	gpointer v = g_hash_table_lookup(bk->section_dest, s);

	return v ? GPOINTER_TO_INT(v) - 1 : -1;
}

/*
 * The destination of a link written in the chapter being walked: its
 * chapter's, or its section's, or -1 when it leads out of the guide (a
 * quiz or a deck page, a file).
 */
static int
S_link_dest(const struct book *bk, const char *url)
{
	const struct site *site = bk->site;
	char *to = links_output_target(site, bk->doc, url), *hash;
	const struct anchor *a;
	int dest = -1;
	size_t i;

	if (!to)
		return -1;
	hash = strchr(to, '#');
	if (hash)
		*hash++ = '\0';
	for (i = 0; i < site->nchapters; i++) {
		const struct chapter *c = site->chapters[i];

		if (strcmp(c->url, to) != 0)
			continue;
		dest = bk->chapter_dest[i];
		if (hash && *hash && (a = doc_anchor(c->doc, hash)) != NULL && a->kind == ANCHOR_HEADING &&
		    S_section_dest(bk, a->u.section) >= 0)
			dest = S_section_dest(bk, a->u.section);
		break;
	}
	free(to);
	return dest;
}

/* Appends url as code: not hyphenated, broken only where flow breaks code. */
static void
S_url_markup(struct buf *b, const char *url)
{
	buf_puts(b, "<span font_family=\"" CARDTEXT_MONO_FAMILY "\" size=\"85%\" insert_hyphens=\"false\">");
	cardtext_escape(b, url);
	buf_puts(b, "</span>");
}

static void
S_link_hook(void *ctx, cmark_node *n, int enter, struct buf *b)
{
	struct book *bk = ctx;
	const char *url = cmark_node_get_url(n);
	int dest, marked;

	if (enter) {
		struct flow_link l = { -1, NULL };

		marked = 0;
		/* A link inside a link's text is only text: one place to click. */
		if (bk->depth == 0 && url && *url) {
			if (links_is_external(url)) {
				if (links_url_is_safe(url, 0)) {
					l.uri = url;
					marked = 1;
				}
			} else if ((dest = S_link_dest(bk, url)) >= 0) {
				l.dest = dest;
				marked = 1;
			}
		}
		if (marked) {
			bk->links = xgrow(bk->links, &bk->links_cap, bk->nlinks + 1, sizeof(*bk->links));
			bk->links[bk->nlinks++] = l;
			buf_puts(b, FLOW_LINK_BEGIN);
		}
		bk->link_marked = xgrow(bk->link_marked, &bk->depth_cap, bk->depth + 1, sizeof(int));
		bk->link_marked[bk->depth++] = marked;
		return;
	}
	if (bk->depth == 0)
		return;
	marked = bk->link_marked[--bk->depth];
	if (!marked)
		return;
	if (bk->links[bk->nlinks - 1].dest >= 0) {
		char *ref = lang_format(bk->site->lang, "book.page-ref", "page", FLOW_PAGE_REF, NULL);

		buf_puts(b, "<span size=\"88%\">\xc2\xa0(");
		cardtext_escape(b, ref);
		buf_puts(b, ")</span>");
		free(ref);
	} else {
		char *text = md_plain_text(n);
		const char *shown = url;

		/* An autolink shows its URL already; mailto: shows as its address. */
		if (strncmp(shown, "mailto:", 7) == 0)
			shown += 7;
		if (!text || strcmp(text, url) != 0) {
			if (!text || strcmp(text, shown) != 0) {
				buf_puts(b, " (");
				S_url_markup(b, shown);
				buf_puts(b, ")");
			}
		}
		free(text);
	}
	buf_puts(b, FLOW_LINK_END);
}

/* The markup of a paragraph, heading or cell, with its links in bk->links. */
static char *
S_inline(struct book *bk, cmark_node *n)
{
	struct cardtext_link_hook hook = { S_link_hook, bk };
	struct buf b;

	bk->nlinks = 0;
	bk->depth = 0;
	buf_init(&b);
	buf_puts(&b, "");
	cardtext_inline_put(n, &b, &hook);
	return buf_detach(&b);
}

/* ---- blocks ---------------------------------------------------------- */

static double
S_indent(const struct nest *st, size_t depth)
{
	return depth ? st[depth - 1].indent : 0;
}

static int
S_quotes(const struct nest *st, size_t depth)
{
	return depth ? st[depth - 1].quotes : 0;
}

static const struct nest *
S_list(const struct nest *st, size_t depth)
{
	while (depth > 0) {
		if (st[depth - 1].kind == NEST_LIST)
			return &st[depth - 1];
		depth--;
	}
	return NULL;
}

static char *
S_marker(struct nest *list, int lists_above, cmark_node *item)
{
	static const char *bullets[] = { "\xe2\x80\xa2", "\xe2\x80\x93", "\xe2\x97\xa6" };

	if (cmark_node_get_type_string(item) && strcmp(cmark_node_get_type_string(item), "tasklist") == 0)
		return xstrdup(cmark_gfm_extensions_get_tasklist_item_checked(item)
		    ? "\xe2\x98\x91" : "\xe2\x98\x90");
	if (list->ordered)
		return xasprintf("%d%c", list->next++, list->delim_paren ? ')' : '.');
	return xstrdup(bullets[lists_above % 3]);
}

/* The source position of node n, for a diagnostic. */
static int
S_line(const struct book *bk, cmark_node *n)
{
	return cmark_node_get_start_line(n) + bk->body_line - 1;
}

/* The picture an image node shows, loaded (kept until the book is written), or NULL with a warning. */
static const struct image *
S_picture(struct book *bk, cmark_node *img)
{
	struct image *im = paper_picture(bk->site, bk->doc, img, "the book", bk->dl);

	if (!im)
		return NULL;
	bk->images = xgrow(bk->images, &bk->images_cap, bk->nimages + 1, sizeof(*bk->images));
	bk->images[bk->nimages++] = im;
	return im;
}

static void
S_para(struct book *bk, cmark_node *n, enum flow_role role, const struct nest *st, size_t depth,
    char **marker, int tight)
{
	struct flow_para p;
	cmark_node *img = role == FLOW_BODY && !*marker ? paper_lone_image(n) : NULL;
	const struct image *im = img ? S_picture(bk, img) : NULL;
	char *markup;

	if (im) {
		const char *title = cmark_node_get_title(img);

		flow_image(bk->flow, im, S_indent(st, depth), -1);
		if (title && *title) {
			struct buf b;

			buf_init(&b);
			buf_puts(&b, "");
			cardtext_escape(&b, title);
			memset(&p, 0, sizeof(p));
			p.markup = b.data;
			p.role = FLOW_CAPTION;
			p.indent = S_indent(st, depth);
			p.dest = -1;
			flow_para(bk->flow, &p);
			buf_free(&b);
		}
		return;
	}
	markup = S_inline(bk, n);
	if (g_utf8_strlen(markup, -1) > FLOW_MAX_CHARS) {
		char *plain = md_plain_text(n);

		if (plain && g_utf8_strlen(plain, -1) > FLOW_MAX_CHARS)
			diag_warning(bk->dl, bk->file, S_line(bk, n), cmark_node_get_start_column(n),
			    "a paragraph of %ld characters is cut at %d in the book: split it into "
			    "paragraphs to print it whole", (long)g_utf8_strlen(plain, -1), FLOW_MAX_CHARS);
		free(plain);
	}
	memset(&p, 0, sizeof(p));
	p.markup = markup;
	p.role = role;
	p.links = bk->links;
	p.nlinks = bk->nlinks;
	p.indent = S_indent(st, depth);
	p.marker = *marker;
	p.quote = S_quotes(st, depth);
	p.tight = tight;
	p.dest = -1;
	flow_para(bk->flow, &p);
	free(markup);
	free(*marker);
	*marker = NULL;
}

static void
S_heading(struct book *bk, cmark_node *n)
{
	const struct section *sec = doc_tree_section_at(bk->tree, n);
	int level = cmark_node_get_heading_level(n);
	struct flow_para p;
	char *markup = S_inline(bk, n);

	memset(&p, 0, sizeof(p));
	p.markup = markup;
	p.role = level <= 2 ? FLOW_H2 : level == 3 ? FLOW_H3 : FLOW_H4;
	p.links = bk->links;
	p.nlinks = bk->nlinks;
	p.dest = sec ? S_section_dest(bk, sec) : -1;
	if (sec) {
		p.outline = level < 2 ? 1 : level;
		p.outline_title = sec->title;
	}
	flow_para(bk->flow, &p);
	free(markup);
	/* The contents line shows the heading as set (code in its face), not its plain title. */
	if (sec && g_hash_table_lookup(bk->section_entry, sec)) {
		markup = cardtext_inline(n);
		flow_contents_set(bk->flow, GPOINTER_TO_INT(g_hash_table_lookup(bk->section_entry, sec)) - 1,
		    markup);
		free(markup);
	}
}

static char *
S_text_inline(void *ctx, cmark_node *n, const struct flow_link **links, size_t *nlinks)
{
	struct book *bk = ctx;
	char *m = S_inline(bk, n);

	*links = bk->links;
	*nlinks = bk->nlinks;
	return m;
}

static void S_blocks(struct book *bk, cmark_node *first, cmark_node *last, enum flow_role role,
    char *marker, double indent, const struct section **open);

static void
S_text_blocks(void *ctx, cmark_node *first, cmark_node *last, enum flow_role role, double indent,
    int keep)
{
	(void)keep;
	S_blocks(ctx, first, last, role, NULL, indent, NULL);
}

static void
S_table(struct book *bk, cmark_node *node, double indent)
{
	struct paper_text tx = { S_text_inline, S_text_blocks, bk };

	paper_table(bk->flow, node, indent, &tx);
}

/* "Practise this": the questions and cards that link to a section, as short references. */
static void
S_practise(struct book *bk, const struct xref_list *xl)
{
	const struct lang *l = bk->site->lang;
	struct flow_para p;
	struct buf b, title;
	char num[24], *s;
	size_t i;

	if (xl->len == 0)
		return;
	buf_init(&b);
	buf_puts(&b, "<b>");
	cardtext_escape(&b, lang_get(l, "book.practise"));
	buf_puts(&b, "</b> ");
	for (i = 0; i < xl->len; i++) {
		const struct xref *x = &xl->v[i];

		if (i > 0)
			buf_puts(&b, "; ");
		if (x->kind == XREF_QUESTION) {
			const struct question *q = x->u.question;
			const struct topic *t = q->topic;

			/* The test's title only where there are several to tell apart. */
			buf_init(&title);
			if (bk->site->ntests > 1 || !t->title) {
				buf_puts(&title, t->test->title ? t->test->title : "");
				if (t->title && strcmp(t->title, t->test->title) != 0)
					buf_puts(&title, ", ");
			}
			if (t->title && (bk->site->ntests <= 1 || strcmp(t->title, t->test->title) != 0))
				buf_puts(&title, t->title);
			snprintf(num, sizeof(num), "%zu", (size_t)(q - t->questions) + 1);
			s = lang_format(l, "book.question-ref", "title", buf_str(&title), "n", num, NULL);
			buf_free(&title);
		} else {
			const struct card *c = x->u.card;

			snprintf(num, sizeof(num), "%d", c->number);
			s = lang_format(l, "book.card-ref", "deck", c->deck->title ? c->deck->title : "", "n", num, NULL);
		}
		cardtext_escape(&b, s);
		free(s);
	}
	buf_putc(&b, '.');
	memset(&p, 0, sizeof(p));
	p.markup = b.data;
	p.role = FLOW_ASIDE;
	p.dest = -1;
	flow_para(bk->flow, &p);
	buf_free(&b);
}

/* The question top-level block b of the chapter shows in its place (doc_link.embed), or NULL. */
static const struct question *
S_embed_at(const struct book *bk, cmark_node *b)
{
	const struct doc *d = bk->chapter->doc;
	int line;
	size_t i;

	if (bk->doc != d || cmark_node_get_type(b) != CMARK_NODE_PARAGRAPH)
		return NULL;
	line = S_line(bk, b);
	for (i = 0; i < d->nlinks; i++)
		if (d->links[i].embed && d->links[i].line == line)
			return d->links[i].embed;
	return NULL;
}

/*
 * Question q in the place of paragraph para, which links to it: the
 * paragraph's text as the question's heading, the question as a test
 * sets it, then its answer and explanation (paper.h). Its Markdown is its
 * topic's: links and pictures resolve from there, warnings point there.
 */
static void
S_embed(struct book *bk, const struct question *q, cmark_node *para)
{
	struct paper_text tx = { S_text_inline, S_text_blocks, bk };
	const struct doc *doc = bk->doc;
	const struct doc_tree *tree = bk->tree;
	const char *file = bk->file;
	int body_line = bk->body_line;
	struct doc_tree *t;
	struct flow_para p;
	size_t i, ncorrect = 0;
	char *markup = S_inline(bk, para);
	char *label;

	memset(&p, 0, sizeof(p));
	p.markup = markup;
	p.role = FLOW_H4;
	p.links = bk->links;
	p.nlinks = bk->nlinks;
	p.dest = -1;
	flow_para(bk->flow, &p);
	free(markup);
	for (i = 0; i < q->noptions; i++)
		ncorrect += q->options[i].correct != 0;
	t = doc_tree_open(q->topic->doc);
	bk->doc = q->topic->doc;
	bk->tree = t;
	bk->file = q->topic->doc->src->display;
	bk->body_line = q->topic->doc->src->body_line;
	label = g_markup_escape_text(lang_get(bk->site->lang,
	    q->kind == ANSWER_CHOICE && ncorrect > 1 ? "book.answers" : "book.answer"), -1);
	paper_question(bk->site->lang, bk->flow, q, doc_tree_question(t, q), NULL, 0, &tx);
	paper_answer(bk->site->lang, bk->flow, q, doc_tree_question(t, q), NULL, label, 0, &tx);
	g_free(label);
	doc_tree_close(t);
	/* The chapter's text resumes a little apart from the explanation's. */
	flow_space(bk->flow, 0.8);
	bk->doc = doc;
	bk->tree = tree;
	bk->file = file;
	bk->body_line = body_line;
}

static void
S_push(struct nest **st, size_t *depth, size_t *cap, enum nest_kind kind, double indent, int quotes)
{
	*st = xgrow(*st, cap, *depth + 1, sizeof(**st));
	memset(&(*st)[*depth], 0, sizeof(**st));
	(*st)[*depth].kind = kind;
	(*st)[*depth].indent = indent;
	(*st)[*depth].quotes = quotes;
	(*depth)++;
}

/*
 * The blocks first..last (siblings) into the flow in role, indent em in,
 * one walk with cmark's iterator and a stack of its own (nesting costs a
 * loop, not C stack). With a marker (taken), the range is one item with
 * it: a footnote and its number. With open (a chapter's body), a
 * section's "Practise this" comes before the next heading, and a
 * paragraph that shows a question is the question.
 */
static void
S_blocks(struct book *bk, cmark_node *first, cmark_node *last, enum flow_role role, char *marker,
    double indent, const struct section **open)
{
	struct nest *st = NULL;
	size_t depth = 0, cap = 0;
	char *pending = marker;
	int lists = 0;
	cmark_node *top;
	const struct question *q;

	if (marker || indent > 0)
		S_push(&st, &depth, &cap, NEST_ITEM, marker ? indent + 1.6 : indent, 0);
	for (top = first; top; top = cmark_node_next(top)) {
		cmark_iter *it;
		cmark_event_type ev;

		if (open && (q = S_embed_at(bk, top)) != NULL) {
			S_embed(bk, q, top);
			if (top == last)
				break;
			continue;
		}
		it = cmark_iter_new(top);

		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			int enter = ev == CMARK_EVENT_ENTER;
			const struct nest *list = S_list(st, depth);
			int tight = list && list->tight && depth > 0 && st[depth - 1].kind == NEST_ITEM;

			switch (cmark_node_get_type(n)) {
			case CMARK_NODE_LIST:
				if (!enter) {
					depth--;
					lists--;
					break;
				}
				S_push(&st, &depth, &cap, NEST_LIST, S_indent(st, depth), S_quotes(st, depth));
				st[depth - 1].ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
				st[depth - 1].tight = cmark_node_get_list_tight(n);
				st[depth - 1].delim_paren = cmark_node_get_list_delim(n) == CMARK_PAREN_DELIM;
				st[depth - 1].next = cmark_node_get_list_start(n);
				lists++;
				break;
			case CMARK_NODE_ITEM:
				if (!enter) {
					if (pending) {
						struct flow_para p;

						memset(&p, 0, sizeof(p));
						p.markup = "";
						p.role = role;
						p.indent = S_indent(st, depth);
						p.marker = pending;
						p.dest = -1;
						flow_para(bk->flow, &p);
						free(pending);
						pending = NULL;
					}
					depth--;
					break;
				}
				free(pending);
				pending = depth > 0 && st[depth - 1].kind == NEST_LIST
				    ? S_marker(&st[depth - 1], lists - 1, n) : NULL;
				S_push(&st, &depth, &cap, NEST_ITEM, S_indent(st, depth) +
				    (depth > 0 && st[depth - 1].ordered ? 1.6 : 1.2), S_quotes(st, depth));
				break;
			case CMARK_NODE_BLOCK_QUOTE:
				if (!enter) {
					depth--;
					break;
				}
				S_push(&st, &depth, &cap, NEST_QUOTE, S_indent(st, depth) + 1.3,
				    S_quotes(st, depth) + 1);
				break;
			case CMARK_NODE_PARAGRAPH:
				/* The first paragraph of an item sits close under the item before it. */
				S_para(bk, n, role, st, depth, &pending,
				    tight && cmark_node_previous(n) == NULL && cmark_node_previous(cmark_node_parent(n)));
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				break;
			case CMARK_NODE_HEADING:
				if (open && *open) {
					S_practise(bk, &(*open)->backlinks);
					*open = NULL;
				}
				S_heading(bk, n);
				if (open)
					*open = doc_tree_section_at(bk->tree, n);
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				break;
			case CMARK_NODE_CODE_BLOCK: {
				const char *lit = cmark_node_get_literal(n);
				size_t len = lit ? strlen(lit) : 0;
				char *text = xstrndup(lit ? lit : "", len);

				while (len > 0 && text[len - 1] == '\n')
					text[--len] = '\0';
				flow_code(bk->flow, text, S_indent(st, depth), S_quotes(st, depth));
				free(text);
				break;
			}
			case CMARK_NODE_THEMATIC_BREAK:
				flow_rule(bk->flow, S_indent(st, depth));
				break;
			case CMARK_NODE_HTML_BLOCK:
			case CMARK_NODE_HTML_INLINE:
				if (bk->site->cfg.markdown.unsafe_html && !bk->html_warned) {
					bk->html_warned = 1;
					diag_warning(bk->dl, bk->file, S_line(bk, n), cmark_node_get_start_column(n),
					    "raw HTML in chapter \"%s\" is left out of the book, which prints only "
					    "what Markdown writes: write it in Markdown to print it", bk->chapter->slug);
				}
				break;
			case CMARK_NODE_FOOTNOTE_DEFINITION:
				if (enter)
					cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				break;
			default:
				if (enter && cmark_node_get_type_string(n) &&
				    strcmp(cmark_node_get_type_string(n), "table") == 0) {
					S_table(bk, n, S_indent(st, depth));
					cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				}
				break;
			}
		}
		cmark_iter_free(it);
		if (top == last)
			break;
	}
	if (marker && pending == marker) {
		struct flow_para p;

		memset(&p, 0, sizeof(p));
		p.markup = "";
		p.role = role;
		p.indent = S_indent(st, depth);
		p.marker = pending;
		p.dest = -1;
		flow_para(bk->flow, &p);
	}
	free(pending);
	free(st);
}

/* The chapter's footnotes, numbered as cmark-gfm numbers them, under "Notes". */
static void
S_notes(struct book *bk, cmark_node *root)
{
	cmark_node *c;
	int num = 0;

	for (c = cmark_node_first_child(root); c; c = cmark_node_next(c)) {
		if (cmark_node_get_type(c) != CMARK_NODE_FOOTNOTE_DEFINITION)
			continue;
		if (num++ == 0) {
			struct flow_para p;
			struct buf b;

			memset(&p, 0, sizeof(p));
			buf_init(&b);
			cardtext_escape(&b, lang_get(bk->site->lang, "book.notes"));
			p.markup = b.data;
			p.role = FLOW_H4;
			p.dest = -1;
			flow_para(bk->flow, &p);
			buf_free(&b);
		}
		if (cmark_node_first_child(c))
			S_blocks(bk, cmark_node_first_child(c), cmark_node_last_child(c), FLOW_NOTE,
			    xasprintf("%d.", num), 0, NULL);
	}
}

/*
 * Chapter i's title as markup into b: its leading # heading as set (code
 * in its face) where that heading is its title, else the title's text;
 * its line of the contents set to match.
 */
static void
S_title_markup(struct book *bk, size_t i, cmark_node *first, struct buf *b)
{
	const struct chapter *c = bk->site->chapters[i];
	char *plain = NULL, *markup, *entry;

	if (first && cmark_node_get_type(first) == CMARK_NODE_HEADING &&
	    cmark_node_get_heading_level(first) == 1)
		plain = md_plain_text(first);
	if (!plain || strcmp(plain, c->title) != 0) {
		free(plain);
		cardtext_escape(b, c->title);
		return;
	}
	free(plain);
	markup = cardtext_inline(first);
	buf_puts(b, markup);
	entry = xasprintf("%zu\xe2\x80\x82%s", i + 1, markup);
	flow_contents_set(bk->flow, bk->chapter_entry[i], entry);
	free(entry);
	free(markup);
}

static void
S_chapter(struct book *bk, size_t i)
{
	const struct chapter *c = bk->site->chapters[i];
	struct doc_tree *t = doc_tree_open(c->doc);
	cmark_node *root = doc_tree_root(t), *first = cmark_node_first_child(root), *last;
	const struct section *open = NULL;
	struct flow_para p;
	struct buf b;

	bk->chapter = c;
	bk->doc = c->doc;
	bk->tree = t;
	bk->file = c->doc->src->display;
	bk->body_line = c->doc->src->body_line;
	bk->html_warned = 0;
	flow_new_page(bk->flow, FLOW_PAGE_OPENING, bk->site->cfg.title, c->title);
	flow_sink(bk->flow, 0.1);
	buf_init(&b);
	{
		char num[24], *s;

		snprintf(num, sizeof(num), "%zu", i + 1);
		s = lang_format(bk->site->lang, "book.chapter", "n", num, NULL);
		cardtext_escape(&b, s);
		free(s);
	}
	memset(&p, 0, sizeof(p));
	p.markup = b.data;
	p.role = FLOW_LABEL;
	p.dest = -1;
	flow_para(bk->flow, &p);
	buf_reset(&b);
	buf_puts(&b, "");
	S_title_markup(bk, i, first, &b);
	memset(&p, 0, sizeof(p));
	p.markup = b.data;
	p.role = FLOW_H1;
	p.dest = bk->chapter_dest[i];
	p.outline = 1;
	p.outline_title = c->title;
	flow_para(bk->flow, &p);
	buf_free(&b);
	flow_space(bk->flow, 1.5);
	/* A leading # heading is the chapter's title, set above already (as the web page does). */
	if (first && cmark_node_get_type(first) == CMARK_NODE_HEADING &&
	    cmark_node_get_heading_level(first) == 1)
		first = cmark_node_next(first);
	for (last = first; last && cmark_node_next(last) &&
	    cmark_node_get_type(cmark_node_next(last)) != CMARK_NODE_FOOTNOTE_DEFINITION;
	    last = cmark_node_next(last))
		;
	if (first && cmark_node_get_type(first) != CMARK_NODE_FOOTNOTE_DEFINITION)
		S_blocks(bk, first, last, FLOW_BODY, NULL, 0, &open);
	if (open)
		S_practise(bk, &open->backlinks);
	S_practise(bk, &c->backlinks);
	S_notes(bk, root);
	doc_tree_close(t);
	bk->tree = NULL;
}

static void
S_title_page(struct book *bk)
{
	const struct config *cfg = &bk->site->cfg;
	struct flow_para p;
	struct buf b;

	flow_new_page(bk->flow, FLOW_PAGE_BARE, NULL, NULL);
	flow_sink(bk->flow, 0.28);
	buf_init(&b);
	buf_puts(&b, "");
	cardtext_escape(&b, cfg->title && *cfg->title ? cfg->title : lang_get(bk->site->lang, "book.guide"));
	memset(&p, 0, sizeof(p));
	p.markup = b.data;
	p.role = FLOW_TITLE;
	p.dest = -1;
	flow_para(bk->flow, &p);
	if (cfg->description && *cfg->description) {
		buf_reset(&b);
		buf_puts(&b, "");
		cardtext_escape(&b, cfg->description);
		p.markup = b.data;
		p.role = FLOW_SUBTITLE;
		flow_para(bk->flow, &p);
	}
	if (cfg->author && *cfg->author) {
		flow_sink(bk->flow, 0.8);
		buf_reset(&b);
		buf_puts(&b, "");
		cardtext_escape(&b, cfg->author);
		p.markup = b.data;
		p.role = FLOW_SUBTITLE;
		flow_para(bk->flow, &p);
	}
	buf_free(&b);
}

static void
S_contents(struct book *bk)
{
	const struct site *site = bk->site;
	const char *contents = lang_get(site->lang, "book.contents");
	char *markup = g_markup_escape_text(contents, -1);
	struct flow_para p;
	struct buf b;
	size_t i, k;

	flow_new_page(bk->flow, FLOW_PAGE_OPENING, site->cfg.title, contents);
	flow_sink(bk->flow, 0.1);
	memset(&p, 0, sizeof(p));
	p.markup = markup;
	p.role = FLOW_H1;
	p.dest = flow_dest(bk->flow);
	p.outline = 1;
	p.outline_title = contents;
	flow_para(bk->flow, &p);
	g_free(markup);
	flow_space(bk->flow, 1);
	buf_init(&b);
	for (i = 0; i < site->nchapters; i++) {
		const struct chapter *c = site->chapters[i];

		buf_reset(&b);
		buf_printf(&b, "%zu\xe2\x80\x82", i + 1);
		cardtext_escape(&b, c->title);
		bk->chapter_entry[i] = flow_contents(bk->flow, b.data, 1, bk->chapter_dest[i]);
		for (k = 0; k < c->nsections; k++) {
			const struct section *s = c->sections[k];

			if (s->level != 2)
				continue;
			buf_reset(&b);
			buf_puts(&b, "");
			cardtext_escape(&b, s->title);
			g_hash_table_insert(bk->section_entry, (gpointer)s,
			    GINT_TO_POINTER(flow_contents(bk->flow, b.data, 2, S_section_dest(bk, s)) + 1));
		}
	}
	buf_free(&b);
}

/*
 * 1 for a language written without hyphenation (Arabic, Hebrew, Persian,
 * Urdu, Chinese, Japanese, Korean, Thai): no dictionary is missing.
 */
static int
S_unhyphenated(const char *tag)
{
	static const char *const langs[] = { "ar", "he", "iw", "fa", "ur", "zh", "ja", "ko", "th" };
	size_t n = strcspn(tag, "-_"), i;

	for (i = 0; i < sizeof(langs) / sizeof(langs[0]); i++)
		if (n == 2 && strncmp(tag, langs[i], 2) == 0)
			return 1;
	return 0;
}

/* The book's paper and text block: a measure of about 66 characters, or the paper's width less margins. */
static void
S_style(const struct print_config *pc, struct flow_style *st)
{
	double side_min = 15 * PT_PER_MM;

	memset(st, 0, sizeof(*st));
	st->page_w = pc->paper_w * PT_PER_MM;
	st->page_h = pc->paper_h * PT_PER_MM;
	/* 10 pt on A5 and smaller (read on a tablet at page width), 11 pt on larger paper. */
	st->size = st->page_w < 450 ? 10 : 11;
	if (st->page_w < 320)
		st->size = 9;
	st->margin_side = fmax(side_min, (st->page_w - 33 * st->size) / 2);
	if (st->page_w - 2 * st->margin_side < 12 * st->size)
		st->margin_side = fmax(8 * PT_PER_MM, (st->page_w - 12 * st->size) / 2);
	st->margin_top = fmax(18 * PT_PER_MM, 0.085 * st->page_h);
	st->margin_bottom = st->margin_top * 1.2;
	st->mono = CARDTEXT_MONO_FAMILY;
}

struct book_pages {
	GHashTable *page;            /* struct section * -> its page */
};

/* book_write, and with pages not NULL each section's page put in it. */
static int
S_book(const struct site *site, const struct print_config *pc, const char *hyphen_dir,
    const char *path, const volatile sig_atomic_t *stop, struct diag_list *dl, GHashTable *pages)
{
	struct book bk;
	struct flow_style st;
	struct flow_meta meta;
	char date[32], *dict = NULL, *font;
	const char *why = NULL;
	size_t i, k;
	int rc = 0;

	if (site->nchapters == 0)
		return 0;
	memset(&bk, 0, sizeof(bk));
	bk.site = site;
	bk.dl = dl;
	S_style(pc, &st);
	/* A serif for running text, as books set it; the print font after it for what it lacks. */
	/* Arabic in a face made to sit beside a serif, before fontconfig's own choice. */
	font = xasprintf("Noto Serif,%s,Noto Naskh Arabic,serif", pc->font && *pc->font ? pc->font : "Noto Sans");
	st.font = font;
	st.lang = site->cfg.language;
	st.rtl = lang_rtl(site->lang);
	if (site->cfg.language && *site->cfg.language) {
		dict = flow_hyphen_dict(hyphen_dir, site->cfg.language);
		if (!dict && !S_unhyphenated(site->cfg.language))
			diag_warning(dl, site->cfg.path, 0, 0,
			    "no hyphenation dictionary for language \"%s\" in %s: the book is set without "
			    "hyphenation; install Debian's hyphen-%s package (apt-cache search hyphen-)",
			    site->cfg.language, hyphen_dir, site->cfg.language);
	}
	st.hyphen_dict = dict;
	bk.flow = flow_new(&st);
	bk.chapter_dest = xcalloc(site->nchapters + 1, sizeof(int));
	bk.section_dest = g_hash_table_new(g_direct_hash, g_direct_equal);
	bk.chapter_entry = xcalloc(site->nchapters + 1, sizeof(int));
	bk.section_entry = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (i = 0; i < site->nchapters; i++) {
		const struct chapter *c = site->chapters[i];

		bk.chapter_dest[i] = flow_dest(bk.flow);
		for (k = 0; k < c->nsections; k++)
			g_hash_table_insert(bk.section_dest, c->sections[k],
			    GINT_TO_POINTER(flow_dest(bk.flow) + 1));
	}
	S_title_page(&bk);
	S_contents(&bk);
	for (i = 0; i < site->nchapters; i++) {
		if (stop && *stop) {
			rc = -1;
			goto out;
		}
		S_chapter(&bk, i);
	}
	pdf_date(date, sizeof(date));
	memset(&meta, 0, sizeof(meta));
	meta.title = site->cfg.title;
	meta.author = site->cfg.author;
	meta.subject = site->cfg.description;
	meta.date = date;
	if (flow_write(bk.flow, path, &meta, stop, &why) == -1) {
		if (!(stop && *stop))
			diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path ? path : OUTPUT_BOOK, why);
		rc = -1;
	}
	for (i = 0; rc == 0 && pages && i < site->nchapters; i++)
		for (k = 0; k < site->chapters[i]->nsections; k++) {
			const struct section *sec = site->chapters[i]->sections[k];

			g_hash_table_insert(pages, (gpointer)sec,
			    GINT_TO_POINTER(flow_page_of(bk.flow, S_section_dest(&bk, sec))));
		}
out:
	flow_free(bk.flow);
	for (i = 0; i < bk.nimages; i++)
		image_free(bk.images[i]);
	free(bk.images);
	free(bk.links);
	free(bk.link_marked);
	free(bk.chapter_dest);
	g_hash_table_destroy(bk.section_dest);
	free(bk.chapter_entry);
	g_hash_table_destroy(bk.section_entry);
	free(dict);
	free(font);
	return rc;
}

int
book_write(const struct site *site, const struct print_config *pc, const char *hyphen_dir,
    const char *path, const volatile sig_atomic_t *stop, struct diag_list *dl)
{
	return S_book(site, pc, hyphen_dir, path, stop, dl, NULL);
}

int
book_write_pages(const struct site *site, const struct print_config *pc, const char *hyphen_dir,
    const char *path, const volatile sig_atomic_t *stop, struct diag_list *dl,
    struct book_pages **pages)
{
	struct book_pages *bp;

	*pages = NULL;
	if (site->nchapters == 0)
		return 0;
	bp = xcalloc(1, sizeof(*bp));
	bp->page = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (S_book(site, pc, hyphen_dir, path, stop, dl, bp->page) == -1) {
		book_pages_free(bp);
		return -1;
	}
	*pages = bp;
	return 0;
}

int
book_section_page(const struct book_pages *bp, const struct section *s)
{
	return bp ? GPOINTER_TO_INT(g_hash_table_lookup(bp->page, s)) : 0;
}

void
book_pages_free(struct book_pages *bp)
{
	if (!bp)
		return;
	g_hash_table_destroy(bp->page);
	free(bp);
}

/*
 * paper: what the book and the handout set alike. See paper.h.
 */
#include "paper.h"

#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <glib.h>

#include "lang.h"
#include "links.h"
#include "util.h"

void
paper_para(struct flow *f, const char *markup, const struct flow_link *links, size_t nlinks,
    enum flow_role role, double indent, const char *marker, int tight, int keep)
{
	struct flow_para p;

	memset(&p, 0, sizeof(p));
	p.markup = markup;
	p.links = links;
	p.nlinks = nlinks;
	p.role = role;
	p.indent = indent;
	p.marker = marker;
	p.tight = tight;
	p.keep = keep;
	p.dest = -1;
	flow_para(f, &p);
}

/* What is asked, where it is not one option of several. */
static const char *
S_kind_hint(const struct lang *l, const struct question *q)
{
	switch (q->kind) {
	case ANSWER_NUMBER:
		return lang_get(l, "handout.number");
	case ANSWER_OUTPUT:
		return lang_get(l, "handout.output");
	case ANSWER_TEXT:
		return lang_get(l, "handout.text");
	default:
		return q->multi ? lang_get(l, "handout.multi") : NULL;
	}
}

void
paper_question(const struct lang *l, struct flow *f, const struct question *q,
    const struct question_nodes *qn, const char *marker, double indent, const struct paper_text *tx)
{
	const struct flow_link *links = NULL;
	const char *hint = S_kind_hint(l, q);
	char letter[8], *m;
	size_t nlinks = 0, i;

	m = qn ? tx->inline_markup(tx->ctx, qn->heading, &links, &nlinks)
	    : g_markup_escape_text(q->stem_text, -1);
	paper_para(f, m, links, nlinks, FLOW_QUESTION, indent, marker, 0, 1);
	if (qn)
		free(m);
	else
		g_free(m);
	if (qn && qn->stem.first)
		tx->blocks(tx->ctx, qn->stem.first, qn->stem.last, FLOW_BODY, indent, 1);
	if (hint) {
		char *e = g_markup_escape_text(hint, -1);

		m = xasprintf("<i>%s</i>", e);
		g_free(e);
		paper_para(f, m, NULL, 0, FLOW_OPTION, indent, NULL, 1, 1);
		free(m);
	}
	if (q->kind != ANSWER_CHOICE) {
		flow_box(f, indent, q->kind == ANSWER_OUTPUT ? 4 : 2);
		return;
	}
	for (i = 0; i < q->noptions; i++) {
		cmark_node *c = qn ? cmark_node_first_child(qn->options[i].item) : NULL;

		snprintf(letter, sizeof(letter), "%c", (int)('A' + (i % 26)));
		links = NULL;
		nlinks = 0;
		m = c ? tx->inline_markup(tx->ctx, c, &links, &nlinks) : xstrdup("");
		paper_para(f, m, links, nlinks, FLOW_OPTION, indent + 2, letter, 1, i + 1 < q->noptions);
		free(m);
	}
}

/* Two private-use characters, which escaping leaves alone, hold the places of first and next. */
#define JOIN_FIRST "\xee\x80\x90"
#define JOIN_NEXT "\xee\x80\x91"

/*
 * Appends key's string ("{first} or {next}") as markup, with first and
 * next, markup already, in its placeholders.
 */
static void
S_join_markup(struct buf *b, const struct lang *l, const char *key, const char *first, const char *next)
{
	char *s = lang_format(l, key, "first", JOIN_FIRST, "next", JOIN_NEXT, NULL);
	char *e = g_markup_escape_text(s, -1), *p;

	for (p = e; *p; ) {
		size_t run = strcspn(p, "\xee");

		buf_put(b, p, run);
		p += run;
		if (*p == '\0')
			break;
		if (strncmp(p, JOIN_FIRST, 3) == 0 || strncmp(p, JOIN_NEXT, 3) == 0) {
			buf_puts(b, p[2] == JOIN_FIRST[2] ? first : next);
			p += 3;
		} else
			buf_putc(b, *p++);
	}
	g_free(e);
	free(s);
}

/* "B, D" or the accepted typed answers (joined as l joins them), as markup. */
static char *
S_answer_markup(const struct lang *l, const struct question *q)
{
	struct buf b;
	size_t i;
	int first = 1;

	buf_init(&b);
	buf_puts(&b, "");
	for (i = 0; i < q->noptions; i++) {
		const struct quiz_option *o = &q->options[i];

		if (!o->correct)
			continue;
		if (q->kind == ANSWER_CHOICE) {
			buf_printf(&b, "%s%c", first ? "" : ", ", (int)('A' + (i % 26)));
		} else {
			char *a = g_markup_escape_text(o->answer ? o->answer : "", -1);
			char *one = q->kind == ANSWER_OUTPUT ? xasprintf("<tt>%s</tt>", a) : xstrdup(a);

			if (first)
				buf_puts(&b, one);
			else {
				/* The list so far and the next answer, as the language joins them; both markup already. */
				char *so_far = buf_detach(&b);

				buf_init(&b);
				S_join_markup(&b, l, "handout.typed-or", so_far, one);
				free(so_far);
			}
			free(one);
			g_free(a);
		}
		first = 0;
	}
	return buf_detach(&b);
}

void
paper_answer(const struct lang *l, struct flow *f, const struct question *q,
    const struct question_nodes *qn, const char *marker, const char *label, double indent,
    const struct paper_text *tx)
{
	char *ans = S_answer_markup(l, q), *m;

	m = label ? xasprintf("<b>%s</b> <b>%s</b>", label, ans) : xasprintf("<b>%s</b>", ans);
	paper_para(f, m, NULL, 0, FLOW_KEY, indent, marker, 0, 1);
	free(m);
	free(ans);
	if (qn && qn->explanation.first)
		tx->blocks(tx->ctx, qn->explanation.first, qn->explanation.last, FLOW_KEY, indent, 0);
}

void
paper_table(struct flow *f, cmark_node *node, double indent, const struct paper_text *tx)
{
	int ncols = cmark_gfm_extensions_get_table_columns(node), nrows = 0, r, c;
	uint8_t *al = cmark_gfm_extensions_get_table_alignments(node);
	struct flow_link *links = NULL;
	size_t nlinks = 0, cap = 0;
	cmark_node *row, *cell;
	char **cells, *align;
	int *header;

	for (row = cmark_node_first_child(node); row; row = cmark_node_next(row))
		nrows++;
	if (ncols <= 0 || nrows <= 0)
		return;
	cells = xcalloc((size_t)ncols * nrows, sizeof(*cells));
	header = xcalloc((size_t)nrows, sizeof(*header));
	align = xcalloc((size_t)ncols, 1);
	for (c = 0; c < ncols; c++)
		align[c] = al ? (char)al[c] : 0;
	for (r = 0, row = cmark_node_first_child(node); row; row = cmark_node_next(row), r++) {
		header[r] = cmark_gfm_extensions_get_table_row_is_header(row);
		for (c = 0, cell = cmark_node_first_child(row); cell && c < ncols;
		    cell = cmark_node_next(cell), c++) {
			const struct flow_link *cl = NULL;
			size_t ncl = 0;

			cells[r * ncols + c] = tx->inline_markup(tx->ctx, cell, &cl, &ncl);
			/* Copied before the next cell's call replaces them. */
			if (ncl == 0)
				continue;
			links = xgrow(links, &cap, nlinks + ncl + 1, sizeof(*links));
			memcpy(links + nlinks, cl, ncl * sizeof(*links));
			nlinks += ncl;
		}
	}
	flow_table(f, ncols, nrows, cells, header, align, indent, links, nlinks);
	for (r = 0; r < ncols * nrows; r++)
		free(cells[r]);
	free(cells);
	free(header);
	free(align);
	free(links);
}

struct image *
paper_picture(const struct site *site, const struct doc *doc, cmark_node *img, const char *document,
    struct diag_list *dl)
{
	const char *url = cmark_node_get_url(img), *why = NULL, *path;
	const char *file = doc->src->display;
	int line = cmark_node_get_start_line(img) + doc->src->body_line - 1;
	int col = cmark_node_get_start_column(img);
	struct image *im = NULL;

	if (!url || links_is_external(url)) {
		diag_warning(dl, file, line, col,
		    "image \"%.60s\" is not printed in %s: only a picture in the site's content "
		    "folder can be; %s shows its description in its place", url ? url : "", document, document);
		return NULL;
	}
	path = links_asset_path(site, doc, url);
	if (path)
		im = image_load(path, &why);
	if (!im)
		diag_warning(dl, file, line, col,
		    "image \"%.60s\" %s: %s shows its description in its place; "
		    "use a PNG, JPEG or SVG file of the site", url, why ? why : "is not a file of the site",
		    document);
	return im;
}

cmark_node *
paper_lone_image(cmark_node *para)
{
	cmark_node *c = cmark_node_first_child(para);

	if (c && cmark_node_get_type(c) == CMARK_NODE_IMAGE && cmark_node_next(c) == NULL)
		return c;
	return NULL;
}

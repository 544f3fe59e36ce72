/*
 * flow: a paginated flow of blocks. See flow.h.
 *
 * flow_write runs three steps. Layout makes a Pango layout per block
 * and reads off its lines (a table's rows, a picture as one line): the
 * units a page may break between. Pagination walks the blocks once,
 * placing runs of lines ("pieces") on pages by the rules of a book. The
 * destinations' pages it finds feed the page references of the next
 * layout, until no number changes; then the pages are drawn.
 */
#include "flow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo-pdf.h>
#include <hyphen.h>
#include <pango/pangocairo.h>

#include "cardtext.h"
#include "util.h"

#define MAX_PASSES 6             /* layouts before the page numbers must have settled */
#define MAX_RUN 200              /* bytes of one unbroken run before a break is allowed in it */
#define MIN_WORD 5               /* characters of the shortest word hyphenated */
#define MAX_WORD 64              /* bytes of the longest */
#define CODE_SIZE 0.85           /* code, relative to the text */
#define TABLE_SIZE 0.9
#define GREY_SHADE 0.94
#define GREY_RULE 0.55
#define GREY_HEAD 0.3
#define RLM "\xe2\x80\x8f"     /* U+200F, a paragraph's first strong character: its base direction RTL */

enum blk_kind { B_PARA, B_CODE, B_RULE, B_BOX, B_IMAGE, B_TABLE, B_CONTENTS, B_BREAK, B_SPACE, B_SINK };

/* A unit pages break between: a line of text, a row of a table, a whole picture. */
struct line {
	double top, h;               /* pt, from the block's top */
	double baseline;             /* pt, from the block's top */
	double x;                    /* pt, the line's start from the block's left (alignment) */
	int start, len;              /* bytes of the layout's text */
};

struct ftable {
	int ncols, nrows;
	char **cells;
	int *header;
	char *align;
	PangoLayout **lay;
	double *colw, *rowh, width;
	int *link0;                  /* per cell and one more: its first link in the block's links */
	int *link_start, *link_end;  /* per link, bytes of its cell's layout's text */
};

struct blk {
	enum blk_kind kind;
	enum flow_role role;
	char *markup;                /* PARA, CONTENTS: markup; CODE: plain text */
	struct flow_link *links;
	size_t nlinks;
	double indent;               /* em */
	char *marker;
	int quote, tight, keep, dest, outline, level;
	char *outline_title;
	const struct image *image;
	struct ftable *table;
	enum flow_page_kind page_kind;   /* BREAK */
	char *verso, *recto;
	double em;                   /* SPACE: em; SINK: fraction; BOX: lines */
	int has_ref;                 /* its text holds page numbers: laid out again each pass */
	/* laid out */
	PangoLayout *layout, *mlayout, *numlayout;
	int *link_start, *link_end;  /* per link, bytes of the layout's text */
	struct line *lines;
	int nlines;
	double space;                /* pt above it */
	double pad;                  /* pt above and below each piece (code) */
	double w, size;              /* pt: its width; its text's size */
	double x;                    /* pt, from the text's left edge */
};

struct piece {
	size_t b;
	int l0, l1;
	int page;
	double y;                    /* pt, the piece's top from the text's top */
};

struct page {
	enum flow_page_kind kind;
	const char *verso, *recto;
};

struct dest {
	int page;                    /* 1-based; 0 while not placed */
	double y;                    /* pt from the page's top */
};

struct flow {
	struct flow_style st;
	double measure, body_h;
	struct blk *v;
	size_t len, cap;
	struct dest *dests;
	size_t ndests, dests_cap;
	struct piece *pieces;
	size_t npieces, pieces_cap;
	struct page *pages;
	size_t npages, pages_cap;
	PangoFontMap *map;
	PangoContext *pango;
	HyphenDict *dict;
};

/* ---- building -------------------------------------------------------- */

struct flow *
flow_new(const struct flow_style *st)
{
	struct flow *f = xcalloc(1, sizeof(*f));
	cairo_font_options_t *fo;

	f->st = *st;
	f->measure = st->page_w - 2 * st->margin_side;
	f->body_h = st->page_h - st->margin_top - st->margin_bottom;
	if (st->hyphen_dict)
		f->dict = hnj_hyphen_load(st->hyphen_dict);
	/* A font map of its own: the flow is laid out on whatever thread runs it. */
	f->map = pango_cairo_font_map_new();
	f->pango = pango_font_map_create_context(f->map);
	pango_cairo_context_set_resolution(f->pango, 72);
	pango_context_set_round_glyph_positions(f->pango, FALSE);
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	pango_cairo_context_set_font_options(f->pango, fo);
	cairo_font_options_destroy(fo);
	if (st->lang && *st->lang)
		pango_context_set_language(f->pango, pango_language_from_string(st->lang));
	return f;
}

static struct blk *
S_add(struct flow *f, enum blk_kind kind)
{
	struct blk *b;

	f->v = xgrow(f->v, &f->cap, f->len + 1, sizeof(*f->v));
	b = &f->v[f->len++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->dest = -1;
	return b;
}

int
flow_dest(struct flow *f)
{
	f->dests = xgrow(f->dests, &f->dests_cap, f->ndests + 1, sizeof(*f->dests));
	memset(&f->dests[f->ndests], 0, sizeof(*f->dests));
	return (int)f->ndests++;
}

void
flow_new_page(struct flow *f, enum flow_page_kind kind, const char *verso, const char *recto)
{
	struct blk *b = S_add(f, B_BREAK);

	b->page_kind = kind;
	b->verso = verso ? xstrdup(verso) : NULL;
	b->recto = recto ? xstrdup(recto) : NULL;
}

void
flow_space(struct flow *f, double em)
{
	S_add(f, B_SPACE)->em = em;
}

void
flow_sink(struct flow *f, double fraction)
{
	S_add(f, B_SINK)->em = fraction;
}

static void
S_copy_links(struct blk *b, const struct flow_link *links, size_t n)
{
	size_t i;

	b->links = xcalloc(n + 1, sizeof(*b->links));
	b->nlinks = n;
	for (i = 0; i < n; i++) {
		b->links[i].dest = links[i].dest;
		b->links[i].uri = links[i].uri ? xstrdup(links[i].uri) : NULL;
	}
}

void
flow_para(struct flow *f, const struct flow_para *p)
{
	struct blk *b = S_add(f, B_PARA);

	b->role = p->role;
	b->markup = xstrdup(p->markup ? p->markup : "");
	S_copy_links(b, p->links, p->nlinks);
	b->indent = p->indent;
	b->marker = p->marker ? xstrdup(p->marker) : NULL;
	b->quote = p->quote;
	b->tight = p->tight;
	b->keep = p->keep;
	b->dest = p->dest;
	b->outline = p->outline;
	b->outline_title = p->outline > 0 ? xstrdup(p->outline_title ? p->outline_title : "") : NULL;
	b->has_ref = strstr(b->markup, FLOW_PAGE_REF) != NULL;
}

void
flow_code(struct flow *f, const char *text, double indent, int quote)
{
	struct blk *b = S_add(f, B_CODE);

	b->markup = xstrdup(text);
	b->indent = indent;
	b->quote = quote;
}

void
flow_rule(struct flow *f, double indent)
{
	S_add(f, B_RULE)->indent = indent;
}

void
flow_box(struct flow *f, double indent, double lines)
{
	struct blk *b = S_add(f, B_BOX);

	b->indent = indent;
	b->em = lines;
}

void
flow_image(struct flow *f, const struct image *im, double indent, int dest)
{
	struct blk *b = S_add(f, B_IMAGE);

	b->image = im;
	b->indent = indent;
	b->dest = dest;
}

void
flow_table(struct flow *f, int ncols, int nrows, char *const *cells, const int *header,
    const char *align, double indent, const struct flow_link *links, size_t nlinks)
{
	struct blk *b = S_add(f, B_TABLE);
	struct ftable *t = xcalloc(1, sizeof(*t));
	int i, n = ncols > 0 && nrows > 0 ? ncols * nrows : 0, k = 0;

	b->table = t;
	b->indent = indent;
	if (n == 0)
		return;
	t->ncols = ncols;
	t->nrows = nrows;
	t->cells = xcalloc((size_t)n, sizeof(*t->cells));
	t->lay = xcalloc((size_t)n, sizeof(*t->lay));
	t->link0 = xcalloc((size_t)n + 1, sizeof(*t->link0));
	for (i = 0; i < n; i++) {
		const char *m = cells[i];

		t->cells[i] = m ? xstrdup(m) : NULL;
		t->link0[i] = k;
		/* The cells' links, one per FLOW_LINK_BEGIN in reading order: as many as given. */
		while (m && (m = strstr(m, FLOW_LINK_BEGIN)) != NULL && (size_t)k < nlinks) {
			k++;
			m += strlen(FLOW_LINK_BEGIN);
		}
		if (t->cells[i] && strstr(t->cells[i], FLOW_PAGE_REF))
			b->has_ref = 1;
	}
	t->link0[n] = k;
	S_copy_links(b, links, (size_t)k);
	t->link_start = xcalloc((size_t)k + 1, sizeof(int));
	t->link_end = xcalloc((size_t)k + 1, sizeof(int));
	t->header = xcalloc((size_t)nrows, sizeof(*t->header));
	memcpy(t->header, header, (size_t)nrows * sizeof(*header));
	t->align = xcalloc((size_t)ncols, 1);
	memcpy(t->align, align, (size_t)ncols);
	t->colw = xcalloc((size_t)ncols, sizeof(*t->colw));
	t->rowh = xcalloc((size_t)nrows, sizeof(*t->rowh));
}

int
flow_contents(struct flow *f, const char *markup, int level, int dest)
{
	struct blk *b = S_add(f, B_CONTENTS);
	struct flow_link l = { dest, NULL };

	b->markup = xconcat(FLOW_LINK_BEGIN, markup, FLOW_LINK_END, NULL);
	S_copy_links(b, &l, 1);
	b->level = level;
	return (int)(f->len - 1);
}

void
flow_contents_set(struct flow *f, int entry, const char *markup)
{
	struct blk *b;

	if (entry < 0 || (size_t)entry >= f->len || f->v[entry].kind != B_CONTENTS)
		return;
	b = &f->v[entry];
	free(b->markup);
	b->markup = xconcat(FLOW_LINK_BEGIN, markup, FLOW_LINK_END, NULL);
}

static void
S_unlayout(struct blk *b)
{
	if (b->layout)
		g_object_unref(b->layout);
	if (b->mlayout)
		g_object_unref(b->mlayout);
	if (b->numlayout)
		g_object_unref(b->numlayout);
	b->layout = b->mlayout = b->numlayout = NULL;
	free(b->link_start);
	free(b->link_end);
	free(b->lines);
	b->link_start = b->link_end = NULL;
	b->lines = NULL;
	b->nlines = 0;
}

void
flow_free(struct flow *f)
{
	size_t i;
	int k;

	if (!f)
		return;
	for (i = 0; i < f->len; i++) {
		struct blk *b = &f->v[i];

		S_unlayout(b);
		free(b->markup);
		for (k = 0; k < (int)b->nlinks; k++)
			free((char *)b->links[k].uri);
		free(b->links);
		free(b->marker);
		free(b->outline_title);
		free(b->verso);
		free(b->recto);
		if (b->table) {
			for (k = 0; k < b->table->ncols * b->table->nrows; k++) {
				free(b->table->cells[k]);
				if (b->table->lay[k])
					g_object_unref(b->table->lay[k]);
			}
			free(b->table->cells);
			free(b->table->lay);
			free(b->table->header);
			free(b->table->align);
			free(b->table->colw);
			free(b->table->rowh);
			free(b->table->link0);
			free(b->table->link_start);
			free(b->table->link_end);
			free(b->table);
		}
	}
	free(f->v);
	free(f->dests);
	free(f->pieces);
	free(f->pages);
	if (f->dict)
		hnj_hyphen_free(f->dict);
	g_object_unref(f->pango);
	g_object_unref(f->map);
	free(f);
}

/* ---- text: marks, page numbers, hyphens ------------------------------ */

struct role_style {
	double size;                 /* relative to the body */
	PangoWeight weight;
	PangoStyle style;
	PangoAlignment align;
	int justify, hyphenate;
	double above;                /* em of its own size */
	int keep;                    /* kept on a page with what follows */
	int caps;                    /* letter-spaced small capitals */
};

static const struct role_style S_roles[] = {
	[FLOW_BODY] = { 1.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 1, 1, 0.55, 0, 0 },
	[FLOW_TITLE] = { 2.5, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, PANGO_ALIGN_CENTER, 0, 0, 0, 1, 0 },
	[FLOW_SUBTITLE] = { 1.2, PANGO_WEIGHT_NORMAL, PANGO_STYLE_ITALIC, PANGO_ALIGN_CENTER, 0, 0, 1.0, 0, 0 },
	[FLOW_LABEL] = { 0.95, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 0, 1, 1 },
	[FLOW_H1] = { 2.0, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 0.4, 1, 0 },
	[FLOW_H2] = { 1.3, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 1.2, 1, 0 },
	[FLOW_H3] = { 1.1, PANGO_WEIGHT_BOLD, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 1.0, 1, 0 },
	[FLOW_H4] = { 1.0, PANGO_WEIGHT_BOLD, PANGO_STYLE_ITALIC, PANGO_ALIGN_LEFT, 0, 0, 0.9, 1, 0 },
	[FLOW_NOTE] = { 0.85, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 1, 1, 0.45, 0, 0 },
	[FLOW_ASIDE] = { 0.85, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 0.7, 0, 0 },
	[FLOW_CAPTION] = { 0.85, PANGO_WEIGHT_NORMAL, PANGO_STYLE_ITALIC, PANGO_ALIGN_CENTER, 0, 0, 0.5, 0, 0 },
	[FLOW_QUESTION] = { 1.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 1.3, 1, 0 },
	[FLOW_OPTION] = { 1.0, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 0.3, 0, 0 },
	[FLOW_KEY] = { 0.95, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL, PANGO_ALIGN_LEFT, 0, 0, 0.4, 0, 0 },
};

/*
 * The markup with each FLOW_PAGE_REF replaced by the page of the link
 * before it: the last pass's number, or "00" (about as wide) before
 * there is one.
 */
static char *
S_fill_refs(const struct flow *f, const struct blk *b, const char *markup)
{
	struct buf out;
	size_t mark = strlen(FLOW_PAGE_REF);
	int links = 0;
	const char *s;

	size_t chars = 0, skipped = 0;

	buf_init(&out);
	buf_puts(&out, "");
	for (s = markup; *s; ) {
		/*
		 * Past the characters set (FLOW_MAX_CHARS, and one to show the
		 * cut) only the tags that close what is open are kept: the rest
		 * would cost the markup parser without being set.
		 */
		if (*s == '<' && strchr(s, '>')) {
			const char *end = strchr(s, '>') + 1;
			int closing = s[1] == '/', empty = end - s >= 2 && end[-2] == '/';

			if (chars <= FLOW_MAX_CHARS || (closing && skipped == 0))
				buf_put(&out, s, (size_t)(end - s));
			else if (closing)
				skipped--;
			else if (!empty)
				skipped++;
			s = end;
			continue;
		}
		if (chars > FLOW_MAX_CHARS) {
			s++;
			continue;
		}
		if (*s == '&' && strchr(s, ';')) {
			const char *end = strchr(s, ';') + 1;

			buf_put(&out, s, (size_t)(end - s));
			s = end;
			chars++;
			continue;
		}
		if (((unsigned char)*s & 0xC0) != 0x80)
			chars++;
		if (strncmp(s, FLOW_LINK_BEGIN, mark) == 0)
			links++;
		if (strncmp(s, FLOW_PAGE_REF, mark) == 0) {
			int d = links > 0 && (size_t)links <= b->nlinks ? b->links[links - 1].dest : -1;

			if (d >= 0 && (size_t)d < f->ndests && f->dests[d].page > 0)
				buf_printf(&out, "%d", f->dests[d].page);
			else
				buf_puts(&out, "00");
			s += mark;
			continue;
		}
		buf_putc(&out, *s++);
	}
	return buf_detach(&out);
}

/* Marks in nohyph the bytes of text set with insert_hyphens="false" (code). */
static void
S_no_hyphens(PangoAttrList *attrs, unsigned char *nohyph, size_t len)
{
	GSList *all = attrs ? pango_attr_list_get_attributes(attrs) : NULL, *l;

	for (l = all; l; l = l->next) {
		PangoAttribute *a = l->data;

		if (a->klass->type == PANGO_ATTR_INSERT_HYPHENS && ((PangoAttrInt *)a)->value == 0) {
			size_t i, end = a->end_index < len ? a->end_index : len;

			for (i = a->start_index; i < end; i++)
				nohyph[i] = 1;
		}
		pango_attribute_destroy(a);
	}
	g_slist_free(all);
}

/*
 * Appends word (len bytes, letters only) to out with a soft hyphen at
 * each point the dictionary allows. A word with a capital after its
 * first letter (an acronym, a name in code) is left whole.
 */
static void
S_hyphenate(struct flow *f, const char *word, size_t len, size_t nchars, struct buf *out)
{
	char low[MAX_WORD + 1], hy[MAX_WORD + 5];
	char **rep = NULL;
	int *pos = NULL, *cut = NULL;
	gchar *down;
	size_t i;

	if (!f->dict || nchars < MIN_WORD || len > MAX_WORD) {
		buf_put(out, word, len);
		return;
	}
	down = g_utf8_strdown(word, (gssize)len);
	/* Only the first letter may be a capital; the case must not change the length. */
	if (strlen(down) != len || strncmp(down + 1, word + 1, len - 1) != 0) {
		g_free(down);
		buf_put(out, word, len);
		return;
	}
	memcpy(low, down, len);
	low[len] = '\0';
	g_free(down);
	memset(hy, 0, sizeof(hy));
	if (hnj_hyphen_hyphenate3(f->dict, low, (int)len, hy, NULL, &rep, &pos, &cut, 2, 3, 2, 2) != 0)
		memset(hy, 0, sizeof(hy));
	if (rep) {
		/* A change of spelling at a break (old German "Schiff-fahrt"): not taken. */
		for (i = 0; i < len; i++)
			free(rep[i]);
		free(rep);
		free(pos);
		free(cut);
		memset(hy, 0, sizeof(hy));
	}
	for (i = 0; i < len; i++) {
		buf_putc(out, word[i]);
		if ((hy[i] & 1) && i + 1 < len && ((unsigned char)word[i + 1] & 0xC0) != 0x80)
			buf_puts(out, "\xc2\xad");
	}
}

/*
 * A block's text for Pango: the page references filled in, the markup
 * parsed, the link marks taken out (their places kept in link_start and
 * link_end), soft hyphens added where the role hyphenates, and a
 * zero-width space in every MAX_RUN bytes of an unbroken run (Pango
 * breaks a run without a break opportunity in quadratic time). The
 * attributes are moved to the new byte positions.
 */
static void
S_set_text(struct flow *f, struct blk *b, PangoLayout *l, const char *markup, int hyphenate)
{
	char *filled = S_fill_refs(f, b, markup), *text = NULL;
	PangoAttrList *attrs = NULL, *moved;
	GSList *all, *it;
	size_t len, i, *map, run = 0, chars = 0, plain_until = 0, cut_at = SIZE_MAX;
	unsigned char *nohyph;
	struct buf out;
	int link = 0;

	if (!pango_parse_markup(filled, -1, 0, &attrs, &text, NULL, NULL)) {
		/* The callers escape what they add: this is a bug's fallback, shown as written. */
		attrs = NULL;
		text = g_strdup(filled);
	}
	free(filled);
	len = strlen(text);
	map = xcalloc(len + 1, sizeof(*map));
	nohyph = xcalloc(len + 1, 1);
	S_no_hyphens(attrs, nohyph, len);
	free(b->link_start);
	free(b->link_end);
	b->link_start = xcalloc(b->nlinks + 1, sizeof(int));
	b->link_end = xcalloc(b->nlinks + 1, sizeof(int));
	buf_init(&out);
	/* Written right to left: a paragraph opening with a Latin word is still set right to left. */
	if (f->st.rtl)
		buf_puts(&out, RLM);
	for (i = 0; i < len; ) {
		unsigned char c = (unsigned char)text[i];
		gunichar u = g_utf8_get_char(text + i);
		size_t n = (size_t)(g_utf8_next_char(text + i) - (text + i));

		map[i] = out.len;
		if (u == 0xE000 || u == 0xE001) {
			if (u == 0xE000 && (size_t)link < b->nlinks)
				b->link_start[link] = b->link_end[link] = (int)out.len;
			else if (u == 0xE001 && link < (int)b->nlinks)
				b->link_end[link++] = (int)out.len;
			i += n;
			continue;
		}
		if (chars++ >= FLOW_MAX_CHARS) {
			if (chars == FLOW_MAX_CHARS + 1) {
				buf_puts(&out, "\xe2\x80\xa6");
				cut_at = i;
			}
			i += n;
			continue;
		}
		if (hyphenate && i >= plain_until && g_unichar_isalpha(u) && !nohyph[i]) {
			size_t j = i, wchars = 0;

			/* The word, up to where the text is cut (chars counts its first letter already). */
			while (j < len && g_unichar_isalpha(g_utf8_get_char(text + j)) && !nohyph[j] &&
			    chars + wchars <= FLOW_MAX_CHARS) {
				size_t k = j;

				j = (size_t)(g_utf8_next_char(text + j) - text);
				while (++k < j)
					map[k] = out.len;
				wchars++;
			}
			if (j - i > MAX_WORD) {
				/* No word: a run of letters, broken every MAX_RUN bytes below. */
				plain_until = j;
				for (size_t k = i + 1; k < j; k++)
					map[k] = 0;
				goto plain;
			}
			chars += wchars - 1;
			/* A word run into digits or an underscore is a name, not a word. */
			if ((i > 0 && (g_ascii_isdigit(text[i - 1]) || text[i - 1] == '_')) ||
			    (j < len && (g_ascii_isdigit(text[j]) || text[j] == '_')))
				buf_put(&out, text + i, j - i);
			else
				S_hyphenate(f, text + i, j - i, wchars, &out);
			for (size_t k = i + 1; k < j; k++)
				map[k] = map[i];
			run += j - i;
			i = j;
			continue;
		}
plain:
		/*
		 * Code and URLs are words hyphens must not break: a break is
		 * allowed before . / _ ? # & = (as the Chicago Manual breaks a
		 * URL), never in "://".
		 */
		if (nohyph[i] && i > 0 && strchr("./_?#&=", c) && c != '\0' && i + 1 < len &&
		    g_ascii_isalnum(text[i - 1]) && !(c == '/' && text[i - 1] == ':')) {
			buf_puts(&out, "\xe2\x80\x8b");
			run = 0;
		}
		if (c == ' ' || c == '\n' || c == '\t' || u == 0x200B || u == 0x2028)
			run = 0;
		else if (run++ >= MAX_RUN) {
			buf_puts(&out, "\xe2\x80\x8b");
			run = 1;
		}
		buf_put(&out, text + i, n);
		while (--n > 0)
			map[++i] = out.len;
		i++;
	}
	map[len] = out.len;
	buf_putc(&out, '\0');
	moved = pango_attr_list_new();
	all = attrs ? pango_attr_list_get_attributes(attrs) : NULL;
	for (it = all; it; it = it->next) {
		PangoAttribute *a = it->data;

		/* What starts in the text cut off is dropped with it (and costs nothing to insert). */
		if (a->start_index >= cut_at) {
			pango_attribute_destroy(a);
			continue;
		}
		a->start_index = map[a->start_index < len ? a->start_index : len];
		if (a->end_index != PANGO_ATTR_INDEX_TO_TEXT_END)
			a->end_index = map[a->end_index < len ? a->end_index : len];
		pango_attr_list_insert(moved, a);
	}
	g_slist_free(all);
	pango_layout_set_text(l, out.data, (int)out.len - 1);
	pango_layout_set_attributes(l, moved);
	pango_attr_list_unref(moved);
	if (attrs)
		pango_attr_list_unref(attrs);
	buf_free(&out);
	g_free(text);
	free(map);
	free(nohyph);
}

/* ---- layout ---------------------------------------------------------- */

static PangoLayout *
S_layout(struct flow *f, const char *family, double size, PangoWeight w, PangoStyle s)
{
	PangoLayout *l = pango_layout_new(f->pango);
	PangoFontDescription *fd = pango_font_description_new();

	pango_font_description_set_family(fd, family);
	pango_font_description_set_size(fd, (int)lround(size * PANGO_SCALE));
	pango_font_description_set_weight(fd, w);
	pango_font_description_set_style(fd, s);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
	pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	return l;
}

/* A block's indent in points: at most half the measure, however deep the nesting. */
static double
S_indent(const struct flow *f, const struct blk *b)
{
	return fmin(b->indent * f->st.size, f->measure / 2);
}

/* The layout's lines as units, from top, shifted down by dy. */
static void
S_lines(struct blk *b, PangoLayout *l, double dy)
{
	PangoLayoutIter *it = pango_layout_get_iter(l);
	int n = pango_layout_get_line_count(l), i = 0;

	b->lines = xcalloc((size_t)n + 1, sizeof(*b->lines));
	do {
		PangoRectangle r;
		PangoLayoutLine *ln = pango_layout_iter_get_line_readonly(it);

		pango_layout_iter_get_line_extents(it, NULL, &r);
		b->lines[i].top = dy + (double)r.y / PANGO_SCALE;
		b->lines[i].h = (double)r.height / PANGO_SCALE;
		b->lines[i].x = (double)r.x / PANGO_SCALE;
		b->lines[i].baseline = dy + (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
		b->lines[i].start = ln->start_index;
		b->lines[i].len = ln->length;
		i++;
	} while (i < n && pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
	b->nlines = i;
}

static double
S_width(PangoLayout *l)
{
	int w, h;

	pango_layout_get_size(l, &w, &h);
	return (double)w / PANGO_SCALE;
}

static void
S_layout_para(struct flow *f, struct blk *b)
{
	const struct role_style *rs = &S_roles[b->role];
	double size = f->st.size * rs->size;

	b->size = size;
	b->x = S_indent(f, b);
	b->w = f->measure - b->x;
	b->layout = S_layout(f, f->st.font, size, rs->weight, rs->style);
	pango_layout_set_width(b->layout, (int)(b->w * PANGO_SCALE));
	pango_layout_set_alignment(b->layout, rs->align);
	pango_layout_set_justify(b->layout, rs->justify);
	S_set_text(f, b, b->layout, b->markup, rs->hyphenate && f->dict);
	if (rs->caps) {
		PangoAttrList *al = pango_attr_list_copy(pango_layout_get_attributes(b->layout));

		if (!al)
			al = pango_attr_list_new();
		pango_attr_list_insert_before(al, pango_attr_text_transform_new(PANGO_TEXT_TRANSFORM_UPPERCASE));
		pango_attr_list_insert_before(al,
		    pango_attr_letter_spacing_new((int)(0.12 * size * PANGO_SCALE)));
		pango_layout_set_attributes(b->layout, al);
		pango_attr_list_unref(al);
	}
	S_lines(b, b->layout, 0);
	b->space = rs->above * size;
	if (b->tight)
		b->space = 0.2 * size;
	if (b->marker) {
		b->mlayout = S_layout(f, f->st.font, size, rs->weight, rs->style);
		if (f->st.rtl) {
			/* "1." as a right-to-left text reads its dot after the number, on its left. */
			char *m = xconcat(RLM, b->marker, NULL);

			pango_layout_set_markup(b->mlayout, m, -1);
			free(m);
		} else
			pango_layout_set_markup(b->mlayout, b->marker, -1);
	}
}

static void
S_layout_code(struct flow *f, struct blk *b)
{
	PangoAttrList *al = pango_attr_list_new();
	double size = f->st.size * CODE_SIZE;

	b->size = size;
	b->x = S_indent(f, b);
	b->w = f->measure - b->x;
	b->pad = 0.45 * f->st.size;
	b->layout = S_layout(f, f->st.mono, size, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL);
	/* Code reads left to right whatever its strings hold; a hyphen at a break would read as code. */
	pango_layout_set_auto_dir(b->layout, FALSE);
	pango_layout_set_width(b->layout, (int)((b->w - 2 * b->pad) * PANGO_SCALE));
	pango_layout_set_text(b->layout, b->markup, -1);
	pango_attr_list_insert(al, pango_attr_insert_hyphens_new(FALSE));
	pango_layout_set_attributes(b->layout, al);
	pango_attr_list_unref(al);
	S_lines(b, b->layout, 0);
	b->space = 0.6 * f->st.size;
}

/*
 * Cell i's text into l: S_set_text over the cell's own links (a slice of
 * the table's), their places kept in the table's link_start and link_end.
 */
static void
S_set_cell_text(struct flow *f, struct blk *b, int i, PangoLayout *l, const char *markup)
{
	struct ftable *t = b->table;
	struct blk cell;
	int k, n = t->link0[i + 1] - t->link0[i];

	memset(&cell, 0, sizeof(cell));
	cell.links = b->links + t->link0[i];
	cell.nlinks = (size_t)n;
	S_set_text(f, &cell, l, markup, f->dict != NULL);
	for (k = 0; k < n; k++) {
		t->link_start[t->link0[i] + k] = cell.link_start[k];
		t->link_end[t->link0[i] + k] = cell.link_end[k];
	}
	free(cell.link_start);
	free(cell.link_end);
}

static void
S_layout_table(struct flow *f, struct blk *b)
{
	struct ftable *t = b->table;
	double size = f->st.size * TABLE_SIZE, gap = 0.9 * size, pad = 0.3 * size, y = 0;
	int r, c;

	b->size = size;
	b->x = S_indent(f, b);
	b->space = 0.8 * f->st.size;
	/* Natural widths anew: a page number set since the last pass may be narrower. */
	for (c = 0; c < t->ncols; c++)
		t->colw[c] = 0;
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			PangoLayout **l = &t->lay[r * t->ncols + c];
			const char *m = t->cells[r * t->ncols + c];

			if (!m)
				continue;
			if (*l)
				g_object_unref(*l);
			*l = S_layout(f, f->st.font, size, t->header[r] ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
			    PANGO_STYLE_NORMAL);
			S_set_cell_text(f, b, r * t->ncols + c, *l, m);
			t->colw[c] = fmax(t->colw[c], S_width(*l));
		}
	/* No floor: a book's cell breaks inside a word where it must (PANGO_WRAP_WORD_CHAR). */
	cardtext_table_columns(t->colw, NULL, t->ncols,
	    f->measure - b->x - gap * (t->ncols > 0 ? t->ncols - 1 : 0));
	b->lines = xcalloc((size_t)t->nrows + 1, sizeof(*b->lines));
	for (r = 0; r < t->nrows; r++) {
		double h = 0, base = 0;

		for (c = 0; c < t->ncols; c++) {
			PangoLayout *l = t->lay[r * t->ncols + c];
			int w, lh;

			if (!l)
				continue;
			pango_layout_set_width(l, (int)(t->colw[c] * PANGO_SCALE));
			/*
			 * Right to left, Pango swaps left and right (the cell starts with RLM):
			 * no alignment is the start, the right, and 'l' and 'r' stay where they say.
			 */
			if (f->st.rtl)
				pango_layout_set_alignment(l, t->align[c] == 'l' ? PANGO_ALIGN_RIGHT :
				    t->align[c] == 'c' ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT);
			else
				pango_layout_set_alignment(l, t->align[c] == 'r' ? PANGO_ALIGN_RIGHT :
				    t->align[c] == 'c' ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT);
			pango_layout_get_size(l, &w, &lh);
			h = fmax(h, (double)lh / PANGO_SCALE);
			base = fmax(base, (double)pango_layout_get_baseline(l) / PANGO_SCALE);
		}
		t->rowh[r] = h + 2 * pad;
		b->lines[r].top = y;
		b->lines[r].h = t->rowh[r];
		b->lines[r].baseline = y + pad + base;
		y += t->rowh[r];
	}
	b->nlines = t->nrows;
	t->width = gap * (t->ncols > 0 ? t->ncols - 1 : 0);
	for (c = 0; c < t->ncols; c++)
		t->width += t->colw[c];
	b->w = t->width;
}

static void
S_layout_image(struct flow *f, struct blk *b)
{
	double w, h, room = f->measure - S_indent(f, b), scale = 1;

	image_size(b->image, &w, &h);
	if (w > room)
		scale = room / w;
	if (h * scale > 0.7 * f->body_h)
		scale = 0.7 * f->body_h / h;
	b->w = w * scale;
	b->x = S_indent(f, b) + (room - b->w) / 2;
	b->space = 0.9 * f->st.size;
	b->lines = xcalloc(1, sizeof(*b->lines));
	b->lines[0].h = h * scale;
	b->nlines = 1;
}

static void
S_layout_contents(struct flow *f, struct blk *b)
{
	/* The page number is set when the page is drawn: the entry's lines do not depend on it. */
	double size = f->st.size, numw = 3 * size, gap = 1.5 * size;

	b->size = size;
	b->x = (b->level - 1) * 1.5 * size;
	b->w = f->measure - b->x - numw - gap;
	b->layout = S_layout(f, f->st.font, size, b->level == 1 ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
	    PANGO_STYLE_NORMAL);
	pango_layout_set_width(b->layout, (int)(b->w * PANGO_SCALE));
	S_set_text(f, b, b->layout, b->markup, 0);
	S_lines(b, b->layout, 0);
	/* An entry is one unit: never split between pages. */
	b->lines[0].h = b->lines[b->nlines - 1].top + b->lines[b->nlines - 1].h;
	b->nlines = 1;
	b->space = b->level == 1 ? 0.7 * size : 0.15 * size;
}

static void
S_layout_block(struct flow *f, struct blk *b)
{
	S_unlayout(b);
	switch (b->kind) {
	case B_PARA:
		S_layout_para(f, b);
		break;
	case B_CODE:
		S_layout_code(f, b);
		break;
	case B_TABLE:
		S_layout_table(f, b);
		break;
	case B_IMAGE:
		S_layout_image(f, b);
		break;
	case B_CONTENTS:
		S_layout_contents(f, b);
		break;
	case B_RULE:
		b->lines = xcalloc(1, sizeof(*b->lines));
		b->lines[0].h = 1.2 * f->st.size;
		b->nlines = 1;
		b->space = 0.6 * f->st.size;
		break;
	case B_BOX:
		b->lines = xcalloc(1, sizeof(*b->lines));
		b->lines[0].h = b->em * 1.5 * f->st.size;
		b->nlines = 1;
		b->space = 0.4 * f->st.size;
		b->x = b->indent * f->st.size;
		b->w = f->measure - b->x;
		break;
	default:
		break;
	}
}

/* ---- pages ----------------------------------------------------------- */

/* A table's header row, set again at the top of each page the table continues on. */
static int
S_repeats_header(const struct blk *b, int l0)
{
	return b->kind == B_TABLE && l0 > 0 && b->table->nrows > 1 && b->table->header[0];
}

static double
S_span(const struct blk *b, int l0, int l1)
{
	double h = b->lines[l1 - 1].top + b->lines[l1 - 1].h - b->lines[l0].top + 2 * b->pad;

	return S_repeats_header(b, l0) ? h + b->table->rowh[0] : h;
}

/* Lines that may be split off a block at a page's foot or head: 2 for text, else 1. */
static int
S_min_lines(const struct blk *b)
{
	return b->kind == B_PARA || b->kind == B_CODE ? 2 : 1;
}

/*
 * Lines the first piece of a block needs at a page's foot: a table's
 * header rows with its first body row (a header alone at the foot heads
 * nothing), else S_min_lines.
 */
static int
S_min_first(const struct blk *b)
{
	int k = 0;

	if (b->kind != B_TABLE)
		return S_min_lines(b);
	while (k < b->nlines && b->table->header[k])
		k++;
	return k > 0 && k < b->nlines ? k + 1 : 1;
}

static int
S_splits(const struct blk *b)
{
	return b->kind == B_PARA || b->kind == B_CODE || b->kind == B_TABLE;
}

/* Block i is kept on a page with the start of the one after it. */
static int
S_keeps(const struct flow *f, size_t i)
{
	const struct blk *b = &f->v[i];

	if (i + 1 < f->len && f->v[i + 1].kind == B_PARA && f->v[i + 1].role == FLOW_CAPTION)
		return 1;
	/* A box to write in stays with what asks for it. */
	if (i + 1 < f->len && f->v[i + 1].kind == B_BOX)
		return 1;
	return b->kind == B_PARA && (b->keep || S_roles[b->role].keep);
}

/* The height the start of block i needs on a page (with what it keeps), or 0 if none follows. */
static double
S_start_height(const struct flow *f, size_t i, int depth)
{
	const struct blk *b;
	double h;

	if (i >= f->len || depth > 4)
		return 0;
	b = &f->v[i];
	if (b->nlines == 0)
		return 0;
	/* A block too short to leave the least at both ends is not split at all. */
	h = b->space + S_span(b, 0, S_splits(b) && b->nlines >= S_min_first(b) + S_min_lines(b)
	    ? S_min_first(b) : b->nlines);
	if (S_keeps(f, i))
		h += S_span(b, 0, b->nlines) - S_span(b, 0, 1) + S_start_height(f, i + 1, depth + 1);
	return h;
}

struct pager {
	struct flow *f;
	double y;                    /* pt below the text's top on the current page */
	int empty;                   /* nothing placed on it yet */
	const char *verso, *recto;
};

static void
S_page_add(struct pager *p, enum flow_page_kind kind)
{
	struct flow *f = p->f;
	struct page *pg;

	f->pages = xgrow(f->pages, &f->pages_cap, f->npages + 1, sizeof(*f->pages));
	pg = &f->pages[f->npages++];
	pg->kind = kind;
	pg->verso = p->verso;
	pg->recto = p->recto;
	p->y = 0;
	p->empty = 1;
}

static void
S_place(struct pager *p, size_t bi, int l0, int l1)
{
	struct flow *f = p->f;
	struct blk *b = &f->v[bi];
	struct piece *pc;

	f->pieces = xgrow(f->pieces, &f->pieces_cap, f->npieces + 1, sizeof(*f->pieces));
	pc = &f->pieces[f->npieces++];
	pc->b = bi;
	pc->l0 = l0;
	pc->l1 = l1;
	pc->page = (int)f->npages - 1;
	pc->y = p->y;
	if (l0 == 0 && b->dest >= 0 && (size_t)b->dest < f->ndests) {
		f->dests[b->dest].page = (int)f->npages;
		f->dests[b->dest].y = f->st.margin_top + p->y;
	}
	p->y += S_span(b, l0, l1);
	p->empty = 0;
}

/* Block bi on the pages from where p is, split by the rules of a book. */
static void
S_paginate_block(struct pager *p, size_t bi)
{
	struct flow *f = p->f;
	struct blk *b = &f->v[bi];
	int l = 0, n = b->nlines, mins = S_min_lines(b);

	while (l < n) {
		double space = p->empty ? 0 : b->space;
		double avail = f->body_h - p->y - space;
		double keep = S_keeps(f, bi) ? S_start_height(f, bi + 1, 0) : 0;
		int k = 0;

		while (l + k < n && S_span(b, l, l + k + 1) <= avail + 0.01)
			k++;
		if (k == n - l && (keep == 0 || p->empty || S_span(b, l, n) + keep <= avail + 0.01)) {
			p->y += space;
			S_place(p, bi, l, n);
			return;
		}
		if (k == n - l)
			k = 0;              /* it fits, but what it keeps with does not */
		else if (!S_splits(b))
			k = 0;
		else {
			/* No last line alone at the top of the next page, no first line alone here. */
			if (n - l - k < mins)
				k = n - l - mins;
			if (k < mins && n - l >= mins)
				k = 0;
			if (l == 0 && k < S_min_first(b))
				k = 0;
		}
		if (k <= 0) {
			if (!p->empty) {
				S_page_add(p, FLOW_PAGE_RUNNING);
				continue;
			}
			/* Taller than a page from its top: as much as fits, at least a line. */
			k = 0;
			while (l + k < n && S_span(b, l, l + k + 1) <= avail + 0.01)
				k++;
			if (k == 0)
				k = 1;
		}
		p->y += space;
		S_place(p, bi, l, l + k);
		l += k;
		if (l < n)
			S_page_add(p, FLOW_PAGE_RUNNING);
	}
}

static void
S_paginate(struct flow *f)
{
	struct pager p;
	size_t i;

	memset(&p, 0, sizeof(p));
	p.f = f;
	f->npieces = 0;
	f->npages = 0;
	for (i = 0; i < f->ndests; i++)
		f->dests[i].page = 0;
	S_page_add(&p, FLOW_PAGE_RUNNING);
	for (i = 0; i < f->len; i++) {
		struct blk *b = &f->v[i];

		switch (b->kind) {
		case B_BREAK:
			p.verso = b->verso;
			p.recto = b->recto;
			if (!p.empty)
				S_page_add(&p, b->page_kind);
			f->pages[f->npages - 1].kind = b->page_kind;
			f->pages[f->npages - 1].verso = b->verso;
			f->pages[f->npages - 1].recto = b->recto;
			break;
		case B_SPACE:
			if (!p.empty)
				p.y = fmin(p.y + b->em * f->st.size, f->body_h);
			break;
		case B_SINK:
			p.y = fmax(p.y, b->em * f->body_h);
			break;
		default:
			if (b->nlines > 0)
				S_paginate_block(&p, i);
			break;
		}
	}
}

/* ---- drawing --------------------------------------------------------- */

static void
S_grey(cairo_t *cr, double g)
{
	cairo_set_source_rgb(cr, g, g, g);
}

/* Appends s to b as a Cairo tag attribute string: quoted, with ' and \ escaped. */
static void
S_attr_string(struct buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
	buf_putc(b, '\'');
}

/* A link over rectangles (x, y, w, h quadruples), to a destination or a URI. */
static void
S_link(struct flow *f, cairo_t *cr, const struct flow_link *l, const double *r, int nr)
{
	struct buf a;
	int i;

	if (nr == 0)
		return;
	if (l->dest >= 0 && ((size_t)l->dest >= f->ndests || f->dests[l->dest].page == 0))
		return;
	if (l->dest < 0 && !l->uri)
		return;
	buf_init(&a);
	buf_puts(&a, "rect=[");
	for (i = 0; i < 4 * nr; i++)
		buf_printf(&a, "%s%.2f", i ? " " : "", r[i]);
	buf_puts(&a, "] ");
	/* A named destination: Cairo 1.16 drops a link by page number to a page not yet drawn. */
	if (l->dest >= 0)
		buf_printf(&a, "dest='d%d'", l->dest);
	else {
		buf_puts(&a, "uri=");
		S_attr_string(&a, l->uri);
	}
	buf_putc(&a, '\0');
	cairo_tag_begin(cr, CAIRO_TAG_LINK, a.data);
	cairo_tag_end(cr, CAIRO_TAG_LINK);
	buf_free(&a);
}

/* The links of a text block on its lines l0..l1, drawn with its first line's top at y. */
static void
S_text_links(struct flow *f, cairo_t *cr, const struct blk *b, int l0, int l1, double x, double y)
{
	double *r = xcalloc(4 * (size_t)(l1 - l0) + 4, sizeof(*r));
	size_t k;
	int i;

	for (k = 0; k < b->nlinks; k++) {
		int s = b->link_start[k], e = b->link_end[k], nr = 0;

		if (e <= s)
			continue;
		for (i = l0; i < l1; i++) {
			const struct line *ln = &b->lines[i];
			PangoLayoutLine *pl = pango_layout_get_line_readonly(b->layout, i);
			int a = s > ln->start ? s : ln->start;
			int z = e < ln->start + ln->len ? e : ln->start + ln->len;
			int xa, xz;

			if (a >= z || !pl)
				continue;
			pango_layout_line_index_to_x(pl, a, 0, &xa);
			pango_layout_line_index_to_x(pl, z, 0, &xz);
			if (xz < xa) {
				int t = xa;

				xa = xz;
				xz = t;
			}
			r[4 * nr] = x + ln->x + (double)xa / PANGO_SCALE;
			r[4 * nr + 1] = y + ln->top - b->lines[l0].top;
			r[4 * nr + 2] = (double)(xz - xa) / PANGO_SCALE;
			r[4 * nr + 3] = ln->h;
			nr++;
		}
		S_link(f, cr, &b->links[k], r, nr);
	}
	free(r);
}

/* Text lines l0..l1 of a layout, the first line's top at y. */
static void
S_show_lines(cairo_t *cr, const struct blk *b, int l0, int l1, double x, double y)
{
	int i;

	for (i = l0; i < l1; i++) {
		PangoLayoutLine *pl = pango_layout_get_line_readonly(b->layout, i);

		cairo_move_to(cr, x + b->lines[i].x, y + b->lines[i].baseline - b->lines[l0].top);
		pango_cairo_show_layout_line(cr, pl);
	}
}

static void
S_quote_bars(struct flow *f, cairo_t *cr, const struct blk *b, double left, double y, double h)
{
	int q;

	S_grey(cr, GREY_RULE);
	cairo_set_line_width(cr, 1.2);
	/* The innermost quotes' bars, each 1.3 em left of the text it holds, within the indent. */
	for (q = b->quote > 8 ? b->quote - 8 : 0; q < b->quote; q++) {
		double bx = left + b->x - ((b->quote - q) * 1.3 - 0.2) * f->st.size;

		if (bx < left)
			continue;
		/* Mirrored: as far right of the text's right edge. */
		if (f->st.rtl)
			bx = 2 * left + f->measure - bx;

		cairo_move_to(cr, bx, y - 0.25 * f->st.size);
		cairo_line_to(cr, bx, y + h);
		cairo_stroke(cr);
	}
}

/* The links of table cell i, its layout drawn with its top-left corner at (x, y). */
static void
S_cell_links(struct flow *f, cairo_t *cr, const struct blk *b, int i, double x, double y)
{
	const struct ftable *t = b->table;
	PangoLayout *l = t->lay[i];
	int nl = pango_layout_get_line_count(l), k;
	double *r = xcalloc(4 * (size_t)nl + 4, sizeof(*r));

	for (k = t->link0[i]; k < t->link0[i + 1]; k++) {
		PangoLayoutIter *it = pango_layout_get_iter(l);
		int s = t->link_start[k], e = t->link_end[k], nr = 0;

		do {
			PangoLayoutLine *pl = pango_layout_iter_get_line_readonly(it);
			PangoRectangle lr;
			int a = s > pl->start_index ? s : pl->start_index;
			int z = e < pl->start_index + pl->length ? e : pl->start_index + pl->length;
			int xa, xz;

			if (a >= z || nr >= nl)
				continue;
			pango_layout_iter_get_line_extents(it, NULL, &lr);
			pango_layout_line_index_to_x(pl, a, 0, &xa);
			pango_layout_line_index_to_x(pl, z, 0, &xz);
			if (xz < xa) {
				int tmp = xa;

				xa = xz;
				xz = tmp;
			}
			r[4 * nr] = x + (double)(lr.x + xa) / PANGO_SCALE;
			r[4 * nr + 1] = y + (double)lr.y / PANGO_SCALE;
			r[4 * nr + 2] = (double)(xz - xa) / PANGO_SCALE;
			r[4 * nr + 3] = (double)lr.height / PANGO_SCALE;
			nr++;
		} while (pango_layout_iter_next_line(it));
		pango_layout_iter_free(it);
		S_link(f, cr, &b->links[k], r, nr);
	}
	free(r);
}

static void
S_draw_table(struct flow *f, cairo_t *cr, const struct blk *b, int r0, int r1, double x, double y)
{
	const struct ftable *t = b->table;
	double gap = 0.9 * b->size, pad = 0.3 * b->size;
	int r, c;

	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 0.7);
	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x + t->width, y);
	cairo_stroke(cr);
	for (r = S_repeats_header(b, r0) ? 0 : r0; r < r1; r = r == 0 && r0 > 0 ? r0 : r + 1) {
		double cx = x;

		for (c = 0; c < t->ncols; c++) {
			PangoLayout *l = t->lay[r * t->ncols + c];

			/* Right to left: the first column at the right. */
			if (f->st.rtl) {
				cx = x + t->width - t->colw[c];
				for (int j = 0; j < c; j++)
					cx -= t->colw[j] + gap;
			}
			if (l) {
				cairo_move_to(cr, cx, y + pad);
				pango_cairo_show_layout(cr, l);
				S_cell_links(f, cr, b, r * t->ncols + c, cx, y + pad);
			}
			cx += t->colw[c] + gap;
		}
		y += t->rowh[r];
		/* Booktabs: a light rule under the header, heavier ones above and below. */
		if (t->header[r] && (r + 1 < r1 || (r == 0 && r0 > 0))) {
			cairo_set_line_width(cr, 0.4);
			cairo_move_to(cr, x, y);
			cairo_line_to(cr, x + t->width, y);
			cairo_stroke(cr);
		}
	}
	cairo_set_line_width(cr, 0.7);
	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x + t->width, y);
	cairo_stroke(cr);
}

/* A block's left edge from the text's left: b->x is from the start edge, the right one when rtl. */
static double
S_left_x(const struct flow *f, const struct blk *b)
{
	return f->st.rtl ? f->measure - b->x - b->w : b->x;
}

static void
S_draw_piece(struct flow *f, cairo_t *cr, const struct piece *pc)
{
	const struct blk *b = &f->v[pc->b];
	double left = f->st.margin_side, y = f->st.margin_top + pc->y, h = S_span(b, pc->l0, pc->l1);
	double bx = S_left_x(f, b);

	if (pc->l0 == 0 && b->dest >= 0 && (size_t)b->dest < f->ndests) {
		char name[64];

		snprintf(name, sizeof(name), "name='d%d' x=0 y=%.2f", b->dest, fmax(0, y - f->st.size));
		cairo_tag_begin(cr, CAIRO_TAG_DEST, name);
		cairo_tag_end(cr, CAIRO_TAG_DEST);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	switch (b->kind) {
	case B_PARA:
		S_show_lines(cr, b, pc->l0, pc->l1, left + bx, y);
		S_text_links(f, cr, b, pc->l0, pc->l1, left + bx, y);
		if (b->mlayout && pc->l0 == 0) {
			double mw = S_width(b->mlayout);

			/* In the indent: left of the text, or right of it when written right to left. */
			cairo_move_to(cr, f->st.rtl ? left + bx + b->w + 0.45 * b->size
			    : left + b->x - 0.45 * b->size - mw,
			    y + b->lines[0].baseline - (double)pango_layout_get_baseline(b->mlayout) / PANGO_SCALE);
			pango_cairo_show_layout(cr, b->mlayout);
		}
		break;
	case B_CODE:
		S_grey(cr, GREY_SHADE);
		cairo_rectangle(cr, left + bx, y, b->w, h);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		S_show_lines(cr, b, pc->l0, pc->l1, left + bx + b->pad, y + b->pad);
		break;
	case B_TABLE:
		S_draw_table(f, cr, b, pc->l0, pc->l1, left + bx, y);
		break;
	case B_IMAGE:
		image_draw(b->image, cr, left + bx, y, b->w, h);
		break;
	case B_BOX:
		cairo_set_line_width(cr, 0.6);
		cairo_rectangle(cr, left + bx, y, b->w, h);
		cairo_stroke(cr);
		break;
	case B_RULE:
		S_grey(cr, GREY_RULE);
		cairo_set_line_width(cr, 0.5);
		cairo_move_to(cr, left + f->measure * 0.4, y + h / 2);
		cairo_line_to(cr, left + f->measure * 0.6, y + h / 2);
		cairo_stroke(cr);
		break;
	case B_CONTENTS: {
		PangoLayout *num = S_layout(f, f->st.font, b->size,
		    b->level == 1 ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL);
		char digits[32];
		double r[4];

		snprintf(digits, sizeof(digits), "%d", flow_page_of(f, b->links[0].dest));
		pango_layout_set_text(num, digits, -1);
		cairo_move_to(cr, left + bx, y);
		pango_cairo_show_layout(cr, b->layout);
		/* The number at the end of the line: the left margin's side when rtl. */
		cairo_move_to(cr, f->st.rtl ? left : left + f->measure - S_width(num),
		    y + b->lines[0].baseline - (double)pango_layout_get_baseline(num) / PANGO_SCALE);
		pango_cairo_show_layout(cr, num);
		g_object_unref(num);
		r[0] = f->st.rtl ? left : left + b->x;
		r[1] = y;
		r[2] = f->measure - b->x;
		r[3] = h;
		S_link(f, cr, &b->links[0], r, 1);
		break;
	}
	default:
		break;
	}
	if (b->quote > 0)
		S_quote_bars(f, cr, b, left, y, h);
}

/* The running head and page number of page i (0-based). */
static void
S_draw_margins(struct flow *f, cairo_t *cr, size_t i)
{
	const struct page *pg = &f->pages[i];
	int verso = (i + 1) % 2 == 0;
	/*
	 * The number at the outer edge: the left on a verso. A book written
	 * right to left opens the other way: its odd pages are left-hand pages.
	 */
	int outer_left = f->st.rtl ? !verso : verso;
	double size = 0.8 * f->st.size, left = f->st.margin_side, right = left + f->measure;
	char num[32];
	PangoLayout *l;

	if (pg->kind == FLOW_PAGE_BARE)
		return;
	snprintf(num, sizeof(num), "%zu", i + 1);
	l = S_layout(f, f->st.font, size, PANGO_WEIGHT_NORMAL, PANGO_STYLE_NORMAL);
	pango_layout_set_text(l, num, -1);
	S_grey(cr, GREY_HEAD);
	if (pg->kind == FLOW_PAGE_OPENING) {
		cairo_move_to(cr, left + (f->measure - S_width(l)) / 2,
		    f->st.page_h - f->st.margin_bottom + 1.6 * f->st.size);
		pango_cairo_show_layout(cr, l);
	} else {
		const char *head = verso ? pg->verso : pg->recto;
		double y = f->st.margin_top - 2.6 * f->st.size, numw = S_width(l);

		cairo_move_to(cr, outer_left ? left : right - numw, y);
		pango_cairo_show_layout(cr, l);
		if (head && *head) {
			PangoLayout *h = S_layout(f, f->st.font, size, PANGO_WEIGHT_NORMAL, PANGO_STYLE_ITALIC);
			/* Beside the number. Pango swaps left and right in a right-to-left text (RLM first). */
			PangoAlignment near = outer_left != f->st.rtl ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT;

			if (f->st.rtl) {
				char *t = xconcat(RLM, head, NULL);

				pango_layout_set_text(h, t, -1);
				free(t);
			} else
				pango_layout_set_text(h, head, -1);
			pango_layout_set_width(h, (int)((f->measure - 3 * numw - 2 * f->st.size) * PANGO_SCALE));
			pango_layout_set_ellipsize(h, PANGO_ELLIPSIZE_END);
			pango_layout_set_alignment(h, near);
			cairo_move_to(cr, outer_left ? left + numw + 1.5 * f->st.size
			    : right - numw - 1.5 * f->st.size - (f->measure - 3 * numw - 2 * f->st.size), y);
			pango_cairo_show_layout(cr, h);
			g_object_unref(h);
		}
	}
	g_object_unref(l);
}

/* The outline: each block with a level, under the last one above it. */
static void
S_outline(struct flow *f, cairo_surface_t *s)
{
	int parent[8] = { CAIRO_PDF_OUTLINE_ROOT };
	size_t i;

	for (i = 0; i < f->npieces; i++) {
		const struct blk *b = &f->v[f->pieces[i].b];
		char link[96];
		int lv;

		if (b->kind != B_PARA || b->outline <= 0 || f->pieces[i].l0 != 0)
			continue;
		lv = b->outline > 7 ? 7 : b->outline;
		snprintf(link, sizeof(link), "page=%d pos=[0 %.2f]", f->pieces[i].page + 1,
		    fmax(0, f->st.margin_top + f->pieces[i].y - f->st.size));
		parent[lv] = cairo_pdf_surface_add_outline(s, parent[lv - 1], b->outline_title, link, 0);
		for (int k = lv + 1; k < 8; k++)
			parent[k] = parent[lv];
	}
}

/* The file: written here, so that a write error is seen (Cairo's own output loses them). */
struct sink {
	int fd;
	int err;
};

static cairo_status_t
S_sink_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *k = closure;

	while (k->fd != -1 && k->err == 0 && len > 0) {
		ssize_t n = write(k->fd, data, len);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			k->err = errno;
			break;
		}
		data += n;
		len -= (unsigned)n;
	}
	return CAIRO_STATUS_SUCCESS;
}

cairo_surface_t *
flow_pdf_surface(cairo_write_func_t write, void *closure, double w, double h,
    const struct flow_meta *meta)
{
	cairo_surface_t *s = cairo_pdf_surface_create_for_stream(write, closure, w, h);

	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, meta->title ? meta->title : "");
	if (meta->author && *meta->author)
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_AUTHOR, meta->author);
	if (meta->subject && *meta->subject)
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_SUBJECT, meta->subject);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "quizdeck");
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, meta->date);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, meta->date);
	return s;
}

static int
S_draw(struct flow *f, const char *path, const struct flow_meta *meta,
    const volatile sig_atomic_t *stop, const char **why)
{
	struct sink k = { -1, 0 };
	cairo_surface_t *s;
	cairo_t *cr;
	size_t p, i = 0;
	int rc = -1;

	if (path && (k.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) == -1) {
		*why = strerror(errno);
		return -1;
	}
	s = flow_pdf_surface(S_sink_write, &k, f->st.page_w, f->st.page_h, meta);
	cr = cairo_create(s);
	S_outline(f, s);
	for (p = 0; p < f->npages; p++) {
		if (stop && *stop) {
			*why = "interrupted";
			goto out;
		}
		for (; i < f->npieces && f->pieces[i].page == (int)p; i++)
			S_draw_piece(f, cr, &f->pieces[i]);
		S_draw_margins(f, cr, p);
		cairo_show_page(cr);
	}
	rc = 0;
out:
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (rc == 0 && cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		*why = cairo_status_to_string(cairo_surface_status(s));
		rc = -1;
	}
	cairo_surface_destroy(s);
	if (rc == 0 && k.err) {
		*why = strerror(k.err);
		rc = -1;
	}
	if (k.fd != -1 && close(k.fd) == -1 && rc == 0) {
		*why = strerror(errno);
		rc = -1;
	}
	return rc;
}

int
flow_write(struct flow *f, const char *path, const struct flow_meta *meta,
    const volatile sig_atomic_t *stop, const char **why)
{
	int *last = xcalloc(f->ndests + 1, sizeof(*last)), pass, rc;
	size_t i;

	for (i = 0; i < f->len; i++)
		S_layout_block(f, &f->v[i]);
	S_paginate(f);
	/* Page numbers in the text change the text: again until they settle. */
	for (pass = 1; pass < MAX_PASSES; pass++) {
		int changed = 0;

		for (i = 0; i < f->ndests; i++) {
			changed |= last[i] != f->dests[i].page;
			last[i] = f->dests[i].page;
		}
		if (!changed)
			break;
		if (stop && *stop) {
			free(last);
			*why = "interrupted";
			return -1;
		}
		for (i = 0; i < f->len; i++)
			if (f->v[i].has_ref)
				S_layout_block(f, &f->v[i]);
		S_paginate(f);
	}
	free(last);
	/* Without a file (check), laid out is all: what drawing adds cannot fail but on writing. */
	rc = path ? S_draw(f, path, meta, stop, why) : 0;
	return rc;
}

int
flow_pages(const struct flow *f)
{
	return (int)f->npages;
}

int
flow_page_of(const struct flow *f, int dest)
{
	return dest >= 0 && (size_t)dest < f->ndests ? f->dests[dest].page : 0;
}

static void
S_dump_line(const struct blk *b, int i, FILE *fp)
{
	const char *t = pango_layout_get_text(b->layout) + b->lines[i].start;
	int n = b->lines[i].len, k;

	fputs("    | ", fp);
	for (k = 0; k < n; k++) {
		if (k + 1 < n && memcmp(t + k, "\xc2\xad", 2) == 0) {
			if (k + 2 == n && i + 1 < b->nlines)
				fputc('-', fp);
			k++;
		} else if (k + 2 < n && memcmp(t + k, "\xe2\x80\x8b", 3) == 0)
			k += 2;
		else if (t[k] != '\n')
			fputc(t[k], fp);
	}
	fputc('\n', fp);
}

void
flow_dump(const struct flow *f, FILE *fp)
{
	static const char *kinds[] = { "bare", "opening", "running" };
	size_t p, i = 0;
	int k;

	for (p = 0; p < f->npages; p++) {
		fprintf(fp, "page %zu %s\n", p + 1, kinds[f->pages[p].kind]);
		for (; i < f->npieces && f->pieces[i].page == (int)p; i++) {
			const struct piece *pc = &f->pieces[i];
			const struct blk *b = &f->v[pc->b];

			fprintf(fp, "  block %zu lines %d-%d\n", pc->b, pc->l0, pc->l1);
			if ((b->kind == B_PARA || b->kind == B_CODE) && b->layout)
				for (k = pc->l0; k < pc->l1; k++)
					S_dump_line(b, k, fp);
		}
	}
}

char *
flow_hyphen_dict(const char *dir, const char *lang)
{
	char ll[16], cc[16], *path;
	size_t i, n;
	char **names = NULL;
	size_t nnames = 0, cap = 0;
	DIR *d;
	struct dirent *de;

	if (!lang || !*lang)
		return NULL;
	for (n = 0; lang[n] && lang[n] != '-' && lang[n] != '_' && n + 1 < sizeof(ll); n++)
		ll[n] = (char)g_ascii_tolower(lang[n]);
	ll[n] = '\0';
	if (n < 2)
		return NULL;
	/* A region after the language ("en-GB"): its dictionary first. */
	cc[0] = '\0';
	if (lang[n] == '-' || lang[n] == '_') {
		for (i = 0; lang[n + 1 + i] && lang[n + 1 + i] != '-' && i + 1 < sizeof(cc); i++)
			cc[i] = (char)g_ascii_toupper(lang[n + 1 + i]);
		cc[i] = '\0';
		path = xasprintf("%s/hyph_%s_%s.dic", dir, ll, cc);
		if (path_is_file(path))
			return path;
		free(path);
	}
	path = xasprintf("%s/hyph_%s.dic", dir, ll);
	if (path_is_file(path))
		return path;
	free(path);
	path = NULL;
	if ((d = opendir(dir)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		char *pre = xasprintf("hyph_%s_", ll);

		if (strncmp(de->d_name, pre, strlen(pre)) == 0 && path_has_suffix(de->d_name, ".dic")) {
			names = xgrow(names, &cap, nnames + 1, sizeof(*names));
			names[nnames++] = xstrdup(de->d_name);
		}
		free(pre);
	}
	closedir(d);
	if (nnames > 0) {
		strv_sort(names, nnames);
		path = path_join(dir, names[0]);
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return path;
}

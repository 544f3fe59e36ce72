/*
 * pdf: printable flashcards, drawn with Cairo and laid out with Pango.
 *
 * impose.c decides where every card goes, cardtext.c sets a back's
 * Markdown; this file draws the sheets. Each side of a card is drawn in
 * its own upright coordinates (points, origin at the card's top-left
 * corner) through a transform onto its slot, so turned and mirrored
 * slots need nothing special here.
 *
 * Both sides share a frame: the deck's title small at the top, the folio
 * ("Dp · 1 / 50") at the bottom. Between them the question is set large
 * and centred, the answer at text size. Either shrinks, half a point at a
 * time, down to min_font_size; a side that still overflows is a warning
 * naming the card's file and line, and on paper it is cut at the edge of
 * its body with an ellipsis in the margin, never silently.
 *
 * Pages are drawn one at a time and each card's layouts are freed with
 * it: what a deck costs beyond its model is a few sheets of layouts.
 */
#include "pdf.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cairo.h>
#include <cairo-pdf.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>

#include "cardtext.h"
#include "flow.h"
#include "image.h"
#include "impose.h"
#include "lang.h"
#include "links.h"
#include "markdown.h"
#include "pool.h"
#include "site.h"
#include "util.h"

#define PT_PER_MM (72.0 / 25.4)
/*
 * Tried after the configured face, before fontconfig's own fallback
 * (which would pick DejaVu for Hebrew and Arabic): the Noto faces of the
 * scripts whose letters a Latin face lacks and that have no regional
 * variants. Han is left to fontconfig, which picks by the site's language.
 */
#define FALLBACK_FAMILIES "Noto Sans Hebrew,Noto Sans Arabic,Noto Sans Symbols2,DejaVu Sans"
#define SHRINK_STEP 0.5          /* pt between tries when shrinking to fit */
/* pt a line may run past its measure before it counts as too wide (rounding, never a glyph). */
#define WIDTH_SLACK 0.5
#define PROGRESS_MIN_CARDS 500   /* decks this long show a progress line */
#define TRACKING 0.03            /* em between capitals of the running head */
/*
 * Cairo hands its output over in pieces of a few bytes (each number of a
 * glyph position is one): they are gathered here, so that a page is a
 * few write(2) calls and not one per piece.
 */
#define WRITE_BUFFER (64 * 1024)
/* Folios kept for the backs: a sheet's worth of cards, for sheets of up to this many. */
#define FOLIO_KEEP 64
/* Decks longer than this have a bookmark per OUTLINE_GROUP cards (S_outline). */
#define OUTLINE_CARDS 1000
#define OUTLINE_GROUP 100

/*
 * Greys, 0 black to 1 white. All type is black, small type too: its
 * rank shows in size, and grey type breaks into dots on a laser.
 */
#define GREY_MARKS 0.45
#define HAIRLINE 0.25            /* pt */
#define FRONT_GAP 0.5            /* em of the question between it and its pictures */

/* Sizes for one card size, in points. */
struct style {
	double w, h;                 /* the card, upright */
	double pad;                  /* from the cut line to any text */
	double meta;                 /* running head and folio */
	double front;                /* the question, before shrinking */
	double back;                 /* the answer, before shrinking */
	double min;                  /* shrinking stops here */
};

struct writer {
	const struct site *site;
	const struct deck *deck;
	const struct doc_tree *tree; /* the deck's, open while it is drawn; NULL without a doc */
	size_t ncards;               /* the deck's cards */
	const struct print_config *pc;
	struct impose im;
	struct style st;
	cairo_surface_t *surface;
	cairo_t *cr;
	PangoContext *pango;
	PangoFontDescription *font;  /* the body face; sizes set per use */
	PangoFontDescription *mono;
	PangoLayout *head;           /* the running head, once made */
	/*
	 * Folios kept from a card's front for its back (S_frame_folio): a
	 * card's two sides carry the same one, and laying a line out costs
	 * as much as shaping a paragraph.
	 */
	PangoLayout *folio[FOLIO_KEEP];
	int folio_number[FOLIO_KEEP];  /* whose folio it is: the card's number */
	struct diag_list *dl;
	const char *file;            /* the deck's source, for warnings */
	int progress;
	int fd, fd_open;             /* the PDF file, written by S_write */
	int write_errno;             /* the first write error ("No space left on device") */
	unsigned char *out;          /* what S_write holds back, WRITE_BUFFER bytes */
	size_t out_len;
};

/* ---- small helpers ------------------------------------------------- */

/* The deck's card k (0-based). */
static const struct card *
S_card(const struct writer *w, size_t k)
{
	return &w->deck->cards[k];
}

static PangoLayout *
S_layout(const struct writer *w, const char *text, int plain)
{
	return cardtext_new_layout(w->pango, text, plain);
}

static double
S_width(PangoLayout *l)
{
	int pw, ph;

	pango_layout_get_size(l, &pw, &ph);
	return (double)pw / PANGO_SCALE;
}

static double
S_height(PangoLayout *l)
{
	int pw, ph;

	pango_layout_get_size(l, &pw, &ph);
	return (double)ph / PANGO_SCALE;
}

/* ---- cards ----------------------------------------------------------- */

/*
 * Moves the origin to the card's top-left corner, upright, and clips to
 * the card so nothing drawn can reach a neighbour.
 */
static void
S_enter_card(struct writer *w, struct impose_rect r)
{
	static const double cs[4][2] = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
	cairo_matrix_t m;
	cairo_t *cr = w->cr;

	cairo_save(cr);
	cairo_translate(cr, (r.x + r.w / 2) * PT_PER_MM, (r.y + r.h / 2) * PT_PER_MM);
	/* Exact quarter turns: cairo_rotate's cosines would leave 1e-17 crumbs in the file. */
	cairo_matrix_init(&m, cs[r.turns][0], cs[r.turns][1], -cs[r.turns][1], cs[r.turns][0], 0, 0);
	cairo_transform(cr, &m);
	cairo_translate(cr, -w->st.w / 2, -w->st.h / 2);
	cairo_rectangle(cr, 0, 0, w->st.w, w->st.h);
	cairo_clip(cr);
}

/* A line of small type centred on the card: the running head (in capitals) or the folio. */
static PangoLayout *
S_meta_layout(struct writer *w, const char *text, int caps)
{
	PangoLayout *l;

	if (caps) {
		struct buf b;
		char *upper = g_utf8_strup(text, -1);

		buf_init(&b);
		/* Capitals want air between them, but not so much that text extraction sees spaces. */
		buf_printf(&b, "<span letter_spacing=\"%d\">", (int)(w->st.meta * TRACKING * PANGO_SCALE));
		cardtext_escape(&b, upper);
		buf_puts(&b, "</span>");
		l = S_layout(w, buf_str(&b), 0);
		buf_free(&b);
		g_free(upper);
	} else
		l = S_layout(w, text, 1);
	cardtext_set_font(l, w->font, w->st.meta, PANGO_WEIGHT_NORMAL);
	pango_layout_set_width(l, (int)((w->st.w - 2 * w->st.pad) * PANGO_SCALE));
	pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
	pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
	return l;
}

static char *
S_folio(const struct writer *w, const struct card *c)
{
	return xasprintf("%s \xc2\xb7 %d / %zu", c->label ? c->label : "", c->number, w->ncards);
}

static void
S_overflow(struct writer *w, const struct card *c)
{
	diag_warning(w->dl, w->file, c->line, c->col,
	    "card \"%s\" does not fit on a %gx%g mm card even at %g pt; "
	    "shorten it or choose a larger card", c->id ? c->id : "", w->pc->card_w,
	    w->pc->card_h, w->st.min);
}

/*
 * What overflows is cut at the body's edge, so it never covers the folio,
 * with an ellipsis in the margin to say so on paper as well as in the
 * warning. The clip lasts until the card's cairo_restore.
 */
static void
S_clip_body(struct writer *w, double top, double room)
{
	PangoLayout *l = S_layout(w, "\xe2\x80\xa6", 1);

	cardtext_set_font(l, w->font, w->st.meta * 1.5, PANGO_WEIGHT_BOLD);
	cairo_set_source_rgb(w->cr, 0, 0, 0);
	cardtext_show(w->cr, l, w->st.w - w->st.pad / 2 - S_width(l) / 2, top + room - S_height(l) * 0.75);
	g_object_unref(l);
	cairo_rectangle(w->cr, 0, top, w->st.w, room);
	cairo_clip(w->cr);
}

/*
 * Card c's folio, laid out; the writer keeps it. Cards follow one another
 * in deck order, so a card's slot holds it from its front to its back
 * unless more than FOLIO_KEEP cards come between (single-sided printing,
 * or sheets of more cards), and then it is laid out again: the same.
 */
static PangoLayout *
S_frame_folio(struct writer *w, const struct card *c)
{
	size_t k = (size_t)(c->number - 1) % FOLIO_KEEP;
	char *folio;

	if (w->folio_number[k] == c->number)
		return w->folio[k];
	if (w->folio[k])
		g_object_unref(w->folio[k]);
	folio = S_folio(w, c);
	w->folio[k] = S_meta_layout(w, folio, 0);
	w->folio_number[k] = c->number;
	free(folio);
	return w->folio[k];
}

/* The running head, the same on every side of every card: laid out once per deck. */
static PangoLayout *
S_head(struct writer *w)
{
	if (!w->head)
		w->head = S_meta_layout(w, w->deck->title ? w->deck->title : "", 1);
	return w->head;
}

/*
 * The body's top and bottom (pt) between the head and a folio, and where
 * the folio goes. One computation for the writer and the threads that
 * fit ahead of it, so both find the same room to the last bit.
 */
static void
S_body(const struct writer *w, PangoLayout *head, PangoLayout *folio, double *top,
    double *bottom, double *foot)
{
	double gap = w->st.meta * 1.1;

	*top = w->st.pad;
	*top += S_height(head) + gap;
	*foot = w->st.h - w->st.pad;
	*foot -= S_height(folio);
	*bottom = *foot - gap;
}

/*
 * Draws the head and card c's folio (given, or laid out here); returns
 * the body's top and bottom between them.
 */
static void
S_frame(struct writer *w, const struct card *c, PangoLayout *folio, double *top, double *bottom)
{
	PangoLayout *head = S_head(w);
	double foot;

	if (folio == NULL)
		folio = S_frame_folio(w, c);
	S_body(w, head, folio, top, bottom, &foot);
	cairo_set_source_rgb(w->cr, 0, 0, 0);
	cardtext_show(w->cr, head, w->st.pad, w->st.pad);
	cardtext_show(w->cr, folio, w->st.pad, foot);
}

/*
 * A run of a laid-out text between two places where a line may break:
 * its width (pt), and its width without the white space it ends in,
 * which hangs past the measure when a line breaks after it.
 */
struct span {
	double w, ink;
	int hard;                  /* a line must break before it */
};

/*
 * The spans of l's text, from its clusters as laid out (caller frees),
 * or -1 when l has something the greedy count below cannot follow.
 */
static ssize_t
S_spans(PangoLayout *l, struct span **out)
{
	const char *text = pango_layout_get_text(l);
	const PangoLogAttr *attrs;
	PangoLayoutIter *it;
	struct span *v = NULL;
	size_t n = 0, cap = 0;
	gint nattrs, ch = 0, idx = 0;

	attrs = pango_layout_get_log_attrs_readonly(l, &nattrs);
	it = pango_layout_get_iter(l);
	do {
		PangoRectangle logical;
		int at = pango_layout_iter_get_index(it);

		if (pango_layout_iter_get_run_readonly(it) == NULL)
			continue;              /* the end of a line */
		/* Clusters come in text order in a left-to-right text: count characters as they go. */
		if (at < idx)
			goto fail;
		ch += (gint)g_utf8_strlen(text + idx, at - idx);
		idx = at;
		if (ch >= nattrs)
			goto fail;
		pango_layout_iter_get_cluster_extents(it, NULL, &logical);
		if (n == 0 || attrs[ch].is_line_break) {
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n].w = v[n].ink = 0;
			v[n].hard = n > 0 && attrs[ch].is_mandatory_break;
			n++;
		}
		v[n - 1].w += (double)logical.width / PANGO_SCALE;
		if (!attrs[ch].is_white)
			v[n - 1].ink = v[n - 1].w;
	} while (pango_layout_iter_next_cluster(it));
	pango_layout_iter_free(it);
	*out = v;
	return (ssize_t)n;
fail:
	pango_layout_iter_free(it);
	free(v);
	return -1;
}

/*
 * How many lines the spans take at `width` pt, broken greedily as Pango
 * breaks them; -1 if a span is wider than the measure (Pango would break
 * inside it).
 */
static int
S_count_lines(const struct span *v, size_t n, double width)
{
	double cur = 0;
	int lines = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i].ink > width)
			return -1;
		if (i > 0 && (v[i].hard || cur + v[i].ink > width)) {
			lines++;
			cur = 0;
		}
		cur += v[i].w;
	}
	return lines;
}

/*
 * Balances a centred display setting so a question does not end in a
 * word alone: when the last line is short, tries a measure near the
 * text's length over its line count, keeping it if the line count holds.
 * Re-laying out costs a shaping pass, so a try is first counted from the
 * clusters already laid out (S_count_lines), and laid out only if the
 * count says the lines hold; the layout has the last word either way.
 * Leaves l set to the measure chosen and returns it (pt).
 */
static double
S_balance(PangoLayout *l, double width)
{
	static const double slack[] = { 1.06, 1.18 };
	int lines = pango_layout_get_line_count(l), moved = 0;
	double total = 0, last = 0;
	struct span *spans = NULL;
	ssize_t nspans;
	GSList *it;
	size_t i;

	if (lines < 2)
		return width;
	for (it = pango_layout_get_lines_readonly(l); it; it = it->next) {
		PangoRectangle ink, logical;

		pango_layout_line_get_extents(it->data, &ink, &logical);
		last = (double)logical.width / PANGO_SCALE;
		total += last;
	}
	if (last > 0.7 * width)
		return width;
	nspans = S_spans(l, &spans);
	for (i = 0; i < sizeof(slack) / sizeof(slack[0]); i++) {
		double try = fmin(width, total / lines * slack[i]);
		int sim = nspans > 0 ? S_count_lines(spans, (size_t)nspans, try) : -2;

		if (sim >= 0 && sim != lines)
			continue;
		pango_layout_set_width(l, (int)(try * PANGO_SCALE));
		moved = 1;
		if (pango_layout_get_line_count(l) == lines) {
			free(spans);
			return try;
		}
	}
	free(spans);
	if (moved)
		pango_layout_set_width(l, (int)(width * PANGO_SCALE));
	return width;
}

/*
 * How a card's sides fit their bodies. Finding it lays each side out at
 * every size tried, and the layouts as found are what is drawn. Any
 * thread may find it (with its own Pango context): the answer is the same.
 */
struct fit {
	double front_size, front_h;  /* pt; h as measured at the full width, pictures and all */
	double front_text_h;         /* pt, the question's text alone (0: it has none) */
	double front_width;          /* the measure the question is set in (S_balance) */
	double back_size, back_h;
	int front_over, back_over;   /* too long even at min_font_size */
};

/* A side laid out ahead of the writer (S_lay_out_page), for it to draw. */
struct prep {
	PangoLayout *folio;
	PangoLayout *front;          /* the question as found, on a fronts page */
	struct cardtext *pictures;   /* and its pictures */
	struct cardtext *back;       /* the answer as found, on a backs page */
	struct fit fit;
};

/* The card's nodes in the deck's tree, or NULL without one. */
static const struct card_nodes *
S_card_nodes(const struct writer *w, const struct card *c)
{
	return w->tree ? doc_tree_card(w->tree, c) : NULL;
}

/*
 * A reversed card's question: its back's paragraphs and headings, a line
 * each (a reversed back is a few lines; a longer one was warned about).
 */
static char *
S_reversed_markup(const struct card_nodes *cn)
{
	struct buf b;
	cmark_node *n;

	buf_init(&b);
	buf_put(&b, "", 0);
	for (n = cn->back.first; n; n = cmark_node_next(n)) {
		cmark_node_type type = cmark_node_get_type(n);
		char *m = type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING
		    ? cardtext_inline_front(n, 0) : NULL;

		if (b.len)
			buf_putc(&b, '\n');
		if (m)
			buf_puts(&b, m);
		else {
			char *t = md_plain_text(n);

			cardtext_escape(&b, t);
			free(t);
		}
		free(m);
		if (n == cn->back.last)
			break;
	}
	buf_putc(&b, '\0');
	return buf_detach(&b);
}

/* The question's markup; caller frees. */
static char *
S_question_markup(const struct writer *w, const struct card *c)
{
	const struct card_nodes *cn = S_card_nodes(w, c);
	struct buf b;

	if (cn && cn->heading && c->kind == CARD_CLOZE)
		return cardtext_inline_front(cn->heading, c->cloze);
	if (cn && c->kind == CARD_REVERSED)
		return S_reversed_markup(cn);
	if (cn && cn->heading)
		return cardtext_inline_front(cn->heading, 0);
	buf_init(&b);
	cardtext_escape(&b, c->front_text ? c->front_text : "");
	buf_putc(&b, '\0');
	return buf_detach(&b);
}

static PangoLayout *
S_question_layout(struct writer *w, const char *markup, double width)
{
	PangoLayout *l = S_layout(w, markup, 0);

	pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
	pango_layout_set_width(l, (int)(width * PANGO_SCALE));
	/* Display type sets tighter than text. */
	pango_layout_set_line_spacing(l, 0.92f);
	return l;
}

static void S_images(const struct writer *w, struct cardtext *text);

/* The pictures of card c's front, from the nodes its question is made of, read. */
static struct cardtext *
S_front_pictures(const struct writer *w, const struct card *c)
{
	const struct card_nodes *cn = S_card_nodes(w, c);
	cmark_node **v = NULL, *n;
	size_t len = 0, cap = 0;
	struct cardtext *pics;

	if (cn && c->kind == CARD_REVERSED) {
		for (n = cn->back.first; n; n = cmark_node_next(n)) {
			cmark_node_type type = cmark_node_get_type(n);

			if (type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING) {
				v = xgrow(v, &cap, len + 1, sizeof(*v));
				v[len++] = n;
			}
			if (n == cn->back.last)
				break;
		}
	} else if (cn && cn->heading) {
		v = xgrow(v, &cap, 1, sizeof(*v));
		v[len++] = cn->heading;
	}
	pics = cardtext_new_pictures(v, len);
	free(v);
	S_images(w, pics);
	return pics;
}

/* Text that shows nothing: white space only (a question that is only a picture). */
static int
S_blank(const char *s)
{
	for (; *s; s = g_utf8_next_char(s))
		if (!g_unichar_isspace(g_utf8_get_char(s)))
			return 0;
	return 1;
}

/*
 * Fits the question, and its pictures under it, into `room` pt: the
 * largest size at which they are no taller than the room and no wider
 * than the measure (a word of inline code does not break; a picture
 * shrinks with the text, as on a back), then a balanced measure. The
 * layout and the pictures, set as found, go to *keep and *keep_pics when
 * asked.
 */
static void
S_fit_front(struct writer *w, const struct card *c, double room, struct fit *fit,
    PangoLayout **keep, struct cardtext **keep_pics)
{
	char *markup = S_question_markup(w, c);
	double width = w->st.w - 2 * w->st.pad, size, h = 0, th = 0;
	PangoLayout *l = S_question_layout(w, markup, width);
	struct cardtext *pics = S_front_pictures(w, c);
	struct cardtext_fonts f = { w->pango, w->font, w->mono, w->st.min };
	int npics = (int)cardtext_image_count(pics);
	int text = npics == 0 || !S_blank(pango_layout_get_text(l)), over = 0;

	for (size = w->st.front; ; size -= SHRINK_STEP) {
		if (size < w->st.min)
			size = w->st.min;
		cardtext_set_font(l, w->font, size, PANGO_WEIGHT_NORMAL);
		h = th = text ? S_height(l) : 0;
		if (npics > 0)
			h += (text ? FRONT_GAP * size : 0) + cardtext_layout(pics, &f, size, width);
		over = h > room || S_width(l) > width + WIDTH_SLACK;
		if (!over || size <= w->st.min)
			break;
	}
	fit->front_size = size;
	fit->front_h = h;
	fit->front_text_h = th;
	fit->front_over = over;
	fit->front_width = over ? width : S_balance(l, width);
	if (keep)
		*keep = l;
	else
		g_object_unref(l);
	if (keep_pics)
		*keep_pics = pics;
	else
		cardtext_free(pics);
	free(markup);
}

/*
 * Reads the pictures of the back's images; one that cannot be read keeps
 * its reason, for S_lost to say. An unsafe URL is not read: it was
 * reported as left out.
 */
static void
S_images(const struct writer *w, struct cardtext *text)
{
	size_t n = cardtext_image_count(text), i;

	for (i = 0; i < n; i++) {
		const char *url = cmark_node_get_url(cardtext_image_node(text, i));
		const char *path, *why = "is not a file of the site (the PDF does not fetch it)";
		struct image *img = NULL;

		if (url == NULL || !links_url_is_safe(url, 1)) {
			cardtext_set_image(text, i, NULL, NULL);
			continue;
		}
		path = w->site && w->deck->doc ? links_asset_path(w->site, w->deck->doc, url) : NULL;
		if (path)
			img = image_load(path, &why);
		cardtext_set_image(text, i, img, why);
	}
}

/*
 * The answer's text: the back; for a cloze card its heading answered,
 * then the back; for a reversed card its heading.
 */
static struct cardtext *
S_back_text(const struct card_nodes *cn, const struct card *c, const struct block_range *none)
{
	struct block_range r;

	if (cn && cn->heading && c->kind == CARD_CLOZE) {
		r.first = cn->heading;
		r.last = cn->back.last ? cn->back.last : cn->heading;
		return cardtext_new_cloze(&r, c->cloze);
	}
	if (cn && cn->heading && c->kind == CARD_REVERSED) {
		r.first = r.last = cn->heading;
		return cardtext_new(&r, NULL);
	}
	return cardtext_new(cn ? &cn->back : none, cn ? cn->heading : NULL);
}

/* Fits the answer into `room` pt. The text, laid out as found, goes to *keep when asked. */
static void
S_fit_back(struct writer *w, const struct card *c, double room, struct fit *fit,
    struct cardtext **keep)
{
	static const struct block_range none = { NULL, NULL };
	const struct card_nodes *cn = S_card_nodes(w, c);
	struct cardtext *text = S_back_text(cn, c, &none);
	struct cardtext_fonts f = { w->pango, w->font, w->mono, w->st.min };
	double width = w->st.w - 2 * w->st.pad, size, h = 0;

	S_images(w, text);
	for (size = w->st.back; ; size -= SHRINK_STEP) {
		if (size < w->st.min)
			size = w->st.min;
		h = cardtext_layout(text, &f, size, width);
		if (h <= room || size <= w->st.min)
			break;
	}
	fit->back_size = size;
	fit->back_h = h;
	fit->back_over = h > room;
	if (keep)
		*keep = text;
	else
		cardtext_free(text);
}

static void S_lost_images(struct writer *w, const struct card *c, const struct cardtext *ct);

/* Draws a question; pr is NULL when this writer fits it itself, else it takes pr's layout. */
static void
S_front(struct writer *w, const struct card *c, struct impose_rect r, struct prep *pr)
{
	double top, bottom, room, width = w->st.w - 2 * w->st.pad, y;
	struct fit fit;
	PangoLayout *l;
	struct cardtext *pics;

	S_enter_card(w, r);
	S_frame(w, c, pr ? pr->folio : NULL, &top, &bottom);
	room = bottom - top;
	if (pr == NULL)
		S_fit_front(w, c, room, &fit, &l, &pics);
	else {
		fit = pr->fit;
		l = pr->front;
		pics = pr->pictures;
		pr->front = NULL;
		pr->pictures = NULL;
	}
	S_lost_images(w, c, pics);
	cairo_set_source_rgb(w->cr, 0, 0, 0);
	if (fit.front_over) {
		S_overflow(w, c);
		S_clip_body(w, top, room);
		y = top;
		cardtext_show(w->cr, l, w->st.pad, y);
	} else {
		/* A touch above the middle, where the eye expects the centre. */
		y = top + (room - fit.front_h) * 0.45;
		cardtext_show(w->cr, l, w->st.pad + (width - fit.front_width) / 2, y);
	}
	if (cardtext_image_count(pics) > 0) {
		y += fit.front_text_h > 0 ? fit.front_text_h + FRONT_GAP * fit.front_size : 0;
		cardtext_draw(pics, w->cr, w->st.pad, y, y);
	}
	g_object_unref(l);
	cardtext_free(pics);
	cairo_restore(w->cr);
}

/*
 * Says where a side of card c, as text ct, has an image it cannot draw
 * (printed as its description; an unsafe one was reported as left out).
 * Called once per side, by the writer.
 */
static void
S_lost_images(struct writer *w, const struct card *c, const struct cardtext *ct)
{
	int body = w->deck->doc && w->deck->doc->src ? w->deck->doc->src->body_line : 1;
	const char *id = c->id ? c->id : "";
	size_t i;

	for (i = 0; i < cardtext_image_count(ct); i++) {
		cmark_node *node = cardtext_image_node(ct, i);
		const char *why = cardtext_image_why(ct, i), *url = cmark_node_get_url(node);

		if (why == NULL || url == NULL || !links_url_is_safe(url, 1))
			continue;
		diag_warning(w->dl, w->file, cmark_node_get_start_line(node) + body - 1,
		    cmark_node_get_start_column(node),
		    "image \"%.60s\" on card \"%s\" %s: the PDF shows %s in its place; "
		    "use a PNG, JPEG or SVG file of the site", url, id, why,
		    cmark_node_first_child(node) ? "its description" :
		    "nothing (it has no description: write one between ![ and ])");
	}
}

/*
 * Says where card c's back, as text ct, has what its PDF cannot print:
 * its images as S_lost_images, and the card's first raw HTML when the
 * web page shows it (unsafe_html; else it is left out of every output,
 * as the theme README says). Called once per card, by the writer.
 */
static void
S_lost(struct writer *w, const struct card *c, const struct cardtext *ct)
{
	cmark_node *const *v;
	size_t n = cardtext_lost(ct, &v);
	cmark_node *html = NULL;
	int body = w->deck->doc && w->deck->doc->src ? w->deck->doc->src->body_line : 1;
	const char *id = c->id ? c->id : "";

	S_lost_images(w, c, ct);
	if (w->site->cfg.markdown.unsafe_html && n > 0)
		html = v[0];
	if (html)
		diag_warning(w->dl, w->file, cmark_node_get_start_line(html) + body - 1,
		    cmark_node_get_start_column(html),
		    "raw HTML on card \"%s\" is left out of the PDF, which prints only what Markdown "
		    "writes: write it in Markdown to print it", id);
}

/* Draws an answer; pr is NULL when this writer fits it itself, else it takes pr's text. */
static void
S_back(struct writer *w, const struct card *c, struct impose_rect r, struct prep *pr)
{
	double top, bottom, room;
	struct cardtext *text;
	struct fit fit;

	S_enter_card(w, r);
	S_frame(w, c, pr ? pr->folio : NULL, &top, &bottom);
	room = bottom - top;
	if (pr == NULL)
		S_fit_back(w, c, room, &fit, &text);
	else {
		fit = pr->fit;
		text = pr->back;
		pr->back = NULL;
	}
	S_lost(w, c, text);
	if (fit.back_over) {
		S_overflow(w, c);
		S_clip_body(w, top, room);
		cardtext_draw(text, w->cr, w->st.pad, top, top);
	} else
		/* Short answers sit a little above the middle, long ones fill the body; footnotes at its foot. */
		cardtext_draw(text, w->cr, w->st.pad, top + (room - fit.back_h) * 0.4, bottom);
	cardtext_free(text);
	cairo_restore(w->cr);
}

/* The room between the running head and card c's folio, as S_frame leaves it; the folio goes to *keep. */
static double
S_room(struct writer *w, const struct card *c, PangoLayout **keep)
{
	char *folio = S_folio(w, c);
	double top, bottom, foot;

	*keep = S_meta_layout(w, folio, 0);
	S_body(w, S_head(w), *keep, &top, &bottom, &foot);
	free(folio);
	return bottom - top;
}

static void
S_marks(struct writer *w, size_t nslots)
{
	size_t max = impose_cut_marks_max(&w->im), n, i;
	struct impose_line *v = xcalloc(max ? max : 1, sizeof(*v));
	struct impose_line fold;
	cairo_t *cr = w->cr;

	n = impose_cut_marks(&w->im, (int)nslots, w->pc->cut_marks, v, max);
	cairo_save(cr);
	cardtext_grey(cr, GREY_MARKS);
	/* A full sheet's lines are the cuts themselves: as fine as prints. */
	cairo_set_line_width(cr, w->im.full ? HAIRLINE : 0.3);
	for (i = 0; i < n && i < max; i++) {
		cairo_move_to(cr, v[i].x0 * PT_PER_MM, v[i].y0 * PT_PER_MM);
		cairo_line_to(cr, v[i].x1 * PT_PER_MM, v[i].y1 * PT_PER_MM);
	}
	cairo_stroke(cr);
	if (impose_fold_line(&w->im, &fold) == 0) {
		static const double dash[] = { 3, 2 };

		cairo_set_dash(cr, dash, 2, 0);
		cairo_set_line_width(cr, 0.4);
		cairo_move_to(cr, fold.x0 * PT_PER_MM, fold.y0 * PT_PER_MM);
		cairo_line_to(cr, fold.x1 * PT_PER_MM, fold.y1 * PT_PER_MM);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
	free(v);
}

/* ---- documents ------------------------------------------------------- */

/* SOURCE_DATE_EPOCH as ISO 8601, else a fixed date: never the clock. */
void
pdf_date(char *out, size_t n)
{
	time_t t = (time_t)source_date_epoch();
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * Cairo's own file output loses write errors (on a full disk it gave a
 * truncated PDF and success), and its error path after a failed write
 * can crash (cairo 1.16 read a NULL buffer in cairo_surface_finish). So
 * the file is written here: the first error is kept for S_close, and
 * cairo is told all is well while the rest is dropped.
 */
static void
S_write_out(struct writer *w, const unsigned char *data, size_t len)
{
	while (w->fd_open && len > 0 && w->write_errno == 0) {
		ssize_t n = write(w->fd, data, len);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			w->write_errno = errno;
			break;
		}
		data += n;
		len -= (size_t)n;
	}
}

/* Writes out what S_write holds back. */
static void
S_flush(struct writer *w)
{
	S_write_out(w, w->out, w->out_len);
	w->out_len = 0;
}

static cairo_status_t
S_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct writer *w = closure;

	if (w->out_len + len > WRITE_BUFFER)
		S_flush(w);
	if (len >= WRITE_BUFFER)
		S_write_out(w, data, len);
	else {
		memcpy(w->out + w->out_len, data, len);
		w->out_len += len;
	}
	return CAIRO_STATUS_SUCCESS;
}

static void S_typeset_open(struct writer *w, PangoFontMap *map);

static int
S_open(struct writer *w, const char *path, const char *title, const char *subject)
{
	char date[32];
	struct flow_meta meta = { title, w->site ? w->site->cfg.author : NULL, subject, date };

	/* No path: every page is drawn and every card fitted, and the bytes dropped (check). */
	if (path != NULL) {
		if ((w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) == -1) {
			diag_error(w->dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
			return -1;
		}
		w->fd_open = 1;
	}
	w->out = xmalloc(WRITE_BUFFER);
	w->out_len = 0;
	pdf_date(date, sizeof(date));
	w->surface = flow_pdf_surface(S_write, w, w->pc->paper_w * PT_PER_MM,
	    w->pc->paper_h * PT_PER_MM, &meta);
	if (cairo_surface_status(w->surface) != CAIRO_STATUS_SUCCESS) {
		diag_error(w->dl, NULL, 0, 0, "cannot write %s: %s", path,
		    cairo_status_to_string(cairo_surface_status(w->surface)));
		return -1;
	}
	w->cr = cairo_create(w->surface);
	S_typeset_open(w, pango_cairo_font_map_get_default());
	return 0;
}

/*
 * The writer's Pango side: one context on `map` for every layout, and the
 * faces. Metrics at 72 dpi (1 unit = 1 pt) and unhinted, so a layout does
 * not depend on where it lands. Glyph positions are not rounded: at 72
 * dpi Pango would round each to a whole point, which moves letters by up
 * to half a point (a twentieth of an em at 9.5 pt) and, on paper, spaces
 * them unevenly. Exact positions also spare cairo a TJ adjustment on
 * nearly every glyph, which makes each page shorter to write.
 */
static void
S_typeset_open(struct writer *w, PangoFontMap *map)
{
	cairo_font_options_t *fo;
	char *family;

	w->pango = pango_font_map_create_context(map);
	pango_cairo_context_set_resolution(w->pango, 72);
	pango_context_set_round_glyph_positions(w->pango, FALSE);
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	pango_cairo_context_set_font_options(w->pango, fo);
	cairo_font_options_destroy(fo);

	if (w->site && w->site->cfg.language && *w->site->cfg.language)
		pango_context_set_language(w->pango, pango_language_from_string(w->site->cfg.language));
	family = xasprintf("%s," FALLBACK_FAMILIES,
	    w->pc->font && *w->pc->font ? w->pc->font : "Noto Sans");
	w->font = pango_font_description_new();
	pango_font_description_set_family(w->font, family);
	free(family);
	w->mono = pango_font_description_new();
	pango_font_description_set_family(w->mono, CARDTEXT_MONO_FAMILY);
}

static void
S_typeset_close(struct writer *w)
{
	size_t k;

	for (k = 0; k < FOLIO_KEEP; k++) {
		if (w->folio[k])
			g_object_unref(w->folio[k]);
		w->folio[k] = NULL;
		w->folio_number[k] = 0;
	}
	if (w->head)
		g_object_unref(w->head);
	if (w->font)
		pango_font_description_free(w->font);
	if (w->mono)
		pango_font_description_free(w->mono);
	if (w->pango)
		g_object_unref(w->pango);
	w->head = NULL;
	w->font = w->mono = NULL;
	w->pango = NULL;
}

/* Finishes the file; returns 0 or -1 with a diagnostic. Frees everything S_open made. */
static int
S_close(struct writer *w, const char *path)
{
	int rc = 0;

	S_typeset_close(w);
	if (w->cr)
		cairo_destroy(w->cr);
	if (w->surface) {
		cairo_surface_finish(w->surface);
		S_flush(w);
		if (w->write_errno) {
			diag_error(w->dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(w->write_errno));
			rc = -1;
		} else if (cairo_surface_status(w->surface) != CAIRO_STATUS_SUCCESS) {
			diag_error(w->dl, NULL, 0, 0, "cannot write %s: %s", path,
			    cairo_status_to_string(cairo_surface_status(w->surface)));
			rc = -1;
		}
		cairo_surface_destroy(w->surface);
	}
	if (w->fd_open && close(w->fd) == -1 && rc == 0) {
		diag_error(w->dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	w->fd_open = 0;
	free(w->out);
	w->out = NULL;
	return rc;
}

static void
S_style(struct style *st, const struct print_config *pc)
{
	double side = fmin(pc->card_w, pc->card_h);   /* mm */

	st->w = pc->card_w * PT_PER_MM;
	st->h = pc->card_h * PT_PER_MM;
	/* Text stays at least 4.5 mm inside the cut, more on larger cards. */
	st->pad = fmax(4.5, fmin(9.0, side * 0.08)) * PT_PER_MM;
	/* Sizes scale with the card (A7 74 mm: 6.5, 14, 9.5 pt) on a half-point grid. */
	st->meta = round(2 * fmax(6.0, fmin(8.0, side * 0.088))) / 2;
	st->front = round(2 * fmax(11.0, fmin(20.0, side * 0.19))) / 2;
	st->back = round(2 * fmax(8.5, fmin(11.0, side * 0.128))) / 2;
	st->min = pc->min_font_size > 0 ? pc->min_font_size : 7;
	st->front = fmax(st->front, st->min);
	st->back = fmax(st->back, st->min);
}

/* The progress line on a terminal; `last` clears it. */
static void
S_progress(struct writer *w, size_t done, size_t total, int last)
{
	if (!w->progress)
		return;
	if (last)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\rquizdeck: print/%s.pdf: page %zu of %zu", w->deck->slug, done, total);
	fflush(stderr);
}

/*
 * The outline: a bookmark per card, "12. Its question", where its front
 * is. A deck of more than OUTLINE_CARDS cards gets one per OUTLINE_GROUP
 * cards instead, "101-200. The first one's question" (an en dash): a
 * pane of ten thousand entries finds nothing, and cairo keeps every
 * entry until the file is done, so print's memory would grow with the
 * deck.
 */
static void
S_outline(struct writer *w, const struct card *c, size_t page, struct impose_rect r)
{
	size_t k = (size_t)c->number - 1;
	const char *q = c->front_text ? c->front_text : "";
	char *name, *dest;

	if (w->ncards <= OUTLINE_CARDS)
		name = xasprintf("%zu. %s", k + 1, q);
	else if (k % OUTLINE_GROUP == 0)
		name = xasprintf("%zu\xe2\x80\x93%zu. %s", k + 1,
		    k + OUTLINE_GROUP < w->ncards ? k + OUTLINE_GROUP : w->ncards, q);
	else
		return;
	dest = xasprintf("page=%zu pos=[%.2f %.2f]", page + 1, r.x * PT_PER_MM, r.y * PT_PER_MM);
	cairo_pdf_surface_add_outline(w->surface, CAIRO_PDF_OUTLINE_ROOT, name, dest, 0);
	free(dest);
	free(name);
}

static void
S_empty_page(struct writer *w)
{
	PangoLayout *l = S_layout(w, lang_get(w->site->lang, "print.no-cards"), 1);

	cardtext_set_font(l, w->font, 11, PANGO_WEIGHT_NORMAL);
	cairo_set_source_rgb(w->cr, 0, 0, 0);
	cardtext_show(w->cr, l, (w->pc->paper_w * PT_PER_MM - S_width(l)) / 2,
	    w->pc->paper_h * PT_PER_MM / 3);
	g_object_unref(l);
	cairo_show_page(w->cr);
}

static void
S_plan_error(const struct print_config *pc, const char *file, struct diag_list *dl)
{
	if (pc->layout == LAYOUT_MARGINS)
		diag_error(dl, file, 0, 0, "a %gx%g mm card does not fit on %gx%g mm paper%s "
		    "with %g mm kept clear at the edges; choose a smaller card or larger paper, "
		    "or layout = \"full\"", pc->card_w, pc->card_h, pc->paper_w, pc->paper_h,
		    pc->duplex == DUPLEX_FOLD ? " folded in half" : "", IMPOSE_MARGIN);
	else
		diag_error(dl, file, 0, 0, "a %gx%g mm card does not fit on %gx%g mm paper%s "
		    "even edge to edge; choose a smaller card or larger paper",
		    pc->card_w, pc->card_h, pc->paper_w, pc->paper_h,
		    pc->duplex == DUPLEX_FOLD ? " folded in half" : "");
}

/* Sheets with more cards than this are drawn by the writer alone: memory stays flat. */
#define PREP_MAX_CARDS 256

/*
 * Preparing pages ahead of the writer, on other threads. The unit of work
 * is one page: every side it shows is laid out as it will be drawn, and
 * the writer only draws what it is handed (drawing and writing the PDF
 * are one thread's work; laying out is most of the rest). Pages are
 * claimed in order, by the helper threads and by the writer too when the
 * page it wants is not ready yet, so no core waits while there is a page
 * to lay out.
 *
 * Pango objects are not shared between threads, so the handing over goes
 * by slot: page p has slot p % nslots, with its own font map, context and
 * layouts, and is claimed only once the writer is done with page p -
 * nslots and has freed what that left. A slot is thus used by one thread
 * at a time, and at most nslots pages are laid out and not yet drawn,
 * however long the deck. Cairo, underneath, shares its font faces across
 * font maps, so the file is the same byte for byte whoever laid a side out.
 */
struct fitting {
	const struct writer *w;      /* the writer: settings only */
	struct writer *typesetters;  /* per slot; set up on its first page */
	PangoFontMap **maps;         /* per slot */
	struct prep *preps;          /* per slot, a sheet's worth */
	size_t *ready;               /* per slot: its page + 1 once laid out; under lock */
	size_t per_sheet;
	size_t nslots;
	size_t npages;
	size_t claimed;              /* pages claimed so far; under lock */
	size_t released;             /* pages the writer is done with; under lock */
	int stopping;                /* under lock: helpers claim no more */
	pthread_mutex_t lock;
	pthread_cond_t cond;         /* a page is laid out, a slot is free, or stopping */
	struct pool_batch *batch;
};

/* Frees what the writer did not take of a slot's sides. */
static void
S_prep_clear(struct fitting *ft, size_t slot)
{
	size_t i;

	for (i = 0; i < ft->per_sheet; i++) {
		struct prep *pr = &ft->preps[slot * ft->per_sheet + i];

		if (pr->folio)
			g_object_unref(pr->folio);
		if (pr->front)
			g_object_unref(pr->front);
		cardtext_free(pr->pictures);
		cardtext_free(pr->back);
		memset(pr, 0, sizeof(*pr));
	}
}

/* Claims the next page when its slot is free; call with the lock held. 1, or 0 for none now. */
static int
S_claim(struct fitting *ft, size_t *p)
{
	if (ft->stopping || ft->claimed >= ft->npages || ft->claimed >= ft->released + ft->nslots)
		return 0;
	*p = ft->claimed++;
	return 1;
}

/* Lays out the sides page p shows, in its slot, and says it is ready; call without the lock. */
static void
S_lay_out_page(struct fitting *ft, size_t p)
{
	const struct writer *w = ft->w;
	size_t slot = p % ft->nslots, i;
	struct writer *t = &ft->typesetters[slot];
	struct impose_page pg;

	if (t->pango == NULL) {
		t->site = w->site;
		t->deck = w->deck;
		t->tree = w->tree;
		t->ncards = w->ncards;
		t->pc = w->pc;
		t->st = w->st;
		S_typeset_open(t, ft->maps[slot]);
	}
	impose_page(&w->im, w->ncards, p, &pg);
	for (i = 0; i < pg.count; i++) {
		const struct card *c = S_card(w, pg.first + i);
		struct prep *pr = &ft->preps[slot * ft->per_sheet + i];
		double room = S_room(t, c, &pr->folio);

		if (pg.side != IMPOSE_BACKS)
			S_fit_front(t, c, room, &pr->fit, &pr->front, &pr->pictures);
		if (pg.side != IMPOSE_FRONTS)
			S_fit_back(t, c, room, &pr->fit, &pr->back);
	}
	pthread_mutex_lock(&ft->lock);
	ft->ready[slot] = p + 1;
	pthread_cond_broadcast(&ft->cond);
	pthread_mutex_unlock(&ft->lock);
}

/* A helper thread: lays pages out until there are none left or the writer stops. */
static void
S_helper(void *arg, size_t job, int worker)
{
	struct fitting *ft = arg;
	size_t p;

	(void)job;
	(void)worker;
	pthread_mutex_lock(&ft->lock);
	while (!ft->stopping && ft->claimed < ft->npages) {
		if (!S_claim(ft, &p)) {
			pthread_cond_wait(&ft->cond, &ft->lock);
			continue;
		}
		pthread_mutex_unlock(&ft->lock);
		S_lay_out_page(ft, p);
		pthread_mutex_lock(&ft->lock);
	}
	pthread_mutex_unlock(&ft->lock);
}

/*
 * Starts preparing w's npages pages on nthreads helper threads; leaves
 * ft->batch NULL (the writer lays out as it draws) when a sheet holds too
 * many cards.
 */
static void
S_fitting_start(struct fitting *ft, const struct writer *w, size_t npages, int nthreads)
{
	size_t i;

	memset(ft, 0, sizeof(*ft));
	if (w->im.per_sheet > PREP_MAX_CARDS)
		return;
	ft->w = w;
	ft->per_sheet = (size_t)w->im.per_sheet;
	ft->npages = npages;
	/* A page being drawn, one being laid out by each thread, the writer included, one ready. */
	ft->nslots = (size_t)nthreads + 3;
	ft->typesetters = xcalloc(ft->nslots, sizeof(*ft->typesetters));
	ft->maps = xcalloc(ft->nslots, sizeof(*ft->maps));
	for (i = 0; i < ft->nslots; i++)
		ft->maps[i] = pango_cairo_font_map_new();
	ft->preps = xcalloc(ft->nslots * ft->per_sheet, sizeof(*ft->preps));
	ft->ready = xcalloc(ft->nslots, sizeof(*ft->ready));
	pthread_mutex_init(&ft->lock, NULL);
	pthread_cond_init(&ft->cond, NULL);
	/* One job per helper: each claims pages until none are left. */
	ft->batch = pool_start(nthreads, (size_t)nthreads, S_helper, ft);
}

/*
 * Page p's sides, laid out; NULL without helpers. While they are not
 * ready, the writer lays out the next unclaimed page itself rather than
 * wait (if no helper thread started, that is every page, in order).
 */
static struct prep *
S_prepared(struct fitting *ft, size_t p)
{
	size_t q;

	if (ft->batch == NULL)
		return NULL;
	pthread_mutex_lock(&ft->lock);
	while (ft->ready[p % ft->nslots] != p + 1) {
		if (S_claim(ft, &q)) {
			pthread_mutex_unlock(&ft->lock);
			S_lay_out_page(ft, q);
			pthread_mutex_lock(&ft->lock);
		} else
			pthread_cond_wait(&ft->cond, &ft->lock);
	}
	pthread_mutex_unlock(&ft->lock);
	return &ft->preps[p % ft->nslots * ft->per_sheet];
}

/* The writer is done with page p: its slot goes to page p + nslots. */
static void
S_release(struct fitting *ft, size_t p)
{
	if (ft->batch == NULL)
		return;
	S_prep_clear(ft, p % ft->nslots);
	pthread_mutex_lock(&ft->lock);
	ft->released = p + 1;
	pthread_cond_broadcast(&ft->cond);
	pthread_mutex_unlock(&ft->lock);
}

static void
S_fitting_finish(struct fitting *ft)
{
	size_t i;

	if (ft->batch == NULL)
		return;
	pthread_mutex_lock(&ft->lock);
	ft->stopping = 1;
	pthread_cond_broadcast(&ft->cond);
	pthread_mutex_unlock(&ft->lock);
	pool_finish(ft->batch);
	for (i = 0; i < ft->nslots; i++) {
		S_prep_clear(ft, i);
		S_typeset_close(&ft->typesetters[i]);
		g_object_unref(ft->maps[i]);
	}
	pthread_mutex_destroy(&ft->lock);
	pthread_cond_destroy(&ft->cond);
	free(ft->typesetters);
	free(ft->maps);
	free(ft->preps);
	free(ft->ready);
	memset(ft, 0, sizeof(*ft));
}

/* Draws page p; its sides laid out ahead if helpers run. */
static void
S_draw_page(struct writer *w, struct fitting *ft, size_t p)
{
	struct impose_page pg;
	struct prep *pr;
	size_t i;

	impose_page(&w->im, w->ncards, p, &pg);
	pr = S_prepared(ft, p);
	if (pg.side != IMPOSE_BACKS) {
		S_marks(w, pg.count);
		for (i = 0; i < pg.count; i++) {
			struct impose_rect r = impose_front(&w->im, (int)i);

			S_front(w, S_card(w, pg.first + i), r, pr ? &pr[i] : NULL);
			S_outline(w, S_card(w, pg.first + i), p, r);
		}
	}
	if (pg.side != IMPOSE_FRONTS)
		for (i = 0; i < pg.count; i++)
			S_back(w, S_card(w, pg.first + i), impose_back(&w->im, (int)i),
			    pr ? &pr[i] : NULL);
	S_release(ft, p);
	cairo_show_page(w->cr);
}

int
pdf_write_deck(const struct site *site, const struct deck *deck,
    const struct print_config *pc, const char *path, int nthreads,
    const volatile sig_atomic_t *stop, struct diag_list *dl)
{
	struct writer w;
	struct fitting ft;
	struct doc_tree *tree = NULL;
	size_t npages = 0, p;
	char *subject;
	int rc;

	memset(&w, 0, sizeof(w));
	memset(&ft, 0, sizeof(ft));
	w.site = site;
	w.deck = deck;
	w.ncards = deck->ncards;
	w.pc = pc;
	w.dl = dl;
	w.file = deck->doc && deck->doc->src ? deck->doc->src->display : NULL;
	if (impose_plan(&w.im, pc) == -1) {
		S_plan_error(pc, site ? site->cfg.path : NULL, dl);
		return -1;
	}
	S_style(&w.st, pc);
	/* Open on this thread; the fitting threads only read it. */
	if (deck->doc)
		tree = doc_tree_open(deck->doc);
	w.tree = tree;
	w.progress = w.ncards >= PROGRESS_MIN_CARDS && isatty(STDERR_FILENO);
	subject = deck->description && *deck->description ? xstrdup(deck->description)
	    : lang_plural(site->lang, "print.subject", (long)w.ncards, NULL);
	rc = S_open(&w, path, deck->title ? deck->title : deck->slug, subject);
	free(subject);
	if (rc == 0) {
		npages = impose_page_count(&w.im, w.ncards);
		if (npages == 0)
			S_empty_page(&w);
		/* This thread draws; the others, if any, lay the pages out ahead of it. */
		if (nthreads > 1 && npages > 1)
			S_fitting_start(&ft, &w, npages, nthreads - 1);
	}
	for (p = 0; rc == 0 && p < npages; p++) {
		/* A signal stops the deck between pages; build_finish reports it. */
		if (stop != NULL && *stop != 0) {
			rc = -1;
			break;
		}
		S_draw_page(&w, &ft, p);
		if ((p + 1) % 50 == 0)
			S_progress(&w, p + 1, npages, 0);
	}
	S_progress(&w, npages, npages, 1);
	S_fitting_finish(&ft);
	if (S_close(&w, path) == -1)
		rc = -1;
	doc_tree_close(tree);
	return rc;
}

/* ---- calibration ----------------------------------------------------- */

/*
 * The calibration sheet: crosses on the front, and on the back, where
 * each cross should show through, two scales set off from its centre
 * (one crossed by the cross's vertical arm, one by its horizontal arm).
 * The readings are the shift to give back pages, in the back page's own
 * coordinates: exactly what back_offset means (impose.h).
 */
#define CAL_ARM 16.0             /* mm, half a cross's arm */
#define CAL_SCALE_AT 8.0         /* mm from a target to its scales */
#define CAL_RANGE 6              /* mm either side of zero */

/* The targets, in mm: the centre of the paper and four points around it. */
static void
S_targets(const struct print_config *pc, double xy[5][2])
{
	static const double fx[5] = { 0.5, 0.25, 0.75, 0.25, 0.75 };
	static const double fy[5] = { 0.5, 0.25, 0.25, 0.75, 0.75 };
	int i;

	for (i = 0; i < 5; i++) {
		xy[i][0] = pc->paper_w * fx[i];
		xy[i][1] = pc->paper_h * fy[i];
	}
}

static void
S_text_at(struct writer *w, const char *markup, double size, double x, double y,
    double width, PangoAlignment align)
{
	PangoLayout *l = S_layout(w, markup, 0);

	cardtext_set_font(l, w->font, size, PANGO_WEIGHT_NORMAL);
	pango_layout_set_width(l, (int)(width * PANGO_SCALE));
	pango_layout_set_alignment(l, align);
	cardtext_show(w->cr, l, x, y);
	g_object_unref(l);
}

static void
S_cal_front(struct writer *w)
{
	cairo_t *cr = w->cr;
	double t[5][2], m = PT_PER_MM, x0, y0;
	char *note;
	int i;

	S_targets(w->pc, t);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 0.3);
	for (i = 0; i < 5; i++) {
		double x = t[i][0] * m, y = t[i][1] * m;

		cairo_move_to(cr, x - CAL_ARM * m, y);
		cairo_line_to(cr, x + CAL_ARM * m, y);
		cairo_move_to(cr, x, y - CAL_ARM * m);
		cairo_line_to(cr, x, y + CAL_ARM * m);
		cairo_stroke(cr);
		cairo_arc(cr, x, y, 2 * m, 0, 2 * M_PI);
		cairo_stroke(cr);
	}
	/* A 100 mm ruler: first make sure nothing scaled the page. */
	x0 = (w->pc->paper_w - 100) / 2 * m;
	y0 = (w->pc->paper_h * 0.5 + 30) * m;
	if (w->pc->paper_w >= 110) {
		cardtext_hline(cr, x0, x0 + 100 * m, y0, 0.4);
		for (i = 0; i <= 100; i++) {
			double len = i % 10 == 0 ? 3 : i % 5 == 0 ? 2 : 1;

			cairo_move_to(cr, x0 + i * m, y0);
			cairo_line_to(cr, x0 + i * m, y0 - len * m);
		}
		cairo_set_line_width(cr, 0.25);
		cairo_stroke(cr);
		S_text_at(w, "This line is 100 mm long. If it is not, print at 100 % "
		    "(turn off \xe2\x80\x9c" "fit to page\xe2\x80\x9d).",
		    7, x0, y0 + 1.5 * m, 100 * m, PANGO_ALIGN_CENTER);
	}
	note = xasprintf("<b>Printer calibration: front</b>\n"
	    "Print this file double-sided, flipping on the %s edge, both pages on one "
	    "sheet, at 100 %%. Then turn the sheet over.",
	    w->pc->duplex == DUPLEX_SHORT_EDGE ? "short" : "long");
	S_text_at(w, note, 9, 15 * m, 12 * m, (w->pc->paper_w - 30) * m, PANGO_ALIGN_LEFT);
	free(note);
}

/* A scale of +-CAL_RANGE mm centred on (x, y) pt: ticks every half mm, numbers at -5, 0, +5. */
static void
S_scale(struct writer *w, double x, double y, int vertical)
{
	cairo_t *cr = w->cr;
	double m = PT_PER_MM;
	int i;

	cairo_set_source_rgb(cr, 0, 0, 0);
	for (i = -2 * CAL_RANGE; i <= 2 * CAL_RANGE; i++) {
		double d = i * 0.5 * m, half = (i == 0 ? 2.6 : i % 2 ? 0.7 : i % 10 ? 1.2 : 2) * m;

		if (vertical) {
			cairo_move_to(cr, x - half, y + d);
			cairo_line_to(cr, x + half, y + d);
		} else {
			cairo_move_to(cr, x + d, y - half);
			cairo_line_to(cr, x + d, y + half);
		}
	}
	cairo_set_line_width(cr, 0.2);
	cairo_stroke(cr);
	for (i = -5; i <= 5; i += 5) {
		/* A true minus sign, as wide as the plus. */
		char *s = xasprintf("%s%d", i < 0 ? "\xe2\x88\x92" : i > 0 ? "+" : "", abs(i));
		PangoLayout *l = S_layout(w, s, 1);
		double lw, lh;

		cardtext_set_font(l, w->font, 6, PANGO_WEIGHT_NORMAL);
		lw = S_width(l);
		lh = S_height(l);
		if (vertical)
			cardtext_show(cr, l, x + 3.2 * m, y + i * m - lh / 2);
		else
			cardtext_show(cr, l, x + i * m - lw / 2, y + 3 * m);
		g_object_unref(l);
		free(s);
	}
}

static void
S_cal_back(struct writer *w)
{
	double t[5][2], m = PT_PER_MM;
	char *note;
	int i;

	S_targets(w->pc, t);
	cairo_save(w->cr);
	cairo_translate(w->cr, w->pc->back_offset_x * m, w->pc->back_offset_y * m);
	for (i = 0; i < 5; i++) {
		/* Behind the front's target, as the sheet turns. */
		double x = t[i][0], y = t[i][1];

		if (w->pc->duplex == DUPLEX_SHORT_EDGE)
			y = w->pc->paper_h - y;
		else
			x = w->pc->paper_w - x;
		S_scale(w, x * m, (y + CAL_SCALE_AT) * m, 0);
		S_scale(w, (x + CAL_SCALE_AT) * m, y * m, 1);
	}
	cairo_restore(w->cr);
	note = xasprintf("<b>Printer calibration: back</b>\n"
	    "Hold the sheet up to a light with this side towards you. Each cross "
	    "from the front crosses two scales: read the lower one where the cross\xe2\x80\x99s "
	    "upright arm meets it (X) and the right one where its level arm meets it (Y); "
	    "right and down count as +, in mm. Put the readings in site.toml, under [print]:\n"
	    "<tt>back_offset = \"X mm, Y mm\"</tt>%s\n"
	    "or pass them to <tt>quizdeck print --back-offset</tt>. Print this sheet again "
	    "to check: each arm should then meet its scale at 0.",
	    w->pc->back_offset_x != 0 || w->pc->back_offset_y != 0 ?
	    "   (add them to the offset this sheet was printed with)" : "");
	S_text_at(w, note, 9, 15 * m, 12 * m, (w->pc->paper_w - 30) * m, PANGO_ALIGN_LEFT);
	free(note);
	if (w->pc->back_offset_x != 0 || w->pc->back_offset_y != 0) {
		note = xasprintf("Printed with back_offset = \"%gmm, %gmm\".",
		    w->pc->back_offset_x, w->pc->back_offset_y);
		S_text_at(w, note, 7, 15 * m, (w->pc->paper_h - 14) * m, (w->pc->paper_w - 30) * m,
		    PANGO_ALIGN_LEFT);
		free(note);
	}
}

int
pdf_write_calibration(const struct print_config *pc, const char *path, struct diag_list *dl)
{
	struct writer w;
	int rc = -1;

	memset(&w, 0, sizeof(w));
	w.pc = pc;
	w.dl = dl;
	if (S_open(&w, path, "Printer calibration",
	    "Measures how far a printer shifts the back of a sheet") == -1)
		goto out;
	S_cal_front(&w);
	cairo_show_page(w.cr);
	S_cal_back(&w);
	cairo_show_page(w.cr);
	rc = 0;
out:
	if (S_close(&w, path) == -1)
		rc = -1;
	return rc;
}

void
pdf_cleanup(void)
{
	/*
	 * Only the font map: cairo_debug_reset_static_data() and FcFini()
	 * assert when a cache entry is still referenced, which happens at
	 * random after a PDF is finished; what they would free is reachable.
	 */
	pango_cairo_font_map_set_default(NULL);
}

/*
 * cardtext: the text of a card, as Pango layouts.
 *
 * A back's Markdown (a range of cmark blocks) is flattened once into a
 * list of blocks (paragraphs, headings, code, rules, tables), each with
 * its indent, list marker and block-quote bars, then the footnotes the
 * card references, smaller, under a short rule. The list can then be laid
 * out at a size, measured, laid out again smaller, and drawn: pdf.c
 * shrinks a back to fit with it. Right-to-left paragraphs are set right
 * to left, with their markers and bars on the right.
 */
#ifndef QUIZDECK_CARDTEXT_H
#define QUIZDECK_CARDTEXT_H

#include <cairo.h>
#include <cmark-gfm.h>
#include <pango/pangocairo.h>

#include "markdown.h"
#include "util.h"

/* The monospace faces, in order: code in markup and the code-block face. */
#define CARDTEXT_MONO_FAMILY "Noto Sans Mono,DejaVu Sans Mono,monospace"

/*
 * The faces card text is set in; every layout sets its own size. min is
 * the smallest size (pt) a code block or table shrinks to, to fit the
 * width, before it wraps.
 */
struct cardtext_fonts {
	PangoContext *pango;
	const PangoFontDescription *text;
	const PangoFontDescription *mono;
	double min;
};

struct cardtext;

/*
 * Flattens a back, and after it the footnotes that the front (its
 * heading, or NULL) and the back reference, numbered as the web page
 * numbers them. Never fails; an empty range gives an empty text. The
 * nodes must outlive the text.
 */
struct cardtext *cardtext_new(const struct block_range *back, cmark_node *front);
/*
 * A cloze card's back: back's first block is the card's heading, set as
 * text with deletion `cloze` marked (bold, underlined), then the rest.
 */
struct cardtext *cardtext_new_cloze(const struct block_range *back, int cloze);
/*
 * A card's front as a text of pictures: the images in the inline
 * content of containers v[0..n) (its heading, or a reversed card's
 * paragraphs), in order, each a block of its own, centred; the caller
 * sets them under the question's markup (cardtext_inline_front), laid
 * out, given pictures and drawn as a back's (a description centred).
 */
struct cardtext *cardtext_new_pictures(cmark_node *const *v, size_t n);
/*
 * What the card has that a card cannot print, in the front, back and
 * footnotes, for the caller to say: raw HTML (inline and block). Sets
 * *v to the nodes, in document order within each part; returns how many.
 */
size_t cardtext_lost(const struct cardtext *ct, cmark_node *const **v);
/*
 * The images of the text, in reading order: in the back and its
 * footnotes each a block of its own after its paragraph's or heading's
 * text, in a table cell under the cell's text. Each is drawn as its
 * picture once given one, scaled to fit (never larger than itself, its
 * column's width at most, and no taller than a bound that shrinks with
 * the text), else set as its description in italics. cardtext_image_node
 * gives the i-th's node (i below cardtext_image_count);
 * cardtext_set_image gives it a picture (the text frees it) or, with
 * NULL, why there is none; cardtext_image_why says why, or NULL when it
 * has a picture.
 */
struct image;
size_t cardtext_image_count(const struct cardtext *ct);
cmark_node *cardtext_image_node(const struct cardtext *ct, size_t i);
void cardtext_set_image(struct cardtext *ct, size_t i, struct image *img, const char *why);
const char *cardtext_image_why(const struct cardtext *ct, size_t i);

/*
 * Lays the text out at `size` points in a column `width` points wide
 * and returns its height in points, or HUGE_VAL when it is too wide at
 * this size (a table whose columns cannot narrow enough, a word of
 * inline code longer than the line). Code never breaks inside a word
 * unmarked: inline code breaks only at its spaces; a code block or a
 * table too wide first shrinks (down to f->min), then a code block's
 * lines wrap, at a space where one fits, each continuation marked with
 * CARDTEXT_CONTINUED. May be called again at another size; the layouts
 * are kept until cardtext_free.
 */
#define CARDTEXT_CONTINUED "\xe2\x86\xaa"   /* U+21AA, a hooked arrow */
double cardtext_layout(struct cardtext *ct, const struct cardtext_fonts *f,
    double size, double width);
/*
 * Draws the text as last laid out, its top-left corner at (x, top), its
 * footnotes moved down to end at bottom, as a book sets them (bottom at
 * or above top plus the laid-out height: they follow the text).
 */
void cardtext_draw(const struct cardtext *ct, cairo_t *cr, double x, double top, double bottom);
void cardtext_free(struct cardtext *ct);

/*
 * The inline content of a heading, paragraph or table cell as Pango
 * markup: emphasis and code keep their look, links become their text,
 * images their description, raw HTML is left out. Caller frees.
 */
char *cardtext_inline(cmark_node *container);
/* The same, with cloze deletion `cloze` as its blank ("[hint]" or "[…]"). */
char *cardtext_inline_cloze(cmark_node *container, int cloze);
/*
 * A front's question: cardtext_inline_cloze (cloze 0: cardtext_inline)
 * without its images, which cardtext_new_pictures draws under it.
 */
char *cardtext_inline_front(cmark_node *container, int cloze);
/*
 * cardtext_inline appended to b, with hook->link called on entering and
 * leaving each link (its text is written between), to add markup of its
 * own there: the book marks where links are and where they lead.
 */
struct cardtext_link_hook {
	void (*link)(void *ctx, cmark_node *link, int enter, struct buf *b);
	void *ctx;
};
void cardtext_inline_put(cmark_node *container, struct buf *b, const struct cardtext_link_hook *hook);
/* Drawing primitives shared by the card text and the sheet: a grey (0 black
 * to 1 white), a layout at (x, y), a horizontal rule. */
void cardtext_grey(cairo_t *cr, double g);
void cardtext_show(cairo_t *cr, PangoLayout *l, double x, double y);
void cardtext_hline(cairo_t *cr, double x0, double x1, double y, double width);

/*
 * A table's column widths colw[0..ncols), natural on entry, fitted to
 * room pt: unchanged when they fit; else the columns no wider than an
 * equal share keep their width and the rest share what is left equally,
 * but, when minw is given, none narrower than minw[c], its widest piece
 * that may not break (then the columns are wider than room). The cards'
 * tables and the book's (flow.c) are fitted by it.
 */
void cardtext_table_columns(double *colw, const double *minw, int ncols, double room);

/* Appends s escaped for Pango markup, without the control characters markup rejects. */
void cardtext_escape(struct buf *b, const char *s);
/* A layout that wraps at words (inside a word only when it must); text is markup unless plain. */
PangoLayout *cardtext_new_layout(PangoContext *pango, const char *text, int plain);
void cardtext_set_font(PangoLayout *l, const PangoFontDescription *face, double size,
    PangoWeight weight);

#endif

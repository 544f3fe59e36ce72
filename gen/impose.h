/*
 * impose: where each card goes on a sheet of paper. Pure geometry in
 * millimetres from the page's top-left corner; nothing here draws.
 *
 * The rules, so a user can predict a sheet:
 *
 *  - Two layouts. margins: nothing is placed within IMPOSE_MARGIN of
 *    the paper's edge, for printers that cannot print there, and cards
 *    stand apart with gutters of IMPOSE_GUTTER_MIN to IMPOSE_GUTTER_MAX
 *    (as wide as the room allows). full: cards tile the paper edge to
 *    edge with no gutter and no fold gap, neighbours sharing one cut
 *    line; a card's text stays its padding inside it (pdf.c), so what a
 *    printer cannot print near the paper's edge is blank card. auto is
 *    full where that holds strictly more cards, else margins.
 *  - As many cards as fit, in a grid centred on the sheet. Cards are
 *    turned a quarter (their top towards the sheet's right) only when
 *    strictly more of them fit that way.
 *  - Slots are numbered in rows from the top-left of the fronts.
 *  - Backs: long-edge duplex mirrors the columns, short-edge the rows,
 *    so each back lands behind its front. fold puts fronts and backs on
 *    one page either side of a fold line, mirrored about it. single
 *    prints every front page, then every back page laid out as for
 *    long-edge.
 *  - Whatever the mode, a back reads upright when its card is turned
 *    over like the page of a book (about the card's own vertical axis);
 *    where the sheet turns about the other axis, the back is drawn
 *    upside down (turns + 2).
 *  - The back offset moves whole back pages (duplex and single), in the
 *    back page's own coordinates: x to the right, y down.
 */
#ifndef QUIZDECK_IMPOSE_H
#define QUIZDECK_IMPOSE_H

#include <stddef.h>

#include "config.h"

#define IMPOSE_MARGIN 5.0        /* mm kept clear at the paper's edge */
#define IMPOSE_GUTTER_MIN 3.0    /* mm between neighbouring cards */
#define IMPOSE_GUTTER_MAX 8.0
#define IMPOSE_FOLD_GAP 4.0      /* mm from the fold line to the nearest card */
#define IMPOSE_TICK_OFFSET 1.0   /* corner ticks start this far from the card */
#define IMPOSE_TICK_LENGTH 4.0   /* and are at most this long */

/* A card's place on a page: its footprint and how its content is turned. */
struct impose_rect {
	double x, y, w, h;           /* mm; w and h as placed on the sheet */
	int turns;                   /* quarter turns clockwise, 0..3 */
};

struct impose_line {
	double x0, y0, x1, y1;       /* mm */
};

enum impose_axis { IMPOSE_VERTICAL, IMPOSE_HORIZONTAL };

/* What one page of the PDF shows. */
enum impose_side { IMPOSE_FRONTS, IMPOSE_BACKS, IMPOSE_BOTH };
struct impose_page {
	size_t sheet;
	enum impose_side side;
	size_t first, count;         /* the cards on it: first .. first + count - 1 */
};

struct impose {
	double page_w, page_h;       /* mm, as given (portrait or not) */
	double card_w, card_h;       /* mm, the card upright */
	enum duplex_mode duplex;
	int full;                    /* the full-sheet layout (else margins) */
	double margin;               /* mm kept clear at the paper's edge */
	double fold_gap;             /* mm from the fold line to the nearest card */
	int rotated;                 /* cards placed a quarter turn */
	int cols, rows;              /* the fronts' grid */
	int per_sheet;
	double gutter;               /* mm between neighbouring cards */
	double grid_x, grid_y;       /* mm, the fronts' grid's top-left corner */
	enum impose_axis fold_axis;  /* fold only: the fold line's direction */
	double fold;                 /* fold only: its x (vertical) or y, mm */
	double back_dx, back_dy;     /* mm, added to back pages */
};

/*
 * Plans the sheets for pc's paper, card, layout, duplex mode and back
 * offset. Returns 0, or -1 if not even one card fits on the paper.
 */
int impose_plan(struct impose *im, const struct print_config *pc);

size_t impose_sheet_count(const struct impose *im, size_t ncards);
size_t impose_page_count(const struct impose *im, size_t ncards);
/* Which cards page p (0-based, below impose_page_count) shows. */
void impose_page(const struct impose *im, size_t ncards, size_t p,
    struct impose_page *pg);
/* Slot 0 .. per_sheet - 1 on the fronts, and the same card's back. */
struct impose_rect impose_front(const struct impose *im, int slot);
struct impose_rect impose_back(const struct impose *im, int slot);

/*
 * The cut marks for a fronts page holding nslots cards (slots 0 ..
 * nslots - 1). margins: corner ticks in the gutters and margins, or
 * full lines along every cut; never inside a card, never within
 * IMPOSE_MARGIN of the paper's edge. full: corners and lines alike are
 * hairlines along every edge of the cards in use, one per shared edge,
 * never outside the grid. Writes at most cap lines to v and returns how
 * many there are; impose_cut_marks_max() is always enough.
 */
size_t impose_cut_marks(const struct impose *im, int nslots, enum cut_marks mode,
    struct impose_line *v, size_t cap);
size_t impose_cut_marks_max(const struct impose *im);

/*
 * The fold line, from margin to margin (full: across the fronts' grid).
 * 0, or -1 when not in fold mode.
 */
int impose_fold_line(const struct impose *im, struct impose_line *l);

#endif

/*
 * impose: the sheet layout. See impose.h for the rules.
 */
#include "impose.h"

#include <math.h>
#include <string.h>

/* Shorter ticks than this are left out: they would read as specks. */
#define TICK_SHORTEST 0.5

/* How many cards of `size` fit in `room` with gutters of `gutter`. */
static int
S_fit(double room, double size, double gutter)
{
	double n;

	if (room < size - 1e-9)
		return 0;
	/* The epsilon lets a grid that fits exactly (10 business cards on A4) count. */
	n = floor((room + gutter) / (size + gutter) + 1e-9);
	return n > 1000 ? 1000 : (int)n;
}

/* The axis about which the sheet turns between a front and its back. */
static enum impose_axis
S_flip_axis(const struct impose *im)
{
	switch (im->duplex) {
	case DUPLEX_SHORT_EDGE:
		return IMPOSE_HORIZONTAL;
	case DUPLEX_FOLD:
		return im->fold_axis;
	case DUPLEX_LONG_EDGE:
	case DUPLEX_SINGLE:
		break;
	}
	return IMPOSE_VERTICAL;
}

/*
 * Lays the fronts out in the area left for them, for one choice of
 * turning and fold axis. Returns the number of cards per sheet.
 */
static int
S_try(struct impose *im, int rotated, enum impose_axis axis)
{
	double fw = rotated ? im->card_h : im->card_w;
	double fh = rotated ? im->card_w : im->card_h;
	double aw = im->page_w - 2 * im->margin;
	double ah = im->page_h - 2 * im->margin;
	double gmin = im->full ? 0 : IMPOSE_GUTTER_MIN;
	double g = im->full ? 0 : IMPOSE_GUTTER_MAX;

	im->rotated = rotated;
	im->fold_axis = axis;
	im->fold = 0;
	if (im->duplex == DUPLEX_FOLD) {
		/* Fronts take the left (or top) half, clear of the fold. */
		if (axis == IMPOSE_VERTICAL) {
			im->fold = im->page_w / 2;
			aw = im->fold - im->fold_gap - im->margin;
		} else {
			im->fold = im->page_h / 2;
			ah = im->fold - im->fold_gap - im->margin;
		}
	}
	im->cols = S_fit(aw, fw, gmin);
	im->rows = S_fit(ah, fh, gmin);
	im->per_sheet = im->cols * im->rows;
	if (im->per_sheet == 0)
		return 0;
	if (im->cols > 1)
		g = fmin(g, (aw - im->cols * fw) / (im->cols - 1));
	if (im->rows > 1)
		g = fmin(g, (ah - im->rows * fh) / (im->rows - 1));
	im->gutter = g;
	im->grid_x = im->margin + (aw - (im->cols * fw + (im->cols - 1) * g)) / 2;
	im->grid_y = im->margin + (ah - (im->rows * fh + (im->rows - 1) * g)) / 2;
	return im->per_sheet;
}

/*
 * Lays the fronts out in one layout, the best of its turnings and fold
 * axes. Returns the number of cards per sheet.
 */
static int
S_best(struct impose *im, int full)
{
	/* In order of preference: a later choice must fit strictly more. */
	static const struct { int rotated; enum impose_axis axis; } choices[] = {
		{ 0, IMPOSE_VERTICAL }, { 0, IMPOSE_HORIZONTAL },
		{ 1, IMPOSE_VERTICAL }, { 1, IMPOSE_HORIZONTAL },
	};
	size_t i, best = 0;
	int n, most = 0;

	im->full = full;
	im->margin = full ? 0 : IMPOSE_MARGIN;
	im->fold_gap = full ? 0 : IMPOSE_FOLD_GAP;
	for (i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		/* Only fold has an axis to choose. */
		if (im->duplex != DUPLEX_FOLD && choices[i].axis != IMPOSE_VERTICAL)
			continue;
		n = S_try(im, choices[i].rotated, choices[i].axis);
		if (n > most) {
			most = n;
			best = i;
		}
	}
	return S_try(im, choices[best].rotated, choices[best].axis);
}

int
impose_plan(struct impose *im, const struct print_config *pc)
{
	memset(im, 0, sizeof(*im));
	im->page_w = pc->paper_w;
	im->page_h = pc->paper_h;
	im->card_w = pc->card_w;
	im->card_h = pc->card_h;
	im->duplex = pc->duplex;
	if (pc->duplex != DUPLEX_FOLD) {
		im->back_dx = pc->back_offset_x;
		im->back_dy = pc->back_offset_y;
	}
	if (pc->layout == LAYOUT_AUTO) {
		int margins = S_best(im, 0);

		/* Cards apart are easier to cut and print: full only where it gains. */
		if (S_best(im, 1) <= margins)
			S_best(im, 0);
	} else
		S_best(im, pc->layout == LAYOUT_FULL);
	return im->per_sheet > 0 ? 0 : -1;
}

size_t
impose_sheet_count(const struct impose *im, size_t ncards)
{
	size_t per = (size_t)im->per_sheet;

	return per ? (ncards + per - 1) / per : 0;
}

size_t
impose_page_count(const struct impose *im, size_t ncards)
{
	size_t sheets = impose_sheet_count(im, ncards);

	return im->duplex == DUPLEX_FOLD ? sheets : 2 * sheets;
}

void
impose_page(const struct impose *im, size_t ncards, size_t p, struct impose_page *pg)
{
	size_t sheets = impose_sheet_count(im, ncards);
	size_t per = (size_t)im->per_sheet;

	switch (im->duplex) {
	case DUPLEX_FOLD:
		pg->sheet = p;
		pg->side = IMPOSE_BOTH;
		break;
	case DUPLEX_SINGLE:
		pg->sheet = p < sheets ? p : p - sheets;
		pg->side = p < sheets ? IMPOSE_FRONTS : IMPOSE_BACKS;
		break;
	case DUPLEX_LONG_EDGE:
	case DUPLEX_SHORT_EDGE:
		pg->sheet = p / 2;
		pg->side = p % 2 ? IMPOSE_BACKS : IMPOSE_FRONTS;
		break;
	}
	pg->first = pg->sheet * per;
	pg->count = pg->first < ncards ? ncards - pg->first : 0;
	if (pg->count > per)
		pg->count = per;
}

struct impose_rect
impose_front(const struct impose *im, int slot)
{
	struct impose_rect r;
	int col = slot % im->cols, row = slot / im->cols;

	r.w = im->rotated ? im->card_h : im->card_w;
	r.h = im->rotated ? im->card_w : im->card_h;
	r.x = im->grid_x + col * (r.w + im->gutter);
	r.y = im->grid_y + row * (r.h + im->gutter);
	r.turns = im->rotated ? 1 : 0;
	return r;
}

struct impose_rect
impose_back(const struct impose *im, int slot)
{
	struct impose_rect r = impose_front(im, slot);
	enum impose_axis flip = S_flip_axis(im);
	enum impose_axis upright = im->rotated ? IMPOSE_HORIZONTAL : IMPOSE_VERTICAL;

	if (im->duplex == DUPLEX_FOLD) {
		if (flip == IMPOSE_VERTICAL)
			r.x = 2 * im->fold - r.x - r.w;
		else
			r.y = 2 * im->fold - r.y - r.h;
	} else if (flip == IMPOSE_VERTICAL)
		r.x = im->page_w - r.x - r.w;
	else
		r.y = im->page_h - r.y - r.h;
	r.x += im->back_dx;
	r.y += im->back_dy;
	/* Turning the sheet about the card's horizontal axis would show the back upside down. */
	if (flip != upright)
		r.turns = (r.turns + 2) % 4;
	return r;
}

size_t
impose_cut_marks_max(const struct impose *im)
{
	size_t corners = 8 * (size_t)im->per_sheet;
	size_t lines = 2 * (size_t)(im->cols + im->rows) + 2;

	return corners > lines ? corners : lines;
}

/* The printable area the fronts may use for marks: the page, or its half before the fold. */
static void
S_mark_area(const struct impose *im, double *x0, double *y0, double *x1, double *y1)
{
	*x0 = im->margin;
	*y0 = im->margin;
	*x1 = im->page_w - im->margin;
	*y1 = im->page_h - im->margin;
	if (im->duplex != DUPLEX_FOLD)
		return;
	/* Marks stop a millimetre short of the fold so the fold line stays distinct. */
	if (im->fold_axis == IMPOSE_VERTICAL)
		*x1 = im->fold - 1;
	else
		*y1 = im->fold - 1;
}

static void
S_add(struct impose_line *v, size_t cap, size_t *n, double x0, double y0, double x1, double y1)
{
	if (*n < cap) {
		v[*n].x0 = x0;
		v[*n].y0 = y0;
		v[*n].x1 = x1;
		v[*n].y1 = y1;
	}
	(*n)++;
}

/*
 * One tick from corner (cx, cy) outwards along an edge: (dx, dy) is its
 * unit direction; `inner` says a neighbouring slot lies that way, so the
 * tick shares the gutter with the neighbour's.
 */
static void
S_tick(const struct impose *im, struct impose_line *v, size_t cap, size_t *n,
    double cx, double cy, int dx, int dy, int inner)
{
	double x0, y0, x1, y1, room, len;
	double sx = cx + dx * IMPOSE_TICK_OFFSET, sy = cy + dy * IMPOSE_TICK_OFFSET;

	S_mark_area(im, &x0, &y0, &x1, &y1);
	if (inner)
		room = im->gutter / 2 - IMPOSE_TICK_OFFSET;
	else if (dx < 0)
		room = sx - x0;
	else if (dx > 0)
		room = x1 - sx;
	else if (dy < 0)
		room = sy - y0;
	else
		room = y1 - sy;
	len = fmin(room, IMPOSE_TICK_LENGTH);
	if (len < TICK_SHORTEST)
		return;
	S_add(v, cap, n, sx, sy, sx + dx * len, sy + dy * len);
}

/*
 * The full sheet's cut lines: every edge of a card in use, once. Slots
 * fill rows from the top-left, so along each grid line the cards
 * beside it are a run from its start, and the line is drawn that far.
 */
static size_t
S_hairlines(const struct impose *im, int nslots, struct impose_line *v, size_t cap)
{
	struct impose_rect o = impose_front(im, 0);
	int c, r, full_rows = nslots / im->cols, rest = nslots % im->cols;
	size_t n = 0;

	for (c = 0; c <= im->cols; c++) {
		/* The column left of the line, or right of it for the grid's left edge. */
		int col = c > 0 ? c - 1 : 0, rows = full_rows + (col < rest);
		double x = o.x + c * o.w;

		if (rows > 0)
			S_add(v, cap, &n, x, o.y, x, o.y + rows * o.h);
	}
	for (r = 0; r <= im->rows; r++) {
		/* The row above the line, or below it for the grid's top edge. */
		int row = r > 0 ? r - 1 : 0;
		int cols = row < full_rows ? im->cols : row == full_rows ? rest : 0;
		double y = o.y + r * o.h;

		if (cols > 0)
			S_add(v, cap, &n, o.x, y, o.x + cols * o.w, y);
	}
	return n;
}

size_t
impose_cut_marks(const struct impose *im, int nslots, enum cut_marks mode,
    struct impose_line *v, size_t cap)
{
	double x0, y0, x1, y1;
	size_t n = 0;
	int s, c, r, cols_used, rows_used;

	if (nslots > im->per_sheet)
		nslots = im->per_sheet;
	if (mode == CUT_NONE || nslots <= 0)
		return 0;
	if (im->full)
		return S_hairlines(im, nslots, v, cap);
	if (mode == CUT_CORNERS) {
		for (s = 0; s < nslots; s++) {
			struct impose_rect rc = impose_front(im, s);
			int col = s % im->cols, row = s / im->cols;
			double left = rc.x, right = rc.x + rc.w, top = rc.y, bottom = rc.y + rc.h;

			S_tick(im, v, cap, &n, left, top, -1, 0, col > 0);
			S_tick(im, v, cap, &n, left, top, 0, -1, row > 0);
			S_tick(im, v, cap, &n, right, top, 1, 0, col < im->cols - 1);
			S_tick(im, v, cap, &n, right, top, 0, -1, row > 0);
			S_tick(im, v, cap, &n, left, bottom, -1, 0, col > 0);
			S_tick(im, v, cap, &n, left, bottom, 0, 1, row < im->rows - 1);
			S_tick(im, v, cap, &n, right, bottom, 1, 0, col < im->cols - 1);
			S_tick(im, v, cap, &n, right, bottom, 0, 1, row < im->rows - 1);
		}
		return n;
	}
	/* Full lines along every cut of the columns and rows in use. */
	S_mark_area(im, &x0, &y0, &x1, &y1);
	cols_used = nslots < im->cols ? nslots : im->cols;
	rows_used = (nslots + im->cols - 1) / im->cols;
	for (c = 0; c < cols_used; c++) {
		struct impose_rect rc = impose_front(im, c);

		S_add(v, cap, &n, rc.x, y0, rc.x, y1);
		S_add(v, cap, &n, rc.x + rc.w, y0, rc.x + rc.w, y1);
	}
	for (r = 0; r < rows_used; r++) {
		struct impose_rect rc = impose_front(im, r * im->cols);

		S_add(v, cap, &n, x0, rc.y, x1, rc.y);
		S_add(v, cap, &n, x0, rc.y + rc.h, x1, rc.y + rc.h);
	}
	return n;
}

int
impose_fold_line(const struct impose *im, struct impose_line *l)
{
	if (im->duplex != DUPLEX_FOLD)
		return -1;
	if (im->fold_axis == IMPOSE_VERTICAL) {
		l->x0 = l->x1 = im->fold;
		l->y0 = im->full ? im->grid_y : IMPOSE_MARGIN;
		l->y1 = im->full ? im->grid_y + im->rows * impose_front(im, 0).h :
		    im->page_h - IMPOSE_MARGIN;
	} else {
		l->y0 = l->y1 = im->fold;
		l->x0 = im->full ? im->grid_x : IMPOSE_MARGIN;
		l->x1 = im->full ? im->grid_x + im->cols * impose_front(im, 0).w :
		    im->page_w - IMPOSE_MARGIN;
	}
	return 0;
}

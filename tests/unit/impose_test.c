/*
 * impose: the sheet layout for every named paper and card size, in every
 * duplex mode and both layouts. The tables are the spec: how many cards a
 * sheet holds and whether they are turned; the checks after them hold for
 * every entry (inside the margin, centred, no overlaps, backs behind
 * fronts, cut marks clear of the cards).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config.h"
#include "impose.h"

#define EPS 1e-6

struct sheet {
	const char *paper, *card;
	int duplex, duplex_rotated;  /* long-edge, short-edge and single */
	int fold, fold_rotated;
};

/* layout = "margins": 5 mm clear at the edges, 3 to 8 mm gutters. */
static const struct sheet sheets[] = {
	/* paper    card        per sheet, turned; fold: per sheet, turned */
	{ "a4",      "a7",           4, 0,    2, 0 },
	{ "a4",      "a6",           2, 1,    1, 1 },
	{ "a4",      "a8",          10, 1,    5, 1 },
	{ "a4",      "index-3x5",    4, 0,    2, 0 },
	{ "a4",      "index-4x6",    2, 1,    1, 1 },
	{ "a4",      "index-5x8",    1, 0,    0, 0 },
	{ "a4",      "business",    10, 0,    5, 0 },
	{ "a4",      "poker",        9, 0,    4, 1 },
	{ "a4",      "tarot",        4, 0,    2, 0 },
	{ "a3",      "a7",          10, 1,    5, 1 },
	{ "a3",      "a6",           4, 0,    2, 0 },
	{ "a3",      "a8",          25, 0,   10, 0 },
	{ "a3",      "index-3x5",   10, 1,    5, 1 },
	{ "a3",      "index-4x6",    4, 0,    2, 0 },
	{ "a3",      "index-5x8",    4, 0,    2, 0 },
	{ "a3",      "business",    21, 0,   10, 1 },
	{ "a3",      "poker",       18, 1,    9, 1 },
	{ "a3",      "tarot",       10, 1,    5, 1 },
	{ "a5",      "a7",           2, 1,    1, 1 },
	{ "a5",      "a6",           1, 0,    0, 0 },
	{ "a5",      "a8",           4, 0,    2, 0 },
	{ "a5",      "index-3x5",    2, 1,    1, 1 },
	{ "a5",      "index-4x6",    1, 0,    0, 0 },
	{ "a5",      "index-5x8",    0, 0,    0, 0 },
	{ "a5",      "business",     4, 1,    2, 1 },
	{ "a5",      "poker",        4, 0,    2, 0 },
	{ "a5",      "tarot",        2, 1,    1, 1 },
	{ "letter",  "a7",           4, 0,    2, 0 },
	{ "letter",  "a6",           2, 1,    1, 1 },
	{ "letter",  "a8",           9, 0,    4, 1 },
	{ "letter",  "index-3x5",    4, 0,    2, 0 },
	{ "letter",  "index-4x6",    2, 1,    1, 1 },
	{ "letter",  "index-5x8",    2, 1,    1, 1 },
	{ "letter",  "business",     9, 1,    4, 0 },
	{ "letter",  "poker",        8, 1,    4, 1 },
	{ "letter",  "tarot",        4, 0,    2, 0 },
	{ "legal",   "a7",           6, 0,    3, 0 },
	{ "legal",   "a6",           3, 1,    1, 0 },
	{ "legal",   "a8",          12, 0,    6, 0 },
	{ "legal",   "index-3x5",    4, 0,    2, 0 },
	{ "legal",   "index-4x6",    3, 1,    1, 0 },
	{ "legal",   "index-5x8",    2, 1,    1, 1 },
	{ "legal",   "business",    12, 0,    6, 0 },
	{ "legal",   "poker",       10, 1,    5, 1 },
	{ "legal",   "tarot",        4, 0,    2, 0 },
	{ "tabloid", "a7",          10, 1,    5, 1 },
	{ "tabloid", "a6",           4, 0,    2, 0 },
	{ "tabloid", "a8",          21, 1,   10, 0 },
	{ "tabloid", "index-3x5",   10, 1,    5, 1 },
	{ "tabloid", "index-4x6",    4, 0,    2, 0 },
	{ "tabloid", "index-5x8",    4, 0,    2, 0 },
	{ "tabloid", "business",    21, 0,    9, 0 },
	{ "tabloid", "poker",       16, 0,    8, 0 },
	{ "tabloid", "tarot",       10, 1,    5, 1 },
};

/*
 * layout = "full": edge to edge, no gutter, the fold a shared edge. A7 is
 * A4 cut in eight (turned: two across of 105 mm, four down of 74).
 */
static const struct sheet full_sheets[] = {
	/* paper    card        per sheet, turned; fold: per sheet, turned */
	{ "a4",      "a7",           8, 1,    4, 1 },
	{ "a4",      "a6",           4, 0,    2, 0 },
	{ "a4",      "a8",          16, 0,    8, 0 },
	{ "a4",      "index-3x5",    4, 0,    2, 0 },
	{ "a4",      "index-4x6",    2, 0,    1, 0 },
	{ "a4",      "index-5x8",    2, 1,    1, 1 },
	{ "a4",      "business",    10, 0,    5, 0 },
	{ "a4",      "poker",        9, 0,    4, 1 },
	{ "a4",      "tarot",        6, 0,    3, 0 },
	{ "a3",      "a7",          16, 0,    8, 0 },
	{ "a3",      "a6",           8, 1,    4, 1 },
	{ "a3",      "a8",          32, 1,   16, 1 },
	{ "a3",      "index-3x5",   10, 1,    5, 1 },
	{ "a3",      "index-4x6",    4, 0,    2, 0 },
	{ "a3",      "index-5x8",    4, 0,    2, 0 },
	{ "a3",      "business",    21, 0,   10, 1 },
	{ "a3",      "poker",       18, 1,    9, 1 },
	{ "a3",      "tarot",       12, 0,    6, 0 },
	{ "a5",      "a7",           4, 0,    2, 0 },
	{ "a5",      "a6",           2, 1,    1, 1 },
	{ "a5",      "a8",           8, 1,    4, 1 },
	{ "a5",      "index-3x5",    2, 1,    1, 1 },
	{ "a5",      "index-4x6",    1, 0,    0, 0 },
	{ "a5",      "index-5x8",    1, 0,    0, 0 },
	{ "a5",      "business",     4, 1,    2, 1 },
	{ "a5",      "poker",        4, 0,    2, 0 },
	{ "a5",      "tarot",        3, 1,    1, 0 },
	{ "letter",  "a7",           6, 1,    3, 1 },
	{ "letter",  "a6",           2, 0,    1, 0 },
	{ "letter",  "a8",          12, 0,    6, 0 },
	{ "letter",  "index-3x5",    4, 0,    2, 0 },
	{ "letter",  "index-4x6",    2, 0,    1, 0 },
	{ "letter",  "index-5x8",    2, 1,    1, 1 },
	{ "letter",  "business",    10, 0,    5, 0 },
	{ "letter",  "poker",        9, 0,    4, 1 },
	{ "letter",  "tarot",        6, 0,    3, 0 },
	{ "legal",   "a7",           8, 1,    4, 1 },
	{ "legal",   "a6",           4, 0,    2, 0 },
	{ "legal",   "a8",          16, 0,    8, 0 },
	{ "legal",   "index-3x5",    4, 0,    2, 0 },
	{ "legal",   "index-4x6",    4, 0,    2, 0 },
	{ "legal",   "index-5x8",    2, 1,    1, 1 },
	{ "legal",   "business",    12, 0,    6, 0 },
	{ "legal",   "poker",       12, 0,    6, 0 },
	{ "legal",   "tarot",        6, 0,    3, 0 },
	{ "tabloid", "a7",          12, 0,    6, 0 },
	{ "tabloid", "a6",           4, 0,    2, 0 },
	{ "tabloid", "a8",          25, 0,   12, 1 },
	{ "tabloid", "index-3x5",   10, 1,    5, 1 },
	{ "tabloid", "index-4x6",    4, 0,    2, 0 },
	{ "tabloid", "index-5x8",    4, 0,    2, 0 },
	{ "tabloid", "business",    25, 1,   10, 1 },
	{ "tabloid", "poker",       18, 1,    9, 1 },
	{ "tabloid", "tarot",       12, 1,    6, 1 },
};

static const enum duplex_mode modes[] = {
	DUPLEX_LONG_EDGE, DUPLEX_SHORT_EDGE, DUPLEX_FOLD, DUPLEX_SINGLE,
};

static void
S_config_layout(struct print_config *pc, const char *paper, const char *card,
    enum duplex_mode d, enum print_layout layout)
{
	memset(pc, 0, sizeof(*pc));
	if (config_paper_size(paper, &pc->paper_w, &pc->paper_h) == -1 ||
	    config_card_size(card, &pc->card_w, &pc->card_h) == -1) {
		fprintf(stderr, "impose_test: unknown size %s or %s\n", paper, card);
		exit(2);
	}
	pc->duplex = d;
	pc->layout = layout;
}

static void
S_config(struct print_config *pc, const char *paper, const char *card,
    enum duplex_mode d)
{
	S_config_layout(pc, paper, card, d, LAYOUT_MARGINS);
}

static int
S_overlap(const struct impose_rect *a, const struct impose_rect *b, double gap)
{
	return a->x < b->x + b->w + gap - EPS && b->x < a->x + a->w + gap - EPS &&
	    a->y < b->y + b->h + gap - EPS && b->y < a->y + a->h + gap - EPS;
}

/* Inside the layout's margin: 5 mm, or for a full sheet the paper itself. */
static int
S_inside_margin(const struct impose *im, const struct impose_rect *r)
{
	double m = im->full ? 0 : IMPOSE_MARGIN;

	return r->x >= m - EPS && r->y >= m - EPS &&
	    r->x + r->w <= im->page_w - m + EPS &&
	    r->y + r->h <= im->page_h - m + EPS;
}

/* Does a horizontal or vertical segment enter the inside of r? */
static int
S_line_in_rect(const struct impose_line *l, const struct impose_rect *r)
{
	double x0 = fmin(l->x0, l->x1), x1 = fmax(l->x0, l->x1);
	double y0 = fmin(l->y0, l->y1), y1 = fmax(l->y0, l->y1);

	return x1 > r->x + EPS && x0 < r->x + r->w - EPS &&
	    y1 > r->y + EPS && y0 < r->y + r->h - EPS;
}

/*
 * Every rule of impose.h for one plan; returns NULL or what broke, with
 * the slot in *bad.
 */
static const char *
S_geometry(const struct impose *im, int *bad)
{
	enum impose_axis flip;
	double left, right, top, bottom, lo, hi;
	double margin = im->full ? 0 : IMPOSE_MARGIN, gap = im->full ? 0 : IMPOSE_FOLD_GAP;
	double gutter = im->full ? 0 : IMPOSE_GUTTER_MIN;
	int s, t, want_turns;

	/* Centred: on the sheet, or in fold mode within the fronts' half. */
	left = impose_front(im, 0).x;
	top = impose_front(im, 0).y;
	right = impose_front(im, im->per_sheet - 1).x + impose_front(im, 0).w;
	bottom = impose_front(im, im->per_sheet - 1).y + impose_front(im, 0).h;
	*bad = 0;
	if (im->duplex != DUPLEX_FOLD || im->fold_axis == IMPOSE_HORIZONTAL) {
		if (fabs(left - (im->page_w - right)) > EPS)
			return "not centred across";
	} else if (fabs((left - margin) - (im->fold - gap - right)) > EPS)
		return "not centred in its half across";
	if (im->duplex != DUPLEX_FOLD || im->fold_axis == IMPOSE_VERTICAL) {
		if (fabs(top - (im->page_h - bottom)) > EPS)
			return "not centred down";
	} else if (fabs((top - margin) - (im->fold - gap - bottom)) > EPS)
		return "not centred in its half down";
	if (im->full ? fabs(im->gutter) > EPS :
	    im->gutter < IMPOSE_GUTTER_MIN - EPS || im->gutter > IMPOSE_GUTTER_MAX + EPS)
		return "gutter out of range";

	flip = im->duplex == DUPLEX_SHORT_EDGE ? IMPOSE_HORIZONTAL :
	    im->duplex == DUPLEX_FOLD ? im->fold_axis : IMPOSE_VERTICAL;
	for (s = 0; s < im->per_sheet; s++) {
		struct impose_rect f = impose_front(im, s), b = impose_back(im, s);

		*bad = s;
		if (!S_inside_margin(im, &f))
			return "front inside the safe margin";
		if (!S_inside_margin(im, &b))
			return "back inside the safe margin";
		if (f.turns != (im->rotated ? 1 : 0))
			return "front turned wrongly";
		if (fabs(f.w - (im->rotated ? im->card_h : im->card_w)) > EPS)
			return "footprint is not the card's size";
		for (t = 0; t < s; t++) {
			struct impose_rect g = impose_front(im, t);

			if (S_overlap(&f, &g, gutter))
				return "two fronts closer than the gutter";
		}
		/* The back is the front mirrored about the axis the sheet turns on. */
		if (im->duplex == DUPLEX_FOLD && flip == IMPOSE_VERTICAL) {
			if (fabs((f.x + f.w / 2) + (b.x + b.w / 2) - 2 * im->fold) > EPS || fabs(f.y - b.y) > EPS)
				return "back not mirrored about the fold";
			if (f.x + f.w > im->fold - gap + EPS || b.x < im->fold + gap - EPS)
				return "a card too close to the fold";
		} else if (im->duplex == DUPLEX_FOLD) {
			if (fabs((f.y + f.h / 2) + (b.y + b.h / 2) - 2 * im->fold) > EPS || fabs(f.x - b.x) > EPS)
				return "back not mirrored about the fold";
			if (f.y + f.h > im->fold - gap + EPS || b.y < im->fold + gap - EPS)
				return "a card too close to the fold";
		} else if (flip == IMPOSE_VERTICAL) {
			if (fabs((f.x + f.w / 2) + (b.x + b.w / 2) - im->page_w) > EPS || fabs(f.y - b.y) > EPS)
				return "back not behind its front (columns mirrored)";
		} else if (fabs((f.y + f.h / 2) + (b.y + b.h / 2) - im->page_h) > EPS || fabs(f.x - b.x) > EPS)
			return "back not behind its front (rows mirrored)";
		/* Upright when the card turns about its own vertical axis. */
		want_turns = f.turns;
		if ((flip == IMPOSE_VERTICAL) == im->rotated)
			want_turns = (want_turns + 2) % 4;
		if (b.turns != want_turns)
			return "back turned wrongly";
	}

	/* Cut marks, on a full sheet and on a sheet with one card. */
	for (t = 0; t < 2; t++) {
		int n = t == 0 ? im->per_sheet : 1;
		enum cut_marks modes_[] = { CUT_CORNERS, CUT_LINES };
		size_t max = impose_cut_marks_max(im), k, m;
		struct impose_line *v = calloc(max, sizeof(*v));

		for (m = 0; m < 2; m++) {
			size_t nl = impose_cut_marks(im, n, modes_[m], v, max);

			if (nl > max) {
				free(v);
				return "more cut marks than impose_cut_marks_max";
			}
			if (nl == 0 && modes_[m] == CUT_CORNERS) {
				free(v);
				return "no corner marks at all";
			}
			for (k = 0; k < nl; k++) {
				lo = fmin(fmin(v[k].x0, v[k].x1), fmin(v[k].y0, v[k].y1));
				hi = fmax(v[k].x0, v[k].x1);
				if (im->full && (fmin(v[k].x0, v[k].x1) < left - EPS || hi > right + EPS ||
				    fmin(v[k].y0, v[k].y1) < top - EPS || fmax(v[k].y0, v[k].y1) > bottom + EPS)) {
					free(v);
					return "a hairline outside the grid";
				}
				if (lo < IMPOSE_MARGIN - EPS && !im->full) {
					free(v);
					return "a cut mark inside the safe margin";
				}
				if (hi > im->page_w - margin + EPS ||
				    fmax(v[k].y0, v[k].y1) > im->page_h - margin + EPS) {
					free(v);
					return "a cut mark inside the safe margin";
				}
				for (s = 0; s < im->per_sheet; s++) {
					struct impose_rect f = impose_front(im, s);

					if (S_line_in_rect(&v[k], &f)) {
						*bad = s;
						free(v);
						return "a cut mark crosses a card";
					}
				}
			}
		}
		free(v);
	}
	return NULL;
}

static void
S_table(const char *group, const struct sheet *table, size_t nsheets,
    enum print_layout layout)
{
	size_t i, m;

	CHECK_GROUP(group);
	for (i = 0; i < nsheets; i++) {
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			struct print_config pc;
			struct impose im;
			const char *mode = config_duplex_name(modes[m]);
			int fold = modes[m] == DUPLEX_FOLD;
			int want = fold ? table[i].fold : table[i].duplex;
			int want_rot = fold ? table[i].fold_rotated : table[i].duplex_rotated;
			const char *why;
			int rc, bad;

			S_config_layout(&pc, table[i].paper, table[i].card, modes[m], layout);
			rc = impose_plan(&im, &pc);
			if (want == 0) {
				CHECK_INT(rc, -1, "%s on %s, %s: does not fit", table[i].card,
				    table[i].paper, mode);
				continue;
			}
			CHECK(rc == 0 && im.per_sheet == want && im.rotated == want_rot,
			    "%s on %s, %s: %d per sheet%s (got %d%s)", table[i].card,
			    table[i].paper, mode, want, want_rot ? ", turned" : "",
			    im.per_sheet, im.rotated ? ", turned" : "");
			why = S_geometry(&im, &bad);
			CHECK(why == NULL, "%s on %s, %s: geometry%s%s (slot %d)",
			    table[i].card, table[i].paper, mode, why ? ": " : "",
			    why ? why : "", bad);
		}
	}
}

static void
test_table(void)
{
	S_table("impose sheets, margins", sheets, sizeof(sheets) / sizeof(sheets[0]),
	    LAYOUT_MARGINS);
	S_table("impose sheets, full", full_sheets, sizeof(full_sheets) / sizeof(full_sheets[0]),
	    LAYOUT_FULL);
}

/* auto: the full sheet exactly where it holds strictly more, for every entry of both tables. */
static void
test_auto(void)
{
	static const struct { const char *paper, *card; int want; } named[] = {
		{ "a4", "a7", 8 }, { "a4", "a6", 4 }, { "a4", "a8", 16 }, { "letter", "business", 10 },
		/* Ties keep the margins: index cards hold 4 on A4 either way. */
		{ "a4", "index-3x5", 4 },
	};
	size_t i, m;

	CHECK_GROUP("impose auto");
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		struct print_config pc;
		struct impose im;

		S_config_layout(&pc, named[i].paper, named[i].card, DUPLEX_LONG_EDGE, LAYOUT_AUTO);
		impose_plan(&im, &pc);
		CHECK(im.per_sheet == named[i].want, "%s on %s: %d per sheet (got %d)",
		    named[i].card, named[i].paper, named[i].want, im.per_sheet);
	}
	for (i = 0; i < sizeof(sheets) / sizeof(sheets[0]); i++)
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			int fold = modes[m] == DUPLEX_FOLD;
			int margins = fold ? sheets[i].fold : sheets[i].duplex;
			int full = fold ? full_sheets[i].fold : full_sheets[i].duplex;
			struct print_config pc;
			struct impose im;
			int rc;

			S_config_layout(&pc, sheets[i].paper, sheets[i].card, modes[m], LAYOUT_AUTO);
			rc = impose_plan(&im, &pc);
			CHECK(strcmp(sheets[i].card, full_sheets[i].card) == 0 &&
			    (full == 0 ? rc == -1 : rc == 0 && im.full == (full > margins) &&
			    im.per_sheet == (full > margins ? full : margins)),
			    "%s on %s, %s: %s", sheets[i].card, sheets[i].paper,
			    config_duplex_name(modes[m]), full > margins ? "full" : "margins");
		}
}

/* A7 on A4 edge to edge: A4 cut in eight, the numbers a user can check with a ruler. */
static void
test_full_a4_a7(void)
{
	struct print_config pc;
	struct impose im;
	struct impose_rect f, b;
	struct impose_line v[64], l;
	size_t n, k;
	int s, shared;

	CHECK_GROUP("impose full a4/a7");
	S_config_layout(&pc, "a4", "a7", DUPLEX_LONG_EDGE, LAYOUT_FULL);
	impose_plan(&im, &pc);
	CHECK(im.rotated && im.cols == 2 && im.rows == 4, "turned, 2 across and 4 down");
	/* 297 - 4 * 74 = 1 mm left over down the sheet: half of it above, half below. */
	f = impose_front(&im, 0);
	CHECK(fabs(f.x) < EPS && fabs(f.y - 0.5) < EPS, "slot 0 at 0, 0.5 mm");
	f = impose_front(&im, 7);
	CHECK(fabs(f.x - 105) < EPS && fabs(f.y - 222.5) < EPS, "slot 7 at 105, 222.5 mm");
	b = impose_back(&im, 0);
	CHECK(fabs(b.x - 105) < EPS && fabs(b.y - 0.5) < EPS && b.turns == 3,
	    "long-edge: slot 0's back is top right");
	/* Each back within 0.5 mm of where its front lands when the sheet turns over. */
	for (s = 0; s < 8; s++) {
		f = impose_front(&im, s);
		b = impose_back(&im, s);
		if (fabs((pc.paper_w - b.x - b.w) - f.x) > 0.5 || fabs(b.y - f.y) > 0.5)
			break;
	}
	CHECK_INT(s, 8, "long-edge: every back behind its front");
	pc.duplex = DUPLEX_SHORT_EDGE;
	impose_plan(&im, &pc);
	for (s = 0; s < 8; s++) {
		f = impose_front(&im, s);
		b = impose_back(&im, s);
		if (fabs(b.x - f.x) > 0.5 || fabs((pc.paper_h - b.y - b.h) - f.y) > 0.5)
			break;
	}
	CHECK_INT(s, 8, "short-edge: every back behind its front");
	pc.duplex = DUPLEX_LONG_EDGE;
	impose_plan(&im, &pc);
	n = impose_cut_marks(&im, 8, CUT_CORNERS, v, 64);
	/* 3 vertical lines (left, middle, right), 5 horizontal. */
	CHECK_INT(n, 8, "hairlines: 3 down and 5 across, one per shared edge");
	for (k = 0, shared = 0; k < n && k < 64; k++)
		if (fabs(v[k].x0 - 105) < EPS && fabs(v[k].x1 - 105) < EPS &&
		    fabs(v[k].y0 - 0.5) < EPS && fabs(v[k].y1 - 296.5) < EPS)
			shared++;
	CHECK_INT(shared, 1, "the middle cut is one line from the grid's top to its bottom");
	CHECK_INT(impose_cut_marks(&im, 8, CUT_LINES, v, 64), 8, "lines: the same hairlines");
	CHECK_INT(impose_cut_marks(&im, 8, CUT_NONE, v, 64), 0, "none: none");
	/* Three cards: a full first row and one more; the lines stop where the cards do. */
	n = impose_cut_marks(&im, 3, CUT_CORNERS, v, 64);
	CHECK_INT(n, 6, "three cards: 3 down, 3 across");
	CHECK(n == 6 && fabs(v[2].x0 - 210) < EPS && fabs(v[2].y1 - 74.5) < EPS,
	    "the right edge runs only beside the first row");
	CHECK(n == 6 && fabs(v[5].y0 - 148.5) < EPS && fabs(v[5].x1 - 105) < EPS,
	    "the bottom edge runs only under the third card");
	pc.duplex = DUPLEX_FOLD;
	impose_plan(&im, &pc);
	CHECK(im.per_sheet == 4 && im.fold_axis == IMPOSE_VERTICAL && fabs(im.fold - 105) < EPS,
	    "fold: 4 fronts, one column left of an upright fold");
	f = impose_front(&im, 0);
	b = impose_back(&im, 0);
	CHECK(fabs(f.x) < EPS && fabs(f.x + f.w - 105) < EPS && fabs(b.x - 105) < EPS &&
	    fabs(b.y - f.y) < EPS, "fold: the fold is the cards' shared edge, backs mirrored across it");
	CHECK(impose_fold_line(&im, &l) == 0 && fabs(l.y0 - 0.5) < EPS && fabs(l.y1 - 296.5) < EPS,
	    "fold: the fold line spans the grid, not the paper");
}

/* A4 with A7 cards: the numbers a user can check with a ruler. */
static void
test_a4_a7(void)
{
	struct print_config pc;
	struct impose im;
	struct impose_rect f, b;

	CHECK_GROUP("impose a4/a7");
	S_config(&pc, "a4", "a7", DUPLEX_LONG_EDGE);
	impose_plan(&im, &pc);
	CHECK(im.cols == 2 && im.rows == 2, "a 2 x 2 grid");
	CHECK(fabs(im.gutter - 8) < EPS, "8 mm gutters");
	f = impose_front(&im, 0);
	/* (210 - 2 * 74 - 8) / 2 = 27; (297 - 2 * 105 - 8) / 2 = 39.5 */
	CHECK(fabs(f.x - 27) < EPS && fabs(f.y - 39.5) < EPS, "slot 0 at 27, 39.5 mm");
	f = impose_front(&im, 3);
	CHECK(fabs(f.x - 109) < EPS && fabs(f.y - 152.5) < EPS, "slot 3 at 109, 152.5 mm");
	b = impose_back(&im, 0);
	CHECK(fabs(b.x - 109) < EPS && fabs(b.y - 39.5) < EPS && b.turns == 0,
	    "long-edge: slot 0's back is top right, upright");
	pc.duplex = DUPLEX_SHORT_EDGE;
	impose_plan(&im, &pc);
	b = impose_back(&im, 0);
	CHECK(fabs(b.x - 27) < EPS && fabs(b.y - 152.5) < EPS && b.turns == 2,
	    "short-edge: slot 0's back is bottom left, upside down");
	pc.duplex = DUPLEX_LONG_EDGE;
	pc.back_offset_x = 0.5;
	pc.back_offset_y = -0.3;
	impose_plan(&im, &pc);
	b = impose_back(&im, 0);
	f = impose_front(&im, 0);
	CHECK(fabs(b.x - 109.5) < EPS && fabs(b.y - 39.2) < EPS, "the back offset moves backs");
	CHECK(fabs(f.x - 27) < EPS && fabs(f.y - 39.5) < EPS, "and not fronts");
	pc.duplex = DUPLEX_FOLD;
	impose_plan(&im, &pc);
	CHECK(im.fold_axis == IMPOSE_VERTICAL && fabs(im.fold - 105) < EPS,
	    "fold: a vertical fold line down the middle");
	CHECK(fabs(im.back_dx) < EPS && fabs(im.back_dy) < EPS, "fold: no back offset");
	/* The left half less margin and fold gap is 96 mm: 11 mm either side of 74. */
	f = impose_front(&im, 0);
	b = impose_back(&im, 0);
	CHECK(fabs(f.x - 16) < EPS && fabs(b.x - 120) < EPS && b.turns == 0,
	    "fold: front left of the fold, back mirrored right of it");
}

/* A6 on A4 fits twice only turned; the backs turn with them. */
static void
test_turned(void)
{
	struct print_config pc;
	struct impose im;

	CHECK_GROUP("impose turned");
	S_config(&pc, "a4", "a6", DUPLEX_LONG_EDGE);
	impose_plan(&im, &pc);
	CHECK(im.rotated && im.cols == 1 && im.rows == 2, "a6 on a4: two, turned");
	CHECK_INT(impose_front(&im, 0).turns, 1, "fronts a quarter turn clockwise");
	CHECK_INT(impose_back(&im, 0).turns, 3, "long-edge: backs a quarter turn the other way");
	pc.duplex = DUPLEX_SHORT_EDGE;
	impose_plan(&im, &pc);
	CHECK_INT(impose_back(&im, 0).turns, 1, "short-edge: backs turned as the fronts");
}

static void
test_pages(void)
{
	struct print_config pc;
	struct impose im;
	struct impose_page pg;

	CHECK_GROUP("impose pages");
	S_config(&pc, "a4", "a7", DUPLEX_LONG_EDGE);
	impose_plan(&im, &pc);
	CHECK_INT(impose_sheet_count(&im, 0), 0, "no cards, no sheets");
	CHECK_INT(impose_sheet_count(&im, 10), 3, "10 cards on 3 sheets");
	CHECK_INT(impose_page_count(&im, 10), 6, "long-edge: 6 pages");
	impose_page(&im, 10, 5, &pg);
	CHECK(pg.sheet == 2 && pg.side == IMPOSE_BACKS && pg.first == 8 && pg.count == 2,
	    "long-edge: page 6 is the backs of cards 9 and 10");
	impose_page(&im, 10, 2, &pg);
	CHECK(pg.sheet == 1 && pg.side == IMPOSE_FRONTS && pg.first == 4 && pg.count == 4,
	    "long-edge: page 3 is the fronts of cards 5 to 8");
	pc.duplex = DUPLEX_SINGLE;
	impose_plan(&im, &pc);
	CHECK_INT(impose_page_count(&im, 10), 6, "single: 6 pages");
	impose_page(&im, 10, 2, &pg);
	CHECK(pg.sheet == 2 && pg.side == IMPOSE_FRONTS && pg.count == 2,
	    "single: page 3 is the last fronts");
	impose_page(&im, 10, 3, &pg);
	CHECK(pg.sheet == 0 && pg.side == IMPOSE_BACKS && pg.first == 0,
	    "single: page 4 is the first backs");
	pc.duplex = DUPLEX_FOLD;
	impose_plan(&im, &pc);
	CHECK_INT(impose_page_count(&im, 10), 5, "fold: 2 cards a page, 5 pages");
	impose_page(&im, 10, 4, &pg);
	CHECK(pg.side == IMPOSE_BOTH && pg.first == 8 && pg.count == 2, "fold: page 5 holds both sides");
}

static void
test_marks(void)
{
	struct print_config pc;
	struct impose im;
	struct impose_line v[64], l;
	size_t n;

	CHECK_GROUP("impose cut marks");
	S_config(&pc, "a4", "a7", DUPLEX_LONG_EDGE);
	impose_plan(&im, &pc);
	CHECK_INT(impose_cut_marks(&im, 4, CUT_NONE, v, 64), 0, "none: no marks");
	n = impose_cut_marks(&im, 4, CUT_CORNERS, v, 64);
	CHECK_INT(n, 32, "corners: two ticks at each corner of four cards");
	/* Slot 0's top-left corner (27, 39.5): ticks of 4 mm starting 1 mm out. */
	CHECK(fabs(v[0].x0 - 26) < EPS && fabs(v[0].x1 - 22) < EPS && fabs(v[0].y0 - 39.5) < EPS,
	    "corners: the first tick runs left from 26 to 22 mm");
	/* Towards slot 1 the tick stops halfway across the 8 mm gutter. */
	CHECK(fabs(v[2].x0 - 102) < EPS && fabs(v[2].x1 - 105) < EPS,
	    "corners: a gutter tick stops at the gutter's middle");
	n = impose_cut_marks(&im, 4, CUT_LINES, v, 64);
	CHECK_INT(n, 8, "lines: two per column, two per row");
	n = impose_cut_marks(&im, 1, CUT_LINES, v, 64);
	CHECK_INT(n, 4, "lines: one card, four lines");
	CHECK_INT(impose_fold_line(&im, &l), -1, "no fold line in duplex");
	pc.duplex = DUPLEX_FOLD;
	impose_plan(&im, &pc);
	CHECK(impose_fold_line(&im, &l) == 0 && fabs(l.x0 - 105) < EPS && fabs(l.y0 - 5) < EPS &&
	    fabs(l.y1 - 292) < EPS, "fold: a line at x = 105 mm from margin to margin");
}

int
main(void)
{
	test_table();
	test_auto();
	test_full_a4_a7();
	test_a4_a7();
	test_turned();
	test_pages();
	test_marks();
	return check_finish();
}

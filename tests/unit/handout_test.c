/*
 * handout_test: how many questions of each difficulty a drawn handout
 * takes (handout_allot), as the set-up form's allocate in quiz.js does:
 * a pool, a count and a mix beside the counts expected.
 */
#include "check.h"

#include "handout.h"

struct allot_case {
	size_t avail[3], n;
	const char *mix;             /* NULL: steady by default */
	size_t want[3];
	const char *why;
};

static const struct allot_case cases[] = {
	{ { 8, 12, 8 }, 8, "steady", { 2, 4, 2 }, "steady follows the pool; the largest remainder takes the last" },
	{ { 10, 12, 8 }, 10, NULL, { 3, 4, 3 }, "no mix is steady" },
	{ { 8, 12, 8 }, 10, "warming-up", { 6, 3, 1 }, "warming up: 60/30/10" },
	{ { 8, 12, 8 }, 10, "confident", { 1, 3, 6 }, "confident: 10/30/60" },
	{ { 2, 12, 8 }, 10, "warming-up", { 2, 7, 1 }, "a short difficulty's rest goes by the mix's order" },
	{ { 8, 12, 8 }, 5, "confident", { 0, 2, 3 }, "equal remainders: the mix's order breaks the tie" },
	{ { 0, 5, 5 }, 4, "warming-up", { 0, 3, 1 }, "a difficulty the pool lacks takes no share" },
	{ { 1, 1, 1 }, 10, "steady", { 1, 1, 1 }, "no more than the pool has" },
	{ { 0, 0, 0 }, 5, "steady", { 0, 0, 0 }, "an empty pool" },
};

int
main(void)
{
	size_t i, take[3];

	CHECK_GROUP("allot");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct allot_case *c = &cases[i];

		handout_allot(c->avail, c->n, c->mix ? handout_mix_named(c->mix) : NULL, take);
		CHECK(take[0] == c->want[0] && take[1] == c->want[1] && take[2] == c->want[2],
		    "%s: %zu of %zu/%zu/%zu %s takes %zu/%zu/%zu (took %zu/%zu/%zu)", c->why, c->n,
		    c->avail[0], c->avail[1], c->avail[2], c->mix ? c->mix : "(none)", c->want[0], c->want[1],
		    c->want[2], take[0], take[1], take[2]);
	}
	CHECK_GROUP("mixes");
	CHECK(handout_mix_named("warming-up") == &handout_mixes[0], "warming-up is named");
	CHECK(handout_mix_named("Steady") == NULL, "names are exact, as the form's values");
	return check_finish();
}

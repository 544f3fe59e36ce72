/*
 * handout: a practice test on paper, out/print/<test>-handout.pdf. A
 * header with the test's title and lines for a name and a date, the
 * questions drawn as the test page's set-up form draws them (numbered,
 * options lettered, a box to write in for a typed answer), then from a
 * new page the answer key: each answer, its explanation, and the guide
 * sections it links to with their pages in the book (guide.pdf).
 */
#ifndef QUIZDECK_HANDOUT_H
#define QUIZDECK_HANDOUT_H

#include <signal.h>
#include <stddef.h>

#include "book.h"
#include "model.h"

/*
 * The set-up form's difficulty mixes (the theme's quiz.js states the same
 * table; tests/suites/handout.sh checks they agree): the share of easy,
 * medium and hard questions, share[0] < 0 for "as the pool has them", and
 * the order that breaks ties and takes what a short difficulty cannot.
 */
struct handout_mix {
	const char *name;
	double share[3];
	enum difficulty order[3];
};
#define HANDOUT_NMIXES 3
extern const struct handout_mix handout_mixes[HANDOUT_NMIXES];
/* The mix named name, or NULL. */
const struct handout_mix *handout_mix_named(const char *name);

/* Which questions: without count, mix, counts or seed, the whole test in its order. */
struct handout_choice {
	const char *topic;           /* a topic's slug, or NULL: every topic */
	size_t count;                /* questions; 0: as many as there are */
	const struct handout_mix *mix;   /* NULL: steady */
	int has_counts;              /* counts[] exact per difficulty (--mix 3,4,3) */
	size_t counts[3];
	int has_seed;
	unsigned long long seed;
};

/*
 * The questions choice draws from test t, samples left out: per
 * difficulty (easy, medium, hard) in an order shuffled by the seed (1
 * unless given) and as many as the mix allots, or the whole test in its
 * order. Caller frees the array (not the questions); *n its length.
 */
const struct question **handout_draw(const struct test *t, const struct handout_choice *choice,
    size_t *n);

/* How many of each difficulty a draw of n takes from a pool of avail[], under mix (NULL: steady). */
void handout_allot(const size_t avail[3], size_t n, const struct handout_mix *mix, size_t take[3]);

/*
 * Writes test t's handout at path (NULL: laid out only), on the paper
 * of pc; bp (book_layout, or NULL) gives the pages of guide sections.
 * Returns 0, or -1 with a diagnostic (or none when *stop turned
 * non-zero).
 */
int handout_write(const struct site *site, const struct test *t, const struct handout_choice *choice,
    const struct book_pages *bp, const struct print_config *pc, const char *path,
    const volatile sig_atomic_t *stop, struct diag_list *dl);

#endif

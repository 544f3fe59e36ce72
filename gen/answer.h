/*
 * answer: what a typed answer means. A question whose options are all
 * `- [x] = ...` items takes a typed answer (quiz.c); this module reads
 * the text after the `=` of one item as a number answer, and says which
 * languages write a decimal comma. It knows nothing of Markdown.
 *
 * A number answer, as an author writes it (the README and quizdeck(5)
 * say the same):
 *
 *   number [unit] [± tolerance [unit | %]]
 *
 * number: an optional sign (+, - or U+2212), digits with an optional
 * decimal point, or a point and digits (.2), and an optional exponent
 * (2e-1). The whole part may be grouped in threes by a space, a
 * no-break space, a thin space or a narrow no-break space ("10 000",
 * "1 234 567.5"); no other thousands separator. The source takes a
 * decimal point whatever the site's language. unit: one word of no spaces that does
 * not start with a digit ("GB", "ms", "%", "GB/s"). `+/-` and `+-` may
 * stand for `±`. A tolerance without a unit is in the answer's unit; a
 * tolerance in % is relative (5 % of the value), except after an answer
 * in % where it is in percentage points, as a plain one is; a tolerance
 * in any other unit must be the answer's unit.
 */
#ifndef QUIZDECK_ANSWER_H
#define QUIZDECK_ANSWER_H

#include <stddef.h>

struct answer_number {
	double value;
	double min, max;           /* the accepted range, min == max without a tolerance */
	char *unit;                /* "" without one; owned: free */
};

/*
 * Reads s, the text after an item's `=`, as a number answer. Returns 1
 * for a number answer (*out filled), 0 when s is not one (a text
 * answer: "git stash", "3 times a day"), -1 when s is a number answer
 * written wrong (a tolerance that is not a number, of another unit,
 * text after it): why then gets the reason and its fix.
 */
int answer_parse_number(const char *s, struct answer_number *out, char *why, size_t whylen);

/*
 * The length in bytes of the number at the start of s, 0 if there is
 * none; *v gets its value. decimal_comma: a comma is a decimal
 * separator too (a learner's input where the language writes one).
 */
size_t answer_scan_number(const char *s, int decimal_comma, double *v);

/*
 * 1 when s, not a number answer, starts with a number that a space cuts
 * short ("1000 000", "2 3", "10 00"): read as text, it is likely a
 * number written with a space where none is read.
 */
int answer_number_split(const char *s);

/* Whether the language tag's language writes a decimal comma ("de", "pt-BR"; not "de-CH"). */
int answer_decimal_comma(const char *language);

#endif

/*
 * answer_test: typed answers' numbers as an author writes them after `=`
 * (answer_parse_number: the range accepted and the unit, or text, or a
 * mistake), a learner's number (answer_scan_number) and the languages
 * that write a decimal comma.
 */
#include <stdlib.h>

#include "answer.h"
#include "check.h"

struct parse_case {
	const char *text;
	int rc;                    /* 1 number, 0 text, -1 an error */
	const char *range;         /* "min..max unit" as %.15g, for rc 1 */
	const char *why;           /* the start of the reason, for rc -1 */
};

static void
test_parse(void)
{
	static const struct parse_case cases[] = {
		{ "0.2 \xc2\xb1 0.01", 1, "0.19..0.21 ", NULL },
		{ "0.2", 1, "0.2..0.2 ", NULL },
		{ ".2", 1, "0.2..0.2 ", NULL },
		{ "2e-1", 1, "0.2..0.2 ", NULL },
		{ "-3", 1, "-3..-3 ", NULL },
		{ "\xe2\x88\x92" "3", 1, "-3..-3 ", NULL },          /* U+2212 */
		{ "38 % \xc2\xb1 2", 1, "36..40 %", NULL },          /* percentage points */
		{ "38% \xc2\xb1 2 %", 1, "36..40 %", NULL },         /* still points after an answer in % */
		{ "0.2 \xc2\xb1 5 %", 1, "0.19..0.21 ", NULL },      /* relative after a plain number */
		{ "14 GB \xc2\xb1 5 %", 1, "13.3..14.7 GB", NULL },
		{ "14 GB \xc2\xb1 1 GB", 1, "13..15 GB", NULL },
		{ "14GB", 1, "14..14 GB", NULL },
		{ "14 GB/s +/- 1", 1, "13..15 GB/s", NULL },
		{ "100 +- 10", 1, "90..110 ", NULL },
		{ "git stash", 0, NULL, NULL },
		{ "3 times a day", 0, NULL, NULL },
		{ "1.2.3", 0, NULL, NULL },
		{ "10 000", 0, NULL, NULL },
		{ "0.2 \xc2\xb1 a bit", -1, NULL, "the tolerance after \xc2\xb1 is not a number" },
		{ "0.2 \xc2\xb1 -0.1", -1, NULL, "the tolerance after \xc2\xb1 is not a number" },
		{ "0.2 \xc2\xb1", -1, NULL, "the tolerance after \xc2\xb1 is not a number" },
		{ "14 GB \xc2\xb1 500 MB", -1, NULL, "the tolerance is in MB but the answer in GB" },
		{ "14 \xc2\xb1 1 GB", -1, NULL, "the tolerance is in GB but the answer has no unit" },
		{ "14 \xc2\xb1 1 GB extra", -1, NULL, "\"GB extra\" after the tolerance" },
		{ "1e999", -1, NULL, "the number is too large" },
	};
	size_t i;

	CHECK_GROUP("parse");
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct parse_case *c = &cases[i];
		struct answer_number n;
		char why[300] = "", got[120] = "";
		int rc = answer_parse_number(c->text, &n, why, sizeof(why));

		CHECK_INT(rc, c->rc, "= %s reads as %s", c->text, c->rc > 0 ? "a number" : c->rc == 0 ? "text" : "a mistake");
		if (rc == 1 && c->rc == 1) {
			snprintf(got, sizeof(got), "%.15g..%.15g %s", n.min, n.max, n.unit);
			CHECK_STR(got, c->range, "= %s accepts", c->text);
		}
		if (rc == -1 && c->rc == -1)
			CHECK(strncmp(why, c->why, strlen(c->why)) == 0, "= %s: says \"%s\" (%s)", c->text, c->why, why);
		if (rc == 1)
			free(n.unit);
	}
}

static void
test_scan(void)
{
	double v = -1;

	CHECK_GROUP("scan");
	CHECK_INT(answer_scan_number("0,25", 0, &v), 1, "no decimal comma: 0,25 reads 0 and stops at the comma");
	CHECK_INT(answer_scan_number("0,25", 1, &v), 4, "a decimal comma: 0,25 is one number");
	CHECK(v == 0.25, "0,25 is 0.25 (%g)", v);
	CHECK_INT(answer_scan_number("2.", 0, &v), 2, "2. is 2");
	CHECK_INT(answer_scan_number(".", 0, &v), 0, "a point alone is no number");
	CHECK_INT(answer_scan_number("e5", 0, &v), 0, "an exponent alone is no number");
	CHECK_INT(answer_scan_number("1e", 0, &v), 1, "1e: the e without digits is not read");
	CHECK_INT(answer_scan_number("-.5e+2x", 0, &v), 6, "-.5e+2 is read up to the x");
	CHECK(v == -50, "-.5e+2 is -50 (%g)", v);
}

static void
test_comma(void)
{
	CHECK_GROUP("decimal comma");
	CHECK(answer_decimal_comma("de"), "de writes a comma");
	CHECK(answer_decimal_comma("pt-BR"), "pt-BR writes a comma");
	CHECK(answer_decimal_comma("FR_ca"), "fr_CA, any case, writes a comma");
	CHECK(!answer_decimal_comma("de-CH"), "de-CH writes a point");
	CHECK(!answer_decimal_comma("en"), "en writes a point");
	CHECK(!answer_decimal_comma("ja"), "ja writes a point");
	CHECK(!answer_decimal_comma("dex"), "a longer subtag is another language");
	CHECK(!answer_decimal_comma(NULL), "no language: a point");
}

int
main(void)
{
	test_parse();
	test_scan();
	test_comma();
	return check_finish();
}

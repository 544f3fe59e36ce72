/*
 * answer_test: typed answers' numbers as an author writes them after `=`
 * (answer_parse_number: the range accepted and the unit, or text, or a
 * mistake), a learner's number (answer_scan_number), digits grouped by
 * spaces and a text answer that is a number cut by one
 * (answer_number_split), and the languages that write a decimal comma.
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
		{ "10 000", 1, "10000..10000 ", NULL },               /* digits grouped in threes */
		{ "1 234 567.5 GB", 1, "1234567.5..1234567.5 GB", NULL },
		{ "10\xc2\xa0" "000", 1, "10000..10000 ", NULL },      /* U+00A0 NO-BREAK SPACE */
		{ "10\xe2\x80\x89" "000", 1, "10000..10000 ", NULL },  /* U+2009 THIN SPACE */
		{ "\xe2\x88\x92" "10\xe2\x80\xaf" "000 \xc2\xb1 1 500", 1, "-11500..-8500 ", NULL }, /* U+202F */
		{ "1 000 \xc2\xb1 5 %", 1, "950..1050 ", NULL },
		{ "1000 000", 0, NULL, NULL },                        /* a first group of four */
		{ "10 00", 0, NULL, NULL },                           /* a group of two */
		{ "10 0000", 0, NULL, NULL },                         /* a group of four */
		{ "2 3", 0, NULL, NULL },
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
	CHECK_INT(answer_scan_number("12 345,5", 1, &v), 8, "grouped, with a decimal comma");
	CHECK(v == 12345.5, "12 345,5 is 12345.5 (%g)", v);
	CHECK_INT(answer_scan_number("12 3456", 0, &v), 2, "a group of four is not read: 12, then the rest");
	CHECK_INT(answer_scan_number("1 000GB", 0, &v), 5, "a unit straight after a group");
	CHECK(v == 1000, "1 000GB is 1000 (%g)", v);
	CHECK_INT(answer_scan_number("1  000", 0, &v), 1, "two spaces do not group");
	CHECK_INT(answer_scan_number("1\t000", 0, &v), 1, "nor does a tab");
}

/* A text answer that is likely a number written with a space: a warning (quiz.c). */
static void
test_split(void)
{
	static const struct {
		const char *text;
		int split;
	} cases[] = {
		{ "1000 000", 1 }, { "10 00", 1 }, { "2 3", 1 }, { " 12 3456 GB", 1 }, { "5\t5", 1 },
		{ "1 000", 0 },            /* a number answer, not text */
		{ "3 times a day", 0 }, { "git stash", 0 }, { "Route 66", 0 }, { "", 0 },
	};
	size_t i;

	CHECK_GROUP("split");
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		CHECK_INT(answer_number_split(cases[i].text), cases[i].split, "\"%s\" %s", cases[i].text,
		    cases[i].split ? "is a number cut by a space" : "is not");
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
	test_split();
	test_comma();
	return check_finish();
}

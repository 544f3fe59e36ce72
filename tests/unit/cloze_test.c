/*
 * cloze: a card heading as written, beside the deletions found in it,
 * its text as each view shows it, and the mistakes found, with columns.
 */
#include <stdlib.h>
#include <string.h>

#include "cardtext.h"
#include "check.h"
#include "cloze.h"
#include "markdown.h"
#include "util.h"

/* The heading of a one-line document "## <text>", marked; tree in *doc. */
static cmark_node *
S_heading(const char *text, cmark_node **doc, struct cloze_list *l)
{
	char *md = xconcat("## ", text, "\n", NULL);
	cmark_node *h;

	*doc = md_parse(md, strlen(md));
	free(md);
	h = cmark_node_first_child(*doc);
	memset(l, 0, sizeof(*l));
	cloze_mark(h, l);
	return h;
}

/* "n:answer[:hint]" for each deletion, space-separated. */
static char *
S_deletions(const struct cloze_list *l)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_put(&b, "", 0);
	for (i = 0; i < l->len; i++)
		buf_printf(&b, "%s%d:%s%s%s", i ? " " : "", l->v[i].number, l->v[i].answer,
		    l->v[i].hint ? ":" : "", l->v[i].hint ? l->v[i].hint : "");
	return buf_detach(&b);
}

static void
test_deletions(void)
{
	static const struct {
		const char *heading;
		const char *deletions;     /* S_deletions */
		const char *none;          /* CLOZE_SHOW_NONE: ids and labels */
		const char *blank1;        /* CLOZE_SHOW_BLANK, c1 */
		const char *source;        /* CLOZE_SHOW_SOURCE */
	} cases[] = {
		{ "{{c1::Paris}} is the capital of France", "1:Paris",
		  "is the capital of France", "[\xe2\x80\xa6] is the capital of France",
		  "{{c1::Paris}} is the capital of France" },
		{ "{{c1::Paris}} is the capital of {{c2::France::country}}", "1:Paris 2:France:country",
		  "is the capital of", "[\xe2\x80\xa6] is the capital of France",
		  "{{c1::Paris}} is the capital of {{c2::France::country}}" },
		{ "A {{c2::b::hint}} c", "2:b:hint", "A c", "A b c", "A {{c2::b::hint}} c" },
		{ "x {{c1::y::a hint}} z", "1:y:a hint", "x z", "x [a hint] z", "x {{c1::y::a hint}} z" },
		/* Emphasis inside a deletion, and a deletion inside emphasis. */
		{ "{{c1::the *big* one}} and *{{c2::two}}*", "1:the big one 2:two",
		  "and", "[\xe2\x80\xa6] and two", "{{c1::the big one}} and {{c2::two}}" },
		/* A code span is code: its {{c1::...}} is no deletion. */
		{ "Write `{{c1::x}}` for {{c1::a cloze}}", "1:a cloze",
		  "Write {{c1::x}} for", "Write {{c1::x}} for [\xe2\x80\xa6]",
		  "Write {{c1::x}} for {{c1::a cloze}}" },
		/* Underscores split text nodes in cmark: a marker still counts. */
		{ "{{c1::snake_case_name}} style", "1:snake_case_name", "style",
		  "[\xe2\x80\xa6] style", "{{c1::snake_case_name}} style" },
		{ "{{c12::twelve}}", "12:twelve", "", "twelve", "{{c12::twelve}}" },
		{ "No deletions {{here}} or {{c}}", "", "No deletions {{here}} or {{c}}",
		  "No deletions {{here}} or {{c}}", "No deletions {{here}} or {{c}}" },
		{ "{{c1::a}}{{c1::a}}", "1:a 1:a", "", "[\xe2\x80\xa6][\xe2\x80\xa6]",
		  "{{c1::a}}{{c1::a}}" },
		/* A hint is text, whatever cmark made of it: raw HTML as written, code, emphasis. */
		{ "{{c1::Paris::<b>city</b>}} is big", "1:Paris:<b>city</b>", "is big",
		  "[<b>city</b>] is big", "{{c1::Paris::<b>city</b>}} is big" },
		{ "{{c1::x::a <br> b}}, {{c2::y::`k::v` *e*}}", "1:x:a <br> b 2:y:k::v e", ",",
		  "[a <br> b], y", "{{c1::x::a <br> b}}, {{c2::y::k::v e}}" },
		{ "{{c1::*x*::<i>h</i>}} and *{{c2::z::<u>}}*", "1:x:<i>h</i> 2:z:<u>", "and",
		  "[<i>h</i>] and z", "{{c1::x::<i>h</i>}} and {{c2::z::<u>}}" },
		/* The answer's raw HTML stays the answer's (an output decides what it shows). */
		{ "{{c1::a <b>b</b>::h}}", "1:a b:h", "", "[h]", "{{c1::a b::h}}" },
	};
	size_t i;

	CHECK_GROUP("cloze deletions");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cloze_list l;
		cmark_node *doc, *h = S_heading(cases[i].heading, &doc, &l);
		char *got = S_deletions(&l);
		char *none = cloze_text(h, CLOZE_SHOW_NONE, 0);
		char *blank = cloze_text(h, CLOZE_SHOW_BLANK, 1);
		char *source = cloze_text(h, CLOZE_SHOW_SOURCE, 0);

		CHECK_STR(got, cases[i].deletions, "%s: deletions", cases[i].heading);
		CHECK_STR(none, cases[i].none, "%s: without answers", cases[i].heading);
		CHECK_STR(blank, cases[i].blank1, "%s: c1 blank", cases[i].heading);
		CHECK_STR(source, cases[i].source, "%s: as written", cases[i].heading);
		CHECK_INT(l.nissues, 0, "%s: no mistakes", cases[i].heading);
		CHECK_INT(cloze_has(h), l.len > 0, "%s: cloze_has", cases[i].heading);
		free(got);
		free(none);
		free(blank);
		free(source);
		cloze_list_free(&l);
		cmark_node_free(doc);
	}
}

static void
test_mistakes(void)
{
	static const struct {
		const char *heading;
		enum cloze_problem what;
		int col;                   /* of the {{, counting the "## " */
		const char *text;          /* c1 blank after: a mistake stays text */
	} cases[] = {
		{ "{{c1::never closed", CLOZE_UNCLOSED, 4, "{{c1::never closed" },
		{ "a *{{c1::b* c}}", CLOZE_UNCLOSED, 7, "a {{c1::b c}}" },
		{ "{{c0::zero}}", CLOZE_BAD_NUMBER, 4, "zero" },
		{ "{{c::none}}", CLOZE_BAD_NUMBER, 4, "none" },
		{ "x {{c100::too many}}", CLOZE_BAD_NUMBER, 6, "x too many" },
		{ "{{c1::}} empty", CLOZE_EMPTY, 4, "[\xe2\x80\xa6] empty" },
		{ "{{c1::  ::hint}} blank", CLOZE_EMPTY, 4, "[hint] blank" },
		{ "{{c1::a {{c2::b}} c}}", CLOZE_NESTED, 4, "{{c1::a b c}}" },
		{ "{{c1::*x {{c2::y}}*}}", CLOZE_NESTED, 13, "[\xe2\x80\xa6]" },
		/* In a hint's emphasis, which is text now. */
		{ "{{c1::a::*{{c2::b}}*}} c", CLOZE_NESTED, 14, "[{{c2::b}}] c" },
	};
	size_t i;

	CHECK_GROUP("cloze mistakes");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cloze_list l;
		cmark_node *doc, *h = S_heading(cases[i].heading, &doc, &l);
		char *text = cloze_text(h, CLOZE_SHOW_BLANK, 1);

		CHECK(l.nissues >= 1, "%s: a mistake found", cases[i].heading);
		if (l.nissues >= 1) {
			CHECK_INT(l.issues[0].what, cases[i].what, "%s: which", cases[i].heading);
			CHECK_INT(l.issues[0].col, cases[i].col, "%s: column", cases[i].heading);
			CHECK_INT(l.issues[0].line, 1, "%s: line", cases[i].heading);
		}
		CHECK_STR(text, cases[i].text, "%s: text after", cases[i].heading);
		free(text);
		cloze_list_free(&l);
		cmark_node_free(doc);
	}
}

static void
test_print(void)
{
	struct cloze_list l;
	cmark_node *doc, *h = S_heading("{{c1::Paris}} & {{c2::France::country}}", &doc, &l);
	char *front1 = cardtext_inline_cloze(h, 1), *front2 = cardtext_inline_cloze(h, 2);
	char *plain = cardtext_inline(h);

	CHECK_GROUP("cloze in print");
	CHECK_STR(front1, "[\xe2\x80\xa6] &amp; France", "a blank without a hint");
	CHECK_STR(front2, "Paris &amp; [country]", "a blank with its hint");
	CHECK_STR(plain, "Paris &amp; France", "every answer as text when no deletion is asked");
	free(front1);
	free(front2);
	free(plain);
	cloze_list_free(&l);
	cmark_node_free(doc);

	/* A hint cmark read as raw HTML prints as text, escaped for Pango. */
	h = S_heading("{{c1::Paris::<b>city</b> & co}} is big", &doc, &l);
	front1 = cardtext_inline_cloze(h, 1);
	CHECK_STR(front1, "[&lt;b&gt;city&lt;/b&gt; &amp; co] is big", "a hint of raw HTML, as text");
	free(front1);
	cloze_list_free(&l);
	cmark_node_free(doc);
}

int
main(void)
{
	test_deletions();
	test_mistakes();
	test_print();
	return check_finish();
}

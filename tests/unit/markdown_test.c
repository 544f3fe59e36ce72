/*
 * markdown: GitHub slugs, the slugger's -N repeats, heading attributes,
 * plain text and task items, each as an input beside what it must give.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "markdown.h"
#include "util.h"

static void
test_slugs(void)
{
	static const struct {
		const char *text, *slug;
	} cases[] = {
		{ "Hello, World!", "hello-world" },
		{ "C++ & Rust", "c--rust" },
		{ "Ring all-reduce", "ring-all-reduce" },
		{ "snake_case_name", "snake_case_name" },
		{ "What is ZeRO-3?", "what-is-zero-3" },
		{ "100% of 1.5 GB/s", "100-of-15-gbs" },
		{ "  two  spaces ", "--two--spaces-" },
		{ "Über Straße", "über-straße" },
		{ "ÀÉÎÕÜ", "àéîõü" },
		{ "Привет Мир", "привет-мир" },
		{ "ΑΒΓ δέλτα", "αβγ-δέλτα" },
		{ "日本語のテキスト", "日本語のテキスト" },
		{ "中文，标点。", "中文标点" },
		{ "Emoji 🚀 rocket", "emoji--rocket" },
		{ "“Quotes” — dash", "quotes--dash" },
		{ "x × y ÷ z", "x--y--z" },
		{ "café résumé", "café-résumé" },
		{ "!!!", "" },
		{ "", "" },
		{ "MiXeD CaSe 42", "mixed-case-42" },
		{ "a\tb", "ab" },
		{ "½ and ²", "½-and-²" },
		/* Unicode's full lower-case mapping, as GitHub's toLowerCase. */
		{ "\xc4\xb0stanbul", "i\xcc\x87stanbul" },      /* İ: i and a combining dot */
		{ "ΟΔΟΣ ΚΑΙ ΣΑ", "οδος-και-σα" },                 /* a word's last sigma */
		{ "ᲐᲑᲒ", "აბგ" },                                 /* Georgian capitals */
		{ "ẞ", "ß" },
		/* Kept by category: symbols, punctuation and unassigned code points go. */
		{ "ⓐ circled", "-circled" },
		{ "a\xcd\xbe" "b", "ab" },                         /* Greek question mark */
		{ "a\xe1\x9a\x80" "b", "ab" },                     /* Ogham space mark */
		{ "a\xee\x80\x80" "b", "ab" },                     /* private use */
		{ "a\xe2\x80\xbf" "b", "a\xe2\x80\xbf" "b" },           /* a connector, as '_' */
		{ "a\xff" "B", "ab" },                              /* not UTF-8 */
	};
	size_t i;

	CHECK_GROUP("slug");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = md_slug(cases[i].text);

		CHECK_STR(s, cases[i].slug, "\"%s\"", cases[i].text);
		free(s);
	}
}

static void
test_slugger(void)
{
	struct md_slugger sl;
	char *s;
	int i;

	CHECK_GROUP("slugger");
	md_slugger_init(&sl);
	s = md_slugger_take(&sl, "intro");
	CHECK_STR(s, "intro", "first use keeps the slug");
	free(s);
	s = md_slugger_take(&sl, "intro");
	CHECK_STR(s, "intro-1", "second use gets -1");
	free(s);
	s = md_slugger_take(&sl, "intro");
	CHECK_STR(s, "intro-2", "third use gets -2");
	free(s);
	s = md_slugger_take(&sl, "intro-1");
	CHECK_STR(s, "intro-1-1", "a heading whose slug is a taken -1");
	free(s);
	md_slugger_reserve(&sl, "setup");
	s = md_slugger_take(&sl, "setup");
	CHECK_STR(s, "setup-1", "slugs step around an explicit id");
	free(s);
	CHECK(md_slugger_has(&sl, "intro-2"), "has a handed-out slug");
	CHECK(!md_slugger_has(&sl, "intro-3"), "has not what was not handed out");
	/* Many repeats stay linear and correct (the table grows under it). */
	for (i = 0; i < 5000; i++)
		free(md_slugger_take(&sl, "q"));
	s = md_slugger_take(&sl, "q");
	CHECK_STR(s, "q-5000", "the 5001st repeat");
	free(s);
	md_slugger_free(&sl);
}

/* Parses one heading line and takes its attributes off. */
static int
S_attrs(const char *md, struct md_attrs *a, char **text, const char **err)
{
	cmark_node *doc = md_parse(md, strlen(md));
	cmark_node *h = cmark_node_first_child(doc);
	int rc;

	if (h == NULL || cmark_node_get_type(h) != CMARK_NODE_HEADING) {
		cmark_node_free(doc);
		*text = xstrdup("(not a heading)");
		return -2;
	}
	rc = md_heading_attrs(h, a, err);
	*text = md_plain_text(h);
	cmark_node_free(doc);
	return rc;
}

static void
test_attrs(void)
{
	struct md_attrs a;
	const char *err;
	char *text;
	int rc;

	CHECK_GROUP("attrs");
	rc = S_attrs("## In plain DDP, what crosses the wire? {#ddp-wire .easy}\n", &a, &text, &err);
	CHECK_INT(rc, 1, "an id and a class");
	CHECK_STR(a.id, "ddp-wire", "the id");
	CHECK_INT(a.nclasses, 1, "one class");
	CHECK(md_attrs_has_class(&a, "easy"), "class easy");
	CHECK(!md_attrs_has_class(&a, "hard"), "not class hard");
	CHECK_STR(text, "In plain DDP, what crosses the wire?", "taken off the text");
	md_attrs_free(&a);
	free(text);

	rc = S_attrs("## Title {#a_b .x .y key=value k2=\"two words\"}\n", &a, &text, &err);
	CHECK_INT(rc, 1, "classes and pairs");
	CHECK_STR(a.id, "a_b", "an id with _ (split by cmark at delimiters)");
	CHECK_INT(a.nclasses, 2, "two classes");
	CHECK_INT(a.npairs, 2, "two pairs");
	CHECK_STR(a.npairs > 1 ? a.values[1] : NULL, "two words", "a quoted value");
	CHECK_STR(text, "Title", "text");
	md_attrs_free(&a);
	free(text);

	rc = S_attrs("## Use `x.y` here {.hard}\n", &a, &text, &err);
	CHECK_INT(rc, 1, "after inline code");
	CHECK(a.id == NULL, "no id");
	CHECK_STR(text, "Use x.y here", "text keeps the code");
	md_attrs_free(&a);
	free(text);

	rc = S_attrs("## Sets {a, b}\n", &a, &text, &err);
	CHECK_INT(rc, 0, "braces that are not attributes");
	CHECK_STR(text, "Sets {a, b}", "text untouched");
	free(text);

	rc = S_attrs("## Map {'k': 1}\n", &a, &text, &err);
	CHECK_INT(rc, 0, "a dict literal");
	free(text);

	rc = S_attrs("## No attributes\n", &a, &text, &err);
	CHECK_INT(rc, 0, "none");
	CHECK_STR(text, "No attributes", "text");
	free(text);

	rc = S_attrs("## T {#a #b}\n", &a, &text, &err);
	CHECK_INT(rc, -1, "two ids");
	CHECK_STR(err, "a heading takes one #id", "reason");
	CHECK_STR(text, "T {#a #b}", "a malformed block stays in the text");
	CHECK(a.id == NULL && a.nclasses == 0, "and leaves attrs empty");
	free(text);

	rc = S_attrs("## T {.easy .bad!}\n", &a, &text, &err);
	CHECK_INT(rc, -1, "a bad class");
	CHECK_STR(err, "a class after . must be a name: letters, digits, -, _", "reason");
	free(text);

	rc = S_attrs("## T {#id junk}\n", &a, &text, &err);
	CHECK_INT(rc, -1, "a stray word");
	CHECK_STR(err, "expected #id, .class or key=value", "reason");
	free(text);

	rc = S_attrs("## T {#id k=\"open}\n", &a, &text, &err);
	CHECK_INT(rc, -1, "an unclosed quote");
	free(text);

	rc = S_attrs("## {#only}\n", &a, &text, &err);
	CHECK_INT(rc, 1, "a heading of attributes only");
	CHECK_STR(text, "", "has empty text");
	md_attrs_free(&a);
	free(text);

	rc = S_attrs("## *Emphasis* then {#e}\n", &a, &text, &err);
	CHECK_INT(rc, 1, "after emphasis");
	CHECK_STR(text, "Emphasis then", "text");
	md_attrs_free(&a);
	free(text);

	rc = S_attrs("## Ünïcödé {#ü-id}\n", &a, &text, &err);
	CHECK_INT(rc, 1, "non-ASCII id");
	CHECK_STR(a.id, "ü-id", "kept");
	md_attrs_free(&a);
	free(text);

	rc = S_attrs("Setext title {#st}\n---\n", &a, &text, &err);
	CHECK_INT(rc, 1, "a setext heading");
	CHECK_STR(text, "Setext title", "text");
	md_attrs_free(&a);
	free(text);
}

static void
test_parse(void)
{
	const char *md =
	    "- [ ] no\n"
	    "- [x] yes\n"
	    "- plain\n"
	    "\n"
	    "| a | b |\n|---|---|\n| 1 | 2 |\n\n"
	    "~~gone~~ www.example.com\n\n"
	    "Note[^1].\n\n[^1]: The note.\n";
	cmark_node *doc = md_parse(md, strlen(md));
	cmark_node *list = cmark_node_first_child(doc);
	cmark_node *i1 = cmark_node_first_child(list);
	cmark_node *i2 = cmark_node_next(i1), *i3 = cmark_node_next(i2);
	cmark_iter *it;
	cmark_event_type ev;
	int table = 0, strike = 0, autolink = 0, footnote = 0;
	char *text;

	CHECK_GROUP("parse");
	CHECK(md_is_task_item(i1) && !md_task_item_checked(i1), "an open task item");
	CHECK(md_is_task_item(i2) && md_task_item_checked(i2), "a ticked task item");
	CHECK(!md_is_task_item(i3), "a plain item is not a task");
	CHECK(!md_is_task_item(list), "a list is not a task item");
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		const char *t = cmark_node_get_type_string(n);

		if (ev != CMARK_EVENT_ENTER)
			continue;
		table += strcmp(t, "table") == 0;
		strike += strcmp(t, "strikethrough") == 0;
		footnote += cmark_node_get_type(n) == CMARK_NODE_FOOTNOTE_DEFINITION;
		if (cmark_node_get_type(n) == CMARK_NODE_LINK &&
		    strcmp(cmark_node_get_url(n), "http://www.example.com") == 0)
			autolink++;
	}
	cmark_iter_free(it);
	CHECK_INT(table, 1, "tables are on");
	CHECK_INT(strike, 1, "strikethrough is on");
	CHECK_INT(autolink, 1, "autolinks are on");
	CHECK_INT(footnote, 1, "footnotes are on");
	CHECK_INT(cmark_node_get_start_line(i2), 2, "source positions are on");
	text = md_plain_text(list);
	CHECK_STR(text, "no\nyes\nplain", "plain text of a list, a line per block");
	free(text);
	cmark_node_free(doc);

	md = "A *b* `c` [d](x.md)\nsoft  \nhard";
	doc = md_parse(md, strlen(md));
	text = md_plain_text(doc);
	CHECK_STR(text, "A b c d soft hard", "plain text of inlines");
	free(text);
	cmark_node_free(doc);

	text = md_plain_text(NULL);
	CHECK_STR(text, "", "plain text of nothing");
	free(text);
	CHECK(md_syntax_extensions() != NULL, "the extension list for renderers");
}

/* Nesting the input controls must cost memory, never stack. */
static void
test_pathological(void)
{
	struct buf b;
	cmark_node *doc;
	char *text;
	int i;

	CHECK_GROUP("pathological");
	buf_init(&b);
	for (i = 0; i < 20000; i++)
		buf_puts(&b, "> ");
	buf_puts(&b, "deep\n\n");
	for (i = 0; i < 5000; i++)
		buf_puts(&b, "- ");
	buf_puts(&b, "item\n\n");
	for (i = 0; i < 20000; i++)
		buf_putc(&b, '[');
	buf_puts(&b, "x");
	for (i = 0; i < 20000; i++)
		buf_putc(&b, ']');
	buf_puts(&b, "\n\n## ");
	for (i = 0; i < 10000; i++)
		buf_puts(&b, "{");
	buf_puts(&b, "#x}\n");
	doc = md_parse(b.data, b.len);
	text = md_plain_text(doc);
	CHECK(strstr(text, "deep") != NULL, "20,000 nested quotes parse and walk");
	CHECK(strstr(text, "item") != NULL, "5,000 nested lists");
	free(text);
	{
		cmark_node *h = cmark_node_last_child(doc);
		struct md_attrs a;
		const char *err;

		CHECK(cmark_node_get_type(h) == CMARK_NODE_HEADING, "a heading of braces");
		CHECK_INT(md_heading_attrs(h, &a, &err), 1, "ten thousand braces then an id");
		md_attrs_free(&a);
	}
	cmark_node_free(doc);
	buf_free(&b);
}

/*
 * Strikethrough and autolinks on four threads at once, a thousand parses
 * each: every tree must have both. cmark-gfm unmarking its extension
 * characters while another parser runs lost them (a '~~' left as text).
 */
#define RACE_THREADS 4
#define RACE_PARSES 1000

static void *
S_race(void *arg)
{
	static const char md[] = "Lead ~~gone~~ and www.example.com then ~~more~~ text.\n";
	int *bad = arg, i;

	for (i = 0; i < RACE_PARSES; i++) {
		cmark_node *doc = md_parse(md, sizeof(md) - 1);
		cmark_iter *it = cmark_iter_new(doc);
		cmark_event_type ev;
		int strike = 0, links = 0;

		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);

			if (ev != CMARK_EVENT_ENTER)
				continue;
			strike += strcmp(cmark_node_get_type_string(n), "strikethrough") == 0;
			links += cmark_node_get_type(n) == CMARK_NODE_LINK;
		}
		cmark_iter_free(it);
		cmark_node_free(doc);
		*bad += strike != 2 || links != 1;
	}
	return NULL;
}

static void
test_threads(void)
{
	pthread_t t[RACE_THREADS];
	int bad[RACE_THREADS] = { 0 }, total = 0, i;

	CHECK_GROUP("threads");
	for (i = 0; i < RACE_THREADS; i++)
		pthread_create(&t[i], NULL, S_race, &bad[i]);
	for (i = 0; i < RACE_THREADS; i++) {
		pthread_join(t[i], NULL);
		total += bad[i];
	}
	CHECK_INT(total, 0, "no parse on any thread lost a strikethrough or an autolink");
}

/*
 * A tree parsed into scratch memory is the tree md_parse makes, whatever
 * the blocks' sizes: a paragraph longer than an arena chunk and a string
 * buffer that keeps growing take the other paths. Edits allocate into it
 * too; md_scratch_free releases it all (ASan watches every block).
 */
static void
test_scratch(void)
{
	struct md_scratch *sc = NULL;
	struct md_attrs a;
	const char *err;
	cmark_node *kept, *scratch, *h;
	char *x1, *x2, *t;
	struct buf b;
	size_t i, n1 = 0, n2 = 0;

	CHECK_GROUP("scratch");
	buf_init(&b);
	buf_puts(&b, "# Title {#top .x}\n\n| a | b |\n|---|---|\n| ~~1~~ | www.example.com |\n\n");
	for (i = 0; i < 40000; i++)
		buf_puts(&b, i % 7 ? "word " : "*em* ");
	buf_puts(&b, "\n\n- [x] done\n- [ ] not\n\n");
	for (i = 0; i < 3000; i++)
		buf_printf(&b, "Line %zu of a long paragraph [link](x%zu.md)\n", i, i);
	kept = md_parse_counted(b.data, b.len, &n1);
	scratch = md_parse_scratch(b.data, b.len, &n2, &sc);
	CHECK(sc != NULL, "a scratch arena is made");
	CHECK(n1 == n2 && n1 > 20000, "as many nodes either way");
	x1 = cmark_render_xml(kept, CMARK_OPT_SOURCEPOS);
	x2 = cmark_render_xml(scratch, CMARK_OPT_SOURCEPOS);
	CHECK(strcmp(x1, x2) == 0, "the same tree, source positions and all");
	free(x1);
	/* cmark renders with the tree's allocator: x2 is in the arena and goes with it. */
	h = cmark_node_first_child(scratch);
	CHECK_INT(md_heading_attrs(h, &a, &err), 1, "heading attributes are taken off a scratch tree");
	CHECK_STR(a.id, "top", "the id is read");
	md_attrs_free(&a);
	t = md_plain_text(h);
	CHECK_STR(t, "Title", "and the heading's text is edited in place");
	free(t);
	md_scratch_free(sc);
	cmark_node_free(kept);
	buf_free(&b);
}

int
main(void)
{
	test_slugs();
	test_slugger();
	test_attrs();
	test_parse();
	test_pathological();
	test_threads();
	test_scratch();
	return check_finish();
}

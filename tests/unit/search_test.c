/*
 * search: the index the theme's search box reads, written from a small
 * site and compared whole with what it must be.
 */
#include "check.h"
#include "site_fixture.h"

#include "search.h"

/* 40 words of 5 bytes with their spaces: the excerpt keeps the 30 whole words within 150 bytes. */
static const char long_para[] =
    "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo "
    "pppp qqqq rrrr ssss tttt uuuu vvvv wwww xxxx yyyy zzzz AAAA BBBB CCCC DDDD "
    "EEEE FFFF GGGG HHHH IIII JJJJ KKKK LLLL MMMM NNNN\n";

/* The index as html.c joins it: each chapter and deck from its open tree. */
static void
S_index(const struct site *site, struct buf *b)
{
	struct doc_tree *t;
	size_t i;

	search_begin(b);
	for (i = 0; i < site->nchapters; i++) {
		t = doc_tree_open(site->chapters[i]->doc);
		search_chapter(b, site->chapters[i], t, "Guide");
		doc_tree_close(t);
	}
	for (i = 0; i < site->ntests; i++)
		search_questions(b, site->tests[i]);
	for (i = 0; i < site->ndecks; i++) {
		t = doc_tree_open(site->decks[i]->doc);
		search_deck(b, site->decks[i], t);
		doc_tree_close(t);
	}
	search_end(b);
}

static void
test_index(void)
{
	struct site site;
	struct diag_list dl;
	struct buf b;
	char *ring;

	CHECK_GROUP("search index");
	fixture_begin();
	ring = xconcat("+++\ntitle = \"Ring \\\"all\\\" <reduce>\"\n+++\n\nIntro\ttext,\nover two lines.\n\n"
	    "## Phases {#phases}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```\ncode\n```\n\n", long_para,
	    "\n## Cost\n\n- one\n- two\n\n### Deep\n\n", NULL);
	fixture_put("content/guide/ring.md", ring);
	fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"Test\"\n+++\n");
	fixture_put("content/quiz/t/topic.md",
	    "+++\ntitle = \"Topic\"\n+++\n## Why \xe2\x80\xa8 *this*? {#q1}\n\n- [ ] a\n- [x] b\n\nWhy.\n");
	/* 149 bytes of "a", then "é" (2 bytes), one word: cut after the whole "é". */
	fixture_put("content/cards/d.md", "+++\ntitle = \"Deck\"\n+++\n## Front `x` {#c1}\n\n"
	    "```\nno code\n```\n\nBack \\\\ text.\n\n## Long {#c2}\n\n"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "\xc3\xa9zzz\n");
	CHECK(fixture_load(&site, &dl) == 0, "the site loads: %s", fixture_diags(&dl));
	buf_init(&b);
	S_index(&site, &b);
	CHECK_STR(buf_str(&b),
	    "/* quizdeck's search index, written at build time and read by search.js. */\n"
	    "window.quizdeckSearch = [\n"
	    "{\"kind\":\"chapter\",\"title\":\"Ring \\\"all\\\" \\u003creduce>\",\"where\":[\"Guide\"],"
	    "\"url\":\"guide/ring/index.html\",\"text\":\"Intro text, over two lines.\"},\n"
	    "{\"kind\":\"section\",\"title\":\"Phases\",\"where\":[\"Ring \\\"all\\\" \\u003creduce>\"],"
	    "\"url\":\"guide/ring/index.html#phases\",\"text\":\"aaaa bbbb cccc dddd eeee ffff gggg hhhh "
	    "iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq rrrr ssss tttt uuuu vvvv wwww xxxx yyyy "
	    "zzzz AAAA BBBB CCCC DDDD\xe2\x80\xa6\"},\n"
	    "{\"kind\":\"section\",\"title\":\"Cost\",\"where\":[\"Ring \\\"all\\\" \\u003creduce>\"],"
	    "\"url\":\"guide/ring/index.html#cost\",\"text\":\"one two\"},\n"
	    "{\"kind\":\"section\",\"title\":\"Deep\",\"where\":[\"Ring \\\"all\\\" \\u003creduce>\"],"
	    "\"url\":\"guide/ring/index.html#deep\",\"text\":\"\"},\n"
	    "{\"kind\":\"question\",\"title\":\"Why \\u2028 this?\",\"where\":[\"Test\",\"Topic\"],"
	    "\"url\":\"quiz/t/index.html#q1\",\"text\":\"\"},\n"
	    "{\"kind\":\"card\",\"title\":\"Front x\",\"where\":[\"Deck\"],"
	    "\"url\":\"cards/d/index.html#c1\",\"text\":\"Back \\\\ text.\"},\n"
	    "{\"kind\":\"card\",\"title\":\"Long\",\"where\":[\"Deck\"],\"url\":\"cards/d/index.html#c2\",\"text\":\""
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "\xc3\xa9\xe2\x80\xa6\"},\n"
	    "];\n",
	    "sections with excerpts (prose only, cut at a word), questions, cards; escaped for a script");
	buf_free(&b);
	free(ring);
	fixture_end(&site, &dl);
}

int
main(void)
{
	test_index();
	return check_finish();
}

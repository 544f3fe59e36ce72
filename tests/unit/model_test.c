/*
 * model: what site_load builds from a small site (tests, topics,
 * questions, decks, cards, chapters, sections), the orders and defaults
 * format.md gives, and a table of author mistakes with their exact
 * diagnostics.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "html.h"
#include "markdown.h"
#include "model.h"
#include "util.h"
#include "site_fixture.h"

static const char topic_z[] =
    "+++\ntitle = \"Zed topic\"\nweight = 1\n+++\n"
    "Intro of the topic.\n"                                         /* 5 */
    "\n"
    "## Default difficulty? {#q-default}\n"                         /* 7 */
    "\n"
    "A second stem block.\n"
    "\n"
    "> A hint.\n"
    "\n"
    "- [ ] wrong\n"                                                 /* 13 */
    "    > Feedback for wrong.\n"
    "- [x] right\n"
    "- [x] also right\n"
    "\n"
    "Explanation.\n"                                                /* 18 */
    "\n"
    "More explanation.\n"
    "\n"
    "## Marked easy {.easy}\n"                                      /* 22 */
    "\n"
    "- [x] a\n"
    "- [ ] b\n"
    "\n"
    "Why.\n"
    "\n"
    "## A sample {.sample .medium}\n"                               /* 29 */
    "\n"
    "- [x] a\n"
    "- [ ] b\n"
    "\n"
    "Why.\n";

static const char topic_a[] =
    "+++\ntitle = \"Aye topic\"\ndifficulty = \"easy\"\n+++\n"
    "## Easy by file {#e1}\n\n- [x] a\n- [ ] b\n\nWhy.\n"
    "## Hard by class {#h1 .hard}\n\n- [x] a\n- [ ] b\n\nWhy.\n";

static const char single[] =
    "+++\nweight = 5\n+++\n"
    "# Single test\n"
    "\n"
    "Intro of the single test.\n"
    "\n"
    "## One {.easy}\n\n- [x] a\n- [ ] b\n\nWhy.\n"
    "## Two {.easy}\n\n- [x] a\n- [ ] b\n\nWhy.\n"
    "## Three {.easy}\n\n- [x] a\n- [ ] b\n\nWhy.\n";

static const char deck[] =
    "+++\ntitle = \"Deck\"\ndescription = \"About cards.\"\n+++\n"
    "An introduction to the deck.\n"
    "\n"
    "## What is data parallelism? {#dp}\n"                          /* 7 */
    "\n"
    "Each replica holds the whole model.\n"
    "\n"
    "## Tensor parallel comms\n"                                    /* 11 */
    "\n"
    "All-reduce.\n"
    "\n"
    "More back.\n"
    "## ¿¡!?\n"                                                     /* 16 */
    "\n"
    "Back.\n";

static struct test *
S_test(const struct site *site, const char *slug)
{
	size_t i;

	for (i = 0; i < site->ntests; i++)
		if (strcmp(site->tests[i]->slug, slug) == 0)
			return site->tests[i];
	return NULL;
}

static void
test_structure(void)
{
	struct site site;
	struct diag_list dl;
	struct test *t;
	struct topic *tp;
	struct question *q;
	struct deck *dk;
	size_t i;
	char *summary;
	int rc;

	CHECK_GROUP("structure");
	fixture_begin();
	fixture_put("site.toml", "title = \"Model\"\n");
	fixture_put("content/index.md", "# Welcome\n\nHome text.\n");
	fixture_put("content/quiz/b-test/_index.md",
	    "+++\ntitle = \"Bee\"\ndescription = \"The bee test.\"\nweight = 1\ndifficulty = \"hard\"\n+++\nTest intro.\n");
	fixture_put("content/quiz/b-test/z-topic.md", topic_z);
	fixture_put("content/quiz/b-test/a-topic.md", topic_a);
	fixture_put("content/quiz/a-single.md", single);
	fixture_put("content/cards/deck.md", deck);
	fixture_put("content/guide/a.md", "+++\nweight = 2\n+++\n# Chapter A\n\n## Part one\n\n### Detail\n\n## Part one\n");
	fixture_put("content/guide/b.md", "+++\ntitle = \"Chapter B\"\nweight = 1\n+++\nNo heading at all.\n");
	fixture_put("content/guide/c.md", "# Chapter C {#top}\n");
	fixture_put("content/guide/part/_index.md", "+++\nweight = 3\n+++\n# The part\n");
	fixture_put("content/guide/part/x.md", "# X\n");
	fixture_put("content/guide/part/y.md", "+++\nweight = -1\n+++\n# Y\n");
	fixture_put("content/guide/zpart/README.md", "+++\nweight = 4\n+++\n# Z part\n");
	fixture_put("content/guide/zpart/a.md", "# ZA\n");
	fixture_put("content/README.md", "# For GitHub readers: no warning\n");
	rc = fixture_load(&site, &dl);
	CHECK_INT(rc, 0, "loads");
	CHECK_STR(fixture_diags(&dl), "", "no diagnostics");

	CHECK_INT(site.ntests, 2, "two tests");
	CHECK_STR(site.ntests == 2 ? site.tests[0]->slug : NULL, "b-test", "weighted test first");
	CHECK_STR(site.ntests == 2 ? site.tests[1]->slug : NULL, "a-single", "then the other");
	CHECK(site.home && strcmp(site.home->url, "index.html") == 0, "home page");

	t = S_test(&site, "b-test");
	if (t != NULL) {
		CHECK_STR(t->title, "Bee", "test title from _index.md");
		CHECK_STR(t->description, "The bee test.", "test description");
		CHECK_STR(t->url, "quiz/b-test/index.html", "test url");
		CHECK(t->intro.first != NULL, "test intro");
		CHECK_INT(t->ntopics, 2, "two topics");
		CHECK_STR(t->topics[0]->slug, "z-topic", "weighted topic first");
		CHECK_STR(t->topics[1]->slug, "a-topic", "unweighted after");
		CHECK_INT(t->nquestions, 5, "five questions");
		CHECK_INT(t->count[DIFF_EASY], 2, "two easy");
		CHECK_INT(t->count[DIFF_MEDIUM], 1, "one medium");
		CHECK_INT(t->count[DIFF_HARD], 2, "two hard");
		tp = t->topics[0];
		CHECK_STR(tp->title, "Zed topic", "topic title");
		CHECK(tp->intro.first != NULL && tp->intro.first == tp->intro.last, "topic intro: one block");
		CHECK_INT(tp->nquestions, 3, "three questions");
		q = &tp->questions[0];
		CHECK_STR(q->id, "q-default", "explicit id");
		CHECK_STR(q->stem_text, "Default difficulty?", "stem text without attributes");
		CHECK_INT(q->difficulty, DIFF_HARD, "difficulty from _index.md");
		CHECK_INT(q->line, 7, "heading line");
		CHECK(q->stem.first && q->stem.first == q->stem.last, "one further stem block");
		CHECK(q->hint != NULL, "a hint");
		CHECK_INT(q->noptions, 3, "three options");
		CHECK(q->noptions == 3 && !q->options[0].correct && q->options[1].correct &&
		    q->options[2].correct, "correctness");
		CHECK(q->noptions == 3 && q->options[0].feedback && !q->options[1].feedback,
		    "per-option feedback");
		CHECK_INT(q->noptions == 3 ? q->options[0].line : 0, 13, "option line");
		CHECK_INT(q->multi, 1, "two [x] make it multi");
		CHECK(q->explanation.first && q->explanation.first != q->explanation.last,
		    "two explanation blocks");
		CHECK_INT(strlen(q->fingerprint), 16, "a fingerprint");
		CHECK_INT(q->sample, 0, "not a sample");
		CHECK_STR(doc_heading_id(tp->doc, q->heading), "q-default", "the heading carries its id");
		q = &tp->questions[1];
		CHECK_STR(q->id, "marked-easy", "slug id");
		CHECK_INT(q->difficulty, DIFF_EASY, ".easy");
		CHECK_INT(q->sample, 0, "an explicit .sample elsewhere: no default samples");
		CHECK_INT(q->multi, 0, "single answer");
		CHECK(q->hint == NULL && q->stem.first == NULL, "no hint, no stem blocks");
		q = &tp->questions[2];
		CHECK_INT(q->sample, 1, ".sample");
		CHECK_INT(q->difficulty, DIFF_MEDIUM, ".medium");
		tp = t->topics[1];
		CHECK_INT(tp->questions[0].difficulty, DIFF_EASY, "difficulty from the topic file");
		CHECK_INT(tp->questions[1].difficulty, DIFF_HARD, "a class beats the file");
		CHECK(doc_anchor(tp->doc, "topic-a-topic") != NULL, "topic anchor");
		CHECK(doc_anchor(tp->doc, "h1") != NULL, "question anchor");
	}
	t = S_test(&site, "a-single");
	if (t != NULL) {
		CHECK_STR(t->title, "Single test", "a one-file test takes its # heading as title");
		CHECK_INT(t->ntopics, 1, "one topic");
		CHECK_STR(t->topics[0]->title, "Single test", "the topic shares it");
		CHECK(t->intro.first != NULL && t->intro.first == t->intro.last,
		    "the text before the first ## introduces the test (the # title is left out)");
		CHECK(t->topics[0]->intro.first == NULL, "and not the topic as well");
		CHECK_INT(t->topics[0]->questions[0].sample + t->topics[0]->questions[1].sample +
		    t->topics[0]->questions[2].sample, 2, "without .sample, two samples");
		CHECK(t->topics[0]->questions[0].sample && t->topics[0]->questions[1].sample,
		    "the first two easy ones");
	}

	CHECK_INT(site.ndecks, 1, "one deck");
	dk = site.ndecks ? site.decks[0] : NULL;
	if (dk) {
		CHECK_STR(dk->slug, "deck", "deck slug");
		CHECK_STR(dk->url, "cards/deck/index.html", "deck url");
		CHECK_STR(dk->pdf_url, "print/deck.pdf", "pdf url");
		CHECK_STR(dk->description, "About cards.", "deck description");
		CHECK(dk->intro.first != NULL, "deck intro");
		CHECK_INT(dk->ncards, 3, "three cards");
		CHECK_STR(dk->cards[0].id, "dp", "explicit card id");
		CHECK_STR(dk->cards[0].label, "Dp", "label");
		CHECK_INT(dk->cards[0].number, 1, "number 1");
		CHECK_STR(dk->cards[0].front_text, "What is data parallelism?", "front");
		CHECK_STR(dk->cards[1].id, "tensor-parallel-comms", "slug card id");
		CHECK_STR(dk->cards[1].label, "Tensor-parallel-comms", "its label");
		CHECK(dk->cards[1].back.first != dk->cards[1].back.last, "a back of two blocks");
		CHECK_STR(dk->cards[2].id, "card", "an empty slug falls back to \"card\"");
		CHECK_INT(dk->cards[2].number, 3, "number 3");
	}

	CHECK_INT(site.nchapters, 8, "eight chapters");
	if (site.nchapters == 8) {
		static const char *const order[] = { "b", "a", "part", "part/y", "part/x",
		    "zpart", "zpart/a", "c" };

		for (i = 0; i < 8; i++)
			CHECK_STR(site.chapters[i]->slug, order[i], "chapter %zu in reading order", i + 1);
		CHECK_STR(site.chapters[0]->title, "Chapter B", "title from front matter");
		CHECK_INT(site.chapters[0]->nsections, 0, "a chapter without headings");
		CHECK_STR(site.chapters[1]->title, "Chapter A", "title from the # heading");
		CHECK_INT(site.chapters[1]->nsections, 4, "every heading is a section");
		CHECK_STR(site.chapters[1]->sections[1]->id, "part-one", "slug");
		CHECK_STR(site.chapters[1]->sections[3]->id, "part-one-1", "repeat gets -1");
		CHECK_INT(site.chapters[1]->sections[2]->level, 3, "level");
		CHECK_STR(site.chapters[2]->url, "guide/part/index.html", "a part's _index.md");
		CHECK_STR(site.chapters[3]->url, "guide/part/y/index.html", "a chapter in a part");
		CHECK_STR(site.chapters[5]->url, "guide/zpart/index.html", "README.md opens a part, as in mdBook");
		CHECK_STR(site.chapters[7]->sections[0]->id, "top", "explicit id");
		CHECK_STR(site.chapters[7]->title, "Chapter C", "title without its attributes");
		CHECK(site.chapters[0]->prev == NULL && site.chapters[0]->next == site.chapters[1],
		    "prev and next");
		CHECK(site.chapters[7]->next == NULL && site.chapters[7]->prev == site.chapters[6],
		    "the last one");
	}
	summary = site_summary(&site, &dl);
	CHECK_STR(summary,
	    "2 tests, 3 topics, 8 questions (5 easy, 1 medium, 2 hard); 1 deck, 3 cards; 8 chapters, 10 sections; 0 links; 0 errors, 0 warnings",
	    "summary");
	free(summary);
	CHECK(site_doc(&site, "guide/a.md") != NULL, "site_doc finds a doc");
	CHECK(site_doc(&site, "guide/zz.md") == NULL, "and not a missing one");
	fixture_end(&site, &dl);
}

static void
test_summary_singular(void)
{
	struct site site;
	struct diag_list dl;
	char *summary;

	CHECK_GROUP("summary");
	fixture_begin();
	fixture_put("content/quiz/one.md",
	    "+++\ntitle = \"One\"\n+++\n## Q {.easy}\n\n- [x] a\n- [ ] b\n");
	fixture_put("content/cards/one.md", "# One\n\n## C\n\nBack [q](../quiz/one.md#q).\n");
	fixture_put("content/guide/one.md", "# One\n");
	fixture_load(&site, &dl);
	summary = site_summary(&site, &dl);
	CHECK_STR(summary,
	    "1 test, 1 topic, 1 question (1 easy, 0 medium, 0 hard); 1 deck, 1 card; 1 chapter, 1 section; 1 link; 0 errors, 1 warning",
	    "singular everywhere");
	free(summary);
	fixture_end(&site, &dl);

	fixture_begin();
	fixture_put("content/guide/x.md", "# X\n\n[a](nope.md)\n");
	fixture_load(&site, &dl);
	summary = site_summary(&site, &dl);
	CHECK_STR(summary,
	    "0 tests, 0 topics, 0 questions (0 easy, 0 medium, 0 hard); 0 decks, 0 cards; 1 chapter, 1 section; 1 link; 1 error, 0 warnings",
	    "zero is plural");
	free(summary);
	fixture_end(&site, &dl);
}

/* Each mistake in a topic or deck, with its exact diagnostics. */
static void
test_mistakes(void)
{
	static const struct {
		const char *name, *path, *text, *want;
	} cases[] = {
		{ "no task list", "content/quiz/t/x.md", "## Q\n\nJust text.\n",
		  "content/quiz/t/x.md:4:1: error: question \"q\" has no options: add a task list (- [ ] wrong, - [x] right) after it" },
		{ "a plain list is not options", "content/quiz/t/x.md", "## Q\n\n- a\n- b\n\nWhy.\n",
		  "content/quiz/t/x.md:4:1: error: question \"q\" has no options: add a task list (- [ ] wrong, - [x] right) after it" },
		{ "one option", "content/quiz/t/x.md", "## Q\n\n- [x] a\n\nWhy.\n",
		  "content/quiz/t/x.md:6:1: error: question \"q\" has only one option: a question needs at least two" },
		{ "no [x]", "content/quiz/t/x.md", "## Q\n\n- [ ] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:6:1: error: question \"q\" has no correct option: mark the right one with [x]" },
		{ "an item without a box", "content/quiz/t/x.md", "## Q\n\n- [x] a\n- b\n- [ ] c\n\nWhy.\n",
		  "content/quiz/t/x.md:7:1: error: option 2 of question \"q\" is not a task item: start it with [ ] or [x]" },
		{ "no explanation", "content/quiz/t/x.md", "## Q\n\n- [x] a\n- [ ] b\n",
		  "content/quiz/t/x.md:4:1: warning: question \"q\" has no explanation: add a paragraph after the options saying why the answer is right" },
		{ "misspelt difficulty", "content/quiz/t/x.md", "## Q {.medum}\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:4:6: error: unknown class .medum on a question; expected .easy, .medium, .hard or .sample" },
		{ "two difficulties", "content/quiz/t/x.md", "## Q {.easy .hard}\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:4:6: error: question \"q\" has two difficulties, .easy and .hard: keep one" },
		{ "duplicate id in a file", "content/quiz/t/x.md",
		  "## Q {#a}\n\n- [x] a\n- [ ] b\n\nWhy.\n\n## R {#a}\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:11:1: error: duplicate question id \"a\": line 4 has it already; ids are unique within a test" },
		{ "duplicate id across topics", "content/quiz/t/x.md", "## First\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:4:1: error: duplicate question id \"first\": content/quiz/t/w.md:1 has it already; ids are unique within a test" },
		{ "malformed attributes", "content/quiz/t/x.md", "## Q {#a #b}\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:4:6: error: malformed heading attributes: a heading takes one #id" },
		{ "# inside a question", "content/quiz/t/x.md", "## Q\n\n- [x] a\n- [ ] b\n\n# Oops\n\nWhy.\n",
		  "content/quiz/t/x.md:9:1: error: a # heading inside question \"q\": each ## heading starts one; use ### or deeper within it" },
		{ "empty topic", "content/quiz/t/x.md", "Only an introduction.\n",
		  "content/quiz/t/x.md:1:1: error: topic has no questions: each ## heading starts one" },
		{ "a topic without title", "content/quiz/t/y.md", "## Q\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/y.md:1:1: warning: topic has no title, so the topic picker shows \"y\": add title = \"...\" to the front matter" },
		{ "empty back", "content/cards/d.md", "## Front\n\n## Next\n\nBack.\n",
		  "content/cards/d.md:4:1: error: card \"front\" has no back: write the answer below its heading" },
		{ "empty deck", "content/cards/d.md", "Nothing here.\n",
		  "content/cards/d.md:1:1: error: deck has no cards: each ## heading starts one" },
		{ "duplicate card id", "content/cards/d.md", "## A {#x}\n\nB.\n\n## B {#x}\n\nB.\n",
		  "content/cards/d.md:8:6: error: duplicate card id \"x\": line 4 has it already" },
		{ "# inside a card", "content/cards/d.md", "## A\n\nB.\n\n# Part two\n",
		  "content/cards/d.md:8:1: error: a # heading inside card \"a\": each ## heading starts one; use ### or deeper within it" },
		{ "duplicate heading id", "content/guide/g.md", "# G {#x}\n\n## H {#x}\n",
		  "content/guide/g.md:3:6: error: duplicate id \"x\": line 1 has it already" },
		{ "a chapter without a title", "content/guide/g.md", "## Only h2\n",
		  "content/guide/g.md:1:1: error: chapter has no title: add title = \"...\" to the front matter, or start with a # heading" },
	};
	size_t i;

	CHECK_GROUP("mistakes");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct site site;
		struct diag_list dl;
		int titled = strcmp(cases[i].path, "content/quiz/t/y.md") != 0 &&
		    strcmp(cases[i].path, "content/guide/g.md") != 0;
		char *text = xasprintf("%s%s", titled ? "+++\ntitle = \"X\"\n+++\n" : "", cases[i].text);

		fixture_begin();
		fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
		fixture_put("content/quiz/t/w.md", "## First\n\n- [x] a\n- [ ] b\n\nWhy.\n");
		fixture_put(cases[i].path, text);
		fixture_load(&site, &dl);
		/* w.md has no title: that error is the same in every case, so drop it. */
		{
			size_t k, j;

			for (k = j = 0; k < dl.len; k++) {
				if (strcmp(dl.v[k].file, "content/quiz/t/w.md") == 0) {
					free(dl.v[k].file);
					free(dl.v[k].message);
					continue;
				}
				dl.v[j++] = dl.v[k];
			}
			dl.len = j;
		}
		CHECK_STR(fixture_diags(&dl), cases[i].want, "%s", cases[i].name);
		fixture_end(&site, &dl);
		free(text);
	}
}

/*
 * Loads the fixture twice, its trees kept and then streamed (so, whose
 * drop_sources is set here), and checks that both report the same
 * diagnostics, the broken link among them at `where` ("ring.md:7:").
 */
static void
S_load_both(struct site *kept, struct diag_list *dk, struct site *streamed, struct diag_list *ds,
    struct site_options *so, const char *where)
{
	struct site_options none = { 0 };
	char *want;

	diag_init(dk);
	diag_init(ds);
	site_load(kept, fixture_root, &none, dk);
	so->drop_sources = 1;
	site_load(streamed, fixture_root, so, ds);
	diag_sort(dk);
	diag_sort(ds);
	want = xstrdup(fixture_diags(dk));
	CHECK_STR(fixture_diags(ds), want, "the same diagnostics as a load that keeps its trees");
	if (where)
		CHECK(strstr(want, where) != NULL, "the broken link is reported at its line");
	free(want);
}

/*
 * A one-shot load streams chapters: built as parsed, trees dropped, links
 * kept as written and checked later, every diagnostic where a kept tree
 * puts it; site_chapter_tree gives the tree back with each section's
 * heading (its attribute block taken off, its id marked), and
 * site_chapter_tree_done drops it again.
 */
static void
test_streamed_chapters(void)
{
	static const char chapter[] =
	    "+++\ntitle = \"Ring\"\n+++\n\n"
	    "# Ring {#ring-top}\n\nSee [the tree](tree.md#leaves) and [nowhere](gone.md).\n\n"
	    "> ## In a quote {.aside}\n\n"
	    "## Steps\n\n- item\n\n  ### Nested in an item\n";
	static const char *const want_ids[] = { "ring-top", "in-a-quote", "steps", "nested-in-an-item" };
	struct site_options so = { 0 };
	struct site kept, streamed;
	struct diag_list dk, ds;
	struct chapter *c = NULL;
	size_t i;

	CHECK_GROUP("streamed chapters");
	fixture_begin();
	fixture_put("content/guide/ring.md", chapter);
	fixture_put("content/guide/tree.md", "# Tree\n\n## Leaves\n\nBack to [the ring](ring.md#steps).\n");
	S_load_both(&kept, &dk, &streamed, &ds, &so, "ring.md:7:");
	for (i = 0; i < streamed.nchapters; i++)
		if (strcmp(streamed.chapters[i]->slug, "ring") == 0)
			c = streamed.chapters[i];
	CHECK(c != NULL, "the chapter is in the guide");
	if (c == NULL)
		goto out;
	CHECK(c->doc->root == NULL, "its tree is gone once loaded");
	CHECK(c->nsections == 4 && c->sections[0]->heading == NULL, "its sections point at no heading");
	CHECK_INT(site_chapter_tree(c), 0, "site_chapter_tree parses it again");
	CHECK(c->doc->root != NULL, "the tree is back");
	for (i = 0; i < c->nsections && i < 4; i++) {
		cmark_node *h = c->sections[i]->heading;
		char *text = h ? md_plain_text(h) : NULL;

		CHECK(h && cmark_node_get_type(h) == CMARK_NODE_HEADING, "each section has its heading");
		CHECK_STR(h ? doc_heading_id(c->doc, h) : NULL, want_ids[i], "each heading carries its id");
		CHECK(text && strchr(text, '{') == NULL, "attribute blocks are taken off the text");
		free(text);
	}
	site_chapter_tree_done(c);
	CHECK(c->doc->root == NULL && c->sections[1]->heading == NULL, "site_chapter_tree_done drops it");

	/* A build renders the chapter as it parses it: no second parse, and the source goes. */
	{
		struct site built;
		struct diag_list db;
		struct chapter *bc = NULL;

		diag_init(&db);
		so.render_chapter = html_render_chapter;
		site_load(&built, fixture_root, &so, &db);
		diag_sort(&db);
		{
			char *want = xstrdup(fixture_diags(&ds));

			CHECK_STR(fixture_diags(&db), want, "rendered at load: the same diagnostics");
			free(want);
		}
		for (i = 0; i < built.nchapters; i++)
			if (strcmp(built.chapters[i]->slug, "ring") == 0)
				bc = built.chapters[i];
		CHECK(bc && bc->body_html && bc->doc->root == NULL && !bc->doc->streamed &&
		    bc->doc->src->data == NULL, "its body is rendered, its tree and its source gone");
		CHECK(bc && bc->body_html->nholes == 2 + 4 + 1,
		    "a hole for each link, and a mark for each section's practice and the chapter's");
		CHECK(bc && bc->title_section == bc->sections[0], "the leading # heading is the title");
		CHECK(bc && bc->ntoc == 1 && bc->toc[0] == bc->sections[2],
		    "the contents list the top-level ## only, not headings in a quote or a list");
		site_free(&built);
		diag_free(&db);
	}
out:
	site_free(&kept);
	diag_free(&dk);
	fixture_end(&streamed, &ds);
}

/* What a topic's question links to, as "id>section,section;" per question. */
static char *
S_links_to(const struct topic *tp)
{
	struct buf b;
	size_t i, k;

	buf_init(&b);
	buf_puts(&b, "");
	for (i = 0; i < tp->nquestions; i++) {
		const struct question *q = &tp->questions[i];

		buf_puts(&b, q->id);
		buf_putc(&b, '>');
		for (k = 0; k < q->links_to.len; k++) {
			buf_puts(&b, q->links_to.v[k]->id);
			buf_putc(&b, ',');
		}
		buf_putc(&b, ';');
	}
	return buf_detach(&b);
}

static struct topic *
S_topic(const struct site *site, const char *slug)
{
	const struct test *t = S_test(site, "t");
	size_t i;

	for (i = 0; t && i < t->ntopics; i++)
		if (strcmp(t->topics[i]->slug, slug) == 0)
			return t->topics[i];
	return NULL;
}

static int S_rendered_topics;

static void
S_count_render(const struct site *site, struct topic *tp)
{
	(void)site;
	CHECK(tp->doc->root != NULL && tp->questions[0].heading != NULL,
	    "render_topic gets the topic with its tree");
	__atomic_add_fetch(&S_rendered_topics, 1, __ATOMIC_SEQ_CST);
	html_render_topic(site, tp);
}

/*
 * Streamed topics (drop_sources): built as parsed, their links kept
 * with the question they are in, rendered with holes, their trees gone;
 * the same diagnostics, links and samples as a load that keeps its
 * trees. A topic with footnotes keeps its tree.
 */
static void
test_streamed_topics(void)
{
	static const char links[] =
	    "+++\ntitle = \"Links\"\n+++\n"
	    "Read [the ring](../../guide/ring.md) first.\n\n"
	    "## First {.easy}\n\nStem, [steps](../../guide/ring.md#steps).\n\n- [x] a\n- [ ] b\n\n"
	    "Why: [the tree](../../guide/ring.md#tree) and [gone](gone.md).\n\n"
	    "## Second {.easy}\n\n- [x] a\n- [ ] b\n\nSee [the first](#first).\n\n"
	    "## Third {.easy}\n\n- [x] a\n- [ ] [the tree](../../guide/ring.md#tree)\n\nWhy.\n";
	static const char noted[] =
	    "+++\ntitle = \"Noted\"\n+++\n"
	    "## Noted\n\n- [x] a[^1]\n- [ ] b\n\nWhy, [steps](../../guide/ring.md#steps).\n\n[^1]: A note.\n";
	struct site_options so = { 0 };
	struct site kept, streamed;
	struct diag_list dk, ds;
	struct topic *tk, *ts, *tn;
	char *a, *b;
	size_t i;

	CHECK_GROUP("streamed topics");
	fixture_begin();
	fixture_put("content/quiz/t/_index.md", "# T\n");
	fixture_put("content/quiz/t/links.md", links);
	fixture_put("content/quiz/t/noted.md", noted);
	fixture_put("content/guide/ring.md", "# Ring\n\n## Steps\n\n## Tree\n");
	so.render_topic = S_count_render;
	S_load_both(&kept, &dk, &streamed, &ds, &so, "links.md:13:");
	CHECK_INT(S_rendered_topics, 1, "render_topic ran for the topic without footnotes only");
	tk = S_topic(&kept, "links");
	ts = S_topic(&streamed, "links");
	tn = S_topic(&streamed, "noted");
	CHECK(tk && ts && tn, "both topics are in the test");
	if (!tk || !ts || !tn)
		goto out;
	CHECK(ts->test == S_test(&streamed, "t"), "the streamed topic is put in its test");
	CHECK(ts->doc->root == NULL && ts->questions[0].heading == NULL &&
	    ts->questions[0].options[0].item == NULL && ts->intro.first == NULL,
	    "its tree is gone, and nothing points into it");
	CHECK(tn->doc->root != NULL && tn->questions[0].html == NULL,
	    "a topic with footnotes keeps its tree and is not rendered at load");
	a = S_links_to(tk);
	b = S_links_to(ts);
	CHECK_STR(b, a, "each question links to the same sections");
	CHECK_STR(a, "first>steps,tree,;second>;third>tree,;", "links are counted for the question they are in");
	free(a);
	free(b);
	for (i = 0; i < ts->nquestions; i++)
		CHECK(ts->questions[i].html != NULL && ts->questions[i].has_options,
		    "question %zu is rendered", i + 1);
	CHECK(ts->questions[0].html->nholes == 3, "the first question has a hole for each site link");
	CHECK(ts->questions[0].sample_html && ts->questions[1].sample_html && !ts->questions[2].sample_html,
	    "the first two easy questions, which may be the samples, are rendered as samples too");
	CHECK(ts->questions[0].sample && ts->questions[1].sample && !ts->questions[2].sample,
	    "and they are the samples");
	CHECK(ts->intro_html && ts->intro_html->nholes == 1, "the intro is rendered, with its link's hole");
out:
	site_free(&kept);
	diag_free(&dk);
	fixture_end(&streamed, &ds);
}

/*
 * A build that prints no deck streams decks too (render_deck): the
 * cards as parsed, rendered with holes, the tree gone; the same
 * diagnostics, links and fingerprints as a load that keeps its trees.
 */
static void
test_streamed_decks(void)
{
	static const char deck_md[] =
	    "+++\ntitle = \"Deck\"\n+++\nAn intro, [the ring](../guide/ring.md).\n\n"
	    "## Front one {#one}\n\nBack, [steps](../guide/ring.md#steps).\n\n"
	    "## Front two {#two}\n\nSee [one](#one) and [gone](gone.md).\n";
	struct site_options so = { 0 };
	struct site kept, streamed;
	struct diag_list dk, ds;
	struct deck *a, *b;
	size_t i;

	CHECK_GROUP("streamed decks");
	fixture_begin();
	fixture_put("content/cards/deck.md", deck_md);
	fixture_put("content/guide/ring.md", "# Ring\n\n## Steps\n");
	so.render_deck = html_render_deck;
	S_load_both(&kept, &dk, &streamed, &ds, &so, "deck.md:12:");
	CHECK(kept.ndecks == 1 && streamed.ndecks == 1, "the deck is loaded both ways");
	if (kept.ndecks != 1 || streamed.ndecks != 1)
		goto out;
	a = kept.decks[0];
	b = streamed.decks[0];
	CHECK(b->doc->root == NULL && b->cards[0].heading == NULL && b->cards[0].back.first == NULL &&
	    b->intro.first == NULL, "its tree is gone, and nothing points into it");
	CHECK(a->cards_html == NULL && b->cards_html != NULL && b->cards_html->nholes == 3,
	    "its cards are rendered with a hole for each link into the site");
	CHECK(b->intro_html != NULL && b->intro_html->nholes == 1, "and so is its intro");
	CHECK(a->ncards == 2 && b->ncards == 2, "both have the two cards");
	for (i = 0; i < a->ncards && i < b->ncards; i++) {
		CHECK_STR(b->cards[i].fingerprint, a->cards[i].fingerprint, "card %zu has the same fingerprint", i + 1);
		CHECK_INT((long)b->cards[i].links_to.len, (long)a->cards[i].links_to.len,
		    "card %zu links to as many sections", i + 1);
	}
	CHECK(b->cards[0].links_to.len == 1 && strcmp(b->cards[0].links_to.v[0]->id, "steps") == 0,
	    "the link is counted for the card it is in");
	CHECK(strcmp(a->cards[0].fingerprint, a->cards[1].fingerprint) != 0, "fingerprints tell cards apart");
out:
	site_free(&kept);
	diag_free(&dk);
	fixture_end(&streamed, &ds);
}

/* What the load asked of the drawer, deck by deck (test_drawn_decks). */
struct draw_log {
	char slugs[64];            /* each drawn deck's slug and a space */
	int tree_held;             /* every card came with its heading in place */
	int configured;            /* every deck came after configure */
	int threads;               /* nthreads of the last deck */
	int whole;                 /* every deck was given whole, in one call, and kept */
	size_t ncards;             /* the deck being drawn: its cards, all told */
};

static int
S_log_open(void *arg, const struct site *site, const struct deck *dk, size_t ncards, int nthreads,
    struct diag_list *dl, void **drawing)
{
	struct draw_log *log = arg;

	(void)dl;
	strncat(log->slugs, dk->slug, sizeof(log->slugs) - strlen(log->slugs) - 2);
	strcat(log->slugs, " ");
	log->configured &= site->cfg.print.paper_name && strcmp(site->cfg.print.paper_name, "a5") == 0;
	log->threads = nthreads;
	log->ncards = ncards;
	*drawing = log;
	return 0;
}

static int
S_log_draw(void *drawing, const struct card *cards, size_t n, size_t *done)
{
	struct draw_log *log = drawing;
	size_t i;

	for (i = 0; i < n; i++)
		log->tree_held &= cards[i].heading != NULL;
	log->whole &= n == log->ncards;
	*done = n;
	return 0;
}

static int
S_log_close(void *drawing, int keep)
{
	struct draw_log *log = drawing;

	log->whole &= keep;
	return keep ? 0 : -1;
}

static const struct deck_drawer log_drawer = { S_log_open, S_log_draw, S_log_close };

static void
S_configure(struct config *cfg, const void *arg)
{
	free(cfg->print.paper_name);
	cfg->print.paper_name = xstrdup(arg);
}

/*
 * Build and print draw each deck as it is parsed (site_options.draw), after the
 * command line's settings are in (configure), and drop its tree; a deck
 * with an error is not drawn. A build that renders pages keeps the tree
 * of a deck that cannot render with holes, to draw it after loading;
 * print, which renders nothing, still draws it at load.
 */
static void
test_drawn_decks(void)
{
	struct site_options so = { 0 };
	struct draw_log log;
	struct site site;
	struct diag_list dl;
	size_t i;

	CHECK_GROUP("decks drawn as they load");
	fixture_begin();
	fixture_put("content/cards/good.md", "+++\ntitle = \"Good\"\n+++\n## One {#one}\n\nBack.\n\n## Two\n\nBack.\n");
	fixture_put("content/cards/empty.md", "+++\ntitle = \"Empty\"\n+++\nNo cards here.\n");
	diag_init(&dl);
	memset(&log, 0, sizeof(log));
	log.tree_held = log.configured = log.whole = 1;
	so.drop_sources = 1;
	so.jobs = 4;
	so.draw = &log_drawer;
	so.draw_arg = &log;
	so.configure = S_configure;
	so.configure_arg = "a5";
	site_load(&site, fixture_root, &so, &dl);
	CHECK_STR(log.slugs, "good ", "the deck without error is drawn, the one with an error is not");
	CHECK(log.tree_held, "with its tree");
	CHECK(log.whole, "whole, in one call, and kept");
	CHECK(log.configured, "after configure");
	CHECK_INT(log.threads, 2, "on its share of the threads: 4 for two decks");
	CHECK(strstr(fixture_diags(&dl), "deck has no cards") != NULL, "the empty deck's error is reported");
	for (i = 0; i < site.ndecks; i++) {
		const struct deck *dk = site.decks[i];
		int good = strcmp(dk->slug, "good") == 0;

		CHECK(dk->doc->root == NULL && dk->cards_html == NULL, "%s: its tree is dropped, nothing rendered", dk->slug);
		CHECK_INT(dk->drawn, good, "%s: drawn is set as the drawer kept it", dk->slug);
	}
	site_free(&site);
	diag_free(&dl);

	/* Raw HTML allowed: a deck cannot render with holes. */
	fixture_put("site.toml", "title = \"T\"\n[markdown]\nunsafe_html = true\n");
	fixture_put("content/cards/empty.md", "+++\ntitle = \"Empty\"\n+++\n## Now one\n\nBack.\n");
	diag_init(&dl);
	memset(&log, 0, sizeof(log));
	site_load(&site, fixture_root, &so, &dl);
	CHECK(strlen(log.slugs) == strlen("empty good ") && strstr(log.slugs, "empty ") && strstr(log.slugs, "good "),
	    "print: both decks drawn at load, raw HTML or not (drawn: %s)", log.slugs);
	site_free(&site);
	diag_free(&dl);
	diag_init(&dl);
	memset(&log, 0, sizeof(log));
	so.render_deck = html_render_deck;
	site_load(&site, fixture_root, &so, &dl);
	CHECK_STR(log.slugs, "", "build: neither, with raw HTML allowed");
	for (i = 0; i < site.ndecks; i++)
		CHECK(site.decks[i]->doc->root != NULL && !site.decks[i]->drawn,
		    "%s: its tree is kept, to be drawn after loading", site.decks[i]->slug);
	fixture_end(&site, &dl);
}

/*
 * A print load (links_only, reread): every link checked with the same
 * diagnostics and counts as a load that keeps everything, but nothing
 * kept that only pages use: no backlinks, no links_to, no link targets,
 * no questions or cards (only their anchors and counts), and no
 * source's bytes.
 */
static void
test_print_load(void)
{
	static const char topic[] =
	    "+++\ntitle = \"A\"\n+++\n"
	    "## First {#first .easy}\n\n- [x] right\n- [ ] wrong\n\nSee [steps](../../guide/ring.md#steps).\n\n"
	    "## Second {#second}\n\n- [ ] one\n- [x] two\n\nSee [gone](../../guide/gone.md).\n";
	struct site_options so = { 0 };
	struct site kept, print;
	struct diag_list dk, dp;
	struct draw_log log;
	char *want, *got;
	size_t i, j;

	CHECK_GROUP("print load");
	fixture_begin();
	fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
	fixture_put("content/quiz/t/a.md", topic);
	/* Ids clashing within the test: checked on dropped questions' anchors. */
	fixture_put("content/quiz/t/b.md", "+++\ntitle = \"B\"\n+++\n"
	    "## Again {#first}\n\n- [x] a\n- [ ] b\n\nWhy.\n\n"
	    "## Topic {#topic-a .hard}\n\n- [x] a\n- [ ] b\n\nWhy.\n\n"
	    "## Twice {#twice}\n\n- [x] a\n- [ ] b\n\nWhy.\n\n"
	    "## Twice more {#twice}\n\n- [x] a\n- [ ] b\n\nWhy.\n");
	fixture_put("content/cards/d.md", "+++\ntitle = \"D\"\n+++\n## Front {#front}\n\nSee [steps](../guide/ring.md#steps).\n");
	fixture_put("content/guide/ring.md", "# Ring\n\n## Steps\n\nText, and [the deck](../cards/d.md#front).\n");
	memset(&log, 0, sizeof(log));
	log.tree_held = log.configured = 1;
	so.links_only = 1;
	so.reread = 1;
	so.draw = &log_drawer;
	so.draw_arg = &log;
	S_load_both(&kept, &dk, &print, &dp, &so, "a.md:16:");
	want = site_summary(&kept, &dk);
	got = site_summary(&print, &dp);
	CHECK_STR(got, want, "the same counts, links included");
	free(want);
	free(got);
	CHECK_STR(log.slugs, "d ", "the deck is drawn as it loads");
	CHECK(log.tree_held, "from its tree, read again for its parse");
	for (i = 0; i < print.sources.len; i++)
		CHECK(print.sources.v[i]->data == NULL && !print.sources.v[i]->dropped,
		    "%s: read again, parsed, and its bytes gone", print.sources.v[i]->rel);
	for (i = 0; i < print.ndocs; i++)
		CHECK_INT((long)print.docs[i]->ntargets, 0, "%s: no link targets", print.docs[i]->src->rel);
	CHECK(print.nchapters == 1 && kept.nchapters == 1, "one chapter");
	if (print.nchapters == 1 && kept.nchapters == 1) {
		const struct chapter *c = print.chapters[0], *kc = kept.chapters[0];

		CHECK(kc->nsections == 2 && kc->sections[1]->backlinks.len == 2,
		    "kept: the question and the card link to the section");
		CHECK(c->nsections == 2 && c->sections[1]->backlinks.len == 0 && c->backlinks.len == 0,
		    "print: no backlinks");
	}
	CHECK(strstr(fixture_diags(&dk), "b.md:4:1: error: duplicate question id \"first\": content/quiz/t/a.md:4") &&
	    strstr(fixture_diags(&dk), "b.md:11:1: error: duplicate question id \"topic-a\"") &&
	    strstr(fixture_diags(&dk), "b.md:25:1: error: duplicate question id \"twice\": line 18"),
	    "each clash is reported (and the print load reports the same)");
	CHECK(print.ntests == 1 && print.tests[0]->ntopics == 2, "the topics are in their test");
	for (i = 0; print.ntests == 1 && kept.ntests == 1 && i < print.tests[0]->ntopics &&
	    i < kept.tests[0]->ntopics; i++) {
		const struct topic *tp = print.tests[0]->topics[i], *kt = kept.tests[0]->topics[i];
		size_t count[3] = { 0 };

		CHECK(tp->nquestions == 0 && tp->questions == NULL, "%s: no questions kept", tp->slug);
		CHECK_INT((long)tp->dropped.n, (long)kt->nquestions, "%s: but counted", tp->slug);
		for (j = 0; j < kt->nquestions; j++) {
			const struct anchor *a = doc_anchor(tp->doc, kt->questions[j].id);

			count[kt->questions[j].difficulty]++;
			CHECK(a && a->kind == ANCHOR_QUESTION && a->u.question == NULL,
			    "%s: question %zu is still a link target", tp->slug, j + 1);
		}
		CHECK(memcmp(count, tp->dropped.count, sizeof(count)) == 0, "%s: by difficulty", tp->slug);
	}
	if (print.ntests == 1 && kept.ntests == 1)
		CHECK(print.tests[0]->nquestions == 6 &&
		    memcmp(print.tests[0]->count, kept.tests[0]->count, sizeof(kept.tests[0]->count)) == 0,
		    "the test counts its questions the same");
	CHECK(print.ndecks == 1 && print.decks[0]->drawn, "the deck was drawn");
	if (print.ndecks == 1) {
		const struct deck *d = print.decks[0];
		const struct anchor *a = doc_anchor(d->doc, "front");

		CHECK(d->cards == NULL && d->ncards == 0 && d->dropped == 1, "its card is counted, then gone");
		CHECK(a && a->kind == ANCHOR_CARD && a->u.card == NULL, "but stays a link target");
	}
	site_free(&kept);
	diag_free(&dk);
	site_free(&print);
	diag_free(&dp);

	/* check: links_only, nothing drawn; decks stream all the same. */
	so.draw = NULL;
	so.reread = 0;
	diag_init(&dp);
	site_load(&print, fixture_root, &so, &dp);
	CHECK(print.ndecks == 1 && print.decks[0]->doc->root == NULL && !print.decks[0]->drawn &&
	    print.decks[0]->dropped == 1, "check: the deck streams, its tree and card gone, counted");
	fixture_end(&print, &dp);
}

/* A block range as CommonMark, to compare trees parsed apart. */
static char *
S_range_text(struct block_range r)
{
	struct buf b;
	cmark_node *n;

	buf_init(&b);
	buf_put(&b, "", 0);
	for (n = r.first; n; n = cmark_node_next(n)) {
		/* Rendered with malloc: a chunk's tree is in a scratch arena (md_parse_scratch). */
		char *s = cmark_render_commonmark_with_mem(n, CMARK_OPT_DEFAULT, 0,
		    cmark_get_default_mem_allocator());

		buf_puts(&b, s);
		free(s);
		if (n == r.last)
			break;
	}
	return buf_detach(&b);
}

/*
 * A drawer that takes cards three to a sheet, as pdf_deck_draw takes a
 * sheet's cards, and writes what it saw of each card: front | back, one
 * a line, from its tree or, when that is gone, from card_tree.
 */
struct tree_log {
	struct buf out;
	size_t ncards, done;       /* the deck's cards; those drawn so far */
	int calls;                 /* draw calls for the deck */
	int reparsed;              /* cards drawn from card_tree */
	int kept;                  /* close was told to keep it */
};

static int
S_tree_open(void *arg, const struct site *site, const struct deck *dk, size_t ncards, int nthreads,
    struct diag_list *dl, void **drawing)
{
	struct tree_log *t = arg;

	(void)site;
	(void)dk;
	(void)nthreads;
	(void)dl;
	/* A chunked try given up is drawn again whole: only the last drawing counts. */
	buf_reset(&t->out);
	buf_put(&t->out, "", 0);
	t->ncards = ncards;
	t->done = 0;
	t->calls = t->reparsed = t->kept = 0;
	*drawing = t;
	return 0;
}

/* Card c as the tree it came with, or its own bytes, have it. */
static void
S_tree_card(struct tree_log *t, const struct card *c)
{
	struct card_tree tr;
	char *front, *back;

	if (c->heading) {
		front = md_plain_text(c->heading);
		back = S_range_text(c->back);
	} else {
		if (card_tree(c, 1, &tr) == -1) {
			buf_printf(&t->out, "card %d: no card_tree\n", c->number);
			return;
		}
		back = S_range_text(tr.back);
		card_tree_free(&tr);
		/* The front alone: its heading's line. */
		if (card_tree(c, 0, &tr) == -1 || tr.back.first != NULL) {
			buf_printf(&t->out, "card %d: no front card_tree\n", c->number);
			free(back);
			return;
		}
		front = md_plain_text(tr.heading);
		card_tree_free(&tr);
		t->reparsed++;
	}
	buf_printf(&t->out, "%d %s %s at %d:%d | %s | %s\n", c->number, c->id, c->fingerprint,
	    c->line, c->col, front, back);
	free(front);
	free(back);
}

static int
S_tree_draw(void *drawing, const struct card *cards, size_t n, size_t *done)
{
	struct tree_log *t = drawing;
	size_t end = t->done + n, k, i;

	/* Complete sheets, or the rest of the deck. */
	k = end == t->ncards ? n : end / 3 * 3 > t->done ? end / 3 * 3 - t->done : 0;
	for (i = 0; i < k; i++) {
		if (cards[i].number != (int)(t->done + i + 1))
			buf_printf(&t->out, "card %d given as card %zu\n", cards[i].number, t->done + i + 1);
		S_tree_card(t, &cards[i]);
	}
	t->done += k;
	t->calls++;
	*done = k;
	return 0;
}

static int
S_tree_close(void *drawing, int keep)
{
	struct tree_log *t = drawing;

	t->kept = keep && t->done == t->ncards;
	return t->kept ? 0 : -1;
}

static const struct deck_drawer tree_drawer = { S_tree_open, S_tree_draw, S_tree_close };

/* The same, from a deck whose tree is whole. */
static char *
S_cards_text(const struct deck *dk)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_put(&b, "", 0);
	for (i = 0; i < dk->ncards; i++) {
		const struct card *c = &dk->cards[i];
		char *front = md_plain_text(c->heading), *back = S_range_text(c->back);

		buf_printf(&b, "%d %s %s at %d:%d | %s | %s\n", c->number, c->id, c->fingerprint,
		    c->line, c->col, front, back);
		free(front);
		free(back);
	}
	return buf_detach(&b);
}

/* print's load, with chunks of two cards, each card drawn into drawn->out (tree_drawer). */
static void
S_chunk_options(struct site_options *so, struct tree_log *drawn)
{
	memset(drawn, 0, sizeof(*drawn));
	buf_init(&drawn->out);
	buf_put(&drawn->out, "", 0);
	memset(so, 0, sizeof(*so));
	so->links_only = 1;
	so->chunk_cards = 2;
	so->draw = &tree_drawer;
	so->draw_arg = drawn;
}

/*
 * A three-card deck that test_chunked_decks's print load must build
 * whole (given to the drawer in one call, from its tree), with the whole
 * file's anchor `id`.
 */
static void
S_built_whole(const char *cards, const char *id, const char *why)
{
	struct site_options so = { 0 };
	struct site kept, print;
	struct diag_list dk, dp;
	struct tree_log drawn;
	char *md = xconcat("+++\ntitle = \"Long\"\n+++\n", cards, NULL);

	S_chunk_options(&so, &drawn);
	fixture_put("content/cards/long.md", md);
	S_load_both(&kept, &dk, &print, &dp, &so, NULL);
	CHECK(drawn.calls == 1 && drawn.reparsed == 0 && drawn.kept && print.ndecks == 1 &&
	    print.decks[0]->drawn, "%s: built whole, drawn whole (%d calls)", why, drawn.calls);
	CHECK(print.ndecks == 1 && print.decks[0]->dropped == 3 && doc_anchor(print.decks[0]->doc, id),
	    "%s: with the whole file's ids", why);
	buf_free(&drawn.out);
	free(md);
	site_free(&kept);
	diag_free(&dk);
	site_free(&print);
	diag_free(&dp);
}

/*
 * print builds a long deck a chunk of cards at a time (chunk_cards), its
 * tree never whole: the same ids, places, fingerprints and messages as
 * the whole file, every card drawn from card_tree as the whole tree has
 * it. A file that cannot be cut, or whose ids clash across chunks, is
 * built whole as before.
 */
static void
test_chunked_decks(void)
{
	static const char deck_md[] =
	    "+++\ntitle = \"Long\"\n+++\nAn intro, *with* [a link](../guide/ring.md).\n\n"
	    "## One {#one .x}\n\nBack, [steps](../guide/ring.md#steps).\n\n"
	    "## Two\n\n- a\n- b\n\n  more of b\n\n"
	    "## Three\n\n```\n## not a card\n```\n\n"
	    "## Four {#four}\n\n| a | b |\n|---|---|\n| 1 | [gone](gone.md) |\n\n"
	    "## Five\n\n> quoted\n\n"
	    "## Six {bad\n\nA brace as text.\n\n"
	    "## Seven\n";
	struct site_options so = { 0 };
	struct site kept, print;
	struct diag_list dk, dp;
	struct tree_log drawn;
	char *want;
	size_t i;

	CHECK_GROUP("decks built in chunks");
	fixture_begin();
	fixture_put("content/cards/long.md", deck_md);
	fixture_put("content/guide/ring.md", "# Ring\n\n## Steps\n");
	S_chunk_options(&so, &drawn);
	S_load_both(&kept, &dk, &print, &dp, &so, "long.md:27:7:");
	CHECK(strstr(fixture_diags(&dp), "long.md:37:1: error: card \"seven\" has no back") != NULL,
	    "an error in the last chunk is reported at its line in the file");
	CHECK(print.ndecks == 1 && !print.decks[0]->drawn && !drawn.kept && print.decks[0]->dropped == 7,
	    "with errors, not drawn; seven cards counted (a ## in a fence is none)");
	CHECK(drawn.calls == 3, "drawing stopped at the chunk with the error (%d calls)", drawn.calls);
	site_free(&kept);
	diag_free(&dk);
	site_free(&print);
	diag_free(&dp);

	S_built_whole("## Same\n\nA.\n\n## Other\n\nB.\n\n## Same\n\nC.\n", "same-1",
	    "an id the whole file would have made unique");
	S_built_whole("## A\n\n[ref].\n\n## B\n\nB.\n\n## C\n\nC.\n\n[ref]: ../guide/ring.md\n", "c",
	    "a reference definition, which the whole file shares");

	/* Over [limits] max_elements in all, though no chunk is: as the whole file, an error. */
	{
		struct buf many;

		buf_init(&many);
		buf_puts(&many, "+++\ntitle = \"Long\"\n+++\n");
		for (i = 1; i <= 30; i++)
			buf_printf(&many, "## Card %zu\n\nBack *%zu*, and more.\n\n", i, i);
		fixture_put("content/cards/long.md", buf_str(&many));
		fixture_put("site.toml", "[limits]\nmax_elements = 100\n");
		buf_free(&drawn.out);
		S_chunk_options(&so, &drawn);
		S_load_both(&kept, &dk, &print, &dp, &so, NULL);
		CHECK(strstr(fixture_diags(&dp), "max_elements") != NULL && drawn.calls > 0 && !drawn.kept &&
		    print.ndecks == 1 && !print.decks[0]->drawn,
		    "over max_elements in all, no chunk over: reported; what was drawn is thrown away");
		site_free(&kept);
		diag_free(&dk);
		site_free(&print);
		diag_free(&dp);
		fixture_put("site.toml", "");
		buf_free(&many);
	}

	/* Without the error, drawn: every card as in the whole tree. */
	fixture_put("content/cards/long.md", "+++\ntitle = \"Long\"\n+++\nAn intro.\n\n"
	    "## One {#one .x}\n\nBack, [steps](../guide/ring.md#steps).\n\n"
	    "## Two\n\n- a\n- b\n\n  more of b\n\n"
	    "## Three\n\n```\n## not a card\n```\n\n"
	    "## Four {#four}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
	    "## Five\n\n> quoted *x*\n\n"
	    "## \n\nAn empty front.\n\n"
	    "## Seven\n\nLast.\n");
	S_load_both(&kept, &dk, &print, &dp, &so, NULL);
	CHECK_INT((long)dp.len, 0, "no diagnostics");
	want = kept.ndecks == 1 ? S_cards_text(kept.decks[0]) : xstrdup("");
	CHECK_STR(buf_str(&drawn.out), want, "each card drawn, from its chunk's tree or card_tree, as the whole tree has it");
	CHECK(strstr(want, "7 seven") != NULL && strstr(want, "6 card ") != NULL, "numbered through the chunks");
	/* Chunks of 2, sheets of 3: cards 1, 2 and 4 wait for the next chunk, their trees gone. */
	CHECK(drawn.calls == 4 && drawn.reparsed == 3 && drawn.kept,
	    "drawn as each chunk came, a sheet's cards held over (%d calls, %d from card_tree)",
	    drawn.calls, drawn.reparsed);
	free(want);
	CHECK(print.ndecks == 1 && print.decks[0]->drawn && print.decks[0]->dropped == 7, "drawn, then counted");
	if (print.ndecks == 1) {
		const struct doc *d = print.decks[0]->doc;
		const char *ids[] = { "one", "two", "three", "four", "five", "card", "seven" };

		CHECK_INT((long)d->nanchors, 7, "one anchor a card");
		for (i = 0; i < 7; i++)
			CHECK(doc_anchor(d, ids[i]) != NULL, "%s is a link target", ids[i]);
	}
	buf_free(&drawn.out);
	site_free(&kept);
	diag_free(&dk);
	fixture_end(&print, &dp);
}

int
main(void)
{
	test_structure();
	test_summary_singular();
	test_mistakes();
	test_streamed_chapters();
	test_streamed_topics();
	test_streamed_decks();
	test_drawn_decks();
	test_print_load();
	test_chunked_decks();
	return check_finish();
}

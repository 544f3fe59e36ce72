/*
 * model: what site_load builds from a small site (tests, topics,
 * questions, decks, cards, chapters, sections), the orders and defaults
 * format.md gives, and a table of author mistakes with their exact
 * diagnostics.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "markdown.h"
#include "model.h"
#include "site.h"
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

/* Every doc's tree open (doc_tree_open), for looking at node pointers; S_trees_close after. */
static struct doc_tree **
S_trees_open(struct site *site)
{
	struct doc_tree **v = xcalloc(site->ndocs + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < site->ndocs; i++)
		v[i] = doc_tree_open(site->docs[i]);
	return v;
}

/* The open tree of doc d among v (S_trees_open). */
static const struct doc_tree *
S_tree(const struct site *site, struct doc_tree *const *v, const struct doc *d)
{
	size_t i;

	for (i = 0; i < site->ndocs; i++)
		if (site->docs[i] == d)
			return v[i];
	return NULL;
}

static void
S_trees_close(struct site *site, struct doc_tree **v)
{
	size_t i;

	for (i = site->ndocs; i-- > 0;)
		doc_tree_close(v[i]);
	free(v);
}

static void
test_structure(void)
{
	struct doc_tree **trees;
	struct site site;
	struct diag_list dl;
	struct test *t;
	struct topic *tp;
	struct question *q;
	const struct question_nodes *qn;
	struct deck *dk;
	const struct doc_tree *tr;
	struct doc_tree *again;
	size_t i;
	char *summary, *text;
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
	trees = S_trees_open(&site);

	CHECK_INT(site.ntests, 2, "two tests");
	CHECK_STR(site.ntests == 2 ? site.tests[0]->slug : NULL, "b-test", "weighted test first");
	CHECK_STR(site.ntests == 2 ? site.tests[1]->slug : NULL, "a-single", "then the other");
	CHECK(site.home && strcmp(site.home->url, "index.html") == 0, "home page");

	t = S_test(&site, "b-test");
	if (t != NULL) {
		CHECK_STR(t->title, "Bee", "test title from _index.md");
		CHECK_STR(t->description, "The bee test.", "test description");
		CHECK_STR(t->url, "quiz/b-test/index.html", "test url");
		CHECK(doc_tree_intro(S_tree(&site, trees, t->index))->first != NULL, "test intro");
		CHECK_INT(t->ntopics, 2, "two topics");
		CHECK_STR(t->topics[0]->slug, "z-topic", "weighted topic first");
		CHECK_STR(t->topics[1]->slug, "a-topic", "unweighted after");
		CHECK_INT(t->nquestions, 5, "five questions");
		CHECK_INT(t->count[DIFF_EASY], 2, "two easy");
		CHECK_INT(t->count[DIFF_MEDIUM], 1, "one medium");
		CHECK_INT(t->count[DIFF_HARD], 2, "two hard");
		tp = t->topics[0];
		CHECK_STR(tp->title, "Zed topic", "topic title");
		tr = S_tree(&site, trees, tp->doc);
		CHECK(doc_tree_intro(tr)->first != NULL &&
		    doc_tree_intro(tr)->first == doc_tree_intro(tr)->last, "topic intro: one block");
		CHECK_INT(tp->nquestions, 3, "three questions");
		q = &tp->questions[0];
		CHECK_STR(q->id, "q-default", "explicit id");
		CHECK_STR(q->stem_text, "Default difficulty?", "stem text without attributes");
		CHECK_INT(q->difficulty, DIFF_HARD, "difficulty from _index.md");
		CHECK_INT(q->line, 7, "heading line");
		qn = doc_tree_question(tr, q);
		CHECK(qn != NULL, "the question's nodes are in its topic's tree");
		CHECK(qn->stem.first && qn->stem.first == qn->stem.last, "one further stem block");
		CHECK(qn->hint != NULL, "a hint");
		CHECK_INT(q->noptions, 3, "three options");
		CHECK(q->noptions == 3 && !q->options[0].correct && q->options[1].correct &&
		    q->options[2].correct, "correctness");
		CHECK(q->noptions == 3 && qn->options[0].feedback && !qn->options[1].feedback,
		    "per-option feedback");
		CHECK_INT(q->noptions == 3 ? q->options[0].line : 0, 13, "option line");
		CHECK_INT(q->multi, 1, "two [x] make it multi");
		CHECK(qn->explanation.first && qn->explanation.first != qn->explanation.last,
		    "two explanation blocks");
		CHECK_INT(strlen(q->fingerprint), 16, "a fingerprint");
		CHECK_INT(q->sample, 0, "not a sample");
		text = md_plain_text(qn->heading);
		CHECK_STR(text, "Default difficulty?", "its heading, attributes taken off");
		free(text);
		CHECK(doc_tree_question(S_tree(&site, trees, t->topics[1]->doc), q) == NULL,
		    "another topic's tree has not got it");
		/* d is only read: a second tree of the same doc, open at once, has nodes of its own. */
		again = doc_tree_open(tp->doc);
		CHECK(doc_tree_question(again, q) && doc_tree_question(again, q)->heading != qn->heading &&
		    doc_tree_question(again, q)->explanation.first != NULL, "a doc opened twice at once");
		doc_tree_close(again);
		q = &tp->questions[1];
		CHECK_STR(q->id, "marked-easy", "slug id");
		CHECK_INT(q->difficulty, DIFF_EASY, ".easy");
		CHECK_INT(q->sample, 0, "an explicit .sample elsewhere: no default samples");
		CHECK_INT(q->multi, 0, "single answer");
		qn = doc_tree_question(tr, q);
		CHECK(qn && qn->hint == NULL && qn->stem.first == NULL, "no hint, no stem blocks");
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
		tr = S_tree(&site, trees, t->index);
		CHECK(doc_tree_intro(tr)->first != NULL && doc_tree_intro(tr)->first == doc_tree_intro(tr)->last,
		    "the text before the first ## introduces the test (the # title is left out)");
		CHECK(t->topics[0]->doc == t->index, "its topic is the same file (and has no intro of its own)");
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
		tr = S_tree(&site, trees, dk->doc);
		CHECK(doc_tree_intro(tr)->first != NULL, "deck intro");
		CHECK_INT(dk->ncards, 3, "three cards");
		CHECK_STR(dk->cards[0].id, "dp", "explicit card id");
		CHECK_STR(dk->cards[0].label, "Dp", "label");
		CHECK_INT(dk->cards[0].number, 1, "number 1");
		CHECK_STR(dk->cards[0].front_text, "What is data parallelism?", "front");
		CHECK_STR(dk->cards[1].id, "tensor-parallel-comms", "slug card id");
		CHECK_STR(dk->cards[1].label, "Tensor-parallel-comms", "its label");
		CHECK(dk->ncards == 3 && doc_tree_card(tr, &dk->cards[1])->back.first &&
		    doc_tree_card(tr, &dk->cards[1])->back.first != doc_tree_card(tr, &dk->cards[1])->back.last,
		    "a back of two blocks");
		text = dk->ncards == 3 ? md_plain_text(doc_tree_card(tr, &dk->cards[0])->heading) : NULL;
		CHECK_STR(text, "What is data parallelism?", "a card's heading");
		free(text);
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
	S_trees_close(&site, trees);
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

/*
 * What makes a typed answer: `\=` is an ordinary option showing "="
 * (after front matter, and after any spaces), and a number's digits
 * may be grouped in threes by spaces.
 */
static void
test_typed_forms(void)
{
	struct site site;
	struct diag_list dl;
	struct test *t;
	struct question *q;

	CHECK_GROUP("typed forms");
	fixture_begin();
	fixture_put("content/quiz/ops.md",
	    "+++\ntitle = \"Operators\"\n+++\n"
	    "## Which operator assigns in C? {#assign}\n\n- [x] \\= assigns\n- [ ] \\== compares\n"
	    "- [ ]   \\=== is JavaScript's\n\nOne.\n\n"
	    "## How many steps? {#steps}\n\n- [x] = 10 000 \xc2\xb1 1 000\n- [ ]   = 1\xe2\x80\xaf" "000\n\nMany.\n");
	fixture_load(&site, &dl);
	CHECK_STR(fixture_diags(&dl), "", "no diagnostics");
	t = S_test(&site, "ops");
	q = t && t->ntopics == 1 && t->topics[0]->nquestions == 2 ? &t->topics[0]->questions[0] : NULL;
	CHECK(q != NULL, "two questions");
	if (q != NULL) {
		CHECK_INT(q->kind, ANSWER_CHOICE, "\\= makes an ordinary option");
		CHECK_INT(q->noptions, 3, "of three options");
		q++;
		CHECK_INT(q->kind, ANSWER_NUMBER, "= 10 000 is a number");
		CHECK(q->noptions == 2 && q->options[0].min == 9000 && q->options[0].max == 11000,
		    "10 000 \xc2\xb1 1 000 accepts 9000 to 11000");
		CHECK(q->noptions == 2 && q->options[1].min == 1000 && !q->options[1].correct,
		    "a narrow no-break space groups too");
	}
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
		  "content/quiz/t/x.md:4:7: error: unknown class .medum on a question; expected .easy, .medium, .hard, .sample or .exact: did you mean .medium?" },
		{ "an unknown class far from any", "content/quiz/t/x.md", "## Q {#q .easy .big}\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:4:16: error: unknown class .big on a question; expected .easy, .medium, .hard, .sample or .exact" },
		{ "a key on a question", "content/quiz/t/x.md", "## Q {.easy points=2 level=hard}\n\n- [x] a\n- [ ] b\n\nWhy.\n",
		  "content/quiz/t/x.md:4:13: warning: unknown attribute points= on question \"q\" is ignored: a question's heading takes {#id .easy .medium .hard .sample .exact}\n"
		  "content/quiz/t/x.md:4:22: warning: unknown attribute level= on question \"q\" is ignored: a question's heading takes {#id .easy .medium .hard .sample .exact}; write .hard instead" },
		{ "all options correct", "content/quiz/t/x.md", "## Q\n\n- [x] a\n- [x] b\n\nWhy.\n",
		  "content/quiz/t/x.md:6:1: warning: question \"q\" marks all 2 options correct, so no answer can be wrong: mark the wrong ones [ ]" },
		{ "a question written ###", "content/quiz/t/x.md",
		  "## Q\n\n- [x] a\n- [ ] b\n\nWhy.\n\n#### R?\n\nStem.\n\n- [x] a\n- [ ] b\n",
		  "content/quiz/t/x.md:11:1: warning: this #### heading and the task list after it look like a question, but they are part of question \"q\"'s explanation: a question is a ## heading" },
		{ "a sub-heading in an explanation", "content/quiz/t/x.md",
		  "## Q\n\n- [x] a\n- [ ] b\n\nWhy.\n\n### More?\n\n- one\n- two\n", "" },
		{ "a task list in a list", "content/quiz/t/x.md", "## Q\n\n- [x] a\n- [ ] b\n\nWhy.\n\n- steps\n    - [ ] one\n",
		  "content/quiz/t/x.md:12:5: warning: a task list inside another block shows as a checklist nobody can tick: a question's options are a task list of its own after its ## heading; write a plain list (- item) here" },
		{ "a task list after a sub-heading's text", "content/quiz/t/x.md",
		  "## Q\n\n- [x] a\n- [ ] b\n\n### More\n\n- [ ] c\n\nText.\n\n- [ ] d\n",
		  "content/quiz/t/x.md:9:1: warning: this ### heading and the task list after it look like a question, but they are part of question \"q\"'s explanation: a question is a ## heading\n"
		  "content/quiz/t/x.md:15:1: warning: a task list in question \"q\"'s explanation shows as a checklist nobody can tick: a question's options are the first task list after its ## heading; start a new question with ##, or write a plain list (- item)" },
		{ "feedback not indented", "content/quiz/t/x.md", "## Q\n\n- [x] a\n- [ ] b\n> No.\n- [ ] c\n\nWhy.\n",
		  "content/quiz/t/x.md:8:1: warning: this block quote ends question \"q\"'s options after option 2, and the options below it become a checklist in the explanation: indent the > lines under the option to make them its feedback" },
		{ "feedback indented", "content/quiz/t/x.md", "## Q\n\n- [x] a\n- [ ] b\n  > No.\n- [ ] c\n\nWhy.\n", "" },
		{ "a quote after a blank line opens the explanation", "content/quiz/t/x.md",
		  "## Q\n\n- [x] a\n- [ ] b\n    - c\n\n> Why.\n", "" },
		{ "a card written ###", "content/cards/d.md", "## A\n\nB.\n\n### C {#c}\n\nD.\n",
		  "content/cards/d.md:8:1: warning: this ### heading looks like a card's front, but it and what follows are on the back of card \"a\": a card is a ## heading (for a heading on the back, write **bold text**)" },
		{ "a sub-heading on a card's back", "content/cards/d.md", "## A\n\nB.\n\n### Example\n\nD.\n\n### Why?\n", "" },
		{ "a class on a card", "content/cards/d.md", "## A {#a .hard}\n\nB.\n",
		  "content/cards/d.md:4:10: warning: class .hard on card \"a\" is ignored: a card's heading takes {#id}, .reverse and .noreverse" },
		{ "attributes on a chapter's heading", "content/guide/g.md", "# G\n\n### H {.wide id=h}\n",
		  "content/guide/g.md:3:8: warning: class .wide on heading \"h\" is ignored: a heading takes only {#id}\n"
		  "content/guide/g.md:3:14: warning: unknown attribute id= on heading \"h\" is ignored: a heading takes only {#id}; write #h instead" },
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

/* Loads the fixture; its diagnostics must name `where` ("ring.md:7:"). */
static void
S_load_at(struct site *site, struct diag_list *dl, const char *where)
{
	struct site_options none = { 0 };

	diag_init(dl);
	site_load(site, fixture_root, &none, dl);
	links_resolve(site, dl);
	outputs_check(site, dl);
	diag_sort(dl);
	CHECK(strstr(fixture_diags(dl), where) != NULL, "the broken link is reported at its line");
}

/*
 * A chapter's sections: every heading, in a quote or a list too, with
 * its id set on the heading and its attribute block taken off the text.
 */
static void
test_chapter_sections(void)
{
	static const char chapter[] =
	    "+++\ntitle = \"Ring\"\n+++\n\n"
	    "# Ring {#ring-top}\n\nSee [the tree](tree.md#leaves) and [nowhere](gone.md).\n\n"
	    "> ## In a quote {.aside}\n\n"
	    "## Steps\n\n- item\n\n  ### Nested in an item\n";
	static const char *const want_ids[] = { "ring-top", "in-a-quote", "steps", "nested-in-an-item" };
	struct site site;
	struct diag_list dl;
	struct chapter *c = NULL;
	struct doc_tree *tree;
	cmark_iter *it;
	size_t i;

	CHECK_GROUP("chapter sections");
	fixture_begin();
	fixture_put("content/guide/ring.md", chapter);
	fixture_put("content/guide/tree.md", "# Tree\n\n## Leaves\n\nBack to [the ring](ring.md#steps).\n");
	S_load_at(&site, &dl, "ring.md:7:");
	for (i = 0; i < site.nchapters; i++)
		if (strcmp(site.chapters[i]->slug, "ring") == 0)
			c = site.chapters[i];
	CHECK(c != NULL && c->nsections == 4, "the chapter is in the guide, with four sections");
	tree = c ? doc_tree_open(c->doc) : NULL;
	/* Every heading of the tree, in document order, is its section's. */
	i = 0;
	it = tree ? cmark_iter_new(doc_tree_root(tree)) : NULL;
	while (it && cmark_iter_next(it) != CMARK_EVENT_DONE) {
		cmark_node *h = cmark_iter_get_node(it);
		const struct section *s;
		char *text;

		if (cmark_iter_get_event_type(it) != CMARK_EVENT_ENTER ||
		    cmark_node_get_type(h) != CMARK_NODE_HEADING)
			continue;
		s = doc_tree_section_at(tree, h);
		CHECK(s != NULL && i < 4 && s == c->sections[i], "heading %zu is section %zu", i + 1, i + 1);
		CHECK_STR(s ? s->id : NULL, i < 4 ? want_ids[i] : NULL, "with its id");
		text = md_plain_text(h);
		CHECK(text && strchr(text, '{') == NULL, "attribute blocks are taken off the text");
		free(text);
		i++;
	}
	CHECK_INT(i, 4, "four headings");
	if (it)
		cmark_iter_free(it);
	CHECK(tree && doc_tree_section_at(tree, cmark_node_next(cmark_node_first_child(doc_tree_root(tree)))) == NULL,
	    "the paragraph after the title has no section");
	doc_tree_close(tree);
	fixture_end(&site, &dl);
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

/*
 * A question's links are counted for the question they are in (its
 * stem, explanation or options), and without a .sample anywhere in the
 * test the first two easy questions are its samples.
 */
static void
test_question_links(void)
{
	static const char links[] =
	    "+++\ntitle = \"Links\"\n+++\n"
	    "Read [the ring](../../guide/ring.md) first.\n\n"
	    "## First {.easy}\n\nStem, [steps](../../guide/ring.md#steps).\n\n- [x] a\n- [ ] b\n\n"
	    "Why: [the tree](../../guide/ring.md#tree) and [gone](gone.md).\n\n"
	    "## Second {.easy}\n\n- [x] a\n- [ ] b\n\nSee [the first](#first).\n\n"
	    "## Third {.easy}\n\n- [x] a\n- [ ] [the tree](../../guide/ring.md#tree)\n\nWhy.\n";
	struct site site;
	struct diag_list dl;
	struct topic *tp;
	char *a;

	CHECK_GROUP("question links");
	fixture_begin();
	fixture_put("content/quiz/t/_index.md", "# T\n");
	fixture_put("content/quiz/t/links.md", links);
	fixture_put("content/guide/ring.md", "# Ring\n\n## Steps\n\n## Tree\n");
	S_load_at(&site, &dl, "links.md:13:");
	tp = S_topic(&site, "links");
	CHECK(tp != NULL && tp->nquestions == 3, "the topic is in the test, with three questions");
	if (tp != NULL && tp->nquestions == 3) {
		a = S_links_to(tp);
		CHECK_STR(a, "first>steps,tree,;second>;third>tree,;", "links are counted for the question they are in");
		free(a);
		CHECK(tp->questions[0].sample && tp->questions[1].sample && !tp->questions[2].sample,
		    "the first two easy questions are the samples");
	}
	fixture_end(&site, &dl);
}

int
main(void)
{
	test_structure();
	test_summary_singular();
	test_typed_forms();
	test_mistakes();
	test_chapter_sections();
	test_question_links();
	return check_finish();
}

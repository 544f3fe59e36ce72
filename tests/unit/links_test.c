/*
 * links: the resolver (where each kind of destination leads), every kind
 * of broken link with its exact diagnostic and position, reference
 * definitions reported once, backlinks, and URL safety.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "links.h"
#include "model.h"
#include "util.h"
#include "site_fixture.h"

static void
test_url_safety(void)
{
	static const struct {
		const char *url;
		int image, safe;
	} cases[] = {
		{ "guide/x.md", 0, 1 },
		{ "#frag", 0, 1 },
		{ "https://example.com/a:b", 0, 1 },
		{ "mailto:a@b.c", 0, 1 },
		{ "javascript:alert(1)", 0, 0 },
		{ "JavaScript:alert(1)", 0, 0 },
		{ " javascript:x", 0, 0 },
		{ "java\tscript:x", 0, 0 },
		{ "java\nscript:x", 1, 0 },
		{ "vbscript:x", 0, 0 },
		{ "file:///etc/passwd", 0, 0 },
		{ "data:text/html,<b>", 0, 0 },
		{ "data:image/png;base64,AAAA", 0, 0 },
		{ "data:image/png;base64,AAAA", 1, 1 },
		{ "data:image/svg+xml,<svg>", 1, 0 },
		{ "DATA:IMAGE/JPEG;base64,AA", 1, 1 },
		{ "x/javascript:y", 0, 1 },
		{ "./javascript:y", 0, 1 },
		{ "", 0, 1 },
	};
	size_t i, k;

	CHECK_GROUP("url safety");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char shown[64];

		/* Control characters would break the one-line report. */
		for (k = 0; cases[i].url[k] && k + 1 < sizeof(shown); k++)
			shown[k] = (unsigned char)cases[i].url[k] < 0x20 ? '?' : cases[i].url[k];
		shown[k] = '\0';
		CHECK_INT(links_url_is_safe(cases[i].url, cases[i].image), cases[i].safe,
		    "\"%s\"%s", shown, cases[i].image ? " (image)" : "");
	}
}

static const char ring_md[] =
    "+++\ntitle = \"Ring\"\n+++\n"
    "# Ring all-reduce\n"                         /* 4 */
    "\n"
    "## Phases {#phases}\n"                       /* 6 */
    "\n"
    "## Cost\n"                                   /* 8 */
    "\n"
    "## Cost\n"                                   /* 10 */
    "\n"
    "![figure](ring.svg) [self](#cost-1) [bad self](#cots)\n";   /* 12 */

static const char topic_md[] =
    "+++\ntitle = \"Topic\"\n+++\n"
    "## Q one {#q1}\n"                            /* 4 */
    "\n"
    "- [ ] a\n"
    "- [x] b\n"
    "\n"
    "See [phases](../../guide/ring.md#phases), [chapter](../../guide/ring.md) and\n"
    "  [ref][ph] and [cost][] and [Cost].\n"      /* 10 */
    "\n"
    "[ph]: ../../guide/ring.md#phases\n"          /* 12 */
    "[cost]: ../../guide/ring.md#cost\n"
    "[missing]: ../../guide/ring.md#nothing-here\n";   /* 14 */

static const char deck_md[] =
    "+++\ntitle = \"Deck\"\n+++\n"
    "## Card {#c1}\n"
    "\n"
    "[q](../quiz/t/topic.md#q1) [topic](../quiz/t/topic.md) [test](../quiz/t/_index.md)\n"
    "[folder](../quiz/t/) [phases](../guide/ring.md#phases) [home](../index.md)\n";

static void
S_target(const struct site *site, const char *from, const char *dest, const char *want)
{
	const struct doc *d = site_doc(site, from);
	char *got = d ? links_output_target(site, d, dest) : xstrdup("(no doc)");

	CHECK_STR(got, want, "%s: %s", from, dest);
	free(got);
}

static void
test_resolve(void)
{
	struct site site;
	struct diag_list dl;
	const struct doc *d;
	const struct anchor *a;
	struct section *phases = NULL;
	struct question *q;

	CHECK_GROUP("resolve");
	fixture_begin();
	fixture_put("content/index.md", "# Home\n");
	fixture_put("content/guide/ring.md", ring_md);
	fixture_put("content/guide/ring.svg", "<svg/>");
	fixture_put("content/guide/part/_index.md", "# Part\n");
	fixture_put("content/guide/part/deep.md", "# Deep\n\n[up](../ring.md#phases) ![i](../ring.svg) [p](./)\n");
	fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
	fixture_put("content/quiz/t/topic.md", topic_md);
	fixture_put("content/cards/d.md", deck_md);
	fixture_load(&site, &dl);
	CHECK_STR(fixture_diags(&dl),
	    "content/guide/ring.md:12:37: error: broken link \"#cots\": content/guide/ring.md has no heading with id \"cots\"; did you mean \"cost\"?\n"
	    "content/quiz/t/topic.md:14:1: error: broken link \"../../guide/ring.md#nothing-here\": content/guide/ring.md has no heading with id \"nothing-here\"; "
	    "its ids are \"ring-all-reduce\", \"phases\", \"cost\" and \"cost-1\"",
	    "only the broken ones, each once");

	S_target(&site, "quiz/t/topic.md", "../../guide/ring.md#phases", "guide/ring/index.html#phases");
	S_target(&site, "quiz/t/topic.md", "../../guide/ring.md", "guide/ring/index.html");
	S_target(&site, "quiz/t/topic.md", "#q1", "quiz/t/index.html#q1");
	S_target(&site, "cards/d.md", "../quiz/t/topic.md#q1", "quiz/t/index.html#q1");
	S_target(&site, "cards/d.md", "../quiz/t/topic.md", "quiz/t/index.html#topic-topic");
	S_target(&site, "cards/d.md", "../quiz/t/_index.md", "quiz/t/index.html");
	S_target(&site, "cards/d.md", "../quiz/t/", "quiz/t/index.html");
	S_target(&site, "cards/d.md", "../quiz/t", "quiz/t/index.html");
	S_target(&site, "cards/d.md", "../index.md", "index.html");
	S_target(&site, "cards/d.md", "#c1", "cards/d/index.html#c1");
	S_target(&site, "guide/ring.md", "#cost-1", "guide/ring/index.html#cost-1");
	S_target(&site, "guide/ring.md", "ring.svg", "guide/ring.svg");
	S_target(&site, "guide/ring.md", "./ring.svg?v=2", "guide/ring.svg");
	S_target(&site, "guide/ring.md", "part/deep.md", "guide/part/deep/index.html");
	S_target(&site, "guide/ring.md", "part/_index.md", "guide/part/index.html");
	S_target(&site, "guide/ring.md", "part/", "guide/part/index.html");
	S_target(&site, "guide/part/deep.md", "../ring.svg", "guide/ring.svg");
	S_target(&site, "guide/ring.md", "https://example.com/x.md", NULL);
	S_target(&site, "guide/ring.md", "//cdn.example.com/x", NULL);
	S_target(&site, "guide/ring.md", "mailto:a@b.c", NULL);
	S_target(&site, "guide/ring.md", "missing.md", NULL);
	S_target(&site, "guide/ring.md", "ring.md#nope", NULL);

	CHECK_INT(site.nassets, 1, "one asset, linked twice");
	CHECK_STR(site.nassets ? site.assets[0].url : NULL, "guide/ring.svg", "kept at its path");
	CHECK_INT(site.stats.links, 17, "every relative link and image counted");

	d = site_doc(&site, "guide/ring.md");
	a = d ? doc_anchor(d, "phases") : NULL;
	CHECK(a && a->kind == ANCHOR_HEADING && a->u.section, "the phases section");
	if (a)
		phases = a->u.section;
	CHECK(d && doc_anchor(d, "cost") && doc_anchor(d, "cost-1"), "repeated heading gets -1");
	CHECK(d && doc_anchor(d, "ring-all-reduce"), "the # heading is a section too");
	d = site_doc(&site, "quiz/t/topic.md");
	a = d ? doc_anchor(d, "q1") : NULL;
	q = a && a->kind == ANCHOR_QUESTION ? a->u.question : NULL;
	CHECK(q != NULL, "the question anchor");
	if (phases && q) {
		CHECK_INT(phases->backlinks.len, 2, "phases is linked from a question and a card");
		CHECK(phases->backlinks.len == 2 && phases->backlinks.v[0].kind == XREF_QUESTION &&
		    phases->backlinks.v[0].u.question == q, "the question first (model order)");
		CHECK(phases->backlinks.len == 2 && phases->backlinks.v[1].kind == XREF_CARD,
		    "then the card");
		CHECK_INT(q->links_to.len, 2, "the question links to two sections, once each");
		CHECK(q->links_to.len == 2 && q->links_to.v[0] == phases, "phases first");
		CHECK_STR(q->links_to.len == 2 ? q->links_to.v[1]->id : NULL, "cost", "then cost");
		CHECK_INT(phases->chapter->backlinks.len, 1, "the chapter link without an anchor");
	}
	fixture_end(&site, &dl);
}

/* Each broken link alone in a chapter, with the exact diagnostic. */
static void
test_broken(void)
{
	static const struct {
		const char *name, *line, *want;
	} cases[] = {
		{ "no such file", "[a](missing.md)",
		  "content/guide/x.md:3:1: error: broken link \"missing.md\": no file content/guide/missing.md" },
		{ "a page's URL", "See [a](ring.html#phases).",
		  "content/guide/x.md:3:5: error: broken link \"ring.html#phases\": no file content/guide/ring.html; "
		  "did you mean \"ring.md#phases\"? (a link names the Markdown file, and the page's URL is made from it)" },
		{ "a page's name", "See [a](../guide/ring).",
		  "content/guide/x.md:3:5: error: broken link \"../guide/ring\": no file content/guide/ring; "
		  "did you mean \"ring.md\"? (a link names the Markdown file, and the page's URL is made from it)" },
		{ "an HTML name with no page", "See [a](notes.html).",
		  "content/guide/x.md:3:5: error: broken link \"notes.html\": no file content/guide/notes.html" },
		{ "a far anchor among many", "[a](many.md#zzzzzz)",
		  "content/guide/x.md:3:1: error: broken link \"many.md#zzzzzz\": content/guide/many.md has no heading with id \"zzzzzz\"; "
		  "its first ids are \"many\", \"first\", \"second\", \"third\", \"fourth\" (7 in all)" },
		{ "a near file", "See [a](rign.md).",
		  "content/guide/x.md:3:5: error: broken link \"rign.md\": no file content/guide/rign.md; did you mean \"ring.md\"?" },
		{ "no such anchor", "[a](ring.md#nope)",
		  "content/guide/x.md:3:1: error: broken link \"ring.md#nope\": content/guide/ring.md has no heading with id \"nope\"; its ids are \"ring\" and \"phases\"" },
		{ "anchors are case-sensitive", "[a](ring.md#Phases)",
		  "content/guide/x.md:3:1: error: broken link \"ring.md#Phases\": content/guide/ring.md has no heading with id \"Phases\"; did you mean \"phases\"?" },
		{ "same page", "[a](#nowhere)",
		  "content/guide/x.md:3:1: error: broken link \"#nowhere\": content/guide/x.md has no heading with id \"nowhere\"; its only id is \"top\"" },
		{ "outside content", "[a](../../x.md)",
		  "content/guide/x.md:3:1: error: broken link \"../../x.md\": it leads outside content/" },
		{ "root path", "[a](/guide/ring.md)",
		  "content/guide/x.md:3:1: error: broken link \"/guide/ring.md\": a path from the root (/...) does not work offline: write it relative to this file" },
		{ "a draft: allowed, one warning at the draft", "[a](draft.md)",
		  "content/guide/draft.md:2:9: warning: this draft is linked from content/guide/x.md:3:1: the link shows as plain text until the draft is published (draft = false)" },
		{ "not a page", "[a](../README.md)",
		  "content/guide/x.md:3:1: error: broken link \"../README.md\": content/README.md is not a page of the site (pages are index.md and the files in quiz/, cards/ and guide/)" },
		{ "an image", "text ![a](nope.png)",
		  "content/guide/x.md:3:6: error: broken image \"nope.png\": no file content/guide/nope.png" },
		{ "a question", "[a](../quiz/t/topic.md#q2)",
		  "content/guide/x.md:3:1: error: broken link \"../quiz/t/topic.md#q2\": content/quiz/t/topic.md has no question with id \"q2\"; did you mean \"q1\"?" },
		{ "a card", "[a](../cards/d.md#c9)",
		  "content/guide/x.md:3:1: error: broken link \"../cards/d.md#c9\": content/cards/d.md has no card with id \"c9\"; did you mean \"c1\"?" },
		{ "an unsafe URL", "[a](javascript:alert(1))",
		  "content/guide/x.md:3:1: warning: link to an unsafe URL \"javascript:alert(1)\" is left out of the output" },
		{ "list continuation", "- item\n  more [a](nope.md)",
		  "content/guide/x.md:4:8: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "lazy line in a quote", "> quote\nlazy [a](nope.md)",
		  "content/guide/x.md:4:6: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "quote in a list", "- > a\n  > b *c* [a](nope.md)",
		  "content/guide/x.md:4:11: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "third line of a paragraph", "One line.\nTwo lines.\nThree [a](nope.md)",
		  "content/guide/x.md:5:7: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "a list whose last item links", "- one\n- two\n\n  still two\n- three [a](nope.md)",
		  "content/guide/x.md:7:9: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "table cell", "| a | b |\n|---|---|\n| x | [a](nope.md) |",
		  "content/guide/x.md:5:7: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "in a heading", "## See [a](nope.md)",
		  "content/guide/x.md:3:8: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "in a footnote", "x[^1]\n\n[^1]: See [a](nope.md).",
		  "content/guide/x.md:5:11: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "reference used twice", "[a][r] and [b][r]\n\n[r]: nope.md",
		  "content/guide/x.md:5:1: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "unused definition", "Text.\n\n   [r]: <nope.md> \"title\"",
		  "content/guide/x.md:5:4: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "definition in a quote", "> [r]: nope.md\n\n[a][r]",
		  "content/guide/x.md:3:3: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "code is not checked", "`[a](nope.md)`\n\n```\n[r]: nope.md\n[a](nope.md)\n```\n\n    [a](nope.md)",
		  "" },
		{ "escaped in a definition", "[a][r]\n\n[r]: ring\\_x.md",
		  "content/guide/x.md:5:1: error: broken link \"ring_x.md\": no file content/guide/ring_x.md; did you mean \"ring.md\"?" },
		{ "percent-encoded", "[a](with%20space.md) [b](<with space.md>) [c](with%2520.md)",
		  "content/guide/x.md:3:43: error: broken link \"with%2520.md\": no file content/guide/with%20.md" },
		{ "two on a continuation line", "a\n[b](nope.md) and [c](nope2.md)",
		  "content/guide/x.md:4:1: error: broken link \"nope.md\": no file content/guide/nope.md\n"
		  "content/guide/x.md:4:18: error: broken link \"nope2.md\": no file content/guide/nope2.md" },
		{ "image in a link", "[![i](nope.png)](ring.md)",
		  "content/guide/x.md:3:2: error: broken image \"nope.png\": no file content/guide/nope.png" },
		{ "a paragraph that looks like a definition", "Text.\n\n[note]: this is no link\n\n[x]: <a b> c",
		  "" },
		{ "a definition with a title", "[a][r]\n\n[r]: nope.md 'A title'",
		  "content/guide/x.md:5:1: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "a definition with its title below", "[a][r]\n\n[r]: nope.md\n  (A title)",
		  "content/guide/x.md:5:1: error: broken link \"nope.md\": no file content/guide/nope.md" },
		{ "good links", "[a](ring.md) [b](ring.md#phases) [c](./ring.md) [d](../guide/ring.md#phases) [e](x.md#top) [f](#top)",
		  "" },
	};
	size_t i;

	CHECK_GROUP("broken");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct site site;
		struct diag_list dl;
		char *text = xasprintf("# Top\n\n%s\n", cases[i].line);

		fixture_begin();
		fixture_put("content/guide/ring.md", "# Ring\n\n## Phases\n");
		fixture_put("content/guide/with space.md", "# Space\n");
		/* Sorted by id, the ids are not in reading order: listed by line. */
		fixture_put("content/guide/many.md",
		    "# Many\n\n## First\n\n## Second\n\n## Third\n\n## Fourth\n\n## Fifth\n\n## Sixth\n");
		fixture_put("content/guide/draft.md", "+++\ndraft = true\n+++\n# Draft\n");
		/* Not a page: its links are not the site's (and not checked). */
		fixture_put("content/README.md", "# About\n\n[x](../../outside.md)\n");
		fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
		fixture_put("content/quiz/t/topic.md",
		    "+++\ntitle = \"Topic\"\n+++\n## Q {#q1}\n\n- [ ] a\n- [x] b\n\nWhy.\n");
		fixture_put("content/cards/d.md", "# D\n\n## C {#c1}\n\nBack.\n");
		fixture_put("content/guide/x.md", text);
		fixture_load(&site, &dl);
		CHECK_STR(fixture_diags(&dl), cases[i].want, "%s", cases[i].name);
		fixture_end(&site, &dl);
		free(text);
	}
}

/*
 * Which links of a chapter show their question in place: only one that
 * is all of a top-level paragraph and leads to a question.
 */
static void
test_embeds(void)
{
	static const char chapter_md[] =
	    "# Ch\n"                                                   /* 1 */
	    "\n"
	    "[Shown](../quiz/t/topic.md#q1)\n"                          /* 3 */
	    "\n"
	    "In a sentence: [link](../quiz/t/topic.md#q1).\n"           /* 5 */
	    "\n"
	    "- [in a list](../quiz/t/topic.md#q1)\n"                    /* 7 */
	    "\n"
	    "> [in a quote](../quiz/t/topic.md#q1)\n"                   /* 9 */
	    "\n"
	    "[a topic, no question](../quiz/t/topic.md)\n"              /* 11 */
	    "\n"
	    "[a heading](#ch)\n"                                        /* 13 */
	    "\n"
	    "[Again](../quiz/t/topic.md#q1)\n";                         /* 15 */
	struct site site;
	struct diag_list dl;
	struct doc *d;
	size_t i, n = 0;

	CHECK_GROUP("embeds");
	fixture_begin();
	fixture_put("content/guide/ring.md", ring_md);
	fixture_put("content/guide/ring.svg", "<svg/>");
	fixture_put("content/guide/ch.md", chapter_md);
	fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
	fixture_put("content/quiz/t/topic.md", topic_md);
	fixture_load(&site, &dl);
	d = site_doc(&site, "guide/ch.md");
	CHECK(d != NULL, "the chapter");
	for (i = 0; d && i < d->nlinks; i++) {
		const struct doc_link *u = &d->links[i];

		if (u->embed == NULL)
			continue;
		n++;
		CHECK(u->line == 3 || u->line == 15, "an embed at line %d", u->line);
		CHECK_STR(u->embed->id, "q1", "the question shown");
	}
	CHECK_INT((long long)n, 2, "two paragraphs show a question");
	fixture_end(&site, &dl);
}

int
main(void)
{
	test_url_safety();
	test_resolve();
	test_broken();
	test_embeds();
	return check_finish();
}

/*
 * render_test: render_out_blocks into bytes writes, byte for byte, what
 * render_blocks' nodes serialise to (theme_serialize_children), for each
 * kind of block and inline, with and without section ids and footnotes.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "check.h"
#include "site_fixture.h"
#include "render.h"
#include "theme.h"

/* One chapter: a Markdown source and what it exercises. */
static const struct {
	const char *md;
	const char *what;
} cases[] = {
	{ "# T\n\nPlain *em* **strong** `code` ~~del~~ a<b & \"q\" 'a'\\\nbreak\nsoft\n", "inlines and escaping" },
	{ "# T\n\n## Two\n\ntext\n\n### Three `x`\n\n#### Four\n", "headings with ids and self-links" },
	{ "# T\n\n| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n| 4 | 5 |\n", "a table with a body" },
	{ "# T\n\n| a | b |\n|---|---|\n", "a table with only a header" },
	{ "# T\n\n- [ ] open\n- [x] done\n\n1. one\n2. two\n\n3. three\n\n   para\n\n> quote\n> - in list\n", "lists, task lists, quotes" },
	{ "# T\n\n```c title\nint <x> = 1 & 2;\n```\n\n    indented\n\n***\n", "code blocks and breaks" },
	{ "# T\n\n[in](b.md#here \"a \\\"title\\\" 'x'\") [out](https://example.com/a b?c=1&d=\xc3\xa9) "
	  "[bad](javascript:x) ![pic](p.png \"t\") ![gone](javascript:y) [self](#two) [page](b.md) "
	  "[same](a.md#two) [amp](c&d.md) <https://example.org/x>\n\n## Two\n", "links and images" },
	{ "# T\n\n[broken](nope.md) ![broken](nope.png) [anchor](b.md#here&x)\n", "broken links" },
	{ "# T\n\nA[^1] and[^2] again[^1] and[^9].\n\n[^1]: One.\n\n    code\n[^2]: Two *x*\n\n    more\n", "footnotes" },
	{ "# T\n\nctl\x01\x02 tab\there <!-- c --> &{x}\n\n<div>raw</div>\n", "controls and dropped raw HTML" },
};

static char *
S_nodes(struct render *r, cmark_node *first, cmark_node *last)
{
	xmlNodePtr holder = xmlNewNode(NULL, (const xmlChar *)"div");
	struct buf b;

	buf_init(&b);
	buf_put(&b, "", 0);
	render_blocks(r, holder, first, last);
	render_footnotes(r, holder);
	theme_serialize_children(holder, &b);
	xmlFreeNode(holder);
	return buf_detach(&b);
}

static char *
S_bytes(struct render *r, cmark_node *first, cmark_node *last)
{
	struct render_out o = { NULL, theme_writer_new() };
	struct buf b;

	buf_init(&b);
	buf_put(&b, "", 0);
	theme_writer_begin(o.w, &b);
	render_out_blocks(r, &o, first, last);
	render_out_footnotes(r, &o);
	CHECK_INT((long)theme_writer_depth(o.w), 0, "every element written is closed");
	theme_writer_free(o.w);
	return buf_detach(&b);
}

static void
S_compare(const struct site *site, const struct chapter *c, int with_sections, int copy,
    const char *what)
{
	struct doc_tree *tree = doc_tree_open(c->doc);
	struct render_opts o;
	struct render *r;
	cmark_node *first = cmark_node_first_child(doc_tree_root(tree));
	cmark_node *last = cmark_node_last_child(doc_tree_root(tree));
	char *want, *got;

	memset(&o, 0, sizeof(o));
	o.site = site;
	o.doc = c->doc;
	o.page_url = c->url;
	o.id_prefix = "";
	o.copy = copy;
	if (with_sections)
		o.chapter_tree = tree;
	CHECK(first != NULL, "%s: the tree is open", what);
	r = render_new(&o);
	want = S_nodes(r, first, last);
	render_free(r);
	r = render_new(&o);
	got = S_bytes(r, first, last);
	render_free(r);
	CHECK_STR(got, want, "%s (sections %d, copy %d)", what, with_sections, copy);
	free(got);
	free(want);
	doc_tree_close(tree);
}

static void
test_same_bytes(void)
{
	size_t i, k;

	CHECK_GROUP("render_out_blocks writes the bytes the nodes serialise to");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct site site;
		struct diag_list dl;

		fixture_begin();
		fixture_put("content/guide/a.md", cases[i].md);
		fixture_put("content/guide/b.md", "# B\n\n## Here\n");
		fixture_put("content/guide/p.png", "png");
		fixture_put("content/guide/c&d.md", "# C and D\n");
		fixture_load(&site, &dl);
		for (k = 0; k < site.nchapters; k++)
			if (strcmp(site.chapters[k]->slug, "a") == 0) {
				S_compare(&site, site.chapters[k], 1, 0, cases[i].what);
				S_compare(&site, site.chapters[k], 0, 0, cases[i].what);
				S_compare(&site, site.chapters[k], 1, 1, cases[i].what);
			}
		fixture_end(&site, &dl);
	}
}

/* Deeper than the renderer's element limit: the bytes stop nesting where the nodes do. */
static void
test_deep(void)
{
	struct site site;
	struct diag_list dl;
	struct buf md;
	size_t i;

	CHECK_GROUP("deep nesting");
	buf_init(&md);
	buf_puts(&md, "# T\n\n");
	for (i = 0; i < 100; i++)
		buf_puts(&md, "> ");
	buf_puts(&md, "- *deep* | a |\n");
	fixture_begin();
	fixture_put("content/guide/a.md", md.data);
	fixture_load(&site, &dl);
	CHECK_INT((long)site.nchapters, 1, "one chapter");
	if (site.nchapters == 1)
		S_compare(&site, site.chapters[0], 1, 0, "100 quotes deep");
	fixture_end(&site, &dl);
	buf_free(&md);
}

/* With unsafe_html the bytes come from nodes (raw HTML is grafted by libxml2): still the same. */
static void
test_unsafe(void)
{
	struct site site;
	struct diag_list dl;

	CHECK_GROUP("unsafe_html");
	fixture_begin();
	fixture_put("site.toml", "[markdown]\nunsafe_html = true\n");
	fixture_put("content/guide/a.md", "# T\n\n<div class=x>raw <b>bold</div>\n\na <span title=\"t\">in *em*</span> &amp; "
	    "<i>open\n\n## H\n\n| a |\n|---|\n| <u>x</u> |\n");
	fixture_load(&site, &dl);
	CHECK_INT((long)site.nchapters, 1, "one chapter");
	if (site.nchapters == 1)
		S_compare(&site, site.chapters[0], 1, 0, "raw HTML blocks and inlines");
	fixture_end(&site, &dl);
}

int
main(void)
{
	test_same_bytes();
	test_unsafe();
	test_deep();
	return check_finish();
}

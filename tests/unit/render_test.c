/*
 * render_test: Markdown in, the exact HTML the renderer writes out, for
 * raw HTML with and without [markdown] unsafe_html (blocks, inline tags
 * opened in one inline and closed in a later one, unsafe URLs removed)
 * footnotes (references, definitions, back-links, in questions) and a
 * cloze heading blanked, answered and with Anki's markers.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "site_fixture.h"
#include "render.h"
#include "theme.h"

#define UNSAFE 1                /* the site sets [markdown] unsafe_html */
#define IDS 2                   /* headings get their sections' ids */

/* content/guide/a.md beside b.md (with a section "here") and p.png; the rendered body and footnotes. */
static const struct {
	const char *what;
	int flags;
	const char *md;
	const char *want;
} cases[] = {
	{ "a chapter's picture alone in its paragraph is a figure linked to itself; among words or in a link, not", IDS,
	  "![A p](p.png)\n\nText ![i](p.png) more.\n\n[![in a link](p.png)](b.md)\n",
	  "<p class=\"figure\"><a class=\"figure-link\" href=\"../p.png\"><img src=\"../p.png\" alt=\"A p\"></a></p>\n"
	  "<p>Text <img src=\"../p.png\" alt=\"i\"> more.</p>\n"
	  "<p><a href=\"../b/index.html\"><img src=\"../p.png\" alt=\"in a link\"></a></p>\n" },
	{ "a picture alone in its paragraph outside a chapter page stays a plain picture", 0,
	  "![A p](p.png)\n",
	  "<p><img src=\"../p.png\" alt=\"A p\"></p>\n" },
	{ "raw HTML is dropped without unsafe_html", 0,
	  "<div class=x>raw <b>bold</div>\n\ntext <b>in</b> <!-- c --> a<br>b\n",
	  "<p>text in  ab</p>\n" },
	{ "each raw HTML block is balanced by libxml2's parser, as libxml2 balances it", UNSAFE,
	  "<div class=x>raw <b>bold</div>\n\n<p>two\n<p>paras\n\nafter\n",
	  "<div class=\"x\">raw <b>bold</b></div><p>two\n"
	  "<p>paras\n"
	  "</p></p><p>after</p>\n" },
	{ "an HTML block is balanced alone: Markdown after its opening tag goes after it", UNSAFE,
	  "<details><summary>More</summary>\n\n*inside*\n\n</details>\n",
	  "<details><summary>More</summary>\n"
	  "</details><p><em>inside</em></p>\n" },
	{ "an inline tag opens an element the next inlines go into", UNSAFE,
	  "a <span title=\"t\">in *em* `c`</span> &amp; <i>open\n",
	  "<p>a <span title=\"t\">in <em>em</em> <code>c</code></span> &amp; <i>open</i></p>\n" },
	{ "a closing tag closes only the innermost element, of its name, opened in the container", UNSAFE,
	  "x</b> <b>y</i>z</b> *a <u>b* c</u> d</p>\n",
	  "<p>x <b>yz</b> <em>a <u>b</u></em> c d</p>\n" },
	{ "a heading's self-link goes after what raw HTML left open", UNSAFE | IDS,
	  "## Head <i>open\n\ntext\n",
	  "<h2 id=\"head-open\">Head <i>open</i> <a class=\"anchor\" href=\"#head-open\" aria-label=\"Link to this section\">#</a></h2>\n"
	  "<p>text</p>\n" },
	{ "void elements, self-closing tags, and an element libxml2 writes empty", UNSAFE,
	  "a<br>b <img src=\"p.png\" alt=\"p\"> <hr/> <wbr>c <param name=n>gone</param> kept\n",
	  "<p>a<br>b <img src=\"p.png\" alt=\"p\"> <hr> <wbr></wbr>c <param name=\"n\"> kept</p>\n" },
	{ "script text stays as written; comments, instructions and declarations", UNSAFE,
	  "x <script>1 < 2 && a</script> <style>p > b {}</style> y <!-- c --> <?pi x?> <!DOCTYPE y> <![CDATA[z]]>\n",
	  /* libxml2 drops the doctype and reads CDATA outside SVG and MathML as a paragraph. */
	  "<p>x <script>1 < 2 && a</script> <style>p > b {}</style> y <!-- c --> <?pi x?>  <p>![CDATA[z]]&gt;</p></p>\n" },
	{ "unsafe URLs are removed from raw HTML, the rest stays", UNSAFE,
	  "<a href=\"javascript:alert(1)\" title=t>x</a> <img src=\"JaVaScRiPt:y\" alt=a> "
	  "<a href=\"https://e.org/a b?c=1&amp;d=2\" onclick=\"f()\">ok</a> <a href=\"b.md\">raw</a>\n\n"
	  "<form action=\"javascript:x\"><button formaction=\"javascript:y\">b</button></form>\n\n"
	  "<object data=\"javascript:z\"></object><svg><a xlink:href=\"javascript:w\">s</a></svg>\n",
	  "<p><a title=\"t\">x</a> <img alt=\"a\"> <a href=\"https://e.org/a%20b?c=1&amp;d=2\" onclick=\"f()\">ok</a> <a href=\"b.md\">raw</a></p>\n"
	  "<form><button>b</button></form><p><object></object><svg><a>s</a></svg></p>\n" },
	{ "raw HTML in a table cell and a list", UNSAFE,
	  "| a | <b>b |\n|---|---|\n| <u>x</u> | y</b> |\n\n- <s>one\n- two</s>\n",
	  "<section class=\"table-wrap\" tabindex=\"0\" aria-label=\"Table: a, b\"><table>\n"
	  "<thead>\n"
	  "<tr><th scope=\"col\">a</th><th scope=\"col\"><b>b</b></th></tr>\n"
	  "</thead><tbody>\n"
	  "<tr><td><u>x</u></td><td>y</td></tr>\n"
	  "</tbody></table></section>\n"
	  "<ul>\n"
	  "<li><s>one</s></li>\n"
	  "<li>two</li>\n"
	  "</ul>\n" },
	{ "a table's scrolling region is named by its headings as text, empty ones left out; with none, \"Table\"", 0,
	  "| *x* `y` | | z |\n|---|---|---|\n| 1 | 2 | 3 |\n\n| | |\n|---|---|\n| 1 | 2 |\n",
	  "<section class=\"table-wrap\" tabindex=\"0\" aria-label=\"Table: x y, z\"><table>\n"
	  "<thead>\n"
	  "<tr><th scope=\"col\"><em>x</em> <code>y</code></th><th scope=\"col\"></th><th scope=\"col\">z</th></tr>\n"
	  "</thead><tbody>\n"
	  "<tr><td>1</td><td>2</td><td>3</td></tr>\n"
	  "</tbody></table></section>\n"
	  "<section class=\"table-wrap\" tabindex=\"0\" aria-label=\"Table\"><table>\n"
	  "<thead>\n"
	  "<tr><th scope=\"col\"></th><th scope=\"col\"></th></tr>\n"
	  "</thead><tbody>\n"
	  "<tr><td>1</td><td>2</td></tr>\n"
	  "</tbody></table></section>\n" },
	{ "footnotes: references, a repeat, one undefined, definitions and back-links", 0,
	  "A[^1] and[^2] again[^1] and[^9].\n\n[^1]: One *x*.\n\n[^2]: Two[^3]\n\n    code\n\n"
	  "[^3]: Three, referenced from a definition.\n",
	  "<p>A<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1\">1</a></sup> and<sup class=\"footnote-ref\"><a href=\"#fn-2\" id=\"fnref-2\">2</a></sup> again<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1-2\">1</a></sup> and[^9].</p>\n"
	  "<section class=\"footnotes\" aria-label=\"Footnotes\">\n"
	  "<ol>\n"
	  "<li id=\"fn-1\" value=\"1\"><p>One <em>x</em>. <a class=\"footnote-backref\" href=\"#fnref-1\" aria-label=\"Back to reference 1\">\xe2\x86\xa9</a></p>\n"
	  "</li>\n"
	  "<li id=\"fn-2\" value=\"2\"><p>Two<sup class=\"footnote-ref\"><a href=\"#fn-3\" id=\"fnref-3\">3</a></sup></p>\n"
	  "<p>code <a class=\"footnote-backref\" href=\"#fnref-2\" aria-label=\"Back to reference 2\">\xe2\x86\xa9</a></p>\n"
	  "</li>\n"
	  "<li id=\"fn-3\" value=\"3\"><p>Three, referenced from a definition. <a class=\"footnote-backref\" href=\"#fnref-3\" aria-label=\"Back to reference 3\">\xe2\x86\xa9</a></p>\n"
	  "</li>\n"
	  "</ol></section>\n" },
	{ "footnotes with raw HTML: the back-link goes into the last element when it is a p", UNSAFE,
	  "A[^1] B[^2] C[^3] D[^4]\n\n[^1]: Para.\n\n    <!-- after -->\n\n[^2]: Para.\n\n    <div>last</div>\n\n"
	  "[^3]: <p>raw p</p>\n\n[^4]: Open <b>bold\n",
	  "<p>A<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1\">1</a></sup> B<sup class=\"footnote-ref\"><a href=\"#fn-2\" id=\"fnref-2\">2</a></sup> C<sup class=\"footnote-ref\"><a href=\"#fn-3\" id=\"fnref-3\">3</a></sup> D<sup class=\"footnote-ref\"><a href=\"#fn-4\" id=\"fnref-4\">4</a></sup></p>\n"
	  "<section class=\"footnotes\" aria-label=\"Footnotes\">\n"
	  "<ol>\n"
	  "<li id=\"fn-1\" value=\"1\"><p>Para. <a class=\"footnote-backref\" href=\"#fnref-1\" aria-label=\"Back to reference 1\">\xe2\x86\xa9</a></p>\n"
	  "<!-- after --></li>\n"
	  "<li id=\"fn-2\" value=\"2\"><p>Para.</p>\n"
	  "<div>last</div> <a class=\"footnote-backref\" href=\"#fnref-2\" aria-label=\"Back to reference 2\">\xe2\x86\xa9</a></li>\n"
	  "<li id=\"fn-3\" value=\"3\"><p>raw p <a class=\"footnote-backref\" href=\"#fnref-3\" aria-label=\"Back to reference 3\">\xe2\x86\xa9</a></p></li>\n"
	  "<li id=\"fn-4\" value=\"4\"><p>Open <b>bold</b> <a class=\"footnote-backref\" href=\"#fnref-4\" aria-label=\"Back to reference 4\">\xe2\x86\xa9</a></p>\n"
	  "</li>\n"
	  "</ol></section>\n" },
};

/* The body of chapter a as the renderer writes it, then its footnotes. */
static char *
S_render(struct site *site, struct chapter *c, int ids)
{
	struct render_opts o;
	struct render_out out;
	struct doc_tree *tree = doc_tree_open(c->doc);
	struct render *r;
	struct buf b;

	memset(&o, 0, sizeof(o));
	o.site = site;
	o.doc = c->doc;
	o.page_url = c->url;
	o.id_prefix = "";
	if (ids)
		o.chapter_tree = tree;
	buf_init(&b);
	buf_put(&b, "", 0);
	memset(&out, 0, sizeof(out));
	out.w = theme_writer_new();
	theme_writer_begin(out.w, &b);
	r = render_new(&o);
	/* The first block is the title heading: a page writes it apart. */
	render_out_blocks(r, &out, cmark_node_next(cmark_node_first_child(doc_tree_root(tree))),
	    cmark_node_last_child(doc_tree_root(tree)));
	render_out_footnotes(r, &out);
	render_free(r);
	CHECK_INT((long)theme_writer_depth(out.w), 0, "every element written is closed");
	theme_writer_free(out.w);
	doc_tree_close(tree);
	return buf_detach(&b);
}

static void
test_cases(void)
{
	size_t i, k;

	CHECK_GROUP("Markdown in, HTML out");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct site site;
		struct diag_list dl;
		struct buf md;

		buf_init(&md);
		buf_printf(&md, "# T\n\n%s", cases[i].md);
		fixture_begin();
		if (cases[i].flags & UNSAFE)
			fixture_put("site.toml", "[markdown]\nunsafe_html = true\n");
		fixture_put("content/guide/a.md", md.data);
		fixture_put("content/guide/b.md", "# B\n\n## Here\n");
		fixture_put("content/guide/p.png", "png");
		fixture_load(&site, &dl);
		for (k = 0; k < site.nchapters; k++)
			if (strcmp(site.chapters[k]->slug, "a") == 0) {
				char *got = S_render(&site, site.chapters[k], cases[i].flags & IDS);

				CHECK_STR(got, cases[i].want, "%s", cases[i].what);
				free(got);
			}
		fixture_end(&site, &dl);
		buf_free(&md);
	}
}

/*
 * A question's parts share one session, whose footnotes get the
 * question's prefix; a copy (the answer key) links to none.
 */
static void
test_question(void)
{
	static const char md[] =
	    "+++\ntitle = \"T\"\n+++\n\n## Which?\n\nStem[^1] <b>bold\n\n- [x] Yes[^2]\n- [ ] No\n\n"
	    "Because[^1].\n\n[^1]: First.\n\n[^2]: Second, <i>raw</i>.\n";
	struct site site;
	struct diag_list dl;
	struct doc_tree *tree;
	struct question *q;
	const struct question_nodes *qn;
	struct render_opts o;
	struct render_out out;
	struct render *r, *copy;
	struct buf b;

	CHECK_GROUP("footnotes in a question");
	fixture_begin();
	fixture_put("site.toml", "[markdown]\nunsafe_html = true\n");
	fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
	fixture_put("content/quiz/t/q.md", md);
	fixture_load(&site, &dl);
	CHECK(site.ntests == 1 && site.tests[0]->ntopics == 1 && site.tests[0]->topics[0]->nquestions == 1,
	    "one question");
	if (site.ntests != 1 || site.tests[0]->ntopics != 1 || site.tests[0]->topics[0]->nquestions != 1) {
		fixture_end(&site, &dl);
		return;
	}
	tree = doc_tree_open(site.tests[0]->topics[0]->doc);
	q = &site.tests[0]->topics[0]->questions[0];
	qn = doc_tree_question(tree, q);
	memset(&o, 0, sizeof(o));
	o.site = &site;
	o.doc = site.tests[0]->topics[0]->doc;
	o.page_url = site.tests[0]->url;
	o.id_prefix = "q1-";
	buf_init(&b);
	buf_put(&b, "", 0);
	memset(&out, 0, sizeof(out));
	out.w = theme_writer_new();
	theme_writer_begin(out.w, &b);
	r = render_new(&o);
	o.copy = 1;
	copy = render_new(&o);
	render_out_children(r, &out, qn->heading);
	render_out_text(&out, "|");
	render_out_blocks(r, &out, qn->stem.first, qn->stem.last);
	render_out_children(r, &out, qn->options[0].item);
	render_out_text(&out, "|");
	render_out_children(copy, &out, qn->options[0].item);
	render_out_text(&out, "|");
	render_out_blocks(r, &out, qn->explanation.first, qn->explanation.last);
	render_out_footnotes(r, &out);
	render_out_footnotes(copy, &out);
	render_free(copy);
	render_free(r);
	CHECK_STR(b.data,
	    "Which?|<p>Stem<sup class=\"footnote-ref\"><a href=\"#fn-q1-1\" id=\"fnref-q1-1\">1</a></sup> <b>bold</b></p>\n"
	    "Yes<sup class=\"footnote-ref\"><a href=\"#fn-q1-2\" id=\"fnref-q1-2\">2</a></sup>|Yes<sup class=\"footnote-ref\">2</sup>|<p>Because<sup class=\"footnote-ref\"><a href=\"#fn-q1-1\" id=\"fnref-q1-1-2\">1</a></sup>.</p>\n"
	    "<section class=\"footnotes\" aria-label=\"Footnotes\">\n"
	    "<ol>\n"
	    "<li id=\"fn-q1-1\" value=\"1\"><p>First. <a class=\"footnote-backref\" href=\"#fnref-q1-1\" aria-label=\"Back to reference 1\">\xe2\x86\xa9</a></p>\n"
	    "</li>\n"
	    "<li id=\"fn-q1-2\" value=\"2\"><p>Second, <i>raw</i>. <a class=\"footnote-backref\" href=\"#fnref-q1-2\" aria-label=\"Back to reference 2\">\xe2\x86\xa9</a></p>\n"
	    "</li>\n"
	    "</ol></section>\n",
	    "stem, option, its copy, explanation, then the footnotes once");
	theme_writer_free(out.w);
	buf_free(&b);
	doc_tree_close(tree);
	fixture_end(&site, &dl);
}

/* Deeper than the renderer's element limit: what is deeper goes into the deepest element. */
static void
test_deep(void)
{
	struct site site;
	struct diag_list dl;
	struct buf md, want;
	size_t i;

	CHECK_GROUP("deep nesting");
	buf_init(&md);
	buf_init(&want);
	buf_puts(&md, "# T\n\n");
	for (i = 0; i < 100; i++)
		buf_puts(&md, "> ");
	buf_puts(&md, "- *deep* <b>raw\n");
	for (i = 0; i < 64; i++)
		buf_puts(&want, "<blockquote>\n");
	/* The 36 quotes, the list and the item past the limit end their lines still. */
	buf_puts(&want, "deep <b>raw</b>");
	for (i = 0; i < 36 + 2; i++)
		buf_putc(&want, '\n');
	for (i = 0; i < 64; i++)
		buf_puts(&want, "</blockquote>\n");
	fixture_begin();
	fixture_put("site.toml", "[markdown]\nunsafe_html = true\n");
	fixture_put("content/guide/a.md", md.data);
	fixture_load(&site, &dl);
	CHECK_INT((long)site.nchapters, 1, "one chapter");
	if (site.nchapters == 1) {
		char *got = S_render(&site, site.chapters[0], 0);

		CHECK_STR(got, want.data, "100 quotes deep");
		free(got);
	}
	fixture_end(&site, &dl);
	buf_free(&md);
	buf_free(&want);
}

/*
 * A cloze heading four ways: its deletions as text, one blanked, one
 * answered, and every deletion with its markers as written around its
 * rendered answer (an Anki cloze note's Text).
 */
static void
test_cloze(void)
{
	static const struct {
		int cloze, answer, markers;
		const char *want;
	} views[] = {
		{ 0, 0, 0, "The <code>main</code> runs <em>first</em> &amp; <code>main</code> ends" },
		{ 1, 0, 0, "The <span class=\"cloze-blank\">[a function &amp; more]</span> runs <em>first</em> &amp; "
		  "<span class=\"cloze-blank\">[\xe2\x80\xa6]</span> ends" },
		{ 2, 1, 0, "The <code>main</code> runs <mark class=\"cloze\"><em>first</em></mark> &amp; <code>main</code> ends" },
		{ 0, 0, 1, "The {{c1::<code>main</code>::a function &amp; more}} runs {{c2::<em>first</em>}} &amp; "
		  "{{c1::<code>main</code>}} ends" },
	};
	struct site site;
	struct diag_list dl;
	size_t i;

	CHECK_GROUP("a cloze heading: text, blank, answer, Anki's markers");
	fixture_begin();
	fixture_put("content/cards/d.md", "+++\ntitle = \"D\"\n+++\n\n"
	    "## The {{c1::`main`::a function & more}} runs {{c2::*first*}} & {{c1::`main`}} ends {#m}\n\nBack.\n");
	fixture_load(&site, &dl);
	CHECK_INT((long)site.ndecks, 1, "the deck loads");
	if (site.ndecks == 1 && site.decks[0]->ncards == 2) {
		struct deck *d = site.decks[0];
		struct doc_tree *tree = doc_tree_open(d->doc);
		const struct card_nodes *cn = doc_tree_card(tree, &d->cards[0]);

		for (i = 0; cn && i < sizeof(views) / sizeof(views[0]); i++) {
			struct render_opts o;
			struct render_out out;
			struct render *r;
			struct buf b;

			memset(&o, 0, sizeof(o));
			o.site = &site;
			o.doc = d->doc;
			o.page_url = d->url;
			o.id_prefix = "";
			o.cloze = views[i].cloze;
			o.cloze_answer = views[i].answer;
			o.cloze_markers = views[i].markers;
			buf_init(&b);
			buf_put(&b, "", 0);
			memset(&out, 0, sizeof(out));
			out.w = theme_writer_new();
			theme_writer_begin(out.w, &b);
			r = render_new(&o);
			render_out_children(r, &out, cn->heading);
			render_free(r);
			theme_writer_free(out.w);
			CHECK_STR(b.data, views[i].want, "cloze %d, answer %d, markers %d",
			    views[i].cloze, views[i].answer, views[i].markers);
			buf_free(&b);
		}
		doc_tree_close(tree);
	} else
		CHECK_INT((long)(site.ndecks ? site.decks[0]->ncards : 0), 2, "a card per number");
	fixture_end(&site, &dl);
}

int
main(void)
{
	test_cases();
	test_question();
	test_deep();
	test_cloze();
	return check_finish();
}

/*
 * htmlmd: the HTML Anki fields hold, and the Markdown each becomes, side
 * by side.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "htmlmd.h"
#include "util.h"

static char *
S_media(void *arg, const char *src)
{
	return xconcat((const char *)arg, src, NULL);
}

/* Block Markdown of html, or "REFUSED: why". Caller frees. */
static char *
S_md(const char *html, int heading)
{
	struct htmlmd_opts o;
	struct htmlmd r;
	char *s;

	memset(&o, 0, sizeof(o));
	o.heading = heading;
	o.image = S_media;
	o.image_arg = "deck/";
	if (htmlmd_convert(html, &o, &r) == -1)
		s = xconcat("REFUSED: ", r.script, NULL);
	else if (r.unknown)
		s = xconcat(r.md, "\nUNKNOWN: ", r.unknown, NULL);
	else if (r.flattened)
		s = xconcat(r.md, "\nFLATTENED", NULL);
	else
		s = xstrdup(r.md);
	htmlmd_free(&r);
	return s;
}

static const struct { const char *html, *md; } S_blocks[] = {
	{ "", "" },
	{ "plain text", "plain text" },
	{ "<b>bold</b>, <i>it</i>, <strong>s</strong> <em>e</em>", "**bold**, *it*, **s** *e*" },
	{ "<b> spaced </b>x", "**spaced** x" },
	{ "<u>under</u> H<sub>2</sub>O x<sup>2</sup>", "<u>under</u> H<sub>2</sub>O x<sup>2</sup>" },
	{ "<s>gone</s>", "~~gone~~" },
	{ "use <code>a*b</code> and <code>x`y</code>", "use `a*b` and ``x`y``" },
	{ "line one<br>line two", "line one\\\nline two" },
	{ "trailing<br><br>", "trailing" },
	{ "<div>first</div><div>second</div>", "first\n\nsecond" },
	{ "lead<div>block</div>", "lead\n\nblock" },
	{ "<p>one</p>\n<p>two</p>", "one\n\ntwo" },
	{ "<ul><li>a</li><li>b</li></ul>", "- a\n- b" },
	{ "<ol start=\"3\"><li>c</li><li>d</li></ol>", "3. c\n4. d" },
	{ "<ul><li>a<ul><li>inner</li></ul></li></ul>", "- a\n  - inner" },
	{ "<ul><li>a<ul><li></li><li>b</li></ul></li><li> </li></ul>", "- a\n  - b" },
	{ "<ol><li><p>loose</p></li><li><p>two</p></li></ol>", "1. loose\n\n2. two" },
	{ "<pre><code class=\"language-c\">int x;\nx++;\n</code></pre>", "```c\nint x;\nx++;\n```" },
	{ "<ul><li><pre>a\r# b\r\nc</pre></li></ul>", "- ```\n  a\n  # b\n  c\n  ```" },
	{ "<pre>has ``` inside</pre>", "````\nhas ``` inside\n````" },
	{ "<table><tr><th>a</th><th>b|c</th></tr><tr><td>1</td><td>2<br>3</td></tr></table>",
	  "| a | b\\|c |\n| --- | --- |\n| 1 | 2 3 |" },
	{ "<table><tr><td>only</td></tr><tr><td>x</td><td>y</td></tr></table>",
	  "| only |  |\n| --- | --- |\n| x | y |" },
	{ "<img src=\"cat.png\" alt=\"a cat\">", "![a cat](deck/cat.png)" },
	{ "<img src=\"my cat.png\">", "![](deck/my%20cat.png)" },
	{ "<a href=\"a\nb\" title=\"t\nu\">x</a>", "[x](a%0Ab \"t u\")" },
	{ "<a href=\"https://example.com/a?b=1&amp;c=2\">site</a>", "[site](https://example.com/a?b=1&c=2)" },
	{ "<a href=\"https://e.org/x_(y)\" title=\"T\">t</a>", "[t](<https://e.org/x_(y)> \"T\")" },
	{ "see (<a href=\"u\"></a>) and <a href=\"v\"><img src=\"i.png\" alt=\"i\"></a>",
	  "see () and [![i](deck/i.png)](v)" },
	{ "<blockquote>quoted<br>two</blockquote>", "> quoted\\\n> two" },
	{ "a<hr>b", "a\n\n***\n\nb" },
	{ "1. not a list", "1\\. not a list" },
	{ "# not a heading", "\\# not a heading" },
	{ "- not an item", "\\- not an item" },
	{ "*stars* _under_ snake_case [x] &lt;b&gt; &amp;amp; a &amp; b ~t~ \\",
	  "\\*stars\\* \\_under\\_ snake_case \\[x\\] \\<b> \\&amp; a & b \\~t\\~ \\\\" },
	{ "{{c1::Paris::city}} is in {{c2::France}}", "{{c1::Paris::city}} is in {{c2::France}}" },
	{ "{{c1::<b>Paris</b>}}", "{{c1::**Paris**}}" },
	{ "<span>plain span</span>", "plain span" },
	{ "<span style=\"color:red\">red</span> <font color=red>f</font>",
	  "red f\nUNKNOWN: <span> <font>" },
	{ "<h1>Title</h1>text", "Title\n\ntext\nUNKNOWN: <h1>" },
	{ "x<sup class=\"footnote-ref\"><a href=\"#fn-a-1\" id=\"fnref-a-1\">1</a></sup>\n"
	  "<section class=\"footnotes\"><ol><li id=\"fn-a-1\" value=\"1\"><p>Note. "
	  "<a class=\"footnote-backref\" href=\"#fnref-a-1\">\xe2\x86\xa9</a></p></li></ol></section>",
	  "x[^1]\n\n[^1]: Note." },
	{ "<script>alert(1)</script>", "REFUSED: a <script> element" },
	{ "<img src=x onerror=\"alert(1)\">", "REFUSED: an onerror attribute on <img>" },
	{ "<a href=\" javascript:alert(1)\">x</a>", "REFUSED: a script URL in <a href>" },
	{ "soft\nbreak  and \t spaces", "soft\nbreak  and \t spaces" },
	{ "trailing  \nspaces  <br>x", "trailing\nspaces  \\\nx" },
	{ "caf\xc3\xa9 &mdash; &#26085;", "caf\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5" },
};

static const struct { const char *html, *md; } S_headings[] = {
	{ "What does <code>sizeof(int)</code> give?", "What does `sizeof(int)` give?" },
	{ "#hashtag front", "\\#hashtag front" },
	{ "one<br>two\nthree", "one two three" },
	{ "<div>a</div><div>b</div>", "a b\nFLATTENED" },
	{ "<ul><li>x</li></ul>", "x\nFLATTENED" },
	{ "The capital is {{c1::Paris::a city}}", "The capital is {{c1::Paris::a city}}" },
	{ "<img src=\"a.png\">", "![](deck/a.png)" },
};

int
main(void)
{
	size_t i;
	struct buf deep;

	CHECK_GROUP("htmlmd blocks");
	for (i = 0; i < sizeof(S_blocks) / sizeof(S_blocks[0]); i++) {
		char *got = S_md(S_blocks[i].html, 0);

		CHECK_STR(got, S_blocks[i].md, "%s", S_blocks[i].html);
		free(got);
	}
	CHECK_GROUP("htmlmd heading");
	for (i = 0; i < sizeof(S_headings) / sizeof(S_headings[0]); i++) {
		char *got = S_md(S_headings[i].html, 1);

		CHECK_STR(got, S_headings[i].md, "%s", S_headings[i].html);
		free(got);
	}
	/* Nesting far past the walk's depth keeps the text and ends. */
	CHECK_GROUP("htmlmd deep");
	buf_init(&deep);
	for (i = 0; i < 120; i++)
		buf_puts(&deep, "<blockquote><b>");
	buf_puts(&deep, "core");
	{
		char *got = S_md(buf_str(&deep), 0);

		CHECK(strstr(got, "core") != NULL, "240 nested elements, past the walk's depth, keep their text");
		free(got);
	}
	buf_free(&deep);
	/* Every row of a long table is kept. */
	CHECK_GROUP("htmlmd long table");
	buf_init(&deep);
	buf_puts(&deep, "<table>");
	for (i = 0; i < 1500; i++)
		buf_printf(&deep, "<tr><td>r%zu</td></tr>", i);
	buf_puts(&deep, "</table>");
	{
		char *got = S_md(buf_str(&deep), 0);
		size_t lines = 1;
		const char *p;

		for (p = got; *p; p++)
			lines += *p == '\n';
		CHECK(lines == 1501 && strstr(got, "| r1499 |") != NULL,
		    "1500 rows and the delimiter row: %zu lines", lines);
		free(got);
	}
	buf_free(&deep);
	return check_finish();
}

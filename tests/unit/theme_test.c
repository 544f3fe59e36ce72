/*
 * theme: writing pages. Each case is a template (and values) and the
 * bytes the page must have, side by side: first how elements, attributes
 * and text are written, one rule per row; then the directives that fill
 * a template; then the charset declaration, the writer the renderer
 * uses, and nodes written through libxml2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>

#include "check.h"
#include "config.h"
#include "lang.h"
#include "theme.h"
#include "util.h"

#define HEAD "<head><meta charset=\"utf-8\"><title>t</title></head>"

/*
 * The page theme_render writes from frame and part (every part kind has
 * the same template) with values v, for a page at page_url; NULL when it
 * writes none, with the first diagnostic in *msg if msg.
 */
/* No strings: the templates under test name none. */
static struct lang *S_lang;

static char *
S_render(const char *frame, const char *part, const struct tvars *v, const char *page_url,
    char **msg)
{
	struct diag_list dl;
	struct theme t;
	struct buf out;
	char *page = NULL;
	size_t k;

	diag_init(&dl);
	memset(&t, 0, sizeof(t));
	buf_init(&out);
	t.page = theme_parse(frame, strlen(frame), "page.html", &dl);
	for (k = 0; k < THEME_NPARTS; k++) {
		t.parts[k] = theme_parse(part, strlen(part), "part.html", &dl);
		t.part_files[k] = "part.html";
	}
	if (t.page && t.parts[THEME_HOME] &&
	    theme_render(&t, THEME_HOME, v, page_url, &out, &dl) == 0) {
		buf_put(&out, "", 0);
		page = buf_detach(&out);
	}
	if (msg)
		*msg = xstrdup(dl.len ? dl.v[0].message : "");
	if (t.page)
		xmlFreeDoc(t.page);
	for (k = 0; k < THEME_NPARTS; k++)
		if (t.parts[k])
			xmlFreeDoc(t.parts[k]);
	buf_free(&out);
	diag_free(&dl);
	return page;
}

static const struct {
	const char *rule;
	const char *body;            /* inside <body>, as a template would have it */
	const char *want;            /* the body as written */
} S_rules[] = {
	{ "text escapes <, > and &", "<p>a &lt; b &gt; c &amp; d</p>", "<p>a &lt; b &gt; c &amp; d</p>" },
	{ "quotes stay in text", "<p>\"it's\"</p>", "<p>\"it's\"</p>" },
	{ "UTF-8 stays as it is", "<p>caf\xc3\xa9 \xe2\x86\xa9</p>", "<p>caf\xc3\xa9 \xe2\x86\xa9</p>" },
	{ "control characters go, tab and line breaks stay", "<p>a\x01\x1f\tb\r\nc\x7f</p>",
	    "<p>a\tb\r\nc\x7f</p>" },
	{ "an attribute in double quotes", "<p class=\"a b\">x</p>", "<p class=\"a b\">x</p>" },
	{ "a double quote: single quotes", "<p title='say \"hi\"'>x</p>", "<p title='say \"hi\"'>x</p>" },
	{ "both quotes: &quot;", "<p title=\"'a' &quot;b&quot;\">x</p>",
	    "<p title=\"'a' &quot;b&quot;\">x</p>" },
	{ "attribute values escape <, > and &", "<p title=\"a&lt;b&gt;&amp;c\">x</p>",
	    "<p title=\"a&lt;b&gt;&amp;c\">x</p>" },
	{ "&{...} stays in an attribute", "<p title=\"&amp;{x}\">x</p>", "<p title=\"&{x}\">x</p>" },
	{ "a comment stays in an attribute", "<p title=\"&lt;!--c--&gt;\">x</p>",
	    "<p title=\"<!--c-->\">x</p>" },
	{ "URLs are percent-encoded", "<a href=\"a b/\xc3\xa9?q=1&amp;r#f\">x</a>",
	    "<a href=\"a%20b/%C3%A9?q=1&amp;r#f\">x</a>" },
	{ "a URL with nothing to escape is written as it is",
	    "<a href=\"../a/b-c_d.e~f!g(h)*@+,;=:?q=1#x%20y\">x</a><img src=\"i.png\" alt=\"\">",
	    "<a href=\"../a/b-c_d.e~f!g(h)*@+,;=:?q=1#x%20y\">x</a><img src=\"i.png\" alt=\"\">" },
	{ "a URL loses leading blanks", "<a href=\" \t x\">x</a>", "<a href=\"x\">x</a>" },
	{ "quotes in a URL", "<img src=\"it's &quot;x&quot;\">", "<img src=\"it's%20%22x%22\">" },
	{ "a name on a link is a URL", "<a name=\"a b\">x</a><p name=\"a b\">y</p>",
	    "<a name=\"a%20b\">x</a><p name=\"a b\">y</p>" },
	{ "boolean attributes have no value", "<input type=\"checkbox\" checked disabled=\"disabled\">",
	    "<input type=\"checkbox\" checked disabled>" },
	{ "void elements have no end tag", "<p>a<br>b<hr><img src=\"i.png\" alt=\"\"></p>",
	    "<p>a<br>b</p><hr><img src=\"i.png\" alt=\"\">" },
	{ "empty elements keep their end tag", "<p></p><div></div><span></span>",
	    "<p></p><div></div><span></span>" },
	{ "an empty li has none (libxml2's element table)", "<ul><li></li></ul><table><tr><td></td></tr></table>",
	    "<ul><li></ul><table><tr><td></td></tr></table>" },
	{ "script and style are raw", "<script>if (a < b && c) x();</script><style>a > b {}</style>",
	    "<script>if (a < b && c) x();</script><style>a > b {}</style>" },
	{ "comments as written", "<!-- a <b> & c -->", "<!-- a <b> & c -->" },
	{ "an element libxml2 does not know, inline or around blocks",
	    "<p>a <x-tag>b</x-tag> c</p><x-card class=\"k\"><p>in</p> <span>s</span></x-card><x-void>",
	    "<p>a <x-tag>b</x-tag> c</p><x-card class=\"k\"><p>in</p> <span>s</span></x-card><x-void></x-void>" },
};

static void
S_check_rules(void)
{
	struct tvars *v = tvars_new();
	size_t i;

	CHECK_GROUP("rules");
	for (i = 0; i < sizeof(S_rules) / sizeof(S_rules[0]); i++) {
		char *html = xasprintf("<!DOCTYPE html>\n<html>" HEAD "<body>%s</body></html>",
		    S_rules[i].body);
		char *want = xasprintf("<!DOCTYPE html>\n<html>" HEAD "<body>%s</body></html>\n",
		    S_rules[i].want);
		/* The home page: the template's URLs stay as written. */
		char *got = S_render(html, "<p>part</p>", v, "index.html", NULL);

		CHECK_STR(got, want, "%s", S_rules[i].rule);
		free(got);
		free(html);
		free(want);
	}
	tvars_free(v);
}

/* Values for the fill cases: text, HTML, and lists. */
static struct tvars *
S_values(void)
{
	static const char html[] = "<p>one</p>\n<p>two &amp; <b>b</b></p>\n";
	struct tvars *v = tvars_new(), *it;

	tvars_text(v, "title", "A <b> & \"title\"");
	tvars_text(v, "empty", "");
	tvars_text(v, "url", "guide/a b/index.html#s");
	tvars_text(v, "bad-url", "javascript:alert(1)");
	tvars_html(v, "body", xstrdup(html), strlen(html));
	tvars_html(v, "no-tail", xstrdup("<p>x</p>"), 8);
	it = tvars_item(v, "list");
	tvars_text(it, "title", "first");
	tvars_text(it, "url", "cards/d/index.html");
	tvars_text(tvars_item(it, "inner"), "title", "1a");
	tvars_text(tvars_item(it, "inner"), "title", "1b");
	it = tvars_item(v, "list");
	tvars_text(it, "title", "second");
	return v;
}

/* The directives, on a part inside a fixed frame: what the part's place in the page holds. */
static const struct {
	const char *rule;
	const char *part;
	const char *want;            /* the main element's content */
} S_fills[] = {
	{ "a slot takes text, escaped", "<p data-qd-slot=\"title\">x</p>",
	    "<p>A &lt;b&gt; &amp; \"title\"</p>" },
	{ "a slot takes HTML as it is", "<div data-qd-slot=\"body\">x</div>",
	    "<div><p>one</p>\n<p>two &amp; <b>b</b></p>\n</div>" },
	{ "an unset or empty slot goes, with the line before it",
	    "<p>a</p>\n<p data-qd-slot=\"nothing\">x</p>\n<p data-qd-slot=\"empty\">y</p>\n<p>b</p>",
	    "<p>a</p>\n<p>b</p>" },
	{ "replace puts the value in the element's place",
	    "<p>a</p>\n<div data-qd-replace=\"title\">x</div>\n<p>b</p>",
	    "<p>a</p>\nA &lt;b&gt; &amp; \"title\"\n<p>b</p>" },
	{ "blank text after replaced HTML goes with an element taken away after it",
	    "<div data-qd-replace=\"body\"></div>\n<p data-qd-if=\"nothing\">x</p>",
	    "<p>one</p>\n<p>two &amp; <b>b</b></p>" },
	{ "if and if-not", "<p data-qd-if=\"title\">t</p><p data-qd-if=\"!title\">n</p>"
	    "<p data-qd-if=\"!empty\">e</p>", "<p>t</p><p>e</p>" },
	{ "repeat: an element per item, the blank text before it repeated",
	    "<ul>\n<li data-qd-repeat=\"list\"><a href=\"\" data-qd-attr-href=\"url\" "
	    "data-qd-slot=\"title\"></a></li>\n</ul>",
	    "<ul>\n<li><a href=\"../../cards/d/index.html\">first</a></li>\n<li><a href=\"\">second</a></li>\n</ul>" },
	{ "repeats nest", "<p data-qd-repeat=\"list\"><i data-qd-repeat=\"inner\" data-qd-slot=\"title\"></i></p>",
	    "<p><i>1a</i><i>1b</i></p><p></p>" },
	{ "an empty list takes the element away", "<p>a</p>\n<p data-qd-repeat=\"none\">x</p>", "<p>a</p>" },
	{ "attributes from values; a URL made relative to the page, an unsafe one dropped",
	    "<a href=\"x\" title=\"old\" data-qd-attr-title=\"title\" data-qd-attr-href=\"url\">a</a>"
	    "<a href=\"x\" data-qd-attr-href=\"bad-url\">b</a>",
	    "<a href=\"../a%20b/index.html#s\" title='A &lt;b&gt; &amp; \"title\"'>a</a>"
	    "<a href=\"../../x\">b</a>" },
	{ "an attribute an unset value or HTML names stays as written",
	    "<p title=\"old\" data-qd-attr-title=\"nothing\" data-qd-attr-lang=\"body\">x</p>",
	    "<p title=\"old\">x</p>" },
	{ "template URLs are relative to the output root",
	    "<a href=\"index.html#top\">h</a><img src=\"assets/i.png\" alt=\"\"><a href=\"#x\">x</a>"
	    "<a href=\"https://example.org/\">e</a>",
	    "<a href=\"../../index.html#top\">h</a><img src=\"../../assets/i.png\" alt=\"\"><a href=\"#x\">x</a>"
	    "<a href=\"https://example.org/\">e</a>" },
	{ "a void element takes no value", "<br data-qd-slot=\"title\"><hr>", "<br><hr>" },
	{ "a slot without its closing text", "<div data-qd-slot=\"no-tail\"></div>", "<div><p>x</p></div>" },
};

static void
S_check_fills(void)
{
	static const char frame[] = "<!DOCTYPE html>\n<html>" HEAD
	    "<body><main data-qd-slot=\"main\"></main></body></html>";
	size_t i;

	CHECK_GROUP("fill");
	for (i = 0; i < sizeof(S_fills) / sizeof(S_fills[0]); i++) {
		struct tvars *v = S_values();
		char *want = xasprintf("<!DOCTYPE html>\n<html>" HEAD "<body><main>%s</main></body></html>\n",
		    S_fills[i].want);
		char *got = S_render(frame, S_fills[i].part, v, "guide/x/index.html", NULL);

		CHECK_STR(got, want, "%s", S_fills[i].rule);
		free(got);
		free(want);
		tvars_free(v);
	}
}

/* Repeats nest at most THEME_MAX_NESTING deep: the page is not written, and the error says why. */
static void
S_check_nesting(void)
{
	struct tvars *v = tvars_new(), *it = v;
	struct buf part;
	char *got, *msg;
	int k;

	CHECK_GROUP("fill");
	buf_init(&part);
	buf_put(&part, "", 0);
	for (k = 0; k < 10; k++) {
		it = tvars_item(it, "l");
		buf_puts(&part, "<div data-qd-repeat=\"l\">");
	}
	for (k = 0; k < 10; k++)
		buf_puts(&part, "</div>");
	got = S_render("<html><body><main data-qd-slot=\"main\"></main></body></html>", part.data, v,
	    "index.html", &msg);
	CHECK(got == NULL && strstr(msg, "data-qd-repeat nested more than 8 deep") != NULL,
	    "repeats nested too deep: no page, and an error (%s)", msg);
	free(got);
	free(msg);
	buf_free(&part);
	tvars_free(v);
}

/* The page declares its charset once: the template's, or one written first in the head. */
static void
S_check_meta(void)
{
	static const struct {
		const char *rule, *html, *want;
	} cases[] = {
		{ "a head with a charset keeps its own",
		    "<html><head><meta charset=\"utf-8\"></head><body></body></html>",
		    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body></body></html>\n" },
		{ "a head without one gets one",
		    "<!DOCTYPE html><html><head><title>t</title></head><body></body></html>",
		    "<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">"
		    "<title>t</title></head><body></body></html>\n" },
		{ "an empty head gets it too",
		    "<html><head></head><body><p>x</p></body></html>",
		    "<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">"
		    "</head><body><p>x</p></body></html>\n" },
		{ "another http-equiv is no charset",
		    "<html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" "
		    "content=\"default-src 'self'\"></head><body></body></html>",
		    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" "
		    "content=\"default-src 'self'\"></head><body></body></html>\n" },
		{ "a Content-Type meta of the template's own says UTF-8",
		    "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">"
		    "</head><body></body></html>",
		    "<!DOCTYPE html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">"
		    "</head><body></body></html>\n" },
		{ "the doctype is HTML5's, comments around the page stay",
		    "<!-- a --><!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><html><body></body></html><!-- b -->",
		    "<!DOCTYPE html>\n<!-- a --><html><body></body></html><!-- b -->\n" },
	};
	struct tvars *v = tvars_new();
	size_t i;

	CHECK_GROUP("charset and doctype");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = S_render(cases[i].html, "<p>x</p>", v, "index.html", NULL);

		CHECK_STR(got, cases[i].want, "%s", cases[i].rule);
		free(got);
	}
	tvars_free(v);
}

/*
 * theme_writer writes elements (void, empty, nested), attribute values
 * quoted, escaped or percent-encoded, boolean attributes and text by the
 * same rules as the pages.
 */
static const struct {
	const char *el;            /* element name; NULL closes the last one open */
	const char *attr, *value;  /* an attribute of it, or text (attr NULL) */
} writer_steps[] = {
	{ "div", "class", "a \"b\" 'c'" },
	{ "p", NULL, NULL }, { NULL, NULL, NULL },
	{ "p", "title", "say \"hi\"" }, { NULL, NULL, NULL },
	{ "a", "href", "  a b/\xc3\xa9?x=<1>&y=\"2\"#f" },
	{ "", NULL, "x < y & z > w \x01\x7f\t\n\xe2\x86\xa9" }, { NULL, NULL, NULL },
	{ "input", "checked", "" }, { NULL, NULL, NULL },
	{ "br", NULL, NULL }, { NULL, NULL, NULL },
	{ "img", "src", "p q.png" }, { NULL, NULL, NULL },
	{ "span", "data-x", "<!-- c --> &{e} & <" },
	{ "em", NULL, NULL }, { "", NULL, "deep" }, { NULL, NULL, NULL },
	{ NULL, NULL, NULL },
	{ "td", "scope", "col" }, { NULL, NULL, NULL },
	{ "li", NULL, NULL }, { NULL, NULL, NULL },
	{ NULL, NULL, NULL },
	{ "", NULL, "\n" },
};

static const char writer_want[] =
    "<div class=\"a &quot;b&quot; 'c'\"><p></p><p title='say \"hi\"'></p>"
    "<a href=\"a%20b/%C3%A9?x=&lt;1&gt;&amp;y=%222%22#f\">x &lt; y &amp; z &gt; w \x7f\t\n\xe2\x86\xa9</a>"
    "<input checked><br><img src=\"p%20q.png\"><span data-x=\"<!-- c --> &{e} &amp; &lt;\"><em>deep</em></span>"
    "<td scope=\"col\"></td><li></div>\n";

static void
S_check_writer(void)
{
	struct theme_writer *w = theme_writer_new();
	struct buf got;
	size_t i;

	CHECK_GROUP("theme_writer");
	buf_init(&got);
	buf_put(&got, "", 0);
	theme_writer_begin(w, &got);
	for (i = 0; i < sizeof(writer_steps) / sizeof(writer_steps[0]); i++) {
		const char *name = writer_steps[i].el;

		if (name == NULL)
			theme_writer_end(w);
		else if (*name == '\0')
			theme_writer_text(w, writer_steps[i].value);
		else {
			theme_writer_start(w, name);
			if (writer_steps[i].attr)
				theme_writer_attr(w, writer_steps[i].attr, writer_steps[i].value);
		}
	}
	CHECK_INT((long)theme_writer_depth(w), 0, "every element is closed");
	CHECK_STR(got.data, writer_want, "the bytes written");
	theme_writer_free(w);
	buf_free(&got);
}

/*
 * An author's raw HTML, as libxml2's HTML parser reads it and its
 * serialiser would write it: script and style text as it is, comments,
 * bare and boolean attributes, void elements, URLs percent-encoded.
 */
static const struct {
	const char *html, *want;
} node_cases[] = {
	{ "<div class=x hidden title='say \"hi\"'><p>t &amp; x<br><wbr>",
	  "<div class=\"x\" hidden title='say \"hi\"'><p>t &amp; x<br><wbr></wbr></p></div>" },
	{ "<div><script>if (a < b && c) {}</script><style>p > b {}</style></div>",
	  "<div><script>if (a < b && c) {}</script><style>p > b {}</style></div>" },
	{ "<!-- c --><?pi x?><!---->", "<!-- c --><?pi x?><!---->" },
	{ "<div><a href=\" a b\" name=\"x y\">q</a><option selected=selected>o</option></div>",
	  "<div><a href=\"a%20b\" name=\"x%20y\">q</a><option selected>o</option></div>" },
	{ "<div><param name=n><p></p><li></li><span></span></div>",
	  "<div><param name=\"n\"><p></p><li><span></span></div>" },
	{ "<div><textarea>a < b</textarea><p>\xc3\xa9 \x01</p></div>",
	  "<div><textarea>a &lt; b</textarea><p>\xc3\xa9 </p></div>" },
	{ "text & < > at the top", "<p>text &amp; &lt; &gt; at the top</p>" },
	/* libxml2 2.9 does not close the first element at the top: what follows goes inside. */
	{ "<b>x</b><i>y</i>", "<b>x<i>y</i></b>" },
};

static void
S_check_nodes(void)
{
	struct theme_writer *w = theme_writer_new();
	struct buf got;
	const char *last;
	size_t i, at;

	CHECK_GROUP("nodes libxml2 read");
	buf_init(&got);
	for (i = 0; i < sizeof(node_cases) / sizeof(node_cases[0]); i++) {
		htmlDocPtr frag = htmlReadMemory(node_cases[i].html, (int)strlen(node_cases[i].html), NULL,
		    "UTF-8", HTML_PARSE_NOIMPLIED | HTML_PARSE_NODEFDTD | HTML_PARSE_NOERROR |
		    HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
		xmlNodePtr n;

		buf_reset(&got);
		buf_put(&got, "", 0);
		theme_writer_begin(w, &got);
		for (n = frag ? frag->children : NULL; n; n = n->next)
			theme_writer_node(w, n);
		CHECK_STR(got.data, node_cases[i].want, "%s", node_cases[i].html);
		if (frag)
			xmlFreeDoc(frag);
	}

	/* An element left open outlives its node; what goes into a void element is not written. */
	buf_reset(&got);
	buf_put(&got, "", 0);
	theme_writer_begin(w, &got);
	{
		htmlDocPtr frag = htmlReadMemory("<param name=n>", 14, NULL, "UTF-8",
		    HTML_PARSE_NOIMPLIED | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);

		theme_writer_start_node(w, xmlDocGetRootElement(frag));
		xmlFreeDoc(frag);
	}
	theme_writer_text(w, "gone");
	theme_writer_start(w, "b");
	theme_writer_attr(w, "class", "gone");
	theme_writer_end(w);
	CHECK_STR(theme_writer_top(w), "param", "the element open keeps its name");
	theme_writer_end(w);
	theme_writer_start(w, "p");
	theme_writer_text(w, "kept");
	theme_writer_end(w);
	theme_writer_text(w, "\n");
	CHECK_STR(got.data, "<param name=\"n\"><p>kept</p>\n", "a void element's children are not written");
	last = theme_writer_last(w, &at);
	CHECK_STR(last ? last : "(none)", "p", "the last element closed with none open");
	CHECK_STR(got.data + at, "</p>\n", "and where its end tag starts");
	theme_writer_free(w);
	buf_free(&got);
}

/*
 * A theme that cannot load says why, each thing wrong once, and leaves
 * nothing to free (the ASan build of this test fails on a leak).
 */
static void
S_check_load_errors(void)
{
	static const char *const parts[] = { "home", "test", "deck", "chapter", "guide" };
	static const char frame[] = "<!DOCTYPE html>\n<html><head><title>t</title></head>"
	    "<body><main data-qd-slot=\"main\"></main></body></html>";
	static const char wrong[] = "<p data-qd-nope=\"x\">part</p>";
	char root[] = "/tmp/quizdeck-theme-XXXXXX";
	struct diag_list dl;
	struct theme t;
	char *path, *got;
	size_t k;
	int rc;

	CHECK_GROUP("theme load errors");
	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	diag_init(&dl);
	rc = theme_load(&t, root, "../x", S_lang, &dl);
	CHECK(rc == -1 && dl.len == 1 && strstr(dl.v[0].message, "a theme is named by its folder") != NULL,
	    "a name that is a path is refused");
	CHECK(t.name == NULL && t.page == NULL, "and nothing is left to free");
	diag_free(&dl);

	diag_init(&dl);
	rc = theme_load(&t, root, "none", S_lang, &dl);
	CHECK(rc == -1 && dl.len == 1 && strstr(dl.v[0].message, "theme \"none\" not found: no templates/page.html in ") != NULL,
	    "a theme found nowhere names where it was looked for");
	diag_free(&dl);

	/* A frame, five parts of six, one of them with a directive the renderer does not know. */
	path = xasprintf("%s/themes/t/templates/page.html", root);
	file_write(path, frame, strlen(frame));
	free(path);
	for (k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		path = xasprintf("%s/themes/t/templates/%s.html", root, parts[k]);
		file_write(path, k == 2 ? wrong : "<p>part</p>", strlen(k == 2 ? wrong : "<p>part</p>"));
		free(path);
	}
	diag_init(&dl);
	rc = theme_load(&t, root, "t", S_lang, &dl);
	diag_sort(&dl);
	got = diag_join(&dl);
	CHECK(rc == -1, "a theme with a template missing and one wrong does not load");
	CHECK(strstr(got, "404.html: error: theme \"t\" has no 404.html template") != NULL &&
	    strstr(got, "deck.html:1:") != NULL && strstr(got, "data-qd-nope") != NULL && dl.len == 2,
	    "one error for the missing template, one for the wrong one: %s", got);
	CHECK(t.page == NULL && t.parts[THEME_HOME] == NULL && t.uses[THEME_HOME] == NULL,
	    "what had loaded is freed");
	free(got);
	diag_free(&dl);
	theme_free(&t);
	dir_remove(root);
}

/*
 * The diagnostics of loading a theme whose page.html is frame and whose
 * parts are all `part` but test.html, which is `test` (NULL: part).
 */
static char *
S_load_diags(const char *frame, const char *part, const char *test)
{
	static const char *const names[] = { "home", "test", "deck", "chapter", "guide", "404" };
	char root[] = "/tmp/quizdeck-theme-XXXXXX";
	struct diag_list dl;
	struct theme t;
	char *path, *got;
	size_t k;

	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	path = xasprintf("%s/themes/t/templates/page.html", root);
	file_write(path, frame, strlen(frame));
	free(path);
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const char *text = k == 1 && test ? test : part;

		path = xasprintf("%s/themes/t/templates/%s.html", root, names[k]);
		file_write(path, text, strlen(text));
		free(path);
	}
	diag_init(&dl);
	if (theme_load(&t, root, "t", S_lang, &dl) == 0)
		theme_free(&t);
	diag_sort(&dl);
	got = diag_join(&dl);
	diag_free(&dl);
	dir_remove(root);
	return got;
}

/*
 * A value name no page has is a typo as a rule: a warning at the name,
 * with the nearest name the template may use there.
 */
static void
S_check_value_names(void)
{
	static const struct {
		const char *name, *frame, *part, *test, *want;
	} cases[] = {
		{ "known names, at every depth of repeats",
		  "<html><body><a data-qd-attr-href=\"home\" data-qd-slot=\"site-title\">s</a>\n"
		  "<ul><li data-qd-repeat=\"nav\" data-qd-attr-aria-current=\"current\"><a data-qd-attr-href=\"url\">x</a></li></ul>\n"
		  "<p data-qd-if=\"!page-test\">x</p><main data-qd-slot=\"main\"></main></body></html>",
		  "<p data-qd-slot=\"title\">t</p>",
		  "<ul data-qd-repeat=\"deeper\"><li data-qd-repeat=\"sections\" data-qd-slot=\"title\">s</li></ul>",
		  "" },
		{ "a typo in page.html",
		  "<html><body>\n  <h1 data-qd-slot=\"sitetitle\">s</h1><main data-qd-slot=\"main\"></main></body></html>",
		  "<p>x</p>", NULL,
		  "themes/t/templates/page.html:2:21: warning: unknown value \"sitetitle\" in data-qd-slot: "
		  "no page has it, so the element is always left out; did you mean \"site-title\"?" },
		{ "the same attribute twice on a line: each at its column",
		  "<html><body><b data-qd-slot=\"autor\"></b><i data-qd-slot=\"autor\"></i></body></html>",
		  "<p>x</p>", NULL,
		  "themes/t/templates/page.html:1:30: warning: unknown value \"autor\" in data-qd-slot: "
		  "no page has it, so the element is always left out; did you mean \"author\"?\n"
		  "themes/t/templates/page.html:1:58: warning: unknown value \"autor\" in data-qd-slot: "
		  "no page has it, so the element is always left out; did you mean \"author\"?" },
		{ "a negated if is always kept",
		  "<html><body><p data-qd-if=\"!interactiv\">x</p></body></html>", "<p>x</p>", NULL,
		  "themes/t/templates/page.html:1:28: warning: unknown value \"interactiv\" in data-qd-if: "
		  "no page has it, so the element is always kept; did you mean \"interactive\"?" },
		{ "another page kind's value in a part",
		  "<html><body><main data-qd-slot=\"main\"></main></body></html>",
		  "<p>x</p>", "<p data-qd-slot=\"cards\">x</p>",
		  "themes/t/templates/test.html:1:18: warning: unknown value \"cards\" in data-qd-slot: "
		  "test pages have no such value, so the element is always left out; "
		  "only deck pages have it: it belongs in deck.html" },
		{ "inside a repeat, names are the item's",
		  "<html><body><ul><li data-qd-repeat=\"nav\"><a data-qd-attr-title=\"site-title\" "
		  "data-qd-attr-href=\"ur\">x</a></li></ul></body></html>",
		  "<p>x</p>", NULL,
		  "themes/t/templates/page.html:1:65: warning: unknown value \"site-title\" in data-qd-attr-title: "
		  "the items of \"nav\" have no such value, so the attribute is never set; "
		  "they have \"url\", \"title\" and \"current\"\n"
		  "themes/t/templates/page.html:1:96: warning: unknown value \"ur\" in data-qd-attr-href: "
		  "the items of \"nav\" have no such value, so the attribute is never set; did you mean \"url\"?" },
		{ "an unknown list is reported, not what is inside it",
		  "<html><body><ul><li data-qd-repeat=\"navs\"><a data-qd-slot=\"whatever\">x</a></li></ul></body></html>",
		  "<p>x</p>", NULL,
		  "themes/t/templates/page.html:1:37: warning: unknown value \"navs\" in data-qd-repeat: "
		  "no page has it, so the element is always left out; did you mean \"nav\"?" },
	};
	struct diag_list dl;
	struct config cfg;
	struct lang *lang;
	struct theme t;
	size_t i;
	char *got;
	int rc;

	CHECK_GROUP("template value names");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = S_load_diags(cases[i].frame, cases[i].part, cases[i].test);
		CHECK_STR(got, cases[i].want, "%s", cases[i].name);
		free(got);
	}
	/* The default theme (tests run from the top of the source tree): the table has every name it uses. */
	diag_init(&dl);
	config_defaults(&cfg);
	lang = lang_load(".", &cfg, &dl);
	rc = theme_load(&t, ".", "default", lang, &dl);
	got = diag_join(&dl);
	lang_free(lang);
	config_free(&cfg);
	CHECK(rc == 0, "the default theme loads");
	CHECK_STR(got, "", "the default theme names only values its pages have");
	free(got);
	if (rc == 0)
		theme_free(&t);
	diag_free(&dl);
}

int
main(void)
{
	xmlInitParser();
	S_lang = lang_empty();
	S_check_load_errors();
	S_check_value_names();
	S_check_rules();
	S_check_fills();
	S_check_nesting();
	S_check_meta();
	S_check_writer();
	S_check_nodes();
	lang_free(S_lang);
	xmlCleanupParser();
	return check_finish();
}

/*
 * theme: serialising a page. theme_serialize writes what libxml2's HTML
 * serialiser writes, byte for byte, without its cost. The table is the
 * spec, one rule per row: a piece of a page and how it is written. Then
 * thousands of random pages (odd bytes in every text and attribute, every
 * kind of element) against libxml2's own output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xmlsave.h>

#include "check.h"
#include "theme.h"
#include "util.h"

#define HEAD "<head><meta charset=\"utf-8\"><title>t</title></head>"

/* A page from a template's markup, as theme_render gets it: parsed like a template. */
static xmlDocPtr
S_page(const char *html)
{
	return htmlReadMemory(html, (int)strlen(html), NULL, "UTF-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
	    HTML_PARSE_NODEFDTD | XML_PARSE_NODICT);
}

static char *
S_serialize(xmlDocPtr doc)
{
	char *out;
	size_t len;

	theme_serialize(doc, &out, &len);
	return out;
}

/* 1 if the page's head has a <meta charset> of its own. */
static int
S_own_charset(xmlDocPtr doc)
{
	xmlNodePtr n = xmlDocGetRootElement(doc);

	for (n = n ? n->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "head") == 0)
			break;
	for (n = n ? n->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "meta") == 0 &&
		    xmlHasProp(n, (const xmlChar *)"charset"))
			return 1;
	return 0;
}

/* libxml2's own output, with the <meta http-equiv> it adds dropped where the page has a charset. */
static char *
S_reference(xmlDocPtr doc)
{
	static const char added[] =
	    "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">";
	xmlBufferPtr xb = xmlBufferCreate();
	xmlSaveCtxtPtr sc = xmlSaveToBuffer(xb, "UTF-8", XML_SAVE_AS_HTML | XML_SAVE_NO_DECL);
	const char *s, *hit;
	struct buf b;

	xmlSaveDoc(sc, doc);
	xmlSaveClose(sc);
	s = (const char *)xmlBufferContent(xb);
	buf_init(&b);
	buf_puts(&b, "");
	if (S_own_charset(doc) && (hit = strstr(s, added)) != NULL) {
		buf_put(&b, s, (size_t)(hit - s));
		buf_puts(&b, hit + strlen(added));
	} else
		buf_puts(&b, s);
	xmlBufferFree(xb);
	return buf_detach(&b);
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
	size_t i;

	CHECK_GROUP("rules");
	for (i = 0; i < sizeof(S_rules) / sizeof(S_rules[0]); i++) {
		char *html = xasprintf("<!DOCTYPE html>\n<html>" HEAD "<body>%s</body></html>",
		    S_rules[i].body);
		char *want = xasprintf("<!DOCTYPE html>\n<html>" HEAD "<body>%s</body></html>\n",
		    S_rules[i].want);
		xmlDocPtr doc = S_page(html);
		char *got = S_serialize(doc), *ref = S_reference(doc);

		CHECK_STR(got, want, "%s", S_rules[i].rule);
		CHECK_STR(got, ref, "%s: as libxml2 writes it", S_rules[i].rule);
		free(got);
		free(ref);
		xmlFreeDoc(doc);
		free(html);
		free(want);
	}
}

/* libxml2 adds a <meta http-equiv> to the head; a page with its own charset keeps only that. */
static void
S_check_meta(void)
{
	static const struct {
		const char *rule, *html, *want;
	} cases[] = {
		{ "a head with a charset keeps its own",
		    "<html><head><meta charset=\"utf-8\"></head><body></body></html>",
		    "<html><head><meta charset=\"utf-8\"></head><body></body></html>\n" },
		{ "a head without one gets libxml2's",
		    "<html><head><title>t</title></head><body></body></html>",
		    "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">"
		    "<title>t</title></head><body></body></html>\n" },
		{ "an empty head gets it too",
		    "<html><head></head><body><p>x</p></body></html>",
		    "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">"
		    "</head><body><p>x</p></body></html>\n" },
		{ "another http-equiv is no charset",
		    "<html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" "
		    "content=\"default-src 'self'\"></head><body></body></html>",
		    "<html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" "
		    "content=\"default-src 'self'\"></head><body></body></html>\n" },
		{ "a Content-Type meta of the template's own (libxml2 writes that)",
		    "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">"
		    "</head><body></body></html>", NULL },
	};
	size_t i;

	CHECK_GROUP("meta");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		xmlDocPtr doc = S_page(cases[i].html);
		char *got = S_serialize(doc), *ref = S_reference(doc);

		if (cases[i].want)
			CHECK_STR(got, cases[i].want, "%s", cases[i].rule);
		CHECK_STR(got, ref, "%s: as libxml2 writes it", cases[i].rule);
		free(got);
		free(ref);
		xmlFreeDoc(doc);
	}
}

/* ---- random pages ------------------------------------------------------ */

static unsigned long S_seed = 20240601;

static unsigned
S_rand(unsigned n)
{
	S_seed = S_seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((S_seed >> 33) % n);
}

/* A string of up to max bytes: letters, markup characters, controls, UTF-8, and the two attribute escapes. */
static char *
S_string(unsigned max)
{
	static const char punct[] = "<>&\"' -{}!#%/:=?;@+,\t\n\r_.~*()[]|^`\\$";
	unsigned n = S_rand(max + 1), i;
	char *s = xmalloc(n + 1);

	if (S_rand(20) == 0) {
		free(s);
		return xstrdup(S_rand(2) ? "<!--x-->y<!--" : "&{a}b&{");
	}
	for (i = 0; i < n; i++) {
		unsigned r = S_rand(10);

		if (r < 4)
			s[i] = punct[S_rand(sizeof(punct) - 1)];
		else if (r < 5)
			s[i] = (char)(1 + S_rand(31));
		else if (r < 6)
			s[i] = (char)(0x80 + S_rand(128));
		else
			s[i] = (char)('a' + S_rand(26));
	}
	s[n] = '\0';
	return s;
}

static void
S_check_random(void)
{
	static const char *const names[] = {
		"p", "div", "a", "img", "br", "script", "style", "li", "td", "title", "meta", "source",
		"wbr", "x-unknown", "input", "option", "select", "textarea", "pre", "tbody", "body",
		"span", "link", "hr", "col", "param", "basefont", "frame", "embed", "area", "base",
	};
	static const char *const attrs[] = {
		"href", "src", "action", "name", "checked", "class", "title", "data-x", "HREF",
		"selected", "disabled", "value", "content", "charset", "alt", "id", "ismap", "nowrap",
		/* Every boolean attribute libxml2 knows, some in capitals, and near misses. */
		"compact", "declare", "defer", "multiple", "nohref", "noresize", "noshade", "readonly",
		"Checked", "NOWRAP", "Defer", "deferx", "nohre", "selecte", "readOnly",
	};
	static const char *const frames[] = {
		"<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"x\"><title>t</title></head>"
		"<body><main>x</main></body></html>",
		"<!DOCTYPE html><html><head><title>t</title></head><body></body></html>",
	};
	int i, k, j, differ = -1;
	char *first_got = NULL, *first_ref = NULL;

	CHECK_GROUP("random");
	for (i = 0; i < 3000; i++) {
		xmlDocPtr doc = S_page(frames[i % 2]);
		xmlNodePtr body = xmlDocGetRootElement(doc)->last, cur = body;
		char *got, *ref;

		for (k = 0; k < 30; k++) {
			unsigned r = S_rand(4);
			char *s;

			if (r == 0) {
				s = S_string(12);
				xmlAddChild(cur, xmlNewText((const xmlChar *)s));
				free(s);
			} else if (r == 1 && cur != body)
				cur = cur->parent;
			else if (r == 2) {
				s = S_string(8);
				xmlAddChild(cur, xmlNewComment((const xmlChar *)s));
				free(s);
			} else {
				xmlNodePtr e = xmlNewNode(NULL,
				    (const xmlChar *)names[S_rand(sizeof(names) / sizeof(names[0]))]);

				for (j = (int)S_rand(4); j > 0; j--) {
					s = S_string(14);
					xmlSetProp(e, (const xmlChar *)attrs[S_rand(sizeof(attrs) / sizeof(attrs[0]))],
					    (const xmlChar *)s);
					free(s);
				}
				xmlAddChild(cur, e);
				if (S_rand(2))
					cur = e;
			}
		}
		got = S_serialize(doc);
		ref = S_reference(doc);
		if (differ == -1 && strcmp(got, ref) != 0) {
			differ = i;
			first_got = got;
			first_ref = ref;
		} else {
			free(got);
			free(ref);
		}
		xmlFreeDoc(doc);
	}
	CHECK(differ == -1, "3000 random pages as libxml2 writes them%s%s%s%s",
	    differ == -1 ? "" : "; the first that differs: got\n", first_got ? first_got : "",
	    differ == -1 ? "" : "\nwant\n", first_ref ? first_ref : "");
	free(first_got);
	free(first_ref);
}

/*
 * theme_writer writes what theme_serialize_children writes for the same
 * nodes: elements (void, empty, nested), attribute values the serialiser
 * quotes, escapes or percent-encodes, boolean attributes, text.
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
	{ NULL, NULL, NULL },
	{ "", NULL, "\n" },
};

static void
S_check_writer(void)
{
	xmlNodePtr holder = xmlNewNode(NULL, (const xmlChar *)"div"), cur = holder, el = NULL;
	struct theme_writer *w = theme_writer_new();
	struct buf want, got;
	size_t i;

	CHECK_GROUP("theme_writer");
	buf_init(&want);
	buf_put(&want, "", 0);
	buf_init(&got);
	buf_put(&got, "", 0);
	theme_writer_begin(w, &got);
	for (i = 0; i < sizeof(writer_steps) / sizeof(writer_steps[0]); i++) {
		const char *name = writer_steps[i].el;

		if (name == NULL) {
			theme_writer_end(w);
			cur = cur->parent;
			continue;
		}
		if (*name == '\0') {
			theme_writer_text(w, writer_steps[i].value);
			xmlAddChild(cur, xmlNewText((const xmlChar *)writer_steps[i].value));
			continue;
		}
		theme_writer_start(w, name);
		el = xmlNewChild(cur, NULL, (const xmlChar *)name, NULL);
		cur = el;
		if (writer_steps[i].attr) {
			theme_writer_attr(w, writer_steps[i].attr, writer_steps[i].value);
			xmlSetProp(el, (const xmlChar *)writer_steps[i].attr,
			    (const xmlChar *)writer_steps[i].value);
		}
	}
	CHECK_INT((long)theme_writer_depth(w), 0, "every element is closed");
	theme_serialize_children(holder, &want);
	CHECK_STR(got.data, want.data, "the bytes of the nodes");
	theme_writer_free(w);
	xmlFreeNode(holder);
	buf_free(&want);
	buf_free(&got);
}

/*
 * The same rules through the emitter: a theme whose frame is the rule's
 * page, rendered by theme_render for the home page (so that the
 * template's URLs stay as written), which writes vetted templates
 * straight into bytes. It must write them as the serialiser does.
 */
static void
S_check_emit(void)
{
	static const char *const parts[] = { "home", "test", "deck", "chapter", "404" };
	char root[] = "/tmp/quizdeck-theme-XXXXXX";
	size_t i, k;

	CHECK_GROUP("rules, emitted");
	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	for (i = 0; i < sizeof(S_rules) / sizeof(S_rules[0]); i++) {
		char *html = xasprintf("<!DOCTYPE html>\n<html>" HEAD "<body>%s</body></html>",
		    S_rules[i].body);
		char *want = xasprintf("<!DOCTYPE html>\n<html>" HEAD "<body>%s</body></html>\n",
		    S_rules[i].want);
		char *path = xasprintf("%s/themes/t/templates/page.html", root), *got = NULL;
		struct diag_list dl;
		struct theme t;
		struct tvars *v = tvars_new();
		xmlDocPtr doc;
		size_t len;

		file_write(path, html, strlen(html));
		free(path);
		for (k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
			path = xasprintf("%s/themes/t/templates/%s.html", root, parts[k]);
			file_write(path, "<p>part</p>", 11);
			free(path);
		}
		diag_init(&dl);
		memset(&t, 0, sizeof(t));
		if (theme_load(&t, root, "t", &dl) == 0 && t.emit[THEME_CHAPTER] &&
		    (doc = theme_render(&t, THEME_CHAPTER, v, "index.html", &dl)) != NULL) {
			theme_serialize(doc, &got, &len);
			xmlFreeDoc(doc);
		}
		CHECK(t.emit[THEME_CHAPTER], "%s: the template is written straight into bytes", S_rules[i].rule);
		CHECK_STR(got ? got : "(no page)", want, "%s", S_rules[i].rule);
		free(got);
		tvars_free(v);
		theme_free(&t);
		diag_free(&dl);
		free(html);
		free(want);
	}
	dir_remove(root);
}

/*
 * A theme that cannot load says why, each thing wrong once, and leaves
 * nothing to free (the ASan build of this test fails on a leak).
 */
static void
S_check_load_errors(void)
{
	static const char *const parts[] = { "home", "test", "deck", "chapter" };
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
	rc = theme_load(&t, root, "../x", &dl);
	CHECK(rc == -1 && dl.len == 1 && strstr(dl.v[0].message, "a theme is named by its folder") != NULL,
	    "a name that is a path is refused");
	CHECK(t.name == NULL && t.page == NULL, "and nothing is left to free");
	diag_free(&dl);

	diag_init(&dl);
	rc = theme_load(&t, root, "none", &dl);
	CHECK(rc == -1 && dl.len == 1 && strstr(dl.v[0].message, "theme \"none\" not found: no templates/page.html in ") != NULL,
	    "a theme found nowhere names where it was looked for");
	diag_free(&dl);

	/* A frame, four parts of five, one of them with a directive the renderer does not know. */
	path = xasprintf("%s/themes/t/templates/page.html", root);
	file_write(path, frame, strlen(frame));
	free(path);
	for (k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		path = xasprintf("%s/themes/t/templates/%s.html", root, parts[k]);
		file_write(path, k == 2 ? wrong : "<p>part</p>", strlen(k == 2 ? wrong : "<p>part</p>"));
		free(path);
	}
	diag_init(&dl);
	rc = theme_load(&t, root, "t", &dl);
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

int
main(void)
{
	xmlInitParser();
	S_check_load_errors();
	S_check_writer();
	S_check_rules();
	S_check_emit();
	S_check_meta();
	S_check_random();
	xmlCleanupParser();
	return check_finish();
}

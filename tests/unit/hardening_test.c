/*
 * Hardening: the regression cases of the fuzzers' findings and the small
 * rules that keep content from becoming code or leaving its place.
 *
 *   - templates (theme.c): a value never fills a script or style, nor an
 *     event attribute; an unsafe URL value is dropped; a part that holds
 *     a "main" slot is filled in once (it recursed until memory ran out:
 *     fuzz_template); values with markup stay text; a nameless doctype
 *     is written (fuzz_template: a NULL read);
 *   - rendering (render.c): a broken relative link is not emitted as
 *     written (fuzz_links), an unsafe one keeps its words only;
 *   - URLs of odd file names (url_encode_path), an output folder named
 *     with a trailing slash (path_trim_dir: its staging went inside it), names compared as a
 *     disk that ignores case or normalises Unicode does (md_casefold,
 *     md_fold_difference), what counts as external;
 *   - limits: a file over [limits] max_file_size is not read; one over
 *     max_elements is dropped before the model is built from it; outputs
 *     that collide by case are errors;
 *   - diagnostics print control characters escaped;
 *   - every text cmark-gfm gives back is valid UTF-8 (it cut a character
 *     in two: fuzz_cardtext);
 *   - card text handed to Pango is bounded (a 40,000-letter word took
 *     40 s to lay out).
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <pango/pangocairo.h>

#include "check.h"
#include "cardtext.h"
#include "diag.h"
#include "links.h"
#include "markdown.h"
#include "model.h"
#include "render.h"
#include "site.h"
#include "theme.h"
#include "util.h"
#include "site_fixture.h"

const char *__lsan_default_suppressions(void);

/* fontconfig's caches and configuration parse (tests/lsan.supp): not ours. */
const char *
__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/* ---- templates -------------------------------------------------------- */

/* Parses a template; returns 1 if it loads, with the first diagnostic in *msg. */
static int
S_template_ok(const char *html, char **msg)
{
	struct diag_list dl;
	xmlDocPtr doc;

	diag_init(&dl);
	doc = theme_parse(html, strlen(html), "t.html", &dl);
	*msg = xstrdup(dl.len ? dl.v[0].message : "");
	diag_free(&dl);
	if (doc)
		xmlFreeDoc(doc);
	return doc != NULL;
}

/* Renders frame + part with a few values; returns the page (caller frees) or NULL. */
static char *
S_render(const char *frame, const char *part)
{
	struct diag_list dl;
	struct theme t;
	struct tvars *v;
	struct buf b;
	char *out = NULL;
	size_t k;

	diag_init(&dl);
	memset(&t, 0, sizeof(t));
	t.page = theme_parse(frame, strlen(frame), "page.html", &dl);
	for (k = 0; k < THEME_NPARTS; k++) {
		t.parts[k] = theme_parse(part, strlen(part), "part.html", &dl);
		t.part_files[k] = "part.html";
	}
	v = tvars_new();
	tvars_text(v, "title", "</title><script>alert(1)</script>");
	tvars_text(v, "url", "javascript:alert(2)");
	tvars_text(v, "page", "guide/a b/index.html");
	buf_init(&b);
	if (t.page && t.parts[0] && theme_render(&t, THEME_HOME, v, "guide/x/index.html", &b, &dl) == 0) {
		buf_put(&b, "", 0);
		out = buf_detach(&b);
	}
	buf_free(&b);
	tvars_free(v);
	if (t.page)
		xmlFreeDoc(t.page);
	for (k = 0; k < THEME_NPARTS; k++)
		if (t.parts[k])
			xmlFreeDoc(t.parts[k]);
	diag_free(&dl);
	return out;
}

/* How many times needle occurs in hay (0 for NULL). */
static int
S_count(const char *hay, const char *needle)
{
	int n = 0;

	while (hay && (hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void
test_templates(void)
{
	char *msg, *out;

	CHECK_GROUP("templates");
	CHECK(!S_template_ok("<html><head><script data-qd-slot=\"title\"></script></head></html>", &msg),
	    "a value may not fill a <script> (fuzz_template)");
	CHECK_STR(msg, "template attribute \"data-qd-slot\" on <script>: values may not fill a script or style",
	    "the message");
	free(msg);
	CHECK(!S_template_ok("<html><head><style data-qd-slot=\"title\"></style></head></html>", &msg),
	    "nor a <style>");
	free(msg);
	CHECK(!S_template_ok("<html><body><a data-qd-attr-onclick=\"title\">x</a></body></html>", &msg),
	    "nor an event handler");
	CHECK_STR(msg, "template attribute \"data-qd-attr-onclick\": values may not fill event handlers, style or srcdoc",
	    "the message");
	free(msg);
	CHECK(!S_template_ok("<html><body><p data-qd-attr-style=\"title\">x</p></body></html>", &msg),
	    "nor a style attribute");
	free(msg);
	CHECK(!S_template_ok("<html><body><iframe data-qd-attr-srcdoc=\"title\"></iframe></body></html>", &msg),
	    "nor srcdoc");
	free(msg);
	CHECK(S_template_ok("<html><body><script data-qd-replace=\"title\"></script></body></html>", &msg),
	    "a script element may be replaced by a value (it becomes text outside any script)");
	free(msg);

	out = S_render("<html><head><title data-qd-slot=\"title\">x</title></head>"
	    "<body><main data-qd-slot=\"main\"></main></body></html>",
	    "<html><body><p>part</p><div data-qd-slot=\"main\"></div>"
	    "<a data-qd-attr-href=\"url\">u</a><a data-qd-attr-href=\"page\">p</a></body></html>");
	CHECK(out != NULL, "a part holding a main slot renders (it used to expand itself forever)");
	CHECK_INT(S_count(out, "<p>part</p>"), 1, "the part goes in once");
	CHECK(out && strstr(out, "&lt;/title&gt;&lt;script&gt;") != NULL && strstr(out, "<script>") == NULL,
	    "a value with markup stays text");
	CHECK(out && strstr(out, "javascript:") == NULL, "an unsafe URL value is dropped");
	CHECK(out && strstr(out, "href=\"../a%20b/index.html\"") != NULL,
	    "a safe relative value is made relative to the page");
	free(out);
	out = S_render("<!DOCTYPE <!DOCTYPE html><html><body><main data-qd-slot=\"main\"></main></body></html>",
	    "<html><body><p>part</p></body></html>");
	CHECK(out != NULL && strstr(out, "<p>part</p>") != NULL,
	    "a doctype without a name is written (a NULL name was read once: fuzz_template)");
	free(out);
}

/* ---- rendering links ---------------------------------------------------- */

/* The chapter's rendered body. */
static char *
S_render_chapter(struct site *site, const char *rel)
{
	struct doc *d = site_doc(site, rel);
	struct doc_tree *tree;
	struct render_out out;
	struct render_opts o;
	struct render *r;
	struct buf b;

	if (d == NULL)
		return xstrdup("(no doc)");
	memset(&o, 0, sizeof(o));
	o.site = site;
	o.doc = d;
	o.page_url = d->url;
	o.id_prefix = "";
	buf_init(&b);
	buf_put(&b, "", 0);
	out.w = theme_writer_new();
	theme_writer_begin(out.w, &b);
	tree = doc_tree_open(d);
	r = render_new(&o);
	render_out_children(r, &out, doc_tree_root(tree));
	render_free(r);
	doc_tree_close(tree);
	theme_writer_free(out.w);
	return buf_detach(&b);
}

static void
test_render_links(void)
{
	struct site site;
	struct diag_list dl;
	char *html;

	CHECK_GROUP("rendering links");
	fixture_begin();
	fixture_put("content/guide/a.md",
	    "# A\n\n[broken](../../../../site.toml) [gone](nowhere.md) [js](JaVaScRiPt:alert(1)) "
	    "[tab](java&#x09;script:alert(2)) [ok](<my chapter.md#here>) [colon](<./a:b.md>) ![img](<pic %231.png>)\n");
	fixture_put("content/guide/my chapter.md", "# Mine\n\n## Here\n");
	fixture_put("content/guide/a:b.md", "# Colon\n");
	fixture_put("content/guide/pic #1.png", "png");
	fixture_load(&site, &dl);
	html = S_render_chapter(&site, "guide/a.md");
	CHECK(strstr(html, "site.toml") == NULL && strstr(html, "nowhere") == NULL,
	    "broken relative links are not emitted as written (fuzz_links)");
	CHECK(strstr(html, "broken") && strstr(html, "gone"), "their words stay");
	CHECK(strstr(html, "script:") == NULL, "unsafe links are left out, in any disguise");
	CHECK(strstr(html, "href=\"../my%20chapter/index.html#here\"") != NULL, "a space is encoded");
	CHECK(strstr(html, "href=\"../a%3Ab/index.html\"") != NULL,
	    "a colon is encoded, so \"a:b/\" is never read as a scheme (written ./a:b.md, as on GitHub)");
	CHECK(strstr(html, "src=\"../pic%20%231.png\"") != NULL, "an image with '#' in its name");
	CHECK_STR(fixture_diags(&dl),
	    "content/guide/a.md:3:1: error: broken link \"../../../../site.toml\": it leads outside content/\n"
	    "content/guide/a.md:3:33: error: broken link \"nowhere.md\": no file content/guide/nowhere.md\n"
	    "content/guide/a.md:3:52: warning: link to an unsafe URL \"JaVaScRiPt:alert(1)\" is left out of the output\n"
	    "content/guide/a.md:3:78: warning: link to an unsafe URL \"java\\x09script:alert(2)\" is left out of the output",
	    "the diagnostics (a tab shown escaped)");
	free(html);
	fixture_end(&site, &dl);
}

static void
test_urls(void)
{
	static const struct {
		const char *in, *out;
	} enc[] = {
		{ "guide/ring/index.html", "guide/ring/index.html" },
		{ "guide/a b/index.html", "guide/a%20b/index.html" },
		{ "cards/a:b/index.html", "cards/a%3Ab/index.html" },
		{ "guide/caf\xc3\xa9/x", "guide/caf%C3%A9/x" },
		{ "q/#1?%/", "q/%231%3F%25/" },
		{ "-rf/it's (x)&y=1;z@w", "-rf/it's%20(x)&y=1;z@w" },
		{ "a\"<b>\\c", "a%22%3Cb%3E%5Cc" },
		{ "tab\tnl\n", "tab%09nl%0A" },
		{ "a.b_c~d!e$f*g+h,i", "a.b_c~d!e$f*g+h,i" },
		{ "[x]{y}|^`\x7f", "%5Bx%5D%7By%7D%7C%5E%60%7F" },
	};
	static const struct {
		const char *dest;
		int external;
	} ext[] = {
		{ "", 1 }, { "https://x", 1 }, { "mailto:a@b", 1 }, { "//host/x", 1 },
		{ "x.md", 0 }, { "#a", 0 }, { "../x.md", 0 }, { "%6Aavascript:x", 0 }, { " javascript:x", 0 },
	};
	size_t i;
	char *s;

	CHECK_GROUP("urls");
	for (i = 0; i < sizeof(enc) / sizeof(enc[0]); i++) {
		s = url_encode_path(enc[i].in);
		CHECK_STR(s, enc[i].out, "url_encode_path %zu", i);
		free(s);
	}
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		CHECK_INT(links_is_external(ext[i].dest), ext[i].external, "links_is_external \"%s\"", ext[i].dest);
	s = md_casefold("Cards/FOO-Éa-ΣΑ-Д.md");
	CHECK_STR(s, "cards/foo-e\xcc\x81" "a-σα-д.md", "md_casefold folds Latin, Greek, Cyrillic, decomposed");
	free(s);
	s = md_casefold("a\xff" "B");
	CHECK_STR(s, "a\xff" "b", "md_casefold keeps a stray byte");
	free(s);
	CHECK_INT(md_fold_difference("Foo", 3, "foo", 3), MD_FOLD_CASE, "Foo and foo differ in case");
	CHECK_INT(md_fold_difference("\xc3\x89t\xc3\xa9", 5, "\xc3\xa9T\xc3\xa9", 5), MD_FOLD_CASE,
	    "\xc3\x89t\xc3\xa9 and \xc3\xa9T\xc3\xa9, one code point each, in case");
	CHECK_INT(md_fold_difference("caf\xc3\xa9", 5, "cafe\xcc\x81", 6), MD_FOLD_COMPOSITION,
	    "caf\xc3\xa9 composed and decomposed differ in composition");
	CHECK_INT(md_fold_difference("CAF\xc3\x89", 5, "cafe\xcc\x81", 6), MD_FOLD_CASE | MD_FOLD_COMPOSITION,
	    "CAF\xc3\x89 and cafe\xcc\x81 differ in both");
	CHECK_INT(md_fold_difference("A\xff/x", 3, "a\xff/y", 3), MD_FOLD_CASE,
	    "a stray byte is kept, and only the lengths given are compared");

	/* An output folder's name, to put out.staging-N beside it (-o out/ made it inside). */
	{
		static const char *const dirs[][2] = {
			{ "out", "out" }, { "out/", "out" }, { "/tmp/x//", "/tmp/x" }, { "out/.", "out" },
			{ "out/./", "out" }, { "/", "/" }, { "//", "/" }, { "/.", "/" }, { ".", "." },
			{ "./", "." }, { "a./", "a." }, { "a/..", "a/.." }, { "", "" },
		};

		for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			s = path_trim_dir(dirs[i][0]);
			CHECK_STR(s, dirs[i][1], "path_trim_dir \"%s\"", dirs[i][0]);
			free(s);
		}
	}
}

/* ---- limits and collisions ------------------------------------------- */

static void
test_limits(void)
{
	struct site site;
	struct diag_list dl;
	struct doc_tree *tree;
	char *big;
	int rc;

	CHECK_GROUP("limits");
	fixture_begin();
	fixture_put("site.toml", "[limits]\nmax_file_size = 2048\nmax_elements = 100\n");
	big = xmalloc(3001);
	memset(big, 'x', 3000);
	memcpy(big, "# Big\n\n", 7);
	big[3000] = '\0';
	fixture_put("content/guide/big.md", big);
	free(big);
	fixture_put("content/guide/many.md", "# Many\n\n- a\n- b\n- c\n- d\n- e\n- f\n- g\n- h\n- i\n- j\n"
	    "- a\n- b\n- c\n- d\n- e\n- f\n- g\n- h\n- i\n- j\n- a\n- b\n- c\n- d\n- e\n- f\n- g\n- h\n"
	    "- i\n- j\n- a\n- b\n- c\n- d\n- e\n- f\n- g\n- h\n- i\n- j\n");
	fixture_put("content/guide/fine.md", "# Fine\n\n[big](big.md) [many](many.md#x)\n");
	rc = fixture_load(&site, &dl);
	CHECK_INT(rc, -1, "the site fails");
	CHECK_STR(fixture_diags(&dl),
	    "content/guide/big.md: error: the file is 3000 bytes, over the limit of 2048 bytes: split it, or "
	    "raise [limits] max_file_size in site.toml\n"
	    "content/guide/many.md: error: more than 100 Markdown elements (headings, paragraphs, list items, "
	    "links, ...): split the file, or raise [limits] max_elements in site.toml",
	    "one error each, and nothing more (links into them are not checked)");
	tree = site_doc(&site, "guide/many.md") ? doc_tree_open(site_doc(&site, "guide/many.md")) : NULL;
	CHECK(tree && cmark_node_first_child(doc_tree_root(tree)) == NULL,
	    "a file over the limit opens as an empty tree");
	doc_tree_close(tree);
	fixture_end(&site, &dl);
}

static void
test_collisions(void)
{
	struct site site;
	struct diag_list dl;

	CHECK_GROUP("collisions");
	fixture_begin();
	fixture_put("content/cards/Deck.md", "# D\n\n## Card\n\nBack.\n");
	fixture_put("content/cards/deck.md", "# d\n\n## Card\n\nBack.\n");
	fixture_put("content/guide/Ch.md", "# C\n");
	fixture_put("content/guide/ch.md", "# c\n");
	fixture_load(&site, &dl);
	CHECK_STR(fixture_diags(&dl),
	    "content/cards/deck.md: error: out/cards/deck/index.html and out/cards/Deck/index.html (for content/cards/Deck.md) "
	    "are one file on a case-insensitive disk (macOS, Windows): rename one\n"
	    "content/cards/deck.md: error: out/print/deck.pdf and out/print/Deck.pdf (for content/cards/Deck.md) "
	    "are one file on a case-insensitive disk (macOS, Windows): rename one\n"
	    "content/guide/ch.md: error: out/guide/ch/index.html and out/guide/Ch/index.html (for content/guide/Ch.md) "
	    "are one file on a case-insensitive disk (macOS, Windows): rename one",
	    "decks and chapters differing by case");
	fixture_end(&site, &dl);

	/* macOS compares names decomposed: "é" as one code point, or "e" and U+0301. */
	fixture_begin();
	fixture_put("content/guide/caf\xc3\xa9.md", "# Composed\n");
	fixture_put("content/guide/cafe\xcc\x81.md", "# Decomposed\n");
	fixture_put("content/guide/CAFE\xcc\x81-menu.md", "# Upper\n");
	fixture_put("content/guide/caf\xc3\xa9-menu.md", "# Lower\n");
	fixture_load(&site, &dl);
	CHECK_STR(fixture_diags(&dl),
	    "content/guide/caf\xc3\xa9-menu.md: error: out/guide/caf\xc3\xa9-menu/index.html and "
	    "out/guide/CAFE\xcc\x81-menu/index.html (for content/guide/CAFE\xcc\x81-menu.md) "
	    "are one file on a case-insensitive disk that normalises Unicode (macOS): rename one\n"
	    "content/guide/caf\xc3\xa9.md: error: out/guide/caf\xc3\xa9/index.html and "
	    "out/guide/cafe\xcc\x81/index.html (for content/guide/cafe\xcc\x81.md) "
	    "are one file on a disk that normalises Unicode (macOS): rename one",
	    "names differing only in composition, or in case and composition");
	fixture_end(&site, &dl);
}

/* ---- diagnostics -------------------------------------------------------- */

static void
test_diag(void)
{
	struct diag_list dl;
	char *s;

	CHECK_GROUP("diagnostics");
	diag_init(&dl);
	diag_error(&dl, "content/a\x1b[31mb.md", 1, 2, "bad \"%s\"", "x\ny\x1b]0;title\x07");
	s = diag_format(&dl.v[0]);
	CHECK_STR(s, "content/a\\x1b[31mb.md:1:2: error: bad \"x\\x0ay\\x1b]0;title\\x07\"",
	    "control characters from content reach no terminal");
	free(s);
	diag_free(&dl);
}

/*
 * utf8_validate takes ASCII eight bytes at a time and counts the line and
 * column only when a byte is bad: every bad byte, at every offset around
 * the eight-byte steps, after ASCII, line breaks and good multi-byte
 * characters, is found where a byte-by-byte count puts it.
 */
static void
test_utf8_positions(void)
{
	static const char *const bad[] = { "\x80", "\xc3", "\xe6\x97", "\xf0\x9f\x98", "\xc0\xaf", "\xed\xa0\x80", "\xff" };
	static const char *const fill[] = { "a", "\n", "\xc3\xa9", "\xe6\x97\xa5" };
	int all = 1, line, col;
	size_t pre, b, f;

	CHECK_GROUP("utf8_validate");
	for (b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
		for (f = 0; f < sizeof(fill) / sizeof(fill[0]); f++)
			for (pre = 0; pre < 20; pre++) {
				struct buf s;
				int want_line = 1, want_col = 1;
				size_t i;

				buf_init(&s);
				buf_puts(&s, "");
				for (i = 0; i < pre; i++) {
					buf_puts(&s, i % 3 == 2 ? fill[f] : "x");
					if (i % 3 == 2 && fill[f][0] == '\n') {
						want_line++;
						want_col = 1;
					} else
						want_col += (int)strlen(i % 3 == 2 ? fill[f] : "x");
				}
				buf_puts(&s, bad[b]);
				buf_puts(&s, "tail text that is ASCII");
				line = col = 0;
				if (utf8_validate(s.data, s.len, &line, &col) != 0 || line != want_line ||
				    col != want_col) {
					CHECK(0, "bad sequence %zu after %zu bytes of fill %zu: at %d:%d, want %d:%d",
					    b, pre, f, line, col, want_line, want_col);
					all = 0;
				}
				buf_free(&s);
			}
	CHECK(all, "every bad byte is found at its line and column");
	{
		static const char good[] = "plain ASCII, longer than eight bytes\n\xc3\xa9\xe6\x97\xa5 ok";

		CHECK_INT(utf8_validate(good, strlen(good), &line, &col), 1, "good text passes");
	}
}

/* ---- Markdown ----------------------------------------------------------- */

/* 1 if every literal in the tree is valid UTF-8; the text of the tree in *text. */
static int
S_all_valid(cmark_node *root, struct buf *text)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	int ok = 1, line, col;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		const char *lit = cmark_node_get_literal(cmark_iter_get_node(it));

		if (ev != CMARK_EVENT_ENTER || lit == NULL)
			continue;
		ok &= utf8_validate(lit, strlen(lit), &line, &col);
		buf_puts(text, lit);
	}
	cmark_iter_free(it);
	return ok;
}

static void
test_markdown_utf8(void)
{
	static const char *const inputs[] = {
		"[^\n\xe6\x97\xa5>] after\n",             /* fuzz_cardtext: cmark-gfm cut 日 in two */
		"[^\n\xf0\x9f\x98\x80]\n",               /* an emoji */
		"Back [^\n\xe6\x97\xa5\xe6\x9c\xac>] x\n",
		"[^\n\0>]",
	};
	size_t i;

	CHECK_GROUP("markdown utf-8");
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		size_t len = i == 3 ? 6 : strlen(inputs[i]);
		cmark_node *root = md_parse(inputs[i], len);
		struct buf text;

		buf_init(&text);
		buf_puts(&text, "");
		CHECK(S_all_valid(root, &text), "every literal of input %zu is valid UTF-8", i);
		if (i == 0)
			CHECK(strstr(buf_str(&text), "after") != NULL, "and the text after it stays");
		buf_free(&text);
		cmark_node_free(root);
	}
}

/* ---- card text ---------------------------------------------------------- */

static void
test_card_text(void)
{
	PangoContext *pango = pango_font_map_create_context(pango_cairo_font_map_get_default());
	PangoLayout *l;
	char *word = xmalloc(50001);
	const char *text;

	CHECK_GROUP("card text");
	memset(word, 'a', 50000);
	word[50000] = '\0';
	l = cardtext_new_layout(pango, word, 1);
	text = pango_layout_get_text(l);
	CHECK(strstr(text, "\xe2\x80\x8b") != NULL && strstr(text, "\xe2\x80\x8b") - text == 200,
	    "a zero-width space after 200 letters of one word");
	CHECK(strlen(text) < 31000 * 3 && strcmp(text + strlen(text) - 3, "\xe2\x80\xa6") == 0,
	    "the text is cut at 30,000 characters, with an ellipsis");
	g_object_unref(l);
	memcpy(word, "<b>", 3);
	memcpy(word + 49990, "</b>&amp;", 9);
	word[49999] = '\0';
	l = cardtext_new_layout(pango, word, 0);
	text = pango_layout_get_text(l);
	CHECK(text && strlen(text) > 30000 && strstr(text, "<b>") == NULL,
	    "markup cut short stays balanced (Pango took it): %zu bytes", text ? strlen(text) : 0);
	g_object_unref(l);
	free(word);
	g_object_unref(pango);
}

int
main(void)
{
	test_templates();
	test_render_links();
	test_urls();
	test_limits();
	test_collisions();
	test_diag();
	test_utf8_positions();
	test_markdown_utf8();
	test_card_text();
	return check_finish();
}

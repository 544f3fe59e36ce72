/*
 * libFuzzer target: link resolution and the rendering of links, for a
 * chapter whose body is the input, in a small fixed site (a chapter with
 * anchors, a test, a deck, an image, a draft). The first byte chooses
 * [markdown] unsafe_html (odd: on).
 *
 * Oracles: every target links_output_target returns is a relative URL
 * below out/ (no scheme, no "/" or ".." escaping the root); the chapter
 * rendered, with its footnotes, closes every element it opens, and read
 * back by libxml2's HTML parser (as a browser would) holds no unsafe URL
 * and, without unsafe_html, no script, event attribute or style
 * (fuzz_util.h); every relative href or src, resolved from the page,
 * stays inside out/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>

#include "diag.h"
#include "links.h"
#include "model.h"
#include "outputs.h"
#include "render.h"
#include "site.h"
#include "theme.h"
#include "util.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned char png[] = {
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00,
	0x00, 0x05, 0x00, 0x01, 0x7a, 0x5e, 0xab, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44,
	0xae, 0x42, 0x60, 0x82,
};

static void
S_setup(void)
{
	fz_put_str("content/guide/ring.md",
	    "# Ring\n\n## Ring all-reduce {#ring-all-reduce}\n\nText.\n\n## Cost\n\n"
	    "[back](../quiz/t/topic.md#q1)\n");
	fz_put_str("content/guide/part/deep.md", "# Deep\n\n## Deeper {#deeper}\n");
	fz_put_str("content/guide/my chapter.md", "# Odd name\n\n## Here\n");
	fz_put_str("content/guide/draft.md", "+++\ndraft = true\n+++\n# Draft\n");
	fz_put("content/guide/img.png", png, sizeof(png));
	fz_put("content/guide/odd name #1.png", png, sizeof(png));
	fz_put_str("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
	fz_put_str("content/quiz/t/topic.md", "# Topic\n\n## Q? {#q1 .easy}\n\n- [ ] a\n- [x] b\n\nWhy.\n");
	fz_put_str("content/cards/deck.md", "# Deck\n\n## Front {#dp}\n\nBack.\n");
}

/* A relative URL (percent-encoded) resolved from page stays inside out/. */
static void
S_check_inside(const char *page, const char *url)
{
	char *path, *dir, *joined, *norm;
	const char *end = url + strcspn(url, "?#");

	if (end == url)
		return;
	path = xstrndup(url, (size_t)(end - url));
	dir = path_dirname(page);
	joined = path_join(dir, path);
	norm = path_normalize(joined);
	if (norm == NULL)
		fz_fail("a relative URL leaves out/", (const xmlChar *)page, (const xmlChar *)url);
	free(norm);
	free(joined);
	free(dir);
	free(path);
}

static int
S_has_scheme(const char *s)
{
	const char *p = s;

	while (*p && *p != '/' && *p != '?' && *p != '#')
		if (*p++ == ':')
			return 1;
	return 0;
}

static void
S_check_rendered(xmlNodePtr top, const char *page)
{
	xmlNodePtr n = top;

	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			static const char *const attrs[] = { "href", "src" };
			size_t i;

			for (i = 0; i < 2; i++) {
				xmlChar *v = xmlGetProp(n, (const xmlChar *)attrs[i]);

				if (v && !S_has_scheme((const char *)v) && strncmp((const char *)v, "//", 2) != 0 &&
				    v[0] != '/')
					S_check_inside(page, (const char *)v);
				xmlFree(v);
			}
		}
		n = theme_next_node(n, top);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct site_options so;
	struct diag_list dl;
	struct site site;
	struct buf md;
	const struct doc *d;
	int unsafe = size > 0 && (data[0] & 1);

	if (!ready) {
		S_setup();
		ready = 1;
	}
	fz_put_str("site.toml", unsafe ? "[markdown]\nunsafe_html = true\n" : "");
	buf_init(&md);
	buf_puts(&md, "# Input\n\n");
	if (size > 1)
		buf_put(&md, data + 1, size - 1);
	fz_put("content/guide/part/input.md", md.data, md.len);
	buf_free(&md);

	memset(&so, 0, sizeof(so));
	diag_init(&dl);
	site_load(&site, fz_site_dir(), &so, &dl);
	links_resolve(&site, &dl);
	outputs_check(&site, &dl);
	d = site_doc(&site, "guide/part/input.md");
	if (d && d->url) {
		struct doc_tree *tree = doc_tree_open(d);
		cmark_iter *it = cmark_iter_new(doc_tree_root(tree));
		cmark_event_type ev;
		struct render_opts o;
		struct render_out out;
		struct render *r;
		struct buf b;
		htmlDocPtr doc;

		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			const char *url;
			char *target;

			if (ev != CMARK_EVENT_ENTER || (cmark_node_get_type(n) != CMARK_NODE_LINK &&
			    cmark_node_get_type(n) != CMARK_NODE_IMAGE))
				continue;
			url = cmark_node_get_url(n);
			target = links_output_target(&site, d, url ? url : "");
			if (target) {
				if (target[0] == '/' || S_has_scheme(target))
					fz_fail("an output target that is not below out/", NULL, (const xmlChar *)target);
				S_check_inside("index.html", target);
				free(target);
			}
		}
		cmark_iter_free(it);

		memset(&o, 0, sizeof(o));
		o.site = &site;
		o.doc = d;
		o.page_url = d->url;
		o.id_prefix = "";
		buf_init(&b);
		buf_puts(&b, "<div>");
		out.w = theme_writer_new();
		theme_writer_begin(out.w, &b);
		r = render_new(&o);
		render_out_children(r, &out, doc_tree_root(tree));
		render_out_footnotes(r, &out);
		render_free(r);
		doc_tree_close(tree);
		if (theme_writer_depth(out.w) != 0)
			fz_fail("an element left open", NULL, NULL);
		theme_writer_free(out.w);
		buf_puts(&b, "</div>");
		/* What a browser would see: the bytes parsed again. */
		doc = htmlReadMemory(b.data, (int)b.len, NULL, "UTF-8",
		    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
		if (doc == NULL)
			fz_fail("unparsable rendering", NULL, NULL);
		fz_check_tree(xmlDocGetRootElement(doc), unsafe);
		S_check_rendered(xmlDocGetRootElement(doc), d->url);
		xmlFreeDoc(doc);
		buf_free(&b);
	}
	site_free(&site);
	diag_free(&dl);
	return 0;
}

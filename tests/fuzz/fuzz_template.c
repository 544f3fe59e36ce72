#define _GNU_SOURCE
/*
 * libFuzzer target: template loading and filling (theme.c). The input is
 * parsed as the frame template (page.html) and, after a form feed (\f),
 * as the part template that fills its main slot (the frame again when
 * there is none); both are filled with values that carry injection
 * attempts, for every part kind, and written.
 *
 * Oracle: a text value is only ever text. Parsed back, the page has no
 * element made from a value, and no value in a URL attribute that is
 * unsafe, an event attribute, style or srcdoc (unless the template
 * itself spells the marker "qdinj").
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>

#include "config.h"
#include "diag.h"
#include "lang.h"
#include "links.h"
#include "theme.h"
#include "util.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define EVIL_TEXT "</title><qdinj onload=x>\"'&amp;"
#define EVIL_URL "javascript:qdinj()"

static struct tvars *
S_values(void)
{
	static const char body[] = "<p>&lt;/title&gt;&lt;qdinj onload=x&gt;</p>\n";
	struct tvars *v = tvars_new(), *it;
	static const char *const names[] = {
		"lang", "site-title", "title", "page-title", "description", "body-class",
		"author", "eyebrow", "counts", "current", "class", "label", "slug",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		tvars_text(v, names[i], EVIL_TEXT);
	tvars_text(v, "url", EVIL_URL);
	tvars_text(v, "canonical", EVIL_URL);
	tvars_text(v, "home", "index.html");
	tvars_html(v, "body", xstrdup(body), strlen(body));
	for (i = 0; i < 3; i++) {
		it = tvars_item(v, "nav");
		tvars_text(it, "url", i == 1 ? EVIL_URL : "cards/x y/index.html");
		tvars_text(it, "title", EVIL_TEXT);
		tvars_text(tvars_item(it, "nav"), "title", EVIL_TEXT);
	}
	return v;
}

static const char *S_page;

static void
S_fail(const char *what, const xmlChar *a, const xmlChar *b)
{
	fprintf(stderr, "%s\nfuzz oracle: %s: %s %s\n", S_page, what, a ? (const char *)a : "",
	    b ? (const char *)b : "");
	abort();
}

static void
S_check(const char *html, size_t len)
{
	htmlDocPtr doc = htmlReadMemory(html, (int)len, NULL, "UTF-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	xmlNodePtr top = doc ? xmlDocGetRootElement(doc) : NULL, n = top;

	S_page = html;

	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlAttrPtr a;

			if (xmlStrcasestr(n->name, (const xmlChar *)"qdinj"))
				S_fail("a value became an element", n->name, NULL);
			for (a = n->properties; a; a = a->next) {
				xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
				const char *an = (const char *)a->name;

				if (xmlStrcasestr(a->name, (const xmlChar *)"qdinj"))
					S_fail("a value became an attribute", n->name, a->name);
				if (v && xmlStrstr(v, (const xmlChar *)"qdinj") &&
				    (strncasecmp(an, "on", 2) == 0 || strcasecmp(an, "style") == 0 ||
				    strcasecmp(an, "srcdoc") == 0 || ((strcasecmp(an, "href") == 0 ||
				    strcasecmp(an, "src") == 0 || strcasecmp(an, "action") == 0 ||
				    strcasecmp(an, "formaction") == 0 || strcasecmp(an, "poster") == 0) &&
				    !links_url_is_safe((const char *)v, 0))))
					S_fail("a value filled a dangerous attribute", a->name, v);
				xmlFree(v);
			}
		}
		n = theme_next_node(n, top);
	}
	if (doc)
		xmlFreeDoc(doc);
}

/* Loaded once, kept for the process. */
static struct lang *lang;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *ff = memchr(in, '\f', size);
	size_t plen = ff ? (size_t)(ff - in) : size;
	int spelled = memmem(in, size, "qdinj", 5) != NULL;
	struct diag_list dl;
	struct theme t;
	struct tvars *v;
	xmlDocPtr page, part;
	int k;

	diag_init(&dl);
	if (lang == NULL) {
		/* quizdeck's own strings (found beside the fuzz program), for the templates' data-qd-t. */
		struct config cfg;

		config_defaults(&cfg);
		lang = lang_load(fz_site_dir(), &cfg, &dl);
		config_free(&cfg);
	}
	memset(&t, 0, sizeof(t));
	/* Parsed on their own first (theme_parse), then loaded as a theme from tmpfs. */
	page = theme_parse(in, plen, "page.html", &dl);
	part = ff ? theme_parse(ff + 1, size - plen - 1, "part.html", &dl) :
	    theme_parse(in, plen, "part.html", &dl);
	fz_put("themes/fz/templates/page.html", in, plen);
	for (k = 0; k < THEME_NPARTS; k++) {
		/* In enum theme_part's order; one entry a part, or the build fails below. */
		static const char *const parts[] = { "home", "test", "deck", "chapter", "guide", "404" };
		_Static_assert(sizeof(parts) / sizeof(parts[0]) == THEME_NPARTS, "a name for every part");
		char *rel = xasprintf("themes/fz/templates/%s.html", parts[k]);

		if (ff)
			fz_put(rel, ff + 1, size - plen - 1);
		else
			fz_put(rel, in, plen);
		free(rel);
	}
	if (page && part && theme_load(&t, fz_site_dir(), "fz", lang, &dl) == 0) {
		v = S_values();
		for (k = 0; k < THEME_NPARTS; k++) {
			struct buf out;

			buf_init(&out);
			if (theme_render(&t, (enum theme_part)k, v, "guide/x/index.html", &out, &dl) == 0 &&
			    !spelled)
				S_check(out.data, out.len);
			buf_free(&out);
		}
		tvars_free(v);
	}
	theme_free(&t);
	if (page)
		xmlFreeDoc(page);
	if (part)
		xmlFreeDoc(part);
	diag_free(&dl);
	return 0;
}

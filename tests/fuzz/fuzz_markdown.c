/*
 * libFuzzer target: parsing, heading attributes, plain text and slugs.
 *
 * Oracles: a slug holds no ASCII but a-z, 0-9, - and _ (GitHub's rule,
 * and what keeps ids safe in URLs and selectors); an attribute id or
 * class holds no space, quote, '<', '>', '#' or control byte; the
 * slugger never hands out the same id twice; a tree parsed into scratch
 * memory (md_parse_scratch) is the tree md_parse makes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
S_fail(const char *what, const char *s)
{
	fprintf(stderr, "fuzz oracle: %s: \"%s\"\n", what, s);
	abort();
}

static void
S_check_slug(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x80 && !((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '_'))
			S_fail("a slug with a character GitHub drops", s);
}

static void
S_check_name(const char *s)
{
	const unsigned char *p;

	if (*s == '\0')
		S_fail("an empty id or class", s);
	for (p = (const unsigned char *)s; *p; p++)
		if (*p <= 0x20 || *p == 0x7f || strchr("\"'<>#&{}", *p))
			S_fail("an id or class with a character HTML or a URL would misread", s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cmark_node *root = md_parse((const char *)data, size);
	cmark_iter *it = cmark_iter_new(root);
	struct md_slugger sl;
	cmark_event_type ev;
	char *seen[256];
	size_t nseen = 0;

	{
		struct md_scratch *sc;
		cmark_node *copy = md_parse_scratch((const char *)data, size, NULL, &sc);
		char *x1 = cmark_render_xml(root, CMARK_OPT_SOURCEPOS);
		/* Rendered with the scratch tree's allocator: released with it. */
		char *x2 = cmark_render_xml(copy, CMARK_OPT_SOURCEPOS);

		if (strcmp(x1, x2) != 0)
			S_fail("a scratch tree differs from a plain one", "");
		free(x1);
		md_scratch_free(sc);
	}
	md_slugger_init(&sl);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		struct md_attrs attrs;
		const char *err;
		char *text, *slug, *unique;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_HEADING)
			continue;
		if (md_heading_attrs(n, &attrs, &err) == 1) {
			size_t i;

			if (attrs.id) {
				S_check_name(attrs.id);
				md_slugger_reserve(&sl, attrs.id);
			}
			for (i = 0; i < attrs.nclasses; i++)
				S_check_name(attrs.classes[i]);
			md_attrs_free(&attrs);
		}
		text = md_plain_text(n);
		slug = md_slug(text);
		S_check_slug(slug);
		unique = md_slugger_take(&sl, slug);
		if (nseen < sizeof(seen) / sizeof(seen[0])) {
			size_t i;

			for (i = 0; i < nseen; i++)
				if (strcmp(seen[i], unique) == 0)
					S_fail("the slugger handed out an id twice", unique);
			seen[nseen++] = unique;
		} else
			free(unique);
		free(slug);
		free(text);
	}
	cmark_iter_free(it);
	while (nseen > 0)
		free(seen[--nseen]);
	md_slugger_free(&sl);
	cmark_node_free(root);
	return 0;
}

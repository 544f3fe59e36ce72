/*
 * libFuzzer target: htmlmd, the HTML of an imported field as Markdown.
 *
 * Oracles: a front is one line; and read back by cmark-gfm, a back holds
 * no heading (it would start a card of its own) and no HTML but the
 * <u>, <sub> and <sup> tags htmlmd writes itself: the field's text can
 * never become markup.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htmlmd.h"
#include "markdown.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const S_own[] = { "<u>", "</u>", "<sub>", "</sub>", "<sup>", "</sup>" };

static void
S_check_back(const char *html, const char *md)
{
	cmark_node *doc = md_parse(md, strlen(md)), *n;
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		size_t i;
		int own = 0;
		const char *lit;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		n = cmark_iter_get_node(it);
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_HEADING:
		case CMARK_NODE_HTML_BLOCK:
			fprintf(stderr, "a back became a %s:\nHTML: %s\nMarkdown: %s\n",
			    cmark_node_get_type_string(n), html, md);
			abort();
		case CMARK_NODE_HTML_INLINE:
			lit = cmark_node_get_literal(n);
			for (i = 0; i < sizeof(S_own) / sizeof(S_own[0]); i++)
				own |= lit && strcmp(lit, S_own[i]) == 0;
			if (!own) {
				fprintf(stderr, "text became HTML %s:\nHTML: %s\nMarkdown: %s\n", lit, html, md);
				abort();
			}
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	cmark_node_free(doc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *html = xstrndup((const char *)data, size);
	struct htmlmd_opts o;
	struct htmlmd r;

	memset(&o, 0, sizeof(o));
	o.heading = 1;
	if (htmlmd_convert(html, &o, &r) == 0 && strchr(r.md, '\n')) {
		fprintf(stderr, "a front of more than one line:\nHTML: %s\nMarkdown: %s\n", html, r.md);
		abort();
	}
	htmlmd_free(&r);
	o.heading = 0;
	if (htmlmd_convert(html, &o, &r) == 0)
		S_check_back(html, r.md);
	htmlmd_free(&r);
	free(html);
	return 0;
}

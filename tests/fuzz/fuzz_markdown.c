/* libFuzzer target: parsing, heading attributes, plain text and slugs. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "markdown.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cmark_node *root = md_parse((const char *)data, size);
	cmark_iter *it = cmark_iter_new(root);
	struct md_slugger sl;
	cmark_event_type ev;

	md_slugger_init(&sl);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		struct md_attrs attrs;
		const char *err;
		char *text, *slug, *unique;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_HEADING)
			continue;
		if (md_heading_attrs(n, &attrs, &err) == 1)
			md_attrs_free(&attrs);
		text = md_plain_text(n);
		slug = md_slug(text);
		unique = md_slugger_take(&sl, slug);
		free(unique);
		free(slug);
		free(text);
	}
	cmark_iter_free(it);
	md_slugger_free(&sl);
	cmark_node_free(root);
	return 0;
}

/*
 * libFuzzer target: a card's Markdown as Pango text (cardtext.c), the
 * path from a deck to its PDF. The input is parsed as a card's back.
 *
 * Oracles: the inline markup of every paragraph, heading and table cell
 * is valid Pango markup (content can never become markup: a stray '<' or
 * '&' would be a tag, or make Pango drop the text with a warning); and
 * the whole back, flattened, lays out at two sizes without a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "cardtext.h"
#include "markdown.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* fontconfig's caches and its configuration parse (see tests/lsan.supp): not ours. */
const char *
__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static struct cardtext_fonts fonts;

static void
S_setup(void)
{
	PangoFontDescription *text = pango_font_description_from_string("Noto Sans");
	PangoFontDescription *mono = pango_font_description_from_string(CARDTEXT_MONO_FAMILY);

	fonts.pango = pango_font_map_create_context(pango_cairo_font_map_get_default());
	pango_cairo_context_set_resolution(fonts.pango, 72);
	fonts.text = text;
	fonts.mono = mono;
}

static int
S_has_inlines(cmark_node *n)
{
	const char *t;

	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_PARAGRAPH:
	case CMARK_NODE_HEADING:
		return 1;
	default:
		t = cmark_node_get_type_string(n);
		return t && strcmp(t, "table_cell") == 0;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cmark_node *root;
	cmark_iter *it;
	cmark_event_type ev;
	struct block_range back;
	struct cardtext *ct;

	int line, col;

	/* content.c refuses a Markdown file that is not UTF-8 before it is parsed. */
	if (!utf8_validate((const char *)data, size, &line, &col))
		return 0;
	if (fonts.pango == NULL)
		S_setup();
	root = md_parse((const char *)data, size);
	it = cmark_iter_new(root);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		GError *err = NULL;
		char *m;

		if (ev != CMARK_EVENT_ENTER || !S_has_inlines(n))
			continue;
		m = cardtext_inline(n);
		if (!pango_parse_markup(m, -1, 0, NULL, NULL, NULL, &err)) {
			fprintf(stderr, "fuzz oracle: invalid Pango markup (%s):\n%s\n", err->message, m);
			abort();
		}
		free(m);
	}
	cmark_iter_free(it);
	back.first = cmark_node_first_child(root);
	back.last = cmark_node_last_child(root);
	ct = cardtext_new(&back, NULL);
	/* Layout costs milliseconds: only for inputs of card size. */
	if (size <= 4096) {
		cardtext_layout(ct, &fonts, 9.5, 180);
		cardtext_layout(ct, &fonts, 7, 180);
	}
	cardtext_free(ct);
	cmark_node_free(root);
	return 0;
}

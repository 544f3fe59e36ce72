/*
 * cardtext: where a card's pictures go (a back's paragraphs and
 * headings, table cells, the front), what the question's text keeps of
 * them, and that a picture counts against the height and width a card
 * text is laid out in. The picture is tests/fixtures/pdf/images' frame.png,
 * 60 by 40 pixels: 45 by 30 points.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cardtext.h"
#include "check.h"
#include "image.h"
#include "markdown.h"
#include "util.h"

#define FRAME "tests/fixtures/pdf/images/content/cards/frame.png"

static PangoContext *pango;
static PangoFontDescription *text_face, *mono_face;

/* The whole document as a back; caller frees the text and *doc. */
static struct cardtext *
S_back(const char *md, cmark_node **doc)
{
	struct block_range r;

	*doc = md_parse(md, strlen(md));
	r.first = cmark_node_first_child(*doc);
	r.last = cmark_node_last_child(*doc);
	return cardtext_new(&r, NULL);
}

/* Gives every image of ct the frame; returns how many it has. */
static size_t
S_frame_all(struct cardtext *ct)
{
	size_t n = cardtext_image_count(ct), i;

	for (i = 0; i < n; i++) {
		const char *why = NULL;

		cardtext_set_image(ct, i, image_load(FRAME, &why), why);
	}
	return n;
}

static double
S_layout(struct cardtext *ct, double size, double width)
{
	struct cardtext_fonts f = { pango, text_face, mono_face, 6 };

	return cardtext_layout(ct, &f, size, width);
}

static void
test_where_pictures_are(void)
{
	static const struct {
		const char *md;
		size_t images;
		const char *why;
	} cases[] = {
		{ "Text ![a frame](f.png) more.\n", 1, "a paragraph's" },
		{ "### A heading ![a frame](f.png)\n", 1, "a heading's" },
		{ "| a | b |\n| - | - |\n| ![a frame](f.png) | x |\n| y | ![two](g.png) ![three](h.png) |\n",
		  3, "table cells'" },
		{ "Before ![one](f.png)\n\n| a |\n| - |\n| ![two](g.png) |\n\nAfter ![three](h.png)\n",
		  3, "a paragraph's, a cell's and a paragraph's" },
	};
	size_t i;

	CHECK_GROUP("cardtext pictures");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cmark_node *doc, *const *lost;
		struct cardtext *ct = S_back(cases[i].md, &doc);

		CHECK_INT(cardtext_image_count(ct), cases[i].images, "%s images are drawn", cases[i].why);
		CHECK_INT(cardtext_lost(ct, &lost), 0, "%s images are not lost", cases[i].why);
		cardtext_free(ct);
		cmark_node_free(doc);
	}
	{
		/* Reading order: before the table, in it, after it. */
		cmark_node *doc;
		struct cardtext *ct = S_back(cases[3].md, &doc);

		CHECK_STR(cmark_node_get_url(cardtext_image_node(ct, 0)), "f.png", "first the paragraph's");
		CHECK_STR(cmark_node_get_url(cardtext_image_node(ct, 1)), "g.png", "then the cell's");
		CHECK_STR(cmark_node_get_url(cardtext_image_node(ct, 2)), "h.png", "then the last paragraph's");
		CHECK(cardtext_image_node(ct, 3) == NULL, "and no fourth");
		cardtext_free(ct);
		cmark_node_free(doc);
	}
}

static void
test_front(void)
{
	const char *md = "## Which shape is ![a frame](f.png) this? ![two](g.png)\n";
	cmark_node *doc = md_parse(md, strlen(md)), *h = cmark_node_first_child(doc);
	struct cardtext *pics = cardtext_new_pictures(&h, 1);
	char *front = cardtext_inline_front(h, 0), *web = cardtext_inline(h);

	CHECK_GROUP("cardtext front");
	CHECK_STR(front, "Which shape is  this? ", "the question leaves its pictures out");
	CHECK(strstr(web, "<i>a frame</i>") != NULL, "cardtext_inline still shows the description");
	CHECK_INT(cardtext_image_count(pics), 2, "the front's two pictures");
	CHECK_STR(cmark_node_get_url(cardtext_image_node(pics, 1)), "g.png", "in order");
	S_frame_all(pics);
	/* Two pictures 30 pt high, 0.6 em apart at 10 pt. */
	CHECK(fabs(S_layout(pics, 10, 200) - 66) < 0.01, "their height: %.2f", S_layout(pics, 10, 200));
	free(front);
	free(web);
	cardtext_free(pics);
	cmark_node_free(doc);
}

static void
test_fit(void)
{
	cmark_node *doc;
	struct cardtext *ct = S_back("| a |\n| - |\n| ![a frame](f.png) |\n", &doc);
	double with, without, narrow;

	CHECK_GROUP("cardtext fit");
	without = S_layout(ct, 10, 200);
	S_frame_all(ct);
	CHECK(cardtext_image_why(ct, 0) == NULL, "the frame is read");
	with = S_layout(ct, 10, 200);
	/* The cell's text line gives way to the picture, 30 pt high. */
	CHECK(with > without && with - without > 10 && with >= 30, "a picture counts against the height: "
	    "%.2f with it, %.2f with its description", with, without);
	narrow = S_layout(ct, 10, 22.5);
	CHECK(narrow != HUGE_VAL && fabs((with - narrow) - 15) < 0.01,
	    "in a column half its width it is half as high, and fits: %.2f", narrow);
	cardtext_free(ct);
	cmark_node_free(doc);

	ct = S_back("![a frame](f.png)\n", &doc);
	S_frame_all(ct);
	CHECK(fabs(S_layout(ct, 10, 200) - 30) < 0.01, "a back's picture at its size");
	CHECK(fabs(S_layout(ct, 10, 22.5) - 15) < 0.01, "in half its width, half its height");
	/* It shrinks with the text: 16 em high at most. */
	CHECK(fabs(S_layout(ct, 1, 200) - 16) < 0.01, "at 1 pt, 16 pt high at most");
	cardtext_free(ct);
	cmark_node_free(doc);
}

int
main(void)
{
	pango = pango_font_map_create_context(pango_cairo_font_map_get_default());
	pango_cairo_context_set_resolution(pango, 72);
	text_face = pango_font_description_from_string("Noto Sans");
	mono_face = pango_font_description_from_string(CARDTEXT_MONO_FAMILY);
	test_where_pictures_are();
	test_front();
	test_fit();
	pango_font_description_free(text_face);
	pango_font_description_free(mono_face);
	g_object_unref(pango);
	return check_finish();
}

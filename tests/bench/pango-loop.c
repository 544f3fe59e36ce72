/*
 * pango-loop: the bare single-core Pango loop that issue 9 states the PDF
 * target against ("a bare single-core Pango loop does about 2,900 cards
 * a second"). make bench runs it turn about with `quizdeck print` on the
 * same cards, so the two rates are read off the machine in one state.
 *
 * Each card's question and answer are laid out with Pango and drawn
 * with Cairo into a PDF: four A7 cards to an A4 sheet, a page of fronts
 * and then its page of backs, as quizdeck imposes them by default. It
 * does nothing else: no fitting, no running head or folio, no cut marks,
 * no outline, no markup, one thread, one layout reused.
 *
 *   pango-loop CARDS OUT.pdf     CARDS: a card a line, question TAB answer
 */
#include <cairo-pdf.h>
#include <cairo.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MM (72.0 / 25.4)
#define CARD_W (74 * MM)
#define CARD_H (105 * MM)
#define PAD (6 * MM)

struct card {
	char *question, *answer;
};

static struct card *
S_read(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	struct card *v = NULL;
	size_t cap = 0, len = 0;
	char *line = NULL, *tab;
	ssize_t got;

	if (f == NULL) {
		perror(path);
		exit(2);
	}
	*n = 0;
	while ((got = getline(&line, &len, f)) != -1) {
		if (got > 0 && line[got - 1] == '\n')
			line[got - 1] = '\0';
		if ((tab = strchr(line, '\t')) == NULL)
			continue;
		*tab = '\0';
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((v = realloc(v, cap * sizeof(*v))) == NULL) {
				perror("pango-loop");
				exit(2);
			}
		}
		v[*n].question = strdup(line);
		v[*n].answer = strdup(tab + 1);
		if (v[*n].question == NULL || v[*n].answer == NULL) {
			perror("pango-loop");
			exit(2);
		}
		(*n)++;
	}
	free(line);
	fclose(f);
	return v;
}

int
main(int argc, char **argv)
{
	cairo_surface_t *surface;
	cairo_t *cr;
	PangoContext *pango;
	PangoLayout *layout;
	PangoFontDescription *font[2];
	struct card *cards;
	size_t n, first, k;
	int side;

	if (argc != 3) {
		fprintf(stderr, "usage: pango-loop CARDS OUT.pdf\n");
		return 2;
	}
	cards = S_read(argv[1], &n);
	surface = cairo_pdf_surface_create(argv[2], 210 * MM, 297 * MM);
	cr = cairo_create(surface);
	pango = pango_cairo_create_context(cr);
	pango_cairo_context_set_resolution(pango, 72);    /* sizes in points */
	layout = pango_layout_new(pango);
	pango_layout_set_width(layout, (int)((CARD_W - 2 * PAD) * PANGO_SCALE));
	pango_layout_set_wrap(layout, PANGO_WRAP_WORD);
	font[0] = pango_font_description_from_string("Noto Sans 14");
	font[1] = pango_font_description_from_string("Noto Sans 9");
	for (first = 0; first < n; first += 4) {
		for (side = 0; side < 2; side++) {
			for (k = 0; k < 4 && first + k < n; k++) {
				/* Long-edge duplex: a back sits behind its front, so its column is mirrored. */
				int col = side ? 1 - (int)(k % 2) : (int)(k % 2), row = (int)(k / 2);
				double x = (210 * MM - 2 * CARD_W) / 2 + col * CARD_W;
				double y = (297 * MM - 2 * CARD_H) / 2 + row * CARD_H;
				const struct card *c = &cards[first + k];

				pango_layout_set_font_description(layout, font[side]);
				pango_layout_set_text(layout, side ? c->answer : c->question, -1);
				cairo_move_to(cr, x + PAD, y + PAD);
				pango_cairo_show_layout(cr, layout);
			}
			cairo_show_page(cr);
		}
	}
	pango_font_description_free(font[0]);
	pango_font_description_free(font[1]);
	g_object_unref(layout);
	g_object_unref(pango);
	cairo_destroy(cr);
	cairo_surface_finish(surface);
	if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "pango-loop: %s: %s\n", argv[2],
		    cairo_status_to_string(cairo_surface_status(surface)));
		return 1;
	}
	cairo_surface_destroy(surface);
	for (k = 0; k < n; k++) {
		free(cards[k].question);
		free(cards[k].answer);
	}
	free(cards);
	printf("%zu cards\n", n);
	return 0;
}

/*
 * libFuzzer target: a whole site from one input, through the question
 * and deck parsers, the guide, link resolution and, when the site has no
 * error, every page (html_build on tmpfs) with the injection oracle of
 * fuzz_util.h over each page written. Then the site is loaded again as
 * `build --no-pdf` loads it (streamed: topics, decks and chapters
 * rendered as they are parsed, their trees dropped), and every page must
 * come out the same, byte for byte, with the same diagnostics. Last it
 * is loaded as `check` and `print` load it (links_only, reread, and a
 * deck that can be cut built one card at a time): the same diagnostics
 * and the same summary line again, and a deck drawn as it loads (a
 * drawer taking three cards a sheet, so cards wait across chunks, their
 * trees gone) is drawn card for card as the first load's tree has it.
 *
 * The input is cut at form feeds (\f):
 *
 *   topic \f deck \f chapter \f site.toml \f the test's _index.md
 *
 * written as content/quiz/t/topic.md, content/cards/deck.md,
 * content/guide/chapter.md, site.toml (empty when absent) and
 * content/quiz/t/_index.md (a title when absent). A fixed chapter with
 * a few anchors and an image are there to link to.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "html.h"
#include "markdown.h"
#include "model.h"
#include "util.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fixed_md[] =
	"# Fixed chapter\n\n## Ring all-reduce {#ring}\n\nText.\n\n### Details\n\n![diagram](img.png)\n";

/* A 1x1 PNG. */
static const unsigned char png[] = {
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00,
	0x00, 0x05, 0x00, 0x01, 0x7a, 0x5e, 0xab, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44,
	0xae, 0x42, 0x60, 0x82,
};

/* Aborts unless the file under a and under b holds the same bytes. */
static void
S_same_file(const char *a, const char *b, const char *rel)
{
	char *pa = path_join(a, rel), *pb = path_join(b, rel), *da = NULL, *db = NULL;
	size_t la = 0, lb = 0;
	int ra = file_read(pa, &da, &la), rb = file_read(pb, &db, &lb);

	if (ra != rb || la != lb || (ra == 0 && memcmp(da, db, la) != 0))
		abort();
	free(da);
	free(db);
	free(pa);
	free(pb);
}

/* The streamed load's pages under b are those of the kept load under a. */
static void
S_same_pages(const struct site *site, const char *a, const char *b)
{
	size_t i;

	S_same_file(a, b, "index.html");
	for (i = 0; i < site->ntests; i++)
		S_same_file(a, b, site->tests[i]->url);
	for (i = 0; i < site->ndecks; i++)
		S_same_file(a, b, site->decks[i]->url);
	for (i = 0; i < site->nchapters; i++)
		S_same_file(a, b, site->chapters[i]->url);
}

/* Every diagnostic, formatted, one a line (caller frees). */
static char *
S_diags(struct diag_list *dl)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_puts(&b, "");
	diag_sort(dl);
	for (i = 0; i < dl->len; i++) {
		char *line = diag_format(&dl->v[i]);

		buf_puts(&b, line);
		buf_putc(&b, '\n');
		free(line);
	}
	return buf_detach(&b);
}

static void
S_check_pages(const struct site *site, const char *out)
{
	int raw = site->cfg.markdown.unsafe_html;
	size_t i;
	char *p;

	p = path_join(out, "index.html");
	fz_check_file(p, raw);
	free(p);
	for (i = 0; i < site->ntests; i++) {
		p = path_join(out, site->tests[i]->url);
		fz_check_file(p, raw);
		free(p);
	}
	for (i = 0; i < site->ndecks; i++) {
		p = path_join(out, site->decks[i]->url);
		fz_check_file(p, raw);
		free(p);
	}
	for (i = 0; i < site->nchapters; i++) {
		p = path_join(out, site->chapters[i]->url);
		fz_check_file(p, raw);
		free(p);
	}
}

/* Card c as its front and back read: number, id, front text, back as CommonMark. */
static void
S_card_text(struct buf *b, const struct card *c, cmark_node *heading, struct block_range back)
{
	char *front = md_plain_text(heading);
	cmark_node *n;

	buf_printf(b, "%d %s %s |", c->number, c->id ? c->id : "", front);
	free(front);
	for (n = back.first; n; n = cmark_node_next(n)) {
		/* With malloc: a chunk's tree lives in a scratch arena. */
		char *md = cmark_render_commonmark_with_mem(n, CMARK_OPT_DEFAULT, 0,
		    cmark_get_default_mem_allocator());

		buf_puts(b, md);
		free(md);
		if (n == back.last)
			break;
	}
	buf_putc(b, '\n');
}

/* A drawer of three cards a sheet, writing each card it draws (S_card_text). */
struct fake_drawing {
	struct buf text;
	size_t ncards, done;
	int kept;
};

static int
S_fake_open(void *arg, const struct site *site, const struct deck *dk, size_t ncards, int nthreads,
    struct diag_list *dl, void **drawing)
{
	struct fake_drawing *f = arg;

	(void)site;
	(void)dk;
	(void)nthreads;
	(void)dl;
	buf_reset(&f->text);
	buf_put(&f->text, "", 0);
	f->ncards = ncards;
	f->done = 0;
	f->kept = 0;
	*drawing = f;
	return 0;
}

static int
S_fake_draw(void *drawing, const struct card *cards, size_t n, size_t *done)
{
	struct fake_drawing *f = drawing;
	size_t end = f->done + n, k, i;

	if (end > f->ncards)
		abort();           /* more cards than the deck was opened for */
	k = end == f->ncards ? n : end / 3 * 3 > f->done ? end / 3 * 3 - f->done : 0;
	for (i = 0; i < k; i++) {
		const struct card *c = &cards[i];
		struct card_tree t;

		if (c->number != (int)(f->done + i + 1))
			abort();       /* out of order, or given twice */
		if (c->heading)
			S_card_text(&f->text, c, c->heading, c->back);
		else if (card_tree(c, 1, &t) == 0) {
			S_card_text(&f->text, c, t.heading, t.back);
			card_tree_free(&t);
		} else
			abort();       /* a card that waited cannot be parsed again */
	}
	f->done += k;
	*done = k;
	return 0;
}

static int
S_fake_close(void *drawing, int keep)
{
	struct fake_drawing *f = drawing;

	f->kept = keep && f->done == f->ncards;
	return f->kept ? 0 : -1;
}

static const struct deck_drawer fake_drawer = { S_fake_open, S_fake_draw, S_fake_close };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	const char *part[5];
	size_t len[5], n;
	struct site_options so;
	struct diag_list dl;
	struct site site;
	char *out, *out2, *kept, *streamed, *summary, *kept_summary;
	struct fake_drawing drawn;
	struct buf kept_cards;
	size_t i;

	if (!ready) {
		fz_put_str("content/guide/fixed.md", fixed_md);
		fz_put("content/guide/img.png", png, sizeof(png));
		ready = 1;
	}
	n = fz_split((const char *)data, size, part, len, 5);
	fz_put("content/quiz/t/topic.md", part[0], len[0]);
	fz_put("content/cards/deck.md", n > 1 ? part[1] : "", n > 1 ? len[1] : 0);
	fz_put("content/guide/chapter.md", n > 2 ? part[2] : "", n > 2 ? len[2] : 0);
	fz_put("site.toml", n > 3 ? part[3] : "", n > 3 ? len[3] : 0);
	if (n > 4)
		fz_put("content/quiz/t/_index.md", part[4], len[4]);
	else
		fz_put_str("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");

	memset(&so, 0, sizeof(so));
	diag_init(&dl);
	site_load(&site, fz_site_dir(), &so, &dl);
	kept = S_diags(&dl);
	kept_summary = site_summary(&site, &dl);
	buf_init(&kept_cards);
	buf_put(&kept_cards, "", 0);
	for (i = 0; i < site.ndecks; i++) {
		const struct deck *dk = site.decks[i];
		size_t j;

		for (j = 0; j < dk->ncards; j++)
			S_card_text(&kept_cards, &dk->cards[j], dk->cards[j].heading, dk->cards[j].back);
	}
	out = path_join(fz_site_dir(), "out");
	out2 = path_join(fz_site_dir(), "out2");
	dir_remove(out);
	dir_remove(out2);
	if (!diag_failed(&dl)) {
		dir_make(out);
		if (html_build(&site, out, 1, NULL, &dl) == 0)
			S_check_pages(&site, out);
		else
			dir_remove(out);
	}
	site_free(&site);
	diag_free(&dl);

	/* As build --no-pdf loads it. */
	so.drop_sources = 1;
	so.render_topic = html_render_topic;
	so.render_deck = html_render_deck;
	so.render_chapter = html_render_chapter;
	diag_init(&dl);
	site_load(&site, fz_site_dir(), &so, &dl);
	streamed = S_diags(&dl);
	if (strcmp(kept, streamed) != 0)
		abort();
	if (!diag_failed(&dl)) {
		dir_make(out2);
		if (html_build(&site, out2, 1, NULL, &dl) == 0)
			S_same_pages(&site, out, out2);
	}
	site_free(&site);
	diag_free(&dl);

	/* As check and print load it: the same diagnostics and counts, with the page-only model gone. */
	memset(&so, 0, sizeof(so));
	so.drop_sources = 1;
	so.links_only = 1;
	so.reread = 1;
	so.chunk_cards = 1;        /* every deck that can be cut is built a card at a time */
	so.draw = &fake_drawer;
	memset(&drawn, 0, sizeof(drawn));
	buf_init(&drawn.text);
	so.draw_arg = &drawn;
	diag_init(&dl);
	site_load(&site, fz_site_dir(), &so, &dl);
	/* One deck: drawn, it was drawn card for card as the whole tree has it. */
	if (site.ndecks == 1 && site.decks[0]->drawn != drawn.kept)
		abort();
	if (drawn.kept && strcmp(buf_str(&drawn.text), buf_str(&kept_cards)) != 0)
		abort();
	buf_free(&drawn.text);
	buf_free(&kept_cards);
	free(streamed);
	streamed = S_diags(&dl);
	if (strcmp(kept, streamed) != 0)
		abort();
	summary = site_summary(&site, &dl);
	if (strcmp(summary, kept_summary) != 0)
		abort();
	free(summary);
	site_free(&site);
	diag_free(&dl);
	dir_remove(out);
	dir_remove(out2);
	free(out);
	free(out2);
	free(kept);
	free(kept_summary);
	free(streamed);
	return 0;
}

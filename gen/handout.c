/*
 * handout: a practice test on paper. See handout.h.
 *
 * The questions go through the same flow (flow.h) as the book: a stem is
 * a paragraph in the question role with its number as marker, each option
 * a paragraph with its letter, a typed answer a ruled box. The key starts
 * on a new page; its references to the guide are pages of the book as
 * book_layout lays it out, so they are the pages guide.pdf shows.
 */
#include "handout.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cardtext.h"
#include "flow.h"
#include "lang.h"
#include "paper.h"
#include "pdf.h"
#include "site.h"
#include "util.h"

#define PT_PER_MM (72.0 / 25.4)

const struct handout_mix handout_mixes[HANDOUT_NMIXES] = {
	{ "warming-up", { 0.6, 0.3, 0.1 }, { DIFF_EASY, DIFF_MEDIUM, DIFF_HARD } },
	{ "steady", { -1, -1, -1 }, { DIFF_EASY, DIFF_MEDIUM, DIFF_HARD } },
	{ "confident", { 0.1, 0.3, 0.6 }, { DIFF_HARD, DIFF_MEDIUM, DIFF_EASY } },
};

const struct handout_mix *
handout_mix_named(const char *name)
{
	int i;

	for (i = 0; i < HANDOUT_NMIXES; i++)
		if (strcmp(handout_mixes[i].name, name) == 0)
			return &handout_mixes[i];
	return NULL;
}

/* Largest remainder, capped by what the pool has; the mix's order takes the rest (quiz.js's allocate). */
void
handout_allot(const size_t avail[3], size_t n, const struct handout_mix *mix, size_t take[3])
{
	double share[3], sum = 0, frac[3];
	size_t total = avail[0] + avail[1] + avail[2], used = 0, over = 0;
	int d, r, i, done[3] = { 0, 0, 0 };

	if (!mix)
		mix = &handout_mixes[1];
	if (n > total)
		n = total;
	for (d = 0; d < 3; d++) {
		share[d] = avail[d] ? (mix->share[0] >= 0 ? mix->share[d] : (double)avail[d]) : 0;
		sum += share[d];
	}
	for (d = 0; d < 3; d++) {
		double ideal = sum > 0 ? (double)n * share[d] / sum : 0;

		take[d] = (size_t)ideal;
		frac[d] = ideal - (double)take[d];
		used += take[d];
	}
	/* The largest fractions first, ties in the mix's order. */
	for (i = 0; i < 3 && used < n; i++) {
		int best = -1;

		for (r = 0; r < 3; r++) {
			d = mix->order[r];
			if (!done[d] && (best < 0 || frac[d] > frac[best]))
				best = d;
		}
		done[best] = 1;
		take[best]++;
		used++;
	}
	for (d = 0; d < 3; d++)
		if (take[d] > avail[d]) {
			over += take[d] - avail[d];
			take[d] = avail[d];
		}
	for (r = 0; r < 3; r++) {
		size_t add;

		d = mix->order[r];
		add = avail[d] - take[d] < over ? avail[d] - take[d] : over;
		take[d] += add;
		over -= add;
	}
}

/* splitmix64: a small generator whose sequence is the same on every machine. */
static unsigned long long
S_next(unsigned long long *state)
{
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
S_shuffle(const struct question **v, size_t n, unsigned long long *state)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = (size_t)(S_next(state) % i);
		const struct question *t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

const struct question **
handout_draw(const struct test *t, const struct handout_choice *choice, size_t *n)
{
	const struct question **pool, **by[3], **out;
	size_t avail[3] = { 0, 0, 0 }, take[3], npool = 0, i, k, want;
	unsigned long long state;
	int d, drawn = choice->count || choice->mix || choice->has_counts || choice->has_seed;

	pool = xcalloc(t->nquestions + 1, sizeof(*pool));
	for (i = 0; i < t->ntopics; i++) {
		const struct topic *tp = t->topics[i];

		if (choice->topic && strcmp(choice->topic, tp->slug) != 0)
			continue;
		for (k = 0; k < tp->nquestions; k++)
			if (!tp->questions[k].sample)
				pool[npool++] = &tp->questions[k];
	}
	if (!drawn) {
		*n = npool;
		return pool;
	}
	out = xcalloc(npool + 1, sizeof(*out));
	for (d = 0; d < 3; d++)
		by[d] = xcalloc(npool + 1, sizeof(**by));
	for (i = 0; i < npool; i++) {
		d = pool[i]->difficulty == DIFF_NONE ? DIFF_MEDIUM : (int)pool[i]->difficulty;
		by[d][avail[d]++] = pool[i];
	}
	if (choice->has_counts)
		for (d = 0; d < 3; d++)
			take[d] = choice->counts[d] < avail[d] ? choice->counts[d] : avail[d];
	else {
		want = choice->count ? choice->count : npool;
		handout_allot(avail, want, choice->mix, take);
	}
	state = choice->has_seed ? choice->seed : 1;
	*n = 0;
	for (d = 0; d < 3; d++) {
		S_shuffle(by[d], avail[d], &state);
		for (i = 0; i < take[d]; i++)
			out[(*n)++] = by[d][i];
		free(by[d]);
	}
	free(pool);
	return out;
}

/* ---- the document ---------------------------------------------------- */

struct handout {
	const struct site *site;
	struct flow *flow;
	struct diag_list *dl;
	const struct doc *doc;       /* the topic whose question is being set */
	struct image **images;       /* its pictures, freed after the flow is written */
	size_t nimages, images_cap;
};

/* A paragraph; keep: on a page with the block after it (a question stays whole where it fits). */

/* Links are set as their text: a handout is read on paper. */
static char *
S_text_inline(void *ctx, cmark_node *n, const struct flow_link **links, size_t *nlinks)
{
	(void)ctx;
	*links = NULL;
	*nlinks = 0;
	return cardtext_inline(n);
}

/* A paragraph holding only a picture: the picture, or (unreadable) its description. */
static int
S_picture(struct handout *ho, cmark_node *para, double indent)
{
	cmark_node *img = paper_lone_image(para);
	struct image *im = img ? paper_picture(ho->site, ho->doc, img, "the handout", ho->dl) : NULL;

	if (!im)
		return 0;
	ho->images = xgrow(ho->images, &ho->images_cap, ho->nimages + 1, sizeof(*ho->images));
	ho->images[ho->nimages++] = im;
	flow_image(ho->flow, im, indent, -1);
	return 1;
}

/*
 * Blocks first..last (inclusive) of a question: paragraphs as role,
 * pictures and tables as the book sets them, code as code, anything else
 * as its text.
 */
static void
S_text_blocks(void *ctx, cmark_node *first, cmark_node *last, enum flow_role role, double indent,
    int keep)
{
	struct handout *ho = ctx;
	struct paper_text tx = { S_text_inline, S_text_blocks, ho };
	struct flow *f = ho->flow;
	cmark_node *n;

	for (n = first; n; n = cmark_node_next(n)) {
		const char *type = cmark_node_get_type_string(n);

		if (cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK)
			flow_code(f, cmark_node_get_literal(n), indent, 0);
		else if (type && strcmp(type, "table") == 0)
			paper_table(f, n, indent, &tx);
		else if (cmark_node_get_type(n) == CMARK_NODE_PARAGRAPH && S_picture(ho, n, indent))
			;
		else if (cmark_node_get_type(n) != CMARK_NODE_HTML_BLOCK &&
		    cmark_node_get_type(n) != CMARK_NODE_THEMATIC_BREAK) {
			char *m = cardtext_inline(n);

			if (*m)
				paper_para(f, m, NULL, 0, role, indent, NULL, 0, keep);
			free(m);
		}
		if (n == last)
			break;
	}
}

static void
S_key_entry(struct handout *ho, const struct question *q, const struct question_nodes *qn,
    size_t number, const struct book_pages *bp)
{
	struct paper_text tx = { S_text_inline, S_text_blocks, ho };
	const struct lang *l = ho->site->lang;
	struct flow *f = ho->flow;
	char marker[32], *m;
	size_t i;

	snprintf(marker, sizeof(marker), "<b>%zu.</b>", number);
	paper_answer(l, f, q, qn, marker, NULL, 2, &tx);
	for (i = 0; i < q->links_to.len; i++) {
		const struct section *s = q->links_to.v[i];
		int page = book_section_page(bp, s);
		char num[24], *where, *t, *label = g_markup_escape_text(lang_get(l, "handout.guide"), -1);

		snprintf(num, sizeof(num), "%d", page);
		where = page > 0 ? lang_format(l, "handout.guide-page", "section", s->title, "page", num, NULL) :
		    xstrdup(s->title);
		t = g_markup_escape_text(where, -1);
		m = xasprintf("<i>%s</i> %s", label, t);
		paper_para(f, m, NULL, 0, FLOW_KEY, 2, NULL, 1, 0);
		free(m);
		free(where);
		g_free(label);
		g_free(t);
	}
}

static void
S_style(const struct print_config *pc, struct flow_style *st, char **font)
{
	double mm = PT_PER_MM;

	memset(st, 0, sizeof(*st));
	st->page_w = pc->paper_w * mm;
	st->page_h = pc->paper_h * mm;
	st->size = st->page_w < 450 ? 10 : 11;
	st->margin_side = st->page_w < 450 ? 14 * mm : 22 * mm;
	st->margin_top = 18 * mm;
	st->margin_bottom = 20 * mm;
	st->mono = CARDTEXT_MONO_FAMILY;
	/* Arabic in the sans's own companion, before fontconfig's own choice. */
	*font = xasprintf("%s,Noto Sans Arabic", pc->font && *pc->font ? pc->font : "Noto Sans");
	st->font = *font;
}

int
handout_write(const struct site *site, const struct test *t, const struct handout_choice *choice,
    const struct book_pages *bp, const struct print_config *pc, const char *path,
    const volatile sig_atomic_t *stop, struct diag_list *dl)
{
	struct flow_style st;
	struct flow_meta meta;
	struct handout ho;
	struct paper_text tx;
	struct flow *f;
	const struct question **qs;
	struct doc_tree **trees;
	char date[32], marker[32], *font = NULL, *m, *e, *title, *head;
	const char *why = NULL;
	size_t n, i, k;
	int rc = 0;

	qs = handout_draw(t, choice, &n);
	trees = xcalloc(n + 1, sizeof(*trees));
	S_style(pc, &st, &font);
	st.lang = site->cfg.language;
	st.rtl = lang_rtl(site->lang);
	f = flow_new(&st);
	memset(&ho, 0, sizeof(ho));
	ho.site = site;
	ho.flow = f;
	ho.dl = dl;
	tx.inline_markup = S_text_inline;
	tx.blocks = S_text_blocks;
	tx.ctx = &ho;
	title = g_markup_escape_text(t->title, -1);
	head = lang_format(site->lang, "handout.head", "title", t->title, NULL);
	flow_new_page(f, FLOW_PAGE_OPENING, head, head);
	paper_para(f, title, NULL, 0, FLOW_H1, 0, NULL, 0, 0);
	m = lang_plural(site->lang, "handout.questions", (long)n, NULL);
	e = g_markup_escape_text(m, -1);
	paper_para(f, e, NULL, 0, FLOW_ASIDE, 0, NULL, 1, 0);
	g_free(e);
	free(m);
	flow_space(f, 1.2);
	/* The lines to write on, after each label (before it, right to left). */
	e = g_markup_escape_text(lang_get(site->lang, "handout.name"), -1);
	m = xasprintf("%s  ________________________________________", e);
	paper_para(f, m, NULL, 0, FLOW_BODY, 0, NULL, 0, 0);
	free(m);
	g_free(e);
	e = g_markup_escape_text(lang_get(site->lang, "handout.date"), -1);
	m = xasprintf("%s  ____________________", e);
	paper_para(f, m, NULL, 0, FLOW_BODY, 0, NULL, 0, 0);
	free(m);
	g_free(e);
	flow_space(f, 0.8);
	for (i = 0; i < n; i++) {
		/* A topic's tree, opened once for its questions. */
		for (k = 0; k < i; k++)
			if (qs[k]->topic == qs[i]->topic)
				break;
		trees[i] = k < i ? NULL : doc_tree_open(qs[i]->topic->doc);
	}
	for (i = 0; i < n; i++) {
		const struct doc_tree *tr = NULL;

		for (k = 0; k <= i && !tr; k++)
			if (qs[k]->topic == qs[i]->topic)
				tr = trees[k];
		snprintf(marker, sizeof(marker), "<b>%zu.</b>", i + 1);
		ho.doc = qs[i]->topic->doc;
		paper_question(site->lang, f, qs[i], tr ? doc_tree_question(tr, qs[i]) : NULL, marker, 2, &tx);
	}
	flow_new_page(f, FLOW_PAGE_RUNNING, head, head);
	m = lang_format(site->lang, "handout.answer-key", "title", t->title, NULL);
	e = g_markup_escape_text(m, -1);
	paper_para(f, e, NULL, 0, FLOW_H2, 0, NULL, 0, 0);
	g_free(e);
	free(m);
	for (i = 0; i < n; i++) {
		const struct doc_tree *tr = NULL;

		for (k = 0; k <= i && !tr; k++)
			if (qs[k]->topic == qs[i]->topic)
				tr = trees[k];
		ho.doc = qs[i]->topic->doc;
		S_key_entry(&ho, qs[i], tr ? doc_tree_question(tr, qs[i]) : NULL, i + 1, bp);
	}
	pdf_date(date, sizeof(date));
	memset(&meta, 0, sizeof(meta));
	meta.title = t->title;
	meta.author = site->cfg.author;
	meta.subject = lang_get(site->lang, "handout.subject");
	meta.date = date;
	if (flow_write(f, path, &meta, stop, &why) == -1) {
		if (!(stop && *stop))
			diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path ? path : t->slug, why);
		rc = -1;
	}
	flow_free(f);
	for (i = 0; i < ho.nimages; i++)
		image_free(ho.images[i]);
	free(ho.images);
	for (i = 0; i < n; i++)
		if (trees[i])
			doc_tree_close(trees[i]);
	free(trees);
	free(qs);
	g_free(title);
	free(head);
	free(font);
	return rc;
}

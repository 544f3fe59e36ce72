/*
 * deck: decks > cards, one deck per file directly in content/cards.
 * A deck splits at `##` as a topic does; a card heading takes only {#id}.
 */
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "util.h"

static char *
S_card_label(const char *id)
{
	char *s = xstrdup(id);

	if (s[0] >= 'a' && s[0] <= 'z')
		s[0] = (char)(s[0] - 32);
	return s;
}

/* A stable hash of a card's front and back, for the page's scripts. */
static void
S_card_fingerprint(struct card *c, const struct card_nodes *cn)
{
	uint64_t h = hash_fnv1a(c->front_text, strlen(c->front_text), HASH_FNV_SEED);
	cmark_node *n;

	for (n = cn->back.first; n; n = cmark_node_next(n)) {
		char *t = md_plain_text(n);

		h = hash_fnv1a("\n", 1, h);
		if (t)
			h = hash_fnv1a(t, strlen(t), h);
		free(t);
		if (n == cn->back.last)
			break;
	}
	snprintf(c->fingerprint, sizeof(c->fingerprint), "%016llx", (unsigned long long)h);
}

/*
 * A top-level heading other than `##` with blocks under it, whose text
 * ends in "?" or which has an {#id}, as a card's front does, was meant
 * as a card: it went onto the back of the card before it, or into the
 * introduction. A sub-heading on a back ("### Example") has neither.
 * A `#` after the first card is an error already (model_split_parts).
 */
static void
S_check_card_like(struct doc *d, const struct heading_list *hl, const struct heading *title,
    const struct parts *ps, struct diag_list *dl)
{
	size_t i, k = 0;

	for (i = 0; i < hl->len; i++) {
		const struct heading *h = &hl->v[i];
		cmark_node *next = cmark_node_next(h->node);
		size_t len = strlen(h->text);

		while (k < ps->len && ps->v[k].h->line <= h->line)
			k++;
		if (!h->top || h->level == 2 || h == title || (h->level == 1 && k > 0))
			continue;
		if (next == NULL || cmark_node_get_type(next) == CMARK_NODE_HEADING)
			continue;
		if (h->attrs.id == NULL && (len == 0 || h->text[len - 1] != '?'))
			continue;
		if (k > 0)
			diag_warning(dl, d->src->display, h->line, h->col,
			    "this %.*s heading looks like a card's front, but it and what follows are on "
			    "the back of card \"%s\": a card is a ## heading (for a heading on the back, "
			    "write **bold text**)", h->level, "######", ps->v[k - 1].h->id);
		else
			diag_warning(dl, d->src->display, h->line, h->col,
			    "this %.*s heading looks like a card's front, but it and what follows are the "
			    "deck's introduction: a card is a ## heading", h->level, "######");
	}
}

/* Attributes: a card's heading takes only {#id}, as any other heading. */
static void
S_check_attrs(struct doc *d, const struct heading_list *hl, struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < hl->len; i++) {
		const struct heading *h = &hl->v[i];
		char *what;

		if (!(h->top && h->level == 2)) {
			model_heading_attrs_check(d, h, dl);
			continue;
		}
		if (h->attrs.nclasses == 0 && h->attrs.npairs == 0)
			continue;
		what = xconcat("card \"", h->id, "\"", NULL);
		model_attrs_check(d, h, what, "a card's heading takes only {#id}", 0, dl);
		free(what);
	}
}

struct deck *
deck_build(struct doc *d, struct doc_tree *t, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	struct deck *dk = xcalloc(1, sizeof(*dk));
	struct parts ps;
	size_t i;

	dk->slug = model_file_stem(d->src->rel);
	dk->doc = d;
	dk->weight = d->src->fm.weight;
	dk->url = xconcat("cards/", dk->slug, "/index.html", NULL);
	dk->pdf_url = xconcat("print/", dk->slug, ".pdf", NULL);
	if (d->src->fm.description)
		dk->description = xstrdup(d->src->fm.description);
	d->deck = dk;
	d->url = xstrdup(dk->url);
	model_collect_headings(d, t, &hl, "card", 1, dl);
	dk->title = model_page_title(d, &hl, "deck", &title_h, dl);
	if (dk->title == NULL)
		dk->title = xstrdup(dk->slug);
	model_split_parts(d, t, &hl, title_h, "card", &ps, dl);
	t->intro = ps.intro;
	S_check_card_like(d, &hl, title_h, &ps, dl);
	S_check_attrs(d, &hl, dl);
	dk->cards = xcalloc(ps.len ? ps.len : 1, sizeof(*dk->cards));
	dk->ncards = ps.len;
	t->cards = xcalloc(ps.len ? ps.len : 1, sizeof(*t->cards));
	t->ncards = ps.len;
	for (i = 0; i < ps.len; i++) {
		struct card *c = &dk->cards[i];
		struct card_nodes *cn = &t->cards[i];
		const struct heading *h = ps.v[i].h;

		c->id = xstrdup(h->id);
		c->label = S_card_label(h->id);
		c->number = (int)i + 1;
		c->front_text = xstrdup(h->text);
		cn->heading = h->node;
		cn->back = ps.v[i].body;
		c->line = h->line;
		c->col = h->col;
		c->deck = dk;
		S_card_fingerprint(c, cn);
		if (cn->back.first == NULL)
			diag_error(dl, d->src->display, h->line, h->col,
			    "card \"%s\" has no back: write the answer below its heading", c->id);
		model_anchor_add(d, c->id, ANCHOR_CARD, c->line, c->col, c);
	}
	if (ps.len == 0 && !d->src->broken)
		diag_error(dl, d->src->display, 1, 1, "deck has no cards: each ## heading starts one");
	free(ps.v);
	model_headings_free(&hl);
	return dk;
}

int
deck_cmp(const void *a, const void *b)
{
	const struct deck *x = *(struct deck *const *)a, *y = *(struct deck *const *)b;

	return model_cmp_weighted(x->doc->src->fm.has_weight, x->weight, x->slug,
	    y->doc->src->fm.has_weight, y->weight, y->slug);
}

/* Freeing. */

/* A deck's cards and what they own. */
static void
S_cards_free(struct card *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].label);
		free(v[i].front_text);
		free(v[i].links_to.v);
	}
	free(v);
}

void
deck_free(struct deck *dk)
{
	S_cards_free(dk->cards, dk->ncards);
	free(dk->slug);
	free(dk->title);
	free(dk->description);
	free(dk->url);
	free(dk->pdf_url);
	free(dk);
}

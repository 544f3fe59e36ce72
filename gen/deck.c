/*
 * deck: decks > cards, one deck per file directly in content/cards.
 * A deck splits at `##` as a topic does; a card heading takes {#id},
 * .reverse and .noreverse. A heading with cloze deletions makes a card
 * per deletion number (cloze.h), a reversed one a second card back to
 * front (enum card_kind).
 */
#include <stdlib.h>
#include <string.h>

#include "cloze.h"
#include "index.h"
#include "util.h"

/* A reversed card's back (its question) longer than this many lines is a warning. */
#define REVERSE_MAX_LINES 4

static char *
S_card_label(const char *id, const char *suffix)
{
	char *s = xconcat(id, suffix, NULL);

	if (s[0] >= 'a' && s[0] <= 'z')
		s[0] = (char)(s[0] - 32);
	return s;
}

/* A stable hash of a card's front and back, for the page's scripts. */
static void
S_card_fingerprint(struct card *c, const struct card_nodes *cn)
{
	const char *front = c->cloze_source ? c->cloze_source : c->front_text;
	uint64_t h = hash_fnv1a(front, strlen(front), HASH_FNV_SEED);
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

/* Attributes: a card's heading takes {#id}, .reverse and .noreverse; other headings only {#id}. */
static void
S_check_attrs(struct doc *d, const struct heading_list *hl, struct diag_list *dl)
{
	static const char *const known[] = { "reverse", "noreverse" };
	size_t i, k;

	for (i = 0; i < hl->len; i++) {
		const struct heading *h = &hl->v[i];
		char *what;

		if (!(h->top && h->level == 2)) {
			model_heading_attrs_check(d, h, dl);
			continue;
		}
		for (k = 0; k < h->attrs.nclasses; k++) {
			const char *c = h->attrs.classes[k], *near;

			if (strcmp(c, "reverse") == 0 || strcmp(c, "noreverse") == 0)
				continue;
			near = str_nearest(c, known, 2);
			diag_warning(dl, d->src->display, h->line, model_attr_col(d, h, 1, c),
			    "class .%s on card \"%s\" is ignored: a card's heading takes {#id}, .reverse "
			    "and .noreverse%s%s%s", c, h->id, near ? "; did you mean ." : "",
			    near ? near : "", near ? "?" : "");
		}
		if (h->attrs.npairs == 0)
			continue;
		what = xconcat("card \"", h->id, "\"", NULL);
		model_attrs_check(d, h, what, "a card's heading takes {#id}, .reverse and .noreverse", 1, dl);
		free(what);
	}
}

static int
S_has_class(const struct heading *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->attrs.nclasses; i++)
		if (strcmp(h->attrs.classes[i], name) == 0)
			return 1;
	return 0;
}

/*
 * Cloze deletions: each top-level `##` heading's are rewritten into
 * deletion nodes before its headings are collected, so its id is made
 * from the text without answers. Reports what was written wrong.
 * lists gets one list per `##` heading, in document order, and nodes
 * the heading of each.
 */
static void
S_mark_clozes(struct doc *d, struct doc_tree *t, struct cloze_list **lists, cmark_node ***nodes,
    size_t *nlists, struct diag_list *dl)
{
	static const char *const why[] = {
		[CLOZE_UNCLOSED] = "cloze deletion is never closed: end it with }} in the same "
		    "emphasis or link it starts in, or write it in `code` to show it as written",
		[CLOZE_BAD_NUMBER] = "cloze deletion needs a number from 1 to 99: write {{c1::answer}}",
		[CLOZE_EMPTY] = "cloze deletion has no answer: write the words to hide, {{c1::answer}}",
		[CLOZE_NESTED] = "cloze deletion inside another one: close the first with }} before "
		    "the next {{c",
	};
	cmark_node *n;
	size_t cap = 0, ncap = 0, i;

	*lists = NULL;
	*nodes = NULL;
	*nlists = 0;
	for (n = cmark_node_first_child(t->root); n; n = cmark_node_next(n)) {
		struct cloze_list *l;

		if (cmark_node_get_type(n) != CMARK_NODE_HEADING || cmark_node_get_heading_level(n) != 2)
			continue;
		*lists = xgrow(*lists, &cap, *nlists + 1, sizeof(**lists));
		*nodes = xgrow(*nodes, &ncap, *nlists + 1, sizeof(**nodes));
		(*nodes)[*nlists] = n;
		l = &(*lists)[(*nlists)++];
		memset(l, 0, sizeof(*l));
		cloze_mark(n, l);
		for (i = 0; i < l->nissues; i++) {
			int line = l->issues[i].line, col = l->issues[i].col;

			if (line <= 0)
				doc_node_pos(d, n, &line, &col);
			else
				line += d->src->body_line - 1;
			diag_error(dl, d->src->display, line, col, "%s", why[l->issues[i].what]);
		}
	}
}

/*
 * The deletion numbers of a heading's list, ascending and unique, into
 * nums (CLOZE_MAX + 1 entries); a number used again with other text is
 * an error. Returns how many.
 */
static size_t
S_cloze_numbers(struct doc *d, const struct cloze_list *l, const char *id, int *nums,
    struct diag_list *dl)
{
	const struct cloze_deletion *first[CLOZE_MAX + 1] = { 0 };
	size_t i, n = 0;
	int k;

	for (i = 0; i < l->len; i++) {
		const struct cloze_deletion *x = &l->v[i], *f;

		if (x->number < 1)
			continue;
		f = first[x->number];
		if (f == NULL)
			first[x->number] = x;
		else if (strcmp(f->answer, x->answer) != 0)
			diag_error(dl, d->src->display, x->line + d->src->body_line - 1, x->col,
			    "card \"%s\": c%d is used again with another answer (\"%s\", then \"%s\"): "
			    "one number hides one answer; number this one c%d, or write the same answer",
			    id, x->number, f->answer, x->answer, x->number + 1);
	}
	for (k = 1; k <= CLOZE_MAX; k++)
		if (first[k])
			nums[n++] = k;
	return n;
}

/* Lines of the back that hold text, to tell a short answer from a long one. */
static int
S_back_lines(struct doc *d, const struct block_range *back)
{
	int from, to, line, n = 0;
	size_t len;

	if (back->first == NULL)
		return 0;
	from = cmark_node_get_start_line(back->first) + d->src->body_line - 1;
	to = cmark_node_get_end_line(back->last) + d->src->body_line - 1;
	for (line = from; line <= to; line++) {
		const char *s = doc_line(d, line, &len);
		size_t i = 0;

		while (s && i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		n += s && i < len;
	}
	return n;
}

/* One card of the deck, made from heading h. */
static struct card *
S_card_add(struct deck *dk, struct doc_tree *t, const struct part *p, enum card_kind kind, int cloze)
{
	struct card *c = &dk->cards[dk->ncards];
	struct card_nodes *cn = &t->cards[dk->ncards];
	const struct heading *h = p->h;
	char num[24];

	dk->ncards++;
	c->kind = kind;
	c->cloze = cloze;
	c->note_id = xstrdup(h->id);
	c->number = (int)dk->ncards;
	c->line = h->line;
	c->col = h->col;
	c->deck = dk;
	cn->heading = h->node;
	cn->back = p->body;
	if (kind == CARD_CLOZE) {
		snprintf(num, sizeof(num), "-c%d", cloze);
		c->id = xconcat(h->id, num, NULL);
		snprintf(num, sizeof(num), " (cloze %d)", cloze);
		c->label = S_card_label(h->id, num);
		c->front_text = cloze_text(h->node, CLOZE_SHOW_BLANK, cloze);
		c->cloze_source = cloze_text(h->node, CLOZE_SHOW_SOURCE, 0);
	} else {
		c->id = xconcat(h->id, kind == CARD_REVERSED ? "-r" : "", NULL);
		c->label = S_card_label(h->id, kind == CARD_REVERSED ? " (reversed)" : "");
		c->front_text = xstrdup(h->text);
	}
	S_card_fingerprint(c, cn);
	return c;
}

/* Each id once among the deck's cards: a made one ("x-r", "x-c1") may be another card's. */
static void
S_check_ids(struct doc *d, struct deck *dk, struct diag_list *dl)
{
	size_t i, j;
	struct card **v = xcalloc(dk->ncards ? dk->ncards : 1, sizeof(*v));

	for (i = 0; i < dk->ncards; i++)
		v[i] = &dk->cards[i];
	for (i = 0; i < dk->ncards; i++) {
		if (v[i]->kind == CARD_BASIC)
			continue;
		for (j = 0; j < dk->ncards; j++)
			if (j != i && strcmp(v[i]->id, v[j]->id) == 0 && (v[j]->kind == CARD_BASIC || j < i))
				break;
		if (j < dk->ncards)
			diag_error(dl, d->src->display, v[i]->line, v[i]->col,
			    "card \"%s\" makes card \"%s\" (%s), but the card at line %d has that id "
			    "already: give one of them another {#id}", v[i]->note_id, v[i]->id,
			    v[i]->kind == CARD_CLOZE ? "a cloze card" : "the reversed card", v[j]->line);
	}
	free(v);
}

struct deck *
deck_build(struct doc *d, struct doc_tree *t, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	struct deck *dk = xcalloc(1, sizeof(*dk));
	struct parts ps;
	struct cloze_list *cl;
	cmark_node **clnodes;
	size_t ncl, icl = 0, i, total = 0;
	int *nums = xcalloc(CLOZE_MAX + 1, sizeof(*nums));

	dk->slug = model_file_stem(d->src->rel);
	dk->doc = d;
	dk->weight = d->src->fm.weight;
	dk->url = xconcat("cards/", dk->slug, "/index.html", NULL);
	dk->pdf_url = xconcat("print/", dk->slug, ".pdf", NULL);
	if (d->src->fm.description)
		dk->description = xstrdup(d->src->fm.description);
	d->deck = dk;
	d->url = xstrdup(dk->url);
	S_mark_clozes(d, t, &cl, &clnodes, &ncl, dl);
	model_collect_headings(d, t, &hl, "card", 1, dl);
	dk->title = model_page_title(d, &hl, "deck", &title_h, dl);
	if (dk->title == NULL)
		dk->title = xstrdup(dk->slug);
	model_split_parts(d, t, &hl, title_h, "card", &ps, dl);
	t->intro = ps.intro;
	S_check_card_like(d, &hl, title_h, &ps, dl);
	S_check_attrs(d, &hl, dl);
	/* At most a reversed card, or CLOZE_MAX cloze cards, per heading. */
	total = 2 * ps.len;
	for (i = 0; i < ncl; i++)
		total += cl[i].len;
	dk->cards = xcalloc(total ? total : 1, sizeof(*dk->cards));
	t->cards = xcalloc(total ? total : 1, sizeof(*t->cards));
	for (i = 0; i < ps.len; i++) {
		const struct heading *h = ps.v[i].h;
		const struct cloze_list *l;
		size_t nnums = 0, k;
		int rev = S_has_class(h, "reverse") || (d->src->fm.reverse && !S_has_class(h, "noreverse"));
		struct card *first;

		/* The parts are among the `##` headings S_mark_clozes saw, in the same order. */
		while (icl < ncl && clnodes[icl] != h->node)
			icl++;
		if (icl < ncl) {
			l = &cl[icl];
			nnums = S_cloze_numbers(d, l, h->id, nums, dl);
		}
		if (nnums == 0)
			first = S_card_add(dk, t, &ps.v[i], CARD_BASIC, 0);
		else
			for (k = 0, first = NULL; k < nnums; k++) {
				struct card *c = S_card_add(dk, t, &ps.v[i], CARD_CLOZE, nums[k]);

				if (first == NULL)
					first = c;
			}
		if (ps.v[i].body.first == NULL)
			diag_error(dl, d->src->display, h->line, h->col,
			    "card \"%s\" has no back: write the answer below its heading", h->id);
		if (rev && nnums > 0 && S_has_class(h, "reverse"))
			diag_warning(dl, d->src->display, h->line, model_attr_col(d, h, 1, "reverse"),
			    "card \"%s\" has cloze deletions, so .reverse makes no card (a cloze card's "
			    "back is its own front, answered): take .reverse off", h->id);
		else if (rev && nnums == 0) {
			int lines = S_back_lines(d, &ps.v[i].body);

			S_card_add(dk, t, &ps.v[i], CARD_REVERSED, 0);
			if (lines > REVERSE_MAX_LINES)
				diag_warning(dl, d->src->display, h->line, h->col,
				    "card \"%s\" is reversed, but its back is %d lines long: the reversed card "
				    "asks with the whole back, which is hard to answer; shorten the back to %d "
				    "lines or fewer, or %s", h->id, lines, REVERSE_MAX_LINES,
				    S_has_class(h, "reverse") ? "take .reverse off" : "mark the card {.noreverse}");
		}
		/* The heading's id leads to its first card. */
		model_anchor_add(d, h->id, ANCHOR_CARD, h->line, h->col, first);
		for (k = (size_t)(first - dk->cards); k < dk->ncards; k++)
			if (strcmp(dk->cards[k].id, h->id) != 0)
				model_anchor_add(d, dk->cards[k].id, ANCHOR_CARD, h->line, h->col, &dk->cards[k]);
	}
	t->ncards = dk->ncards;
	S_check_ids(d, dk, dl);
	if (ps.len == 0 && !d->src->broken)
		diag_error(dl, d->src->display, 1, 1, "deck has no cards: each ## heading starts one");
	for (i = 0; i < ncl; i++)
		cloze_list_free(&cl[i]);
	free(cl);
	free(clnodes);
	free(nums);
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
		free(v[i].note_id);
		free(v[i].cloze_source);
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

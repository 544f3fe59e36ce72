/*
 * model: what every kind of doc is indexed with, and the look-ups on a
 * doc that later steps use.
 *
 * Positions and lines of a doc's source, its anchors, the headings of any
 * doc (attributes and ids), block ranges, the split of a topic or deck at
 * `##`, the links as written (struct doc_link) and the end of an index
 * job. The kinds themselves are built in quiz.c, deck.c and guide.c;
 * site.c loads the site.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "cloze.h"
#include "index.h"
#include "markdown.h"
#include "util.h"

void
model_headings_free(struct heading_list *hl)
{
	size_t i;

	for (i = 0; i < hl->len; i++) {
		md_attrs_free(&hl->v[i].attrs);
		free(hl->v[i].text);
		free(hl->v[i].id);
	}
	free(hl->v);
	memset(hl, 0, sizeof(*hl));
}

/* Positions and lines. */

void
doc_node_pos(const struct doc *d, cmark_node *node, int *line, int *col)
{
	int l = cmark_node_get_start_line(node);

	*line = l > 0 ? l + d->src->body_line - 1 : 0;
	*col = l > 0 ? cmark_node_get_start_column(node) : 0;
}

const char *
doc_line(struct doc *d, int line, size_t *len)
{
	const char *body = d->src->body;
	size_t n = d->src->body_len, i, idx, end;

	if (body == NULL)
		return NULL;
	if (d->line_starts == NULL) {
		size_t cap = 0;

		const char *nl;

		d->line_starts = xgrow(NULL, &cap, 1, sizeof(size_t));
		d->line_starts[0] = 0;
		d->nlines = 1;
		for (i = 0; i < n && (nl = memchr(body + i, '\n', n - i)) != NULL; i = (size_t)(nl - body) + 1) {
			d->line_starts = xgrow(d->line_starts, &cap, d->nlines + 1, sizeof(size_t));
			d->line_starts[d->nlines++] = (size_t)(nl - body) + 1;
		}
	}
	if (line < d->src->body_line)
		return NULL;
	idx = (size_t)(line - d->src->body_line);
	if (idx >= d->nlines)
		return NULL;
	end = idx + 1 < d->nlines ? d->line_starts[idx + 1] - 1 : n;
	if (end > d->line_starts[idx] && body[end - 1] == '\r')
		end--;
	*len = end - d->line_starts[idx];
	return body + d->line_starts[idx];
}

/* Anchors. */

void
model_anchor_add(struct doc *d, const char *id, enum anchor_kind kind, int line, int col,
    void *target)
{
	struct anchor *a;

	d->anchors = xgrow(d->anchors, &d->anchors_cap, d->nanchors + 1, sizeof(*d->anchors));
	a = &d->anchors[d->nanchors++];
	memset(a, 0, sizeof(*a));
	a->id = xstrdup(id);
	a->kind = kind;
	a->line = line;
	a->col = col;
	switch (kind) {
	case ANCHOR_HEADING:
		a->u.section = target;
		break;
	case ANCHOR_QUESTION:
		a->u.question = target;
		break;
	case ANCHOR_CARD:
		a->u.card = target;
		break;
	case ANCHOR_TOPIC:
		a->u.topic = target;
		break;
	}
}

int
model_cmp_anchor(const void *a, const void *b)
{
	const struct anchor *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

const struct anchor *
doc_anchor(const struct doc *d, const char *id)
{
	size_t lo = 0, hi = d->nanchors;

	/* The first of equal ids: a duplicate was reported, the first one wins. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(d->anchors[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->nanchors && strcmp(d->anchors[lo].id, id) == 0)
		return &d->anchors[lo];
	return NULL;
}

struct doc *
site_doc(const struct site *site, const char *rel)
{
	struct source *src = content_find(&site->sources, rel);

	return src ? src->doc : NULL;
}

struct doc_tree *
model_tree_new(cmark_node *root)
{
	struct doc_tree *t = xcalloc(1, sizeof(*t));

	t->root = root;
	return t;
}

void
model_tree_free(struct doc_tree *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nquestions; i++)
		free(t->questions[i].options);
	free(t->questions);
	free(t->cards);
	free(t->sections);
	cmark_node_free(t->root);
	free(t);
}

struct doc_tree *
model_doc_parse(struct doc *d, struct diag_list *dl)
{
	const struct source *src = d->src;
	cmark_node *root;
	size_t nodes;

	d->parsed = 1;
	root = md_parse_counted(src->body ? src->body : "", src->body ? src->body_len : 0, &nodes);
	if (nodes > d->max_elements) {
		diag_error(dl, src->display, 0, 0,
		    "more than %zu Markdown elements (headings, paragraphs, list items, "
		    "links, ...): split the file, or raise [limits] max_elements in site.toml",
		    d->max_elements);
		cmark_node_free(root);
		root = md_parse("", 0);
		d->src->broken = 1;
		d->emptied = 1;
	}
	return model_tree_new(root);
}

/* Headings: attributes and ids, for every doc alike. */

/*
 * Column of the last "{" on the heading's line, where its attributes
 * start: for diagnostics only, so found when one is made.
 */
int
model_attrs_col(struct doc *d, const struct heading *h)
{
	size_t len, i;
	int l = cmark_node_get_end_line(h->node) + d->src->body_line - 1;
	const char *s = doc_line(d, l, &len);

	if (s == NULL)
		return h->col;
	for (i = len; i-- > 0;)
		if (s[i] == '{')
			return (int)i + 1;
	return h->col;
}

int
model_attr_col(struct doc *d, const struct heading *h, int is_class, const char *name)
{
	size_t len, i, n = strlen(name);
	int l = cmark_node_get_end_line(h->node) + d->src->body_line - 1, open = model_attrs_col(d, h);
	const char *s = doc_line(d, l, &len);

	if (s == NULL || open < 1 || (size_t)open > len || s[open - 1] != '{')
		return open;
	for (i = (size_t)open; i + n + 1 <= len; i++) {
		const char *t = s + i;

		if (s[i - 1] != '{' && s[i - 1] != ' ' && s[i - 1] != '\t')
			continue;
		if (is_class ? (t[0] == '.' && memcmp(t + 1, name, n) == 0 &&
		    (i + n + 1 == len || strchr(" \t}", t[n + 1]) != NULL)) :
		    (memcmp(t, name, n) == 0 && t[n] == '='))
			return (int)i + 1;
	}
	return open;
}

/*
 * What to write instead of key=value, when that is plain: an id the
 * heading lacks, or (on a question) its difficulty or sample mark as a
 * class. NULL otherwise.
 */
static char *
S_attr_key_fix(const struct heading *h, const char *key, const char *value, int question)
{
	static const char *const classes[] = { "easy", "medium", "hard", "sample" };
	size_t i;

	if (strcmp(key, "id") == 0 && *value && h->attrs.id == NULL && strchr(value, ' ') == NULL)
		return xconcat("#", value, NULL);
	if (question && (strcmp(key, "class") == 0 || strcmp(key, "difficulty") == 0 ||
	    strcmp(key, "level") == 0))
		for (i = 0; i < 4; i++)
			if (strcmp(value, classes[i]) == 0)
				return xconcat(".", value, NULL);
	return NULL;
}

void
model_attrs_check(struct doc *d, const struct heading *h, const char *what, const char *takes,
    int classes_checked, struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < h->attrs.npairs; i++) {
		char *fix = S_attr_key_fix(h, h->attrs.keys[i], h->attrs.values[i], classes_checked);

		diag_warning(dl, d->src->display, h->line, model_attr_col(d, h, 0, h->attrs.keys[i]),
		    "unknown attribute %s= on %s is ignored: %s%s%s%s", h->attrs.keys[i], what, takes,
		    fix ? "; write " : "", fix ? fix : "", fix ? " instead" : "");
		free(fix);
	}
	for (i = 0; !classes_checked && i < h->attrs.nclasses; i++)
		diag_warning(dl, d->src->display, h->line, model_attr_col(d, h, 1, h->attrs.classes[i]),
		    "class .%s on %s is ignored: %s", h->attrs.classes[i], what, takes);
}

void
model_heading_attrs_check(struct doc *d, const struct heading *h, struct diag_list *dl)
{
	char *what;

	if (!h->has_attrs || (h->attrs.nclasses == 0 && h->attrs.npairs == 0))
		return;
	what = xconcat("heading \"", h->id, "\"", NULL);
	model_attrs_check(d, h, what, "a heading takes only {#id}", 0, dl);
	free(what);
}

/* The blocks that may hold a heading among their children. */
static int
S_holds_blocks(cmark_node *n)
{
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_DOCUMENT:
	case CMARK_NODE_BLOCK_QUOTE:
	case CMARK_NODE_LIST:
	case CMARK_NODE_ITEM:
	case CMARK_NODE_FOOTNOTE_DEFINITION:
		return 1;
	default:
		return 0;
	}
}

/*
 * It does not descend into paragraphs, headings or tables: a heading or
 * a list is only ever a child of the document, a quote, a list item or a
 * footnote, and inline nodes are most of a tree.
 */
cmark_node *
model_next_block(cmark_node *root, cmark_node *n)
{
	if (S_holds_blocks(n) && cmark_node_first_child(n))
		return cmark_node_first_child(n);
	while (n != root && cmark_node_next(n) == NULL)
		n = cmark_node_parent(n);
	return n == root ? NULL : cmark_node_next(n);
}

void
model_collect_headings(struct doc *d, struct doc_tree *t, struct heading_list *hl,
    const char *top_fallback, int check_dups, struct diag_list *dl)
{
	struct md_slugger slugger;
	cmark_node *n;
	size_t i, j;

	for (n = cmark_node_first_child(t->root); n; n = model_next_block(t->root, n)) {
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
			struct heading *h;

			hl->v = xgrow(hl->v, &hl->cap, hl->len + 1, sizeof(*hl->v));
			h = &hl->v[hl->len++];
			memset(h, 0, sizeof(*h));
			h->node = n;
			h->level = cmark_node_get_heading_level(n);
			h->top = cmark_node_parent(n) == t->root;
			doc_node_pos(d, n, &h->line, &h->col);
		}
	}

	/* Editing text nodes is safe now the walk is over. */
	for (i = 0; i < hl->len; i++) {
		struct heading *h = &hl->v[i];
		const char *err;
		int rc;

		rc = md_heading_attrs(h->node, &h->attrs, &err);
		if (rc == -1) {
			diag_error(dl, d->src->display, h->line, model_attrs_col(d, h),
			    "malformed heading attributes: %s", err);
			md_attrs_free(&h->attrs);
		}
		h->has_attrs = rc == 1;
		h->text = md_plain_text(h->node);
	}

	md_slugger_init(&slugger);
	for (i = 0; i < hl->len; i++) {
		struct heading *h = &hl->v[i];

		if (h->attrs.id == NULL)
			continue;
		if (check_dups && md_slugger_has(&slugger, h->attrs.id)) {
			for (j = 0; j < i; j++)
				if (hl->v[j].attrs.id && strcmp(hl->v[j].attrs.id, h->attrs.id) == 0)
					break;
			diag_error(dl, d->src->display, h->line, model_attrs_col(d, h),
			    "duplicate %sid \"%s\": line %d has it already",
			    top_fallback && h->top && h->level == 2 ? "card " : "", h->attrs.id,
			    j < i ? hl->v[j].line : 0);
		}
		md_slugger_reserve(&slugger, h->attrs.id);
		h->id = xstrdup(h->attrs.id);
	}
	for (i = 0; i < hl->len; i++) {
		struct heading *h = &hl->v[i];
		char *slug;

		if (h->id != NULL)
			continue;
		/* A card's id never shows a cloze answer. */
		if (cloze_has(h->node)) {
			char *plain = cloze_text(h->node, CLOZE_SHOW_NONE, 0);

			slug = md_slug(plain);
			free(plain);
		} else
			slug = md_slug(h->text);
		if (*slug == '\0') {
			free(slug);
			slug = xstrdup(h->top && h->level == 2 && top_fallback ? top_fallback : "section");
		}
		h->id = md_slugger_take(&slugger, slug);
		free(slug);
	}
	md_slugger_free(&slugger);
}

/* Block ranges. */

void
model_range_add(struct block_range *r, cmark_node *n)
{
	if (r->first == NULL)
		r->first = n;
	r->last = n;
}

/* The first top-level `#` heading before any `##`, used as a title. */
const struct heading *
model_title_heading(const struct heading_list *hl)
{
	size_t i;

	for (i = 0; i < hl->len; i++) {
		if (!hl->v[i].top)
			continue;
		if (hl->v[i].level == 1)
			return &hl->v[i];
		if (hl->v[i].level == 2)
			return NULL;
	}
	return NULL;
}

static const struct heading *
S_find_heading(const struct heading_list *hl, cmark_node *n)
{
	size_t lo = 0, hi = hl->len;
	int line = cmark_node_get_start_line(n);

	/* Headings are in document order, hence in line order. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmark_node_get_start_line(hl->v[mid].node) < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < hl->len; lo++)
		if (hl->v[lo].node == n)
			return &hl->v[lo];
	return NULL;
}

/*
 * The title of a page: front matter, else its first `#` heading. NULL
 * (and an error, unless the front matter already had one) without either.
 */
char *
model_page_title(struct doc *d, const struct heading_list *hl, const char *what,
    const struct heading **used, struct diag_list *dl)
{
	const struct heading *h = model_title_heading(hl);

	*used = NULL;
	if (d->src->fm.title)
		return xstrdup(d->src->fm.title);
	if (h != NULL && *h->text) {
		*used = h;
		return xstrdup(h->text);
	}
	if (!d->src->fm.error && !d->src->broken)
		diag_error(dl, d->src->display, 1, 1,
		    "%s has no title: add title = \"...\" to the front matter, or start with a # heading",
		    what);
	return NULL;
}

char *
model_file_stem(const char *rel)
{
	const char *base = path_basename(rel);
	size_t n = strlen(base);

	if (n > 3 && strcmp(base + n - 3, ".md") == 0)
		n -= 3;
	return xstrndup(base, n);
}
/* Topics and decks: the top-level blocks, split at `##`. */

void
model_split_parts(struct doc *d, struct doc_tree *t, const struct heading_list *hl,
    const struct heading *title, const char *what, struct parts *ps, struct diag_list *dl)
{
	cmark_node *n;

	memset(ps, 0, sizeof(*ps));
	for (n = cmark_node_first_child(t->root); n; n = cmark_node_next(n)) {
		const struct heading *h = NULL;

		if (cmark_node_get_type(n) == CMARK_NODE_HEADING)
			h = S_find_heading(hl, n);
		if (h && h->level == 2) {
			ps->v = xgrow(ps->v, &ps->cap, ps->len + 1, sizeof(*ps->v));
			memset(&ps->v[ps->len], 0, sizeof(ps->v[0]));
			ps->v[ps->len++].h = h;
			continue;
		}
		if (ps->len == 0) {
			if (h != title || h == NULL)
				model_range_add(&ps->intro, n);
			continue;
		}
		if (h && h->level == 1)
			diag_error(dl, d->src->display, h->line, h->col,
			    "a # heading inside %s \"%s\": each ## heading starts one; use ### or deeper within it",
			    what, ps->v[ps->len - 1].h->id);
		model_range_add(&ps->v[ps->len - 1].body, n);
	}
}

int
model_cmp_weighted(int ha, long wa, const char *na, int hb, long wb, const char *nb)
{
	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && wa != wb)
		return wa < wb ? -1 : 1;
	return strcmp(na, nb);
}

/* The body of a heading-only page: every heading an anchor. */
void
model_build_page(struct doc *d, struct doc_tree *t, struct heading_list *hl,
    struct diag_list *dl)
{
	size_t i;

	model_collect_headings(d, t, hl, NULL, 1, dl);
	for (i = 0; i < hl->len; i++) {
		struct heading *h = &hl->v[i];

		model_anchor_add(d, h->id, ANCHOR_HEADING, h->line, h->col, NULL);
		model_heading_attrs_check(d, h, dl);
	}
}

/* The links as written (struct doc_link), found while a doc is indexed. */

/*
 * Two things cmark does not tell are recovered from the source: exact
 * columns (on a block's continuation lines cmark forgets the container
 * prefix: each later line's first inline node is matched with the
 * line's first content byte, and that shift applies to the rest of the
 * line; the result is checked against the `[` or `![` actually there),
 * and whether a link is reference-style (cmark resolves
 * `[text][label]` to its URL).
 */
struct link_walk {
	struct doc *d;
	size_t cap;
	int block_line;            /* body-relative start line of the current block */
	int delta_line;            /* the line `delta` was found for */
	int delta;
};

/* The first byte of a line's content, past container markers (1-based). */
static int
S_content_col(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '>'))
		i++;
	return (int)i + 1;
}

/* The true column of an inline node; called for every inline node in document order. */
static int
S_inline_col(struct link_walk *w, cmark_node *n)
{
	int l = cmark_node_get_start_line(n), c = cmark_node_get_start_column(n);
	const char *s;
	size_t len;

	if (l <= 0 || l == w->block_line)
		return c;
	if (l != w->delta_line) {
		s = doc_line(w->d, l + w->d->src->body_line - 1, &len);
		w->delta_line = l;
		w->delta = s ? S_content_col(s, len) - c : 0;
	}
	return c + w->delta;
}

/* Moves col onto the `[` (or `![`) of the link nearest to it on its line. */
static int
S_snap_col(struct doc *d, int line, int col, int is_image)
{
	size_t len, best = (size_t)-1, i;
	const char *s = doc_line(d, line, &len);
	int found = 0;

	if (s == NULL)
		return col;
	for (i = 0; i + 1 < len || (i < len && !is_image); i++) {
		int hit = is_image ? (s[i] == '!' && s[i + 1] == '[') : s[i] == '[';
		size_t dist;

		if (!hit)
			continue;
		dist = i + 1 > (size_t)col ? i + 1 - (size_t)col : (size_t)col - i - 1;
		if (!found || dist < best) {
			best = dist;
			found = (int)i + 1;
		}
		if (dist == 0)
			break;
	}
	return found ? found : col;
}

/* Whether the link whose `[` is at line:col is reference-style: its closing `]` is not followed by `(`. */
static int
S_is_reference(struct doc *d, int line, int col, int is_image)
{
	const char *body = d->src->body, *end, *p;
	size_t len, k;
	const char *s = doc_line(d, line, &len);
	int depth = 0;

	if (s == NULL || col < 1 || (size_t)col > len)
		return 0;
	p = s + col - 1 + (is_image ? 1 : 0);
	if (*p != '[')
		return 0;
	end = body + d->src->body_len;
	if ((size_t)(end - p) > 65536)
		end = p + 65536;
	for (; p < end; p++) {
		if (*p == '\\') {
			p++;
			continue;
		}
		if (*p == '`') {
			const char *q;
			size_t run = 1;

			while (p + run < end && p[run] == '`')
				run++;
			for (q = p + run; q < end; q++) {
				if (*q != '`')
					continue;
				for (k = 0; q + k < end && q[k] == '`'; k++)
					;
				if (k == run)
					break;
				q += k - 1;
			}
			p = q < end ? q + run - 1 : p + run - 1;
			continue;
		}
		if (*p == '[')
			depth++;
		else if (*p == ']' && --depth == 0)
			return !(p + 1 < end && p[1] == '(');
	}
	return 0;
}

/* Whether link n is all of a paragraph that is a top-level block. */
static int
S_link_alone(cmark_node *n)
{
	cmark_node *p = cmark_node_parent(n);

	return cmark_node_get_type(n) == CMARK_NODE_LINK && p &&
	    cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH &&
	    cmark_node_first_child(p) == n && cmark_node_last_child(p) == n &&
	    cmark_node_parent(p) && cmark_node_get_type(cmark_node_parent(p)) == CMARK_NODE_DOCUMENT;
}

static void
S_link_add(struct link_walk *w, cmark_node *n, struct question *q, struct card *c)
{
	const char *dest = cmark_node_get_url(n), *s;
	struct doc *d = w->d;
	struct doc_link *u;
	size_t len;

	if (dest == NULL)
		return;
	d->links = xgrow(d->links, &w->cap, d->nlinks + 1, sizeof(*d->links));
	u = &d->links[d->nlinks++];
	u->dest = xstrdup(dest);
	u->is_image = cmark_node_get_type(n) == CMARK_NODE_IMAGE;
	u->line = cmark_node_get_start_line(n) + d->src->body_line - 1;
	u->col = S_inline_col(w, n);
	u->q = q;
	u->c = c;
	u->alone = d->chapter && S_link_alone(n);
	u->embed = NULL;
	/* Bare autolinks are absolute; only `[...]` links need a position fix. */
	s = doc_line(d, u->line, &len);
	if (s && (u->col < 1 || (size_t)u->col > len ||
	    s[u->col - 1] != (u->is_image ? '!' : '[')))
		u->col = S_snap_col(d, u->line, u->col, u->is_image);
	u->ref = S_is_reference(d, u->line, u->col, u->is_image);
}

/* One top-level block's links, as written in question q or card c. */
static void
S_links_block(struct link_walk *w, cmark_node *top, struct question *q, struct card *c)
{
	cmark_iter *it = cmark_iter_new(top);
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (md_is_block(n)) {
			w->block_line = cmark_node_get_start_line(n);
			w->delta_line = 0;
			w->delta = 0;
			continue;
		}
		t = cmark_node_get_type(n);
		if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)
			S_link_add(w, n, q, c);
		else
			S_inline_col(w, n);
	}
	cmark_iter_free(it);
}

/* Every link of a published doc (in its tree t), with the question or card it is in. */
static void
S_links_record(struct doc *d, const struct doc_tree *t)
{
	struct link_walk w;
	struct question *qs = NULL, *q = NULL;
	struct card *cs = NULL, *c = NULL;
	size_t nq = 0, nc = 0, qi = 0, ci = 0, i;
	cmark_node *n;

	for (i = 0; i < d->nlinks; i++)
		free(d->links[i].dest);
	free(d->links);
	d->links = NULL;
	d->nlinks = 0;
	if (d->url == NULL)
		return;
	memset(&w, 0, sizeof(w));
	w.d = d;
	if (d->topic && d->topic->doc == d) {
		qs = d->topic->questions;
		nq = d->topic->nquestions;
	} else if (d->deck) {
		cs = d->deck->cards;
		nc = d->deck->ncards;
	}
	for (n = cmark_node_first_child(t->root); n; n = cmark_node_next(n)) {
		if (qi < nq && qi < t->nquestions && t->questions[qi].heading == n) {
			q = &qs[qi++];
			c = NULL;
		} else if (ci < nc && ci < t->ncards && t->cards[ci].heading == n) {
			/* A heading's cards share its links: they go to the first. */
			c = &cs[ci];
			while (ci < nc && ci < t->ncards && t->cards[ci].heading == n)
				ci++;
			q = NULL;
		}
		S_links_block(&w, n, q, c);
	}
}

/* The end of d's index job: its links recorded, its tree dropped. */
void
model_index_end(struct doc *d, struct doc_tree *t)
{
	S_links_record(d, t);
	model_tree_free(t);
}

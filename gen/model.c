/*
 * model: from parsed Markdown to tests, decks and the guide.
 *
 * site_load runs the pipeline's front half: site.toml, content/, one
 * cmark tree per Markdown file, then the structure format.md gives each
 * kind of file; linking is the caller's next step (links.h). Every author mistake becomes a diagnostic
 * at its own line and column and the load goes on, so one `check`
 * reports everything.
 *
 * The structure of a topic or deck is read from the document's top-level
 * blocks only: a `##` nested in a list or quote is content, not a new
 * question. Rules this file decides where format.md is silent:
 *
 *  - A topic or deck may open with an introduction (any blocks before
 *    the first `##`); a leading `#` heading is its title when the front
 *    matter has none. A `#` heading after the first `##` is an error:
 *    it would end a question or card in the middle.
 *  - A question heading takes the classes .easy, .medium, .hard and
 *    .sample and nothing else (a misspelt difficulty must not pass as
 *    a style); cards and guide headings take any class.
 *  - _index.md of a test may set `difficulty`, the default for all its
 *    topics (a topic's own key wins).
 *  - Siblings are ordered by weight, pages without one after those with
 *    one (as in Hugo), then by file name. A guide sub-folder (a part)
 *    sorts by the weight of its _index.md (or README.md, as in mdBook),
 *    which opens the part.
 *  - A Markdown file that is no page (outside quiz/, cards/, guide/, or
 *    misplaced in them) gets a warning, except README.md files, which
 *    are for reading the sources on GitHub. Links in it are not checked.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "links.h"
#include "markdown.h"
#include "pool.h"
#include "toml.h"
#include "util.h"

/* One heading of a doc, as found before the kind-specific pass. */
struct heading {
	cmark_node *node;
	int level;
	int line, col;             /* in the file */
	int top;                   /* a child of the document itself */
	struct md_attrs attrs;
	int has_attrs;
	char *text;                /* plain text, attributes taken off */
	char *id;                  /* explicit or slug, unique in the file */
};

struct heading_list {
	struct heading *v;
	size_t len, cap;
};

static void
S_headings_free(struct heading_list *hl)
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

static void S_index_end(struct doc *d);

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

static void
S_anchor_add(struct doc *d, const char *id, enum anchor_kind kind, int line, int col,
    cmark_node *node, void *target)
{
	struct anchor *a;

	d->anchors = xgrow(d->anchors, &d->anchors_cap, d->nanchors + 1, sizeof(*d->anchors));
	a = &d->anchors[d->nanchors++];
	memset(a, 0, sizeof(*a));
	a->id = xstrdup(id);
	a->kind = kind;
	a->line = line;
	a->col = col;
	a->node = node;
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

static int
S_cmp_anchor(const void *a, const void *b)
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

const char *
doc_heading_id(const struct doc *d, cmark_node *heading)
{
	(void)d;
	return heading ? cmark_node_get_user_data(heading) : NULL;
}

struct doc *
site_doc(const struct site *site, const char *rel)
{
	struct source *src = content_find(&site->sources, rel);

	return src ? src->doc : NULL;
}

/*
 * Parses d for its index job. A file with more Markdown elements than
 * [limits] max_elements is an error, and is indexed as empty: the model
 * and the pages cost memory per element (a heading most), so this bounds
 * what one file can cost.
 */
static void
S_doc_parse(struct doc *d, struct diag_list *dl)
{
	const struct source *src = d->src;
	size_t nodes;

	d->parsed = 1;
	d->root = md_parse_counted(src->body ? src->body : "", src->body ? src->body_len : 0, &nodes);
	if (nodes <= d->max_elements)
		return;
	diag_error(dl, src->display, 0, 0,
	    "more than %zu Markdown elements (headings, paragraphs, list items, "
	    "links, ...): split the file, or raise [limits] max_elements in site.toml", d->max_elements);
	cmark_node_free(d->root);
	d->root = md_parse("", 0);
	d->src->broken = 1;
	d->emptied = 1;
}

/* Headings: attributes and ids, for every doc alike. */

/*
 * Column of the last "{" on the heading's line, where its attributes
 * start: for diagnostics only, so found when one is made.
 */
static int
S_attrs_col(struct doc *d, const struct heading *h)
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

/*
 * Finds every heading, takes its attributes off and gives it an id:
 * explicit ids first (so slugs step around them), then slugs in file
 * order with -N for repeats. `question_level` is 2 in topics and decks,
 * where an empty slug falls back to "question" or "card".
 */
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
 * The block after n in document order, never leaving root, or NULL. It
 * does not descend into paragraphs, headings or tables: a heading is only
 * ever a child of the document, a quote, a list item or a footnote, and
 * inline nodes are most of a tree.
 */
static cmark_node *
S_next_block(cmark_node *root, cmark_node *n)
{
	if (S_holds_blocks(n) && cmark_node_first_child(n))
		return cmark_node_first_child(n);
	while (n != root && cmark_node_next(n) == NULL)
		n = cmark_node_parent(n);
	return n == root ? NULL : cmark_node_next(n);
}

static void
S_collect_headings(struct doc *d, struct heading_list *hl, const char *top_fallback,
    int check_dups, struct diag_list *dl)
{
	struct md_slugger slugger;
	cmark_node *n;
	size_t i, j;

	if (d->root == NULL && !d->parsed)
		S_doc_parse(d, dl);
	for (n = cmark_node_first_child(d->root); n; n = S_next_block(d->root, n)) {
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
			struct heading *h;

			hl->v = xgrow(hl->v, &hl->cap, hl->len + 1, sizeof(*hl->v));
			h = &hl->v[hl->len++];
			memset(h, 0, sizeof(*h));
			h->node = n;
			h->level = cmark_node_get_heading_level(n);
			h->top = cmark_node_parent(n) == d->root;
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
			diag_error(dl, d->src->display, h->line, S_attrs_col(d, h),
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
			diag_error(dl, d->src->display, h->line, S_attrs_col(d, h),
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

static void
S_range_add(struct block_range *r, cmark_node *n)
{
	if (r->first == NULL)
		r->first = n;
	r->last = n;
}

/* The first top-level `#` heading before any `##`, used as a title. */
static const struct heading *
S_title_heading(const struct heading_list *hl)
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
static char *
S_page_title(struct doc *d, const struct heading_list *hl, const char *what,
    const struct heading **used, struct diag_list *dl)
{
	const struct heading *h = S_title_heading(hl);

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

static char *
S_stem(const char *rel)
{
	const char *base = path_basename(rel);
	size_t n = strlen(base);

	if (n > 3 && strcmp(base + n - 3, ".md") == 0)
		n -= 3;
	return xstrndup(base, n);
}

/* Topics and decks: the top-level blocks, split at `##`. */

struct part {
	const struct heading *h;
	struct block_range body;   /* blocks after the heading */
};

struct parts {
	struct block_range intro;
	struct part *v;
	size_t len, cap;
};

static void
S_split_parts(struct doc *d, const struct heading_list *hl, const struct heading *title,
    const char *what, struct parts *ps, struct diag_list *dl)
{
	cmark_node *n;

	memset(ps, 0, sizeof(*ps));
	for (n = cmark_node_first_child(d->root); n; n = cmark_node_next(n)) {
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
				S_range_add(&ps->intro, n);
			continue;
		}
		if (h && h->level == 1)
			diag_error(dl, d->src->display, h->line, h->col,
			    "a # heading inside %s \"%s\": each ## heading starts one; use ### or deeper within it",
			    what, ps->v[ps->len - 1].h->id);
		S_range_add(&ps->v[ps->len - 1].body, n);
	}
}

static int
S_is_task_list(cmark_node *n)
{
	cmark_node *item;

	if (cmark_node_get_type(n) != CMARK_NODE_LIST)
		return 0;
	for (item = cmark_node_first_child(n); item; item = cmark_node_next(item))
		if (md_is_task_item(item))
			return 1;
	return 0;
}

static void
S_hash_text(uint64_t *h, cmark_node *n)
{
	char *t = md_plain_text(n);

	*h = hash_fnv1a(t, strlen(t) + 1, *h);
	free(t);
}

static void
S_fingerprint(struct question *q)
{
	uint64_t h = HASH_FNV_SEED;
	cmark_node *n;
	size_t i;

	h = hash_fnv1a(q->stem_text, strlen(q->stem_text) + 1, h);
	if (q->stem.first)
		for (n = q->stem.first;; n = cmark_node_next(n)) {
			S_hash_text(&h, n);
			if (n == q->stem.last)
				break;
		}
	for (i = 0; i < q->noptions; i++) {
		h = hash_fnv1a(q->options[i].correct ? "x" : " ", 1, h);
		S_hash_text(&h, q->options[i].item);
	}
	snprintf(q->fingerprint, sizeof(q->fingerprint), "%016llx", (unsigned long long)h);
}

/* Reads a question's difficulty and sample mark from its heading's classes. */
static void
S_question_classes(struct doc *d, struct question *q, const struct heading *h,
    enum difficulty deflt, struct diag_list *dl)
{
	static const char *const names[] = { "easy", "medium", "hard" };
	const char *set = NULL;
	size_t i;
	int k;

	q->difficulty = deflt;
	for (i = 0; i < h->attrs.nclasses; i++) {
		const char *c = h->attrs.classes[i];

		if (strcmp(c, "sample") == 0) {
			q->sample = q->marked = 1;
			continue;
		}
		for (k = 0; k < 3; k++)
			if (strcmp(c, names[k]) == 0)
				break;
		if (k == 3) {
			diag_error(dl, d->src->display, h->line, S_attrs_col(d, h),
			    "unknown class .%s on a question; expected .easy, .medium, .hard or .sample", c);
			continue;
		}
		if (set != NULL && strcmp(set, c) != 0) {
			diag_error(dl, d->src->display, h->line, S_attrs_col(d, h),
			    "question \"%s\" has two difficulties, .%s and .%s: keep one", q->id, set, c);
			continue;
		}
		set = c;
		q->difficulty = (enum difficulty)k;
	}
}

static void
S_build_question(struct doc *d, struct topic *t, struct question *q, const struct part *p,
    enum difficulty deflt, struct diag_list *dl)
{
	const char *file = d->src->display;
	cmark_node *n, *opts = NULL, *prev = NULL, *item;
	size_t ncorrect = 0, nitems = 0;
	int line, col;

	memset(q, 0, sizeof(*q));
	q->id = xstrdup(p->h->id);
	q->stem_text = xstrdup(p->h->text);
	q->heading = p->h->node;
	q->line = p->h->line;
	q->col = p->h->col;
	q->topic = t;
	S_question_classes(d, q, p->h, deflt == DIFF_NONE ? DIFF_MEDIUM : deflt, dl);

	if (p->body.first)
		for (n = p->body.first;; n = cmark_node_next(n)) {
			if (opts == NULL && S_is_task_list(n)) {
				opts = n;
				if (prev && cmark_node_get_type(prev) == CMARK_NODE_BLOCK_QUOTE)
					q->hint = prev;
			} else if (opts != NULL)
				S_range_add(&q->explanation, n);
			if (n == p->body.last)
				break;
			prev = n;
		}
	if (p->body.first && opts != p->body.first && !(q->hint && q->hint == p->body.first))
		for (n = p->body.first; n && n != opts && n != q->hint; n = cmark_node_next(n))
			S_range_add(&q->stem, n);
	if (opts == NULL) {
		diag_error(dl, file, q->line, q->col,
		    "question \"%s\" has no options: add a task list (- [ ] wrong, - [x] right) after it",
		    q->id);
		return;
	}
	q->options_list = opts;
	q->has_options = 1;
	/* Sized to the list: a bank's questions outlive their trees, and most have four options. */
	for (item = cmark_node_first_child(opts); item; item = cmark_node_next(item))
		nitems++;
	q->options = xcalloc(nitems, sizeof(*q->options));
	nitems = 0;
	for (item = cmark_node_first_child(opts); item; item = cmark_node_next(item)) {
		struct quiz_option *o;
		cmark_node *c;

		nitems++;
		doc_node_pos(d, item, &line, &col);
		if (!md_is_task_item(item)) {
			diag_error(dl, file, line, col,
			    "option %zu of question \"%s\" is not a task item: start it with [ ] or [x]",
			    nitems, q->id);
			continue;
		}
		o = &q->options[q->noptions++];
		o->item = item;
		o->correct = md_task_item_checked(item);
		o->line = line;
		o->col = col;
		for (c = cmark_node_first_child(item); c; c = cmark_node_next(c))
			if (cmark_node_get_type(c) == CMARK_NODE_BLOCK_QUOTE) {
				o->feedback = c;
				break;
			}
		if (o->correct)
			ncorrect++;
	}
	doc_node_pos(d, opts, &line, &col);
	if (q->noptions < 2)
		diag_error(dl, file, line, col,
		    "question \"%s\" has only %s option: a question needs at least two",
		    q->id, q->noptions == 0 ? "no task-list" : "one");
	else if (ncorrect == 0)
		diag_error(dl, file, line, col,
		    "question \"%s\" has no correct option: mark the right one with [x]", q->id);
	q->multi = ncorrect > 1;
	if (q->explanation.first == NULL)
		diag_warning(dl, file, q->line, q->col,
		    "question \"%s\" has no explanation: add a paragraph after the options saying why the answer is right",
		    q->id);
	S_fingerprint(q);
}

/* Puts the id on the heading node, where renderers find it (doc_heading_id). */
static void
S_mark_heading(cmark_node *heading, const char *id)
{
	cmark_node_set_user_data(heading, (void *)id);
}

static struct topic *
S_build_topic(struct doc *d, struct test *t, const char *url, const char *slug,
    enum difficulty deflt, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	struct topic *tp = xcalloc(1, sizeof(*tp));
	struct parts ps;
	size_t i;

	tp->slug = xstrdup(slug);
	tp->doc = d;
	tp->test = t;
	tp->weight = d->src->fm.weight;
	d->topic = tp;
	d->url = xstrdup(url);
	/* Question ids are checked across the whole test (S_test_ids). */
	S_collect_headings(d, &hl, "question", 0, dl);
	title_h = S_title_heading(&hl);
	if (d->src->fm.title)
		tp->title = xstrdup(d->src->fm.title);
	else if (title_h && *title_h->text)
		tp->title = xstrdup(title_h->text);
	else if (d->src->kind == SOURCE_TEST_FILE)
		tp->title = NULL;      /* takes the test's title below */
	else {
		if (!d->src->fm.error && !d->src->broken)
			diag_warning(dl, d->src->display, 1, 1,
			    "topic has no title, so the topic picker shows \"%s\": add title = \"...\" to the front matter",
			    slug);
		tp->title = xstrdup(slug);
	}
	if (d->src->fm.difficulty != DIFF_NONE)
		deflt = d->src->fm.difficulty;
	S_split_parts(d, &hl, d->src->fm.title ? NULL : title_h, "question", &ps, dl);
	tp->intro = ps.intro;
	tp->questions = xcalloc(ps.len ? ps.len : 1, sizeof(*tp->questions));
	tp->nquestions = ps.len;
	for (i = 0; i < ps.len; i++)
		S_build_question(d, tp, &tp->questions[i], &ps.v[i], deflt, dl);
	for (i = 0; i < tp->nquestions; i++) {
		struct question *q = &tp->questions[i];

		S_anchor_add(d, q->id, ANCHOR_QUESTION, q->line, q->col, q->heading, q);
	}
	if (d->src->kind == SOURCE_TOPIC) {
		/* A link to the topic file without # lands on the topic. */
		char *id = xconcat("topic-", tp->slug, NULL);

		S_anchor_add(d, id, ANCHOR_TOPIC, 1, 1, NULL, tp);
		free(id);
	}
	if (ps.len == 0 && !d->src->broken)
		diag_error(dl, d->src->display, 1, 1, "%s has no questions: each ## heading starts one",
		    d->src->kind == SOURCE_TEST_FILE ? "test" : "topic");
	free(ps.v);
	S_headings_free(&hl);
	return tp;
}

/* Tests. */

static int
S_cmp_weighted(int ha, long wa, const char *na, int hb, long wb, const char *nb)
{
	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && wa != wb)
		return wa < wb ? -1 : 1;
	return strcmp(na, nb);
}

static int
S_cmp_topic(const void *a, const void *b)
{
	const struct topic *x = *(struct topic *const *)a, *y = *(struct topic *const *)b;

	return S_cmp_weighted(x->doc->src->fm.has_weight, x->weight, x->slug,
	    y->doc->src->fm.has_weight, y->weight, y->slug);
}

static int
S_cmp_test(const void *a, const void *b)
{
	const struct test *x = *(struct test *const *)a, *y = *(struct test *const *)b;

	return S_cmp_weighted(x->index->src->fm.has_weight, x->weight, x->slug,
	    y->index->src->fm.has_weight, y->weight, y->slug);
}

struct idref {
	const char *id;
	int line, col;
	int question;              /* 0: a topic's own anchor */
	struct topic *t;
	size_t order;
};

static int
S_cmp_idref(const void *a, const void *b)
{
	const struct idref *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Ids are unique within a test: one page holds all its topics. */
static void
S_test_ids(struct test *t, struct diag_list *dl)
{
	struct idref *v = NULL;
	size_t n = 0, cap = 0, i, j, k;

	for (i = 0; i < t->ntopics; i++) {
		struct topic *tp = t->topics[i];

		for (k = 0; k < tp->doc->nanchors; k++)
			if (tp->doc->anchors[k].kind == ANCHOR_TOPIC) {
				v = xgrow(v, &cap, n + 1, sizeof(*v));
				v[n].id = tp->doc->anchors[k].id;
				v[n].line = v[n].col = 0;
				v[n].question = 0;
				v[n].t = tp;
				v[n].order = n;
				n++;
			}
		for (j = 0; j < tp->nquestions; j++) {
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n].id = tp->questions[j].id;
			v[n].line = tp->questions[j].line;
			v[n].col = tp->questions[j].col;
			v[n].question = 1;
			v[n].t = tp;
			v[n].order = n;
			n++;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), S_cmp_idref);
	for (i = 1; i < n; i++) {
		const struct idref *first;

		if (strcmp(v[i].id, v[i - 1].id) != 0)
			continue;
		for (k = i; k > 0 && strcmp(v[k - 1].id, v[i].id) == 0; k--)
			;
		first = &v[k];
		if (!v[i].question)
			continue;      /* a topic's own anchor: the question is the one to rename */
		if (!first->question)
			diag_error(dl, v[i].t->doc->src->display, v[i].line, v[i].col,
			    "duplicate question id \"%s\": it is the anchor of topic %s in the same test",
			    v[i].id, first->t->slug);
		else if (first->t == v[i].t)
			diag_error(dl, v[i].t->doc->src->display, v[i].line, v[i].col,
			    "duplicate question id \"%s\": line %d has it already; ids are unique within a test",
			    v[i].id, first->line);
		else
			diag_error(dl, v[i].t->doc->src->display, v[i].line, v[i].col,
			    "duplicate question id \"%s\": %s:%d has it already; ids are unique within a test",
			    v[i].id, first->t->doc->src->display, first->line);
	}
	free(v);
}

static void
S_test_finish(struct test *t, struct diag_list *dl)
{
	size_t i, j, k, nsample = 0;

	if (t->ntopics > 1)
		qsort(t->topics, t->ntopics, sizeof(*t->topics), S_cmp_topic);
	for (i = 0; i < t->ntopics; i++) {
		for (j = 0; j < t->topics[i]->nquestions; j++) {
			struct question *q = &t->topics[i]->questions[j];

			t->count[q->difficulty]++;
			t->nquestions++;
			nsample += q->sample;
		}
	}
	/* Without any .sample, the first two easy questions are the samples. */
	for (i = 0, k = nsample; i < t->ntopics && k == 0 && nsample < 2; i++)
		for (j = 0; j < t->topics[i]->nquestions && nsample < 2; j++) {
			struct question *q = &t->topics[i]->questions[j];

			if (q->difficulty == DIFF_EASY && q->has_options) {
				q->sample = 1;
				nsample++;
			}
		}
	S_test_ids(t, dl);
}

/* A test's page. */
static char *
S_test_url(const char *slug)
{
	return xconcat("quiz/", slug, "/index.html", NULL);
}

static struct test *
S_test_new(const char *slug, struct doc *index)
{
	struct test *t = xcalloc(1, sizeof(*t));

	t->slug = xstrdup(slug);
	t->index = index;
	t->url = S_test_url(slug);
	t->weight = index->src->fm.weight;
	if (index->src->fm.description)
		t->description = xstrdup(index->src->fm.description);
	index->test = t;
	return t;
}

static void
S_test_add_topic(struct test *t, struct topic *tp)
{
	t->topics = xrealloc(t->topics, (t->ntopics + 1) * sizeof(*t->topics));
	t->topics[t->ntopics++] = tp;
}

/* The body of a heading-only page: every heading an anchor. */
static void
S_build_page(struct doc *d, struct heading_list *hl, struct diag_list *dl)
{
	size_t i;

	S_collect_headings(d, hl, NULL, 1, dl);
	for (i = 0; i < hl->len; i++) {
		struct heading *h = &hl->v[i];

		S_anchor_add(d, h->id, ANCHOR_HEADING, h->line, h->col, h->node, NULL);
	}
}

/*
 * A test's _index.md: its anchors, and its title (the front matter's, or
 * a leading # heading's; NULL with an error if neither) and introduction
 * (every other top-level block). Caller frees the title.
 */
static char *
S_test_index(struct doc *d, struct block_range *intro, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	char *title;
	cmark_node *n;

	S_build_page(d, &hl, dl);
	title = S_page_title(d, &hl, "test", &title_h, dl);
	memset(intro, 0, sizeof(*intro));
	for (n = cmark_node_first_child(d->root); n; n = cmark_node_next(n))
		if (title_h == NULL || n != title_h->node)
			S_range_add(intro, n);
	S_headings_free(&hl);
	return title;
}

/* The topics of folder tests, built in parallel (S_build_tests). */
struct topic_job {
	struct doc *doc;
	struct test *test;
	enum difficulty deflt;
	struct topic *topic;
};

struct topic_batch {
	struct topic_job *jobs;
	size_t n;
	struct diag_list *dls;     /* per topic, moved into the site's list in file order */
};

static void
S_topic_job(void *arg, size_t job, int worker)
{
	struct topic_batch *tb = arg;
	struct topic_job *j = &tb->jobs[job];
	char *slug = S_stem(j->doc->src->rel);

	(void)worker;
	j->topic = S_build_topic(j->doc, j->test, j->test->url, slug, j->deflt, &tb->dls[job]);
	S_index_end(j->doc);
	free(slug);
}

/* Builds the tests from content/quiz. docs are in rel order. */
static void
S_build_tests(struct site *site, struct diag_list *dl)
{
	struct topic_batch tb = { NULL, 0, NULL };
	size_t i, cap = 0, tb_cap = 0, ntopics;

	for (i = 0; i < site->ndocs; i++) {
		struct doc *d = site->docs[i];
		struct source *src = d->src;
		struct test *t;
		char *slug;

		if (src->kind == SOURCE_TEST_FILE) {
			slug = S_stem(src->rel);
			{
				char *folder = xasprintf("quiz/%s/_index.md", slug);
				int clash = content_find(&site->sources, folder) != NULL;

				free(folder);
				if (clash) {
					diag_error(dl, src->display, 0, 0,
					    "test \"%s\" is both content/quiz/%s/ and content/%s: rename one",
					    slug, slug, src->rel);
					free(slug);
					continue;
				}
			}
			t = S_test_new(slug, d);
			t->topics = NULL;
			/* The file is the test and its one topic. */
			{
				struct topic *tp = S_build_topic(d, t, t->url, slug, DIFF_NONE, dl);

				S_test_add_topic(t, tp);
				t->title = tp->title ? xstrdup(tp->title) : NULL;
				if (t->title == NULL) {
					if (!src->fm.error && !src->broken)
						diag_error(dl, src->display, 1, 1,
						    "test has no title: add title = \"...\" to the front matter, or start with a # heading");
					t->title = xstrdup(slug);
				}
				if (tp->title == NULL)
					tp->title = xstrdup(t->title);
				/* What comes before the first question introduces the test. */
				t->intro = tp->intro;
				memset(&tp->intro, 0, sizeof(tp->intro));
				S_index_end(d);
			}
			free(slug);
		} else if (src->kind == SOURCE_TEST_INDEX) {
			char *dir = path_dirname(src->rel);
			size_t k, prefix;
			enum difficulty deflt = src->fm.difficulty;

			slug = xstrdup(path_basename(dir));
			t = S_test_new(slug, d);
			d->url = xstrdup(t->url);
			t->title = S_test_index(d, &t->intro, dl);
			S_index_end(d);
			if (t->title == NULL)
				t->title = xstrdup(slug);
			prefix = strlen(dir) + 1;
			for (k = 0, ntopics = 0; k < site->ndocs; k++) {
				struct doc *td = site->docs[k];

				if (td->src->kind != SOURCE_TOPIC ||
				    strncmp(td->src->rel, dir, prefix - 1) != 0 ||
				    td->src->rel[prefix - 1] != '/')
					continue;
				tb.jobs = xgrow(tb.jobs, &tb_cap, tb.n + 1, sizeof(*tb.jobs));
				tb.jobs[tb.n].doc = td;
				tb.jobs[tb.n].test = t;
				tb.jobs[tb.n].deflt = deflt;
				tb.n++;
				ntopics++;
			}
			if (ntopics == 0 && !src->broken)
				diag_error(dl, src->display, 1, 1,
				    "test has no topics: add a .md file of questions next to _index.md");
			free(dir);
			free(slug);
		} else if (src->kind == SOURCE_TOPIC) {
			/* A topic folder without _index.md: say so once, at its first file. */
			char *dir = path_dirname(src->rel), *index = path_join(dir, "_index.md");
			char *prev_dir = i > 0 ? path_dirname(site->docs[i - 1]->src->rel) : NULL;
			int first = prev_dir == NULL || strcmp(prev_dir, dir) != 0 ||
			    site->docs[i - 1]->src->kind != SOURCE_TOPIC;

			if (content_find(&site->sources, index) == NULL) {
				if (content_is_draft(&site->sources, index)) {
					/* The whole test is a draft. */
				} else if (first)
					diag_error(dl, src->display, 0, 0,
					    "the folder content/%s has no _index.md: add one with the test's title", dir);
			}
			free(prev_dir);
			free(index);
			free(dir);
			continue;
		} else
			continue;
		site->tests = xgrow(site->tests, &cap, site->ntests + 1, sizeof(*site->tests));
		site->tests[site->ntests++] = t;
	}
	/* The topics, each on whichever thread is free, then added in file order. */
	tb.dls = xcalloc(tb.n + 1, sizeof(*tb.dls));
	for (i = 0; i < tb.n; i++)
		diag_init(&tb.dls[i]);
	pool_run(site->jobs, tb.n, S_topic_job, &tb);
	for (i = 0; i < tb.n; i++) {
		S_test_add_topic(tb.jobs[i].test, tb.jobs[i].topic);
		diag_move(dl, &tb.dls[i]);
		diag_free(&tb.dls[i]);
	}
	free(tb.jobs);
	free(tb.dls);
	for (i = 0; i < site->ntests; i++)
		S_test_finish(site->tests[i], dl);
	if (site->ntests > 1)
		qsort(site->tests, site->ntests, sizeof(*site->tests), S_cmp_test);
}

/* Decks. */

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
S_card_fingerprint(struct card *c)
{
	uint64_t h = hash_fnv1a(c->front_text, strlen(c->front_text), HASH_FNV_SEED);
	cmark_node *n;

	for (n = c->back.first; n; n = cmark_node_next(n)) {
		char *t = md_plain_text(n);

		h = hash_fnv1a("\n", 1, h);
		if (t)
			h = hash_fnv1a(t, strlen(t), h);
		free(t);
		if (n == c->back.last)
			break;
	}
	snprintf(c->fingerprint, sizeof(c->fingerprint), "%016llx", (unsigned long long)h);
}

static void S_deck_free(struct deck *dk);

static struct deck *
S_build_deck(struct doc *d, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	struct deck *dk = xcalloc(1, sizeof(*dk));
	struct parts ps;
	size_t i;

	dk->slug = S_stem(d->src->rel);
	dk->doc = d;
	dk->weight = d->src->fm.weight;
	dk->url = xconcat("cards/", dk->slug, "/index.html", NULL);
	dk->pdf_url = xconcat("print/", dk->slug, ".pdf", NULL);
	if (d->src->fm.description)
		dk->description = xstrdup(d->src->fm.description);
	d->deck = dk;
	d->url = xstrdup(dk->url);
	S_collect_headings(d, &hl, "card", 1, dl);
	dk->title = S_page_title(d, &hl, "deck", &title_h, dl);
	if (dk->title == NULL)
		dk->title = xstrdup(dk->slug);
	S_split_parts(d, &hl, title_h, "card", &ps, dl);
	dk->intro = ps.intro;
	dk->cards = xcalloc(ps.len ? ps.len : 1, sizeof(*dk->cards));
	dk->ncards = ps.len;
	for (i = 0; i < ps.len; i++) {
		struct card *c = &dk->cards[i];
		const struct heading *h = ps.v[i].h;

		c->id = xstrdup(h->id);
		c->label = S_card_label(h->id);
		c->number = (int)i + 1;
		c->front_text = xstrdup(h->text);
		c->heading = h->node;
		c->back = ps.v[i].body;
		c->line = h->line;
		c->col = h->col;
		c->deck = dk;
		S_card_fingerprint(c);
		if (c->back.first == NULL)
			diag_error(dl, d->src->display, h->line, h->col,
			    "card \"%s\" has no back: write the answer below its heading", c->id);
		S_anchor_add(d, c->id, ANCHOR_CARD, c->line, c->col, c->heading, c);
	}
	if (ps.len == 0 && !d->src->broken)
		diag_error(dl, d->src->display, 1, 1, "deck has no cards: each ## heading starts one");
	free(ps.v);
	S_headings_free(&hl);
	return dk;
}

static int
S_cmp_deck(const void *a, const void *b)
{
	const struct deck *x = *(struct deck *const *)a, *y = *(struct deck *const *)b;

	return S_cmp_weighted(x->doc->src->fm.has_weight, x->weight, x->slug,
	    y->doc->src->fm.has_weight, y->weight, y->slug);
}

/* The guide. */

/* _index.md (Hugo, Zola) or README.md (mdBook) opens a guide folder. */
static int
S_is_folder_index(const char *rel)
{
	const char *b = path_basename(rel);

	return strcmp(b, "_index.md") == 0 || strcmp(b, "README.md") == 0;
}

static struct chapter *
S_build_chapter(struct doc *d, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	struct chapter *c = xcalloc(1, sizeof(*c));
	const char *rel = d->src->rel + strlen("guide/");
	size_t i;

	if (S_is_folder_index(rel)) {
		c->slug = path_dirname(rel);
		if (*c->slug == '\0') {
			free(c->slug);
			c->slug = xstrdup("index");
		}
	} else
		c->slug = xstrndup(rel, strlen(rel) - 3);
	c->weight = d->src->fm.weight;
	c->doc = d;
	c->url = xconcat("guide/", c->slug, "/index.html", NULL);
	d->chapter = c;
	d->url = xstrdup(c->url);
	S_build_page(d, &hl, dl);
	c->title = S_page_title(d, &hl, "chapter", &title_h, dl);
	if (c->title == NULL)
		c->title = xstrdup(c->slug);
	c->sections = xcalloc(hl.len ? hl.len : 1, sizeof(*c->sections));
	c->nsections = hl.len;
	for (i = 0; i < hl.len; i++) {
		struct section *s = xcalloc(1, sizeof(*s));
		struct heading *h = &hl.v[i];

		s->id = xstrdup(h->id);
		s->title = xstrdup(h->text);
		s->level = h->level;
		s->heading = h->node;
		s->line = h->line;
		s->col = h->col;
		s->chapter = c;
		c->sections[i] = s;
		d->anchors[i].u.section = s;
	}
	S_headings_free(&hl);
	return c;
}

/*
 * Reading order of the guide: at each folder level, an _index.md first,
 * then siblings by weight (a sub-folder weighs what its _index.md does),
 * then by name.
 */
struct component_weight {
	int has;                   /* the component sets a weight */
	long w;
};

/* A chapter and the weight of each component of its path, looked up once, for sorting. */
struct chapter_key {
	struct chapter *c;
	const char *rel;           /* c->doc->src->rel, at hand for the comparisons */
	struct component_weight *comp;
};

static void
S_component_weight(const struct site *site, const char *rel, size_t upto, int is_file,
    struct component_weight *cw)
{
	struct source *src;
	/* Every chapter asks for each folder above it: no format string. */
	char *p = xmalloc(upto + sizeof("/README.md"));

	memcpy(p, rel, upto);
	p[upto] = '\0';
	if (!is_file)
		memcpy(p + upto, "/_index.md", sizeof("/_index.md"));
	src = content_find(&site->sources, p);
	if (src == NULL && !is_file) {
		memcpy(p + upto, "/README.md", sizeof("/README.md"));
		src = content_find(&site->sources, p);
	}
	cw->has = src && src->fm.has_weight;
	cw->w = src ? src->fm.weight : 0;
	free(p);
}

static struct component_weight *
S_component_weights(const struct site *site, const char *rel)
{
	struct component_weight *v;
	size_t n = 1, k = 0, i;

	for (i = 0; rel[i]; i++)
		n += rel[i] == '/';
	v = xcalloc(n, sizeof(*v));
	for (i = 0;; i++)
		if (rel[i] == '/' || rel[i] == '\0') {
			S_component_weight(site, rel, i, rel[i] == '\0', &v[k++]);
			if (rel[i] == '\0')
				break;
		}
	return v;
}

static int
S_cmp_chapter(const void *a, const void *b)
{
	const struct chapter_key *ka = a, *kb = b;
	const char *x = ka->rel;
	const char *y = kb->rel;
	size_t i = 0, start = 0, depth = 0, ex, ey;
	const struct component_weight *cx, *cy;
	int xf, yf;
	int c;

	/* The first component where they differ. */
	for (i = 0; x[i] && x[i] == y[i]; i++)
		if (x[i] == '/') {
			start = i + 1;
			depth++;
		}
	if (x[i] == '\0' && y[i] == '\0')
		return 0;
	for (ex = start; x[ex] && x[ex] != '/'; ex++)
		;
	for (ey = start; y[ey] && y[ey] != '/'; ey++)
		;
	xf = x[ex] == '\0';
	yf = y[ey] == '\0';
	if (xf && S_is_folder_index(x + start))
		return -1;
	if (yf && S_is_folder_index(y + start))
		return 1;
	cx = &ka->comp[depth];
	cy = &kb->comp[depth];
	if (cx->has != cy->has)
		return cx->has ? -1 : 1;
	if (cx->has && cx->w != cy->w)
		return cx->w < cy->w ? -1 : 1;
	c = strncmp(x + start, y + start, ex - start < ey - start ? ex - start : ey - start);
	if (c != 0)
		return c;
	return ex - start < ey - start ? -1 : ex - start > ey - start ? 1 : strcmp(x, y);
}

/* A chapter and its place in reading order, for finding equal slugs. */
struct chapter_slug {
	const struct chapter *c;
	size_t index;
};

static int
S_cmp_chapter_slug(const void *a, const void *b)
{
	const struct chapter_slug *x = a, *y = b;
	int c = strcmp(x->c->slug, y->c->slug);

	return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

/* "part.md" and "part/_index.md" would both be guide/part/: an error for each such pair. */
static void
S_same_address(const struct site *site, struct diag_list *dl)
{
	struct chapter_slug *k = xcalloc(site->nchapters + 1, sizeof(*k));
	size_t i, j, m, n = site->nchapters, run;

	/* Sorted by slug, then reading order: the pairs lie in runs of equal slugs. */
	for (i = 0; i < n; i++) {
		k[i].c = site->chapters[i];
		k[i].index = i;
	}
	if (n > 1)
		qsort(k, n, sizeof(*k), S_cmp_chapter_slug);
	for (run = 0; run < n; run = j) {
		for (j = run + 1; j < n && strcmp(k[j].c->slug, k[run].c->slug) == 0; j++)
			;
		for (i = run; i < j; i++)
			for (m = i + 1; m < j; m++) {
				const struct chapter *a = k[i].c, *b = k[m].c;

				if (strcmp(a->doc->src->rel, b->doc->src->rel) > 0) {
					const struct chapter *t = a;
					a = b;
					b = t;
				}
				diag_error(dl, b->doc->src->display, 0, 0,
				    "chapter \"%s\" has the same address as %s: rename one",
				    b->slug, a->doc->src->display);
			}
	}
	free(k);
}

/* Chapters, built each from its own doc, in parallel. */
struct chapter_batch {
	struct doc **docs;
	struct chapter **chapters;
	struct diag_list *dls;     /* per chapter, moved into the site's list in doc order */
};

static void
S_chapter_job(void *arg, size_t job, int worker)
{
	struct chapter_batch *cb = arg;

	(void)worker;
	cb->chapters[job] = S_build_chapter(cb->docs[job], &cb->dls[job]);
	S_index_end(cb->docs[job]);
}

static void
S_build_guide(struct site *site, struct diag_list *dl)
{
	struct chapter_batch cb;
	struct chapter_key *keys;
	size_t i, n = 0;

	cb.docs = xcalloc(site->ndocs + 1, sizeof(*cb.docs));
	cb.chapters = xcalloc(site->ndocs + 1, sizeof(*cb.chapters));
	cb.dls = xcalloc(site->ndocs + 1, sizeof(*cb.dls));
	for (i = 0; i < site->ndocs; i++)
		if (site->docs[i]->src->kind == SOURCE_CHAPTER) {
			diag_init(&cb.dls[n]);
			cb.docs[n++] = site->docs[i];
		}
	pool_run(site->jobs, n, S_chapter_job, &cb);
	for (i = 0; i < n; i++) {
		diag_move(dl, &cb.dls[i]);
		diag_free(&cb.dls[i]);
	}
	site->chapters = cb.chapters;
	site->nchapters = n;
	free(cb.dls);
	free(cb.docs);
	keys = xcalloc(site->nchapters + 1, sizeof(*keys));
	for (i = 0; i < site->nchapters; i++) {
		keys[i].c = site->chapters[i];
		keys[i].rel = keys[i].c->doc->src->rel;
		keys[i].comp = S_component_weights(site, keys[i].rel);
	}
	if (site->nchapters > 1)
		qsort(keys, site->nchapters, sizeof(*keys), S_cmp_chapter);
	for (i = 0; i < site->nchapters; i++) {
		site->chapters[i] = keys[i].c;
		free(keys[i].comp);
	}
	free(keys);
	for (i = 0; i < site->nchapters; i++) {
		site->chapters[i]->prev = i > 0 ? site->chapters[i - 1] : NULL;
		site->chapters[i]->next = i + 1 < site->nchapters ? site->chapters[i + 1] : NULL;
	}
	S_same_address(site, dl);
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

/* Every link of a published doc, with the question or card it is in. */
static void
S_links_record(struct doc *d)
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
	if (d->url == NULL || d->root == NULL)
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
	for (n = cmark_node_first_child(d->root); n; n = cmark_node_next(n)) {
		if (qi < nq && qs[qi].heading == n) {
			q = &qs[qi++];
			c = NULL;
		} else if (ci < nc && cs[ci].heading == n) {
			c = &cs[ci++];
			q = NULL;
		}
		S_links_block(&w, n, q, c);
	}
}

/* Node pointers: set while a tree is open, NULL otherwise. */

static void
S_doc_detach(struct doc *d)
{
	static const struct block_range none = { NULL, NULL };
	size_t i, k;

	for (i = 0; i < d->nanchors; i++)
		d->anchors[i].node = NULL;
	if (d->topic && d->topic->doc == d) {
		d->topic->intro = none;
		for (i = 0; i < d->topic->nquestions; i++) {
			struct question *q = &d->topic->questions[i];

			q->heading = q->hint = q->options_list = NULL;
			q->stem = q->explanation = none;
			for (k = 0; k < q->noptions; k++)
				q->options[k].item = q->options[k].feedback = NULL;
		}
	}
	if (d->test && d->test->index == d)
		d->test->intro = none;
	if (d->deck) {
		d->deck->intro = none;
		for (i = 0; i < d->deck->ncards; i++) {
			d->deck->cards[i].heading = NULL;
			d->deck->cards[i].back = none;
		}
	}
	if (d->chapter)
		for (i = 0; i < d->chapter->nsections; i++)
			d->chapter->sections[i]->heading = NULL;
}

/* The end of d's index job: its links recorded, its tree dropped. */
static void
S_index_end(struct doc *d)
{
	if (d->root == NULL)
		return;
	S_links_record(d);
	S_doc_detach(d);
	cmark_node_free(d->root);
	d->root = NULL;
}

/* Trees again, for the outputs. */

static void S_topic_free(struct topic *tp);
static void S_chapter_free(struct chapter *c);

struct doc_tree {
	struct doc *d;
};

/*
 * Points d's model into td's tree: the index walk run again on it (the
 * same source gives the same structure), its nodes taken and the rest
 * dropped. The headings get their ids (doc_heading_id) from d's anchors.
 */
static void
S_attach(struct doc *d, struct doc *td)
{
	struct diag_list dl;
	size_t i, k;

	diag_init(&dl);
	if (d->topic && d->topic->doc == d) {
		struct topic *tp = S_build_topic(td, d->topic->test, "", d->topic->slug, DIFF_NONE, &dl);

		for (i = 0; i < tp->nquestions && i < d->topic->nquestions; i++) {
			struct question *q = &d->topic->questions[i], *nq = &tp->questions[i];

			q->heading = nq->heading;
			q->stem = nq->stem;
			q->hint = nq->hint;
			q->options_list = nq->options_list;
			q->explanation = nq->explanation;
			for (k = 0; k < q->noptions && k < nq->noptions; k++) {
				q->options[k].item = nq->options[k].item;
				q->options[k].feedback = nq->options[k].feedback;
			}
		}
		/* A one-file test: what comes before the first question introduces the test. */
		if (d->test && d->test->index == d)
			d->test->intro = tp->intro;
		else
			d->topic->intro = tp->intro;
		S_topic_free(tp);
	} else if (d->deck) {
		struct deck *dk = S_build_deck(td, &dl);

		d->deck->intro = dk->intro;
		for (i = 0; i < dk->ncards && i < d->deck->ncards; i++) {
			d->deck->cards[i].heading = dk->cards[i].heading;
			d->deck->cards[i].back = dk->cards[i].back;
		}
		S_deck_free(dk);
	} else if (d->chapter) {
		struct chapter *c = S_build_chapter(td, &dl);

		for (i = 0; i < c->nsections && i < d->chapter->nsections; i++)
			d->chapter->sections[i]->heading = c->sections[i]->heading;
		S_chapter_free(c);
	} else if (d->test && d->test->index == d) {
		free(S_test_index(td, &d->test->intro, &dl));
	} else {
		struct heading_list hl = { 0 };

		S_build_page(td, &hl, &dl);
		S_headings_free(&hl);
	}
	diag_free(&dl);
	if (td->nanchors > 1)
		qsort(td->anchors, td->nanchors, sizeof(*td->anchors), S_cmp_anchor);
	for (k = 0; k < td->nanchors && k < d->nanchors; k++) {
		d->anchors[k].node = td->anchors[k].node;
		if (d->anchors[k].node)
			S_mark_heading(d->anchors[k].node, d->anchors[k].id);
	}
}

struct doc_tree *
doc_tree_open(struct doc *d)
{
	struct doc_tree *t = xcalloc(1, sizeof(*t));
	const struct source *src = d->src;
	int empty = d->emptied || src->body == NULL;
	struct doc td;
	size_t k;

	t->d = d;
	/*
	 * cmark's own allocator, not a scratch arena: an output may hold a
	 * tree for a long time (a deck's, while all its pages are drawn), and
	 * an arena keeps every block cmark frees as it parses and edits.
	 */
	d->root = md_parse(empty ? "" : src->body, empty ? 0 : src->body_len);
	memset(&td, 0, sizeof(td));
	td.src = d->src;
	td.root = d->root;
	td.parsed = 1;
	S_attach(d, &td);
	for (k = 0; k < td.nanchors; k++)
		free(td.anchors[k].id);
	free(td.anchors);
	free(td.line_starts);
	free(td.url);
	return t;
}

void
doc_tree_close(struct doc_tree *t)
{
	if (t == NULL)
		return;
	S_doc_detach(t->d);
	cmark_node_free(t->d->root);
	t->d->root = NULL;
	free(t);
}

/* Loading. */

/* A topic's questions and what they own. */
static void
S_questions_free(struct question *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].stem_text);
		free(v[i].options);
		free(v[i].links_to.v);
	}
	free(v);
}

/* S_questions_free for a deck's cards. */
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

/* A doc for every Markdown source, in source order, not parsed yet. */
static void
S_make_docs(struct site *site)
{
	size_t i, cap = 0;

	for (i = 0; i < site->sources.len; i++) {
		struct source *src = site->sources.v[i];
		struct doc *d;

		if (src->kind == SOURCE_ASSET)
			continue;
		d = xcalloc(1, sizeof(*d));
		d->src = src;
		d->max_elements = (size_t)site->cfg.limits.max_elements;
		src->doc = d;
		site->docs = xgrow(site->docs, &cap, site->ndocs + 1, sizeof(*site->docs));
		site->docs[site->ndocs++] = d;
	}
}

/* One doc's anchors sorted for doc_anchor: a doc's own, so the docs go on every thread. */
static void
S_anchors_job(void *arg, size_t job, int worker)
{
	struct doc *d = ((struct doc **)arg)[job];

	(void)worker;
	if (d->nanchors > 1)
		qsort(d->anchors, d->nanchors, sizeof(*d->anchors), S_cmp_anchor);
}

/*
 * A Markdown file that is no page is likely a topic or deck in the wrong
 * place; a README.md is for browsing the sources and is left alone.
 */
static void
S_unpublished(struct doc *d, struct diag_list *dl)
{
	const char *rel = d->src->rel;

	if (strcmp(path_basename(rel), "README.md") == 0)
		return;
	if (strncmp(rel, "quiz/", 5) == 0)
		diag_warning(dl, d->src->display, 0, 0,
		    "not published: a test is content/quiz/<test>.md or a folder content/quiz/<test>/ with _index.md and one file per topic");
	else if (strncmp(rel, "cards/", 6) == 0)
		diag_warning(dl, d->src->display, 0, 0,
		    "not published: a deck is one file directly in content/cards/");
	else
		diag_warning(dl, d->src->display, 0, 0,
		    "not published: pages are content/index.md and the files in quiz/, cards/ and guide/");
}

/* The home page, other pages and decks: each doc on its own, in parallel. */
struct pages_batch {
	struct doc **docs;
	struct deck **decks;       /* per doc: its deck, or NULL */
	struct diag_list *dls;     /* per doc, moved into the site's list in file order */
};

static void
S_pages_job(void *arg, size_t job, int worker)
{
	struct pages_batch *pb = arg;
	struct doc *d = pb->docs[job];
	struct diag_list *dl = &pb->dls[job];
	struct heading_list hl = { 0 };

	(void)worker;
	switch (d->src->kind) {
	case SOURCE_HOME:
		d->url = xstrdup("index.html");
		S_build_page(d, &hl, dl);
		S_headings_free(&hl);
		break;
	case SOURCE_OTHER_MD:
		S_build_page(d, &hl, dl);
		S_headings_free(&hl);
		S_unpublished(d, dl);
		break;
	case SOURCE_DECK:
		pb->decks[job] = S_build_deck(d, dl);
		break;
	default:
		break;
	}
	S_index_end(d);
}

static void
S_build_pages_and_decks(struct site *site, struct diag_list *dl)
{
	struct pages_batch pb;
	size_t i, n = 0, cap = 0;

	pb.docs = xcalloc(site->ndocs + 1, sizeof(*pb.docs));
	for (i = 0; i < site->ndocs; i++) {
		enum source_kind k = site->docs[i]->src->kind;

		if (k == SOURCE_HOME || k == SOURCE_OTHER_MD || k == SOURCE_DECK) {
			pb.docs[n++] = site->docs[i];
		}
	}
	pb.decks = xcalloc(n + 1, sizeof(*pb.decks));
	pb.dls = xcalloc(n + 1, sizeof(*pb.dls));
	for (i = 0; i < n; i++)
		diag_init(&pb.dls[i]);
	pool_run(site->jobs, n, S_pages_job, &pb);
	for (i = 0; i < n; i++) {
		diag_move(dl, &pb.dls[i]);
		diag_free(&pb.dls[i]);
		if (pb.docs[i]->src->kind == SOURCE_HOME)
			site->home = pb.docs[i];
		if (pb.decks[i]) {
			site->decks = xgrow(site->decks, &cap, site->ndecks + 1, sizeof(*site->decks));
			site->decks[site->ndecks++] = pb.decks[i];
		}
	}
	free(pb.docs);
	free(pb.decks);
	free(pb.dls);
}

int
site_load(struct site *site, const char *root, const struct site_options *opt,
    struct diag_list *dl)
{
	size_t errors = dl->errors, i, before;
	char *toml_path, *content_dir;

	memset(site, 0, sizeof(*site));
	site->root = xstrdup(root);
	if (opt && opt->strict)
		dl->strict = 1;

	toml_path = path_join(root, "site.toml");
	before = dl->len;
	config_load(&site->cfg, toml_path, dl);
	/* Shown relative to the site, like every content path. */
	for (i = before; i < dl->len; i++)
		if (dl->v[i].file && strcmp(dl->v[i].file, toml_path) == 0) {
			free(dl->v[i].file);
			dl->v[i].file = xstrdup("site.toml");
		}
	free(toml_path);
	if (opt && opt->print)
		config_apply_print(&site->cfg.print, opt->print);

	site->jobs = opt && opt->jobs > 0 ? opt->jobs : pool_default_threads();
	content_dir = path_join(root, "content");
	content_load_max(&site->sources, content_dir, "content",
	    (size_t)site->cfg.limits.max_file_size, site->jobs, dl);
	free(content_dir);

	S_make_docs(site);
	S_build_pages_and_decks(site, dl);
	if (site->ndecks > 1)
		qsort(site->decks, site->ndecks, sizeof(*site->decks), S_cmp_deck);
	S_build_tests(site, dl);
	S_build_guide(site, dl);
	/* The files no index job took: their element count is checked all the same. */
	for (i = 0; i < site->ndocs; i++) {
		struct doc *d = site->docs[i];

		if (!d->parsed)
			S_doc_parse(d, dl);
		S_index_end(d);
	}
	pool_run(site->jobs, site->ndocs, S_anchors_job, site->docs);
	return dl->errors > errors ? -1 : 0;
}

/* Freeing. */

static void
S_topic_free(struct topic *tp)
{
	S_questions_free(tp->questions, tp->nquestions);
	free(tp->slug);
	free(tp->title);
	free(tp);
}

static void
S_deck_free(struct deck *dk)
{
	S_cards_free(dk->cards, dk->ncards);
	free(dk->slug);
	free(dk->title);
	free(dk->description);
	free(dk->url);
	free(dk->pdf_url);
	free(dk);
}

static void
S_chapter_free(struct chapter *c)
{
	size_t j;

	for (j = 0; j < c->nsections; j++) {
		free(c->sections[j]->id);
		free(c->sections[j]->title);
		free(c->sections[j]->backlinks.v);
		free(c->sections[j]);
	}
	free(c->sections);
	free(c->backlinks.v);
	free(c->slug);
	free(c->title);
	free(c->url);
	free(c);
}

static void
S_doc_free_job(void *arg, size_t job, int worker)
{
	struct doc *d = ((struct doc **)arg)[job];
	size_t j;

	(void)worker;
	for (j = 0; j < d->nanchors; j++)
		free(d->anchors[j].id);
	free(d->anchors);
	for (j = 0; j < d->nlinks; j++)
		free(d->links[j].dest);
	free(d->links);
	free(d->line_starts);
	free(d->url);
	if (d->root != NULL)
		cmark_node_free(d->root);
	free(d);
}

void
site_free(struct site *site)
{
	size_t i, j;

	for (i = 0; i < site->ntests; i++) {
		struct test *t = site->tests[i];

		for (j = 0; j < t->ntopics; j++)
			S_topic_free(t->topics[j]);
		free(t->topics);
		free(t->slug);
		free(t->title);
		free(t->description);
		free(t->url);
		free(t);
	}
	free(site->tests);
	for (i = 0; i < site->ndecks; i++)
		S_deck_free(site->decks[i]);
	free(site->decks);
	for (i = 0; i < site->nchapters; i++)
		S_chapter_free(site->chapters[i]);
	free(site->chapters);
	/* The parse trees are most of the model: each doc is freed on its own, in parallel. */
	pool_run(site->jobs, site->ndocs, S_doc_free_job, site->docs);
	free(site->docs);
	for (i = 0; i < site->nassets; i++)
		free(site->assets[i].url);
	free(site->assets);
	content_free(&site->sources);
	config_free(&site->cfg);
	free(site->root);
	memset(site, 0, sizeof(*site));
}

/* Reporting. */

static void
S_count(struct buf *b, size_t n, const char *one, const char *many)
{
	buf_printf(b, "%zu %s", n, n == 1 ? one : many);
}

char *
site_summary(const struct site *site, const struct diag_list *dl)
{
	size_t ntopics = 0, nq = 0, count[3] = { 0 }, ncards = 0, nsections = 0, i;
	struct buf b;

	for (i = 0; i < site->ntests; i++) {
		const struct test *t = site->tests[i];

		ntopics += t->ntopics;
		nq += t->nquestions;
		count[0] += t->count[0];
		count[1] += t->count[1];
		count[2] += t->count[2];
	}
	for (i = 0; i < site->ndecks; i++)
		ncards += site->decks[i]->ncards;
	for (i = 0; i < site->nchapters; i++)
		nsections += site->chapters[i]->nsections;
	buf_init(&b);
	S_count(&b, site->ntests, "test", "tests");
	buf_puts(&b, ", ");
	S_count(&b, ntopics, "topic", "topics");
	buf_puts(&b, ", ");
	S_count(&b, nq, "question", "questions");
	buf_printf(&b, " (%zu easy, %zu medium, %zu hard); ", count[0], count[1], count[2]);
	S_count(&b, site->ndecks, "deck", "decks");
	buf_puts(&b, ", ");
	S_count(&b, ncards, "card", "cards");
	buf_puts(&b, "; ");
	S_count(&b, site->nchapters, "chapter", "chapters");
	buf_puts(&b, ", ");
	S_count(&b, nsections, "section", "sections");
	buf_puts(&b, "; ");
	S_count(&b, site->stats.links, "link", "links");
	buf_puts(&b, "; ");
	S_count(&b, dl->errors, "error", "errors");
	buf_puts(&b, ", ");
	S_count(&b, dl->warnings, "warning", "warnings");
	return buf_detach(&b);
}

/* Quoted for the dump: one line, escapes for the unprintable. */
static void
S_dump_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\x%02x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

/* A block range as "L1-L2" lines in the file, "-" when empty. */
static void
S_dump_range(FILE *fp, const struct doc *d, const char *name, struct block_range r)
{
	int l1, c1, l2;

	if (r.first == NULL) {
		fprintf(fp, " %s=-", name);
		return;
	}
	doc_node_pos(d, r.first, &l1, &c1);
	l2 = cmark_node_get_end_line(r.last) + d->src->body_line - 1;
	fprintf(fp, " %s=%d-%d", name, l1, l2);
}

static void
S_dump_links_to(FILE *fp, const struct section_list *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		fprintf(fp, "      links-to %s#%s\n", l->v[i]->chapter->slug, l->v[i]->id);
}

static void
S_dump_xrefs(FILE *fp, const char *indent, const struct xref_list *l)
{
	size_t i;

	for (i = 0; i < l->len; i++) {
		const struct xref *x = &l->v[i];

		if (x->kind == XREF_QUESTION)
			fprintf(fp, "%sbacklink question %s/%s#%s\n", indent,
			    x->u.question->topic->test->slug, x->u.question->topic->slug,
			    x->u.question->id);
		else
			fprintf(fp, "%sbacklink card %s#%s\n", indent,
			    x->u.card->deck->slug, x->u.card->id);
	}
}

void
site_dump(const struct site *site, FILE *fp)
{
	struct doc_tree **trees = xcalloc(site->ndocs + 1, sizeof(*trees));
	size_t i, j, k, m;

	/* The block ranges are shown as lines: every tree open while dumping. */
	for (i = 0; i < site->ndocs; i++)
		trees[i] = doc_tree_open(site->docs[i]);
	fprintf(fp, "site ");
	S_dump_str(fp, site->cfg.title);
	fprintf(fp, "\n");
	if (site->home)
		fprintf(fp, "home %s url=%s\n", site->home->src->display, site->home->url);
	for (i = 0; i < site->ntests; i++) {
		const struct test *t = site->tests[i];

		fprintf(fp, "test %s ", t->slug);
		S_dump_str(fp, t->title);
		fprintf(fp, " url=%s file=%s questions=%zu easy=%zu medium=%zu hard=%zu",
		    t->url, t->index->src->display, t->nquestions, t->count[0], t->count[1], t->count[2]);
		S_dump_range(fp, t->index, "intro", t->intro);
		fprintf(fp, "\n");
		if (t->description) {
			fprintf(fp, "  description ");
			S_dump_str(fp, t->description);
			fprintf(fp, "\n");
		}
		for (j = 0; j < t->ntopics; j++) {
			const struct topic *tp = t->topics[j];

			fprintf(fp, "  topic %s ", tp->slug);
			S_dump_str(fp, tp->title);
			fprintf(fp, " file=%s", tp->doc->src->display);
			if (tp->doc->src->fm.has_weight)
				fprintf(fp, " weight=%ld", tp->weight);
			S_dump_range(fp, tp->doc, "intro", tp->intro);
			fprintf(fp, "\n");
			for (k = 0; k < tp->nquestions; k++) {
				const struct question *q = &tp->questions[k];
				size_t ncorrect = 0, nfeedback = 0;

				for (m = 0; m < q->noptions; m++) {
					ncorrect += q->options[m].correct;
					nfeedback += q->options[m].feedback != NULL;
				}
				fprintf(fp, "    question %s %s%s%s at=%d:%d ", q->id,
				    difficulty_name(q->difficulty), q->sample ? " sample" : "",
				    q->multi ? " multi" : "", q->line, q->col);
				S_dump_str(fp, q->stem_text);
				fprintf(fp, "\n     ");
				S_dump_range(fp, tp->doc, "stem", q->stem);
				fprintf(fp, " hint=%s options=%zu correct=%zu feedback=%zu",
				    q->hint ? "yes" : "no", q->noptions, ncorrect, nfeedback);
				S_dump_range(fp, tp->doc, "explanation", q->explanation);
				fprintf(fp, " fingerprint=%s\n", q->fingerprint);
				for (m = 0; m < q->noptions; m++)
					fprintf(fp, "      option [%c] at=%d:%d%s\n",
					    q->options[m].correct ? 'x' : ' ', q->options[m].line,
					    q->options[m].col, q->options[m].feedback ? " feedback" : "");
				S_dump_links_to(fp, &q->links_to);
			}
		}
	}
	for (i = 0; i < site->ndecks; i++) {
		const struct deck *dk = site->decks[i];

		fprintf(fp, "deck %s ", dk->slug);
		S_dump_str(fp, dk->title);
		fprintf(fp, " url=%s pdf=%s file=%s cards=%zu", dk->url, dk->pdf_url,
		    dk->doc->src->display, dk->ncards);
		S_dump_range(fp, dk->doc, "intro", dk->intro);
		fprintf(fp, "\n");
		if (dk->description) {
			fprintf(fp, "  description ");
			S_dump_str(fp, dk->description);
			fprintf(fp, "\n");
		}
		for (j = 0; j < dk->ncards; j++) {
			const struct card *c = &dk->cards[j];

			fprintf(fp, "  card %d %s %s at=%d:%d ", c->number, c->id, c->label, c->line, c->col);
			S_dump_str(fp, c->front_text);
			S_dump_range(fp, dk->doc, "back", c->back);
			fprintf(fp, "\n");
			S_dump_links_to(fp, &c->links_to);
		}
	}
	for (i = 0; i < site->nchapters; i++) {
		const struct chapter *c = site->chapters[i];

		fprintf(fp, "chapter %zu %s ", i + 1, c->slug);
		S_dump_str(fp, c->title);
		fprintf(fp, " url=%s file=%s", c->url, c->doc->src->display);
		if (c->doc->src->fm.has_weight)
			fprintf(fp, " weight=%ld", c->weight);
		fprintf(fp, " prev=%s next=%s\n", c->prev ? c->prev->slug : "-",
		    c->next ? c->next->slug : "-");
		S_dump_xrefs(fp, "  ", &c->backlinks);
		for (j = 0; j < c->nsections; j++) {
			const struct section *s = c->sections[j];

			fprintf(fp, "  section h%d %s at=%d:%d ", s->level, s->id, s->line, s->col);
			S_dump_str(fp, s->title);
			fprintf(fp, "\n");
			S_dump_xrefs(fp, "    ", &s->backlinks);
		}
	}
	for (i = 0; i < site->nassets; i++)
		fprintf(fp, "asset %s url=%s\n", site->assets[i].src->display, site->assets[i].url);
	for (i = 0; i < site->sources.ndrafts; i++)
		fprintf(fp, "draft content/%s\n", site->sources.drafts[i]);
	fprintf(fp, "links %zu\n", site->stats.links);
	for (i = site->ndocs; i-- > 0;)
		doc_tree_close(trees[i]);
	free(trees);
}

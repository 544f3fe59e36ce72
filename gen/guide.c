/*
 * guide: guide > chapters > sections, from content/guide, in reading
 * order. A guide sub-folder (a part) sorts by the weight of its
 * _index.md (or README.md, as in mdBook), which opens the part; a
 * chapter's headings take only {#id} (model_build_page warns at more).
 */
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "pool.h"
#include "util.h"

/* _index.md (Hugo, Zola) or README.md (mdBook) opens a guide folder. */
static int
S_is_folder_index(const char *rel)
{
	const char *b = path_basename(rel);

	return strcmp(b, "_index.md") == 0 || strcmp(b, "README.md") == 0;
}

struct chapter *
guide_build_chapter(struct doc *d, struct doc_tree *t, struct diag_list *dl)
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
	model_build_page(d, t, &hl, dl);
	c->title = model_page_title(d, &hl, "chapter", &title_h, dl);
	if (c->title == NULL)
		c->title = xstrdup(c->slug);
	c->sections = xcalloc(hl.len ? hl.len : 1, sizeof(*c->sections));
	c->nsections = hl.len;
	t->sections = xcalloc(hl.len ? hl.len : 1, sizeof(*t->sections));
	t->nsections = hl.len;
	for (i = 0; i < hl.len; i++) {
		struct section *s = xcalloc(1, sizeof(*s));
		struct heading *h = &hl.v[i];

		s->id = xstrdup(h->id);
		s->title = xstrdup(h->text);
		s->level = h->level;
		t->sections[i] = h->node;
		s->line = h->line;
		s->col = h->col;
		s->chapter = c;
		c->sections[i] = s;
		d->anchors[i].u.section = s;
	}
	model_headings_free(&hl);
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
	struct doc *d = cb->docs[job];
	struct doc_tree *t;

	(void)worker;
	if (d->reused) {
		cb->chapters[job] = d->chapter;
		diag_copy(&cb->dls[job], &d->index_diags);
		return;
	}
	t = model_doc_parse(d, &cb->dls[job]);
	cb->chapters[job] = guide_build_chapter(d, t, &cb->dls[job]);
	model_index_end(d, t);
	diag_copy(&d->index_diags, &cb->dls[job]);
}

void
guide_build(struct site *site, struct diag_list *dl)
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

void
guide_chapter_free(struct chapter *c)
{
	size_t j;

	if (c == NULL)
		return;
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

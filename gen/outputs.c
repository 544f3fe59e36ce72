/*
 * outputs: the files a build writes, checked against each other before
 * any is written.
 *
 * Every file the build writes from content is compared as a disk that
 * ignores case (macOS, Windows) or normalises Unicode (macOS) would
 * compare it: two decks Foo.md and foo.md, or café.md written with one
 * code point and with two, a chapter and a copied file that are both
 * guide/x/index.html, or a file where a page needs a folder, would
 * overwrite each other there. A message says which kind of disk it is
 * about. Anchors (question and card ids) are not files and are left
 * alone.
 */
#include "outputs.h"

#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "util.h"

const struct export_format_info outputs_export_formats[EXPORT_NFORMATS] = {
	{ "anki", ".apkg", 0, "an Anki package per deck (DECK.apkg)" },
	{ "csv", ".csv", 0, "a CSV file per deck for Anki's text import: front, back, deck, guid, as HTML (DECK.csv)" },
	{ "tsv", ".tsv", 0, "a tab-separated file per deck as Quizlet imports it: front and back as plain text (DECK.tsv)" },
	{ "moodle", ".xml", 1, "Moodle XML per test: multiple choice with feedback (TEST.xml)" },
	{ "gift", ".gift.txt", 1, "the same in Moodle's GIFT text format (TEST.gift.txt)" },
};

char *
outputs_export_path(enum export_format f, const char *slug)
{
	return xconcat(OUTPUT_EXPORT_DIR, "/", slug, outputs_export_formats[f].suffix, NULL);
}

/*
 * One file of the output, or a folder on the way to one (outputs_check).
 * A folder's path and fold are the first bytes of its file's: nothing is
 * copied for the folders of ten thousand pages.
 */
struct output {
	const char *fold;          /* the path as such a disk compares it (md_casefold) */
	size_t flen;
	const char *path;          /* below out/ */
	size_t plen;
	const char *from;          /* the source that makes it, for the message */
	int is_dir;
	int copied;                /* a content file copied as it is (yields to pages) */
	int chapter;               /* a chapter's page (same-address chapters are reported already) */
	int export;                /* an export: named by a slug whose page's clash is reported already */
	size_t next;               /* 1 + the next output of this fold, 0 for none */
};

/*
 * The outputs by fold, in an open-addressed table of the first of each
 * fold (1 + its index in v; 0 is empty). Most folds hold one file, or
 * only folders: nothing to say. Only the others are sorted, so a site of
 * ten thousand pages is not sorted whole on one thread.
 */
struct outputs {
	struct output *v;
	size_t len, cap;
	size_t *slot;
	size_t nslot;              /* a power of two, kept at most half full */
	size_t nused;              /* slots in use: folds seen */
	char **owned;              /* the folds made here, those that differ from their paths */
	size_t nowned, owned_cap;
};

/* Byte order, as strcmp, of two strings given with their lengths. */
static int
S_cmp_n(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

static size_t *
S_output_slot(struct outputs *o, const char *fold, size_t n)
{
	size_t h = (size_t)hash_fnv1a(fold, n, HASH_FNV_SEED) & (o->nslot - 1);

	while (o->slot[h] != 0) {
		const struct output *x = &o->v[o->slot[h] - 1];

		if (x->flen == n && memcmp(x->fold, fold, n) == 0)
			break;
		h = (h + 1) & (o->nslot - 1);
	}
	return &o->slot[h];
}

static void
S_output_grow(struct outputs *o)
{
	size_t *old = o->slot, nold = o->nslot, i;

	o->nslot = nold ? nold * 2 : 1024;
	o->slot = xcalloc(o->nslot, sizeof(*o->slot));
	for (i = 0; i < nold; i++)
		if (old[i] != 0) {
			const struct output *x = &o->v[old[i] - 1];

			*S_output_slot(o, x->fold, x->flen) = old[i];
		}
	free(old);
}

/*
 * One output. A folder already there by the same path (every page's
 * guide/) is not added again: it keeps the source that sorts first, which
 * is the one a message would name.
 */
static void
S_output_put(struct outputs *o, const struct output *add)
{
	size_t *slot, k;

	if (2 * (o->nused + 1) > o->nslot)
		S_output_grow(o);
	slot = S_output_slot(o, add->fold, add->flen);
	for (k = *slot; add->is_dir && k != 0; k = o->v[k - 1].next) {
		struct output *x = &o->v[k - 1];

		if (x->is_dir && x->copied == add->copied && x->plen == add->plen &&
		    memcmp(x->path, add->path, add->plen) == 0) {
			if (strcmp(add->from, x->from) < 0)
				x->from = add->from;
			return;
		}
	}
	o->v = xgrow(o->v, &o->cap, o->len + 1, sizeof(*o->v));
	o->v[o->len] = *add;
	o->v[o->len].next = *slot;
	o->nused += *slot == 0;
	*slot = ++o->len;
}

/*
 * A file's output and the folders above it. The fold of a folder is the
 * file's fold up to the same slash: case folding maps letters to letters,
 * one code point at a time, and never makes or takes a '/'.
 */
static void
S_output_add(struct outputs *o, const char *path, const char *from, int copied, int chapter)
{
	char *fold = md_casefold(path);
	const char *slash, *fslash;
	struct output x;

	/* Most paths are their own fold (lower case already). */
	if (strcmp(fold, path) == 0) {
		free(fold);
		fold = (char *)path;
	} else {
		o->owned = xgrow(o->owned, &o->owned_cap, o->nowned + 1, sizeof(*o->owned));
		o->owned[o->nowned++] = fold;
	}
	memset(&x, 0, sizeof(x));
	x.fold = fold;
	x.path = path;
	x.from = from;
	x.copied = copied;
	x.is_dir = 1;
	for (slash = strchr(path, '/'), fslash = strchr(fold, '/'); slash && fslash;
	    slash = strchr(slash + 1, '/'), fslash = strchr(fslash + 1, '/')) {
		x.flen = (size_t)(fslash - fold);
		x.plen = (size_t)(slash - path);
		S_output_put(o, &x);
	}
	x.flen = strlen(fold);
	x.plen = strlen(path);
	x.is_dir = 0;
	x.chapter = chapter;
	S_output_put(o, &x);
}

static int
S_cmp_output(const void *a, const void *b)
{
	const struct output *x = *(const struct output *const *)a, *y = *(const struct output *const *)b;
	int c = S_cmp_n(x->fold, x->flen, y->fold, y->flen);

	/* Files before folders, pages before copies, then by path and source. */
	if (c == 0)
		c = x->is_dir - y->is_dir;
	if (c == 0)
		c = x->copied - y->copied;
	if (c == 0)
		c = S_cmp_n(x->path, x->plen, y->path, y->plen);
	if (c == 0)
		c = strcmp(x->from, y->from);
	return c;
}

/*
 * The disk on which two names of one fold are one, by how they differ,
 * and the systems whose disks do that (*systems).
 */
static const char *
S_disk(const char *a, size_t alen, const char *b, size_t blen, const char **systems)
{
	switch (md_fold_difference(a, alen, b, blen)) {
	case MD_FOLD_COMPOSITION:
		*systems = "macOS";
		return "a disk that normalises Unicode";
	case MD_FOLD_CASE | MD_FOLD_COMPOSITION:
		*systems = "macOS";
		return "a case-insensitive disk that normalises Unicode";
	default:
		*systems = "macOS, Windows";
		return "a case-insensitive disk";
	}
}

void
outputs_check(const struct site *site, struct diag_list *dl)
{
	struct outputs o;
	struct output **v = NULL;
	char **exports = NULL;
	size_t i, j, n = 0, cap = 0, nexports = 0, exports_cap = 0;
	int f;

	memset(&o, 0, sizeof(o));
	S_output_add(&o, "index.html", site->home ? site->home->src->display : "the home page", 0, 0);
	S_output_add(&o, "404.html", "the 404 page", 0, 0);
	S_output_add(&o, "sitemap.xml", "the sitemap", 0, 0);
	S_output_add(&o, OUTPUT_SEARCH_INDEX, "the search index", 0, 0);
	S_output_add(&o, OUTPUT_STRINGS, "the scripts' strings", 0, 0);
	if (site->nchapters > 0)
		S_output_add(&o, OUTPUT_GUIDE_CONTENTS, "the guide's contents page", 0, 0);
	/* serve writes none of these, but checks as a build would. */
	S_output_add(&o, OUTPUT_OFFLINE_PAGE, "the offline page", 0, 0);
	S_output_add(&o, OUTPUT_MANIFEST, "the web app manifest", 0, 0);
	S_output_add(&o, OUTPUT_SERVICE_WORKER, "the service worker", 0, 0);
	S_output_add(&o, OUTPUT_ICON_192, "the app icon", 0, 0);
	S_output_add(&o, OUTPUT_ICON_512, "the app icon", 0, 0);
	for (i = 0; i < site->ntests; i++)
		S_output_add(&o, site->tests[i]->url, site->tests[i]->index ?
		    site->tests[i]->index->src->display : site->tests[i]->slug, 0, 0);
	for (i = 0; i < site->ndecks; i++) {
		S_output_add(&o, site->decks[i]->url, site->decks[i]->doc->src->display, 0, 0);
		S_output_add(&o, site->decks[i]->pdf_url, site->decks[i]->doc->src->display, 0, 0);
	}
	for (i = 0; i < site->nchapters; i++)
		S_output_add(&o, site->chapters[i]->url, site->chapters[i]->doc->src->display, 0, 1);
	if (site->nchapters > 0)
		S_output_add(&o, OUTPUT_BOOK, "the guide as a book", 0, 0);
	for (i = 0; i < site->ntests; i++) {
		exports = xgrow(exports, &exports_cap, nexports + 1, sizeof(*exports));
		exports[nexports] = outputs_handout_path(site->tests[i]->slug);
		S_output_add(&o, exports[nexports++], site->tests[i]->index ?
		    site->tests[i]->index->src->display : site->tests[i]->slug, 0, 0);
	}
	for (f = 0; f < EXPORT_NFORMATS; f++) {
		size_t count = outputs_export_formats[f].of_tests ? site->ntests : site->ndecks;

		for (i = 0; i < count; i++) {
			const char *slug, *from;

			if (outputs_export_formats[f].of_tests) {
				slug = site->tests[i]->slug;
				from = site->tests[i]->index ? site->tests[i]->index->src->display : slug;
			} else {
				slug = site->decks[i]->slug;
				from = site->decks[i]->doc->src->display;
			}
			exports = xgrow(exports, &exports_cap, nexports + 1, sizeof(*exports));
			exports[nexports] = outputs_export_path((enum export_format)f, slug);
			S_output_add(&o, exports[nexports++], from, 0, 0);
			o.v[o.len - 1].export = 1;
		}
	}
	for (i = 0; i < site->nassets; i++)
		S_output_add(&o, site->assets[i].url, site->assets[i].src->display, 1, 0);
	/* The folds of two outputs or more, a file among them: all of theirs, sorted. */
	for (i = 0; i < o.nslot; i++) {
		size_t k, count = 0, files = 0;

		for (k = o.slot[i]; k != 0; k = o.v[k - 1].next) {
			count++;
			files += !o.v[k - 1].is_dir;
		}
		if (count < 2 || files == 0)
			continue;
		for (k = o.slot[i]; k != 0; k = o.v[k - 1].next) {
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n++] = &o.v[k - 1];
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), S_cmp_output);
	for (i = 0; i < n; i = j) {
		const struct output *first = v[i];

		for (j = i + 1; j < n && S_cmp_n(v[j]->fold, v[j]->flen, first->fold, first->flen) == 0; j++) {
			const struct output *x = v[j];
			const char *disk, *systems;
			int same = S_cmp_n(x->path, x->plen, first->path, first->plen) == 0;

			/* Folders may meet: only a file's name is taken. */
			if (first->is_dir)
				break;
			if (x->chapter && first->chapter && same)
				continue;
			if (x->export && first->export)
				continue;
			if (x->is_dir) {
				if (same)
					diag_error(dl, first->from, 0, 0,
					    "out/%.*s would be a file, but %s needs a folder out/%.*s: rename one",
					    (int)first->plen, first->path, x->from, (int)x->plen, x->path);
				else {
					disk = S_disk(first->path, first->plen, x->path, x->plen, &systems);
					diag_error(dl, first->from, 0, 0,
					    "out/%.*s would be a file, but %s needs a folder out/%.*s "
					    "(one name on %s: %s): rename one",
					    (int)first->plen, first->path, x->from, (int)x->plen, x->path,
					    disk, systems);
				}
				break;
			}
			if (same)
				diag_error(dl, x->from, 0, 0,
				    "would be written to out/%.*s, as %s is: rename or move one",
				    (int)x->plen, x->path, first->from);
			else {
				disk = S_disk(x->path, x->plen, first->path, first->plen, &systems);
				diag_error(dl, x->from, 0, 0,
				    "out/%.*s and out/%.*s (for %s) are one file on %s (%s): rename one",
				    (int)x->plen, x->path, (int)first->plen, first->path, first->from,
				    disk, systems);
			}
		}
		/* The rest of a fold whose first is a folder, or past the first folder. */
		while (j < n && S_cmp_n(v[j]->fold, v[j]->flen, first->fold, first->flen) == 0)
			j++;
	}
	free(v);
	for (i = 0; i < nexports; i++)
		free(exports[i]);
	free(exports);
	for (i = 0; i < o.nowned; i++)
		free(o.owned[i]);
	free(o.owned);
	free(o.v);
	free(o.slot);
}

char *
outputs_handout_path(const char *slug)
{
	return xconcat("print/", slug, "-handout.pdf", NULL);
}

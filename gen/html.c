/*
 * html: page assembly. For each page, html.c gathers the values a theme
 * template asks for (text, HTML rendered from the content trees, lists)
 * and lets theme.c write the page. The structured parts the scripts read
 * (questions, cards) are written here through a theme_writer, following
 * the page markup contract in themes/default/README.md.
 */
#include "html.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/tree.h>

#include "answer.h"
#include "cache.h"
#include "lang.h"
#include "links.h"
#include "markdown.h"
#include "outputs.h"
#include "pool.h"
#include "render.h"
#include "search.h"
#include "site.h"
#include "theme.h"
#include "util.h"

/* Bytes rendered for a page, kept in serve's cache between builds. */
struct piece {
	char *s;
	size_t len;
};

struct html {
	const struct site *site;
	const struct theme *theme;
	const char *outdir;
	struct diag_list *dl;
	int chapter_list;          /* the chapter template uses "chapters" */
	char **urls;               /* pages written, for the sitemap */
	size_t nurls, urls_cap;
	/*
	 * Every topic of every test, its questions rendered before the pages
	 * (S_pages): a test page of 10,000 questions is then not one long job
	 * for one thread. In test, topic order; first[i] is where test i's
	 * start.
	 */
	struct topic_html *topics;
	size_t ntopics;
	size_t *first;
	/* serve's pieces and files from its last build, or NULL (html_build). */
	struct cache *cache;
	uint64_t strings_key;      /* the learner's strings, which every piece may show */
	/*
	 * Each chapter's and deck's entries of the search index, made by its
	 * page job from the tree it holds open: S_search joins them.
	 */
	struct piece *search_chapters, *search_decks;
	/*
	 * A writer the parts use in turn (S_part_begin), set by who renders
	 * many: its cache of element facts stays warm from one to the next.
	 */
	struct theme_writer *writer;
	const volatile sig_atomic_t *stop; /* S_site_write's: non-zero ends the pages */
	int offline;               /* pages link the manifest and offline.js; offline.html is written */
	unsigned exports;          /* html_build's: the export formats written, to link */
};

/* A topic's questions as a test page shows them. */
struct topic_html {
	const struct test *test;
	const struct topic *topic;
	char *samples;             /* its sample questions, answers shown */
	size_t samples_len;
	char *bank;                /* its section of the bank: intro and questions */
	size_t bank_len;
};

static int
S_stopped(const struct html *h)
{
	return h->stop != NULL && *h->stop != 0;
}

static const char *
S_diff_name(enum difficulty d)
{
	switch (d) {
	case DIFF_EASY:
		return "easy";
	case DIFF_HARD:
		return "hard";
	default:
		return "medium";
	}
}

/*
 * n in decimal, into out (NUMBER_LEN bytes); returns out. Pages that
 * number things do it for every page or item, and xasprintf would read
 * a format and allocate for each.
 */
#define NUMBER_LEN 24

static char *
S_number(char *out, size_t n)
{
	char digits[NUMBER_LEN];
	size_t len = 0, i;

	do {
		digits[len++] = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	for (i = 0; i < len; i++)
		out[i] = digits[len - 1 - i];
	out[len] = '\0';
	return out;
}

/* The learner's string for key, in the site's language (lang.h). */
static const char *
S_str(const struct html *h, const char *key)
{
	return lang_get(h->site->lang, key);
}

/* key's plural form for n ("30 questions"), in the site's language. Caller frees. */
static char *
S_plural(const struct html *h, const char *key, size_t n)
{
	return lang_plural(h->site->lang, key, (long)n, NULL);
}

/* What the pages call difficulty d ("easy"), in the site's language. */
static const char *
S_diff_label(const struct html *h, enum difficulty d)
{
	static const char *const keys[] = { "html.easy", "html.medium", "html.hard" };

	return S_str(h, keys[d == DIFF_EASY ? 0 : d == DIFF_HARD ? 2 : 1]);
}

/* "30 questions · 10 easy · 12 medium · 8 hard" (difficulties with none left out). */
static char *
S_counts(const struct html *h, const struct test *t)
{
	static const char *const keys[3] = { "counts.easy", "counts.medium", "counts.hard" };
	struct buf b;
	char *s = S_plural(h, "counts.questions", t->nquestions);
	int i;

	buf_init(&b);
	buf_puts(&b, s);
	free(s);
	for (i = 0; i < 3; i++)
		if (t->count[i] > 0) {
			s = S_plural(h, keys[i], t->count[i]);
			buf_printf(&b, " \xc2\xb7 %s", s);
			free(s);
		}
	return buf_detach(&b);
}

/*
 * "<id>:<fingerprint> ..." for each card of a deck, in order: the home
 * page's dashboard counts the cards due from it by the rule the deck's
 * viewer uses (a saved card counts while its fingerprint is the card's).
 * The fingerprint is the last 16 characters of each item.
 */
static char *
S_card_prints(const struct deck *d)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_puts(&b, "");
	for (i = 0; i < d->ncards; i++)
		buf_printf(&b, "%s%s:%s", i ? " " : "", d->cards[i].id, d->cards[i].fingerprint);
	return buf_detach(&b);
}

/*
 * Sets a template value to the URL of a file below out/ (percent-encoded,
 * so odd file names survive), with an optional fragment.
 */
static void
S_url_var(struct tvars *v, const char *name, const char *path, const char *fragment)
{
	char *url = url_encode_path(path), *s;

	if (fragment) {
		s = xconcat(url, "#", fragment, NULL);
		free(url);
		url = s;
	}
	tvars_text(v, name, url);
	free(url);
}

/*
 * The template values linking a deck's or a test's exports, by format
 * ("export-" and the format's name for `quizdeck export`): static, as
 * tvars keeps a value's name without copying it.
 */
static const char *const S_export_vars_names[EXPORT_NFORMATS] = {
	[EXPORT_ANKI] = "export-anki", [EXPORT_CSV] = "export-csv", [EXPORT_TSV] = "export-tsv",
	[EXPORT_MOODLE] = "export-moodle", [EXPORT_GIFT] = "export-gift",
};

/*
 * Sets a deck's or a test's (of_tests tells which) export values, each
 * only when the build writes that file, and "exports" when it writes
 * any of them.
 */
static void
S_export_vars(const struct html *h, struct tvars *v, const char *slug, int of_tests)
{
	int f, any = 0;

	for (f = 0; f < EXPORT_NFORMATS; f++) {
		char *path;

		if (!(h->exports & (1u << f)) || outputs_export_formats[f].of_tests != of_tests)
			continue;
		path = outputs_export_path((enum export_format)f, slug);
		S_url_var(v, S_export_vars_names[f], path, NULL);
		free(path);
		any = 1;
	}
	if (any)
		tvars_text(v, "exports", "1");
}

static struct render *
S_render(const struct html *h, const struct doc *doc, const char *page, const char *prefix)
{
	struct render_opts o;

	memset(&o, 0, sizeof(o));
	o.site = h->site;
	o.doc = doc;
	o.page_url = page;
	o.id_prefix = prefix;
	return render_new(&o);
}

/* A render of a cloze card's heading: deletion `cloze` blank, or marked with answer. */
static struct render *
S_render_cloze(const struct html *h, const struct doc *doc, const char *page, const char *prefix,
    int cloze, int answer)
{
	struct render_opts o;

	memset(&o, 0, sizeof(o));
	o.site = h->site;
	o.doc = doc;
	o.page_url = page;
	o.id_prefix = prefix;
	o.cloze = cloze;
	o.cloze_answer = answer;
	o.copy = answer;
	return render_new(&o);
}

static int
S_range_empty(const struct block_range *r)
{
	return r->first == NULL;
}

/* An introduction's blocks and the footnotes they reference, into o; ids get prefix. */
static void
S_intro(const struct html *h, struct render_out *o, const struct doc *doc, const char *page,
    const struct block_range *intro, const char *prefix)
{
	struct render *r = S_render(h, doc, page, prefix);

	render_out_blocks(r, o, intro->first, intro->last);
	render_out_footnotes(r, o);
	render_free(r);
}

/* The description as a paragraph and the intro blocks, into o. */
static void
S_lede(const struct html *h, struct render_out *o, const struct doc *doc, const char *page,
    const char *description, const struct block_range *intro, const char *prefix)
{
	if (description && *description) {
		render_out_open(o, "p", NULL);
		render_out_text(o, description);
		render_out_close(o);
		render_out_nl(o);
	}
	if (doc && intro && !S_range_empty(intro))
		S_intro(h, o, doc, page, intro, prefix);
}

/* ---- serve's cache --------------------------------------------------------- */

/* Doc d's path, bytes and where each of its links leads now, into key k. */
static uint64_t
S_doc_bytes_key(const struct html *h, uint64_t k, const struct doc *d)
{
	size_t i;

	k = cache_key_str(k, d->src->rel);
	k = cache_key_bytes(k, d->src->data, d->src->len);
	for (i = 0; i < d->nlinks; i++) {
		char *to = links_output_target(h->site, d, d->links[i].dest);

		k = cache_key_str(k, to);
		free(to);
	}
	return k;
}

/*
 * The key of what is rendered from doc d on page: what (the kind of
 * piece), the doc's bytes (front matter and body), and where each of its
 * links leads now, which is all a rendering reads of other docs. Each
 * caller adds what else its piece shows of the model. 0 without a cache.
 */
static uint64_t
S_doc_key(const struct html *h, const char *what, const struct doc *d, const char *page)
{
	uint64_t k;

	if (h->cache == NULL)
		return 0;
	k = cache_key_str(HASH_FNV_SEED, what);
	k = cache_key_int(k, (long long)h->strings_key);
	k = cache_key_str(k, page);
	return d ? S_doc_bytes_key(h, k, d) : k;
}

/* The xrefs a "Practise this" list shows, into key k. */
static uint64_t
S_xrefs_key(uint64_t k, const struct xref_list *xl)
{
	size_t i;

	k = cache_key_int(k, (long long)xl->len);
	for (i = 0; i < xl->len; i++) {
		const struct xref *x = &xl->v[i];

		k = cache_key_int(k, x->kind);
		if (x->kind == XREF_QUESTION) {
			k = cache_key_str(k, x->u.question->id);
			k = cache_key_str(k, x->u.question->stem_text);
			k = cache_key_str(k, x->u.question->topic->test->url);
			k = cache_key_int(k, x->u.question->difficulty);
		} else {
			k = cache_key_str(k, x->u.card->id);
			k = cache_key_str(k, x->u.card->front_text);
			k = cache_key_str(k, x->u.card->deck->url);
			k = cache_key_int(k, x->u.card->number);
		}
	}
	return k;
}

/*
 * n pieces rendered together (keys key, key + 1, ...) from the cache,
 * each a copy for the caller to free. 1 if all were there; else 0, and
 * nothing to free.
 */
static int
S_cached(const struct html *h, uint64_t key, size_t n, struct piece *v)
{
	const char *got[4];
	size_t i;

	if (h->cache == NULL || n > sizeof(got) / sizeof(got[0]))
		return 0;
	for (i = 0; i < n; i++)
		if ((got[i] = cache_get(h->cache, key + i, &v[i].len)) == NULL)
			return 0;
	for (i = 0; i < n; i++)
		v[i].s = xstrndup(got[i], v[i].len);
	return 1;
}

/* A buffer's bytes as a piece (empty, not NULL, when nothing was added); b is emptied. */
static struct piece
S_piece_of(struct buf *b)
{
	struct piece p;

	p.len = b->len;
	p.s = buf_detach(b);
	return p;
}

static void
S_keep(const struct html *h, uint64_t key, size_t n, const struct piece *v)
{
	size_t i;

	for (i = 0; h->cache && i < n; i++)
		cache_put(h->cache, key + i, v[i].s, v[i].len);
}

/*
 * Writes a file below outdir. With serve's cache, a file whose bytes are
 * those the last build wrote is left alone, and one that changed is
 * written beside and renamed over, so the server never reads half of it.
 */
static int
S_write_file(const struct html *h, const char *rel, const void *data, size_t len)
{
	char *path = path_join(h->outdir, rel), *tmp = NULL;
	uint64_t key = 0, sum = 0;
	const char *was;
	size_t wlen;
	int rc = -1;

	if (h->cache) {
		key = cache_key_str(cache_key_str(HASH_FNV_SEED, "file"), rel);
		sum = cache_key_bytes(HASH_FNV_SEED, data, len);
		was = cache_get(h->cache, key, &wlen);
		if (was && wlen == sizeof(sum) && memcmp(was, &sum, sizeof(sum)) == 0) {
			rc = 0;
			goto out;
		}
		tmp = xconcat(path, ".quizdeck-new", NULL);
	}
	if (file_write(tmp ? tmp : path, data, len) == -1 || (tmp && rename(tmp, path) == -1)) {
		diag_error(h->dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
		if (tmp)
			unlink(tmp);
		goto out;
	}
	if (h->cache)
		cache_put(h->cache, key, &sum, sizeof(sum));
	rc = 0;
out:
	free(tmp);
	free(path);
	return rc;
}

/* ---- the values every page has ----------------------------------------- */

/* The length of a UTF-8 string in characters. */
static size_t
S_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

enum page_kind { PAGE_HOME, PAGE_TEST, PAGE_DECK, PAGE_CHAPTER, PAGE_GUIDE, PAGE_404, PAGE_OFFLINE };

/* current: NULL, or aria-current's value ("page"; "true" for the item a page is part of). */
static void
S_nav_item(struct tvars *v, const char *url, const char *title, const char *current)
{
	struct tvars *it = tvars_item(v, "nav");

	S_url_var(it, "url", url, NULL);
	tvars_text(it, "title", title);
	if (current)
		tvars_text(it, "current", current);
}

/*
 * The site's identity in the learner's browser, the pages' data-site:
 * the scripts' storage keys hold it, so two sites opened from disk (one
 * storage area for every file:// page) keep their progress apart, and
 * moving the folder keeps it. site_id when set; else a hash of title and
 * base_url. Returns site_id or buf (17 bytes).
 */
static const char *
S_site_identity(const struct config *cfg, char *buf)
{
	uint64_t k;

	if (cfg->site_id && *cfg->site_id)
		return cfg->site_id;
	k = hash_fnv1a(cfg->title, strlen(cfg->title) + 1, HASH_FNV_SEED);
	k = hash_fnv1a(cfg->base_url, strlen(cfg->base_url) + 1, k);
	snprintf(buf, 17, "%016llx", (unsigned long long)k);
	return buf;
}

/*
 * What a page's <title> calls it, before the site's title: a test or a
 * deck says what it is ("Practice test: Title", or "Practice test" alone
 * when its title is the site's), so each page's differs. NULL when the
 * page's title is the site's own or empty; else the caller frees.
 */
static char *
S_page_label(const struct html *h, enum page_kind kind, const char *title, const char *site_title)
{
	const char *what = kind == PAGE_TEST ? "test" : kind == PAGE_DECK ? "deck" : NULL;
	int same = title == NULL || *title == '\0' || strcmp(title, site_title) == 0;

	if (what && same)
		return xstrdup(S_str(h, kind == PAGE_TEST ? "nav.test" : "nav.deck"));
	if (what)
		return lang_format(h->site->lang, kind == PAGE_TEST ? "html.title-test" : "html.title-deck",
		    "title", title, NULL);
	return same ? NULL : xstrdup(title);
}

static struct tvars *
S_common(const struct html *h, enum page_kind kind, const char *page, const char *title,
    const char *description, const void *current)
{
	static const char *const body_classes[] = {
		"page-home", "page-test", "page-deck", "page-chapter", "page-guide", "page-404", "page-offline",
	};
	const struct config *cfg = &h->site->cfg;
	struct tvars *v = tvars_new();
	char *s, *label, site[17];
	size_t i;

	tvars_text(v, "lang", cfg->language && *cfg->language ? cfg->language : "en");
	tvars_text(v, "dir", lang_rtl(h->site->lang) ? "rtl" : "ltr");
	tvars_text(v, "site-title", cfg->title);
	tvars_text(v, "home", "index.html");
	tvars_text(v, "title", title);
	label = S_page_label(h, kind, title, cfg->title);
	if (kind == PAGE_HOME || label == NULL)
		tvars_text(v, "page-title", cfg->title);
	else {
		/* Short enough for a tab and a search result; else the page's own label. */
		s = xconcat(label, " \xc2\xb7 ", cfg->title, NULL);
		tvars_text(v, "page-title", S_chars(s) <= 60 ? s : label);
		free(s);
	}
	free(label);
	tvars_text(v, "description", description && *description ? description : cfg->description);
	tvars_text(v, "body-class", body_classes[kind]);
	tvars_text(v, "site-id", S_site_identity(cfg, site));
	tvars_text(v, body_classes[kind], "1");
	if (kind == PAGE_TEST || kind == PAGE_DECK)
		tvars_text(v, "interactive", "1");
	if (h->offline)
		tvars_text(v, "offline", "1");
	tvars_text(v, "author", cfg->author);
	if (cfg->base_url && *cfg->base_url && kind != PAGE_404 && kind != PAGE_OFFLINE) {
		const char *dir_end = path_has_suffix(page, "index.html") ?
		    page + strlen(page) - strlen("index.html") : page + strlen(page);

		char *dir = xstrndup(page, (size_t)(dir_end - page)), *enc = url_encode_path(dir);

		s = xasprintf("%s/%s", cfg->base_url, enc);
		tvars_text(v, "canonical", s);
		free(s);
		free(enc);
		free(dir);
	}
	/* A lone test or deck is named for what it is; several, by their titles. */
	S_nav_item(v, "index.html", S_str(h, "nav.home"), kind == PAGE_HOME ? "page" : NULL);
	for (i = 0; i < h->site->ntests; i++)
		S_nav_item(v, h->site->tests[i]->url, h->site->ntests == 1 ?
		    S_str(h, "nav.test") : h->site->tests[i]->title, current == h->site->tests[i] ? "page" : NULL);
	for (i = 0; i < h->site->ndecks; i++)
		S_nav_item(v, h->site->decks[i]->url, h->site->ndecks == 1 ?
		    S_str(h, "nav.deck") : h->site->decks[i]->title, current == h->site->decks[i] ? "page" : NULL);
	/* "Guide" opens the contents page; a chapter is a part of the guide, not its page. */
	if (h->site->nchapters > 0)
		S_nav_item(v, OUTPUT_GUIDE_CONTENTS, S_str(h, "nav.guide"),
		    kind == PAGE_GUIDE ? "page" : kind == PAGE_CHAPTER ? "true" : NULL);
	return v;
}

static int
S_write_page(struct html *h, enum theme_part part, const struct tvars *v, const char *page)
{
	char *path = NULL, *url = url_encode_path(page);
	struct buf b;
	int rc = -1, filled;

	buf_init(&b);
	/* Template URLs are made relative to the page's URL, not its file name. */
	filled = theme_render(h->theme, part, v, url, &b, h->dl);
	free(url);
	if (filled == -1)
		goto out;
	path = path_join(h->outdir, page);
	/* A page is <folder>/index.html, its folder new in the staging: made first, sparing an open that fails. */
	if (path_has_suffix(page, "/index.html")) {
		char *dir = path_dirname(path);

		(void)mkdir(dir, 0777);
		free(dir);
	}
	if (S_write_file(h, page, b.data, b.len) == -1)
		goto out;
	if (part != THEME_NOT_FOUND) {
		h->urls = xgrow(h->urls, &h->urls_cap, h->nurls + 1, sizeof(*h->urls));
		h->urls[h->nurls++] = xstrdup(page);
	}
	rc = 0;
out:
	buf_free(&b);
	free(path);
	return rc;
}

/*
 * A part of a page (a chapter's body, a deck's cards, a question),
 * written through render_out into bytes: a value for tvars_html.
 */
struct part {
	struct render_out out;
	struct buf b;
	int lent;                  /* out.w is html.writer's, not the part's to free */
};

static void
S_part_begin(struct part *p, const struct html *h)
{
	buf_init(&p->b);
	buf_put(&p->b, "", 0);
	p->lent = h->writer != NULL;
	p->out.w = h->writer ? h->writer : theme_writer_new();
	theme_writer_begin(p->out.w, &p->b);
}

/* The part's bytes (caller frees), and their length. */
static char *
S_part_bytes(struct part *p, size_t *len)
{
	if (!p->lent)
		theme_writer_free(p->out.w);
	*len = p->b.len;
	return buf_detach(&p->b);
}

/* A page's eyebrow: key's line ("Practice test · {count}") with count filled. */
static void
S_eyebrow(const struct html *h, struct tvars *v, const char *key, const char *count)
{
	char *s = lang_format(h->site->lang, key, "count", count, NULL);

	tvars_text(v, "eyebrow", s);
	free(s);
}

/* ---- home -------------------------------------------------------------- */

static int
S_home(struct html *h)
{
	const struct site *site = h->site;
	const char *page = "index.html";
	struct tvars *v = S_common(h, PAGE_HOME, page, site->cfg.title, NULL, NULL);
	size_t i, k;
	char *s, num[NUMBER_LEN];
	int rc;

	if (site->home) {
		uint64_t key = S_doc_key(h, "home", site->home, page);
		struct piece intro_html;

		if (!S_cached(h, key, 1, &intro_html)) {
			struct doc_tree *tree = doc_tree_open(site->home);
			struct render *r = S_render(h, site->home, page, "");
			struct part intro;

			S_part_begin(&intro, h);
			render_out_children(r, &intro.out, doc_tree_root(tree));
			render_out_footnotes(r, &intro.out);
			render_free(r);
			doc_tree_close(tree);
			intro_html.s = S_part_bytes(&intro, &intro_html.len);
			S_keep(h, key, 1, &intro_html);
		}
		tvars_html(v, "intro", intro_html.s, intro_html.len);
	}
	for (i = 0; i < site->ntests; i++) {
		const struct test *t = site->tests[i];
		struct tvars *it = tvars_item(v, "tests");

		S_url_var(it, "url", t->url, NULL);
		tvars_text(it, "title", t->title);
		tvars_text(it, "slug", t->slug);
		tvars_text(it, "description", t->description);
		s = S_counts(h, t);
		tvars_text(it, "counts", s);
		free(s);
		for (k = 0; k < t->ntopics; k++) {
			struct tvars *tp = tvars_item(it, "topics");

			tvars_text(tp, "title", t->topics[k]->title);
			s = S_plural(h, "counts.questions", t->topics[k]->nquestions);
			tvars_text(tp, "count", s);
			free(s);
		}
	}
	for (i = 0; i < site->ndecks; i++) {
		const struct deck *d = site->decks[i];
		struct tvars *it = tvars_item(v, "decks");

		S_url_var(it, "url", d->url, NULL);
		tvars_text(it, "title", d->title);
		tvars_text(it, "slug", d->slug);
		tvars_text(it, "description", d->description);
		s = S_plural(h, "counts.cards", d->ncards);
		tvars_text(it, "count", s);
		free(s);
		tvars_text(it, "cards", S_number(num, d->ncards));
		s = S_card_prints(d);
		tvars_text(it, "card-prints", s);
		free(s);
		S_url_var(it, "pdf", d->pdf_url, NULL);
	}
	for (i = 0; i < site->nchapters; i++) {
		const struct chapter *c = site->chapters[i];
		struct tvars *it = tvars_item(v, "chapters");

		S_url_var(it, "url", c->url, NULL);
		tvars_text(it, "title", c->title);
		tvars_text(it, "description", c->doc && c->doc->src ? c->doc->src->fm.description : NULL);
		tvars_text(it, "number", S_number(num, i + 1));
	}
	rc = S_write_page(h, THEME_HOME, v, page);
	tvars_free(v);
	return rc;
}

/* ---- test pages -------------------------------------------------------- */

static void
S_fingerprint_attr(struct render_out *o, const char *fp)
{
	if (fp && *fp)
		render_out_attr(o, "data-fingerprint", fp);
}

/* The option's own blocks: everything in the item but its feedback. */
static void
S_option_text(struct render *r, struct render_out *out, const struct option_nodes *o)
{
	cmark_node *c;

	for (c = cmark_node_first_child(o->item); c; c = cmark_node_next(c))
		if (c != o->feedback)
			render_out_blocks(r, out, c, c);
}

/* The correct option's text, inline, for the answer key. */
static void
S_option_inline(struct render *r, struct render_out *out, const struct option_nodes *o)
{
	cmark_node *first = cmark_node_first_child(o->item);

	if (first && cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH)
		render_out_children(r, out, first);
}

static void
S_question_meta(const struct html *h, struct render_out *o, const struct question *q, int sample)
{
	char *cls = xconcat("difficulty difficulty-", S_diff_name(q->difficulty), NULL);

	render_out_open(o, "p", "question-meta");
	render_out_open(o, "span", cls);
	render_out_text(o, S_diff_label(h, q->difficulty));
	render_out_close(o);
	free(cls);
	if (q->multi || q->kind != ANSWER_CHOICE) {
		static const char *const kinds[] = { "html.kind-multi", "html.kind-number",
			"html.kind-text", "html.kind-output" };

		render_out_text(o, " \xc2\xb7 ");
		render_out_open(o, "span", "kind");
		render_out_text(o, S_str(h, kinds[q->kind]));
		render_out_close(o);
	}
	if (sample) {
		render_out_text(o, " \xc2\xb7 ");
		render_out_open(o, "span", "sample-tag");
		render_out_text(o, S_str(h, "html.sample"));
		render_out_close(o);
	}
	render_out_close(o);
	render_out_nl(o);
}

/* The article's data-kind: how the page's script asks it. */
static const char *
S_kind_attr(const struct question *q)
{
	static const char *const kinds[] = { "single", "number", "text", "output" };

	return q->multi ? "multi" : kinds[q->kind];
}

/*
 * What a typed question accepts, in words, under its stem: the runner
 * shows it as the input box's description, the page without script as
 * the question's instruction. It says what answer.js reads.
 */
static void
S_typed_prompt(const struct html *h, struct render_out *out, const struct question *q)
{
	struct buf units;
	size_t i, nunits = 0;
	char *s = NULL;
	int comma;

	buf_init(&units);
	switch (q->kind) {
	case ANSWER_NUMBER:
		for (i = 0; i < q->noptions; i++) {
			const struct quiz_option *o = &q->options[i];
			size_t k;

			if (!o->correct || o->unit == NULL || !*o->unit)
				continue;
			for (k = 0; k < i; k++)
				if (q->options[k].correct && q->options[k].unit && strcmp(q->options[k].unit, o->unit) == 0)
					break;
			if (k < i)
				continue;
			if (nunits++ == 0)
				buf_puts(&units, o->unit);
			else {
				char *list = lang_format(h->site->lang, "html.unit-or", "first", buf_str(&units),
				    "next", o->unit, NULL);

				buf_reset(&units);
				buf_puts(&units, list);
				free(list);
			}
		}
		comma = answer_decimal_comma(h->site->cfg.language);
		s = lang_format(h->site->lang, nunits ?
		    (comma ? "html.number-prompt-unit-comma" : "html.number-prompt-unit") :
		    (comma ? "html.number-prompt-comma" : "html.number-prompt"),
		    "units", buf_str(&units), NULL);
		break;
	case ANSWER_TEXT:
		s = xstrdup(S_str(h, q->exact ? "html.text-prompt-exact" : "html.text-prompt"));
		break;
	default:
		s = xstrdup(S_str(h, "html.output-prompt"));
		break;
	}
	render_out_open(out, "p", "typed-prompt");
	render_out_text(out, s);
	render_out_close(out);
	render_out_nl(out);
	free(s);
	buf_free(&units);
}

/* The answer as written after the `=`: a program's output as a block. */
static void
S_typed_text(struct render_out *out, const struct question *q, const struct quiz_option *o)
{
	if (q->kind == ANSWER_OUTPUT) {
		render_out_open(out, "div", "option-text");
		render_out_open(out, "pre", NULL);
		render_out_open(out, "code", NULL);
		render_out_text(out, o->answer);
		render_out_close(out);
		render_out_close(out);
		render_out_close(out);
	} else {
		render_out_open(out, "span", "option-text");
		render_out_text(out, o->answer);
		render_out_close(out);
	}
}

/*
 * A typed question's answers: the prompt, then every `=` item, accepted
 * or a foreseen wrong one with its feedback, in a list the page's
 * script scores from (data-answer; data-min, data-max and data-unit for
 * a number), behind "Reveal answer" unless a sample.
 */
static void
S_typed_question(const struct html *h, struct render *r, struct render_out *out,
    const struct question *q, const struct question_nodes *qn, int sample)
{
	size_t i, naccepted = 0;
	char *s;

	S_typed_prompt(h, out, q);
	if (!sample) {
		render_out_open(out, "details", "answer");
		render_out_open(out, "summary", NULL);
		render_out_text(out, S_str(h, "html.reveal"));
		render_out_close(out);
		render_out_nl(out);
	}
	render_out_open(out, "ul", "typed-answers");
	render_out_nl(out);
	for (i = 0; i < q->noptions; i++) {
		const struct quiz_option *o = &q->options[i];

		if (o->answer == NULL)
			continue;
		render_out_open(out, "li", o->correct ? "typed-answer correct" : "typed-answer");
		render_out_attr(out, "data-correct", o->correct ? "true" : "false");
		render_out_attr(out, "data-answer", o->answer);
		if (o->unit) {
			s = xasprintf("%.15g", o->min);
			render_out_attr(out, "data-min", s);
			free(s);
			s = xasprintf("%.15g", o->max);
			render_out_attr(out, "data-max", s);
			free(s);
			render_out_attr(out, "data-unit", o->unit);
		}
		render_out_open(out, "span", "typed-verdict");
		if (o->correct) {
			render_out_open(out, "span", "mark");
			render_out_attr(out, "aria-hidden", "true");
			render_out_text(out, "\xe2\x9c\x93");    /* ✓ */
			render_out_close(out);
			render_out_text(out, " ");
			render_out_text(out, S_str(h, naccepted++ ? "html.typed-also" : "html.typed-answer"));
		} else {
			render_out_open(out, "span", "mark");
			render_out_attr(out, "aria-hidden", "true");
			render_out_text(out, "\xe2\x9c\x97");    /* ✗ */
			render_out_close(out);
			render_out_text(out, " ");
			render_out_text(out, S_str(h, "html.typed-wrong"));
		}
		render_out_close(out);
		render_out_text(out, " ");
		S_typed_text(out, q, o);
		if (qn->options[i].feedback) {
			render_out_open(out, "div", "option-feedback");
			/* The lead the stylesheet shows before it ("If you typed this:"), in the site's language. */
			render_out_attr(out, "data-lead", S_str(h, "html.typed-feedback-lead"));
			render_out_children(r, out, qn->options[i].feedback);
			render_out_close(out);
		}
		render_out_close(out);
		render_out_nl(out);
	}
	render_out_close(out);
	render_out_nl(out);
}

/*
 * One question as an article, its nodes from its topic's open tree. A
 * sample shows its answer: the correct options marked, the explanation
 * open; the bank hides it in a details. A question embedded in a chapter
 * (embed_id its article's id there, else NULL) is shown as in the bank,
 * its stem a paragraph, since it sits among the chapter's own headings.
 */
static void
S_question(const struct html *h, struct render_out *out, const struct question *q,
    const struct doc_tree *tree, const char *page, int sample, const char *embed_id)
{
	const struct doc *doc = q->topic->doc;
	const struct question_nodes *qn = doc_tree_question(tree, q);
	const char *id = embed_id ? embed_id : q->id;
	char *prefix = xconcat(sample ? "sample-" : "", id, "-", NULL);
	char *fn_label = embed_id ? lang_format(h->site->lang, "html.footnotes-to", "question", q->stem_text, NULL) : NULL;
	struct render_opts ro = { .site = h->site, .doc = doc, .page_url = page, .id_prefix = prefix,
		.footnotes_label = fn_label };
	struct render *r = render_new(&ro);
	struct render *copy;
	struct render_opts co;
	size_t i, ncorrect = 0;
	char *s;

	render_out_open(out, "article", sample ? "question sample" :
	    embed_id ? "question embedded" : "question");
	if (sample) {
		s = xconcat("sample-", q->id, NULL);
		render_out_attr(out, "id", s);
		free(s);
		render_out_attr(out, "data-difficulty", S_diff_name(q->difficulty));
	} else {
		render_out_attr(out, "id", id);
		render_out_attr(out, "data-id", q->id);
		render_out_attr(out, "data-topic", q->topic->slug);
		render_out_attr(out, "data-difficulty", S_diff_name(q->difficulty));
		render_out_attr(out, "data-kind", S_kind_attr(q));
		if (q->exact)
			render_out_attr(out, "data-exact", "true");
		if (q->kind == ANSWER_NUMBER && answer_decimal_comma(h->site->cfg.language))
			render_out_attr(out, "data-decimal-comma", "true");
		S_fingerprint_attr(out, q->fingerprint);
		/* Answered on this page already: the practice test leaves it out of the draw. */
		if (q->sample && !embed_id)
			render_out_attr(out, "data-sample", "true");
	}
	render_out_nl(out);
	S_question_meta(h, out, q, sample);
	render_out_open(out, sample ? "h3" : embed_id ? "p" : "h4", "stem");
	render_out_children(r, out, qn->heading);
	render_out_close(out);
	render_out_nl(out);
	if (!S_range_empty(&qn->stem)) {
		render_out_open(out, "div", "stem-body");
		render_out_blocks(r, out, qn->stem.first, qn->stem.last);
		render_out_close(out);
		render_out_nl(out);
	}
	if (qn->hint) {
		render_out_open(out, "blockquote", "hint");
		render_out_children(r, out, qn->hint);
		render_out_close(out);
		render_out_nl(out);
	}
	if (q->kind != ANSWER_CHOICE) {
		S_typed_question(h, r, out, q, qn, sample);
		goto explanation;
	}
	render_out_open(out, "ol", "options");
	render_out_nl(out);
	for (i = 0; i < q->noptions; i++) {
		const struct quiz_option *o = &q->options[i];

		render_out_open(out, "li", sample && o->correct ? "option correct" : "option");
		render_out_attr(out, "data-correct", o->correct ? "true" : "false");
		if (sample && o->correct) {
			render_out_open(out, "span", "mark");
			render_out_attr(out, "aria-hidden", "true");
			render_out_text(out, "\xe2\x9c\x93");    /* ✓ */
			render_out_close(out);
			render_out_open(out, "span", "visually-hidden");
			render_out_text(out, S_str(h, "html.correct-answer"));
			render_out_close(out);
			render_out_text(out, " ");
		}
		render_out_open(out, "div", "option-text");
		/* The word the stylesheet adds to a right option once the answer is open. */
		if (o->correct && !sample)
			render_out_attr(out, "data-mark", S_str(h, "html.correct-mark"));
		S_option_text(r, out, &qn->options[i]);
		render_out_close(out);
		if (qn->options[i].feedback && !sample) {
			render_out_open(out, "div", "option-feedback");
			render_out_attr(out, "data-lead", S_str(h, "html.feedback-lead"));
			render_out_children(r, out, qn->options[i].feedback);
			render_out_close(out);
		}
		render_out_close(out);
		render_out_nl(out);
		ncorrect += o->correct != 0;
	}
	render_out_close(out);
	render_out_nl(out);
	if (!sample) {
		render_out_open(out, "details", "answer");
		/* Both wordings, the style sheet showing the one for the state: right without script too. */
		render_out_open(out, "summary", NULL);
		render_out_open(out, "span", "when-closed");
		render_out_text(out, S_str(h, "html.reveal"));
		render_out_close(out);
		render_out_open(out, "span", "when-open");
		render_out_text(out, S_str(h, "html.hide"));
		render_out_close(out);
		render_out_close(out);
		render_out_nl(out);
		render_out_open(out, "p", "answer-key");
		s = S_plural(h, "html.answer-key", ncorrect);
		render_out_text(out, s);
		render_out_text(out, " ");
		free(s);
		co = (struct render_opts){ .site = h->site, .doc = doc, .page_url = page, .copy = 1 };
		copy = render_new(&co);
		for (i = 0, ncorrect = 0; i < q->noptions; i++) {
			char letter[24];

			if (!q->options[i].correct)
				continue;
			if (ncorrect++ > 0)
				render_out_text(out, "; ");
			if (i < 26)
				snprintf(letter, sizeof(letter), "%c", (char)('A' + i));
			else
				snprintf(letter, sizeof(letter), "%zu", i + 1);
			render_out_open(out, "span", "answer-letter");
			render_out_text(out, letter);
			render_out_close(out);
			render_out_text(out, " ");
			render_out_open(out, "span", "answer-text");
			S_option_inline(copy, out, &qn->options[i]);
			render_out_close(out);
		}
		render_free(copy);
		render_out_close(out);
		render_out_nl(out);
	}
explanation:
	render_out_open(out, "div", "explanation");
	if (!S_range_empty(&qn->explanation))
		render_out_blocks(r, out, qn->explanation.first, qn->explanation.last);
	render_out_footnotes(r, out);
	render_out_close(out);
	if (!sample) {
		render_out_nl(out);
		render_out_close(out);      /* the details */
	}
	render_out_nl(out);
	render_out_close(out);
	render_out_nl(out);
	render_free(r);
	free(prefix);
	free(fn_label);
}

struct deeper {
	const struct section *sec;
	size_t chapter, index;     /* positions in the guide, for sorting */
};

static int
S_deeper_cmp(const void *a, const void *b)
{
	const struct deeper *x = a, *y = b;

	if (x->chapter != y->chapter)
		return x->chapter < y->chapter ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int
S_deeper_ptr_cmp(const void *a, const void *b)
{
	uintptr_t p = (uintptr_t)((const struct deeper *)a)->sec;
	uintptr_t q = (uintptr_t)((const struct deeper *)b)->sec;

	return p < q ? -1 : p > q;
}

/*
 * The guide sections a test's questions link to, each once, grouped by
 * chapter in reading order: a list "deeper" of chapters, each with a list
 * "sections".
 */
static void
S_go_deeper(const struct html *h, struct tvars *v, const struct test *t)
{
	struct deeper *guide = NULL, *all = NULL, key;
	size_t nguide = 0, gcap = 0, n = 0, cap = 0, i, k, j, out;
	struct tvars *group = NULL;

	/* Every section's place in the guide, sorted by pointer for lookups. */
	for (i = 0; i < h->site->nchapters; i++)
		for (k = 0; k < h->site->chapters[i]->nsections; k++) {
			guide = xgrow(guide, &gcap, nguide + 1, sizeof(*guide));
			guide[nguide].sec = h->site->chapters[i]->sections[k];
			guide[nguide].chapter = i;
			guide[nguide].index = k;
			nguide++;
		}
	if (nguide == 0)
		goto out;
	qsort(guide, nguide, sizeof(*guide), S_deeper_ptr_cmp);
	for (i = 0; i < t->ntopics; i++)
		for (k = 0; k < t->topics[i]->nquestions; k++) {
			const struct question *q = &t->topics[i]->questions[k];

			for (j = 0; j < q->links_to.len; j++) {
				const struct deeper *hit;

				key.sec = q->links_to.v[j];
				hit = bsearch(&key, guide, nguide, sizeof(*guide), S_deeper_ptr_cmp);
				if (hit == NULL)
					continue;
				all = xgrow(all, &cap, n + 1, sizeof(*all));
				all[n++] = *hit;
			}
		}
	if (n == 0)
		goto out;
	qsort(all, n, sizeof(*all), S_deeper_cmp);
	for (i = 0, out = 0; i < n; i++)
		if (i == 0 || all[i].sec != all[i - 1].sec)
			all[out++] = all[i];
	for (i = 0; i < out; i++) {
		const struct section *sec = all[i].sec;
		struct tvars *it;

		if (i == 0 || sec->chapter != all[i - 1].sec->chapter) {
			group = tvars_item(v, "deeper");
			S_url_var(group, "url", sec->chapter->url, NULL);
			tvars_text(group, "title", sec->chapter->title);
		}
		it = tvars_item(group, "sections");
		S_url_var(it, "url", sec->chapter->url, sec->id);
		tvars_text(it, "title", sec->title);
	}
out:
	free(guide);
	free(all);
}

static int
S_test(struct html *h, const struct test *t, size_t index)
{
	const struct topic_html *th = h->topics + h->first[index];
	const struct config *cfg = &h->site->cfg;
	const char *page = t->url;
	struct tvars *v = S_common(h, PAGE_TEST, page, t->title, t->description, t);
	struct part lede;
	struct buf samples, bank;
	struct doc_tree *tree;
	uint64_t key;
	struct piece lede_html;
	size_t i, n, deflen;
	double secs = 0;
	char *s, num[NUMBER_LEN];
	int rc;

	s = S_plural(h, "counts.questions", t->nquestions);
	S_eyebrow(h, v, "html.test-eyebrow", s);
	free(s);
	key = cache_key_str(S_doc_key(h, "test", t->index, page), t->description);
	if (!S_cached(h, key, 1, &lede_html)) {
		S_part_begin(&lede, h);
		tree = doc_tree_open(t->index);
		S_lede(h, &lede.out, t->index, page, t->description, doc_tree_intro(tree), "intro-");
		doc_tree_close(tree);
		lede_html.s = S_part_bytes(&lede, &lede_html.len);
		S_keep(h, key, 1, &lede_html);
	}
	tvars_html(v, "lede", lede_html.s, lede_html.len);
	s = S_counts(h, t);
	tvars_text(v, "counts", s);
	free(s);

	S_export_vars(h, v, t->slug, 1);

	/* The set-up form's settings. */
	tvars_text(v, "test-slug", t->slug);
	deflen = cfg->quiz.questions > 0 && (size_t)cfg->quiz.questions < t->nquestions ?
	    (size_t)cfg->quiz.questions : t->nquestions;
	s = xasprintf("%zu", deflen);
	tvars_text(v, "length", s);
	free(s);
	s = xasprintf("%zu", t->nquestions);
	tvars_text(v, "max", s);
	free(s);
	tvars_text(v, "reveal", cfg->quiz.reveal == REVEAL_END ? "end" : "each");
	tvars_text(v, cfg->quiz.reveal == REVEAL_END ? "reveal-end" : "reveal-each", "checked");
	s = xasprintf("%ld", cfg->quiz.seconds_easy);
	tvars_text(v, "seconds-easy", s);
	free(s);
	s = xasprintf("%ld", cfg->quiz.seconds_medium);
	tvars_text(v, "seconds-medium", s);
	free(s);
	s = xasprintf("%ld", cfg->quiz.seconds_hard);
	tvars_text(v, "seconds-hard", s);
	free(s);
	s = xasprintf("%g", cfg->quiz.pass_mark);
	tvars_text(v, "pass-mark", s);
	free(s);
	snprintf(num, sizeof(num), "%zu", t->nquestions);
	s = lang_format(h->site->lang, "html.all-topics", "n", num, NULL);
	tvars_text(v, "all-topics", s);
	free(s);
	if (t->nquestions > 0)
		secs = ((double)t->count[0] * (double)cfg->quiz.seconds_easy +
		    (double)t->count[1] * (double)cfg->quiz.seconds_medium +
		    (double)t->count[2] * (double)cfg->quiz.seconds_hard) / (double)t->nquestions;
	{
		long min = (long)((double)deflen * secs / 60.0 + 0.5);

		char *pool = S_plural(h, "counts.in-pool", t->nquestions);
		char *time = lang_plural(h->site->lang, "counts.minutes", min < 1 ? 1 : min, NULL);

		s = xconcat(pool, " \xc2\xb7 ", time, NULL);
		tvars_text(v, "estimate", s);
		free(s);
		free(pool);
		free(time);
	}
	for (i = 0; i < t->ntopics; i++) {
		const struct topic *tp = t->topics[i];
		struct tvars *it = tvars_item(v, "topics");

		tvars_text(it, "slug", tp->slug);
		s = xasprintf("%s (%zu)", tp->title, tp->nquestions);
		tvars_text(it, "label", s);
		free(s);
	}

	/* Samples, then every question by topic: rendered before the pages (S_topics). */
	buf_init(&samples);
	buf_init(&bank);
	for (i = 0; i < t->ntopics; i++) {
		buf_put(&samples, th[i].samples, th[i].samples_len);
		buf_put(&bank, th[i].bank, th[i].bank_len);
	}
	n = samples.len;
	tvars_html(v, "samples", buf_detach(&samples), n);
	s = S_plural(h, "counts.all-questions", t->nquestions);
	tvars_text(v, "bank-title", s);
	free(s);
	n = bank.len;
	tvars_html(v, "questions", buf_detach(&bank), n);
	S_go_deeper(h, v, t);
	rc = S_write_page(h, THEME_TEST, v, page);
	tvars_free(v);
	return rc;
}

/* ---- deck pages -------------------------------------------------------- */

/*
 * A card's two sides as the deck page lists them. A basic card: its
 * heading (h3.card-front), then its back. A cloze card: the heading with
 * its deletion blank, the heading with the answer marked (p.card-answer,
 * which the viewer shows on the back instead of the front), then the
 * back. A reversed card: the back as its front (div.card-front), the
 * heading's text as its back.
 */
static void
S_card_sides(const struct html *h, struct render_out *o, const struct deck *d,
    const struct card *c, const struct card_nodes *cn, struct render *r, const char *page,
    const char *prefix)
{
	if (c->kind == CARD_REVERSED) {
		render_out_open(o, "div", "card-front");
		if (!S_range_empty(&cn->back))
			render_out_blocks(r, o, cn->back.first, cn->back.last);
		render_out_close(o);
		render_out_nl(o);
		render_out_open(o, "div", "card-back");
		render_out_open(o, "p", NULL);
		render_out_children(r, o, cn->heading);
		render_out_close(o);
		render_out_footnotes(r, o);
		render_out_close(o);
		render_out_nl(o);
		return;
	}
	render_out_open(o, "h3", "card-front");
	render_out_children(r, o, cn->heading);
	render_out_close(o);
	render_out_nl(o);
	if (c->kind == CARD_CLOZE) {
		struct render *ra = S_render_cloze(h, d->doc, page, prefix, c->cloze, 1);

		render_out_open(o, "p", "card-answer");
		render_out_children(ra, o, cn->heading);
		render_out_close(o);
		render_out_nl(o);
		render_free(ra);
	}
	render_out_open(o, "div", "card-back");
	if (!S_range_empty(&cn->back))
		render_out_blocks(r, o, cn->back.first, cn->back.last);
	render_out_footnotes(r, o);
	render_out_close(o);
	render_out_nl(o);
}

/* Every card of d as the deck page lists them, into out; tree is d's. */
static void
S_cards(const struct html *h, struct render_out *o, const struct deck *d,
    const struct doc_tree *tree, const char *page)
{
	static const char *const kinds[] = { "card", "card card-cloze", "card card-reversed" };
	size_t i;
	char *s;

	for (i = 0; i < d->ncards; i++) {
		const struct card *c = &d->cards[i];
		const struct card_nodes *cn = doc_tree_card(tree, c);
		char *prefix = xconcat(c->id, "-", NULL);
		struct render *r = c->kind == CARD_CLOZE ? S_render_cloze(h, d->doc, page, prefix, c->cloze, 0)
		    : S_render(h, d->doc, page, prefix);

		render_out_open(o, "li", kinds[c->kind]);
		render_out_attr(o, "id", c->id);
		render_out_attr(o, "data-id", c->id);
		s = xasprintf("%d", c->number);
		render_out_attr(o, "data-number", s);
		free(s);
		render_out_attr(o, "data-label", c->label);
		render_out_attr(o, "data-fingerprint", c->fingerprint);
		render_out_nl(o);
		render_out_open(o, "p", "card-label");
		/* A link to the heading's id lands on its first cloze card. */
		if (c->kind == CARD_CLOZE && (i == 0 || strcmp(d->cards[i - 1].note_id, c->note_id) != 0))
			render_out_attr(o, "id", c->note_id);
		s = xasprintf("%d.", c->number);
		render_out_open(o, "span", "card-number");
		render_out_text(o, s);
		render_out_close(o);
		free(s);
		render_out_text(o, " ");
		render_out_text(o, c->label);
		render_out_close(o);
		render_out_nl(o);
		S_card_sides(h, o, d, c, cn, r, page, prefix);
		render_out_close(o);
		render_out_nl(o);
		render_free(r);
		free(prefix);
	}
}

static int
S_deck(struct html *h, struct deck *d, size_t index)
{
	const char *page = d->url;
	struct tvars *v = S_common(h, PAGE_DECK, page, d->title, d->description, d);
	struct part lede, cards;
	uint64_t key = cache_key_str(S_doc_key(h, "deck", d->doc, page), d->description);
	struct piece p[3];         /* the lede, the cards, the search index's entries */
	struct buf b;
	char *s;
	int rc;

	s = S_plural(h, "counts.cards", d->ncards);
	S_eyebrow(h, v, "html.deck-eyebrow", s);
	free(s);
	if (!S_cached(h, key, 3, p)) {
		struct doc_tree *tree = doc_tree_open(d->doc);

		S_part_begin(&lede, h);
		S_lede(h, &lede.out, d->doc, page, d->description, doc_tree_intro(tree), "intro-");
		p[0].s = S_part_bytes(&lede, &p[0].len);
		S_part_begin(&cards, h);
		S_cards(h, &cards.out, d, tree, page);
		p[1].s = S_part_bytes(&cards, &p[1].len);
		buf_init(&b);
		search_deck(&b, d, tree);
		p[2] = S_piece_of(&b);
		doc_tree_close(tree);
		S_keep(h, key, 3, p);
	}
	tvars_html(v, "lede", p[0].s, p[0].len);
	S_url_var(v, "pdf", d->pdf_url, NULL);
	S_export_vars(h, v, d->slug, 0);
	tvars_text(v, "deck-slug", d->slug);
	s = S_plural(h, "counts.all-cards", d->ncards);
	tvars_text(v, "all-title", s);
	free(s);
	tvars_html(v, "cards", p[1].s, p[1].len);
	h->search_decks[index] = p[2];
	rc = S_write_page(h, THEME_DECK, v, page);
	tvars_free(v);
	return rc;
}

/* ---- guide chapters ---------------------------------------------------- */

/*
 * The href of an item linking from page to a question or card on
 * target's page. A list links to a few pages, each many times: the
 * relative path to the last target is kept.
 */
struct xref_href {
	const char *page, *target;
	char *rel;                 /* page -> target, or NULL for the page itself */
	struct buf b;
};

static const char *
S_xref_href(struct xref_href *xh, const char *target, const char *fragment)
{
	if (xh->target != target) {
		free(xh->rel);
		xh->rel = NULL;
		if (strcmp(xh->page, target) != 0) {
			char *epage = url_encode_path(xh->page), *etarget = url_encode_path(target);

			xh->rel = path_relative(epage, etarget);
			free(epage);
			free(etarget);
		}
		xh->target = target;
	}
	buf_reset(&xh->b);
	buf_put(&xh->b, "", 0);
	if (xh->rel)
		buf_puts(&xh->b, xh->rel);
	buf_putc(&xh->b, '#');
	buf_puts(&xh->b, fragment);
	return buf_str(&xh->b);
}

static void
S_xref_item(const struct lang *l, struct render_out *o, const struct xref *x, struct xref_href *xh)
{
	char num[32], *s;

	render_out_open(o, "li", NULL);
	render_out_open(o, "a", NULL);
	if (x->kind == XREF_QUESTION) {
		const struct question *q = x->u.question;

		render_out_attr(o, "href", S_xref_href(xh, q->topic->test->url, q->id));
		render_out_text(o, q->stem_text);
	} else {
		const struct card *c = x->u.card;

		render_out_attr(o, "href", S_xref_href(xh, c->deck->url, c->id));
		render_out_text(o, c->front_text);
	}
	render_out_close(o);
	render_out_text(o, " ");
	render_out_open(o, "span", "kind");
	if (x->kind == XREF_QUESTION) {
		static const char *const keys[] = { "html.easy", "html.medium", "html.hard" };
		enum difficulty d = x->u.question->difficulty;

		s = lang_format(l, "html.xref-question", "difficulty",
		    lang_get(l, keys[d == DIFF_EASY ? 0 : d == DIFF_HARD ? 2 : 1]), NULL);
	} else {
		snprintf(num, sizeof(num), "%d", x->u.card->number);
		s = lang_format(l, "html.xref-card", "n", num, NULL);
	}
	render_out_text(o, s);
	free(s);
	render_out_close(o);
	render_out_close(o);
	render_out_nl(o);
}

/* "Practise this" after a section that questions or cards link to. */
static void
S_practise(const struct lang *l, struct render_out *o, const struct xref_list *xl, const char *about,
    const char *page)
{
	struct xref_href xh = { page, NULL, NULL, { 0 } };
	char *label;
	size_t i;

	if (xl->len == 0)
		return;
	render_out_open(o, "aside", "practise");
	label = lang_format(l, "html.practise-about", "section", about, NULL);
	render_out_attr(o, "aria-label", label);
	free(label);
	render_out_nl(o);
	render_out_open(o, "h3", "practise-title");
	render_out_text(o, lang_get(l, "html.practise"));
	render_out_close(o);
	render_out_nl(o);
	render_out_open(o, "ul", NULL);
	render_out_nl(o);
	buf_init(&xh.b);
	for (i = 0; i < xl->len; i++)
		S_xref_item(l, o, &xl->v[i], &xh);
	buf_free(&xh.b);
	free(xh.rel);
	render_out_close(o);
	render_out_nl(o);
	render_out_close(o);
	render_out_nl(o);
}

/* What a chapter body's walk finds besides the body: the sections its page lists. */
struct outline {
	const struct section *title;   /* the leading # heading's, which the template shows */
	const struct section **toc;    /* the top-level ## and ### */
	size_t ntoc, cap;
};

/* The "Practise this" list of sec (NULL: of the chapter) where the body has got to. */
static void
S_practise_at(const struct lang *l, struct render_out *o, const struct chapter *c, const struct section *sec)
{
	if (sec)
		S_practise(l, o, &sec->backlinks, sec->title, c->url);
	else
		S_practise(l, o, &c->backlinks, c->title, c->url);
}

/*
 * The practice lists of headings nested in block b, in document order.
 * Only blocks are walked: inline content (most of a page) holds no
 * heading. A loop, not recursion: quotes may nest thousands deep.
 */
static void
S_practise_nested(const struct lang *l, struct render_out *out, const struct chapter *c,
    const struct doc_tree *tree, cmark_node *b)
{
	cmark_node *n = cmark_node_first_child(b), *down;
	const struct section *sec;

	if (n && !md_is_block(n))
		n = NULL;               /* a paragraph, a table cell: text only */
	while (n != NULL) {
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
			if ((sec = doc_tree_section_at(tree, n)) != NULL)
				S_practise_at(l, out, c, sec);
		} else if ((down = cmark_node_first_child(n)) != NULL && md_is_block(down)) {
			n = down;
			continue;
		}
		while (n != b && cmark_node_next(n) == NULL)
			n = cmark_node_parent(n);
		n = n == b ? NULL : cmark_node_next(n);
	}
}

/* The chapter's links that show a question in place (doc_link.embed), in order. */
struct embeds {
	const struct doc_link **v;
	size_t len, cap;
};

static void
S_embeds_find(struct embeds *e, const struct doc *d)
{
	size_t i;

	for (i = 0; d && i < d->nlinks; i++)
		if (d->links[i].embed) {
			e->v = xgrow(e->v, &e->cap, e->len + 1, sizeof(*e->v));
			e->v[e->len++] = &d->links[i];
		}
}

/* The embed that top-level block b is (its only link, at its first line), or NULL. */
static const struct doc_link *
S_embed_at(const struct embeds *e, const struct doc *d, cmark_node *b)
{
	int line;
	size_t i;

	if (e->len == 0 || cmark_node_get_type(b) != CMARK_NODE_PARAGRAPH)
		return NULL;
	line = cmark_node_get_start_line(b) + d->src->body_line - 1;
	for (i = 0; i < e->len; i++)
		if (e->v[i]->line == line)
			return e->v[i];
	return NULL;
}

/*
 * The question paragraph b links to, in its place (the `embed-N` article,
 * N counting the chapter's embeds), then b itself: the author's link
 * text leads to the question in its test.
 */
static void
S_embed(const struct html *h, struct render *r, struct render_out *out, const char *page,
    const struct question *q, cmark_node *b, size_t n)
{
	struct doc_tree *tree = doc_tree_open(q->topic->doc);
	char id[32];

	snprintf(id, sizeof(id), "embed-%zu", n);
	S_question(h, out, q, tree, page, 0, id);
	doc_tree_close(tree);
	render_out_open(out, "div", "embed-source");
	render_out_blocks(r, out, b, b);
	render_out_close(out);
	render_out_nl(out);
}

/* A chapter's body from its open tree into out, and its outline. */
static void
S_chapter_body(const struct html *h, const struct chapter *c, const struct doc_tree *tree,
    struct render_out *out, struct outline *ol)
{
	const struct section *open[8];
	size_t nopen = 0, nembeds = 0;
	struct embeds emb = { NULL, 0, 0 };
	const struct doc_link *u;
	struct render_opts o;
	struct render *r;
	cmark_node *b, *first;

	memset(&o, 0, sizeof(o));
	o.site = h->site;
	o.doc = c->doc;
	o.page_url = c->url;
	o.id_prefix = "";
	o.chapter_tree = tree;
	r = render_new(&o);

	S_embeds_find(&emb, c->doc);
	first = tree ? cmark_node_first_child(doc_tree_root(tree)) : NULL;
	for (b = first; b; b = cmark_node_next(b)) {
		const struct section *sec = NULL;

		if (cmark_node_get_type(b) == CMARK_NODE_HEADING) {
			int level = cmark_node_get_heading_level(b);

			while (nopen > 0 && open[nopen - 1]->level >= level) {
				nopen--;
				S_practise_at(h->site->lang, out, c, open[nopen]);
			}
			sec = doc_tree_section_at(tree, b);
			/* A leading # heading is the chapter's title: the template shows it. */
			if (b == first && level == 1) {
				if (sec) {
					ol->title = sec;
					if (nopen < sizeof(open) / sizeof(open[0]))
						open[nopen++] = sec;
				}
				continue;
			}
			render_out_blocks(r, out, b, b);
			if (sec && nopen < sizeof(open) / sizeof(open[0]))
				open[nopen++] = sec;
			if (sec && (sec->level == 2 || sec->level == 3)) {
				ol->toc = xgrow(ol->toc, &ol->cap, ol->ntoc + 1, sizeof(*ol->toc));
				ol->toc[ol->ntoc++] = sec;
			}
			continue;
		}
		if ((u = S_embed_at(&emb, c->doc, b)) != NULL) {
			S_embed(h, r, out, c->url, u->embed, b, ++nembeds);
			continue;
		}
		render_out_blocks(r, out, b, b);
		/* Headings nested in a block (a quote, a list): their practice goes after it. */
		if (cmark_node_get_type(b) != CMARK_NODE_FOOTNOTE_DEFINITION)
			S_practise_nested(h->site->lang, out, c, tree, b);
	}
	while (nopen > 0) {
		nopen--;
		S_practise_at(h->site->lang, out, c, open[nopen]);
	}
	S_practise_at(h->site->lang, out, c, NULL);
	render_out_footnotes(r, out);
	render_free(r);
	free(emb.v);
}

/*
 * What a chapter's body shows besides its own doc: the questions and
 * cards linking to each section and to the chapter, and their titles.
 */
static uint64_t
S_chapter_key(const struct html *h, const struct chapter *c)
{
	uint64_t k = S_doc_key(h, "chapter", c->doc, c->url);
	size_t i;

	if (h->cache == NULL)
		return 0;
	k = cache_key_str(k, c->slug);
	k = cache_key_str(k, c->title);
	k = S_xrefs_key(k, &c->backlinks);
	k = cache_key_int(k, (long long)c->nsections);
	for (i = 0; i < c->nsections; i++) {
		k = cache_key_str(k, c->sections[i]->title);
		k = S_xrefs_key(k, &c->sections[i]->backlinks);
	}
	/* Each question shown in place: its topic's file, as the test page's key has it. */
	for (i = 0; c->doc && i < c->doc->nlinks; i++) {
		const struct question *q = c->doc->links[i].embed;

		if (q == NULL)
			continue;
		k = cache_key_int(k, (long long)i);
		k = cache_key_str(k, q->id);
		k = cache_key_int(k, q->difficulty);
		k = S_doc_bytes_key(h, k, q->topic->doc);
	}
	k = cache_key_str(k, h->site->cfg.language);
	return k;
}

/*
 * The outline as bytes, to keep beside the body: the title's id, then
 * each contents entry's id, title and level, each string ended by NUL.
 */
static char *
S_outline_bytes(const struct outline *ol, size_t *len)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_puts(&b, ol->title ? "1" : "0");
	if (ol->title)
		buf_puts(&b, ol->title->id);
	buf_put(&b, "", 1);
	for (i = 0; i < ol->ntoc; i++) {
		buf_puts(&b, ol->toc[i]->id);
		buf_put(&b, "", 1);
		buf_puts(&b, ol->toc[i]->title);
		buf_put(&b, "", 1);
		buf_puts(&b, ol->toc[i]->level == 2 ? "2" : "3");
		buf_put(&b, "", 1);
	}
	*len = b.len;
	return buf_detach(&b);
}

/* The outline's template values, from S_outline_bytes's bytes. */
static void
S_outline_vars(struct tvars *v, const char *p, size_t len)
{
	const char *end = p + len;
	char *s;

	if (*p == '1')
		tvars_text(v, "title-id", p + 1);
	p += strlen(p) + 1;
	while (p < end) {
		const char *id = p, *title = id + strlen(id) + 1, *level = title + strlen(title) + 1;
		struct tvars *it = tvars_item(v, "toc");

		s = xconcat("#", id, NULL);
		tvars_text(it, "url", s);
		free(s);
		tvars_text(it, "title", title);
		tvars_text(it, "class", *level == '2' ? "toc-l2" : "toc-l3");
		p = level + strlen(level) + 1;
	}
}

static int
S_chapter(struct html *h, struct chapter *c, size_t index)
{
	const char *page = c->url;
	const char *description = c->doc && c->doc->src ? c->doc->src->fm.description : NULL;
	struct tvars *v = S_common(h, PAGE_CHAPTER, page, c->title, description, NULL);
	struct outline ol = { NULL, NULL, 0, 0 };
	struct part body;
	struct doc_tree *tree;
	uint64_t key;
	struct piece p[3];         /* the body, its outline, the search index's entries */
	struct buf b;
	size_t i;
	char *s, num[NUMBER_LEN], of[NUMBER_LEN];
	int rc;

	s = lang_format(h->site->lang, "html.chapter-eyebrow", "n", S_number(num, index + 1),
	    "total", S_number(of, h->site->nchapters), NULL);
	tvars_text(v, "eyebrow", s);
	free(s);
	tvars_text(v, "lede", description);
	for (i = 0; c->doc && i < c->doc->nlinks; i++)
		if (c->doc->links[i].embed) {
			/* Questions to answer in place: the quiz's style sheet and a script to score them. */
			tvars_text(v, "interactive", "1");
			tvars_text(v, "embeds", "1");
			break;
		}
	key = S_chapter_key(h, c);
	if (!S_cached(h, key, 3, p)) {
		S_part_begin(&body, h);
		tree = c->doc ? doc_tree_open(c->doc) : NULL;
		S_chapter_body(h, c, tree, &body.out, &ol);
		p[0].s = S_part_bytes(&body, &p[0].len);
		p[1].s = S_outline_bytes(&ol, &p[1].len);
		free(ol.toc);
		buf_init(&b);
		search_chapter(&b, c, tree, S_str(h, "search-index.guide"));
		p[2] = S_piece_of(&b);
		doc_tree_close(tree);
		S_keep(h, key, 3, p);
	}
	tvars_html(v, "body", p[0].s, p[0].len);
	S_outline_vars(v, p[1].s, p[1].len);
	free(p[1].s);
	h->search_chapters[index] = p[2];
	if (c->prev) {
		S_url_var(v, "prev-url", c->prev->url, NULL);
		tvars_text(v, "prev-title", c->prev->title);
	}
	if (c->next) {
		S_url_var(v, "next-url", c->next->url, NULL);
		tvars_text(v, "next-title", c->next->title);
	}
	/* Every chapter on every chapter page is quadratic: only for a theme that shows it. */
	for (i = 0; h->chapter_list && i < h->site->nchapters; i++) {
		struct tvars *it = tvars_item(v, "chapters");

		S_url_var(it, "url", h->site->chapters[i]->url, NULL);
		tvars_text(it, "title", h->site->chapters[i]->title);
		if (h->site->chapters[i] == c)
			tvars_text(it, "current", "page");
	}
	rc = S_write_page(h, THEME_CHAPTER, v, page);
	tvars_free(v);
	return rc;
}

/* ---- the guide's contents page ------------------------------------------ */

/* Every chapter with its ## sections, in reading order; written when the guide has chapters. */
static int
S_guide(struct html *h)
{
	const struct site *site = h->site;
	struct tvars *v;
	size_t i, k;
	char *s, num[NUMBER_LEN];
	int rc;

	if (site->nchapters == 0)
		return 0;
	v = S_common(h, PAGE_GUIDE, OUTPUT_GUIDE_CONTENTS, S_str(h, "nav.guide"), NULL, NULL);
	s = S_plural(h, "counts.chapters", site->nchapters);
	tvars_text(v, "eyebrow", s);
	free(s);
	for (i = 0; i < site->nchapters; i++) {
		const struct chapter *c = site->chapters[i];
		struct tvars *it = tvars_item(v, "chapters");

		S_url_var(it, "url", c->url, NULL);
		tvars_text(it, "title", c->title);
		tvars_text(it, "description", c->doc && c->doc->src ? c->doc->src->fm.description : NULL);
		tvars_text(it, "number", S_number(num, i + 1));
		for (k = 0; k < c->nsections; k++) {
			struct tvars *sec;

			if (c->sections[k]->level != 2)
				continue;
			sec = tvars_item(it, "sections");
			S_url_var(sec, "url", c->url, c->sections[k]->id);
			tvars_text(sec, "title", c->sections[k]->title);
		}
	}
	rc = S_write_page(h, THEME_GUIDE, v, OUTPUT_GUIDE_CONTENTS);
	tvars_free(v);
	return rc;
}

/* ---- 404, assets, sitemap ---------------------------------------------- */

static int
S_not_found(struct html *h)
{
	struct tvars *v = S_common(h, PAGE_404, "404.html", S_str(h, "html.not-found-title"), NULL, NULL);
	int rc = S_write_page(h, THEME_NOT_FOUND, v, "404.html");

	tvars_free(v);
	return rc;
}

/*
 * What the service worker shows for a page not saved yet, offline: the
 * 404 part, told by page-offline to say so (offline.h).
 */
static int
S_offline_page(struct html *h)
{
	struct tvars *v = S_common(h, PAGE_OFFLINE, OUTPUT_OFFLINE_PAGE, S_str(h, "offline.title"), NULL, NULL);
	int rc = S_write_page(h, THEME_NOT_FOUND, v, OUTPUT_OFFLINE_PAGE);

	tvars_free(v);
	return rc;
}

/*
 * The files below outdir/assets/ (the theme's, copied first), as paths
 * below outdir compared the way a disk that ignores case or normalises
 * Unicode would (md_casefold), sorted.
 */
static char **
S_theme_files(const char *outdir, size_t *n)
{
	char **files = dir_files(outdir, "assets", n);
	size_t i;

	for (i = 0; i < *n; i++) {
		char *fold = md_casefold(files[i]);

		free(files[i]);
		files[i] = fold;
	}
	strv_sort(files, *n);
	return files;
}

static int
S_cmp_str(const void *key, const void *elem)
{
	return strcmp((const char *)key, *(char *const *)elem);
}

/* An asset's url, source and, from disk, its size and time of change. */
static uint64_t
S_asset_key(const struct html *h, const struct asset *a, const char *from)
{
	uint64_t k;
	struct stat st;

	if (h->cache == NULL)
		return 0;
	k = cache_key_str(cache_key_str(HASH_FNV_SEED, "asset"), a->url);
	k = cache_key_str(k, a->src->rel);
	if (a->src->data)
		return cache_key_bytes(k, a->src->data, a->src->len);
	if (stat(from, &st) == -1)
		return cache_key_int(k, -1);
	k = cache_key_int(k, (long long)st.st_size);
	k = cache_key_int(k, (long long)st.st_mtim.tv_sec);
	return cache_key_int(k, (long long)st.st_mtim.tv_nsec);
}

static int
S_assets(struct html *h)
{
	char *dir = path_join(h->site->root, "content");
	size_t i, len, ntheme = 0;
	char **theme = S_theme_files(h->outdir, &ntheme);
	uint64_t key;
	int rc = -1;

	for (i = 0; i < h->site->nassets; i++) {
		const struct asset *a = &h->site->assets[i];
		char *path = path_join(h->outdir, a->url), *from = NULL, *fold = md_casefold(a->url);
		int bad, clash = ntheme > 0 &&
		    bsearch(fold, theme, ntheme, sizeof(*theme), S_cmp_str) != NULL;

		free(fold);
		if (clash) {
			diag_error(h->dl, a->src->display, 0, 0,
			    "would be written over the theme's out/%s: rename or move it", a->url);
			free(path);
			goto out;
		}

		/* Content loading reads Markdown only; other files are copied from disk. */
		if (a->src->data == NULL)
			from = path_join(dir, a->src->rel);
		/* serve's cache: an asset the last build copied, unchanged since, is there still. */
		key = S_asset_key(h, a, from);
		if (h->cache && cache_get(h->cache, key, &len) != NULL) {
			free(from);
			free(path);
			continue;
		}
		if (a->src->data)
			bad = file_write(path, a->src->data, a->src->len) == -1;
		else
			bad = file_copy(from, path) == -1;
		if (bad)
			diag_error(h->dl, a->src->display, 0, 0, "cannot copy to %s: %s", path, strerror(errno));
		free(from);
		free(path);
		if (bad)
			goto out;
		if (h->cache)
			cache_put(h->cache, key, "", 0);
	}
	rc = 0;
out:
	for (i = 0; i < ntheme; i++)
		free(theme[i]);
	free(theme);
	free(dir);
	return rc;
}

static int
S_sitemap(struct html *h)
{
	const char *base = h->site->cfg.base_url;
	xmlDocPtr doc;
	xmlNodePtr root;
	xmlChar *mem = NULL;
	int len = 0, rc = 0;
	size_t i;

	if (base == NULL || *base == '\0')
		return 0;
	doc = xmlNewDoc((const xmlChar *)"1.0");
	root = xmlNewNode(NULL, (const xmlChar *)"urlset");
	xmlNewProp(root, (const xmlChar *)"xmlns",
	    (const xmlChar *)"http://www.sitemaps.org/schemas/sitemap/0.9");
	xmlDocSetRootElement(doc, root);
	strv_sort(h->urls, h->nurls);
	for (i = 0; i < h->nurls; i++) {
		char *u = url_encode_path(h->urls[i]);
		size_t n = strlen(u);
		xmlNodePtr url = xmlNewChild(root, NULL, (const xmlChar *)"url", NULL);
		char *loc;

		if (path_has_suffix(u, "index.html"))
			n -= strlen("index.html");
		loc = xasprintf("%s/%.*s", base, (int)n, u);
		xmlNewTextChild(url, NULL, (const xmlChar *)"loc", (const xmlChar *)loc);
		free(loc);
		free(u);
	}
	xmlDocDumpFormatMemoryEnc(doc, &mem, &len, "UTF-8", 1);
	rc = S_write_file(h, "sitemap.xml", mem, (size_t)len);
	xmlFree(mem);
	xmlFreeDoc(doc);
	return rc;
}

/* The search index: one file, joined from the pages' entries after the pages. */
static int
S_search(struct html *h)
{
	const struct site *site = h->site;
	struct buf b;
	char *dir = path_join(h->outdir, "assets");
	size_t i;
	int rc;

	/* Made by the theme's assets, unless the theme has none. */
	(void)mkdir(dir, 0777);
	free(dir);
	buf_init(&b);
	search_begin(&b);
	for (i = 0; i < site->nchapters; i++)
		buf_put(&b, h->search_chapters[i].s, h->search_chapters[i].len);
	for (i = 0; i < site->ntests; i++)
		search_questions(&b, site->tests[i]);
	for (i = 0; i < site->ndecks; i++)
		buf_put(&b, h->search_decks[i].s, h->search_decks[i].len);
	search_end(&b);
	rc = S_write_file(h, OUTPUT_SEARCH_INDEX, buf_str(&b), b.len);
	buf_free(&b);
	return rc;
}

/*
 * The learner's strings for the scripts (theme assets/i18n.js reads
 * them): one file, as the search index is, so it loads from file://.
 */
static int
S_strings(struct html *h)
{
	const struct lang *l = h->site->lang;
	struct buf b;
	size_t i;
	int rc;

	buf_init(&b);
	buf_puts(&b, "window.quizdeckStrings = {\"lang\": ");
	buf_put_json_string(&b, h->site->cfg.language && *h->site->cfg.language ? h->site->cfg.language : "en");
	buf_printf(&b, ", \"dir\": \"%s\", \"strings\": {", lang_rtl(l) ? "rtl" : "ltr");
	for (i = 0; i < lang_count(l); i++) {
		buf_puts(&b, i ? ",\n" : "\n");
		buf_put_json_string(&b, lang_key(l, i));
		buf_puts(&b, ": ");
		buf_put_json_string(&b, lang_value(l, i));
	}
	buf_puts(&b, "\n}};\n");
	rc = S_write_file(h, OUTPUT_STRINGS, buf_str(&b), b.len);
	buf_free(&b);
	return rc;
}

static void
S_free_search(struct html *h)
{
	size_t i;

	for (i = 0; h->search_chapters && i < h->site->nchapters; i++)
		free(h->search_chapters[i].s);
	for (i = 0; h->search_decks && i < h->site->ndecks; i++)
		free(h->search_decks[i].s);
	free(h->search_chapters);
	free(h->search_decks);
	h->search_chapters = h->search_decks = NULL;
}

/* ---- the pages, in parallel ------------------------------------------- */

/*
 * Page `i` of the site: the home page, the tests, the decks, the
 * chapters, the guide's contents, 404.html, then offline.html when h->offline.
 */
static int
S_page(struct html *h, size_t i)
{
	const struct site *site = h->site;

	if (i == 0)
		return S_home(h);
	i--;
	if (i < site->ntests)
		return S_test(h, site->tests[i], i);
	i -= site->ntests;
	if (i < site->ndecks)
		return S_deck(h, site->decks[i], i);
	i -= site->ndecks;
	if (i < site->nchapters)
		return S_chapter(h, site->chapters[i], i);
	if (i == site->nchapters)
		return S_guide(h);
	return i == site->nchapters + 1 ? S_not_found(h) : S_offline_page(h);
}

/* What a topic's questions show besides its own doc. */
static uint64_t
S_topic_key(const struct html *h, const struct test *t, const struct topic *tp)
{
	uint64_t k = S_doc_key(h, "topic", tp->doc, t->url);
	size_t i;

	if (h->cache == NULL)
		return 0;
	k = cache_key_str(k, tp->slug);
	k = cache_key_str(k, tp->title);
	k = cache_key_int(k, tp->doc == t->index);
	k = cache_key_int(k, (long long)tp->nquestions);
	for (i = 0; i < tp->nquestions; i++) {
		k = cache_key_str(k, tp->questions[i].id);
		k = cache_key_int(k, tp->questions[i].difficulty);
		k = cache_key_int(k, tp->questions[i].sample);
	}
	/* A number answer says whether a decimal comma is read. */
	k = cache_key_str(k, h->site->cfg.language);
	return k;
}

/* A topic's samples and its section of the bank, with its tree open once. */
static void
S_topic_job(void *arg, size_t job, int worker)
{
	const struct html *h = arg;
	struct topic_html *th = &h->topics[job];
	const struct test *t = th->test;
	const struct topic *tp = th->topic;
	const char *page = t->url;
	uint64_t key;
	struct piece pc[2];
	struct doc_tree *tree;
	struct render_out *o;
	struct part p;
	size_t k;
	char *s;

	(void)worker;
	if (S_stopped(h))
		return;
	key = S_topic_key(h, t, tp);
	if (S_cached(h, key, 2, pc)) {
		th->samples = pc[0].s;
		th->samples_len = pc[0].len;
		th->bank = pc[1].s;
		th->bank_len = pc[1].len;
		return;
	}
	tree = doc_tree_open(tp->doc);
	S_part_begin(&p, h);
	for (k = 0; k < tp->nquestions; k++)
		if (tp->questions[k].sample)
			S_question(h, &p.out, &tp->questions[k], tree, page, 1, NULL);
	th->samples = S_part_bytes(&p, &th->samples_len);

	S_part_begin(&p, h);
	o = &p.out;
	render_out_open(o, "section", "topic");
	s = xconcat("topic-", tp->slug, NULL);
	render_out_attr(o, "id", s);
	free(s);
	render_out_attr(o, "data-topic", tp->slug);
	render_out_attr(o, "data-title", tp->title);
	render_out_nl(o);
	render_out_open(o, "h3", NULL);
	render_out_text(o, tp->title);
	render_out_close(o);
	render_out_nl(o);
	/* A one-file test's introduction is the test's (the lede), not its topic's. */
	if (tp->doc != t->index && !S_range_empty(doc_tree_intro(tree))) {
		char *prefix = xconcat("topic-", tp->slug, "-", NULL);

		render_out_open(o, "div", "topic-intro");
		S_intro(h, o, tp->doc, page, doc_tree_intro(tree), prefix);
		render_out_close(o);
		free(prefix);
		render_out_nl(o);
	}
	for (k = 0; k < tp->nquestions; k++)
		S_question(h, o, &tp->questions[k], tree, page, 0, NULL);
	render_out_close(o);
	render_out_nl(o);
	th->bank = S_part_bytes(&p, &th->bank_len);
	doc_tree_close(tree);
	pc[0].s = th->samples;
	pc[0].len = th->samples_len;
	pc[1].s = th->bank;
	pc[1].len = th->bank_len;
	S_keep(h, key, 2, pc);
}

/*
 * Renders every topic of every test before the pages, a topic on
 * whichever thread is free: a tree is open on one thread only.
 */
static void
S_topics(struct html *h, int nthreads)
{
	const struct site *site = h->site;
	size_t i, j, n = 0;

	h->first = xcalloc(site->ntests + 1, sizeof(*h->first));
	for (i = 0; i < site->ntests; i++) {
		h->first[i] = n;
		n += site->tests[i]->ntopics;
	}
	h->topics = xcalloc(n + 1, sizeof(*h->topics));
	h->ntopics = 0;
	for (i = 0; i < site->ntests; i++)
		for (j = 0; j < site->tests[i]->ntopics; j++) {
			h->topics[h->ntopics].test = site->tests[i];
			h->topics[h->ntopics].topic = site->tests[i]->topics[j];
			h->ntopics++;
		}
	pool_run(nthreads, h->ntopics, S_topic_job, h);
}

static void
S_free_topics(struct html *h)
{
	size_t i;

	for (i = 0; i < h->ntopics; i++) {
		free(h->topics[i].samples);
		free(h->topics[i].bank);
	}
	free(h->topics);
	free(h->first);
	h->topics = NULL;
	h->first = NULL;
	h->ntopics = 0;
}

/* What writing one page left behind. */
struct page_result {
	struct diag_list dl;
	char **urls;
	size_t nurls;
	int rc;
};

struct page_batch {
	const struct html *h;      /* shared: read only while the pages run */
	struct page_result *res;   /* one per page */
	atomic_size_t failed;      /* the first page that failed; later ones need not run */
};

static void
S_page_job(void *arg, size_t job, int worker)
{
	struct page_batch *pb = arg;
	struct page_result *r = &pb->res[job];
	struct html h = *pb->h;
	size_t first;

	(void)worker;
	/* A signal (S_site_write's stop) ends the build between pages. */
	if (job > atomic_load(&pb->failed) || S_stopped(&h)) {
		r->rc = -1;
		goto out;
	}
	h.dl = &r->dl;
	h.urls = NULL;
	h.nurls = h.urls_cap = 0;
	r->rc = S_page(&h, job);
	r->urls = h.urls;
	r->nurls = h.nurls;
out:
	if (r->rc == -1) {
		first = atomic_load(&pb->failed);
		while (job < first && !atomic_compare_exchange_weak(&pb->failed, &first, job))
			;
	}
}

/*
 * Every page, each on whichever thread is free: a page reads the model and
 * the theme and writes only its own file, tree and diagnostics. What the
 * pages leave is gathered in page order, up to the first that failed, as
 * if they had run one after another and stopped there.
 */
static int
S_pages(struct html *h, int nthreads)
{
	const struct site *site = h->site;
	size_t n = 3 + site->ntests + site->ndecks + site->nchapters + (h->offline != 0), i, k;
	struct page_batch pb;
	int rc = 0;

	pb.h = h;
	pb.res = xcalloc(n, sizeof(*pb.res));
	atomic_init(&pb.failed, SIZE_MAX);
	for (i = 0; i < n; i++)
		diag_init(&pb.res[i].dl);
	/* libxml2 sets up its global state here, once, not racing in the threads. */
	xmlInitParser();
	S_free_topics(h);
	S_topics(h, nthreads);
	S_free_search(h);
	h->search_chapters = xcalloc(site->nchapters + 1, sizeof(*h->search_chapters));
	h->search_decks = xcalloc(site->ndecks + 1, sizeof(*h->search_decks));
	if (S_stopped(h)) {
		free(pb.res);
		return -1;
	}
	pool_run(nthreads, n, S_page_job, &pb);
	for (i = 0; i < n; i++) {
		struct page_result *r = &pb.res[i];

		if (rc == 0) {
			diag_move(h->dl, &r->dl);
			h->urls = xgrow(h->urls, &h->urls_cap, h->nurls + r->nurls, sizeof(*h->urls));
			for (k = 0; k < r->nurls; k++)
				h->urls[h->nurls++] = r->urls[k];
			r->nurls = 0;
			rc = r->rc;
		}
		for (k = 0; k < r->nurls; k++)
			free(r->urls[k]);
		free(r->urls);
		diag_free(&r->dl);
	}
	free(pb.res);
	return rc;
}

struct html_site {
	struct theme theme;
	struct html h;
};

static struct html_site *
S_site_open(const struct site *site, struct diag_list *dl)
{
	struct html_site *hs = xcalloc(1, sizeof(*hs));

	if (theme_load(&hs->theme, site->root, site->cfg.theme ? site->cfg.theme : "default", site->lang, dl) == -1) {
		free(hs);
		return NULL;
	}
	hs->h.site = site;
	hs->h.theme = &hs->theme;
	hs->h.chapter_list = theme_uses(&hs->theme, THEME_CHAPTER, "chapters");
	return hs;
}

static void
S_forget_urls(struct html *h)
{
	size_t i;

	for (i = 0; i < h->nurls; i++)
		free(h->urls[i]);
	free(h->urls);
	h->urls = NULL;
	h->nurls = h->urls_cap = 0;
}

/*
 * serve's cache: removes the files the last build wrote that this one
 * did not (the page of a doc deleted, an asset no longer linked), and
 * the folders they leave empty.
 */
static void
S_prune(struct html *h)
{
	static char not_found[] = "404.html", sitemap[] = "sitemap.xml", search[] = OUTPUT_SEARCH_INDEX,
	    strings[] = OUTPUT_STRINGS;
	uint64_t key = cache_key_str(HASH_FNV_SEED, "written");
	char **now = NULL;
	size_t n = 0, cap = 0, i, len;
	const char *was, *p, *end;
	struct buf b;

	now = xgrow(now, &cap, h->nurls + h->site->nassets + 4, sizeof(*now));
	for (i = 0; i < h->nurls; i++)
		now[n++] = h->urls[i];
	for (i = 0; i < h->site->nassets; i++)
		now[n++] = h->site->assets[i].url;
	now[n++] = not_found;
	now[n++] = search;
	now[n++] = strings;
	if (h->site->cfg.base_url && *h->site->cfg.base_url)
		now[n++] = sitemap;
	strv_sort(now, n);
	if ((was = cache_get(h->cache, key, &len)) != NULL)
		for (p = was, end = was + len; p < end; p += strlen(p) + 1) {
			char *path, *dir;

			if (bsearch(p, now, n, sizeof(*now), S_cmp_str) != NULL)
				continue;
			path = path_join(h->outdir, p);
			(void)unlink(path);
			/* Up to outdir itself: rmdir fails on the first folder not empty. */
			for (dir = path_dirname(path); strlen(dir) > strlen(h->outdir) && rmdir(dir) == 0;) {
				char *up = path_dirname(dir);

				free(dir);
				dir = up;
			}
			free(dir);
			free(path);
		}
	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_put(&b, now[i], strlen(now[i]) + 1);
	cache_put(h->cache, key, b.data ? b.data : "", b.len);
	buf_free(&b);
	free(now);
}

static int
S_site_write(struct html_site *hs, const char *outdir, int nthreads,
    const volatile sig_atomic_t *stop, struct diag_list *dl)
{
	struct html *h = &hs->h;
	int rc = -1;

	uint64_t theme_key = cache_key_str(HASH_FNV_SEED, "theme");
	size_t len;

	h->outdir = outdir;
	h->dl = dl;
	h->stop = stop;
	/* serve's cache: a new theme comes with a new cache. */
	if (h->cache == NULL || cache_get(h->cache, theme_key, &len) == NULL) {
		if (theme_copy_assets(&hs->theme, outdir, dl) == -1)
			goto out;
		if (h->cache)
			cache_put(h->cache, theme_key, "", 0);
	}
	if (S_assets(h) == -1)
		goto out;
	if (S_pages(h, nthreads) == -1 || S_sitemap(h) == -1 || S_search(h) == -1 ||
	    S_strings(h) == -1)
		goto out;
	if (h->cache) {
		S_prune(h);
		cache_sweep(h->cache);
	}
	rc = 0;
out:
	S_forget_urls(h);
	return rc;
}

static void
S_site_close(struct html_site *hs)
{
	if (hs == NULL)
		return;
	S_free_topics(&hs->h);
	S_free_search(&hs->h);
	S_forget_urls(&hs->h);
	theme_free(&hs->theme);
	free(hs);
}

int
html_build(const struct site *site, const char *outdir, int nthreads,
    const volatile sig_atomic_t *stop, struct cache *cache, int offline, unsigned exports,
    struct diag_list *dl)
{
	struct html_site *hs = S_site_open(site, dl);
	int rc;

	if (hs == NULL)
		return -1;
	hs->h.cache = outdir ? cache : NULL;
	if (hs->h.cache) {
		size_t i;

		/* A string changed in site.toml's [strings] changes what the pieces say. */
		hs->h.strings_key = cache_key_str(HASH_FNV_SEED, lang_tag(site->lang));
		for (i = 0; i < lang_count(site->lang); i++)
			hs->h.strings_key = cache_key_str(cache_key_str(hs->h.strings_key,
			    lang_key(site->lang, i)), lang_value(site->lang, i));
	}
	hs->h.offline = offline;
	hs->h.exports = exports;
	rc = outdir ? S_site_write(hs, outdir, nthreads, stop, dl) : 0;
	S_site_close(hs);
	return rc;
}

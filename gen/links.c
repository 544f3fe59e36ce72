/*
 * links: every relative link and anchor, checked; backlinks recorded.
 *
 * The links are those the index recorded (struct doc_link): where each
 * is written, and whether it is reference-style. A broken reference
 * definition must be reported once, where it is written, not at each
 * use: definitions are found by scanning the source lines (outside
 * fenced code), checked on their own, and a use of a broken one is not
 * reported again.
 */
#include "links.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "pool.h"
#include "util.h"

/* Resolution. */


enum resolve_status { R_EXTERNAL, R_OK, R_BROKEN };

struct resolution {
	struct doc *doc;               /* R_OK: a page, or NULL for an asset */
	const struct anchor *anchor;   /* the #fragment's target, or NULL */
	struct source *asset;          /* R_OK: a non-Markdown file */
	char *rel;                     /* normalised target below content/ */
	char *frag;                    /* the fragment as written, or NULL */
	int draft;                     /* R_BROKEN: rel is a draft (not an error) */
};

static void
S_resolution_free(struct resolution *r)
{
	free(r->rel);
	free(r->frag);
	memset(r, 0, sizeof(*r));
}

/* "http:", "mailto:", "C:" (but not "x.md:3"): a scheme per RFC 3986. */
static int
S_has_scheme(const char *s)
{
	const char *p = s;

	if (!isalpha((unsigned char)*p))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	return *p == ':';
}

int
links_is_external(const char *dest)
{
	return *dest == '\0' || S_has_scheme(dest) || strncmp(dest, "//", 2) == 0;
}

static int
S_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes %XX escapes (a malformed one stays as written). */
static char *
S_percent_decode(const char *s, size_t n)
{
	struct buf b;
	size_t i;

	/* Most links have nothing to decode. */
	if (memchr(s, '%', n) == NULL)
		return xstrndup(s, n);
	buf_init(&b);
	buf_put(&b, "", 0);
	for (i = 0; i < n; i++) {
		int hi, lo;

		if (s[i] == '%' && i + 2 < n && (hi = S_hex(s[i + 1])) >= 0 &&
		    (lo = S_hex(s[i + 2])) >= 0 && (hi || lo)) {
			buf_putc(&b, hi * 16 + lo);
			i += 2;
		} else
			buf_putc(&b, s[i]);
	}
	return buf_detach(&b);
}

static size_t
S_max_distance(const char *s)
{
	size_t n = strlen(s) / 3;

	return n < 1 ? 1 : n > 3 ? 3 : n;
}

/* The anchor id of d nearest to id, or NULL if none is close. */
static const char *
S_nearest_anchor(const struct doc *d, const char *id)
{
	size_t i, best = (size_t)-1, max = S_max_distance(id), dist;
	const char *found = NULL;

	for (i = 0; i < d->nanchors && i < 20000; i++) {
		if (d->anchors[i].kind == ANCHOR_TOPIC)
			continue;
		dist = str_distance(id, d->anchors[i].id, max);
		if (dist <= max && dist < best) {
			best = dist;
			found = d->anchors[i].id;
		}
	}
	return found;
}

/*
 * The ids of d an author may link to, up to five in reading order, after
 * msg: what to write when no id is near the one written.
 */
static void
S_list_anchors(const struct doc *d, struct buf *msg)
{
	const struct anchor *first[5];
	size_t i, k, n = 0, total = 0;

	for (i = 0; i < d->nanchors; i++) {
		const struct anchor *a = &d->anchors[i];

		if (a->kind == ANCHOR_TOPIC)
			continue;
		total++;
		/* Insertion into the five earliest by line and column. */
		for (k = n; k > 0 && (first[k - 1]->line > a->line ||
		    (first[k - 1]->line == a->line && first[k - 1]->col > a->col)); k--)
			if (k < 5)
				first[k] = first[k - 1];
		if (k < 5) {
			first[k] = a;
			if (n < 5)
				n++;
		}
	}
	if (total == 0) {
		buf_puts(msg, "; it has no ids to link to: link to the file alone");
		return;
	}
	buf_puts(msg, total > n ? "; its first ids are " : total == 1 ? "; its only id is " :
	    "; its ids are ");
	for (k = 0; k < n; k++)
		buf_printf(msg, "%s\"%s\"", k == 0 ? "" : k + 1 == n && total == n ? " and " : ", ",
		    first[k]->id);
	if (total > n)
		buf_printf(msg, " (%zu in all)", total);
}

/*
 * The Markdown file a link to rel as a page's URL ("branches.html",
 * "branches") means, when it exists, or NULL. Caller frees.
 */
static char *
S_page_source(const struct site *site, const char *rel)
{
	const char *base = path_basename(rel), *dot = strrchr(base, '.');
	const struct source *s;
	char *cand;

	if (dot && strcmp(dot, ".html") != 0 && strcmp(dot, ".htm") != 0)
		return NULL;
	cand = dot ? xasprintf("%.*s.md", (int)(dot - rel), rel) : xconcat(rel, ".md", NULL);
	if ((s = content_find(&site->sources, cand)) == NULL || s->kind == SOURCE_ASSET) {
		free(cand);
		return NULL;
	}
	return cand;
}

/* The existing file nearest to rel (both below content/), or NULL. */
static const struct source *
S_nearest_file(const struct site *site, const char *rel)
{
	size_t i, best = (size_t)-1, max = S_max_distance(rel), dist;
	const struct source *found = NULL;
	int md = path_has_suffix(rel, ".md");

	for (i = 0; i < site->sources.len && i < 20000; i++) {
		const struct source *s = site->sources.v[i];

		if ((s->kind != SOURCE_ASSET) != md)
			continue;
		dist = str_distance(rel, s->rel, max);
		if (dist <= max && dist < best) {
			best = dist;
			found = s;
		}
	}
	return found;
}

static const char *
S_anchor_noun(const struct doc *d)
{
	switch (d->src->kind) {
	case SOURCE_TOPIC:
	case SOURCE_TEST_FILE:
		return "question";
	case SOURCE_DECK:
		return "card";
	default:
		return "heading";
	}
}

/*
 * Resolves dest written in doc `from`. R_BROKEN fills msg with what is
 * missing (without the "broken link" prefix).
 */
static enum resolve_status
S_resolve(const struct site *site, struct doc *from, const char *dest,
    struct resolution *r, struct buf *msg)
{
	const char *hash, *query, *end;
	char *path = NULL, *dir = NULL, *joined = NULL;
	enum resolve_status st = R_BROKEN;
	struct source *src;

	memset(r, 0, sizeof(*r));
	if (links_is_external(dest))
		return R_EXTERNAL;
	hash = strchr(dest, '#');
	end = hash ? hash : dest + strlen(dest);
	query = memchr(dest, '?', (size_t)(end - dest));
	if (query)
		end = query;
	if (hash)
		r->frag = xstrdup(hash + 1);
	if (end == dest) {
		/* "#id" (or "?x#id"): this very page. */
		r->doc = from;
		r->rel = xstrdup(from->src->rel);
	} else {
		if (*dest == '/') {
			buf_printf(msg, "a path from the root (/...) does not work offline: write it relative to this file");
			goto out;
		}
		path = S_percent_decode(dest, (size_t)(end - dest));
		dir = path_dirname(from->src->rel);
		joined = path_join(dir, path);
		r->rel = path_normalize(joined);
		if (r->rel == NULL) {
			buf_printf(msg, "it leads outside content/");
			goto out;
		}
		if (*r->rel == '\0' || path[strlen(path) - 1] == '/' ||
		    (content_find(&site->sources, r->rel) == NULL && !path_has_suffix(r->rel, ".md"))) {
			/* A folder: its _index.md (or index.md) stands for it. */
			static const char *const names[] = { "_index.md", "index.md", "README.md" };
			size_t k;

			for (k = 0; k < 3; k++) {
				char *cand = path_join(r->rel, names[k]);

				if (content_find(&site->sources, cand)) {
					free(r->rel);
					r->rel = cand;
					break;
				}
				free(cand);
			}
		}
		src = content_find(&site->sources, r->rel);
		if (src == NULL) {
			const struct source *near;
			char *page;

			if (content_is_draft(&site->sources, r->rel)) {
				buf_printf(msg, "content/%s is a draft (draft = true)", r->rel);
				r->draft = 1;
				goto out;
			}
			buf_printf(msg, "no file content/%s", r->rel);
			if ((page = S_page_source(site, r->rel)) != NULL) {
				char *rel = path_relative(from->src->rel, page);

				buf_printf(msg, "; did you mean \"%s%s\"? (a link names the Markdown file, "
				    "and the page's URL is made from it)", rel, hash ? hash : "");
				free(rel);
				free(page);
			} else if ((near = S_nearest_file(site, r->rel)) != NULL) {
				char *rel = path_relative(from->src->rel, near->rel);

				buf_printf(msg, "; did you mean \"%s\"?", rel);
				free(rel);
			}
			goto out;
		}
		if (src->kind == SOURCE_ASSET) {
			r->asset = src;
			st = R_OK;
			goto out;
		}
		r->doc = site_doc(site, r->rel);
		if (r->doc == NULL) {
			buf_printf(msg, "content/%s could not be read", r->rel);
			goto out;
		}
	}
	if (r->doc->url == NULL) {
		buf_printf(msg, "%s is not a page of the site (pages are index.md and the files in quiz/, cards/ and guide/)",
		    r->doc->src->display);
		goto out;
	}
	if (r->frag && *r->frag && !r->doc->src->broken) {
		char *id = S_percent_decode(r->frag, strlen(r->frag));
		const char *near;

		r->anchor = doc_anchor(r->doc, id);
		if (r->anchor == NULL) {
			buf_printf(msg, "%s has no %s with id \"%s\"", r->doc->src->display,
			    S_anchor_noun(r->doc), id);
			if ((near = S_nearest_anchor(r->doc, id)) != NULL)
				buf_printf(msg, "; did you mean \"%s\"?", near);
			else
				S_list_anchors(r->doc, msg);
			free(id);
			goto out;
		}
		free(id);
	}
	st = R_OK;
out:
	free(path);
	free(dir);
	free(joined);
	return st;
}

/* The output URL of a resolved target (percent-encoded), with its fragment. */
static char *
S_output_path(const struct resolution *r)
{
	const struct doc *d = r->doc;
	char *url = url_encode_path(r->asset ? r->asset->rel : d->url), *res, *slug;

	if (r->asset)
		return url;
	if (r->frag && *r->frag)
		res = xconcat(url, "#", r->frag, NULL);
	else if (d->src->kind == SOURCE_TOPIC && d->topic) {
		slug = url_encode_path(d->topic->slug);
		res = xconcat(url, "#topic-", slug, NULL);
		free(slug);
	} else
		return url;
	free(url);
	return res;
}

char *
links_output_target(const struct site *site, const struct doc *from, const char *dest)
{
	struct resolution r;
	struct buf msg;
	char *out = NULL;

	buf_init(&msg);
	if (S_resolve(site, (struct doc *)from, dest, &r, &msg) == R_OK)
		out = S_output_path(&r);
	S_resolution_free(&r);
	buf_free(&msg);
	return out;
}

const char *
links_asset_path(const struct site *site, const struct doc *from, const char *dest)
{
	const char *path = NULL;
	char *target = links_output_target(site, from, dest);
	size_t i;

	for (i = 0; target && i < site->nassets && !path; i++)
		if (strcmp(site->assets[i].url, target) == 0)
			path = site->assets[i].src->path;
	free(target);
	return path;
}

int
links_url_is_safe(const char *url, int is_image)
{
	char scheme[16];
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)url;

	/* Browsers drop whitespace and controls inside a scheme: "java\tscript:". */
	for (; *p; p++) {
		if (*p <= 0x20 || *p == 0x7f)
			continue;
		if (*p == ':')
			break;
		if (!isalnum(*p) && *p != '+' && *p != '-' && *p != '.')
			return 1;
		if (n + 1 >= sizeof(scheme))
			return 1;
		scheme[n++] = (char)tolower(*p);
	}
	if (*p != ':' || n == 0)
		return 1;
	scheme[n] = '\0';
	if (strcmp(scheme, "javascript") == 0 || strcmp(scheme, "vbscript") == 0 ||
	    strcmp(scheme, "file") == 0)
		return 0;
	if (strcmp(scheme, "data") == 0) {
		static const char *const ok[] = { "image/png", "image/gif", "image/jpeg", "image/webp" };
		size_t i;

		if (!is_image)
			return 0;
		for (p++; *p && *p <= 0x20; p++)
			;
		for (i = 0; i < 4; i++)
			if (strncasecmp((const char *)p, ok[i], strlen(ok[i])) == 0)
				return 1;
		return 0;
	}
	return 1;
}

/* Reference definitions, from the source. */

struct refdef {
	char *dest;
	int line, col;                 /* of the "[" */
	int broken;
};

struct refdefs {
	struct refdef *v;
	size_t len, cap;
};

static void
S_refdefs_free(struct refdefs *rd)
{
	size_t i;

	for (i = 0; i < rd->len; i++)
		free(rd->v[i].dest);
	free(rd->v);
	memset(rd, 0, sizeof(*rd));
}

static int
S_cmp_refdef(const void *a, const void *b)
{
	const struct refdef *x = a, *y = b;
	int c = strcmp(x->dest, y->dest);

	return c ? c : x->line - y->line;
}

/* Skips up to 3 spaces and any block-quote markers; returns the offset. */
static size_t
S_skip_prefix(const char *s, size_t n, size_t *indent)
{
	size_t i = 0, sp;

	for (;;) {
		for (sp = 0; i < n && s[i] == ' '; i++)
			sp++;
		if (i < n && s[i] == '>' && sp <= 3) {
			i++;
			if (i < n && s[i] == ' ')
				i++;
			continue;
		}
		*indent = sp;
		return i;
	}
}

/* A fence line: 3+ backticks or tildes; returns its char and length. */
static int
S_fence(const char *s, size_t n, char *ch, size_t *len)
{
	size_t i = 0;

	if (n < 3 || (s[0] != '`' && s[0] != '~'))
		return 0;
	while (i < n && s[i] == s[0])
		i++;
	if (i < 3)
		return 0;
	*ch = s[0];
	*len = i;
	return 1;
}

/*
 * What may follow a definition's destination on its line: nothing, or a
 * title in "", '' or () after a space (possibly going on to later lines).
 */
static int
S_def_tail_ok(const char *s, size_t n)
{
	size_t i = 0, k;
	char close;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n)
		return 1;
	if (i == 0 || (s[i] != '"' && s[i] != '\'' && s[i] != '('))
		return 0;
	close = s[i] == '(' ? ')' : s[i];
	for (k = i + 1; k < n; k++) {
		if (s[k] == '\\' && k + 1 < n) {
			k++;
			continue;
		}
		if (s[k] == close)
			break;
	}
	if (k == n)
		return 1;
	for (k++; k < n; k++)
		if (s[k] != ' ' && s[k] != '\t')
			return 0;
	return 1;
}

/*
 * Finds `[label]: destination` lines. A definition cannot interrupt a
 * paragraph, so it must follow a blank line, another definition, a
 * heading or a fence, or open the body.
 */
static void
S_scan_refdefs(struct doc *d, struct refdefs *rd)
{
	int line, last = d->src->body_line + (int)d->nlines;
	int may_start = 1, in_fence = 0;
	char fence_ch = 0;
	size_t fence_len = 0;
	size_t cap = rd->cap;

	for (line = d->src->body_line; line < last; line++) {
		size_t n, i, indent, start, j;
		const char *s = doc_line(d, line, &n);
		char ch;
		size_t flen;
		struct buf dest;

		if (s == NULL)
			break;
		i = S_skip_prefix(s, n, &indent);
		if (in_fence) {
			if (S_fence(s + i, n - i, &ch, &flen) && ch == fence_ch && flen >= fence_len) {
				size_t k;

				for (k = i + flen; k < n && (s[k] == ' ' || s[k] == '\t'); k++)
					;
				if (k == n) {
					in_fence = 0;
					may_start = 1;
				}
			}
			continue;
		}
		if (i == n) {
			may_start = 1;
			continue;
		}
		if (indent <= 3 && S_fence(s + i, n - i, &fence_ch, &fence_len)) {
			in_fence = 1;
			continue;
		}
		if (indent <= 3 && s[i] == '#') {
			may_start = 1;
			continue;
		}
		if (!may_start || indent > 3 || s[i] != '[' || i + 1 >= n || s[i + 1] == '^') {
			may_start = 0;
			continue;
		}
		start = i;
		for (j = i + 1; j < n && s[j] != ']'; j++) {
			if (s[j] == '\\' && j + 1 < n)
				j++;
			else if (s[j] == '[')
				break;
		}
		if (j >= n || s[j] != ']' || j == i + 1 || j + 1 >= n || s[j + 1] != ':') {
			may_start = 0;
			continue;
		}
		for (j += 2; j < n && (s[j] == ' ' || s[j] == '\t'); j++)
			;
		if (j == n) {
			may_start = 0;
			continue;
		}
		buf_init(&dest);
		buf_put(&dest, "", 0);
		if (s[j] == '<') {
			for (j++; j < n && s[j] != '>'; j++) {
				if (s[j] == '\\' && j + 1 < n && ispunct((unsigned char)s[j + 1]))
					j++;
				buf_putc(&dest, s[j]);
			}
			if (j == n) {
				buf_free(&dest);
				may_start = 0;
				continue;
			}
			j++;
		} else
			for (; j < n && s[j] != ' ' && s[j] != '\t'; j++) {
				if (s[j] == '\\' && j + 1 < n && ispunct((unsigned char)s[j + 1]))
					j++;
				buf_putc(&dest, s[j]);
			}
		if (!S_def_tail_ok(s + j, n - j)) {
			/* "[note]: this is it" is a paragraph, not a definition. */
			buf_free(&dest);
			may_start = 0;
			continue;
		}
		rd->v = xgrow(rd->v, &cap, rd->len + 1, sizeof(*rd->v));
		rd->v[rd->len].dest = buf_detach(&dest);
		rd->v[rd->len].line = line;
		rd->v[rd->len].col = (int)start + 1;
		rd->v[rd->len].broken = 0;
		rd->len++;
		rd->cap = cap;
		/* Another definition may follow directly. */
		may_start = 1;
	}
}

static const struct refdef *
S_find_refdef(const struct refdefs *rd, const char *dest)
{
	size_t lo = 0, hi = rd->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(rd->v[mid].dest, dest) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rd->len && strcmp(rd->v[lo].dest, dest) == 0 ? &rd->v[lo] : NULL;
}

/* Backlinks. */

struct owner {
	struct question *q;
	struct card *c;
};

static void
S_xref_add(struct xref_list *l, const struct owner *o)
{
	struct xref *last = l->len ? &l->v[l->len - 1] : NULL;

	/* One owner's links are recorded together, so a repeat is the last entry. */
	if (last && ((o->q && last->kind == XREF_QUESTION && last->u.question == o->q) ||
	    (o->c && last->kind == XREF_CARD && last->u.card == o->c)))
		return;
	l->v = xgrow(l->v, &l->cap, l->len + 1, sizeof(*l->v));
	if (o->q) {
		l->v[l->len].kind = XREF_QUESTION;
		l->v[l->len].u.question = o->q;
	} else {
		l->v[l->len].kind = XREF_CARD;
		l->v[l->len].u.card = o->c;
	}
	l->len++;
}

static void
S_section_add(struct section_list *l, struct section *s)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (l->v[i] == s)
			return;
	l->v = xgrow(l->v, &l->cap, l->len + 1, sizeof(*l->v));
	l->v[l->len++] = s;
}

/*
 * What walking a doc found that changes the model: a backlink (to a
 * section, or to a chapter as a whole) or a file to copy. Docs are walked
 * in parallel, each into its own list; the lists are applied one after
 * another in model order (S_apply), so the result is the same for any
 * number of threads.
 */
struct record {
	struct owner o;
	struct section *section;       /* a backlink to this section, or */
	struct chapter *chapter;       /* to this chapter, or */
	struct source *asset;          /* a file to copy, or */
	char *draft;                   /* a link to this draft (rel), written at */
	const char *from;              /* this file's */
	int line, col;                 /* line and column */
};

struct record_list {
	struct record *v;
	size_t len, cap;
	size_t links;                  /* links and images checked */
};

static void
S_record_add(struct record_list *rl, const struct record *r)
{
	rl->v = xgrow(rl->v, &rl->cap, rl->len + 1, sizeof(*rl->v));
	rl->v[rl->len++] = *r;
}

static void
S_record(struct record_list *rl, const struct resolution *r, const struct owner *o)
{
	struct record rec;

	if (o->q == NULL && o->c == NULL)
		return;
	if (r->doc == NULL || r->doc->chapter == NULL)
		return;
	memset(&rec, 0, sizeof(rec));
	rec.o = *o;
	if (r->anchor && r->anchor->kind == ANCHOR_HEADING && r->anchor->u.section)
		rec.section = r->anchor->u.section;
	else if (r->anchor == NULL)
		rec.chapter = r->doc->chapter;
	else
		return;
	S_record_add(rl, &rec);
}

static void
S_apply(struct site *site, struct record_list *rl)
{
	size_t i;

	for (i = 0; i < rl->len; i++) {
		const struct record *r = &rl->v[i];

		if (r->draft) {
			free(r->draft);
			continue;
		}
		if (r->asset) {
			site->assets = xgrow(site->assets, &site->assets_cap, site->nassets + 1,
			    sizeof(*site->assets));
			site->assets[site->nassets].src = r->asset;
			site->assets[site->nassets].url = xstrdup(r->asset->rel);
			site->nassets++;
		} else if (r->section) {
			S_xref_add(&r->section->backlinks, &r->o);
			S_section_add(r->o.q ? &r->o.q->links_to : &r->o.c->links_to, r->section);
		} else
			S_xref_add(&r->chapter->backlinks, &r->o);
	}
	site->stats.links += rl->links;
	free(rl->v);
	memset(rl, 0, sizeof(*rl));
}

/* Walking one doc. */

/* A link or image as written in a doc; dest borrowed from the tree. */
struct walker {
	const struct site *site;
	struct diag_list *dl;
	struct record_list *rec;
	struct doc *doc;
	struct refdefs defs;
};

static void
S_asset_add(struct walker *w, struct source *src)
{
	struct record rec;

	memset(&rec, 0, sizeof(rec));
	rec.asset = src;
	S_record_add(w->rec, &rec);
}

/* Checks one destination; reports at line:col unless quiet. */
static enum resolve_status
S_check(struct walker *w, const char *dest, int is_image, int line, int col, int quiet,
    struct resolution *r)
{
	struct buf msg;
	enum resolve_status st;

	buf_init(&msg);
	/*
	 * A browser drops spaces and controls in a scheme ("java\tscript:"):
	 * such a destination is no relative path but an unsafe URL.
	 */
	if (!links_url_is_safe(dest, is_image)) {
		memset(r, 0, sizeof(*r));
		st = R_EXTERNAL;
	} else
		st = S_resolve(w->site, w->doc, dest, r, &msg);
	if (st == R_EXTERNAL) {
		if (!links_url_is_safe(dest, is_image) && !quiet)
			diag_warning(w->dl, w->doc->src->display, line, col,
			    "%s to an unsafe URL \"%.40s\" is left out of the output",
			    is_image ? "image" : "link", dest);
	} else if (st == R_BROKEN && r->draft) {
		/* Allowed, shown as its text: one warning per draft (S_drafts_report). */
		if (!quiet) {
			struct record rec;

			memset(&rec, 0, sizeof(rec));
			rec.draft = xstrdup(r->rel);
			rec.from = w->doc->src->display;
			rec.line = line;
			rec.col = col;
			S_record_add(w->rec, &rec);
		}
	} else if (st == R_BROKEN) {
		if (!quiet)
			diag_error(w->dl, w->doc->src->display, line, col,
			    "broken %s \"%s\": %s", is_image ? "image" : "link", dest, buf_str(&msg));
	} else if (r->asset)
		S_asset_add(w, r->asset);
	buf_free(&msg);
	return st;
}

/*
 * Checks one use of a link; what it leads to goes to the records (for
 * backlinks), and an alone link to a question becomes an embed. A linked
 * file is recorded (S_check) in any case.
 */
static void
S_link_check(struct walker *w, struct doc_link *u, const struct owner *o)
{
	struct resolution r;
	enum resolve_status st;

	u->embed = NULL;
	st = S_check(w, u->dest, u->is_image, u->line, u->col, u->ref, &r);
	if (st != R_EXTERNAL)
		w->rec->links++;
	if (st == R_BROKEN && u->ref) {
		/* Reported at its definition, unless none was found there. */
		if (S_find_refdef(&w->defs, u->dest) == NULL) {
			S_resolution_free(&r);
			S_check(w, u->dest, u->is_image, u->line, u->col, 0, &r);
		}
	}
	if (st == R_OK) {
		S_record(w->rec, &r, o);
		/* A draft's question is no page: its link shows as text (S_check). */
		if (u->alone && r.anchor && r.anchor->kind == ANCHOR_QUESTION)
			u->embed = r.anchor->u.question;
	}
	S_resolution_free(&r);
}

static void
S_walk_doc(struct walker *w, struct doc *d)
{
	struct owner o = { NULL, NULL };
	size_t i;

	/* A file that is no page is not part of the site; its links are its own. */
	if (d->url == NULL)
		return;
	w->doc = d;
	memset(&w->defs, 0, sizeof(w->defs));
	{
		size_t len;

		doc_line(d, d->src->body_line, &len);   /* builds the line index */
		S_scan_refdefs(d, &w->defs);
	}
	for (i = 0; i < w->defs.len; i++) {
		struct resolution r;

		if (S_check(w, w->defs.v[i].dest, 0, w->defs.v[i].line, w->defs.v[i].col, 0, &r) == R_BROKEN)
			w->defs.v[i].broken = 1;
		S_resolution_free(&r);
	}
	if (w->defs.len > 1)
		qsort(w->defs.v, w->defs.len, sizeof(*w->defs.v), S_cmp_refdef);
	for (i = 0; i < d->nlinks; i++) {
		o.q = d->links[i].q;
		o.c = d->links[i].c;
		S_link_check(w, &d->links[i], &o);
	}
	S_refdefs_free(&w->defs);
}

/* One doc's walk, on whichever thread is free. */
struct walk_batch {
	struct site *site;
	struct doc **order;
	struct record_list *rec;
	struct diag_list *dls;
};

static void
S_walk_job(void *arg, size_t job, int worker)
{
	struct walk_batch *wb = arg;
	struct walker w;

	(void)worker;
	memset(&w, 0, sizeof(w));
	w.site = wb->site;
	w.dl = &wb->dls[job];
	w.rec = &wb->rec[job];
	S_walk_doc(&w, wb->order[job]);
}

static int
S_cmp_asset(const void *a, const void *b)
{
	return strcmp(((const struct asset *)a)->url, ((const struct asset *)b)->url);
}

/* site->assets sorted by url, each once. */
static void
S_assets_unique(struct site *site)
{
	size_t i, j;

	if (site->nassets > 1)
		qsort(site->assets, site->nassets, sizeof(*site->assets), S_cmp_asset);
	for (i = j = 0; i < site->nassets; i++) {
		if (j > 0 && strcmp(site->assets[j - 1].url, site->assets[i].url) == 0) {
			free(site->assets[i].url);
			continue;
		}
		site->assets[j++] = site->assets[i];
	}
	site->nassets = j;
}

/* A link to a draft, and where it stands in model order. */
struct draft_link {
	const struct record *r;
	size_t doc, pos;
};

static int
S_cmp_draft_link(const void *a, const void *b)
{
	const struct draft_link *x = a, *y = b;
	int c = strcmp(x->r->draft, y->r->draft);

	if (c)
		return c;
	if (x->doc != y->doc)
		return x->doc < y->doc ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * A link to a draft is no error: the page shows its text, unlinked, and
 * each linked draft gets one warning where draft = true is written,
 * naming the first link (in model order) and how many there are. recs:
 * the records of every doc, in model order.
 */
static void
S_drafts_report(const struct site *site, const struct record_list *recs, size_t n,
    struct diag_list *dl)
{
	struct draft_link *v = NULL;
	size_t i, j, len = 0, cap = 0;
	int line, col;

	for (i = 0; i < n; i++)
		for (j = 0; j < recs[i].len; j++)
			if (recs[i].v[j].draft) {
				v = xgrow(v, &cap, len + 1, sizeof(*v));
				v[len].r = &recs[i].v[j];
				v[len].doc = i;
				v[len++].pos = j;
			}
	if (len > 1)
		qsort(v, len, sizeof(*v), S_cmp_draft_link);
	for (i = 0; i < len; i = j) {
		const struct record *first = v[i].r;
		char *display;

		for (j = i + 1; j < len && strcmp(v[j].r->draft, first->draft) == 0; j++)
			;
		if (!content_draft_at(&site->sources, first->draft, &line, &col))
			continue;
		display = xconcat("content/", first->draft, NULL);
		if (j - i == 1)
			diag_warning(dl, display, line, col, "this draft is linked from %s:%d:%d: "
			    "the link shows as plain text until the draft is published (draft = false)",
			    first->from, first->line, first->col);
		else
			diag_warning(dl, display, line, col, "this draft is linked from %s:%d:%d "
			    "and %zu other places: the links show as plain text until the draft "
			    "is published (draft = false)", first->from, first->line, first->col, j - i - 1);
		free(display);
	}
	free(v);
}

int
links_resolve(struct site *site, struct diag_list *dl)
{
	struct walk_batch wb;
	size_t errors = dl->errors, n = 0, i, j, k;

	/*
	 * Model order, so backlinks list questions and cards in reading order:
	 * the tests' topics, the decks, then every other doc.
	 */
	wb.site = site;
	for (i = 0, k = site->ndocs + site->ndecks + 1; i < site->ntests; i++)
		k += site->tests[i]->ntopics;
	wb.order = xcalloc(k, sizeof(*wb.order));
	for (i = 0; i < site->ntests; i++)
		for (j = 0; j < site->tests[i]->ntopics; j++)
			wb.order[n++] = site->tests[i]->topics[j]->doc;
	for (i = 0; i < site->ndecks; i++)
		wb.order[n++] = site->decks[i]->doc;
	for (k = 0; k < site->ndocs; k++) {
		const struct doc *d = site->docs[k];

		if (!(d->topic && d->topic->doc == d) && !d->deck)
			wb.order[n++] = site->docs[k];
	}
	wb.rec = xcalloc(n + 1, sizeof(*wb.rec));
	wb.dls = xcalloc(n + 1, sizeof(*wb.dls));
	for (i = 0; i < n; i++)
		diag_init(&wb.dls[i]);
	pool_run(site->jobs, n, S_walk_job, &wb);
	S_drafts_report(site, wb.rec, n, dl);
	for (i = 0; i < n; i++) {
		S_apply(site, &wb.rec[i]);
		diag_move(dl, &wb.dls[i]);
		diag_free(&wb.dls[i]);
	}
	free(wb.rec);
	free(wb.dls);
	free(wb.order);
	S_assets_unique(site);
	return dl->errors > errors ? -1 : 0;
}


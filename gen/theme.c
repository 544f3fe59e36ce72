/*
 * theme: locating a theme, parsing its templates with libxml2's HTML
 * parser, and writing pages from them.
 *
 * A page is written in one walk of the parsed templates, straight into
 * bytes, with the values filled in; nothing is built for it. The walk is
 * one loop (no recursion), except that each data-qd-repeat item is
 * filled by a nested call; templates may nest repeats at most
 * THEME_MAX_NESTING deep, so the depth is bounded by a constant, never
 * by content.
 */
#include "theme.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>

#include "lang.h"
#include "links.h"
#include "util.h"

#define THEME_MAX_NESTING 8
#define ATTR_PREFIX "data-qd-"

static int
S_is_template_attr(const xmlChar *name)
{
	/* Asked of every attribute of every template element: most fail at the first letter. */
	return name[0] == ATTR_PREFIX[0] &&
	    strncmp((const char *)name, ATTR_PREFIX, strlen(ATTR_PREFIX)) == 0;
}

/* The node after n's subtree in document order, not leaving root. */
static xmlNodePtr
S_after(xmlNodePtr n, xmlNodePtr root)
{
	while (n && n != root) {
		if (n->next)
			return n->next;
		n = n->parent;
	}
	return NULL;
}

xmlNodePtr
theme_next_node(xmlNodePtr n, xmlNodePtr top)
{
	if (n->type == XML_ELEMENT_NODE && n->children)
		return n->children;
	return S_after(n, top);
}

static const char *const S_part_names[THEME_NPARTS] = {
	"home", "test", "deck", "chapter", "guide", "404",
};

enum tval_kind { TV_TEXT, TV_HTML, TV_LIST };

struct tval {
	const char *name;          /* not copied: a string literal (theme.h) */
	enum tval_kind kind;
	char *text;                /* TV_TEXT: in the arena; TV_HTML: malloc'd, the value's own */
	size_t len;                /* TV_HTML */
	struct tvars **items;      /* TV_LIST */
	size_t nitems, cap;
};

/*
 * A page's values live as long as the page: a scope and its items,
 * their arrays and texts are carved from chunks that tvars_free drops
 * whole. A page made a hundred small allocations for them, freed one by
 * one, in a heap shared with the bodies waiting for their pages.
 */
struct tarena {
	struct tchunk *chunks;
};

struct tchunk {
	struct tchunk *next;
	size_t used, size;
	max_align_t data[];
};

#define TCHUNK 4096

struct tvars {
	struct tval *v;
	size_t len, cap;
	struct tarena *arena;      /* the root's, shared by its items */
};

static void *
S_talloc(struct tarena *a, size_t n)
{
	struct tchunk *c = a->chunks;
	void *p;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (c == NULL || c->size - c->used < n) {
		size_t size = n > TCHUNK ? n : TCHUNK;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = a->chunks;
		a->chunks = c;
	}
	p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

/* xgrow in the arena: the old array stays where it was, unused, until the page is done. */
static void *
S_tgrow(struct tarena *a, void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap * 2 : 8;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	q = S_talloc(a, n * size);
	if (*cap)
		memcpy(q, p, *cap * size);
	*cap = n;
	return q;
}

static struct tvars *
S_tvars_in(struct tarena *a)
{
	struct tvars *v = S_talloc(a, sizeof(*v));

	memset(v, 0, sizeof(*v));
	v->arena = a;
	return v;
}

struct tvars *
tvars_new(void)
{
	struct tarena *a = xcalloc(1, sizeof(*a));

	return S_tvars_in(a);
}

/* Frees what is not the arena's: the HTML values. */
static void S_tvars_clear(struct tvars *v);

static void
S_tval_clear(struct tval *tv)
{
	size_t i;

	if (tv->kind == TV_HTML)
		free(tv->text);
	tv->text = NULL;
	tv->len = 0;
	for (i = 0; i < tv->nitems; i++)
		S_tvars_clear(tv->items[i]);
	tv->items = NULL;
	tv->nitems = tv->cap = 0;
}

static void
S_tvars_clear(struct tvars *v)
{
	size_t i;

	for (i = 0; i < v->len; i++)
		S_tval_clear(&v->v[i]);
}

void
tvars_free(struct tvars *v)
{
	struct tarena *a;
	struct tchunk *c;

	if (v == NULL)
		return;
	a = v->arena;
	S_tvars_clear(v);
	while ((c = a->chunks) != NULL) {
		a->chunks = c->next;
		free(c);
	}
	free(a);
}

static struct tval *
S_lookup(const struct tvars *v, const char *name)
{
	size_t i;

	/* The first letter before the call: a page's values are looked up by every directive. */
	for (i = 0; v && i < v->len; i++)
		if (v->v[i].name[0] == name[0] && strcmp(v->v[i].name, name) == 0)
			return &v->v[i];
	return NULL;
}

/* The slot for name, emptied; created if new. */
static struct tval *
S_slot(struct tvars *v, const char *name)
{
	struct tval *tv = S_lookup(v, name);

	if (tv) {
		S_tval_clear(tv);
		return tv;
	}
	v->v = S_tgrow(v->arena, v->v, &v->cap, v->len + 1, sizeof(*v->v));
	tv = &v->v[v->len++];
	memset(tv, 0, sizeof(*tv));
	tv->name = name;
	return tv;
}

void
tvars_text(struct tvars *v, const char *name, const char *text)
{
	struct tval *tv;
	size_t n;

	if (text == NULL)
		return;
	tv = S_slot(v, name);
	tv->kind = TV_TEXT;
	n = strlen(text) + 1;
	tv->text = memcpy(S_talloc(v->arena, n), text, n);
}

void
tvars_html(struct tvars *v, const char *name, char *html, size_t len)
{
	struct tval *tv = S_slot(v, name);

	tv->kind = TV_HTML;
	tv->text = html;
	tv->len = len;
}

struct tvars *
tvars_item(struct tvars *v, const char *name)
{
	struct tval *tv = S_lookup(v, name);

	if (tv == NULL || tv->kind != TV_LIST) {
		tv = S_slot(v, name);
		tv->kind = TV_LIST;
	}
	tv->items = S_tgrow(v->arena, tv->items, &tv->cap, tv->nitems + 1, sizeof(*tv->items));
	tv->items[tv->nitems] = S_tvars_in(v->arena);
	return tv->items[tv->nitems++];
}

/* A value counts as set when it has text, markup, or list items. */
static int
S_is_set(const struct tval *tv)
{
	if (tv == NULL)
		return 0;
	switch (tv->kind) {
	case TV_TEXT:
		return tv->text[0] != '\0';
	case TV_HTML:
		return tv->len > 0;
	case TV_LIST:
		return tv->nitems > 0;
	}
	return 0;
}

/* ---- locating and loading -------------------------------------------- */

static int
S_name_ok(const char *name)
{
	return name[0] != '\0' && name[0] != '.' && strchr(name, '/') == NULL;
}

/* Checks every data-qd-* attribute of a template, reporting file:line. */
static int
S_check_template(xmlDocPtr doc, const char *file, struct diag_list *dl)
{
	xmlNodePtr n = xmlDocGetRootElement(doc);
	int rc = 0;

	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlAttrPtr a;

			for (a = n->properties; a; a = a->next) {
				const char *an = (const char *)a->name;
				const char *rest;
				xmlChar *val;

				if (strncmp(an, ATTR_PREFIX, strlen(ATTR_PREFIX)) != 0)
					continue;
				rest = an + strlen(ATTR_PREFIX);
				if (strcmp(rest, "slot") != 0 && strcmp(rest, "if") != 0 &&
				    strcmp(rest, "replace") != 0 &&
				    strcmp(rest, "repeat") != 0 && strcmp(rest, "t") != 0 &&
				    !(strncmp(rest, "attr-", 5) == 0 && rest[5] != '\0') &&
				    !(strncmp(rest, "t-", 2) == 0 && rest[2] != '\0')) {
					diag_error(dl, file, (int)xmlGetLineNo(n), 0,
					    "unknown template attribute \"%s\" (see the theme README)", an);
					rc = -1;
					continue;
				}
				/* Script and style content is written raw: no value goes there. */
				if ((strcmp(rest, "slot") == 0 || strcmp(rest, "t") == 0) && (xmlStrcasecmp(n->name, (const xmlChar *)"script") == 0 ||
				    xmlStrcasecmp(n->name, (const xmlChar *)"style") == 0)) {
					diag_error(dl, file, (int)xmlGetLineNo(n), 0,
					    "template attribute \"%s\" on <%s>: values may not fill a script or style",
					    an, (const char *)n->name);
					rc = -1;
					continue;
				}
				/* Content in a script context would run: values fill no such attribute. */
				if ((strncmp(rest, "attr-", 5) == 0 || strncmp(rest, "t-", 2) == 0) &&
				    (strncasecmp(strchr(rest, '-') + 1, "on", 2) == 0 ||
				    strcasecmp(strchr(rest, '-') + 1, "style") == 0 ||
				    strcasecmp(strchr(rest, '-') + 1, "srcdoc") == 0)) {
					diag_error(dl, file, (int)xmlGetLineNo(n), 0,
					    "template attribute \"%s\": values may not fill event handlers, "
					    "style or srcdoc", an);
					rc = -1;
					continue;
				}
				val = xmlNodeGetContent((xmlNodePtr)a);
				if (val == NULL || val[0] == '\0' ||
				    (val[0] == '!' && (strcmp(rest, "if") != 0 || val[1] == '\0'))) {
					diag_error(dl, file, (int)xmlGetLineNo(n), 0,
					    "template attribute \"%s\" needs a value name", an);
					rc = -1;
				}
				xmlFree(val);
			}
		}
		n = theme_next_node(n, NULL);
	}
	return rc;
}

/*
 * ---- the values pages provide -------------------------------------------
 *
 * Every name html.c sets, by kind of page and by list item: what
 * themes/default/README.md documents. A template naming anything else
 * names a value no page has, which is a typo as a rule ("sitetitle"):
 * its element would be left out of every page without a word, so the
 * load warns at the name.
 */

struct tname {
	const char *name;
	const struct tname *items;     /* a list's item values, or NULL */
};

static const struct tname S_nav_items[] = {
	{ "url", NULL }, { "title", NULL }, { "current", NULL }, { NULL, NULL },
};
static const struct tname S_common_names[] = {
	{ "lang", NULL }, { "dir", NULL }, { "site-title", NULL }, { "site-id", NULL }, { "title", NULL },
	{ "page-title", NULL },
	{ "description", NULL }, { "body-class", NULL }, { "page-home", NULL },
	{ "page-test", NULL }, { "page-deck", NULL }, { "page-chapter", NULL },
	{ "page-guide", NULL }, { "page-404", NULL }, { "page-offline", NULL }, { "interactive", NULL },
	{ "offline", NULL }, { "home", NULL }, { "author", NULL }, { "embeds", NULL },
	{ "canonical", NULL }, { "nav", S_nav_items },
	{ "main", NULL },              /* page.html's slot for the part */
	{ NULL, NULL },
};
static const struct tname S_home_topic_items[] = {
	{ "title", NULL }, { "count", NULL }, { NULL, NULL },
};
static const struct tname S_home_test_items[] = {
	{ "url", NULL }, { "title", NULL }, { "description", NULL }, { "counts", NULL },
	{ "topics", S_home_topic_items }, { "slug", NULL }, { NULL, NULL },
};
static const struct tname S_home_deck_items[] = {
	{ "url", NULL }, { "title", NULL }, { "description", NULL }, { "count", NULL },
	{ "pdf", NULL }, { "slug", NULL }, { "cards", NULL }, { "card-prints", NULL }, { NULL, NULL },
};
static const struct tname S_home_chapter_items[] = {
	{ "url", NULL }, { "title", NULL }, { "description", NULL }, { "number", NULL },
	{ NULL, NULL },
};
static const struct tname S_home_names[] = {
	{ "intro", NULL }, { "tests", S_home_test_items }, { "decks", S_home_deck_items },
	{ "chapters", S_home_chapter_items }, { NULL, NULL },
};
static const struct tname S_test_topic_items[] = {
	{ "slug", NULL }, { "label", NULL }, { NULL, NULL },
};
static const struct tname S_section_items[] = {
	{ "url", NULL }, { "title", NULL }, { NULL, NULL },
};
static const struct tname S_deeper_items[] = {
	{ "url", NULL }, { "title", NULL }, { "sections", S_section_items }, { NULL, NULL },
};
static const struct tname S_test_names[] = {
	{ "eyebrow", NULL }, { "lede", NULL }, { "counts", NULL }, { "test-slug", NULL },
	{ "length", NULL }, { "max", NULL }, { "reveal", NULL }, { "seconds-easy", NULL },
	{ "seconds-medium", NULL }, { "seconds-hard", NULL }, { "pass-mark", NULL },
	{ "reveal-each", NULL }, { "reveal-end", NULL }, { "all-topics", NULL },
	{ "topics", S_test_topic_items }, { "estimate", NULL }, { "samples", NULL },
	{ "bank-title", NULL }, { "questions", NULL }, { "deeper", S_deeper_items },
	{ "exports", NULL }, { "export-moodle", NULL }, { "export-gift", NULL },
	{ NULL, NULL },
};
static const struct tname S_deck_names[] = {
	{ "eyebrow", NULL }, { "lede", NULL }, { "pdf", NULL }, { "deck-slug", NULL },
	{ "all-title", NULL }, { "cards", NULL }, { "exports", NULL }, { "export-anki", NULL },
	{ "export-csv", NULL }, { "export-tsv", NULL }, { NULL, NULL },
};
static const struct tname S_toc_items[] = {
	{ "url", NULL }, { "title", NULL }, { "class", NULL }, { NULL, NULL },
};
static const struct tname S_chapter_list_items[] = {
	{ "url", NULL }, { "title", NULL }, { "current", NULL }, { NULL, NULL },
};
static const struct tname S_chapter_names[] = {
	{ "eyebrow", NULL }, { "lede", NULL }, { "title-id", NULL }, { "toc", S_toc_items },
	{ "body", NULL }, { "prev-url", NULL }, { "prev-title", NULL }, { "next-url", NULL },
	{ "next-title", NULL }, { "chapters", S_chapter_list_items }, { NULL, NULL },
};
static const struct tname S_guide_chapter_items[] = {
	{ "url", NULL }, { "title", NULL }, { "description", NULL }, { "number", NULL },
	{ "sections", S_section_items }, { NULL, NULL },
};
static const struct tname S_guide_names[] = {
	{ "eyebrow", NULL }, { "lede", NULL }, { "chapters", S_guide_chapter_items }, { NULL, NULL },
};
static const struct tname S_not_found_names[] = {
	{ NULL, NULL },
};
static const struct tname *const S_part_values[THEME_NPARTS] = {
	S_home_names, S_test_names, S_deck_names, S_chapter_names, S_guide_names, S_not_found_names,
};
/* Who sets a part's own values, for messages. */
static const char *const S_part_pages[THEME_NPARTS] = {
	"the home page", "test pages", "deck pages", "chapter pages", "the guide's contents page",
	"the 404 page",
};

#define SCOPE_TABLES (THEME_NPARTS + 1)

/*
 * The names an element of a template may use: the tables of the page
 * kinds it is filled for (page.html: every kind), or inside a repeat the
 * items of that list (of each kind that has it). list: the repeat's
 * name, "" at the top; unknown: inside a repeat of no known list,
 * where nothing is checked.
 */
struct tscope {
	const struct tname *tables[SCOPE_TABLES];
	size_t n;
	char list[64];
	int unknown;
};

static const struct tname *
S_scope_find(const struct tscope *s, const char *name)
{
	const struct tname *t;
	size_t i;

	for (i = 0; i < s->n; i++)
		for (t = s->tables[i]; t->name; t++)
			if (strcmp(t->name, name) == 0)
				return t;
	return NULL;
}

/* The scope inside data-qd-repeat="list" in s. */
static void
S_scope_enter(struct tscope *s, const char *list)
{
	const struct tname *t;
	struct tscope in;
	size_t i;

	memset(&in, 0, sizeof(in));
	snprintf(in.list, sizeof(in.list), "%s", list);
	for (i = 0; i < s->n && !s->unknown; i++)
		for (t = s->tables[i]; t->name; t++)
			if (t->items && strcmp(t->name, list) == 0 && in.n < SCOPE_TABLES)
				in.tables[in.n++] = t->items;
	in.unknown = in.n == 0;
	*s = in;
}

/* The value of n's attribute named name (caller frees), or NULL. */
static char *
S_qd_value(xmlNodePtr n, const char *name)
{
	xmlAttrPtr a;
	xmlChar *v;
	char *s;

	for (a = n->properties; a; a = a->next)
		if (strcmp((const char *)a->name, name) == 0) {
			if ((v = xmlNodeGetContent((xmlNodePtr)a)) == NULL)
				return NULL;
			s = xstrdup((const char *)v);
			xmlFree(v);
			return s;
		}
	return NULL;
}

/*
 * The scope of element n's directives other than its own repeat, for a
 * template filled for part (THEME_NPARTS: page.html).
 */
static void
S_scope_of(xmlNodePtr n, int part, struct tscope *s)
{
	xmlNodePtr chain[THEME_MAX_NESTING + 1], p;
	size_t depth = 0, i;

	memset(s, 0, sizeof(*s));
	s->tables[s->n++] = S_common_names;
	for (i = 0; i < THEME_NPARTS; i++)
		if ((int)i == part || part == THEME_NPARTS)
			s->tables[s->n++] = S_part_values[i];
	for (p = n; p && p->type == XML_ELEMENT_NODE; p = p->parent) {
		if (!xmlHasProp(p, (const xmlChar *)ATTR_PREFIX "repeat"))
			continue;
		if (depth == THEME_MAX_NESTING + 1) {
			/* Deeper than a page may nest: the render says so. */
			s->unknown = 1;
			return;
		}
		chain[depth++] = p;
	}
	for (i = depth; i-- > 0 && !s->unknown;) {
		char *list = S_qd_value(chain[i], ATTR_PREFIX "repeat");

		S_scope_enter(s, list ? list : "");
		free(list);
	}
}

/* The name of s nearest to name, or NULL when none is close. */
static const char *
S_scope_nearest(const struct tscope *s, const char *name)
{
	size_t len = strlen(name), max = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
	size_t best = max + 1, d, i;
	const struct tname *t;
	const char *found = NULL;

	for (i = 0; i < s->n; i++)
		for (t = s->tables[i]; t->name; t++)
			if ((d = str_distance(name, t->name, max)) < best) {
				best = d;
				found = t->name;
			}
	return found;
}

/*
 * Where a template's source has its data-qd-* attributes: a cursor that
 * moves on through them in document order, which is the order the
 * parser read them in.
 */
struct tsource {
	const char *src;
	size_t len, pos;
	int line;                      /* of pos */
	size_t line_start;
};

/*
 * Finds attribute an="val" at or after the cursor, ending on or before
 * line `last` (libxml2 puts an element on the line its start tag ends):
 * its value's line and column, and the cursor moves past it. Not found
 * (a value written with entities), *line is `last` and *col 0.
 */
static void
S_locate(struct tsource *ts, const char *an, const char *val, int last, int *line, int *col)
{
	size_t alen = strlen(an), vlen = strlen(val), p, q, nl;
	int l;

	*line = last;
	*col = 0;
	for (p = ts->pos; p + alen <= ts->len; p++) {
		char quote = 0;

		if (strncasecmp(ts->src + p, an, alen) != 0 || p == 0 ||
		    strchr(" \t\r\n", ts->src[p - 1]) == NULL)
			continue;
		for (q = p + alen; q < ts->len && strchr(" \t\r\n", ts->src[q]); q++)
			;
		if (q == ts->len || ts->src[q] != '=')
			continue;
		for (q++; q < ts->len && strchr(" \t\r\n", ts->src[q]); q++)
			;
		if (q < ts->len && (ts->src[q] == '"' || ts->src[q] == '\''))
			quote = ts->src[q++];
		if (q + vlen > ts->len || memcmp(ts->src + q, val, vlen) != 0 ||
		    (quote && (q + vlen == ts->len || ts->src[q + vlen] != quote)))
			continue;
		for (l = ts->line, nl = ts->line_start, p = ts->pos; p < q; p++)
			if (ts->src[p] == '\n') {
				l++;
				nl = p + 1;
			}
		if (l > last)
			return;
		ts->pos = q + vlen;
		ts->line = l;
		ts->line_start = nl;
		*line = l;
		*col = (int)(q - nl) + 1;
		return;
	}
}

/* What a list's items have, for a message: "they have \"url\", \"title\" and \"current\"". */
static void
S_scope_list(const struct tscope *s, struct buf *b)
{
	const struct tname *t;
	size_t i, k = 0, total = 0;

	for (i = 0; i < s->n; i++)
		for (t = s->tables[i]; t->name; t++)
			total++;
	buf_puts(b, "they have ");
	for (i = 0; i < s->n; i++)
		for (t = s->tables[i]; t->name; t++, k++)
			buf_printf(b, "%s\"%s\"", k == 0 ? "" : k + 1 == total ? " and " : ", ", t->name);
}

/* The part other than `part` whose own values include name, at the top of a part's template, or -1. */
static int
S_part_having(int part, const struct tscope *s, const char *name)
{
	const struct tname *t;
	int i;

	if (part == THEME_NPARTS || s->list[0])
		return -1;
	for (i = 0; i < THEME_NPARTS; i++)
		for (t = S_part_values[i]; i != part && t->name; t++)
			if (strcmp(t->name, name) == 0)
				return i;
	return -1;
}

/*
 * Warns at each data-qd-* value name of a template filled for part
 * (THEME_NPARTS: page.html) that no page it is filled for has.
 */
static void
S_check_names(xmlDocPtr doc, const char *src, size_t len, const char *file, int part,
    struct diag_list *dl)
{
	struct tsource ts = { src, len, 0, 1, 0 };
	xmlNodePtr n;

	for (n = xmlDocGetRootElement(doc); n; n = theme_next_node(n, NULL)) {
		xmlAttrPtr a;

		for (a = n->type == XML_ELEMENT_NODE ? n->properties : NULL; a; a = a->next) {
			const char *an = (const char *)a->name, *rest, *name, *near, *effect;
			int repeat, line, col, other;
			struct tscope s;
			struct buf fix;
			char *val;

			if (!S_is_template_attr(a->name) || (val = S_qd_value(n, an)) == NULL)
				continue;
			S_locate(&ts, an, val, (int)xmlGetLineNo(n), &line, &col);
			rest = an + strlen(ATTR_PREFIX);
			name = val + (val[0] == '!');
			repeat = strcmp(rest, "repeat") == 0;
			/* A repeat's own list is named in the scope around it; the rest of it is the item's. */
			S_scope_of(repeat ? n->parent : n, part, &s);
			if (s.unknown || S_scope_find(&s, name)) {
				free(val);
				continue;
			}
			buf_init(&fix);
			if ((near = S_scope_nearest(&s, name)) != NULL)
				buf_printf(&fix, "did you mean \"%s\"?", near);
			else if ((other = S_part_having(part, &s, name)) >= 0)
				buf_printf(&fix, "only %s have it: it belongs in %s.html", S_part_pages[other],
				    S_part_names[other]);
			else if (s.list[0])
				S_scope_list(&s, &fix);
			else
				buf_puts(&fix, "the theme README lists the values");
			if (strncmp(rest, "attr-", 5) == 0)
				effect = "the attribute is never set";
			else if (strcmp(rest, "if") == 0 && val[0] == '!')
				effect = "the element is always kept";
			else
				effect = "the element is always left out";
			if (s.list[0])
				diag_warning(dl, file, line, col, "unknown value \"%s\" in %s: the items of "
				    "\"%s\" have no such value, so %s; %s", name, an, s.list, effect, buf_str(&fix));
			else if (part == THEME_NPARTS)
				diag_warning(dl, file, line, col, "unknown value \"%s\" in %s: no page has it, "
				    "so %s; %s", name, an, effect, buf_str(&fix));
			else
				diag_warning(dl, file, line, col, "unknown value \"%s\" in %s: %s %s no such "
				    "value, so %s; %s", name, an, S_part_pages[part],
				    part == THEME_HOME || part == THEME_NOT_FOUND ? "has" : "have", effect,
				    buf_str(&fix));
			buf_free(&fix);
			free(val);
		}
	}
}

/* Appends the value names doc's data-qd-* attributes hold to *v (without a leading '!'). */
static void
S_collect_names(xmlDocPtr doc, char ***v, size_t *n, size_t *cap)
{
	xmlNodePtr e = xmlDocGetRootElement(doc);

	while (e) {
		xmlAttrPtr a;

		for (a = e->type == XML_ELEMENT_NODE ? e->properties : NULL; a; a = a->next) {
			xmlChar *val;

			if (strncmp((const char *)a->name, ATTR_PREFIX, strlen(ATTR_PREFIX)) != 0)
				continue;
			if ((val = xmlNodeGetContent((xmlNodePtr)a)) == NULL)
				continue;
			*v = xgrow(*v, cap, *n + 1, sizeof(**v));
			(*v)[(*n)++] = xstrdup((const char *)val + (val[0] == '!'));
			xmlFree(val);
		}
		e = theme_next_node(e, NULL);
	}
}

static int
S_cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t
theme_uses(const struct theme *t, enum theme_part part, const char *name)
{
	char **hit, **first, **last, **end;

	/* bsearch may not be given a NULL array, even empty (a theme without values). */
	if (t->nuses[part] == 0)
		return 0;
	hit = bsearch(&name, t->uses[part], t->nuses[part], sizeof(char *), S_cmp_name);
	end = t->uses[part] + t->nuses[part];
	if (hit == NULL)
		return 0;
	for (first = hit; first > t->uses[part] && strcmp(first[-1], name) == 0; first--)
		;
	for (last = hit + 1; last < end && strcmp(*last, name) == 0; last++)
		;
	return (size_t)(last - first);
}

xmlDocPtr
theme_parse(const char *data, size_t len, const char *file, struct diag_list *dl)
{
	xmlDocPtr doc;

	if (len > INT_MAX) {
		diag_error(dl, file, 0, 0, "the template is too large");
		return NULL;
	}
	doc = htmlReadMemory(data, (int)len, file, "UTF-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
	    HTML_PARSE_NODEFDTD | XML_PARSE_NODICT);
	if (doc == NULL || xmlDocGetRootElement(doc) == NULL)
		diag_error(dl, file, 0, 0, "cannot parse the template");
	else if (S_check_template(doc, file, dl) == 0)
		return doc;
	if (doc)
		xmlFreeDoc(doc);
	return NULL;
}

/*
 * A theme file's path as diagnostics show it: below the site's folder
 * when it is there, as content files are shown. Points into path.
 */
static const char *
S_shown(const char *site_root, const char *path)
{
	size_t n = strlen(site_root);

	if (n == 0 || strncmp(path, site_root, n) != 0 || (site_root[n - 1] != '/' && path[n] != '/'))
		return path;
	while (path[n] == '/')
		n++;
	return path + n;
}

/*
 * Puts the strings in: data-qd-t="key" becomes the element's text, and
 * data-qd-t-ATTR="key" attribute ATTR, in the site's language, once at
 * load; no page pays for them. A key no table has is a warning at its
 * line, and the template's own text stays.
 */
static void
S_translate(xmlDocPtr doc, const struct lang *lang, const char *file, struct diag_list *dl)
{
	xmlNodePtr n = xmlDocGetRootElement(doc);
	size_t plen = strlen(ATTR_PREFIX);

	while (n) {
		xmlAttrPtr a, next;

		if (n->type != XML_ELEMENT_NODE) {
			n = theme_next_node(n, NULL);
			continue;
		}
		for (a = n->properties; a; a = next) {
			const char *an = (const char *)a->name;
			xmlChar *key;

			next = a->next;
			if (strncmp(an, ATTR_PREFIX, plen) != 0 || an[plen] != 't' ||
			    (an[plen + 1] != '\0' && an[plen + 1] != '-'))
				continue;
			key = xmlNodeGetContent((xmlNodePtr)a);
			if (key == NULL || !lang_has(lang, (const char *)key))
				diag_warning(dl, file, (int)xmlGetLineNo(n), 0,
				    "no string is called \"%s\" (i18n/en.toml lists every string); "
				    "the template's own text stays", key ? (const char *)key : "");
			else if (an[plen + 1] == '\0') {
				xmlFreeNodeList(n->children);
				n->children = n->last = NULL;
				xmlAddChild(n, xmlNewDocText(doc, (const xmlChar *)lang_get(lang, (const char *)key)));
			} else
				xmlSetProp(n, (const xmlChar *)an + plen + 2,
				    (const xmlChar *)lang_get(lang, (const char *)key));
			xmlFree(key);
			xmlRemoveProp(a);
		}
		n = theme_next_node(n, NULL);
	}
}

/*
 * Reads and parses the template at path, filled for part (THEME_NPARTS:
 * page.html), with lang's strings; diagnostics name it `file`.
 */
static xmlDocPtr
S_parse_template(const char *path, const char *file, int part, const struct lang *lang,
    struct diag_list *dl)
{
	xmlDocPtr doc = NULL;
	char *data = NULL;
	size_t len;

	if (file_read(path, &data, &len) == -1) {
		diag_error(dl, file, 0, 0, "cannot read the template: %s", strerror(errno));
		goto out;
	}
	if ((doc = theme_parse(data, len, file, dl)) != NULL) {
		S_translate(doc, lang, file, dl);
		S_check_names(doc, data, len, file, part, dl);
	}
out:
	free(data);
	return doc;
}

int
theme_load(struct theme *t, const char *site_root, const char *name,
    const struct lang *lang, struct diag_list *dl)
{
	char *cand[5] = { NULL, NULL, NULL, NULL, NULL };
	char *rel = NULL, *path = NULL, **inst;
	size_t i, ncand = 0, ninst;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	if (!S_name_ok(name)) {
		diag_error(dl, "site.toml", 0, 0,
		    "theme \"%s\": a theme is named by its folder in themes/", name);
		goto out;
	}
	rel = path_join("themes", name);
	inst = install_dirs(rel, &ninst);
	cand[ncand++] = path_join(site_root, rel);
	for (i = 0; i < ninst; i++)
		cand[ncand++] = inst[i];
	free(inst);
	for (i = 0; i < ncand; i++) {
		char *page = path_join(cand[i], "templates/page.html");
		int found = path_is_file(page);

		free(page);
		if (found) {
			t->dir = xstrdup(cand[i]);
			break;
		}
	}
	if (t->dir == NULL) {
		struct buf where;

		buf_init(&where);
		for (i = 0; i < ncand; i++)
			buf_printf(&where, "%s%s", i == 0 ? "" : i + 1 == ncand ? " or " : ", ", cand[i]);
		diag_error(dl, "site.toml", 0, 0,
		    "theme \"%s\" not found: no templates/page.html in %s", name, buf_str(&where));
		buf_free(&where);
		goto out;
	}
	path = path_join(t->dir, "templates/page.html");
	if ((t->page = S_parse_template(path, S_shown(site_root, path), THEME_NPARTS, lang, dl)) == NULL)
		goto out;
	rc = 0;
	for (i = 0; i < THEME_NPARTS; i++) {
		char *file = xasprintf("templates/%s.html", S_part_names[i]);

		t->part_files[i] = path_join(t->dir, file);
		free(file);
		if (!path_is_file(t->part_files[i])) {
			diag_error(dl, S_shown(site_root, t->part_files[i]), 0, 0,
			    "theme \"%s\" has no %s.html template", name, S_part_names[i]);
			rc = -1;
		} else if ((t->parts[i] = S_parse_template(t->part_files[i],
		    S_shown(site_root, t->part_files[i]), (int)i, lang, dl)) == NULL)
			rc = -1;
		else {
			size_t cap = 0;

			S_collect_names(t->page, &t->uses[i], &t->nuses[i], &cap);
			S_collect_names(t->parts[i], &t->uses[i], &t->nuses[i], &cap);
			if (t->nuses[i] > 1)
				qsort(t->uses[i], t->nuses[i], sizeof(char *), S_cmp_name);
		}
	}
out:
	for (i = 0; i < ncand; i++)
		free(cand[i]);
	free(rel);
	free(path);
	/* What loaded before the failure goes: the caller has nothing to free. */
	if (rc == -1)
		theme_free(t);
	return rc;
}

void
theme_free(struct theme *t)
{
	size_t i;

	free(t->name);
	free(t->dir);
	if (t->page)
		xmlFreeDoc(t->page);
	for (i = 0; i < THEME_NPARTS; i++) {
		if (t->parts[i])
			xmlFreeDoc(t->parts[i]);
		free(t->part_files[i]);
		while (t->nuses[i] > 0)
			free(t->uses[i][--t->nuses[i]]);
		free(t->uses[i]);
	}
	memset(t, 0, sizeof(*t));
}

static int
S_is_dir_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && path_is_dir(path);
}

int
theme_copy_assets(const struct theme *t, const char *outdir, struct diag_list *dl)
{
	char **todo = NULL;        /* folders below assets/ still to copy */
	size_t ntodo = 0, cap = 0;
	char *src = path_join(t->dir, "assets");
	char *dst = path_join(outdir, "assets");
	int rc = -1;

	if (!path_is_dir(src)) {
		rc = 0;
		goto out;
	}
	todo = xgrow(todo, &cap, 1, sizeof(*todo));
	todo[ntodo++] = xstrdup("");
	while (ntodo > 0) {
		char *rel = todo[--ntodo];
		char *from = *rel ? path_join(src, rel) : xstrdup(src);
		DIR *d = opendir(from);
		struct dirent *de;
		int bad = 0;

		if (d == NULL) {
			diag_error(dl, from, 0, 0, "cannot read the theme's assets: %s", strerror(errno));
			bad = 1;
		}
		while (d && !bad && (de = readdir(d)) != NULL) {
			char *crel, *cfrom, *cto;

			if (de->d_name[0] == '.')
				continue;
			crel = *rel ? path_join(rel, de->d_name) : xstrdup(de->d_name);
			cfrom = path_join(src, crel);
			cto = path_join(dst, crel);
			/* A symbolic link to a folder could loop: not followed. */
			if (S_is_dir_link(cfrom))
				diag_warning(dl, cfrom, 0, 0, "a symbolic link to a folder is not followed");
			else if (path_is_dir(cfrom)) {
				todo = xgrow(todo, &cap, ntodo + 1, sizeof(*todo));
				todo[ntodo++] = crel;
				crel = NULL;
			} else if (file_copy(cfrom, cto) == -1) {
				diag_error(dl, cfrom, 0, 0, "cannot copy to %s: %s", cto, strerror(errno));
				bad = 1;
			}
			free(crel);
			free(cfrom);
			free(cto);
		}
		if (d)
			closedir(d);
		free(from);
		free(rel);
		if (bad)
			goto out;
	}
	rc = 0;
out:
	while (ntodo > 0)
		free(todo[--ntodo]);
	free(todo);
	free(src);
	free(dst);
	return rc;
}

/*
 * ---- the bytes of HTML --------------------------------------------------
 *
 * How pages, and the parts html.c and render.c write for them, put
 * elements, attributes and text into bytes. The rules are those of
 * libxml2 2.9's HTML serialiser, so pages read as they did when they were
 * trees: UTF-8 as it is, <, > and & escaped, URL attributes
 * percent-encoded, boolean attributes bare, end tags as libxml2's element
 * table says.
 */

struct html_out {
	struct buf *b;
	struct buf value;          /* an attribute value, escaped */
};

#define HTML_TAGS 64
#define HTML_TAG_LEN 16

/*
 * libxml2's facts about a tag (void, end tag optional...), from a cache
 * each thread keeps for as long as it lives: libxml2's table is a linear
 * search, and every element of every page asks.
 */
static const htmlElemDesc *
S_tag_info(const char *name)
{
	static _Thread_local struct {
		char name[HTML_TAG_LEN];
		const htmlElemDesc *info;
	} tags[HTML_TAGS];
	size_t len = strlen(name), h, i;

	if (len >= HTML_TAG_LEN)
		return htmlTagLookup((const xmlChar *)name);
	h = (size_t)hash_fnv1a(name, len, HASH_FNV_SEED) % HTML_TAGS;
	for (i = 0; i < HTML_TAGS; i++, h = (h + 1) % HTML_TAGS) {
		if (tags[h].name[0] == '\0') {
			memcpy(tags[h].name, name, len + 1);
			tags[h].info = htmlTagLookup((const xmlChar *)name);
			return tags[h].info;
		}
		if (strcmp(tags[h].name, name) == 0)
			return tags[h].info;
	}
	return htmlTagLookup((const xmlChar *)name);
}

/* buf_put and buf_putc without the call for what fits: pages are written a few bytes at a time. */
static inline void
S_put(struct buf *b, const char *p, size_t n)
{
	if (b->data && b->len + n < b->cap) {
		memcpy(b->data + b->len, p, n);
		b->len += n;
		b->data[b->len] = '\0';
	} else
		buf_put(b, p, n);
}

static inline void
S_putc(struct buf *b, char c)
{
	if (b->data && b->len + 1 < b->cap) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
	} else
		buf_put(b, &c, 1);
}

static inline void
S_puts(struct buf *b, const char *s)
{
	S_put(b, s, strlen(s));
}

/* The bytes S_escape stops at: controls but tab, line feed and carriage return (NUL ends), <, > and &. */
static const unsigned char S_escape_stop[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,
};

/*
 * Text: <, > and & as entities, other control characters than tab, line
 * feed and carriage return dropped, the rest (UTF-8 included) as it is.
 * In attribute values `<!--...-->` and `&{...}` stay as they are.
 */
static void
S_escape(struct buf *b, const char *p, int attr)
{
	const char *run = p, *end;

	for (;; p++) {
		unsigned char c;

		while (!S_escape_stop[(unsigned char)*p])
			p++;
		c = (unsigned char)*p;
		S_put(b, run, (size_t)(p - run));
		if (c == '\0')
			return;
		if (c == '<' && attr && p[1] == '!' && p[2] == '-' && p[3] == '-' &&
		    (end = strstr(p, "-->")) != NULL) {
			S_put(b, p, (size_t)(end + 3 - p));
			p = end + 2;
		} else if (c == '&' && attr && p[1] == '{' && (end = strchr(p, '}')) != NULL) {
			S_put(b, p, (size_t)(end + 1 - p));
			p = end;
		} else if (c == '<')
			S_put(b, "&lt;", 4);
		else if (c == '>')
			S_put(b, "&gt;", 4);
		else if (c == '&')
			S_put(b, "&amp;", 5);
		run = p + 1;
	}
}

/* An escaped attribute value in quotes: double, or single when it holds a double, or &quot; when both. */
static void
S_put_quoted(struct buf *b, const char *p, size_t n)
{
	const char *q;

	if (memchr(p, '"', n) == NULL) {
		S_putc(b, '"');
		S_put(b, p, n);
		S_putc(b, '"');
	} else if (memchr(p, '\'', n) == NULL) {
		S_putc(b, '\'');
		S_put(b, p, n);
		S_putc(b, '\'');
	} else {
		S_putc(b, '"');
		while ((q = memchr(p, '"', n)) != NULL) {
			S_put(b, p, (size_t)(q - p));
			S_put(b, "&quot;", 6);
			n -= (size_t)(q + 1 - p);
			p = q + 1;
		}
		S_put(b, p, n);
		S_putc(b, '"');
	}
}

/* A URL's bytes, all but the unreserved characters and "@/:=?;#%&,+<>" as %XX. */
static void
S_uri_escape(struct buf *b, const char *p)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *run = p;

	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		char esc[3];

		if (url_keep[c] & URL_KEEP_ATTR)
			continue;
		S_put(b, run, (size_t)(p - run));
		esc[0] = '%';
		esc[1] = hex[c >> 4];
		esc[2] = hex[c & 15];
		S_put(b, esc, 3);
		run = p + 1;
	}
	S_put(b, run, (size_t)(p - run));
}

/*
 * The attributes HTML writes without a value. Every attribute of every
 * element asks, so the length picks the names to compare.
 */
static int
S_is_boolean_attr(const char *name)
{
	int c = name[0] >= 'A' && name[0] <= 'Z' ? name[0] - 'A' + 'a' : name[0];

#define QD_IS(first, word) (c == (first) && strcasecmp(name, (word)) == 0)
	switch (strlen(name)) {
	case 5:
		return QD_IS('d', "defer") || QD_IS('i', "ismap");
	case 6:
		return QD_IS('n', "nohref") || QD_IS('n', "nowrap");
	case 7:
		return QD_IS('c', "checked") || QD_IS('c', "compact") || QD_IS('d', "declare") ||
		    QD_IS('n', "noshade");
	case 8:
		return QD_IS('d', "disabled") || QD_IS('m', "multiple") || QD_IS('n', "noresize") ||
		    QD_IS('r', "readonly") || QD_IS('s', "selected");
	default:
		return 0;
	}
#undef QD_IS
}

/* The attributes whose values are percent-encoded. */
static int
S_is_uri_attr(const char *el, const char *n)
{
	switch (n[0]) {
	case 'h':
	case 'H':
		return !strcasecmp(n, "href");
	case 'a':
	case 'A':
		return !strcasecmp(n, "action");
	case 's':
	case 'S':
		return !strcasecmp(n, "src");
	case 'n':
	case 'N':
		return !strcasecmp(n, "name") && !strcasecmp(el, "a");
	default:
		return 0;
	}
}

/* The rest of an attribute after its name, of an element named el (value NULL: a bare attribute). */
static void
S_put_attr_value(struct html_out *o, const char *el, const char *name, const char *value)
{
	const char *v;

	if (value == NULL || S_is_boolean_attr(name))
		return;
	if (S_is_uri_attr(el, name)) {
		/* Most URLs hold nothing either escape would change: written as they are. */
		for (v = value; (url_keep[(unsigned char)*v] & URL_KEEP_ATTR) && *v != '&' &&
		    *v != '<' && *v != '>'; v++)
			;
		if (*v == '\0') {
			S_put(o->b, "=\"", 2);
			S_put(o->b, value, (size_t)(v - value));
			S_putc(o->b, '"');
			return;
		}
		buf_reset(&o->value);
		buf_put(&o->value, "", 0);
		S_escape(&o->value, value, 1);
		for (v = o->value.data; *v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'; v++)
			;
		/* Percent-encoding leaves no double quote: always in double quotes. */
		S_put(o->b, "=\"", 2);
		S_uri_escape(o->b, v);
		S_putc(o->b, '"');
	} else if (strchr(value, '"') == NULL) {
		/* Escaping adds no quote: in double quotes, straight into the page. */
		S_put(o->b, "=\"", 2);
		S_escape(o->b, value, 1);
		S_putc(o->b, '"');
	} else {
		buf_reset(&o->value);
		buf_put(&o->value, "", 0);
		S_escape(&o->value, value, 1);
		S_putc(o->b, '=');
		S_put_quoted(o->b, o->value.data, o->value.len);
	}
}

/*
 * 1 if an element written with no child gets an end tag: elements
 * libxml2 does not know, those whose end tag HTML requires, html and
 * body. Void elements (info->empty) never get one.
 */
static int
S_empty_gets_end_tag(const htmlElemDesc *info)
{
	return !info || !info->saveEndTag || !strcmp(info->name, "html") ||
	    !strcmp(info->name, "body");
}

static void
S_end_tag(struct buf *b, const char *name)
{
	S_put(b, "</", 2);
	S_puts(b, name);
	S_putc(b, '>');
}

/* What a page's head starts with unless it declares its own charset. */
static const char S_charset_meta[] =
    "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">";

/* ---- filling ----------------------------------------------------------- */

#define FILL_URLS 16

/* The directives that take an element away or put values in its place, by their name after data-qd-. */
enum directive { D_REPEAT, D_IF, D_REPLACE, D_SLOT, D_N };
static const char *const S_directive_names[D_N] = { "repeat", "if", "replace", "slot" };

/* A node written into the current element: where it starts, and whether it is blank text. */
struct fill_rec {
	size_t at;
	int blank;
};

/* An element written, its children still to come. */
struct fill_open {
	xmlNodePtr el;             /* the template element */
	xmlNodePtr resume;         /* the template node after it */
	const htmlElemDesc *info;
	int raw;                   /* script or style: its text is written as it is */
	size_t recs;               /* its children's records start here */
	size_t content;            /* the page's length after its start tag */
};

/* An attribute of the start tag being written. */
struct fill_attr {
	const char *name;
	const char *value;         /* NULL: a bare attribute */
	char *own;                 /* value, when the fill made it */
};

struct fill {
	const struct theme *theme;
	enum theme_part part;
	const char *page_url;
	xmlNodePtr part_body;      /* the part template's body: the "main" slot */
	int main_filled;           /* the part went in once: a "main" slot inside it stays empty */
	struct diag_list *dl;
	int failed;
	struct html_out o;
	xmlNodePtr head;           /* the frame's <head> */
	int own;                   /* which declares its own charset */
	xmlNodePtr ctype;          /* its Content-Type <meta>, if any (S_charset) */
	/*
	 * What was written into each open element, so that an element taken
	 * away takes the blank line before it too.
	 */
	struct fill_rec *recs;
	size_t nrecs, recs_cap;
	struct fill_open *open;
	size_t nopen, open_cap;
	struct fill_attr *attrs;
	size_t nattrs, attrs_cap;
	/*
	 * URLs made relative to the page, each once per page: a frame names a
	 * few, many times. An entry is one block, the URL and then rel.
	 */
	struct {
		char *url;
		const char *rel;
	} urls[FILL_URLS];
	size_t nurls;
};

/* 1 for a URL no page changes: empty, a fragment or query alone, rooted, or with a scheme. */
static int
S_url_is_fixed(const char *url)
{
	const char *p;

	if (url[0] == '\0' || url[0] == '#' || url[0] == '/' || url[0] == '?')
		return 1;
	for (p = url; *p && *p != '/' && *p != '?' && *p != '#'; p++)
		if (*p == ':')
			return 1;
	return 0;
}

/*
 * Appends a template URL relative to the output root, made relative to
 * the page: path_relative for the path, then its query and fragment.
 */
static void
S_page_url_put(struct buf *b, const char *page_url, const char *url)
{
	const char *rest;

	if (S_url_is_fixed(url)) {
		buf_puts(b, url);
		return;
	}
	rest = url + strcspn(url, "?#");
	path_relative_put(b, page_url, url, (size_t)(rest - url));
	buf_puts(b, rest);
}

/* The attributes whose template URLs are made relative to the page. */
static int
S_is_url_attr(const char *name)
{
	switch (name[0]) {
	case 'h':
		return strcmp(name, "href") == 0;
	case 's':
		return strcmp(name, "src") == 0;
	case 'a':
		return strcmp(name, "action") == 0;
	case 'p':
		return strcmp(name, "poster") == 0;
	case 'f':
		return strcmp(name, "formaction") == 0;
	default:
		return 0;
	}
}

/*
 * A URL made relative to the page being filled (S_page_url_put), from a
 * cache that lives as long as the fill. Valid until the next call.
 */
static const char *
S_fill_url(struct fill *f, const char *url)
{
	struct buf b;
	size_t i, n;

	/* A page's contents links ("#...") and the like: nothing to make, nothing to keep. */
	if (S_url_is_fixed(url))
		return url;
	for (i = 0; i < f->nurls; i++)
		if (strcmp(f->urls[i].url, url) == 0)
			return f->urls[i].rel;
	if (f->nurls == FILL_URLS) {
		/* Full (a page of many distinct value URLs): the last entry turns over. */
		i = FILL_URLS - 1;
		free(f->urls[i].url);
	} else
		i = f->nurls++;
	n = strlen(url);
	buf_init(&b);
	buf_reserve(&b, 2 * n + 64);
	buf_put(&b, url, n + 1);
	S_page_url_put(&b, f->page_url, url);
	f->urls[i].url = buf_detach(&b);
	f->urls[i].rel = f->urls[i].url + n + 1;
	return f->urls[i].rel;
}

/*
 * The value of an attribute as xmlGetProp gives it, without the copy
 * when it is one text node (as the parser makes it): borrowed, or *copy
 * (caller frees). NULL as xmlGetProp's NULL.
 */
static const char *
S_attr_value(xmlAttrPtr a, char **copy)
{
	xmlChar *v;

	*copy = NULL;
	if (a->children && a->children->next == NULL &&
	    (a->children->type == XML_TEXT_NODE || a->children->type == XML_CDATA_SECTION_NODE))
		return (const char *)a->children->content;
	if (a->children == NULL || (v = xmlNodeGetContent((xmlNodePtr)a)) == NULL)
		return NULL;
	*copy = xstrdup((const char *)v);
	xmlFree(v);
	return *copy;
}

/* 1 for text of spaces, tabs and line feeds only. */
static int
S_text_is_blank(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n')
			return 0;
	return 1;
}

static int
S_is_blank(xmlNodePtr n)
{
	return n != NULL && n->type == XML_TEXT_NODE &&
	    (n->content == NULL || S_text_is_blank((const char *)n->content, strlen((const char *)n->content)));
}

static xmlNodePtr
S_find_element(xmlNodePtr n, const char *name)
{
	while (n) {
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
			return n;
		n = theme_next_node(n, NULL);
	}
	return NULL;
}

/*
 * How the head declares the page's charset: *own when it has a <meta
 * charset>, and the first <meta http-equiv="Content-Type" content>, whose
 * content the page sets to UTF-8 (NULL: none).
 */
static xmlNodePtr
S_charset(xmlNodePtr head, int *own)
{
	xmlNodePtr n, ctype = NULL;

	*own = 0;
	for (n = head ? head->children : NULL; n; n = n->next) {
		int http = 0, content = 0;
		xmlAttrPtr a;

		if (n->type != XML_ELEMENT_NODE || strcasecmp((const char *)n->name, "meta") != 0)
			continue;
		for (a = n->properties; a; a = a->next) {
			const char *an = (const char *)a->name;
			const xmlNode *t = a->children;

			if (strcmp(an, "charset") == 0)
				*own = 1;
			else if (t && t->type == XML_TEXT_NODE && t->next == NULL && t->content &&
			    strcasecmp(an, "http-equiv") == 0)
				http |= strcasecmp((const char *)t->content, "Content-Type") == 0;
			else if (t && strcasecmp(an, "content") == 0)
				content = 1;
		}
		if (ctype == NULL && http && content)
			ctype = n;
	}
	return ctype;
}

static void
S_rec(struct fill *f, int blank)
{
	f->recs = xgrow(f->recs, &f->recs_cap, f->nrecs + 1, sizeof(*f->recs));
	f->recs[f->nrecs].at = f->o.b->len;
	f->recs[f->nrecs].blank = blank;
	f->nrecs++;
}

/* Text into the current element: escaped, or as it is in a script or style. */
static void
S_text(struct fill *f, const char *text)
{
	S_rec(f, S_text_is_blank(text, strlen(text)));
	if (f->open[f->nopen - 1].raw)
		S_puts(f->o.b, text);
	else
		S_escape(f->o.b, text, 0);
}

/*
 * An HTML value into the current element. Blank text after its last tag
 * is a node of its own, as blank text in a template is: an element taken
 * away after it takes it too.
 */
static void
S_html(struct fill *f, const struct tval *tv)
{
	size_t cut = tv->len;

	while (cut > 0 && tv->text[cut - 1] != '>')
		cut--;
	if (!S_text_is_blank(tv->text + cut, tv->len - cut))
		cut = tv->len;
	if (cut > 0) {
		S_rec(f, S_text_is_blank(tv->text, cut));
		S_put(f->o.b, tv->text, cut);
	}
	if (cut < tv->len) {
		S_rec(f, 1);
		S_put(f->o.b, tv->text + cut, tv->len - cut);
	}
}

/*
 * An element goes, and with it the blank text before it when blank text
 * or nothing follows, so no blank line stays.
 */
static void
S_remove(struct fill *f, int next_blank)
{
	size_t base = f->open[f->nopen - 1].recs;

	if (f->nrecs > base && f->recs[f->nrecs - 1].blank && next_blank) {
		f->nrecs--;
		f->o.b->len = f->recs[f->nrecs].at;
		f->o.b->data[f->o.b->len] = '\0';
	}
}

/*
 * What data-qd-attr-<target>="name" on an element el sets target to, or
 * NULL to leave it as it is: name's text; a URL made relative to the
 * page, and dropped when unsafe. A value of markup sets nothing.
 */
static const char *
S_attr_fill_text(struct fill *f, const struct tvars *v, const char *name, const char *target,
    const char *el)
{
	const struct tval *tv = name ? S_lookup(v, name) : NULL;
	const char *text = tv && tv->kind == TV_TEXT ? tv->text : NULL;

	if (text && S_is_url_attr(target))
		text = links_url_is_safe(text, strcmp(el, "img") == 0) ? S_fill_url(f, text) : NULL;
	return text;
}

static void
S_set_attr(struct fill *f, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < f->nattrs; i++)
		if (strcmp(f->attrs[i].name, name) == 0)
			break;
	if (i == f->nattrs) {
		f->attrs = xgrow(f->attrs, &f->attrs_cap, f->nattrs + 1, sizeof(*f->attrs));
		f->attrs[i].name = name;
		f->attrs[i].own = NULL;
		f->nattrs++;
	}
	free(f->attrs[i].own);
	f->attrs[i].value = f->attrs[i].own = xstrdup(value);
}

/*
 * The start tag of template element n and an open element for its
 * children: its URLs made relative to the page, the attributes
 * data-qd-attr-* name set, the data-qd-* ones left out.
 */
static void
S_start(struct fill *f, xmlNodePtr n, const struct tvars *v)
{
	const char *name = (const char *)n->name;
	struct fill_open *o;
	xmlAttrPtr a;
	size_t i, nattrs;

	S_rec(f, 0);
	f->nattrs = 0;
	for (a = n->properties; a; a = a->next) {
		struct fill_attr *at;
		char *copy;

		f->attrs = xgrow(f->attrs, &f->attrs_cap, f->nattrs + 1, sizeof(*f->attrs));
		at = &f->attrs[f->nattrs++];
		at->name = (const char *)a->name;
		at->value = S_attr_value(a, &copy);
		at->own = copy;
		if (S_is_url_attr(at->name)) {
			at->value = xstrdup(S_fill_url(f, at->value ? at->value : ""));
			free(at->own);
			at->own = (char *)at->value;
		}
	}
	/* Set in order, later ones winning; a target that is itself data-qd-* stays out. */
	nattrs = f->nattrs;
	for (i = 0; i < nattrs; i++) {
		const char *an = f->attrs[i].name, *text;

		if (strncmp(an, ATTR_PREFIX "attr-", strlen(ATTR_PREFIX "attr-")) != 0)
			continue;
		an += strlen(ATTR_PREFIX "attr-");
		text = S_attr_fill_text(f, v, f->attrs[i].value, an, name);
		if (text)
			S_set_attr(f, an, text);
	}
	/* A Content-Type of the template's own says what the page is: UTF-8. */
	for (i = 0; n == f->ctype && i < f->nattrs; i++)
		if (strcmp(f->attrs[i].name, "content") == 0 && f->attrs[i].value &&
		    xmlStrcasestr((const xmlChar *)f->attrs[i].value, (const xmlChar *)"UTF-8") == NULL)
			S_set_attr(f, "content", "text/html; charset=UTF-8");
	S_putc(f->o.b, '<');
	S_puts(f->o.b, name);
	for (i = 0; i < f->nattrs; i++) {
		if (!S_is_template_attr((const xmlChar *)f->attrs[i].name)) {
			S_putc(f->o.b, ' ');
			S_puts(f->o.b, f->attrs[i].name);
			S_put_attr_value(&f->o, name, f->attrs[i].name, f->attrs[i].value);
		}
		free(f->attrs[i].own);
	}
	S_putc(f->o.b, '>');
	if (n == f->head && !f->own && !f->ctype)
		S_puts(f->o.b, S_charset_meta);
	f->open = xgrow(f->open, &f->open_cap, f->nopen + 1, sizeof(*f->open));
	o = &f->open[f->nopen++];
	o->el = n;
	o->resume = n->next;
	o->info = S_tag_info(name);
	o->raw = (name[0] == 's' || name[0] == 'S') &&
	    (!strcasecmp(name, "script") || !strcasecmp(name, "style"));
	o->recs = f->nrecs;
	o->content = f->o.b->len;
}

/* Closes the innermost element. */
static void
S_end(struct fill *f)
{
	struct fill_open *o = &f->open[--f->nopen];
	int children = f->nrecs > o->recs;

	f->nrecs = o->recs;
	if (o->info && o->info->empty) {
		/* A void element is written without children, whatever filled it. */
		f->o.b->len = o->content;
		f->o.b->data[o->content] = '\0';
	} else if (children || o->el == f->head || S_empty_gets_end_tag(o->info))
		S_end_tag(f->o.b, (const char *)o->el->name);
}

/* The first of each directive on n, as xmlGetProp finds them (NULL when absent); *copies to free. */
static void
S_directives(xmlNodePtr n, const char *dv[D_N], char *copies[D_N])
{
	xmlAttrPtr a;
	int d;

	for (d = 0; d < D_N; d++)
		dv[d] = copies[d] = NULL;
	for (a = n->properties; a; a = a->next) {
		if (!S_is_template_attr(a->name))
			continue;
		for (d = 0; d < D_N; d++)
			if (dv[d] == NULL && copies[d] == NULL &&
			    strcmp((const char *)a->name + strlen(ATTR_PREFIX), S_directive_names[d]) == 0) {
				dv[d] = S_attr_value(a, &copies[d]);
				break;
			}
	}
}

static void S_walk(struct fill *f, xmlNodePtr root, const struct tvars *v, int depth, int clone);

/*
 * One template node. Returns 1 with an element opened whose template
 * children *kids are still to fill. clone: n is a copy of a repeat's
 * element, for one item (its data-qd-repeat is not read again).
 */
static int
S_node(struct fill *f, xmlNodePtr n, const struct tvars *v, int depth, int clone,
    int next_blank, xmlNodePtr *kids)
{
	const struct tval *tv;
	const char *dv[D_N], *name;
	char *copies[D_N];
	int rc = 0, d;

	switch (n->type) {
	case XML_ELEMENT_NODE:
		break;
	case XML_TEXT_NODE:
		S_text(f, n->content ? (const char *)n->content : "");
		return 0;
	case XML_CDATA_SECTION_NODE:
		S_rec(f, 0);
		if (n->content)
			S_puts(f->o.b, (const char *)n->content);
		return 0;
	case XML_COMMENT_NODE:
		S_rec(f, 0);
		buf_puts(f->o.b, "<!--");
		if (n->content)
			S_puts(f->o.b, (const char *)n->content);
		buf_puts(f->o.b, "-->");
		return 0;
	case XML_PI_NODE:
		S_rec(f, 0);
		buf_puts(f->o.b, "<?");
		S_puts(f->o.b, (const char *)n->name);
		if (n->content) {
			S_putc(f->o.b, ' ');
			S_puts(f->o.b, (const char *)n->content);
		}
		S_putc(f->o.b, '>');
		return 0;
	default:
		return 0;
	}
	S_directives(n, dv, copies);
	if ((name = clone ? NULL : dv[D_REPEAT]) != NULL) {
		size_t i, base = f->open[f->nopen - 1].recs;

		tv = S_lookup(v, name);
		if (depth >= THEME_MAX_NESTING) {
			diag_error(f->dl, f->theme->part_files[f->part], (int)xmlGetLineNo(n), 0,
			    "data-qd-repeat nested more than %d deep", THEME_MAX_NESTING);
			f->failed = 1;
		} else if (tv && tv->kind == TV_LIST) {
			/* The blank text before the element, written again before each copy after the first. */
			int ws = f->nrecs > base && f->recs[f->nrecs - 1].blank;
			char *wstext = ws ? xstrndup(f->o.b->data + f->recs[f->nrecs - 1].at,
			    f->o.b->len - f->recs[f->nrecs - 1].at) : NULL;

			for (i = 0; i < tv->nitems && !f->failed; i++) {
				if (i > 0 && ws) {
					S_rec(f, 1);
					S_puts(f->o.b, wstext);
				}
				S_walk(f, n, tv->items[i], depth + 1, 1);
			}
			free(wstext);
		}
		S_remove(f, next_blank);
		goto out;
	}
	if ((name = dv[D_IF]) != NULL) {
		int neg = name[0] == '!';

		if (S_is_set(S_lookup(v, name + neg)) == neg) {
			S_remove(f, next_blank);
			goto out;
		}
	}
	if ((name = dv[D_REPLACE]) != NULL) {
		tv = S_lookup(v, name);
		if (S_is_set(tv) && tv->kind == TV_TEXT)
			S_text(f, tv->text);
		else if (S_is_set(tv) && tv->kind == TV_HTML)
			S_html(f, tv);
		S_remove(f, next_blank);
		goto out;
	}
	*kids = n->children;
	if ((name = dv[D_SLOT]) != NULL) {
		tv = S_lookup(v, name);
		if (strcmp(name, "main") == 0 && tv == NULL && f->part_body && !f->main_filled) {
			*kids = f->part_body->children;
			f->main_filled = 1;
		} else if (!S_is_set(tv) || tv->kind == TV_LIST) {
			S_remove(f, next_blank);
			goto out;
		} else {
			S_start(f, n, v);
			if (tv->kind == TV_TEXT)
				S_text(f, tv->text);
			else
				S_html(f, tv);
			S_end(f);
			goto out;
		}
	}
	S_start(f, n, v);
	rc = 1;
out:
	for (d = 0; d < D_N; d++)
		free(copies[d]);
	return rc;
}

/* Fills root (a copy of a repeat's element when clone) and its subtree, in one loop. */
static void
S_walk(struct fill *f, xmlNodePtr root, const struct tvars *v, int depth, int clone)
{
	size_t base = f->nopen;
	xmlNodePtr n = root, kids;

	while (!f->failed) {
		if (n) {
			/* A copy of a repeat's element is followed by that element: not blank. */
			int next_blank = !(n == root && clone) && (n->next == NULL || S_is_blank(n->next));

			if (S_node(f, n, v, depth, n == root && clone, next_blank, &kids)) {
				n = kids;
				continue;
			}
			if (n == root)
				break;
			n = n->next;
			continue;
		}
		if (f->nopen == base)
			break;
		n = f->open[f->nopen - 1].resume;
		S_end(f);
		if (f->nopen == base)
			break;
	}
}

int
theme_render(const struct theme *t, enum theme_part part, const struct tvars *v,
    const char *page_url, struct buf *out, struct diag_list *dl)
{
	struct fill f;
	xmlDtdPtr dtd = t->page->intSubset;
	xmlNodePtr body, n;
	size_t start = out->len;

	memset(&f, 0, sizeof(f));
	f.theme = t;
	f.part = part;
	f.page_url = page_url;
	f.dl = dl;
	body = S_find_element(xmlDocGetRootElement(t->parts[part]), "body");
	f.part_body = body ? body : xmlDocGetRootElement(t->parts[part]);
	f.o.b = out;
	buf_init(&f.o.value);
	f.head = S_find_element(xmlDocGetRootElement(t->page), "head");
	f.ctype = S_charset(f.head, &f.own);
	/* Most pages fit: one allocation, not a doubling from 64 bytes, each a copy. */
	buf_reserve(out, 16384);
	/* Always the HTML5 doctype, whatever the template had; its name as the template spelt it. */
	buf_puts(out, "<!DOCTYPE ");
	buf_puts(out, dtd && dtd->name && !dtd->ExternalID && !dtd->SystemID ? (const char *)dtd->name : "html");
	buf_puts(out, ">\n");
	/* The document's level, holding the html element and any comment around it. */
	f.open = xgrow(f.open, &f.open_cap, 1, sizeof(*f.open));
	memset(&f.open[0], 0, sizeof(f.open[0]));
	f.open[0].el = (xmlNodePtr)t->page;
	f.nopen = 1;
	for (n = t->page->children; n && !f.failed; n = n->next)
		if (n->type != XML_DTD_NODE)
			S_walk(&f, n, v, 0, 0);
	buf_putc(out, '\n');
	while (f.nurls > 0)
		free(f.urls[--f.nurls].url);
	buf_free(&f.o.value);
	free(f.recs);
	free(f.open);
	free(f.attrs);
	if (f.failed) {
		out->len = start;
		if (out->data)
			out->data[start] = '\0';
		return -1;
	}
	return 0;
}

/* ---- writing elements one at a time ---------------------------------- */

struct writer_open {
	const char *name;
	char *own;                 /* name, when the writer keeps a copy of it */
	const htmlElemDesc *info;
	int children;              /* a child was written */
	int raw;                   /* script or style: its text is written as it is */
};

#define WRITER_SEEN 32

struct theme_writer {
	struct html_out o;
	struct writer_open *open;
	size_t nopen, open_cap;
	int in_tag;                /* the start tag awaits its '>' */
	/*
	 * 1 + the index of the outermost open void element, 0 when none:
	 * a void element is written without children, as libxml2 writes
	 * one, so nothing inside it is written.
	 */
	size_t mute;
	/* The last element closed with none left open (theme_writer_last). */
	const char *last;
	char *last_own;
	size_t last_end;
	/*
	 * Tag facts by the address of the name: the names live as long as
	 * the writer (theme.h), and the renderer's are a few literals, asked
	 * for on every element. S_tag_info hashes the name's bytes.
	 */
	struct {
		const char *name;
		const htmlElemDesc *info;
	} seen[WRITER_SEEN];
};

struct theme_writer *
theme_writer_new(void)
{
	struct theme_writer *w = xcalloc(1, sizeof(*w));

	buf_init(&w->o.value);
	return w;
}

static void
S_writer_forget(struct theme_writer *w)
{
	while (w->nopen > 0)
		free(w->open[--w->nopen].own);
	free(w->last_own);
	w->last_own = NULL;
	w->last = NULL;
	w->mute = 0;
	w->in_tag = 0;
}

void
theme_writer_free(struct theme_writer *w)
{
	if (w == NULL)
		return;
	S_writer_forget(w);
	buf_free(&w->o.value);
	free(w->open);
	free(w);
}

void
theme_writer_begin(struct theme_writer *w, struct buf *b)
{
	S_writer_forget(w);
	w->o.b = b;
}

/* A child is about to be written into the current element. */
static void
S_writer_child(struct theme_writer *w)
{
	if (w->in_tag) {
		S_putc(w->o.b, '>');
		w->in_tag = 0;
	}
	if (w->nopen > 0)
		w->open[w->nopen - 1].children = 1;
}

/* Opens an element whose facts are info; own is name's copy, if the writer keeps one. */
static void
S_writer_start(struct theme_writer *w, const char *name, char *own, const htmlElemDesc *info)
{
	struct writer_open *o;

	if (!w->mute)
		S_writer_child(w);
	w->open = xgrow(w->open, &w->open_cap, w->nopen + 1, sizeof(*w->open));
	o = &w->open[w->nopen++];
	o->name = name;
	o->own = own;
	o->info = info;
	o->children = 0;
	o->raw = (name[0] == 's' || name[0] == 'S') &&
	    (!strcasecmp(name, "script") || !strcasecmp(name, "style"));
	if (w->mute)
		return;
	S_putc(w->o.b, '<');
	S_puts(w->o.b, name);
	w->in_tag = 1;
	if (info && info->empty)
		w->mute = w->nopen;
}

void
theme_writer_start(struct theme_writer *w, const char *name)
{
	size_t k = (size_t)((uintptr_t)name >> 3) % WRITER_SEEN;

	if (w->seen[k].name != name) {
		w->seen[k].name = name;
		w->seen[k].info = S_tag_info(name);
	}
	S_writer_start(w, name, NULL, w->seen[k].info);
}

void
theme_writer_start_copy(struct theme_writer *w, const char *name)
{
	char *own = xstrdup(name);

	S_writer_start(w, own, own, S_tag_info(own));
}

void
theme_writer_attr(struct theme_writer *w, const char *name, const char *value)
{
	if (w->mute && w->nopen > w->mute)
		return;
	S_putc(w->o.b, ' ');
	S_puts(w->o.b, name);
	S_put_attr_value(&w->o, w->open[w->nopen - 1].name, name, value);
}

void
theme_writer_text(struct theme_writer *w, const char *text)
{
	if (text == NULL || *text == '\0' || w->mute)
		return;
	S_writer_child(w);
	if (w->nopen > 0 && w->open[w->nopen - 1].raw)
		S_puts(w->o.b, text);
	else
		S_escape(w->o.b, text, 0);
}

void
theme_writer_raw(struct theme_writer *w, const char *html, size_t len)
{
	if (w->mute)
		return;
	S_writer_child(w);
	S_put(w->o.b, html, len);
}

void
theme_writer_end(struct theme_writer *w)
{
	struct writer_open *o = &w->open[--w->nopen];
	const htmlElemDesc *info = o->info;
	size_t end;

	if (w->mute && w->nopen >= w->mute) {
		free(o->own);           /* inside a void element: nothing was written */
		return;
	}
	w->mute = 0;
	if (w->in_tag) {
		S_putc(w->o.b, '>');
		w->in_tag = 0;
	}
	end = w->o.b->len;
	if (!(info && info->empty) && (o->children || S_empty_gets_end_tag(info)))
		S_end_tag(w->o.b, o->name);
	if (w->nopen > 0) {
		free(o->own);
		return;
	}
	free(w->last_own);
	w->last = o->name;
	w->last_own = o->own;
	w->last_end = end;
}

size_t
theme_writer_depth(const struct theme_writer *w)
{
	return w->nopen;
}

const char *
theme_writer_top(const struct theme_writer *w)
{
	return w->nopen > 0 ? w->open[w->nopen - 1].name : NULL;
}

const char *
theme_writer_last(const struct theme_writer *w, size_t *end_tag)
{
	*end_tag = w->last_end;
	return w->last;
}

/* ---- nodes libxml2's parser read ----------------------------------- */

void
theme_writer_start_node(struct theme_writer *w, xmlNodePtr el)
{
	xmlAttrPtr a;

	theme_writer_start_copy(w, (const char *)el->name);
	for (a = el->properties; a; a = a->next) {
		char *copy;

		theme_writer_attr(w, (const char *)a->name, S_attr_value(a, &copy));
		free(copy);
	}
}

/*
 * A node that is not an element. Whatever it writes, it is a child: an
 * element with one gets the end tag libxml2 then writes.
 */
static void
S_writer_leaf(struct theme_writer *w, xmlNodePtr n)
{
	const char *content = (const char *)n->content;

	if (w->mute)
		return;
	S_writer_child(w);
	switch (n->type) {
	case XML_TEXT_NODE:
		if (content && w->nopen > 0 && w->open[w->nopen - 1].raw)
			S_puts(w->o.b, content);
		else if (content)
			S_escape(w->o.b, content, 0);
		break;
	case XML_CDATA_SECTION_NODE:
		if (content)
			S_puts(w->o.b, content);
		break;
	case XML_COMMENT_NODE:
		if (content) {
			S_put(w->o.b, "<!--", 4);
			S_puts(w->o.b, content);
			S_put(w->o.b, "-->", 3);
		}
		break;
	case XML_PI_NODE:
		if (n->name) {
			S_put(w->o.b, "<?", 2);
			S_puts(w->o.b, (const char *)n->name);
			if (content) {
				S_putc(w->o.b, ' ');
				S_puts(w->o.b, content);
			}
			S_putc(w->o.b, '>');
		}
		break;
	case XML_ENTITY_REF_NODE:
		S_putc(w->o.b, '&');
		S_puts(w->o.b, (const char *)n->name);
		S_putc(w->o.b, ';');
		break;
	default:
		break;
	}
}

void
theme_writer_node(struct theme_writer *w, xmlNodePtr top)
{
	xmlNodePtr n = top;

	for (;;) {
		if (n->type == XML_ELEMENT_NODE) {
			theme_writer_start_node(w, n);
			if (n->children) {
				n = n->children;
				continue;
			}
			theme_writer_end(w);
		} else
			S_writer_leaf(w, n);
		while (n != top && n->next == NULL) {
			n = n->parent;
			theme_writer_end(w);
		}
		if (n == top)
			return;
		n = n->next;
	}
}

/*
 * theme: locating a theme, parsing its templates with libxml2's HTML
 * parser, and filling them through the tree.
 *
 * The fill is one loop over the tree (no recursion), except that each
 * data-qd-repeat item is filled by a nested call; templates may nest
 * repeats at most THEME_MAX_NESTING deep, so the depth is bounded by a
 * constant, never by content.
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
#include <libxml/parserInternals.h>
#include <libxml/xmlsave.h>

#include "links.h"
#include "util.h"

#define THEME_MAX_NESTING 8
#define ATTR_PREFIX "data-qd-"

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
	"home", "test", "deck", "chapter", "404",
};

enum tval_kind { TV_TEXT, TV_NODES, TV_LIST };

struct tval {
	const char *name;          /* not copied: a string literal (theme.h) */
	enum tval_kind kind;
	char *text;                /* TV_TEXT */
	xmlNodePtr holder;         /* TV_NODES: an unlinked element whose children are the value */
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

/* Frees what is not the arena's: the node values. */
static void S_tvars_clear(struct tvars *v);

static void
S_tval_clear(struct tval *tv)
{
	size_t i;

	tv->text = NULL;
	if (tv->holder)
		xmlFreeNode(tv->holder);
	tv->holder = NULL;
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
tvars_nodes(struct tvars *v, const char *name, xmlNodePtr holder)
{
	struct tval *tv = S_slot(v, name);

	tv->kind = TV_NODES;
	tv->holder = holder;
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

/* A value counts as set when it has text, nodes, or list items. */
static int
S_is_set(const struct tval *tv)
{
	if (tv == NULL)
		return 0;
	switch (tv->kind) {
	case TV_TEXT:
		return tv->text[0] != '\0';
	case TV_NODES:
		return tv->holder->children != NULL;
	case TV_LIST:
		return tv->nitems > 0;
	}
	return 0;
}

/* ---- locating and loading -------------------------------------------- */

static int S_emit_ok(const struct theme *t, enum theme_part part);
static void S_cache_facts(xmlNodePtr top);
static void S_free_facts(xmlNodePtr top);
static xmlDocPtr S_render_emit(const struct theme *t, enum theme_part part,
    const struct tvars *v, const char *page_url);


static char *
S_exe_dir(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	return path_dirname(path);
}

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
				    strcmp(rest, "repeat") != 0 &&
				    !(strncmp(rest, "attr-", 5) == 0 && rest[5] != '\0')) {
					diag_error(dl, file, (int)xmlGetLineNo(n), 0,
					    "unknown template attribute \"%s\" (see the theme README)", an);
					rc = -1;
					continue;
				}
				/* The serialiser writes script and style content raw: no value goes there. */
				if (strcmp(rest, "slot") == 0 && (xmlStrcasecmp(n->name, (const xmlChar *)"script") == 0 ||
				    xmlStrcasecmp(n->name, (const xmlChar *)"style") == 0)) {
					diag_error(dl, file, (int)xmlGetLineNo(n), 0,
					    "template attribute \"%s\" on <%s>: values may not fill a script or style",
					    an, (const char *)n->name);
					rc = -1;
					continue;
				}
				/* Content in a script context would run: values fill no such attribute. */
				if (strncmp(rest, "attr-", 5) == 0 && (strncasecmp(rest + 5, "on", 2) == 0 ||
				    strcasecmp(rest + 5, "style") == 0 || strcasecmp(rest + 5, "srcdoc") == 0)) {
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

static xmlDocPtr
S_parse_template(const char *path, struct diag_list *dl)
{
	xmlDocPtr doc = NULL;
	char *data = NULL;
	size_t len;

	if (file_read(path, &data, &len) == -1) {
		diag_error(dl, path, 0, 0, "cannot read the template: %s", strerror(errno));
		goto out;
	}
	doc = theme_parse(data, len, path, dl);
out:
	free(data);
	return doc;
}

int
theme_load(struct theme *t, const char *site_root, const char *name,
    struct diag_list *dl)
{
	char *cand[5] = { NULL, NULL, NULL, NULL, NULL };
	char *exe = NULL, *rel = NULL, *path = NULL;
	size_t i, ncand = 0;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	if (!S_name_ok(name)) {
		diag_error(dl, "site.toml", 0, 0,
		    "theme \"%s\": a theme is named by its folder in themes/", name);
		goto out;
	}
	rel = path_join("themes", name);
	cand[ncand++] = path_join(site_root, rel);
	if ((exe = S_exe_dir()) != NULL) {
		char *share = path_join(exe, "../share/quizdeck");

		char *up1 = path_join(exe, "..");
		char *up2 = path_join(exe, "../..");

		/* Installed: <prefix>/bin and <prefix>/share/quizdeck; in the source tree: beside it or two up (build/asan/). */
		cand[ncand++] = path_join(share, rel);
		cand[ncand++] = path_join(exe, rel);
		cand[ncand++] = path_join(up1, rel);
		cand[ncand++] = path_join(up2, rel);
		free(share);
		free(up1);
		free(up2);
	}
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
	if ((t->page = S_parse_template(path, dl)) == NULL)
		goto out;
	S_cache_facts(xmlDocGetRootElement(t->page));
	rc = 0;
	for (i = 0; i < THEME_NPARTS; i++) {
		char *file = xasprintf("templates/%s.html", S_part_names[i]);

		t->part_files[i] = path_join(t->dir, file);
		free(file);
		if (!path_is_file(t->part_files[i])) {
			diag_error(dl, t->part_files[i], 0, 0,
			    "theme \"%s\" has no %s.html template", name, S_part_names[i]);
			rc = -1;
		} else if ((t->parts[i] = S_parse_template(t->part_files[i], dl)) == NULL)
			rc = -1;
		else {
			size_t cap = 0;

			S_collect_names(t->page, &t->uses[i], &t->nuses[i], &cap);
			S_collect_names(t->parts[i], &t->uses[i], &t->nuses[i], &cap);
			if (t->nuses[i] > 1)
				qsort(t->uses[i], t->nuses[i], sizeof(char *), S_cmp_name);
			t->emit[i] = S_emit_ok(t, (enum theme_part)i);
			S_cache_facts(xmlDocGetRootElement(t->parts[i]));
		}
	}
out:
	for (i = 0; i < ncand; i++)
		free(cand[i]);
	free(exe);
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
	if (t->page) {
		S_free_facts(xmlDocGetRootElement(t->page));
		xmlFreeDoc(t->page);
	}
	for (i = 0; i < THEME_NPARTS; i++) {
		if (t->parts[i]) {
			S_free_facts(xmlDocGetRootElement(t->parts[i]));
			xmlFreeDoc(t->parts[i]);
		}
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

/* ---- filling ----------------------------------------------------------- */

#define FILL_URLS 16

struct fill {
	const struct theme *theme;
	enum theme_part part;
	xmlDocPtr doc;
	const char *page_url;
	xmlNodePtr part_body;      /* the part template's body: the "main" slot */
	struct diag_list *dl;
	const char *file;
	int failed;
	int main_filled;           /* the part went in once: a "main" slot inside it stays empty */
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

static void S_fill(struct fill *f, xmlNodePtr root, const struct tvars *v, int depth);

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

static void
S_fill_urls_free(struct fill *f)
{
	while (f->nurls > 0)
		free(f->urls[--f->nurls].url);
}

static int
S_is_template_attr(const xmlChar *name)
{
	/* Asked of every attribute of every template element: most fail at the first letter. */
	return name[0] == ATTR_PREFIX[0] &&
	    strncmp((const char *)name, ATTR_PREFIX, strlen(ATTR_PREFIX)) == 0;
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
	if ((v = xmlNodeGetContent((xmlNodePtr)a)) == NULL)
		return NULL;
	*copy = xstrdup((const char *)v);
	xmlFree(v);
	return *copy;
}

/* 1 for text of spaces, tabs and line feeds only: what the fill and the emitter call blank. */
static int
S_text_is_blank(const char *text)
{
	for (; *text; text++)
		if (*text != ' ' && *text != '\t' && *text != '\n')
			return 0;
	return 1;
}

static int
S_is_blank(xmlNodePtr n)
{
	return n != NULL && n->type == XML_TEXT_NODE &&
	    (n->content == NULL || S_text_is_blank((const char *)n->content));
}

static void
S_remove(xmlNodePtr n)
{
	xmlUnlinkNode(n);
	xmlFreeNode(n);
}

/*
 * Removes an element and the line break before it, so no blank line
 * stays. Only nodes already visited go: the fill loop holds the next one.
 */
static void
S_remove_element(xmlNodePtr n)
{
	if (S_is_blank(n->prev) && (n->next == NULL || S_is_blank(n->next)))
		S_remove(n->prev);
	S_remove(n);
}

static void
S_clear_children(xmlNodePtr n)
{
	while (n->children)
		S_remove(n->children);
}

/* The text of a value, for attributes; NULL when unset. Caller frees. */
static char *
S_text_of(const struct tval *tv)
{
	xmlChar *c;
	char *s;

	if (tv == NULL)
		return NULL;
	switch (tv->kind) {
	case TV_TEXT:
		return xstrdup(tv->text);
	case TV_NODES:
		c = xmlNodeGetContent(tv->holder);
		s = xstrdup(c ? (const char *)c : "");
		xmlFree(c);
		return s;
	case TV_LIST:
		break;
	}
	return NULL;
}

/*
 * What data-qd-attr-<target>="name" on an element el sets target to, or
 * NULL to leave it out: name's text, or the text of its nodes (*own, for
 * the caller to free); a URL made relative to the page, and dropped when
 * unsafe. Both the tree fill and the emitter take it from here.
 */
static const char *
S_attr_fill_text(struct fill *f, const struct tvars *v, const char *name, const char *target,
    const char *el, char **own)
{
	const struct tval *tv = name ? S_lookup(v, name) : NULL;
	const char *text = NULL;

	*own = NULL;
	if (tv && tv->kind == TV_TEXT)
		text = tv->text;
	else if (tv && tv->kind == TV_NODES)
		text = *own = S_text_of(tv);
	if (text && S_is_url_attr(target))
		text = links_url_is_safe(text, strcmp(el, "img") == 0) ? S_fill_url(f, text) : NULL;
	return text;
}

/* Sets attributes from data-qd-attr-*, rewrites template URLs, drops data-qd-*. */
static void
S_fill_attrs(struct fill *f, xmlNodePtr n, const struct tvars *v)
{
	xmlAttrPtr a, next;
	int template = 0;

	for (a = n->properties; a; a = a->next) {
		const char *an = (const char *)a->name, *val;
		const char *url;
		char *copy;

		if (S_is_template_attr(a->name))
			template = 1;
		if (!S_is_url_attr(an))
			continue;
		val = S_attr_value(a, &copy);
		url = S_fill_url(f, val ? val : "");
		/* One text node of that value already: what xmlSetProp would make. */
		if (!(copy == NULL && val && strcmp(val, url) == 0))
			xmlSetProp(n, a->name, (const xmlChar *)url);
		free(copy);
	}
	if (!template)
		return;
	for (a = n->properties; a; a = next) {
		const char *an = (const char *)a->name;

		next = a->next;
		if (strncmp(an, ATTR_PREFIX "attr-", strlen(ATTR_PREFIX "attr-")) == 0) {
			const char *target = an + strlen(ATTR_PREFIX "attr-");
			char *name_copy, *content;
			const char *name = S_attr_value(a, &name_copy);
			const char *text = S_attr_fill_text(f, v, name, target, (const char *)n->name, &content);

			if (text)
				xmlSetProp(n, (const xmlChar *)target, (const xmlChar *)text);
			free(content);
			free(name_copy);
		}
	}
	for (a = n->properties; a; a = next) {
		next = a->next;
		if (S_is_template_attr(a->name))
			xmlRemoveProp(a);
	}
}

/*
 * The nodes of value tv for its place in the page: moved out of the value
 * when the templates name it only here (a page's body is most of the
 * page), else a copy.
 */
static xmlNodePtr
S_value_nodes(struct fill *f, const struct tval *tv, const char *name)
{
	xmlNodePtr list, c;

	if (theme_uses(f->theme, f->part, name) != 1)
		return xmlDocCopyNodeList(f->doc, tv->holder->children);
	list = tv->holder->children;
	tv->holder->children = tv->holder->last = NULL;
	for (c = list; c; c = c->next)
		c->parent = NULL;
	return list;
}

enum { KEEP, REMOVED };

/*
 * The directives that take an element away or put values in its place,
 * by their name after data-qd-: read by the tree fill (S_fill_element)
 * and, once at load, for the emitter (S_facts).
 */
enum directive { D_REPEAT, D_IF, D_REPLACE, D_SLOT, D_N };
static const char *const S_directive_names[D_N] = { "repeat", "if", "replace", "slot" };

/*
 * Applies the template attributes of one element. Returns REMOVED if the
 * element is gone; *descend says whether its children are template.
 */
static int
S_fill_element(struct fill *f, xmlNodePtr n, const struct tvars *v, int depth, int *descend)
{
	/* The first of each directive, as xmlGetProp finds them; their values are read once. */
	const char *dv[D_N] = { NULL, NULL, NULL, NULL };
	char *copies[D_N] = { NULL, NULL, NULL, NULL };
	int found[D_N] = { 0, 0, 0, 0 };
	xmlAttrPtr a;
	const char *name;
	const struct tval *tv;
	int rc = KEEP, d;

	*descend = 1;
	for (a = n->properties; a; a = a->next) {
		if (a->ns || !S_is_template_attr(a->name))
			continue;
		for (d = 0; d < D_N; d++)
			if (!found[d] && strcmp((const char *)a->name + strlen(ATTR_PREFIX), S_directive_names[d]) == 0) {
				found[d] = 1;
				dv[d] = S_attr_value(a, &copies[d]);
				break;
			}
	}
	if ((name = dv[D_REPEAT]) != NULL) {
		size_t i;

		tv = S_lookup(v, name);
		if (depth >= THEME_MAX_NESTING) {
			diag_error(f->dl, f->file, (int)xmlGetLineNo(n), 0,
			    "data-qd-repeat nested more than %d deep", THEME_MAX_NESTING);
			f->failed = 1;
		} else if (tv && tv->kind == TV_LIST) {
			xmlNodePtr ws = S_is_blank(n->prev) ? n->prev : NULL;

			for (i = 0; i < tv->nitems; i++) {
				xmlNodePtr clone = xmlDocCopyNode(n, f->doc, 1);

				/* Items after the first get the whitespace that preceded the original. */
				if (i > 0 && ws)
					xmlAddPrevSibling(n, xmlDocCopyNode(ws, f->doc, 1));

				xmlUnsetProp(clone, (const xmlChar *)ATTR_PREFIX "repeat");
				xmlAddPrevSibling(n, clone);
				S_fill(f, clone, tv->items[i], depth + 1);
			}
		}
		S_remove_element(n);
		rc = REMOVED;
		goto out;
	}
	if ((name = dv[D_IF]) != NULL) {
		int neg = name[0] == '!';
		int set = S_is_set(S_lookup(v, name + neg));

		if (set == neg) {
			S_remove_element(n);
			rc = REMOVED;
			goto out;
		}
	}
	if ((name = dv[D_REPLACE]) != NULL) {
		tv = S_lookup(v, name);
		if (S_is_set(tv) && tv->kind == TV_TEXT)
			xmlAddPrevSibling(n, xmlNewDocText(f->doc, (const xmlChar *)tv->text));
		else if (S_is_set(tv) && tv->kind == TV_NODES) {
			xmlNodePtr c = S_value_nodes(f, tv, name), next;

			for (; c; c = next) {
				next = c->next;
				c->next = c->prev = NULL;
				if (next)
					next->prev = NULL;
				xmlAddPrevSibling(n, c);
			}
		}
		S_remove_element(n);
		rc = REMOVED;
		goto out;
	}
	if ((name = dv[D_SLOT]) != NULL) {
		tv = S_lookup(v, name);
		if (strcmp(name, "main") == 0 && tv == NULL && f->part_body && !f->main_filled) {
			S_clear_children(n);
			xmlAddChildList(n, xmlDocCopyNodeList(f->doc, f->part_body->children));
			f->main_filled = 1;
		} else if (!S_is_set(tv) || tv->kind == TV_LIST) {
			S_remove_element(n);
			rc = REMOVED;
			goto out;
		} else if (tv->kind == TV_TEXT) {
			S_clear_children(n);
			xmlAddChild(n, xmlNewDocText(f->doc, (const xmlChar *)tv->text));
			*descend = 0;
		} else {
			S_clear_children(n);
			xmlAddChildList(n, S_value_nodes(f, tv, name));
			*descend = 0;
		}
	}
	S_fill_attrs(f, n, v);
out:
	for (d = 0; d < D_N; d++)
		free(copies[d]);
	return rc;
}


/* 1 if the element has a template attribute or a URL to rewrite; the others stay as they are. */
static int
S_needs_fill(xmlNodePtr n)
{
	xmlAttrPtr a;

	for (a = n->properties; a; a = a->next)
		if (strncmp((const char *)a->name, ATTR_PREFIX, strlen(ATTR_PREFIX)) == 0 ||
		    S_is_url_attr((const char *)a->name))
			return 1;
	return 0;
}

static void
S_fill(struct fill *f, xmlNodePtr root, const struct tvars *v, int depth)
{
	xmlNodePtr n = root;

	while (n) {
		xmlNodePtr after = S_after(n, root);
		int descend = 0;

		if (n->type == XML_ELEMENT_NODE && !S_needs_fill(n))
			descend = 1;
		else if (n->type == XML_ELEMENT_NODE &&
		    S_fill_element(f, n, v, depth, &descend) == REMOVED) {
			n = after;
			continue;
		}
		if (n->type == XML_ELEMENT_NODE && descend && n->children)
			n = n->children;
		else
			n = after;
	}
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

xmlDocPtr
theme_render(const struct theme *t, enum theme_part part,
    const struct tvars *v, const char *page_url, struct diag_list *dl)
{
	struct fill f;
	xmlDocPtr doc;
	xmlDtdPtr dtd;
	xmlNodePtr body;

	if (t->emit[part] && (doc = S_render_emit(t, part, v, page_url)) != NULL)
		return doc;
	doc = xmlCopyDoc(t->page, 1);
	memset(&f, 0, sizeof(f));
	f.theme = t;
	f.part = part;
	f.doc = doc;
	f.page_url = page_url;
	f.dl = dl;
	f.file = t->part_files[part];
	body = S_find_element(xmlDocGetRootElement(t->parts[part]), "body");
	f.part_body = body ? body : xmlDocGetRootElement(t->parts[part]);
	S_fill(&f, xmlDocGetRootElement(doc), v, 0);
	S_fill_urls_free(&f);
	if (f.failed) {
		xmlFreeDoc(doc);
		doc = NULL;
		goto out;
	}
	/* Always the HTML5 doctype, whatever the template had. */
	if ((dtd = xmlGetIntSubset(doc)) != NULL && (dtd->ExternalID || dtd->SystemID)) {
		xmlUnlinkNode((xmlNodePtr)dtd);
		xmlFreeDtd(dtd);
		dtd = NULL;
	}
	if (dtd == NULL)
		xmlCreateIntSubset(doc, (const xmlChar *)"html", NULL, NULL);
out:
	return doc;
}

/* ---- serialising ------------------------------------------------------- */

/* Marks (doc->_private) a page S_render_emit wrote: its one child is the page's bytes. */
static const char S_emitted[] = "quizdeck page bytes";

/* What libxml2's HTML serialiser adds to the head when saving as UTF-8. */
static const char S_added_meta[] =
    "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">";

/* 1 if the head has its own <meta charset>. */
static int
S_has_meta_charset(xmlNodePtr head)
{
	xmlNodePtr n;

	for (n = head ? head->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "meta") == 0 &&
		    xmlHasProp(n, (const xmlChar *)"charset"))
			return 1;
	return 0;
}

/* libxml2's serialiser, for the trees S_serialize_fast leaves to it. */
static void
S_serialize_libxml(xmlDocPtr doc, int own, struct buf *b)
{
	xmlBufferPtr xb = xmlBufferCreate();
	xmlSaveCtxtPtr sc;
	const char *s, *hit;

	sc = xmlSaveToBuffer(xb, "UTF-8", XML_SAVE_AS_HTML | XML_SAVE_NO_DECL);
	xmlSaveDoc(sc, doc);
	xmlSaveClose(sc);
	s = (const char *)xmlBufferContent(xb);
	if (own && (hit = strstr(s, S_added_meta)) != NULL) {
		buf_put(b, s, (size_t)(hit - s));
		buf_puts(b, hit + strlen(S_added_meta));
	} else
		buf_puts(b, s);
	xmlBufferFree(xb);
}

#define SERIAL_TAGS 64

/*
 * The fast serialiser writes what libxml2 2.9's HTML serialiser writes,
 * byte for byte, straight into one buffer: no encoding pass, no copy per
 * text node, and libxml2's element table (a linear search) consulted once
 * per element name and page.
 */
struct serial {
	struct buf *b;
	struct buf value;          /* an attribute value, escaped */
	struct {
		const char *name;
		const htmlElemDesc *info;
	} tags[SERIAL_TAGS];
};

static const htmlElemDesc *
S_tag_info(struct serial *s, const char *name)
{
	size_t h = (size_t)hash_fnv1a(name, strlen(name), HASH_FNV_SEED) % SERIAL_TAGS, i;

	for (i = 0; i < SERIAL_TAGS; i++, h = (h + 1) % SERIAL_TAGS) {
		if (s->tags[h].name == NULL) {
			s->tags[h].name = name;
			s->tags[h].info = htmlTagLookup((const xmlChar *)name);
			return s->tags[h].info;
		}
		if (strcmp(s->tags[h].name, name) == 0)
			return s->tags[h].info;
	}
	return htmlTagLookup((const xmlChar *)name);
}

/* buf_put and buf_putc without the call for what fits: the serialiser writes a byte at a time. */
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

/*
 * Text as libxml2 escapes it in an HTML document: <, > and & as
 * entities, other control characters than tab, line feed and carriage
 * return dropped, the rest (UTF-8 included) as it is. In attribute values
 * `<!--...-->` and `&{...}` stay as they are.
 */
/* The bytes S_escape stops at: controls but tab, line feed and carriage return (NUL ends), <, > and &. */
static const unsigned char S_escape_stop[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,
};

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

/* libxml2's xmlBufWriteQuotedString. */
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

/* libxml2's xmlURIEscapeStr(p, "@/:=?;#%&,+<>"): all but unreserved characters as %XX. */
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
 * libxml2's htmlIsBooleanAttr: these are written without a value. Every
 * attribute of every element asks, so the length picks the names to
 * compare.
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

/*
 * The rest of an attribute after its name, for a value of one text node
 * (NULL: no value, as a template's bare attribute) of an element named el.
 */
static void
S_put_attr_value(struct serial *s, const char *el, const char *name, const char *value)
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
			S_put(s->b, "=\"", 2);
			S_put(s->b, value, (size_t)(v - value));
			S_putc(s->b, '"');
			return;
		}
		buf_reset(&s->value);
		buf_put(&s->value, "", 0);
		S_escape(&s->value, value, 1);
		for (v = s->value.data; *v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'; v++)
			;
		/* Percent-encoding leaves no double quote: always in double quotes. */
		S_put(s->b, "=\"", 2);
		S_uri_escape(s->b, v);
		S_putc(s->b, '"');
	} else if (strchr(value, '"') == NULL) {
		/* Escaping adds no quote: in double quotes, straight into the page. */
		S_put(s->b, "=\"", 2);
		S_escape(s->b, value, 1);
		S_putc(s->b, '"');
	} else {
		buf_reset(&s->value);
		buf_put(&s->value, "", 0);
		S_escape(&s->value, value, 1);
		S_putc(s->b, '=');
		S_put_quoted(s->b, s->value.data, s->value.len);
	}
}

/* One attribute, with its leading space. -1 for what only libxml2 writes (entity references). */
static int
S_put_attr(struct serial *s, xmlNodePtr el, xmlAttrPtr a)
{
	const char *v;
	xmlNodePtr t;

	S_putc(s->b, ' ');
	S_puts(s->b, (const char *)a->name);
	if (a->children == NULL || S_is_boolean_attr((const char *)a->name))
		return 0;
	t = a->children;
	if (t->type == XML_TEXT_NODE && t->next == NULL) {
		S_put_attr_value(s, (const char *)el->name, (const char *)a->name,
		    t->content ? (const char *)t->content : "");
		return 0;
	}
	buf_reset(&s->value);
	buf_put(&s->value, "", 0);
	for (; t; t = t->next) {
		if (t->type != XML_TEXT_NODE)
			return -1;
		if (t->content)
			S_escape(&s->value, (const char *)t->content, 1);
	}
	S_putc(s->b, '=');
	if (!S_is_uri_attr((const char *)el->name, (const char *)a->name)) {
		S_put_quoted(s->b, s->value.data, s->value.len);
		return 0;
	}
	for (v = s->value.data; *v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'; v++)
		;
	/* Percent-encoding leaves no double quote: always in double quotes. */
	S_putc(s->b, '"');
	S_uri_escape(s->b, v);
	S_putc(s->b, '"');
	return 0;
}

static void
S_end_tag(struct buf *b, xmlNodePtr el)
{
	S_put(b, "</", 2);
	S_puts(b, (const char *)el->name);
	S_putc(b, '>');
}

/*
 * The subtree at root (root included when with_root), in the page
 * serialiser's terms; head is the page's <head> (NULL in a fragment),
 * which gets the charset <meta> unless own. -1 for what only libxml2
 * writes; b then holds part of it and the caller cuts it off.
 */
static int
S_serialize_tree(struct serial *s, xmlNodePtr root, int with_root, xmlNodePtr head, int own)
{
	struct buf *b = s->b;
	xmlNodePtr n = root;

	if (!with_root) {
		if ((n = root->children) == NULL)
			return 0;
	}
	for (;;) {
		const htmlElemDesc *info;
		int descend = 0;
		xmlAttrPtr a;

		switch (n->type) {
		case XML_ELEMENT_NODE:
			if (n->ns || n->nsDef)
				return -1;
			info = S_tag_info(s, (const char *)n->name);
			S_putc(b, '<');
			S_puts(b, (const char *)n->name);
			for (a = n->properties; a; a = a->next)
				if (a->ns || S_put_attr(s, n, a) == -1)
					return -1;
			S_putc(b, '>');
			if (n == head && !own)
				S_puts(b, S_added_meta);
			if (info && info->empty)
				break;
			if (n->children)
				descend = 1;
			else if (n == head || !info || !info->saveEndTag ||
			    !strcmp(info->name, "html") || !strcmp(info->name, "body"))
				S_end_tag(b, n);
			break;
		case XML_TEXT_NODE:
			if (n->content == NULL)
				break;
			if (n->name != xmlStringTextNoenc && (n->parent == NULL ||
			    (xmlStrcasecmp(n->parent->name, (const xmlChar *)"script") &&
			    xmlStrcasecmp(n->parent->name, (const xmlChar *)"style"))))
				S_escape(b, (const char *)n->content, 0);
			else
				S_puts(b, (const char *)n->content);
			break;
		case XML_CDATA_SECTION_NODE:
			if (n->content)
				S_puts(b, (const char *)n->content);
			break;
		case XML_COMMENT_NODE:
			if (n->content) {
				buf_puts(b, "<!--");
				S_puts(b, (const char *)n->content);
				buf_puts(b, "-->");
			}
			break;
		default:
			return -1;
		}
		if (descend) {
			n = n->children;
			continue;
		}
		while (n != root && n->next == NULL) {
			n = n->parent;
			if (n == root && !with_root)
				return 0;
			S_end_tag(b, n);
		}
		if (n == root)
			break;
		n = n->next;
	}
	return 0;
}

/*
 * The page as libxml2 writes it, for the trees theme_render makes: a
 * doctype and one <html> with at most one <head> child. Returns -1, with
 * b as it was, for anything else; libxml2 writes those.
 */
static int
S_serialize_fast(xmlDocPtr doc, int own, struct buf *b)
{
	struct serial s;
	xmlNodePtr root = NULL, head = NULL, n;
	xmlDtdPtr dtd = doc->intSubset;
	size_t start = b->len;
	int rc = -1;

	memset(&s, 0, sizeof(s));
	s.b = b;
	buf_init(&s.value);
	for (n = doc->children; n; n = n->next) {
		if (n->type == XML_DTD_NODE && (xmlDtdPtr)n == dtd)
			continue;
		if (n->type != XML_ELEMENT_NODE || root || strcmp((const char *)n->name, "html") != 0)
			goto out;
		root = n;
	}
	/* A template's "<!DOCTYPE>" has no name (fuzz_template): libxml2 writes that. */
	if (root == NULL || (dtd && (dtd->ExternalID || dtd->SystemID || dtd->name == NULL)))
		goto out;
	/* libxml2 puts its <meta> in the <head> child of <html>; other meta and head shapes are its own. */
	for (n = root->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE) {
			if (!xmlStrcasecmp(n->name, (const xmlChar *)"meta") ||
			    (!xmlStrcasecmp(n->name, (const xmlChar *)"head") && head))
				goto out;
			if (!xmlStrcasecmp(n->name, (const xmlChar *)"head"))
				head = n;
		}
	if (head != S_find_element(root, "head"))
		goto out;
	for (n = head ? head->children : NULL; n; n = n->next) {
		xmlAttrPtr a;

		if (n->type != XML_ELEMENT_NODE || xmlStrcasecmp(n->name, (const xmlChar *)"meta"))
			continue;
		for (a = n->properties; a; a = a->next)
			if (!xmlStrcasecmp(a->name, (const xmlChar *)"http-equiv") && a->children &&
			    a->children->type == XML_TEXT_NODE &&
			    !xmlStrcasecmp(a->children->content, (const xmlChar *)"Content-Type"))
				goto out;
	}
	if (dtd) {
		buf_puts(b, "<!DOCTYPE ");
		buf_puts(b, (const char *)dtd->name);
		buf_puts(b, ">\n");
	}
	if (S_serialize_tree(&s, root, 1, head, own) == -1)
		goto out;
	buf_putc(b, '\n');
	rc = 0;
out:
	if (rc == -1) {
		b->len = start;
		if (b->data)
			b->data[start] = '\0';
	}
	buf_free(&s.value);
	return rc;
}

void
theme_serialize_children(xmlNodePtr holder, struct buf *b)
{
	struct serial s;
	size_t start = b->len;

	memset(&s, 0, sizeof(s));
	s.b = b;
	buf_init(&s.value);
	if (S_serialize_tree(&s, holder, 0, NULL, 1) == -1) {
		/* Only libxml2 writes this (an entity reference): let it. */
		xmlBufferPtr xb = xmlBufferCreate();
		xmlNodePtr n;

		b->len = start;
		for (n = holder->children; n; n = n->next)
			htmlNodeDump(xb, n->doc, n);
		buf_put(b, (const char *)xmlBufferContent(xb), (size_t)xmlBufferLength(xb));
		xmlBufferFree(xb);
	}
	buf_free(&s.value);
}

int
theme_serialize(xmlDocPtr doc, char **out, size_t *len)
{
	int own;
	struct buf b;

	if (doc->_private == (void *)S_emitted) {
		/* The bytes change hands, uncopied: they are a whole page. */
		*out = (char *)doc->children->content;
		*len = strlen(*out);
		doc->children->content = NULL;
		doc->_private = NULL;
		return 0;
	}
	own = S_has_meta_charset(S_find_element(xmlDocGetRootElement(doc), "head"));
	buf_init(&b);
	buf_put(&b, "", 0);
	if (S_serialize_fast(doc, own, &b) == -1)
		S_serialize_libxml(doc, own, &b);
	*len = b.len;
	*out = buf_detach(&b);
	return 0;
}

/* ---- filling straight into bytes ------------------------------------- */

/*
 * What the emitter asks of each template element on every page, worked
 * out once at load and kept on the node (_private): libxml2's facts about
 * its tag (htmlTagLookup is a linear search), its directives, and each
 * attribute as the page writes it when no value can change it. Template
 * trees are only read after loading, by every thread.
 */
struct tel {
	const htmlElemDesc *info;  /* NULL: a tag libxml2 does not know */
	const char *dv[D_N];       /* the directives' values (the first of each), NULL when absent */
	int raw;                   /* script or style: its text is written as it is */
	char **fixed;              /* per attribute: " name=\"value\"" as written, or NULL when filled */
	size_t nattrs;
	char *start;               /* the whole start tag, when every attribute is fixed or a directive */
	size_t start_len;
};

static int
S_is_raw_parent(const xmlChar *name)
{
	return xmlStrcasecmp(name, (const xmlChar *)"script") == 0 ||
	    xmlStrcasecmp(name, (const xmlChar *)"style") == 0;
}

/* 1 if a data-qd-attr-* of n fills the attribute named name. */
static int
S_is_fill_target(xmlNodePtr n, const xmlChar *name)
{
	size_t k = strlen(ATTR_PREFIX "attr-");
	xmlAttrPtr a;

	for (a = n->properties; a; a = a->next)
		if (strncmp((const char *)a->name, ATTR_PREFIX "attr-", k) == 0 &&
		    xmlStrcmp(a->name + k, name) == 0)
			return 1;
	return 0;
}

static struct tel *
S_facts(xmlNodePtr n)
{
	struct tel *el = xcalloc(1, sizeof(*el));
	struct serial s;
	struct buf b;
	xmlAttrPtr a;
	size_t i = 0;
	int plain = 1, d;

	el->info = htmlTagLookup(n->name);
	el->raw = S_is_raw_parent(n->name);
	for (a = n->properties; a; a = a->next)
		el->nattrs++;
	el->fixed = xcalloc(el->nattrs + 1, sizeof(*el->fixed));
	memset(&s, 0, sizeof(s));
	s.b = &b;
	buf_init(&s.value);
	for (a = n->properties; a; a = a->next, i++) {
		const char *val = a->children ? (const char *)a->children->content : NULL;

		if (S_is_template_attr(a->name)) {
			for (d = 0; d < D_N; d++)
				if (el->dv[d] == NULL && val &&
				    strcmp((const char *)a->name + strlen(ATTR_PREFIX), S_directive_names[d]) == 0) {
					el->dv[d] = val;
					break;
				}
			/* A fill of another attribute is worked out on each page. */
			plain &= d < D_N;
			continue;
		}
		/* A URL is made relative to each page; a filled attribute takes its value there. */
		if (S_is_url_attr((const char *)a->name) || S_is_fill_target(n, a->name) ||
		    (a->children && (a->children->next || a->children->type != XML_TEXT_NODE))) {
			plain = 0;
			continue;
		}
		buf_init(&b);
		S_putc(&b, ' ');
		S_puts(&b, (const char *)a->name);
		S_put_attr_value(&s, (const char *)n->name, (const char *)a->name, val);
		el->fixed[i] = buf_detach(&b);
	}
	if (plain) {
		buf_init(&b);
		S_putc(&b, '<');
		S_puts(&b, (const char *)n->name);
		for (i = 0; i < el->nattrs; i++)
			if (el->fixed[i])
				S_puts(&b, el->fixed[i]);
		S_putc(&b, '>');
		el->start_len = b.len;
		el->start = buf_detach(&b);
	}
	buf_free(&s.value);
	return el;
}

/*
 * A template text node as the emitter writes it, kept on the node
 * (_private) like an element's facts: escaped once at load, not on every
 * page. Most are the line breaks between a frame's elements.
 */
struct ttext {
	char *escaped;
	size_t len;
	int blank;                 /* spaces, tabs and line feeds only */
};

static struct ttext *
S_text_facts(xmlNodePtr n)
{
	struct ttext *tt = xcalloc(1, sizeof(*tt));
	const char *text = n->content ? (const char *)n->content : "";
	struct buf b;

	buf_init(&b);
	buf_put(&b, "", 0);
	S_escape(&b, text, 0);
	tt->len = b.len;
	tt->escaped = buf_detach(&b);
	tt->blank = S_text_is_blank(text);
	return tt;
}

static void
S_cache_facts(xmlNodePtr top)
{
	xmlNodePtr n;

	for (n = top; n; n = theme_next_node(n, top))
		if (n->type == XML_ELEMENT_NODE)
			n->_private = S_facts(n);
		else if (n->type == XML_TEXT_NODE)
			n->_private = S_text_facts(n);
}

static void
S_free_facts(xmlNodePtr top)
{
	xmlNodePtr n;
	size_t i;

	for (n = top; n; n = theme_next_node(n, top)) {
		if (n->_private == NULL)
			continue;
		if (n->type == XML_ELEMENT_NODE) {
			struct tel *el = n->_private;

			for (i = 0; i < el->nattrs; i++)
				free(el->fixed[i]);
			free(el->fixed);
			free(el->start);
			free(el);
		} else if (n->type == XML_TEXT_NODE) {
			struct ttext *tt = n->_private;

			free(tt->escaped);
			free(tt);
		}
		n->_private = NULL;
	}
}

/*
 * For the templates theme_load vetted (S_emit_ok), a page is written as
 * the fill would leave the tree and the serialiser would write it, in
 * one walk of the templates: no copy of the frame, no tree for it. The
 * rules of S_fill_element and S_serialize_tree are mirrored here; what
 * only those handle (a value holding an entity reference, repeats nested
 * too deep) is left to them: the emitter gives up and theme_render fills
 * the tree.
 */

/* A node written into the current element: where it starts, and whether it is blank text. */
struct emit_rec {
	size_t at;
	int blank;
};

/* An element written, its children still to come. */
struct emit_open {
	xmlNodePtr el;             /* the template element */
	xmlNodePtr resume;         /* the template node after it */
	const htmlElemDesc *info;
	int raw;                   /* script or style */
	size_t recs;               /* its children's records start here */
	size_t content;            /* the page's length after its start tag */
};

struct emit_attr {
	const char *name;
	const char *value;         /* NULL: a bare attribute */
	char *own;                 /* value, when the emitter made it */
	const char *fixed;         /* the attribute as written, when nothing filled it (struct tel) */
};

struct emit {
	struct fill *f;
	struct serial s;
	xmlNodePtr head;
	int own;                   /* the head has its own <meta charset> */
	struct emit_rec *recs;
	size_t nrecs, recs_cap;
	struct emit_open *open;
	size_t nopen, open_cap;
	struct emit_attr *attrs;
	size_t nattrs, attrs_cap;
	xmlNodePtr *moved;         /* holders whose nodes the page takes (S_value_nodes) */
	size_t nmoved, moved_cap;
	int bail;
};

static void
S_emit_rec(struct emit *e, int blank)
{
	e->recs = xgrow(e->recs, &e->recs_cap, e->nrecs + 1, sizeof(*e->recs));
	e->recs[e->nrecs].at = e->s.b->len;
	e->recs[e->nrecs].blank = blank;
	e->nrecs++;
}

/* Text into the current element, as a text node of the tree would be written. */
static void
S_emit_text(struct emit *e, const char *text, int noenc)
{
	S_emit_rec(e, S_text_is_blank(text));
	if (noenc || e->open[e->nopen - 1].raw)
		S_puts(e->s.b, text);
	else
		S_escape(e->s.b, text, 0);
}

/* A template's text node (every one has its facts: S_cache_facts): S_emit_text, worked out at load. */
static void
S_emit_template_text(struct emit *e, xmlNodePtr n)
{
	const struct ttext *tt = n->_private;

	if (n->name == xmlStringTextNoenc || e->open[e->nopen - 1].raw) {
		S_emit_text(e, (const char *)n->content, n->name == xmlStringTextNoenc);
		return;
	}
	S_emit_rec(e, tt->blank);
	S_put(e->s.b, tt->escaped, tt->len);
}

/* S_remove_element: the blank text before a removed element goes when a blank or nothing follows. */
static void
S_emit_remove(struct emit *e, int next_blank)
{
	size_t base = e->open[e->nopen - 1].recs;

	if (e->nrecs > base && e->recs[e->nrecs - 1].blank && next_blank) {
		e->nrecs--;
		e->s.b->len = e->recs[e->nrecs].at;
		e->s.b->data[e->s.b->len] = '\0';
	}
}

/* The nodes of a value, into the current element; the holder is emptied later if the page takes them. */
static void
S_emit_nodes(struct emit *e, const struct tval *tv, const char *name)
{
	xmlNodePtr c;

	for (c = tv->holder->children; c && !e->bail; c = c->next) {
		if (c->type == XML_TEXT_NODE) {
			if (c->content)
				S_emit_text(e, (const char *)c->content, c->name == xmlStringTextNoenc);
			else
				S_emit_rec(e, 1);
			continue;
		}
		S_emit_rec(e, 0);
		if (S_serialize_tree(&e->s, c, 1, NULL, e->own) == -1)
			e->bail = 1;
	}
	if (theme_uses(e->f->theme, e->f->part, name) == 1) {
		e->moved = xgrow(e->moved, &e->moved_cap, e->nmoved + 1, sizeof(*e->moved));
		e->moved[e->nmoved++] = tv->holder;
	}
}

static void
S_emit_set_attr(struct emit *e, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < e->nattrs; i++)
		if (strcmp(e->attrs[i].name, name) == 0)
			break;
	if (i == e->nattrs) {
		e->attrs = xgrow(e->attrs, &e->attrs_cap, e->nattrs + 1, sizeof(*e->attrs));
		e->attrs[e->nattrs].name = name;
		e->attrs[e->nattrs].own = NULL;
		e->nattrs++;
	}
	free(e->attrs[i].own);
	e->attrs[i].own = xstrdup(value);
	e->attrs[i].value = e->attrs[i].own;
	e->attrs[i].fixed = NULL;
}

/* The start tag of n as S_fill_attrs leaves its attributes, and an open element for its children. */
static void
S_emit_start(struct emit *e, xmlNodePtr n, const struct tvars *v)
{
	const struct tel *el = n->_private;   /* every template element's (S_cache_facts) */
	struct fill *f = e->f;
	struct emit_open *o;
	xmlAttrPtr a;
	size_t i, nattrs;

	S_emit_rec(e, 0);
	if (el->start) {
		S_put(e->s.b, el->start, el->start_len);
		goto open;
	}
	e->nattrs = 0;
	e->attrs = xgrow(e->attrs, &e->attrs_cap, el->nattrs + 1, sizeof(*e->attrs));
	for (a = n->properties, i = 0; a; a = a->next, i++) {
		const char *val = a->children ? (const char *)a->children->content : NULL;
		struct emit_attr *at = &e->attrs[e->nattrs++];

		at->name = (const char *)a->name;
		at->own = NULL;
		at->fixed = el->fixed[i];
		if (!at->fixed && S_is_url_attr((const char *)a->name))
			val = at->own = xstrdup(S_fill_url(f, val ? val : ""));
		at->value = val;
	}
	/* Targets never start with data-qd- (S_emit_ok): the ones appended need no visit. */
	nattrs = e->nattrs;
	for (i = 0; i < nattrs; i++) {
		const char *an = e->attrs[i].name, *target, *text;
		char *content;

		if (e->attrs[i].fixed || strncmp(an, ATTR_PREFIX "attr-", strlen(ATTR_PREFIX "attr-")) != 0)
			continue;
		target = an + strlen(ATTR_PREFIX "attr-");
		text = S_attr_fill_text(f, v, e->attrs[i].value ? e->attrs[i].value : "", target,
		    (const char *)n->name, &content);
		if (text)
			S_emit_set_attr(e, target, text);
		free(content);
	}
	S_putc(e->s.b, '<');
	S_puts(e->s.b, (const char *)n->name);
	for (i = 0; i < e->nattrs; i++) {
		if (e->attrs[i].fixed)
			S_puts(e->s.b, e->attrs[i].fixed);
		else if (!S_is_template_attr((const xmlChar *)e->attrs[i].name)) {
			S_putc(e->s.b, ' ');
			S_puts(e->s.b, e->attrs[i].name);
			S_put_attr_value(&e->s, (const char *)n->name, e->attrs[i].name, e->attrs[i].value);
		}
		free(e->attrs[i].own);
	}
	S_putc(e->s.b, '>');
open:
	if (n == e->head && !e->own)
		S_puts(e->s.b, S_added_meta);
	e->open = xgrow(e->open, &e->open_cap, e->nopen + 1, sizeof(*e->open));
	o = &e->open[e->nopen++];
	o->el = n;
	o->resume = n->next;
	o->info = el->info;
	o->raw = el->raw;
	o->recs = e->nrecs;
	o->content = e->s.b->len;
}

/* Closes the innermost element as S_serialize_tree ends it. */
static void
S_emit_end(struct emit *e)
{
	struct emit_open *o = &e->open[--e->nopen];
	int children = e->nrecs > o->recs;
	xmlNodePtr n = o->el;

	e->nrecs = o->recs;
	if (o->info && o->info->empty) {
		/* Written without children, whatever they were filled with. */
		e->s.b->len = o->content;
		e->s.b->data[o->content] = '\0';
	} else if (children || n == e->head || !o->info || !o->info->saveEndTag ||
	    !strcmp(o->info->name, "html") || !strcmp(o->info->name, "body"))
		S_end_tag(e->s.b, n);
}

static void S_emit(struct emit *e, xmlNodePtr root, const struct tvars *v, int depth, int clone);

/*
 * One template node, as S_fill_element fills it. Returns 1 with an
 * element opened whose template children *kids are still to fill.
 */
static int
S_emit_node(struct emit *e, xmlNodePtr n, const struct tvars *v, int depth, int clone,
    int next_blank, xmlNodePtr *kids)
{
	const struct tel *el = n->_private;
	const struct tval *tv;
	const char *name;

	switch (n->type) {
	case XML_ELEMENT_NODE:
		break;
	case XML_TEXT_NODE:
		S_emit_template_text(e, n);
		return 0;
	case XML_CDATA_SECTION_NODE:
		S_emit_rec(e, 0);
		S_puts(e->s.b, (const char *)n->content);
		return 0;
	default:                   /* a comment: S_emit_ok lets nothing else through */
		S_emit_rec(e, 0);
		buf_puts(e->s.b, "<!--");
		S_puts(e->s.b, (const char *)n->content);
		buf_puts(e->s.b, "-->");
		return 0;
	}
	/* A repeat's copies lose the attribute (S_fill_element). */
	if ((name = clone ? NULL : el->dv[D_REPEAT]) != NULL) {
		size_t i, base = e->open[e->nopen - 1].recs;

		tv = S_lookup(v, name);
		if (depth >= THEME_MAX_NESTING) {
			e->bail = 1;       /* the tree fill reports it */
			return 0;
		}
		if (tv && tv->kind == TV_LIST) {
			/* The blank text before the element, written again before each copy after the first. */
			int ws = e->nrecs > base && e->recs[e->nrecs - 1].blank;
			char *wstext = ws ? xstrndup(e->s.b->data + e->recs[e->nrecs - 1].at,
			    e->s.b->len - e->recs[e->nrecs - 1].at) : NULL;

			for (i = 0; i < tv->nitems && !e->bail; i++) {
				if (i > 0 && ws) {
					S_emit_rec(e, 1);
					S_puts(e->s.b, wstext);
				}
				S_emit(e, n, tv->items[i], depth + 1, 1);
			}
			free(wstext);
		}
		S_emit_remove(e, next_blank);
		return 0;
	}
	if ((name = el->dv[D_IF]) != NULL) {
		int neg = name[0] == '!';

		if (S_is_set(S_lookup(v, name + neg)) == neg) {
			S_emit_remove(e, next_blank);
			return 0;
		}
	}
	if ((name = el->dv[D_REPLACE]) != NULL) {
		tv = S_lookup(v, name);
		if (S_is_set(tv) && tv->kind == TV_TEXT)
			S_emit_text(e, tv->text, 0);
		else if (S_is_set(tv) && tv->kind == TV_NODES)
			S_emit_nodes(e, tv, name);
		S_emit_remove(e, next_blank);
		return 0;
	}
	*kids = n->children;
	if ((name = el->dv[D_SLOT]) != NULL) {
		tv = S_lookup(v, name);
		if (strcmp(name, "main") == 0 && tv == NULL && e->f->part_body && !e->f->main_filled) {
			*kids = e->f->part_body->children;
			e->f->main_filled = 1;
		} else if (!S_is_set(tv) || tv->kind == TV_LIST) {
			S_emit_remove(e, next_blank);
			return 0;
		} else {
			S_emit_start(e, n, v);
			if (tv->kind == TV_TEXT)
				S_emit_text(e, tv->text, 0);
			else
				S_emit_nodes(e, tv, name);
			S_emit_end(e);
			return 0;
		}
	}
	S_emit_start(e, n, v);
	return 1;
}

/* Fills root (a clone of a repeat's element when clone) and its subtree; as S_fill, in one loop. */
static void
S_emit(struct emit *e, xmlNodePtr root, const struct tvars *v, int depth, int clone)
{
	size_t base = e->nopen;
	xmlNodePtr n = root, kids;

	while (!e->bail) {
		if (n) {
			/* A copy of a repeat's element is followed by that element: not blank. */
			int next_blank = !(n == root && clone) && (n->next == NULL || S_is_blank(n->next));

			if (S_emit_node(e, n, v, depth, n == root && clone, next_blank, &kids)) {
				n = kids;
				continue;
			}
			if (n == root)
				break;
			n = n->next;
			continue;
		}
		if (e->nopen == base)
			break;
		n = e->open[e->nopen - 1].resume;
		S_emit_end(e);
		if (e->nopen == base)
			break;
	}
}

/*
 * The page as theme_render and theme_serialize would write it, or NULL
 * when the tree fill must do it. The document returned holds the bytes
 * only (S_emitted marks it for theme_serialize).
 */

static xmlDocPtr
S_render_emit(const struct theme *t, enum theme_part part, const struct tvars *v,
    const char *page_url)
{
	struct fill f;
	struct emit e;
	struct buf b;
	xmlNodePtr root = xmlDocGetRootElement(t->page), body, text;
	xmlDtdPtr dtd = t->page->intSubset;
	xmlDocPtr doc = NULL;
	size_t i;

	memset(&f, 0, sizeof(f));
	f.theme = t;
	f.part = part;
	f.page_url = page_url;
	body = S_find_element(xmlDocGetRootElement(t->parts[part]), "body");
	f.part_body = body ? body : xmlDocGetRootElement(t->parts[part]);
	memset(&e, 0, sizeof(e));
	e.f = &f;
	e.s.b = &b;
	buf_init(&b);
	buf_init(&e.s.value);
	/* Most pages fit: one allocation, not a doubling from 64 bytes, each a copy. */
	buf_reserve(&b, 16384);
	e.head = S_find_element(root, "head");
	e.own = S_has_meta_charset(e.head);
	buf_puts(&b, "<!DOCTYPE ");
	buf_puts(&b, dtd && !dtd->ExternalID && !dtd->SystemID ? (const char *)dtd->name : "html");
	buf_puts(&b, ">\n");
	/* The document's level: the html element is its one child, kept whatever the values (S_emit_ok). */
	e.open = xgrow(e.open, &e.open_cap, 1, sizeof(*e.open));
	memset(&e.open[0], 0, sizeof(e.open[0]));
	e.open[0].el = (xmlNodePtr)t->page;
	e.nopen = 1;
	S_emit(&e, root, v, 0, 0);
	buf_putc(&b, '\n');
	if (!e.bail) {
		for (i = 0; i < e.nmoved; i++) {
			xmlFreeNodeList(e.moved[i]->children);
			e.moved[i]->children = e.moved[i]->last = NULL;
		}
		doc = htmlNewDocNoDtD(NULL, NULL);
		/* The node takes the buffer (libxml2 frees it with xmlFree, which is free). */
		text = xmlNewDocTextLen(doc, NULL, 0);
		text->content = (xmlChar *)buf_detach(&b);
		xmlAddChild((xmlNodePtr)doc, text);
		doc->_private = (void *)S_emitted;
	}
	S_fill_urls_free(&f);
	buf_free(&b);
	buf_free(&e.s.value);
	free(e.recs);
	free(e.open);
	free(e.attrs);
	free(e.moved);
	return doc;
}

/* 1 if a name is one of the directives that may take an element away or put values in its place. */
static int
S_has_directive(xmlNodePtr n)
{
	return xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "if") ||
	    xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "repeat") ||
	    xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "replace") ||
	    xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "slot");
}

/* The nodes of a template the emitter writes as the serialiser would; 0 for anything else. */
static int
S_emit_nodes_ok(xmlNodePtr top, xmlNodePtr head)
{
	xmlNodePtr n = top;

	while (n) {
		xmlAttrPtr a;

		switch (n->type) {
		case XML_ELEMENT_NODE:
			if (n->ns || n->nsDef || (n != head && !xmlStrcasecmp(n->name, (const xmlChar *)"head")))
				return 0;
			for (a = n->properties; a; a = a->next) {
				if (a->ns || (a->children && (a->children->next ||
				    a->children->type != XML_TEXT_NODE || a->children->content == NULL)))
					return 0;
				if (S_is_template_attr(a->name) && a->children == NULL)
					return 0;
				/* A target named data-qd-... would be read as a directive later. */
				if (strncmp((const char *)a->name, ATTR_PREFIX "attr-", strlen(ATTR_PREFIX "attr-")) == 0 &&
				    S_is_template_attr(a->name + strlen(ATTR_PREFIX "attr-")))
					return 0;
			}
			break;
		case XML_TEXT_NODE:
		case XML_CDATA_SECTION_NODE:
		case XML_COMMENT_NODE:
			if (n->content == NULL)
				return 0;
			break;
		default:
			return 0;
		}
		n = theme_next_node(n, top);
	}
	return 1;
}

/*
 * 1 if pages of this frame and part may be emitted (S_render_emit): the
 * shapes S_serialize_fast writes whatever the values, the one <head>
 * fixed, its charset <meta> and the html element beyond the values' reach.
 */
static int
S_emit_ok(const struct theme *t, enum theme_part part)
{
	xmlNodePtr root = xmlDocGetRootElement(t->page), n, head = NULL, body;
	xmlDtdPtr dtd = t->page->intSubset;

	if (t->parts[part] == NULL || root == NULL || strcmp((const char *)root->name, "html") != 0 ||
	    S_has_directive(root))
		return 0;
	for (n = t->page->children; n; n = n->next)
		if (n != root && !(n->type == XML_DTD_NODE && (xmlDtdPtr)n == dtd))
			return 0;
	if (dtd && dtd->name == NULL && !dtd->ExternalID && !dtd->SystemID)
		return 0;
	for (n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (S_has_directive(n) || !xmlStrcasecmp(n->name, (const xmlChar *)"meta"))
			return 0;
		if (!xmlStrcasecmp(n->name, (const xmlChar *)"head")) {
			if (head || strcmp((const char *)n->name, "head") != 0)
				return 0;
			head = n;
		}
	}
	if (head == NULL)
		return 0;
	for (n = head->children; n; n = n->next) {
		xmlAttrPtr a;
		int charset = 0;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "repeat") ||
		    xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "replace"))
			return 0;
		if (xmlStrcasecmp(n->name, (const xmlChar *)"meta"))
			continue;
		for (a = n->properties; a; a = a->next) {
			const char *an = (const char *)a->name;

			if (!strncmp(an, ATTR_PREFIX "attr-", strlen(ATTR_PREFIX "attr-")))
				an += strlen(ATTR_PREFIX "attr-");
			if (!strcasecmp(an, "charset") || !strcasecmp(an, "http-equiv"))
				charset = 1;
			if (!strcasecmp(an, "http-equiv") && a->children &&
			    !xmlStrcasecmp(a->children->content, (const xmlChar *)"Content-Type"))
				return 0;
		}
		if (charset && (S_has_directive(n) || xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "attr-charset") ||
		    xmlHasProp(n, (const xmlChar *)ATTR_PREFIX "attr-http-equiv")))
			return 0;
		for (a = n->properties; a; a = a->next)
			if (!strncasecmp((const char *)a->name, ATTR_PREFIX "attr-", strlen(ATTR_PREFIX "attr-")) &&
			    (!strcasecmp((const char *)a->name + strlen(ATTR_PREFIX "attr-"), "charset") ||
			    !strcasecmp((const char *)a->name + strlen(ATTR_PREFIX "attr-"), "http-equiv")))
				return 0;
	}
	if (!S_emit_nodes_ok(root, head))
		return 0;
	body = S_find_element(xmlDocGetRootElement(t->parts[part]), "body");
	if (body == NULL)
		body = xmlDocGetRootElement(t->parts[part]);
	for (n = body ? body->children : NULL; n; n = n->next)
		if (!S_emit_nodes_ok(n, NULL))
			return 0;
	return 1;
}

/* ---- writing elements one at a time ---------------------------------- */

struct writer_open {
	const char *name;
	const htmlElemDesc *info;
	int children;              /* a child was written */
};

#define WRITER_SEEN 32

struct theme_writer {
	struct serial s;
	struct writer_open *open;
	size_t nopen, open_cap;
	int in_tag;                /* the start tag awaits its '>' */
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

	buf_init(&w->s.value);
	return w;
}

void
theme_writer_free(struct theme_writer *w)
{
	if (w == NULL)
		return;
	buf_free(&w->s.value);
	free(w->open);
	free(w);
}

void
theme_writer_begin(struct theme_writer *w, struct buf *b)
{
	w->s.b = b;
	w->nopen = 0;
	w->in_tag = 0;
}

/* A child is about to be written into the current element. */
static void
S_writer_child(struct theme_writer *w)
{
	if (w->in_tag) {
		S_putc(w->s.b, '>');
		w->in_tag = 0;
	}
	if (w->nopen > 0)
		w->open[w->nopen - 1].children = 1;
}

void
theme_writer_start(struct theme_writer *w, const char *name)
{
	struct writer_open *o;
	size_t k;

	S_writer_child(w);
	w->open = xgrow(w->open, &w->open_cap, w->nopen + 1, sizeof(*w->open));
	o = &w->open[w->nopen++];
	o->name = name;
	k = (size_t)((uintptr_t)name >> 3) % WRITER_SEEN;
	if (w->seen[k].name != name) {
		w->seen[k].name = name;
		w->seen[k].info = S_tag_info(&w->s, name);
	}
	o->info = w->seen[k].info;
	o->children = 0;
	S_putc(w->s.b, '<');
	S_puts(w->s.b, name);
	w->in_tag = 1;
}

void
theme_writer_attr(struct theme_writer *w, const char *name, const char *value)
{
	S_putc(w->s.b, ' ');
	S_puts(w->s.b, name);
	S_put_attr_value(&w->s, w->open[w->nopen - 1].name, name, value);
}

size_t
theme_writer_url_hole(struct theme_writer *w, const char *name)
{
	S_putc(w->s.b, ' ');
	S_puts(w->s.b, name);
	return w->s.b->len;
}

size_t
theme_writer_offset(const struct theme_writer *w)
{
	return w->s.b->len;
}

void
theme_put_url_value(struct buf *b, const char *value)
{
	struct serial s;

	s.b = b;
	buf_init(&s.value);
	/* href and src are URL attributes on any element: the element's name is not read. */
	S_put_attr_value(&s, "a", "href", value);
	buf_free(&s.value);
}

void
theme_writer_text(struct theme_writer *w, const char *text)
{
	if (text == NULL || *text == '\0')
		return;
	S_writer_child(w);
	S_escape(w->s.b, text, 0);
}

void
theme_writer_raw(struct theme_writer *w, const char *html, size_t len)
{
	S_writer_child(w);
	S_put(w->s.b, html, len);
}

void
theme_writer_end(struct theme_writer *w)
{
	struct writer_open *o = &w->open[--w->nopen];
	const htmlElemDesc *info = o->info;

	if (w->in_tag) {
		S_putc(w->s.b, '>');
		w->in_tag = 0;
	}
	/* S_serialize_tree's rules for end tags. */
	if (info && info->empty)
		return;
	if (o->children || !info || !info->saveEndTag ||
	    !strcmp(info->name, "html") || !strcmp(info->name, "body")) {
		S_put(w->s.b, "</", 2);
		S_puts(w->s.b, o->name);
		S_putc(w->s.b, '>');
	}
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

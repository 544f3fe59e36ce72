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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xmlsave.h>

#include "util.h"

#define THEME_MAX_NESTING 8
#define ATTR_PREFIX "data-qd-"

static const char *const S_part_names[THEME_NPARTS] = {
	"home", "test", "deck", "chapter", "404",
};

enum tval_kind { TV_TEXT, TV_NODES, TV_LIST };

struct tval {
	char *name;
	enum tval_kind kind;
	char *text;                /* TV_TEXT */
	xmlNodePtr holder;         /* TV_NODES: an unlinked element whose children are the value */
	struct tvars **items;      /* TV_LIST */
	size_t nitems, cap;
};

struct tvars {
	struct tval *v;
	size_t len, cap;
};

struct tvars *
tvars_new(void)
{
	return xcalloc(1, sizeof(struct tvars));
}

static void
S_tval_clear(struct tval *tv)
{
	size_t i;

	free(tv->text);
	tv->text = NULL;
	if (tv->holder)
		xmlFreeNode(tv->holder);
	tv->holder = NULL;
	for (i = 0; i < tv->nitems; i++)
		tvars_free(tv->items[i]);
	free(tv->items);
	tv->items = NULL;
	tv->nitems = tv->cap = 0;
}

void
tvars_free(struct tvars *v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->len; i++) {
		S_tval_clear(&v->v[i]);
		free(v->v[i].name);
	}
	free(v->v);
	free(v);
}

static struct tval *
S_lookup(const struct tvars *v, const char *name)
{
	size_t i;

	for (i = 0; v && i < v->len; i++)
		if (strcmp(v->v[i].name, name) == 0)
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
	v->v = xgrow(v->v, &v->cap, v->len + 1, sizeof(*v->v));
	tv = &v->v[v->len++];
	memset(tv, 0, sizeof(*tv));
	tv->name = xstrdup(name);
	return tv;
}

void
tvars_text(struct tvars *v, const char *name, const char *text)
{
	struct tval *tv;

	if (text == NULL)
		return;
	tv = S_slot(v, name);
	tv->kind = TV_TEXT;
	tv->text = xstrdup(text);
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
	tv->items = xgrow(tv->items, &tv->cap, tv->nitems + 1, sizeof(*tv->items));
	tv->items[tv->nitems] = tvars_new();
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
		if (n->type == XML_ELEMENT_NODE && n->children)
			n = n->children;
		else {
			while (n && n->next == NULL)
				n = n->parent;
			if (n)
				n = n->next;
		}
	}
	return rc;
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
	doc = htmlReadMemory(data, (int)len, path, "UTF-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
	    HTML_PARSE_NODEFDTD | XML_PARSE_NODICT);
	if (doc == NULL || xmlDocGetRootElement(doc) == NULL)
		diag_error(dl, path, 0, 0, "cannot parse the template");
	else if (S_check_template(doc, path, dl) == 0)
		goto out;
	if (doc)
		xmlFreeDoc(doc);
	doc = NULL;
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
	}
out:
	for (i = 0; i < ncand; i++)
		free(cand[i]);
	free(exe);
	free(rel);
	free(path);
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
	}
	memset(t, 0, sizeof(*t));
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
			if (path_is_dir(cfrom)) {
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

struct fill {
	xmlDocPtr doc;
	const char *page_url;
	xmlNodePtr part_body;      /* the part template's body: the "main" slot */
	struct diag_list *dl;
	const char *file;
	int failed;
};

static void S_fill(struct fill *f, xmlNodePtr root, const struct tvars *v, int depth);

/* A template URL relative to the output root, made relative to the page. */
static char *
S_page_url(const char *page_url, const char *url)
{
	const char *p, *rest;
	char *path, *rel, *res;

	if (url[0] == '\0' || url[0] == '#' || url[0] == '/' || url[0] == '?')
		return xstrdup(url);
	for (p = url; *p && *p != '/' && *p != '?' && *p != '#'; p++)
		if (*p == ':')
			return xstrdup(url);       /* has a scheme */
	rest = url + strcspn(url, "?#");
	path = xstrndup(url, (size_t)(rest - url));
	rel = path_relative(page_url, path);
	res = xasprintf("%s%s", rel, rest);
	free(rel);
	free(path);
	return res;
}

static int
S_is_url_attr(const char *name)
{
	return strcmp(name, "href") == 0 || strcmp(name, "src") == 0 ||
	    strcmp(name, "action") == 0 || strcmp(name, "poster") == 0;
}

static char *
S_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *s;

	if (v == NULL)
		return NULL;
	s = xstrdup((const char *)v);
	xmlFree(v);
	return s;
}

static int
S_is_blank(xmlNodePtr n)
{
	const xmlChar *c;

	if (n == NULL || n->type != XML_TEXT_NODE)
		return 0;
	for (c = n->content; c && *c; c++)
		if (*c != ' ' && *c != '\t' && *c != '\n')
			return 0;
	return 1;
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

/* Sets attributes from data-qd-attr-*, rewrites template URLs, drops data-qd-*. */
static void
S_fill_attrs(struct fill *f, xmlNodePtr n, const struct tvars *v)
{
	xmlAttrPtr a, next;

	for (a = n->properties; a; a = a->next) {
		const char *an = (const char *)a->name;
		xmlChar *val;
		char *url;

		if (!S_is_url_attr(an))
			continue;
		val = xmlNodeGetContent((xmlNodePtr)a);
		url = S_page_url(f->page_url, val ? (const char *)val : "");
		xmlSetProp(n, a->name, (const xmlChar *)url);
		free(url);
		xmlFree(val);
	}
	for (a = n->properties; a; a = next) {
		const char *an = (const char *)a->name;

		next = a->next;
		if (strncmp(an, ATTR_PREFIX "attr-", strlen(ATTR_PREFIX "attr-")) == 0) {
			const char *target = an + strlen(ATTR_PREFIX "attr-");
			char *name = S_attr(n, an);
			char *text = S_text_of(S_lookup(v, name));

			if (text && S_is_url_attr(target)) {
				char *url = S_page_url(f->page_url, text);

				free(text);
				text = url;
			}
			if (text)
				xmlSetProp(n, (const xmlChar *)target, (const xmlChar *)text);
			free(text);
			free(name);
		}
	}
	for (a = n->properties; a; a = next) {
		next = a->next;
		if (strncmp((const char *)a->name, ATTR_PREFIX, strlen(ATTR_PREFIX)) == 0)
			xmlRemoveProp(a);
	}
}

enum { KEEP, REMOVED };

/*
 * Applies the template attributes of one element. Returns REMOVED if the
 * element is gone; *descend says whether its children are template.
 */
static int
S_fill_element(struct fill *f, xmlNodePtr n, const struct tvars *v, int depth, int *descend)
{
	char *name = NULL;
	const struct tval *tv;
	int rc = KEEP;

	*descend = 1;
	if ((name = S_attr(n, ATTR_PREFIX "repeat")) != NULL) {
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
	if ((name = S_attr(n, ATTR_PREFIX "if")) != NULL) {
		int neg = name[0] == '!';
		int set = S_is_set(S_lookup(v, name + neg));

		if (set == neg) {
			S_remove_element(n);
			rc = REMOVED;
			goto out;
		}
		free(name);
		name = NULL;
	}
	if ((name = S_attr(n, ATTR_PREFIX "replace")) != NULL) {
		tv = S_lookup(v, name);
		if (S_is_set(tv) && tv->kind == TV_TEXT)
			xmlAddPrevSibling(n, xmlNewDocText(f->doc, (const xmlChar *)tv->text));
		else if (S_is_set(tv) && tv->kind == TV_NODES) {
			xmlNodePtr c = xmlDocCopyNodeList(f->doc, tv->holder->children), next;

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
	if ((name = S_attr(n, ATTR_PREFIX "slot")) != NULL) {
		tv = S_lookup(v, name);
		if (strcmp(name, "main") == 0 && tv == NULL && f->part_body) {
			S_clear_children(n);
			xmlAddChildList(n, xmlDocCopyNodeList(f->doc, f->part_body->children));
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
			xmlAddChildList(n, xmlDocCopyNodeList(f->doc, tv->holder->children));
			*descend = 0;
		}
	}
	S_fill_attrs(f, n, v);
out:
	free(name);
	return rc;
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

static void
S_fill(struct fill *f, xmlNodePtr root, const struct tvars *v, int depth)
{
	xmlNodePtr n = root;

	while (n) {
		xmlNodePtr after = S_after(n, root);
		int descend = 0;

		if (n->type == XML_ELEMENT_NODE &&
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
		if (n->type == XML_ELEMENT_NODE && n->children)
			n = n->children;
		else {
			while (n && n->next == NULL)
				n = n->parent;
			if (n)
				n = n->next;
		}
	}
	return NULL;
}

xmlDocPtr
theme_render(const struct theme *t, enum theme_part part,
    const struct tvars *v, const char *page_url, struct diag_list *dl)
{
	struct fill f;
	xmlDocPtr doc = xmlCopyDoc(t->page, 1);
	xmlDtdPtr dtd;
	xmlNodePtr body;

	memset(&f, 0, sizeof(f));
	f.doc = doc;
	f.page_url = page_url;
	f.dl = dl;
	f.file = t->part_files[part];
	body = S_find_element(xmlDocGetRootElement(t->parts[part]), "body");
	f.part_body = body ? body : xmlDocGetRootElement(t->parts[part]);
	S_fill(&f, xmlDocGetRootElement(doc), v, 0);
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

/* 1 if the head has its own <meta charset>. */
static int
S_has_meta_charset(xmlDocPtr doc)
{
	xmlNodePtr head = S_find_element(xmlDocGetRootElement(doc), "head");
	xmlNodePtr n;

	for (n = head ? head->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "meta") == 0 &&
		    xmlHasProp(n, (const xmlChar *)"charset"))
			return 1;
	return 0;
}

int
theme_serialize(xmlDocPtr doc, char **out, size_t *len)
{
	/* What libxml2's HTML serialiser adds to the head when saving as UTF-8. */
	static const char added[] =
	    "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">";
	xmlBufferPtr xb = xmlBufferCreate();
	xmlSaveCtxtPtr sc;
	struct buf b;
	const char *s, *hit;
	int own = S_has_meta_charset(doc);

	sc = xmlSaveToBuffer(xb, "UTF-8", XML_SAVE_AS_HTML | XML_SAVE_NO_DECL);
	xmlSaveDoc(sc, doc);
	xmlSaveClose(sc);
	s = (const char *)xmlBufferContent(xb);
	buf_init(&b);
	if (own && (hit = strstr(s, added)) != NULL) {
		buf_put(&b, s, (size_t)(hit - s));
		buf_puts(&b, hit + strlen(added));
	} else
		buf_puts(&b, s);
	xmlBufferFree(xb);
	*len = b.len;
	*out = buf_detach(&b);
	return 0;
}

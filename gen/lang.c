/*
 * lang: the learner's strings, from TOML tables over English (lang.h).
 */
#include "lang.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "toml.h"
#include "util.h"

struct entry {
	char *key;
	char *value;
	size_t seq;                /* later tables win: the order it was read */
};

struct lang {
	char *tag;
	int rtl;
	struct entry *v;           /* sorted by key, one per key, once loaded */
	size_t n, cap;
	size_t seq;
};

static const char *const S_forms[] = { "zero", "one", "two", "few", "many", "other" };

static int
S_cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
S_add(struct lang *l, const char *key, const char *value)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = xstrdup(value);
	l->v[l->n].seq = l->seq++;
	l->n++;
}

/* Sorts by key and keeps each key's last string. */
static void
S_settle(struct lang *l)
{
	size_t i, out = 0;

	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), S_cmp_entry);
	for (i = 0; i < l->n; i++) {
		if (i + 1 < l->n && strcmp(l->v[i].key, l->v[i + 1].key) == 0) {
			free(l->v[i].key);
			free(l->v[i].value);
			continue;
		}
		l->v[out++] = l->v[i];
	}
	l->n = out;
}

static const struct entry *
S_find(const struct lang *l, const char *key)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(key, l->v[mid].key);

		if (c == 0)
			return &l->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The form name after key's last dot, when it is one ("one"), else NULL. */
static const char *
S_form_of(const char *key)
{
	const char *dot = strrchr(key, '.');
	size_t i;

	if (dot == NULL)
		return NULL;
	for (i = 0; i < sizeof(S_forms) / sizeof(S_forms[0]); i++)
		if (strcmp(dot + 1, S_forms[i]) == 0)
			return dot + 1;
	return NULL;
}

/* Appends to b each {name} of s, as "name\n", in order. */
static void
S_placeholders(const char *s, struct buf *b)
{
	const char *p;

	for (p = s; (p = strchr(p, '{')) != NULL; p++) {
		size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz0123456789_-");

		if (n > 0 && p[1 + n] == '}') {
			buf_put(b, p + 1, n);
			buf_putc(b, '\n');
		}
	}
}

/* 1 when every placeholder of s is one of base's (and, with all, the other way too). */
static int
S_same_placeholders(const char *s, const char *base, int all, char **missing, char **extra)
{
	struct buf a, b;
	const char *p;
	int ok = 1;

	*missing = *extra = NULL;
	buf_init(&a);
	buf_init(&b);
	S_placeholders(s, &a);
	S_placeholders(base, &b);
	for (p = buf_str(&a); *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, "\n");
		char *name = xstrndup(p, n), *pat = xasprintf("{%s}", name);

		if (strstr(base, pat) == NULL && *extra == NULL) {
			*extra = name;
			name = NULL;
			ok = 0;
		}
		free(name);
		free(pat);
	}
	for (p = buf_str(&b); all && *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, "\n");
		char *name = xstrndup(p, n), *pat = xasprintf("{%s}", name);

		if (strstr(s, pat) == NULL && *missing == NULL) {
			*missing = name;
			name = NULL;
			ok = 0;
		}
		free(name);
		free(pat);
	}
	buf_free(&a);
	buf_free(&b);
	return ok;
}

/*
 * Checks one string of a table over English (en: the English table,
 * settled): its key must be English's (or a plural form of an English
 * count) and its placeholders English's. Warns at file:line:col and
 * returns 0 when it is not to be used.
 */
static int
S_check(const struct lang *en, const char *const *keys, const char *key, const char *value,
    const char *file, int line, int col, struct diag_list *dl)
{
	const struct entry *e = S_find(en, key);
	const char *form = S_form_of(key);
	char *missing, *extra;

	if (e == NULL && form != NULL) {
		char *other = xasprintf("%.*sother", (int)(form - key), key);

		e = S_find(en, other);
		free(other);
	}
	if (e == NULL) {
		const char *near = str_nearest(key, keys, en->n);

		if (near)
			diag_warning(dl, file, line, col, "no string is called \"%s\"; did you mean \"%s\"? "
			    "(i18n/en.toml lists every string)", key, near);
		else
			diag_warning(dl, file, line, col, "no string is called \"%s\": it is left out "
			    "(i18n/en.toml lists every string)", key);
		return 0;
	}
	/* A plural form may leave the count out ("one question" is "a question" in many languages). */
	if (!S_same_placeholders(value, e->value, form == NULL, &missing, &extra)) {
		if (extra)
			diag_warning(dl, file, line, col, "string \"%s\" has {%s}, which is never filled "
			    "(English has: %s); it is left out", key, extra, e->value);
		else
			diag_warning(dl, file, line, col, "string \"%s\" leaves out {%s}, so a value would "
			    "be lost (English: %s); it is left out", key, missing, e->value);
		free(missing);
		free(extra);
		return 0;
	}
	return 1;
}

struct reading {
	struct lang *l;
	const struct lang *en;     /* NULL while reading English itself */
	const char *const *keys;   /* en's keys, for "did you mean" */
	const char *file;          /* as diagnostics show it */
	struct diag_list *dl;
};

static void
S_read_table(struct reading *rd, const struct toml_value *t, const char *prefix)
{
	size_t i;

	for (i = 0; i < t->u.t.len; i++) {
		const struct toml_keyval *kv = &t->u.t.items[i];
		char *key = *prefix ? xasprintf("%s.%s", prefix, kv->key) : xstrdup(kv->key);

		if (kv->value->type == TOML_TABLE)
			S_read_table(rd, kv->value, key);
		else if (kv->value->type != TOML_STRING || strlen(kv->value->u.s.ptr) != kv->value->u.s.len)
			diag_warning(rd->dl, rd->file, kv->line, kv->col,
			    "string \"%s\" must be a string (or a table of plural forms); it is left out", key);
		else if (rd->en == NULL || S_check(rd->en, rd->keys, key, kv->value->u.s.ptr,
		    rd->file, kv->line, kv->col, rd->dl))
			S_add(rd->l, key, kv->value->u.s.ptr);
		free(key);
	}
}

/* Reads the table at path into rd->l. -1 if it cannot be read or parsed (with an error). */
static int
S_read_file(struct reading *rd, const char *path)
{
	struct toml_value *root;
	struct toml_error err;
	char *data = NULL;
	size_t len;

	if (file_read(path, &data, &len) == -1) {
		diag_error(rd->dl, rd->file, 0, 0, "cannot read the strings: %s", strerror(errno));
		return -1;
	}
	if ((root = toml_parse(data, len, &err)) == NULL) {
		diag_error(rd->dl, rd->file, err.line, err.col, "%s", err.message);
		free(data);
		return -1;
	}
	S_read_table(rd, root, "");
	toml_free(root);
	free(data);
	return 0;
}

/*
 * The file for tag in dir: <tag>.toml, else <language>.toml for its
 * first part. NULL if neither exists. Caller frees.
 */
static char *
S_table_path(const char *dir, const char *tag)
{
	char *name = xasprintf("%s.toml", tag), *path = path_join(dir, name);
	size_t n = strcspn(tag, "-");

	free(name);
	if (path_is_file(path))
		return path;
	free(path);
	if (tag[n] == '\0')
		return NULL;
	name = xasprintf("%.*s.toml", (int)n, tag);
	path = path_join(dir, name);
	free(name);
	if (path_is_file(path))
		return path;
	free(path);
	return NULL;
}

struct lang *
lang_empty(void)
{
	struct lang *l = xcalloc(1, sizeof(*l));

	l->tag = xstrdup("en");
	return l;
}

struct lang *
lang_load(const char *site_root, const struct config *c, struct diag_list *dl)
{
	struct lang *l = lang_empty(), *en = NULL;
	struct reading rd = { NULL, NULL, NULL, NULL, dl };
	/* A tag config.c refused (with an error) is read as English: it names no file. */
	const char *tag = c->language && *c->language &&
	    c->language[strspn(c->language, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")] == '\0' ?
	    c->language : "en";
	const char **keys = NULL;
	char **dirs, *shipped = NULL, *path;
	size_t i, ndirs;

	free(l->tag);
	l->tag = xstrdup(tag);
	dirs = install_dirs("i18n", &ndirs);
	for (i = 0; i < ndirs && shipped == NULL; i++) {
		char *en_path = path_join(dirs[i], "en.toml");

		if (path_is_file(en_path))
			shipped = xstrdup(dirs[i]);
		free(en_path);
	}
	if (shipped == NULL) {
		struct buf where;

		buf_init(&where);
		for (i = 0; i < ndirs; i++)
			buf_printf(&where, "%s%s", i == 0 ? "" : i + 1 == ndirs ? " or " : ", ", dirs[i]);
		diag_error(dl, "site.toml", 0, 0, "quizdeck's strings are not installed: no en.toml in %s",
		    ndirs ? buf_str(&where) : "i18n/ beside the quizdeck program");
		buf_free(&where);
		goto out;
	}

	/* English: every key, checked against nothing. */
	en = lang_empty();
	rd.l = en;
	path = path_join(shipped, "en.toml");
	rd.file = path;
	i = S_read_file(&rd, path) == -1;
	free(path);
	if (i)
		goto out;
	S_settle(en);
	keys = xcalloc(en->n + 1, sizeof(*keys));
	for (i = 0; i < en->n; i++) {
		keys[i] = en->v[i].key;
		S_add(l, en->v[i].key, en->v[i].value);
	}
	rd.l = l;
	rd.en = en;
	rd.keys = keys;

	/* The language's own table: quizdeck's, then the site's over it. */
	{
		char *site_dir = path_join(site_root, "i18n");
		char *own = S_table_path(site_dir, tag);
		int found = 0;

		if (strcmp(tag, "en") != 0 && (path = S_table_path(shipped, tag)) != NULL) {
			rd.file = path;
			S_read_file(&rd, path);
			free(path);
			found = 1;
		}
		if (own) {
			const char *shown = own + strlen(site_dir) - strlen("i18n");

			rd.file = shown;
			S_read_file(&rd, own);
			free(own);
			found = 1;
		}
		if (!found && strcmp(tag, "en") != 0 && strncmp(tag, "en-", 3) != 0)
			diag_warning(dl, "site.toml", c->language_line, c->language_col,
			    "no strings for language \"%s\": the pages are in English; quizdeck has "
			    "i18n/de.toml and i18n/ar.toml, and a site may add its own as i18n/%s.toml",
			    tag, tag);
		free(site_dir);
	}

	/* site.toml's [strings], last. */
	rd.file = "site.toml";
	for (i = 0; i < c->nstrings; i++) {
		const struct config_string *cs = &c->strings[i];
		if (S_check(en, keys, cs->key, cs->value, "site.toml", cs->line, cs->col, dl))
			S_add(l, cs->key, cs->value);
	}
	S_settle(l);
	l->rtl = strcmp(lang_get(l, "language.dir"), "rtl") == 0;
out:
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	free(shipped);
	free(keys);
	lang_free(en);
	return l;
}

void
lang_free(struct lang *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	free(l->tag);
	free(l);
}

const char *
lang_tag(const struct lang *l)
{
	return l->tag;
}

int
lang_rtl(const struct lang *l)
{
	return l->rtl;
}

const char *
lang_get(const struct lang *l, const char *key)
{
	const struct entry *e = S_find(l, key);

	return e ? e->value : key;
}

int
lang_has(const struct lang *l, const char *key)
{
	return S_find(l, key) != NULL;
}

/* Appends s to b with each {name} given in ap (pairs ending with NULL) filled. */
static void
S_fill(struct buf *b, const char *s, const char *n_value, va_list ap)
{
	const char *names[16], *values[16];
	size_t nargs = 0, i = 0;
	const char *p;

	if (n_value) {
		names[nargs] = "n";
		values[nargs++] = n_value;
	}
	for (;;) {
		const char *name = va_arg(ap, const char *);

		if (name == NULL || nargs == 16)
			break;
		names[nargs] = name;
		values[nargs++] = va_arg(ap, const char *);
	}
	for (p = s; *p; ) {
		size_t n;

		if (*p != '{') {
			size_t run = strcspn(p, "{");

			buf_put(b, p, run);
			p += run;
			continue;
		}
		n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz0123456789_-");
		i = nargs;
		if (n > 0 && p[1 + n] == '}')
			for (i = 0; i < nargs; i++)
				if (strlen(names[i]) == n && memcmp(names[i], p + 1, n) == 0)
					break;
		if (i < nargs) {
			buf_puts(b, values[i] ? values[i] : "");
			p += n + 2;
		} else {
			buf_putc(b, '{');
			p++;
		}
	}
}

char *
lang_format(const struct lang *l, const char *key, ...)
{
	struct buf b;
	va_list ap;

	buf_init(&b);
	va_start(ap, key);
	S_fill(&b, lang_get(l, key), NULL, ap);
	va_end(ap);
	return buf_detach(&b);
}

char *
lang_plural(const struct lang *l, const char *key, long n, ...)
{
	char *form_key = xasprintf("%s.%s", key, lang_plural_form(l->tag, n)), num[32];
	const struct entry *e = S_find(l, form_key);
	struct buf b;
	va_list ap;

	free(form_key);
	if (e == NULL) {
		form_key = xasprintf("%s.other", key);
		e = S_find(l, form_key);
		free(form_key);
	}
	snprintf(num, sizeof(num), "%ld", n);
	buf_init(&b);
	va_start(ap, n);
	S_fill(&b, e ? e->value : key, num, ap);
	va_end(ap);
	return buf_detach(&b);
}

const char *
lang_plural_form(const char *tag, long n)
{
	size_t len = strcspn(tag, "-");
	long m;

	if (n < 0)
		n = -n;
	m = n % 100;
	if (len == 2 && memcmp(tag, "ar", 2) == 0) {
		if (n == 0)
			return "zero";
		if (n == 1)
			return "one";
		if (n == 2)
			return "two";
		if (m >= 3 && m <= 10)
			return "few";
		if (m >= 11 && m <= 99)
			return "many";
		return "other";
	}
	if (len == 2 && (memcmp(tag, "he", 2) == 0 || memcmp(tag, "iw", 2) == 0))
		return n == 1 ? "one" : n == 2 ? "two" : "other";
	if (len == 2 && (memcmp(tag, "fr", 2) == 0 || memcmp(tag, "pt", 2) == 0))
		return n <= 1 ? "one" : "other";
	if (len == 2 && (memcmp(tag, "ja", 2) == 0 || memcmp(tag, "zh", 2) == 0 ||
	    memcmp(tag, "ko", 2) == 0 || memcmp(tag, "vi", 2) == 0 || memcmp(tag, "th", 2) == 0 ||
	    memcmp(tag, "id", 2) == 0))
		return "other";
	return n == 1 ? "one" : "other";
}

size_t
lang_count(const struct lang *l)
{
	return l->n;
}

const char *
lang_key(const struct lang *l, size_t i)
{
	return l->v[i].key;
}

const char *
lang_value(const struct lang *l, size_t i)
{
	return l->v[i].value;
}

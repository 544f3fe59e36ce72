/*
 * content: walking content/, reading files, front matter.
 *
 * The walk keeps its own stack of folders rather than recursing, so a
 * deep tree costs memory, not C stack. Symbolic links to folders are
 * never followed (a link cycle would never end); a link to a file is
 * followed only when its target is a regular file inside content/, so
 * content can never pull in /etc/passwd or a device. Files are read as
 * bytes; only Markdown must be UTF-8.
 */
#define _POSIX_C_SOURCE 200809L
#include "content.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pool.h"
#include "toml.h"
#include "util.h"

const char *
difficulty_name(enum difficulty d)
{
	switch (d) {
	case DIFF_EASY:
		return "easy";
	case DIFF_MEDIUM:
		return "medium";
	case DIFF_HARD:
		return "hard";
	case DIFF_NONE:
		break;
	}
	return "none";
}

enum source_kind
content_classify(const char *rel)
{
	const char *slash;
	size_t depth = 0;

	if (!path_has_suffix(rel, ".md"))
		return SOURCE_ASSET;
	for (slash = rel; (slash = strchr(slash, '/')) != NULL; slash++)
		depth++;
	if (strcmp(rel, "index.md") == 0)
		return SOURCE_HOME;
	/* A README.md is for reading the sources on GitHub, except in the guide
	 * where (as in mdBook) it opens its folder like _index.md. */
	if (strcmp(path_basename(rel), "README.md") == 0 && strncmp(rel, "guide/", 6) != 0)
		return SOURCE_OTHER_MD;
	if (strncmp(rel, "quiz/", 5) == 0) {
		const char *base = path_basename(rel);

		if (depth == 1)
			return strcmp(base, "_index.md") == 0 ? SOURCE_OTHER_MD : SOURCE_TEST_FILE;
		if (depth == 2)
			return strcmp(base, "_index.md") == 0 ? SOURCE_TEST_INDEX : SOURCE_TOPIC;
		return SOURCE_OTHER_MD;
	}
	if (strncmp(rel, "cards/", 6) == 0) {
		if (depth == 1 && strcmp(path_basename(rel), "_index.md") != 0)
			return SOURCE_DECK;
		return SOURCE_OTHER_MD;
	}
	if (strncmp(rel, "guide/", 6) == 0)
		return SOURCE_CHAPTER;
	return SOURCE_OTHER_MD;
}

void
front_matter_free(struct front_matter *fm)
{
	free(fm->title);
	free(fm->description);
	toml_free(fm->table);
	memset(fm, 0, sizeof(*fm));
	fm->difficulty = DIFF_NONE;
}

void
source_free(struct source *src)
{
	if (src == NULL)
		return;
	free(src->rel);
	free(src->display);
	free(src->path);
	free(src->data);
	front_matter_free(&src->fm);
	free(src);
}

void
content_free(struct source_set *set)
{
	size_t i;

	for (i = 0; i < set->len; i++)
		source_free(set->v[i]);
	free(set->v);
	for (i = 0; i < set->ndrafts; i++)
		free(set->drafts[i]);
	free(set->drafts);
	free(set->drafts_at);
	free(set->index);
	memset(set, 0, sizeof(*set));
}

static int
S_cmp_source(const void *a, const void *b)
{
	const struct source *x = *(struct source *const *)a;
	const struct source *y = *(struct source *const *)b;

	return strcmp(x->rel, y->rel);
}

static int
S_cmp_key(const void *key, const void *elem)
{
	return strcmp((const char *)key, (*(struct source *const *)elem)->rel);
}

static size_t
S_slot_of(const char *rel, size_t nindex)
{
	return (size_t)hash_fnv1a(rel, strlen(rel), HASH_FNV_SEED) & (nindex - 1);
}

/*
 * set->index for set->v. Every link is looked up by its file, and the
 * paths share long prefixes: a binary search would compare each of them
 * again and again, missing the cache, where a hash reads one.
 */
static void
S_index(struct source_set *set)
{
	size_t i, h;

	free(set->index);
	for (set->nindex = 16; set->nindex < set->len * 2; set->nindex *= 2)
		;
	set->index = xcalloc(set->nindex, sizeof(*set->index));
	for (i = 0; i < set->len; i++) {
		for (h = S_slot_of(set->v[i]->rel, set->nindex); set->index[h];
		    h = (h + 1) & (set->nindex - 1))
			;
		set->index[h] = i + 1;
	}
}

struct source *
content_find(const struct source_set *set, const char *rel)
{
	struct source **p;
	size_t h;

	if (set->len == 0)
		return NULL;
	if (set->index) {
		for (h = S_slot_of(rel, set->nindex); set->index[h]; h = (h + 1) & (set->nindex - 1))
			if (strcmp(set->v[set->index[h] - 1]->rel, rel) == 0)
				return set->v[set->index[h] - 1];
		return NULL;
	}
	p = bsearch(rel, set->v, set->len, sizeof(*set->v), S_cmp_key);
	return p ? *p : NULL;
}

static int
S_cmp_str_key(const void *key, const void *elem)
{
	return strcmp((const char *)key, *(char *const *)elem);
}

int
content_is_draft(const struct source_set *set, const char *rel)
{
	return set->ndrafts > 0 &&
	    bsearch(rel, set->drafts, set->ndrafts, sizeof(*set->drafts), S_cmp_str_key) != NULL;
}

int
content_draft_at(const struct source_set *set, const char *rel, int *line, int *col)
{
	char **p = set->ndrafts == 0 ? NULL :
	    bsearch(rel, set->drafts, set->ndrafts, sizeof(*set->drafts), S_cmp_str_key);

	if (p == NULL)
		return 0;
	*line = set->drafts_at[p - set->drafts][0];
	*col = set->drafts_at[p - set->drafts][1];
	return 1;
}

/* Front matter. */

static int
S_is_question_file(enum source_kind k)
{
	/* _index.md may set the default difficulty for its whole test. */
	return k == SOURCE_TOPIC || k == SOURCE_TEST_FILE || k == SOURCE_TEST_INDEX;
}

/* Length of the line starting at s (without its \n or \r\n), and of its break. */
static size_t
S_line(const char *s, const char *end, size_t *brk)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

	*brk = nl ? 1 : 0;
	if (n > 0 && s[n - 1] == '\r') {
		n--;
		(*brk)++;
	}
	return n;
}

/* Whether the line is `mark` followed only by spaces or tabs. */
static int
S_is_fence(const char *s, size_t n, const char *mark)
{
	size_t m = strlen(mark), i;

	if (n < m || memcmp(s, mark, m) != 0)
		return 0;
	for (i = m; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

static const char *
S_article(const char *type_name)
{
	return strchr("aeiou", type_name[0]) ? "an" : "a";
}

static void
S_wrong_type(struct source *src, struct diag_list *dl, const struct toml_keyval *kv,
    const char *want)
{
	const char *got = toml_type_name(kv->value->type);

	diag_error(dl, src->display, kv->value->line, kv->value->col, "\"%s\" must be %s, not %s %s", kv->key, want,
	    S_article(got), got);
}

/*
 * Shifts every position in a parsed front matter by `lines` so they count
 * from the top of the file, not of the TOML text.
 */
static void
S_shift_positions(struct toml_value *root, int lines)
{
	struct toml_value **stack = NULL;
	size_t n = 0, cap = 0, i;

	stack = xgrow(stack, &cap, 1, sizeof(*stack));
	stack[n++] = root;
	while (n > 0) {
		struct toml_value *v = stack[--n];

		v->line += lines;
		if (v->type == TOML_TABLE)
			for (i = 0; i < v->u.t.len; i++) {
				v->u.t.items[i].line += lines;
				stack = xgrow(stack, &cap, n + 1, sizeof(*stack));
				stack[n++] = v->u.t.items[i].value;
			}
		else if (v->type == TOML_ARRAY)
			for (i = 0; i < v->u.a.len; i++) {
				stack = xgrow(stack, &cap, n + 1, sizeof(*stack));
				stack[n++] = v->u.a.items[i];
			}
	}
	free(stack);
}

static int
S_string_key(struct source *src, struct diag_list *dl, const struct toml_keyval *kv, char **dst)
{
	const struct toml_value *v = kv->value;

	if (v->type != TOML_STRING) {
		S_wrong_type(src, dl, kv, "a string");
		return -1;
	}
	if (strlen(v->u.s.ptr) != v->u.s.len) {
		diag_error(dl, src->display, v->line, v->col,
		    "\"%s\" may not contain a NUL character", kv->key);
		return -1;
	}
	free(*dst);
	*dst = xstrdup(v->u.s.ptr);
	return 0;
}

/* Checks the keys of a parsed front matter against format.md. */
static int
S_validate(struct source *src, struct diag_list *dl)
{
	struct front_matter *fm = &src->fm;
	const struct toml_value *root = fm->table;
	int question_file = S_is_question_file(src->kind);
	int rc = 0;
	size_t i;

	for (i = 0; i < root->u.t.len; i++) {
		const struct toml_keyval *kv = &root->u.t.items[i];
		const struct toml_value *v = kv->value;
		const char *k = kv->key;

		if (strcmp(k, "title") == 0) {
			if (S_string_key(src, dl, kv, &fm->title) == -1)
				rc = -1;
			else if (fm->title[0] == '\0') {
				diag_error(dl, src->display, v->line, v->col,
				    "\"title\" may not be empty: leave it out to use the first # heading");
				free(fm->title);
				fm->title = NULL;
				rc = -1;
			}
		} else if (strcmp(k, "description") == 0) {
			if (S_string_key(src, dl, kv, &fm->description) == -1)
				rc = -1;
		} else if (strcmp(k, "weight") == 0) {
			if (v->type != TOML_INTEGER) {
				S_wrong_type(src, dl, kv, "an integer");
				rc = -1;
			} else if (v->u.i < -1000000000 || v->u.i > 1000000000) {
				diag_error(dl, src->display, v->line, v->col,
				    "\"weight\" must be from -1000000000 to 1000000000");
				rc = -1;
			} else {
				fm->weight = (long)v->u.i;
				fm->has_weight = 1;
			}
		} else if (strcmp(k, "draft") == 0) {
			if (v->type != TOML_BOOL) {
				S_wrong_type(src, dl, kv, "a boolean (true or false)");
				rc = -1;
			} else {
				fm->draft = v->u.b;
				fm->draft_line = v->line;
				fm->draft_col = v->col;
			}
		} else if (strcmp(k, "difficulty") == 0 && question_file) {
			if (v->type != TOML_STRING) {
				S_wrong_type(src, dl, kv, "a string");
				rc = -1;
			} else if (strcmp(v->u.s.ptr, "easy") == 0)
				fm->difficulty = DIFF_EASY;
			else if (strcmp(v->u.s.ptr, "medium") == 0)
				fm->difficulty = DIFF_MEDIUM;
			else if (strcmp(v->u.s.ptr, "hard") == 0)
				fm->difficulty = DIFF_HARD;
			else {
				diag_error(dl, src->display, v->line, v->col,
				    "\"difficulty\" must be \"easy\", \"medium\" or \"hard\", not \"%s\"",
				    v->u.s.ptr);
				rc = -1;
			}
			fm->difficulty_line = v->line;
			fm->difficulty_col = v->col;
		} else if (strcmp(k, "difficulty") == 0) {
			diag_error(dl, src->display, kv->line, kv->col,
			    "\"difficulty\" applies only to question files in content/quiz");
			rc = -1;
		} else if (strcmp(k, "reverse") == 0 && src->kind == SOURCE_DECK) {
			if (v->type != TOML_BOOL) {
				S_wrong_type(src, dl, kv, "a boolean (true or false)");
				rc = -1;
			} else
				fm->reverse = v->u.b;
		} else if (strcmp(k, "reverse") == 0) {
			diag_error(dl, src->display, kv->line, kv->col,
			    "\"reverse\" applies only to decks in content/cards");
			rc = -1;
		} else if (strcmp(k, "extra") == 0) {
			if (v->type != TOML_TABLE) {
				S_wrong_type(src, dl, kv, "a table ([extra])");
				rc = -1;
			} else
				fm->extra = (struct toml_value *)v;
		} else {
			static const char *const keys[] = { "title", "description", "weight",
			    "draft", "extra", "difficulty" };
			static const char *const deck_keys[] = { "title", "description", "weight",
			    "draft", "extra", "reverse" };
			int deck = src->kind == SOURCE_DECK;
			const char *near = deck ? str_nearest(k, deck_keys, 6)
			    : str_nearest(k, keys, question_file ? 6 : 5);

			if (near)
				diag_error(dl, src->display, kv->line, kv->col,
				    "unknown front-matter key \"%s\"; did you mean \"%s\"? (keys of your own go under [extra])",
				    k, near);
			else
				diag_error(dl, src->display, kv->line, kv->col,
				    "unknown front-matter key \"%s\": expected %s; put keys of your own under [extra]",
				    k, question_file ? "title, description, weight, draft or difficulty"
				    : deck ? "title, description, weight, draft or reverse"
				    : "title, description, weight or draft");
			rc = -1;
		}
	}
	return rc;
}

static int
S_is_yaml_key_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/*
 * A file opening with `---` and a `key: value` line holds YAML front
 * matter from another generator: say so rather than render it as text.
 * Returns the number of lines it takes (with both fences), or 0.
 */
static int
S_yaml_lines(const char *p, const char *end)
{
	size_t n, brk, i;
	int l;

	n = S_line(p, end, &brk);
	if (!S_is_fence(p, n, "---") || brk == 0)
		return 0;
	p += n + brk;
	n = S_line(p, end, &brk);
	for (i = 0; i < n && S_is_yaml_key_char(p[i]); i++)
		;
	if (i == 0 || i >= n || p[i] != ':')
		return 0;
	for (l = 2; p < end && l < 1000; l++) {
		n = S_line(p, end, &brk);
		if (S_is_fence(p, n, "---"))
			return l;
		p += n + brk;
	}
	return 0;
}

static void
S_set_body(struct source *src, const char *p, int line)
{
	src->body = p;
	src->body_len = (size_t)(src->data + src->len - p);
	src->body_line = line;
}

int
content_front_matter(struct source *src, struct diag_list *dl)
{
	const char *start = src->data, *end = src->data + src->len, *p;
	struct toml_error err;
	size_t n, brk;
	int line, yaml;

	front_matter_free(&src->fm);
	/* A byte-order mark is no part of the text (cmark skips it too). */
	if (src->len >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0)
		start += 3;
	S_set_body(src, start, 1);
	n = S_line(start, end, &brk);
	if (!S_is_fence(start, n, "+++")) {
		if ((yaml = S_yaml_lines(start, end)) > 0) {
			diag_error(dl, src->display, 1, 1,
			    "front matter must be TOML between +++ lines, not YAML between ---");
			src->fm.error = 1;
			p = start;
			for (line = 0; line < yaml; line++) {
				n = S_line(p, end, &brk);
				p += n + brk;
			}
			S_set_body(src, p, yaml + 1);
			return -1;
		}
		return 0;
	}
	/* Find the closing +++ line. */
	p = start + n + brk;
	line = 2;
	while (p < end) {
		n = S_line(p, end, &brk);
		if (S_is_fence(p, n, "+++"))
			break;
		p += n + brk;
		line++;
	}
	if (p >= end) {
		diag_error(dl, src->display, 1, 1,
		    "front matter opened with +++ is never closed: add a line +++ after it");
		src->fm.error = 1;
		src->broken = 1;
		S_set_body(src, end, line);
		return -1;
	}
	{
		size_t brk1, n1 = S_line(start, end, &brk1);
		const char *toml = start + n1 + brk1;

		src->fm.table = toml_parse(toml, (size_t)(p - toml), &err);
	}
	S_set_body(src, p + n + brk, line + 1);
	if (src->fm.table == NULL) {
		diag_error(dl, src->display, err.line + 1, err.col, "%s", err.message);
		src->fm.error = 1;
		return -1;
	}
	S_shift_positions(src->fm.table, 1);
	if (S_validate(src, dl) == -1) {
		src->fm.error = 1;
		return -1;
	}
	return 0;
}

/* Walking content/. */

struct walk {
	char **files;              /* paths below the root */
	size_t nfiles, files_cap;
	char **dirs;               /* stack of folders still to read */
	size_t ndirs, dirs_cap;
};

static void
S_walk_push(char ***v, size_t *n, size_t *cap, char *s)
{
	*v = xgrow(*v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

/*
 * Whether a symbolic link is followed: only to a regular file inside
 * real_root (the resolved content folder). Otherwise a warning with the
 * link's path says why it was left out.
 */
static int
S_follow_link(const char *full, const char *real_root, const char *shown, struct diag_list *dl)
{
	char *real = realpath(full, NULL);
	size_t n = strlen(real_root);
	struct stat st;
	int ok = 0;

	if (real == NULL)
		diag_warning(dl, shown, 0, 0,
		    "a symbolic link that is broken or loops is not followed: %s", strerror(errno));
	else if (strncmp(real, real_root, n) != 0 || real[n] != '/')
		diag_warning(dl, shown, 0, 0,
		    "a symbolic link leading outside content/ (to %s) is not followed", real);
	else if (stat(real, &st) == -1 || S_ISDIR(st.st_mode))
		diag_warning(dl, shown, 0, 0, "a symbolic link to a folder is not followed");
	else if (!S_ISREG(st.st_mode))
		diag_warning(dl, shown, 0, 0,
		    "a symbolic link to something that is not a file (%s) is not followed", real);
	else
		ok = 1;
	free(real);
	return ok;
}

/* Reads one folder, pushing its files and sub-folders. */
static void
S_walk_dir(struct walk *w, const char *root, const char *real_root, const char *rel,
    const char *display_prefix, struct diag_list *dl)
{
	char *dirpath = *rel ? path_join(root, rel) : xstrdup(root);
	struct dirent *de;
	int bad_line, bad_col;
	DIR *d;

	if ((d = opendir(dirpath)) == NULL) {
		char *shown = path_join(display_prefix, rel);

		diag_error(dl, shown, 0, 0, "cannot read the folder: %s", strerror(errno));
		free(shown);
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char *child, *full;

		/* Dot files are editor and VCS state, never content. */
		if (de->d_name[0] == '.')
			continue;
		/* A name becomes a URL and page text: it must be UTF-8. */
		if (!utf8_validate(de->d_name, strlen(de->d_name), &bad_line, &bad_col)) {
			char *shown = path_join(display_prefix, rel);
			struct buf name;
			const unsigned char *p;

			buf_init(&name);
			for (p = (const unsigned char *)de->d_name; *p; p++)
				if (*p < 0x80 && *p >= 0x20)
					buf_putc(&name, *p);
				else
					buf_printf(&name, "\\x%02x", *p);
			diag_error(dl, shown, 0, 0, "\"%s\" is not a UTF-8 name: rename it", buf_str(&name));
			buf_free(&name);
			free(shown);
			continue;
		}
		child = path_join(rel, de->d_name);
		full = path_join(root, child);
		/* The type readdir gives saves a stat per file, where the file system gives it. */
		if (de->d_type == DT_REG)
			st.st_mode = S_IFREG;
		else if (de->d_type == DT_DIR)
			st.st_mode = S_IFDIR;
		else if (lstat(full, &st) == -1) {
			free(full);
			free(child);
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			char *shown = path_join(display_prefix, child);

			if (S_follow_link(full, real_root, shown, dl))
				S_walk_push(&w->files, &w->nfiles, &w->files_cap, child);
			else
				free(child);
			free(shown);
		} else if (S_ISDIR(st.st_mode))
			S_walk_push(&w->dirs, &w->ndirs, &w->dirs_cap, child);
		else if (S_ISREG(st.st_mode))
			S_walk_push(&w->files, &w->nfiles, &w->files_cap, child);
		else
			free(child);
		free(full);
	}
	closedir(d);
out:
	free(dirpath);
}

/* Reads one Markdown file into src; diagnostics for what is wrong with its bytes. */
static void
S_read_markdown(struct source *src, size_t max_size, struct diag_list *dl)
{
	int line, col, rc;

	/* The size is checked on the open file: one stat fewer per source. */
	rc = file_read_max(src->path, max_size, &src->data, &src->len);
	if (rc == -2) {
		diag_error(dl, src->display, 0, 0,
		    "the file is %llu bytes, over the limit of %zu bytes: split it, or raise "
		    "[limits] max_file_size in site.toml", (unsigned long long)src->len, max_size);
		src->data = xstrdup("");
		src->len = 0;
		src->broken = 1;
		S_set_body(src, src->data, 1);
		return;
	}
	if (rc == -1) {
		diag_error(dl, src->display, 0, 0, "cannot read the file: %s", strerror(errno));
		src->data = xstrdup("");
		src->len = 0;
		src->broken = 1;
		return;
	}
	if (!utf8_validate(src->data, src->len, &line, &col)) {
		const unsigned char *bad = (const unsigned char *)src->data;
		size_t off = 0;
		int l = 1;

		/* The offending byte, for the message. */
		while (l < line)
			if (bad[off++] == '\n')
				l++;
		off += (size_t)(col - 1);
		diag_error(dl, src->display, line, col,
		    "invalid UTF-8 (byte 0x%02x): save the file as UTF-8", bad[off]);
		src->broken = 1;
		S_set_body(src, src->data + src->len, 1);
		return;
	}
	content_front_matter(src, dl);
}

int
content_load(struct source_set *set, const char *content_dir,
    const char *display_prefix, struct diag_list *dl)
{
	return content_load_max(set, content_dir, display_prefix, 0, 1, dl);
}

/* Markdown files read (and their front matter parsed) on every thread. */
struct read_batch {
	struct source **v;
	struct diag_list *dls;     /* one per file, merged in order after */
	size_t max_size;
};

static void
S_read_job(void *arg, size_t job, int worker)
{
	struct read_batch *rb = arg;
	struct source *src = rb->v[job];

	(void)worker;
	if (src->kind == SOURCE_ASSET)
		return;
	S_read_markdown(src, rb->max_size, &rb->dls[job]);
}

int
content_load_max(struct source_set *set, const char *content_dir,
    const char *display_prefix, size_t max_size, int nthreads, struct diag_list *dl)
{
	struct walk w;
	struct read_batch rb;
	size_t i, errors = dl->errors;
	char *real_root = NULL;

	memset(set, 0, sizeof(*set));
	memset(&w, 0, sizeof(w));
	if (!path_is_dir(content_dir) || (real_root = realpath(content_dir, NULL)) == NULL) {
		diag_error(dl, display_prefix, 0, 0,
		    "no content folder: the site's Markdown goes in %s/", display_prefix);
		goto out;
	}
	S_walk_push(&w.dirs, &w.ndirs, &w.dirs_cap, xstrdup(""));
	while (w.ndirs > 0) {
		char *rel = w.dirs[--w.ndirs];

		S_walk_dir(&w, content_dir, real_root, rel, display_prefix, dl);
		free(rel);
	}
	strv_sort(w.files, w.nfiles);
	rb.v = xcalloc(w.nfiles + 1, sizeof(*rb.v));
	rb.dls = xcalloc(w.nfiles + 1, sizeof(*rb.dls));
	rb.max_size = max_size;
	for (i = 0; i < w.nfiles; i++) {
		struct source *src = xcalloc(1, sizeof(*src));

		src->rel = w.files[i];
		w.files[i] = NULL;
		src->display = path_join(display_prefix, src->rel);
		src->path = path_join(content_dir, src->rel);
		src->kind = content_classify(src->rel);
		src->fm.difficulty = DIFF_NONE;
		src->body_line = 1;
		rb.v[i] = src;
		diag_init(&rb.dls[i]);
	}
	pool_run(nthreads, w.nfiles, S_read_job, &rb);
	for (i = 0; i < w.nfiles; i++) {
		struct source *src = rb.v[i];

		diag_move(dl, &rb.dls[i]);
		diag_free(&rb.dls[i]);
		if (src->fm.draft) {
			set->drafts_at = xgrow(set->drafts_at, &set->drafts_at_cap, set->ndrafts + 1,
			    sizeof(*set->drafts_at));
			set->drafts_at[set->ndrafts][0] = src->fm.draft_line;
			set->drafts_at[set->ndrafts][1] = src->fm.draft_col;
			S_walk_push(&set->drafts, &set->ndrafts, &set->drafts_cap, xstrdup(src->rel));
			source_free(src);
			continue;
		}
		set->v = xgrow(set->v, &set->cap, set->len + 1, sizeof(*set->v));
		set->v[set->len++] = src;
	}
	free(rb.v);
	free(rb.dls);
	/* Already in order: the walk's files were sorted by rel. */
	if (set->len > 1)
		qsort(set->v, set->len, sizeof(*set->v), S_cmp_source);
	S_index(set);
out:
	for (i = 0; i < w.nfiles; i++)
		free(w.files[i]);
	free(w.files);
	for (i = 0; i < w.ndirs; i++)
		free(w.dirs[i]);
	free(w.dirs);
	free(real_root);
	return dl->errors > errors ? -1 : 0;
}

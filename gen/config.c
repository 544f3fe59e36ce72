/*
 * config: site.toml. Every key of format.md, its default, its type and
 * range; anything else is an error pointing at the key.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "toml.h"
#include "util.h"

void
config_defaults(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->title = xstrdup("Study notes");
	c->description = xstrdup("");
	c->language = xstrdup("en");
	c->author = xstrdup("");
	c->base_url = xstrdup("");
	c->theme = xstrdup("default");
	c->site_id = xstrdup("");
	c->quiz.questions = 10;
	c->quiz.reveal = REVEAL_EACH;
	c->quiz.seconds_easy = 30;
	c->quiz.seconds_medium = 45;
	c->quiz.seconds_hard = 75;
	c->quiz.pass_mark = 0.7;
	c->markdown.unsafe_html = 0;
	c->print.paper_name = xstrdup("a4");
	config_paper_size("a4", &c->print.paper_w, &c->print.paper_h);
	c->print.card_name = xstrdup("a7");
	config_card_size("a7", &c->print.card_w, &c->print.card_h);
	c->print.duplex = DUPLEX_LONG_EDGE;
	c->print.cut_marks = CUT_CORNERS;
	c->print.layout = LAYOUT_AUTO;
	c->print.font = xstrdup("Noto Sans");
	c->print.min_font_size = 7;
	c->limits.max_file_size = CONFIG_MAX_FILE_SIZE;
	c->limits.max_elements = CONFIG_MAX_ELEMENTS;
}

void
config_free(struct config *c)
{
	free(c->path);
	free(c->title);
	free(c->description);
	free(c->language);
	free(c->author);
	free(c->base_url);
	free(c->theme);
	free(c->site_id);
	free(c->print.paper_name);
	free(c->print.card_name);
	free(c->print.font);
	while (c->nstrings > 0) {
		c->nstrings--;
		free(c->strings[c->nstrings].key);
		free(c->strings[c->nstrings].value);
	}
	free(c->strings);
	memset(c, 0, sizeof(*c));
}

struct named_size {
	const char *name;
	double w, h;
};

static const struct named_size papers[] = {
	{ "a4", 210, 297 },
	{ "a3", 297, 420 },
	{ "a5", 148, 210 },
	{ "letter", 215.9, 279.4 },
	{ "legal", 215.9, 355.6 },
	{ "tabloid", 279.4, 431.8 },
};

static const struct named_size cards[] = {
	{ "a7", 74, 105 },
	{ "a6", 105, 148 },
	{ "a8", 52, 74 },
	{ "index-3x5", 76.2, 127 },
	{ "index-4x6", 101.6, 152.4 },
	{ "index-5x8", 127, 203.2 },
	{ "business", 85, 55 },
	{ "poker", 63.5, 88.9 },
	{ "tarot", 70, 120 },
};

/* "210x297mm", "8.5x11in", "21x29.7cm": positive numbers with a unit. */
static int
S_parse_dimensions(const char *s, double *w, double *h)
{
	char *end;
	double a, b, scale;

	errno = 0;
	a = strtod(s, &end);
	if (end == s || (*end != 'x' && *end != 'X'))
		return -1;
	s = end + 1;
	b = strtod(s, &end);
	if (end == s || errno)
		return -1;
	if (strcasecmp(end, "mm") == 0)
		scale = 1;
	else if (strcasecmp(end, "cm") == 0)
		scale = 10;
	else if (strcasecmp(end, "in") == 0)
		scale = 25.4;
	else if (strcasecmp(end, "pt") == 0)
		scale = 25.4 / 72;
	else
		return -1;
	a *= scale;
	b *= scale;
	if (!(a >= 10 && b >= 10 && a <= 2000 && b <= 2000))
		return -1;
	*w = a;
	*h = b;
	return 0;
}

static int
S_lookup(const struct named_size *v, size_t n, const char *name, double *w, double *h)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcasecmp(v[i].name, name) == 0) {
			*w = v[i].w;
			*h = v[i].h;
			return 0;
		}
	return S_parse_dimensions(name, w, h);
}

int
config_paper_size(const char *name, double *w_mm, double *h_mm)
{
	return S_lookup(papers, sizeof(papers) / sizeof(papers[0]), name, w_mm, h_mm);
}

int
config_card_size(const char *name, double *w_mm, double *h_mm)
{
	return S_lookup(cards, sizeof(cards) / sizeof(cards[0]), name, w_mm, h_mm);
}

static const char *const duplex_names[] = { "long-edge", "short-edge", "fold", "single" };
static const char *const cut_names[] = { "corners", "lines", "none" };
static const char *const layout_names[] = { "auto", "full", "margins" };

int
config_parse_duplex(const char *s, enum duplex_mode *out)
{
	size_t i;

	for (i = 0; i < sizeof(duplex_names) / sizeof(duplex_names[0]); i++)
		if (strcasecmp(s, duplex_names[i]) == 0) {
			*out = (enum duplex_mode)i;
			return 0;
		}
	return -1;
}

const char *
config_duplex_name(enum duplex_mode d)
{
	return duplex_names[d];
}

int
config_parse_cut_marks(const char *s, enum cut_marks *out)
{
	size_t i;

	for (i = 0; i < sizeof(cut_names) / sizeof(cut_names[0]); i++)
		if (strcasecmp(s, cut_names[i]) == 0) {
			*out = (enum cut_marks)i;
			return 0;
		}
	return -1;
}

int
config_parse_layout(const char *s, enum print_layout *out)
{
	size_t i;

	for (i = 0; i < sizeof(layout_names) / sizeof(layout_names[0]); i++)
		if (strcasecmp(s, layout_names[i]) == 0) {
			*out = (enum print_layout)i;
			return 0;
		}
	return -1;
}

const char *
config_choice_name(enum config_choice which, size_t i)
{
	switch (which) {
	case CONFIG_PAPER:
		return i < sizeof(papers) / sizeof(papers[0]) ? papers[i].name : NULL;
	case CONFIG_CARD:
		return i < sizeof(cards) / sizeof(cards[0]) ? cards[i].name : NULL;
	case CONFIG_DUPLEX:
		return i < sizeof(duplex_names) / sizeof(duplex_names[0]) ? duplex_names[i] : NULL;
	case CONFIG_CUT_MARKS:
		return i < sizeof(cut_names) / sizeof(cut_names[0]) ? cut_names[i] : NULL;
	case CONFIG_LAYOUT:
		return i < sizeof(layout_names) / sizeof(layout_names[0]) ? layout_names[i] : NULL;
	}
	return NULL;
}

const char *
config_choice_nearest(enum config_choice which, const char *s)
{
	const char *names[16];
	size_t n = 0;

	while (n < 16 && (names[n] = config_choice_name(which, n)) != NULL)
		n++;
	return str_nearest(s, names, n);
}

char *
config_choice_list(enum config_choice which, const char *other)
{
	const char *name;
	struct buf b;
	size_t i;

	buf_init(&b);
	for (i = 0; (name = config_choice_name(which, i)) != NULL; i++) {
		if (i > 0)
			buf_puts(&b, other == NULL && config_choice_name(which, i + 1) == NULL ? " or " : ", ");
		buf_puts(&b, name);
	}
	if (other != NULL) {
		buf_puts(&b, ", or ");
		buf_puts(&b, other);
	}
	return buf_detach(&b);
}

/* One length: "0.5mm", "-0.3 mm", "0", "0.02in". */
static int
S_parse_length(const char *s, const char **endp, double *mm)
{
	char *end;
	double v;

	while (*s == ' ' || *s == '\t')
		s++;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return -1;
	s = end;
	while (*s == ' ')
		s++;
	if (strncmp(s, "mm", 2) == 0)
		s += 2;
	else if (strncmp(s, "in", 2) == 0) {
		v *= 25.4;
		s += 2;
	} else if (strncmp(s, "pt", 2) == 0) {
		v *= 25.4 / 72;
		s += 2;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	*endp = s;
	*mm = v;
	return 0;
}

int
config_parse_offset(const char *s, double *x_mm, double *y_mm)
{
	double x, y;

	if (S_parse_length(s, &s, &x) == -1 || *s != ',')
		return -1;
	if (S_parse_length(s + 1, &s, &y) == -1 || *s != '\0')
		return -1;
	if (fabs(x) > 20 || fabs(y) > 20)
		return -1;
	*x_mm = x;
	*y_mm = y;
	return 0;
}

/* Reading one table against a schema. */

struct reader {
	const char *path;
	struct diag_list *dl;
	int failed;
};

static void
S_bad(struct reader *r, const struct toml_keyval *kv, const char *fmt, const char *a)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, kv->key, a);
	diag_error(r->dl, r->path, kv->value->line, kv->value->col, "%s", msg);
	r->failed = 1;
}

/*
 * kv's value is none of which's names: shape, a format for S_bad with
 * %s where the list goes, names them all (config_choice_list).
 */
static void
S_bad_choice(struct reader *r, const struct toml_keyval *kv, const char *shape,
    enum config_choice which, const char *other)
{
	char *list = config_choice_list(which, other);
	const char *near = config_choice_nearest(which, kv->value->u.s.ptr);
	char *fmt = near ? xasprintf("%s; did you mean \"%s\"?", shape, near) : xstrdup(shape);
	char *msg = xasprintf(fmt, list);

	S_bad(r, kv, msg, kv->value->u.s.ptr);
	free(msg);
	free(fmt);
	free(list);
}

static int
S_want(struct reader *r, const struct toml_keyval *kv, enum toml_type t)
{
	if (kv->value->type == t)
		return 1;
	/* An integer is fine where a float is wanted (pass_mark = 1). */
	if (t == TOML_FLOAT && kv->value->type == TOML_INTEGER)
		return 1;
	S_bad(r, kv, "\"%s\" must be %s", t == TOML_INTEGER ? "an integer" :
	    t == TOML_FLOAT ? "a number" : t == TOML_STRING ? "a string" :
	    t == TOML_BOOL ? "true or false" : "a table");
	return 0;
}

static void
S_string(struct reader *r, const struct toml_keyval *kv, char **dst)
{
	if (!S_want(r, kv, TOML_STRING))
		return;
	if (strlen(kv->value->u.s.ptr) != kv->value->u.s.len) {
		S_bad(r, kv, "\"%s\" may not contain a NUL character%s", "");
		return;
	}
	free(*dst);
	*dst = xstrdup(kv->value->u.s.ptr);
}

static double
S_number(const struct toml_value *v)
{
	return v->type == TOML_INTEGER ? (double)v->u.i : v->u.f;
}

static void
S_integer(struct reader *r, const struct toml_keyval *kv, long *dst, long lo, long hi)
{
	char range[64];

	if (!S_want(r, kv, TOML_INTEGER))
		return;
	if (kv->value->u.i < lo || kv->value->u.i > hi) {
		snprintf(range, sizeof(range), "%ld to %ld", lo, hi);
		S_bad(r, kv, "\"%s\" must be from %s", range);
		return;
	}
	*dst = (long)kv->value->u.i;
}

/* The keys of each table of site.toml, in format.md's order. */
static const char *const root_keys[] = { "title", "description", "language", "author",
    "base_url", "theme", "site_id", "quiz", "markdown", "print", "strings", "limits" };
static const char *const quiz_keys[] = { "questions", "reveal", "seconds", "pass_mark" };
static const char *const seconds_keys[] = { "easy", "medium", "hard" };
static const char *const markdown_keys[] = { "unsafe_html" };
static const char *const print_keys[] = { "paper", "card", "duplex", "cut_marks", "layout", "font",
    "min_font_size", "back_offset" };
static const char *const limits_keys[] = { "max_file_size", "max_elements" };
#define S_KEYS(v) (v), sizeof(v) / sizeof((v)[0])

/* kv is none of table's keys: the nearest, or else every one. */
static void
S_unknown(struct reader *r, const struct toml_keyval *kv, const char *table,
    const char *const *keys, size_t nkeys)
{
	const char *near = str_nearest(kv->key, keys, nkeys);
	const char *dot = *table ? "." : "";
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_printf(&b, "unknown key \"%s%s%s\" in site.toml", table, dot, kv->key);
	if (near)
		buf_printf(&b, "; did you mean \"%s%s%s\"?", table, dot, near);
	else {
		if (*table)
			buf_printf(&b, ": [%s] takes ", table);
		else
			buf_puts(&b, ": the top level takes ");
		for (i = 0; i < nkeys; i++)
			buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == nkeys ? " or " : ", ", keys[i]);
	}
	diag_error(r->dl, r->path, kv->line, kv->col, "%s", buf_str(&b));
	buf_free(&b);
	r->failed = 1;
}

static int
S_is_key(const char *key, const char *const *keys, size_t nkeys)
{
	size_t i;

	for (i = 0; i < nkeys; i++)
		if (strcmp(key, keys[i]) == 0)
			return 1;
	return 0;
}

static void
S_read_seconds(struct reader *r, struct config *c, const struct toml_value *t)
{
	size_t i;

	for (i = 0; i < t->u.t.len; i++) {
		const struct toml_keyval *kv = &t->u.t.items[i];

		if (strcmp(kv->key, "easy") == 0)
			S_integer(r, kv, &c->quiz.seconds_easy, 1, 3600);
		else if (strcmp(kv->key, "medium") == 0)
			S_integer(r, kv, &c->quiz.seconds_medium, 1, 3600);
		else if (strcmp(kv->key, "hard") == 0)
			S_integer(r, kv, &c->quiz.seconds_hard, 1, 3600);
		else
			S_unknown(r, kv, "quiz.seconds", S_KEYS(seconds_keys));
	}
}

static void
S_read_quiz(struct reader *r, struct config *c, const struct toml_value *t)
{
	size_t i;

	for (i = 0; i < t->u.t.len; i++) {
		const struct toml_keyval *kv = &t->u.t.items[i];
		const struct toml_value *v = kv->value;

		if (strcmp(kv->key, "questions") == 0)
			S_integer(r, kv, &c->quiz.questions, 1, 1000);
		else if (strcmp(kv->key, "reveal") == 0) {
			if (!S_want(r, kv, TOML_STRING))
				continue;
			if (strcmp(v->u.s.ptr, "each") == 0)
				c->quiz.reveal = REVEAL_EACH;
			else if (strcmp(v->u.s.ptr, "end") == 0)
				c->quiz.reveal = REVEAL_END;
			else
				S_bad(r, kv, "\"%s\" must be \"each\" or \"end\", not \"%s\"", v->u.s.ptr);
		} else if (strcmp(kv->key, "seconds") == 0) {
			if (S_want(r, kv, TOML_TABLE))
				S_read_seconds(r, c, v);
		} else if (strcmp(kv->key, "pass_mark") == 0) {
			double x;

			if (!S_want(r, kv, TOML_FLOAT))
				continue;
			x = S_number(v);
			if (!(x >= 0 && x <= 1))
				S_bad(r, kv, "\"%s\" must be a fraction from 0 to 1%s", "");
			else
				c->quiz.pass_mark = x;
		} else
			S_unknown(r, kv, "quiz", S_KEYS(quiz_keys));
	}
}

static void
S_read_markdown(struct reader *r, struct config *c, const struct toml_value *t)
{
	size_t i;

	for (i = 0; i < t->u.t.len; i++) {
		const struct toml_keyval *kv = &t->u.t.items[i];

		if (strcmp(kv->key, "unsafe_html") == 0) {
			if (S_want(r, kv, TOML_BOOL))
				c->markdown.unsafe_html = kv->value->u.b;
		} else
			S_unknown(r, kv, "markdown", S_KEYS(markdown_keys));
	}
}

static void
S_read_limits(struct reader *r, struct config *c, const struct toml_value *t)
{
	size_t i;

	for (i = 0; i < t->u.t.len; i++) {
		const struct toml_keyval *kv = &t->u.t.items[i];

		if (strcmp(kv->key, "max_file_size") == 0)
			S_integer(r, kv, &c->limits.max_file_size, 1024, 1024L * 1024 * 1024);
		else if (strcmp(kv->key, "max_elements") == 0)
			S_integer(r, kv, &c->limits.max_elements, 100, 100000000);
		else
			S_unknown(r, kv, "limits", S_KEYS(limits_keys));
	}
}

static void
S_read_print(struct reader *r, struct config *c, const struct toml_value *t)
{
	struct print_config *p = &c->print;
	size_t i;

	for (i = 0; i < t->u.t.len; i++) {
		const struct toml_keyval *kv = &t->u.t.items[i];
		const struct toml_value *v = kv->value;
		const char *s;

		if (strcmp(kv->key, "min_font_size") == 0) {
			if (!S_want(r, kv, TOML_FLOAT))
				continue;
			if (!(S_number(v) >= 3 && S_number(v) <= 72))
				S_bad(r, kv, "\"%s\" must be from 3 to 72 points%s", "");
			else
				p->min_font_size = S_number(v);
			continue;
		}
		if (!S_is_key(kv->key, S_KEYS(print_keys))) {
			S_unknown(r, kv, "print", S_KEYS(print_keys));
			continue;
		}
		if (!S_want(r, kv, TOML_STRING))
			continue;
		s = v->u.s.ptr;
		if (strcmp(kv->key, "paper") == 0) {
			if (config_paper_size(s, &p->paper_w, &p->paper_h) == -1)
				S_bad_choice(r, kv, "\"%%s\": unknown paper \"%%s\" (%s)", CONFIG_PAPER,
				    "\"WxHmm\" / \"WxHin\"");
			else {
				free(p->paper_name);
				p->paper_name = xstrdup(s);
			}
		} else if (strcmp(kv->key, "card") == 0) {
			if (config_card_size(s, &p->card_w, &p->card_h) == -1)
				S_bad_choice(r, kv, "\"%%s\": unknown card size \"%%s\" (%s)", CONFIG_CARD,
				    "\"WxHmm\"");
			else {
				free(p->card_name);
				p->card_name = xstrdup(s);
			}
		} else if (strcmp(kv->key, "duplex") == 0) {
			if (config_parse_duplex(s, &p->duplex) == -1)
				S_bad_choice(r, kv, "\"%%s\" must be %s, not \"%%s\"", CONFIG_DUPLEX, NULL);
		} else if (strcmp(kv->key, "cut_marks") == 0) {
			if (config_parse_cut_marks(s, &p->cut_marks) == -1)
				S_bad_choice(r, kv, "\"%%s\" must be %s, not \"%%s\"", CONFIG_CUT_MARKS, NULL);
		} else if (strcmp(kv->key, "layout") == 0) {
			if (config_parse_layout(s, &p->layout) == -1)
				S_bad_choice(r, kv, "\"%%s\" must be %s, not \"%%s\"", CONFIG_LAYOUT, NULL);
		} else if (strcmp(kv->key, "font") == 0) {
			if (*s == '\0')
				S_bad(r, kv, "\"%s\" may not be empty%s", "");
			else {
				free(p->font);
				p->font = xstrdup(s);
			}
		} else if (strcmp(kv->key, "back_offset") == 0) {
			if (config_parse_offset(s, &p->back_offset_x, &p->back_offset_y) == -1)
				S_bad(r, kv, "\"%s\" must be two lengths within 20 mm, as \"0.5mm, -0.3mm\", not \"%s\"", s);
		}
	}
}

/*
 * [strings]: strings or tables of them, to any depth, kept with their
 * dotted keys; which keys exist is lang.c's to say.
 */
static void
S_read_strings(struct reader *r, struct config *c, const struct toml_value *t, const char *prefix)
{
	size_t i;

	for (i = 0; i < t->u.t.len; i++) {
		const struct toml_keyval *kv = &t->u.t.items[i];
		char *key = *prefix ? xasprintf("%s.%s", prefix, kv->key) : xstrdup(kv->key);

		if (kv->value->type == TOML_TABLE)
			S_read_strings(r, c, kv->value, key);
		else if (kv->value->type != TOML_STRING || strlen(kv->value->u.s.ptr) != kv->value->u.s.len) {
			diag_error(r->dl, r->path, kv->line, kv->col,
			    "\"strings.%s\" must be a string (or a table of plural forms)", key);
			r->failed = 1;
		} else {
			struct config_string *cs;

			c->strings = xrealloc(c->strings, (c->nstrings + 1) * sizeof(*c->strings));
			cs = &c->strings[c->nstrings++];
			cs->key = key;
			key = NULL;
			cs->value = xstrdup(kv->value->u.s.ptr);
			cs->line = kv->line;
			cs->col = kv->col;
		}
		free(key);
	}
}

/* A BCP 47 tag's letters, digits and hyphens (it becomes the pages' lang). */
static int
S_language_ok(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return n >= 2 && n <= 35;
}

/* Letters, digits, '.', '-', '_': it names the site in the learner's browser storage keys. */
static int
S_site_id_ok(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_' || s[i] == '.'))
			return 0;
	return len >= 1 && len <= 64;
}

static void
S_read_root(struct reader *r, struct config *c, const struct toml_value *root)
{
	size_t i;

	for (i = 0; i < root->u.t.len; i++) {
		const struct toml_keyval *kv = &root->u.t.items[i];
		const char *k = kv->key;

		if (strcmp(k, "title") == 0)
			S_string(r, kv, &c->title);
		else if (strcmp(k, "description") == 0)
			S_string(r, kv, &c->description);
		else if (strcmp(k, "language") == 0) {
			S_string(r, kv, &c->language);
			c->language_line = kv->line;
			c->language_col = kv->col;
			if (!S_language_ok(c->language))
				S_bad(r, kv, "\"%s\" must be a language tag such as \"en\" or \"pt-BR\", not \"%s\"",
				    c->language);
		}
		else if (strcmp(k, "author") == 0)
			S_string(r, kv, &c->author);
		else if (strcmp(k, "base_url") == 0) {
			size_t n;

			S_string(r, kv, &c->base_url);
			n = strlen(c->base_url);
			while (n > 0 && c->base_url[n - 1] == '/')
				c->base_url[--n] = '\0';
			if (n > 0 && strncmp(c->base_url, "https://", 8) != 0 &&
			    strncmp(c->base_url, "http://", 7) != 0)
				S_bad(r, kv, "\"%s\" must start with https:// or http://, not \"%s\"", c->base_url);
			else if (c->base_url[strcspn(c->base_url, " \"<>\\^`{|}\x7f\x01\x02\x03\x04\x05"
			    "\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18"
			    "\x19\x1a\x1b\x1c\x1d\x1e\x1f")] != '\0')
				S_bad(r, kv, "\"%s\" must be a URL (spaces, quotes and <>\\^`{|} percent-encoded), not \"%s\"",
				    c->base_url);
		} else if (strcmp(k, "theme") == 0) {
			S_string(r, kv, &c->theme);
			if (c->theme[0] == '\0' || strchr(c->theme, '/') || c->theme[0] == '.')
				S_bad(r, kv, "\"%s\" must name a folder in themes/, not \"%s\"", c->theme);
		} else if (strcmp(k, "site_id") == 0) {
			if (!S_want(r, kv, TOML_STRING))
				continue;
			if (!S_site_id_ok(kv->value->u.s.ptr, kv->value->u.s.len))
				S_bad(r, kv, "\"%s\" must be 1 to 64 letters, digits, '.', '-' or '_', not \"%s\"",
				    kv->value->u.s.ptr);
			else {
				free(c->site_id);
				c->site_id = xstrdup(kv->value->u.s.ptr);
			}
		} else if (strcmp(k, "quiz") == 0) {
			if (S_want(r, kv, TOML_TABLE))
				S_read_quiz(r, c, kv->value);
		} else if (strcmp(k, "markdown") == 0) {
			if (S_want(r, kv, TOML_TABLE))
				S_read_markdown(r, c, kv->value);
		} else if (strcmp(k, "print") == 0) {
			if (S_want(r, kv, TOML_TABLE))
				S_read_print(r, c, kv->value);
		} else if (strcmp(k, "limits") == 0) {
			if (S_want(r, kv, TOML_TABLE))
				S_read_limits(r, c, kv->value);
		} else if (strcmp(k, "strings") == 0) {
			if (S_want(r, kv, TOML_TABLE))
				S_read_strings(r, c, kv->value, "");
		} else
			S_unknown(r, kv, "", S_KEYS(root_keys));
	}
}

int
config_load(struct config *c, const char *path, struct diag_list *dl)
{
	struct reader r = { path, dl, 0 };
	struct toml_value *root = NULL;
	struct toml_error err;
	struct stat st;
	char *data = NULL;
	size_t len;

	config_defaults(c);
	c->path = xstrdup(path);
	/* Its own limits are not known yet: the default holds for site.toml. */
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > CONFIG_MAX_FILE_SIZE) {
		diag_error(dl, path, 0, 0, "the file is %lld bytes, over the limit of %ld bytes",
		    (long long)st.st_size, CONFIG_MAX_FILE_SIZE);
		r.failed = 1;
		goto out;
	}
	if (file_read(path, &data, &len) == -1) {
		diag_error(dl, path, 0, 0, "cannot read the site settings: %s", strerror(errno));
		r.failed = 1;
		goto out;
	}
	if ((root = toml_parse(data, len, &err)) == NULL) {
		diag_error(dl, path, err.line, err.col, "%s", err.message);
		r.failed = 1;
		goto out;
	}
	S_read_root(&r, c, root);
out:
	toml_free(root);
	free(data);
	return r.failed ? -1 : 0;
}

enum print_override_error
config_apply_print(struct print_config *pc, const struct print_overrides *po)
{
	if (po->paper && config_paper_size(po->paper, &pc->paper_w, &pc->paper_h) == -1)
		return PRINT_BAD_PAPER;
	if (po->card && config_card_size(po->card, &pc->card_w, &pc->card_h) == -1)
		return PRINT_BAD_CARD;
	if (po->duplex && config_parse_duplex(po->duplex, &pc->duplex) == -1)
		return PRINT_BAD_DUPLEX;
	if (po->cut_marks && config_parse_cut_marks(po->cut_marks, &pc->cut_marks) == -1)
		return PRINT_BAD_CUT_MARKS;
	if (po->layout && config_parse_layout(po->layout, &pc->layout) == -1)
		return PRINT_BAD_LAYOUT;
	if (po->back_offset && config_parse_offset(po->back_offset,
	    &pc->back_offset_x, &pc->back_offset_y) == -1)
		return PRINT_BAD_BACK_OFFSET;
	if (po->paper) {
		free(pc->paper_name);
		pc->paper_name = xstrdup(po->paper);
	}
	if (po->card) {
		free(pc->card_name);
		pc->card_name = xstrdup(po->card);
	}
	return PRINT_OVERRIDE_OK;
}

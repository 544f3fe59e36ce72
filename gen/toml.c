/*
 * toml: a TOML 1.0.0 parser.
 *
 * One pass over the bytes, building the tree as it goes. Two things are
 * done up front so the grammar code can stay simple:
 *
 *  - S_scan_bytes finds the first byte no TOML document may hold
 *    (invalid UTF-8, a control character other than tab, a CR without
 *    its LF). The grammar only ever sees the bytes before it, and any
 *    error at or past that point is reported as the bad byte instead,
 *    so the first problem in the document is the one reported.
 *  - Positions are not tracked while scanning; S_locate turns a byte
 *    offset into line and column when a value is made or an error
 *    raised, walking forward from the last offset it was asked about.
 *
 * The redefinition rules live in toml_value.flags (see F_*). Duplicate
 * keys are found through one hash index over all tables, so a table of
 * many keys costs no more than a small one.
 *
 * Nesting is bounded by TOML_MAX_DEPTH, which bounds both the recursion
 * of the value parser and that of toml_free and of any tree walker.
 */
#include "toml.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* toml_value.flags: how a table or array came to be. */
enum {
	/* A table made as a step of a [header] path: it may get its own header later. */
	F_IMPLICIT = 1 << 0,
	/* A table named by a [header] or [[header]] (or the root): never again. */
	F_HEADER = 1 << 1,
	/* A table made by a dotted key: headers may go through it, not name it. */
	F_DOTTED = 1 << 2,
	/* An inline table: closed for good at its '}'. */
	F_INLINE = 1 << 3,
	/* An array made by [[header]]: the only array later headers may extend. */
	F_AOT = 1 << 4
};

struct key_part {
	char *s;                   /* owned until handed to a table */
	size_t len;
	size_t off;                /* where it was written */
	int line, col;
};

struct key_path {
	struct key_part *v;
	size_t len, cap;
};

/* One slot of the key index; table == NULL marks it free. */
struct key_slot {
	const struct toml_value *table;
	size_t idx;                /* into table->u.t.items */
	uint64_t hash;
};

struct parser {
	const char *src;
	size_t srclen;             /* the whole input */
	size_t len;                /* what the grammar may see: up to `bad` */
	size_t pos;
	size_t bad;                /* first byte no document may hold, or SIZE_MAX */
	char badmsg[96];
	struct toml_error *err;
	int failed;
	/* S_locate's memory: line and line start of offset loc_off */
	size_t loc_off, loc_line_start;
	int loc_line;
	struct key_slot *slots;    /* open addressing, power-of-two size */
	size_t nslots, used;
	struct buf text;           /* scratch for string bodies */
	struct toml_value *cur;    /* the table key/values go into */
	int cur_depth;
};

static struct toml_value *S_parse_value(struct parser *, int);

/* ------------------------------------------------------------------ */
/* positions and errors                                                */

static void
S_locate(struct parser *p, size_t off, int *line, int *col)
{
	const char *nl;
	size_t c;

	if (off > p->srclen)
		off = p->srclen;
	/* Going back within the line is cheap; further back starts over. */
	if (off < p->loc_line_start) {
		p->loc_off = 0;
		p->loc_line = 1;
		p->loc_line_start = 0;
	}
	if (off < p->loc_off)
		p->loc_off = off;
	while (p->loc_off < off &&
	    (nl = memchr(p->src + p->loc_off, '\n', off - p->loc_off)) != NULL) {
		if (p->loc_line < INT_MAX)
			p->loc_line++;
		p->loc_line_start = (size_t)(nl - p->src) + 1;
		p->loc_off = p->loc_line_start;
	}
	p->loc_off = off;
	c = off - p->loc_line_start + 1;
	*line = p->loc_line;
	*col = c > INT_MAX ? INT_MAX : (int)c;
}

/*
 * Records the first error (later ones are consequences of it) and
 * returns 0, so callers can `return S_error(...)`. An error at or past
 * the first bad byte is that byte's fault: the grammar never saw it.
 */
static int
S_error(struct parser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
S_error(struct parser *p, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return 0;
	p->failed = 1;
	if (off >= p->bad) {
		off = p->bad;
		snprintf(p->err->message, sizeof(p->err->message), "%s", p->badmsg);
	} else {
		va_start(ap, fmt);
		vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
		va_end(ap);
	}
	S_locate(p, off, &p->err->line, &p->err->col);
	return 0;
}

/* Names the character at off for a message: "'x'", "newline", "end of input". */
static const char *
S_what(struct parser *p, size_t off, char *out, size_t outsz)
{
	unsigned char c;
	uint32_t cp;

	if (off >= p->len)
		return "end of input";
	c = (unsigned char)p->src[off];
	if (c == '\n' || c == '\r')
		return "newline";
	if (c == ' ')
		return "space";
	if (c == '\t')
		return "tab";
	if (c < 0x80) {
		snprintf(out, outsz, "'%c'", c);
		return out;
	}
	if (utf8_decode((const unsigned char *)p->src + off, p->len - off, &cp) == 0)
		cp = 0xFFFD;
	snprintf(out, outsz, "U+%04X", (unsigned)cp);
	return out;
}

static int
S_is_bare(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/*
 * Writes a key as it could be written in TOML (bare when it can be,
 * quoted otherwise), shortened to fit a message.
 */
static void
S_key_text(struct buf *b, const char *s, size_t n, int always_quote)
{
	size_t i;
	int bare = n > 0 && !always_quote;
	unsigned char c;

	for (i = 0; i < n && bare; i++)
		bare = S_is_bare((unsigned char)s[i]);
	if (bare && n <= 60) {
		buf_put(b, s, n);
		return;
	}
	buf_putc(b, '"');
	for (i = 0; i < n && i < 60; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\u%04X", c);
		else
			buf_putc(b, c);
	}
	if (i < n)
		buf_puts(b, "...");
	buf_putc(b, '"');
}

/* "\"name\"" for messages about one key; the result lives in p->text. */
static const char *
S_key_name(struct parser *p, const struct key_part *k)
{
	buf_reset(&p->text);
	S_key_text(&p->text, k->s, k->len, 1);
	return buf_str(&p->text);
}

/* "a.b.c" for the first n parts of a header path; lives in p->text. */
static const char *
S_path_name(struct parser *p, const struct key_path *k, size_t n)
{
	size_t i;

	buf_reset(&p->text);
	for (i = 0; i < n; i++) {
		if (i)
			buf_putc(&p->text, '.');
		S_key_text(&p->text, k->v[i].s, k->v[i].len, 0);
	}
	return buf_str(&p->text);
}

static const char *
S_a_type(const struct toml_value *v)
{
	switch (v->type) {
	case TOML_STRING:
		return "a string";
	case TOML_INTEGER:
		return "an integer";
	case TOML_FLOAT:
		return "a float";
	case TOML_BOOL:
		return "a boolean";
	case TOML_DATETIME:
		return "an offset date-time";
	case TOML_DATETIME_LOCAL:
		return "a local date-time";
	case TOML_DATE_LOCAL:
		return "a local date";
	case TOML_TIME_LOCAL:
		return "a local time";
	case TOML_ARRAY:
		return (v->flags & F_AOT) ? "an array of tables" : "an array";
	case TOML_TABLE:
		return (v->flags & F_INLINE) ? "an inline table" : "a table";
	}
	return "a value";
}

/* ------------------------------------------------------------------ */
/* bytes                                                               */

/* Finds the first byte that may not appear anywhere in a document. */
static void
S_scan_bytes(struct parser *p)
{
	const unsigned char *s = (const unsigned char *)p->src;
	size_t i = 0, n = p->srclen, k;
	uint32_t cp;

	while (i < n) {
		if (s[i] >= 0x80) {
			if ((k = utf8_decode(s + i, n - i, &cp)) == 0) {
				snprintf(p->badmsg, sizeof(p->badmsg),
				    "invalid UTF-8: bad sequence starting with byte 0x%02X",
				    s[i]);
				break;
			}
			i += k;
			continue;
		}
		if (s[i] == '\r') {
			if (i + 1 < n && s[i + 1] == '\n') {
				i += 2;
				continue;
			}
			snprintf(p->badmsg, sizeof(p->badmsg),
			    "carriage return not followed by a line feed");
			break;
		}
		if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n') || s[i] == 0x7f) {
			snprintf(p->badmsg, sizeof(p->badmsg),
			    "control character U+%04X is not allowed (only tab and newlines are)",
			    s[i]);
			break;
		}
		i++;
	}
	p->bad = i < n ? i : SIZE_MAX;
	p->len = i;
}

static int
S_peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->src[p->pos] : -1;
}

static int
S_peek_at(const struct parser *p, size_t off)
{
	return off < p->len ? (unsigned char)p->src[off] : -1;
}

static void
S_skip_ws(struct parser *p)
{
	while (p->pos < p->len && (p->src[p->pos] == ' ' || p->src[p->pos] == '\t'))
		p->pos++;
}

/* True at LF or CRLF (S_scan_bytes has made sure every CR has its LF). */
static int
S_at_newline(const struct parser *p)
{
	int c = S_peek(p);

	return c == '\n' || (c == '\r' && S_peek_at(p, p->pos + 1) == '\n');
}

static void
S_skip_newline(struct parser *p)
{
	p->pos += p->src[p->pos] == '\r' ? 2 : 1;
}

/* Skips a comment up to (not over) its newline. */
static void
S_skip_comment(struct parser *p)
{
	const char *nl;

	if (S_peek(p) != '#')
		return;
	nl = memchr(p->src + p->pos, '\n', p->len - p->pos);
	p->pos = nl ? (size_t)(nl - p->src) : p->len;
	if (p->pos > 0 && p->pos < p->len && p->src[p->pos - 1] == '\r')
		p->pos--;
}

/* Skips what may stand between array elements: blanks, comments, newlines. */
static void
S_skip_ws_nl(struct parser *p)
{
	for (;;) {
		S_skip_ws(p);
		S_skip_comment(p);
		if (!S_at_newline(p))
			return;
		S_skip_newline(p);
	}
}

/* After a key/value or a header: blanks, maybe a comment, then newline or end. */
static int
S_end_of_line(struct parser *p, const char *after)
{
	char w[16];

	S_skip_ws(p);
	S_skip_comment(p);
	if (p->pos >= p->len)
		return 1;
	if (S_at_newline(p)) {
		S_skip_newline(p);
		return 1;
	}
	return S_error(p, p->pos, "expected a newline after %s, found %s",
	    after, S_what(p, p->pos, w, sizeof(w)));
}

/* ------------------------------------------------------------------ */
/* the tree                                                            */

static struct toml_value *
S_value_at(enum toml_type type, int line, int col)
{
	struct toml_value *v = xcalloc(1, sizeof(*v));

	v->type = type;
	v->line = line;
	v->col = col;
	return v;
}

/*
 * A new value written at off. Values are made in document order (a
 * string once its closing quote is read, but nothing is located while
 * it is read), so S_locate only ever walks forward here.
 */
static struct toml_value *
S_value_new(struct parser *p, enum toml_type type, size_t off)
{
	int line, col;

	S_locate(p, off, &line, &col);
	return S_value_at(type, line, col);
}

static uint64_t
S_key_hash(const struct toml_value *t, const char *s, size_t n)
{
	uint64_t seed = HASH_FNV_SEED ^ ((uint64_t)(uintptr_t)t * 0x9E3779B97F4A7C15ULL);

	return hash_fnv1a(s, n, seed);
}

static struct toml_keyval *
S_lookup(struct parser *p, const struct toml_value *t, const char *s, size_t n)
{
	uint64_t h;
	size_t i, mask;
	struct toml_keyval *kv;

	if (p->nslots == 0)
		return NULL;
	h = S_key_hash(t, s, n);
	mask = p->nslots - 1;
	for (i = (size_t)h & mask; p->slots[i].table != NULL; i = (i + 1) & mask) {
		if (p->slots[i].hash != h || p->slots[i].table != t)
			continue;
		kv = &t->u.t.items[p->slots[i].idx];
		if (kv->keylen == n && (n == 0 || memcmp(kv->key, s, n) == 0))
			return kv;
	}
	return NULL;
}

static void
S_index_put(struct key_slot *slots, size_t nslots, const struct key_slot *e)
{
	size_t i, mask = nslots - 1;

	for (i = (size_t)e->hash & mask; slots[i].table != NULL; i = (i + 1) & mask)
		continue;
	slots[i] = *e;
}

static void
S_index_add(struct parser *p, const struct toml_value *t, size_t idx)
{
	struct key_slot e, *old;
	size_t i, oldn;
	const struct toml_keyval *kv = &t->u.t.items[idx];

	/* Keep the load under a half so probes stay short. */
	if ((p->used + 1) * 2 > p->nslots) {
		old = p->slots;
		oldn = p->nslots;
		p->nslots = oldn ? oldn * 2 : 64;
		p->slots = xcalloc(p->nslots, sizeof(*p->slots));
		for (i = 0; i < oldn; i++)
			if (old[i].table != NULL)
				S_index_put(p->slots, p->nslots, &old[i]);
		free(old);
	}
	e.table = t;
	e.idx = idx;
	e.hash = S_key_hash(t, kv->key, kv->keylen);
	S_index_put(p->slots, p->nslots, &e);
	p->used++;
}

/* Adds key k (taken over) with value v to table t; the caller checked k is new. */
static void
S_table_add(struct parser *p, struct toml_value *t, struct key_part *k, struct toml_value *v)
{
	struct toml_keyval *kv;

	t->u.t.items = xgrow(t->u.t.items, &t->u.t.cap, t->u.t.len + 1, sizeof(*t->u.t.items));
	kv = &t->u.t.items[t->u.t.len];
	kv->key = k->s;
	kv->keylen = k->len;
	kv->value = v;
	kv->line = k->line;
	kv->col = k->col;
	k->s = NULL;
	S_index_add(p, t, t->u.t.len);
	t->u.t.len++;
}

static void
S_array_add(struct toml_value *a, struct toml_value *v)
{
	a->u.a.items = xgrow(a->u.a.items, &a->u.a.cap, a->u.a.len + 1, sizeof(*a->u.a.items));
	a->u.a.items[a->u.a.len++] = v;
}

static int
S_depth_ok(struct parser *p, int depth, size_t off)
{
	if (depth <= TOML_MAX_DEPTH)
		return 1;
	return S_error(p, off, "nesting too deep: more than %d levels of tables and arrays",
	    TOML_MAX_DEPTH);
}

/* ------------------------------------------------------------------ */
/* strings                                                             */

static int
S_hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* \uXXXX or \UXXXXXXXX; p->pos is just past the 'u' or 'U'. */
static int
S_unicode_escape(struct parser *p, struct buf *out, size_t at, int ndigits)
{
	uint32_t cp = 0;
	int i, d;
	char esc = ndigits == 4 ? 'u' : 'U';

	for (i = 0; i < ndigits; i++) {
		if ((d = S_hex_value(S_peek_at(p, p->pos + (size_t)i))) < 0)
			return S_error(p, at, "invalid escape \\%c in string: it needs %d hexadecimal digits",
			    esc, ndigits);
		cp = cp << 4 | (uint32_t)d;
	}
	if (cp >= 0xD800 && cp <= 0xDFFF)
		return S_error(p, at, "invalid escape \\%c%.*s in string: U+%04X is a surrogate, not a character",
		    esc, ndigits, p->src + p->pos, (unsigned)cp);
	if (cp > 0x10FFFF)
		return S_error(p, at, "invalid escape \\%c%.*s in string: beyond U+10FFFF, the last code point",
		    esc, ndigits, p->src + p->pos);
	p->pos += (size_t)ndigits;
	buf_put_utf8(out, cp);
	return 1;
}

/* An escape in a basic string; p->pos is at the backslash. */
static int
S_escape(struct parser *p, struct buf *out)
{
	size_t at = p->pos;
	int c;
	char w[16];

	p->pos++;
	c = S_peek(p);
	switch (c) {
	case 'b': buf_putc(out, '\b'); break;
	case 't': buf_putc(out, '\t'); break;
	case 'n': buf_putc(out, '\n'); break;
	case 'f': buf_putc(out, '\f'); break;
	case 'r': buf_putc(out, '\r'); break;
	case '"': buf_putc(out, '"'); break;
	case '\\': buf_putc(out, '\\'); break;
	case 'u':
		p->pos++;
		return S_unicode_escape(p, out, at, 4);
	case 'U':
		p->pos++;
		return S_unicode_escape(p, out, at, 8);
	case -1:
		return S_error(p, p->pos, "unterminated string: end of input after '\\'");
	default:
		if (c > ' ' && c < 0x7f)
			return S_error(p, at, "invalid escape \\%c in string", c);
		return S_error(p, at, "invalid escape in string: '\\' followed by %s",
		    S_what(p, p->pos, w, sizeof(w)));
	}
	p->pos++;
	return 1;
}

/* Appends the run of ordinary bytes at p->pos that stops at any of `stops`. */
static void
S_plain_run(struct parser *p, struct buf *out, const char *stops)
{
	unsigned char stop[256] = { 0 };
	size_t start = p->pos;

	/* A table of the stops, not a search of them for every byte of the string. */
	for (; *stops; stops++)
		stop[(unsigned char)*stops] = 1;
	while (p->pos < p->len && !stop[(unsigned char)p->src[p->pos]])
		p->pos++;
	buf_put(out, p->src + start, p->pos - start);
}

/* "..." with p->pos at the opening quote. */
static int
S_parse_basic(struct parser *p, struct buf *out)
{
	p->pos++;
	for (;;) {
		S_plain_run(p, out, "\"\\\r\n");
		switch (S_peek(p)) {
		case '"':
			p->pos++;
			return 1;
		case '\\':
			if (!S_escape(p, out))
				return 0;
			break;
		case -1:
			return S_error(p, p->pos, "unterminated string: missing closing '\"'");
		default:
			return S_error(p, p->pos,
			    "unterminated string: newline before the closing '\"' (use \"\"\" for multi-line strings)");
		}
	}
}

/* '...' with p->pos at the opening quote. */
static int
S_parse_literal(struct parser *p, struct buf *out)
{
	p->pos++;
	S_plain_run(p, out, "'\r\n");
	switch (S_peek(p)) {
	case '\'':
		p->pos++;
		return 1;
	case -1:
		return S_error(p, p->pos, "unterminated string: missing closing \"'\"");
	default:
		return S_error(p, p->pos,
		    "unterminated string: newline before the closing \"'\" (use ''' for multi-line strings)");
	}
}

/*
 * At a run of quotes inside a multi-line string. Up to two quotes may
 * stand right before the closing three, so a run of 3 to 5 closes the
 * string; a longer one cannot be read.
 */
static int
S_ml_quotes(struct parser *p, struct buf *out, char q, int *closed)
{
	size_t n = 0;

	while (p->pos + n < p->len && p->src[p->pos + n] == q)
		n++;
	*closed = n >= 3;
	if (n > 5)
		return S_error(p, p->pos + 5,
		    "too many quotes: a multi-line string ends with at most two before its closing %c%c%c",
		    q, q, q);
	if (n >= 3)
		n -= 3;
	buf_put(out, p->src + p->pos, n);
	p->pos += n + (*closed ? 3 : 0);
	return 1;
}

/* """...""" with p->pos at the opening quotes. */
static int
S_parse_ml_basic(struct parser *p, struct buf *out)
{
	size_t q;
	int closed;

	p->pos += 3;
	/* A newline right after the opening quotes is not part of the string. */
	if (S_at_newline(p))
		S_skip_newline(p);
	for (;;) {
		S_plain_run(p, out, "\"\\\r\n");
		if (p->pos >= p->len)
			return S_error(p, p->pos, "unterminated multi-line string: missing closing '\"\"\"'");
		switch (p->src[p->pos]) {
		case '"':
			if (!S_ml_quotes(p, out, '"', &closed))
				return 0;
			if (closed)
				return 1;
			break;
		case '\\':
			/* A backslash that ends its line (blanks may follow it)
			 * swallows all blanks and newlines after it. */
			for (q = p->pos + 1; q < p->len &&
			    (p->src[q] == ' ' || p->src[q] == '\t'); q++)
				continue;
			if (q < p->len && (p->src[q] == '\n' || p->src[q] == '\r')) {
				p->pos = q;
				while (S_at_newline(p) || S_peek(p) == ' ' || S_peek(p) == '\t') {
					if (S_at_newline(p))
						S_skip_newline(p);
					else
						p->pos++;
				}
			} else if (q > p->pos + 1) {
				if (q >= p->len)
					return S_error(p, q, "unterminated multi-line string: missing closing '\"\"\"'");
				return S_error(p, p->pos,
				    "invalid escape in string: '\\' followed by blanks must end the line");
			} else if (!S_escape(p, out))
				return 0;
			break;
		default:
			/* Newlines are kept as written, CRLF included. */
			if (p->src[p->pos] == '\r')
				buf_putc(out, '\r');
			buf_putc(out, '\n');
			S_skip_newline(p);
			break;
		}
	}
}

/* '''...''' with p->pos at the opening quotes. */
static int
S_parse_ml_literal(struct parser *p, struct buf *out)
{
	int closed;

	p->pos += 3;
	if (S_at_newline(p))
		S_skip_newline(p);
	for (;;) {
		S_plain_run(p, out, "'");
		if (p->pos >= p->len)
			return S_error(p, p->pos, "unterminated multi-line string: missing closing \"'''\"");
		if (!S_ml_quotes(p, out, '\'', &closed))
			return 0;
		if (closed)
			return 1;
	}
}

static int
S_at_triple(const struct parser *p, char q)
{
	return S_peek(p) == q && S_peek_at(p, p->pos + 1) == q && S_peek_at(p, p->pos + 2) == q;
}

/* A copy of the scratch text, NUL-terminated (it may hold NULs of its own). */
static char *
S_text_copy(const struct buf *b, size_t *len)
{
	char *s = xmalloc(b->len + 1);

	if (b->len)
		memcpy(s, b->data, b->len);
	s[b->len] = '\0';
	*len = b->len;
	return s;
}

/* ------------------------------------------------------------------ */
/* keys                                                                */

static void
S_key_free(struct key_path *k)
{
	size_t i;

	for (i = 0; i < k->len; i++)
		free(k->v[i].s);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* key = simple-key *( ws "." ws simple-key ); leaves p->pos after trailing blanks. */
static int
S_parse_key(struct parser *p, struct key_path *k)
{
	struct key_part part;
	size_t start;
	int c, ok;
	char w[16];

	for (;;) {
		S_skip_ws(p);
		start = p->pos;
		c = S_peek(p);
		/* No key this long can fit under the depth limit; stop before
		 * a huge one costs memory. */
		if (k->len >= TOML_MAX_DEPTH)
			return S_depth_ok(p, TOML_MAX_DEPTH + 1, start);
		buf_reset(&p->text);
		if (S_is_bare(c)) {
			while (S_is_bare(S_peek(p)))
				p->pos++;
			buf_put(&p->text, p->src + start, p->pos - start);
		} else if (c == '"' || c == '\'') {
			if (S_at_triple(p, (char)c))
				return S_error(p, start, "a key cannot be a multi-line string");
			ok = c == '"' ? S_parse_basic(p, &p->text) : S_parse_literal(p, &p->text);
			if (!ok)
				return 0;
		} else if (k->len > 0)
			return S_error(p, start, "expected a key after '.', found %s",
			    S_what(p, start, w, sizeof(w)));
		else
			return S_error(p, start, "expected a key, found %s",
			    S_what(p, start, w, sizeof(w)));
		part.s = S_text_copy(&p->text, &part.len);
		part.off = start;
		S_locate(p, start, &part.line, &part.col);
		k->v = xgrow(k->v, &k->cap, k->len + 1, sizeof(*k->v));
		k->v[k->len++] = part;
		S_skip_ws(p);
		if (S_peek(p) != '.')
			return 1;
		p->pos++;
	}
}

/* ------------------------------------------------------------------ */
/* scalars                                                             */

static int
S_is_digit(int c, int base)
{
	switch (base) {
	case 2:
		return c == '0' || c == '1';
	case 8:
		return c >= '0' && c <= '7';
	case 16:
		return S_hex_value(c) >= 0;
	default:
		return c >= '0' && c <= '9';
	}
}

/*
 * Scans DIGIT *( ["_"] DIGIT ) at w[*i]. Returns 1 with *i past it, 0
 * if no digit is there, -1 with *i at an underscore that is not between
 * two digits.
 */
static int
S_digit_run(const char *w, size_t n, size_t *i, int base)
{
	size_t j = *i;

	if (j >= n || !S_is_digit((unsigned char)w[j], base))
		return j < n && w[j] == '_' ? -1 : 0;
	for (j++; j < n; ) {
		if (S_is_digit((unsigned char)w[j], base))
			j++;
		else if (w[j] == '_' && j + 1 < n && S_is_digit((unsigned char)w[j + 1], base))
			j += 2;
		else if (w[j] == '_') {
			*i = j;
			return -1;
		} else
			break;
	}
	*i = j;
	return 1;
}

static int
S_is_word(int c)
{
	return S_is_bare(c) || c == '.' || c == '+';
}

/* Shows a bad word in a message, shortened. */
static int
S_bad_word(struct parser *p, size_t start, size_t n, const char *why)
{
	return S_error(p, start, "invalid value '%.*s%s'%s%s", n > 40 ? 40 : (int)n,
	    p->src + start, n > 40 ? "..." : "", *why ? ": " : "", why);
}

/* A float from the digits of w (underscores dropped), whatever the locale. */
static double
S_to_double(struct parser *p, const char *w, size_t n)
{
	const char *point = localeconv()->decimal_point;
	size_t i;
	double d;

	buf_reset(&p->text);
	for (i = 0; i < n; i++) {
		if (w[i] == '_')
			continue;
		if (w[i] == '.')
			buf_puts(&p->text, point && *point ? point : ".");
		else
			buf_putc(&p->text, w[i]);
	}
	d = strtod(buf_str(&p->text), NULL);
	return d;
}

static struct toml_value *
S_parse_number(struct parser *p)
{
	size_t start = p->pos, n, i = 0, j, int_start;
	const char *w = p->src + start;
	const char *bases = "hexadecimal";
	int neg = 0, has_sign = 0, base = 10, r, is_float = 0, d;
	uint64_t mag = 0, limit;
	struct toml_value *v;
	double f;

	while (S_is_word(S_peek(p)))
		p->pos++;
	n = p->pos - start;
	if (n > 0 && (w[0] == '+' || w[0] == '-')) {
		has_sign = 1;
		neg = w[0] == '-';
		i = 1;
	}
	if (n - i == 3 && (memcmp(w + i, "inf", 3) == 0 || memcmp(w + i, "nan", 3) == 0)) {
		v = S_value_new(p, TOML_FLOAT, start);
		if (w[i] == 'i')
			v->u.f = neg ? -HUGE_VAL : HUGE_VAL;
		else
			v->u.f = neg ? -NAN : NAN;
		return v;
	}
	if (n - i >= 2 && w[i] == '0' && (w[i + 1] == 'x' || w[i + 1] == 'o' || w[i + 1] == 'b')) {
		base = w[i + 1] == 'x' ? 16 : w[i + 1] == 'o' ? 8 : 2;
		bases = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
		if (has_sign) {
			S_error(p, start, "a %s integer cannot have a sign", bases);
			return NULL;
		}
		i += 2;
	}
	int_start = i;
	r = S_digit_run(w, n, &i, base);
	if (r < 0)
		goto underscore;
	if (r == 0) {
		if (base != 10)
			S_error(p, start + i, "expected %s digits after 0%c", bases, w[int_start - 1]);
		else if (i < n && w[i] == '.')
			S_error(p, start + i, "a float needs a digit before its '.'");
		else
			S_bad_word(p, start, n, i < n && ((w[i] | 0x20) >= 'a' && (w[i] | 0x20) <= 'z') ?
			    "strings must be quoted" : "");
		return NULL;
	}
	if (base == 10 && w[int_start] == '0' && i - int_start > 1) {
		S_error(p, start + int_start, "leading zeros are not allowed in numbers");
		return NULL;
	}
	if (base == 10 && i < n && w[i] == '.') {
		i++;
		if ((r = S_digit_run(w, n, &i, 10)) < 0)
			goto underscore;
		if (r == 0) {
			S_error(p, start + i - 1, "a float needs a digit after its '.'");
			return NULL;
		}
		is_float = 1;
	}
	if (base == 10 && i < n && (w[i] == 'e' || w[i] == 'E')) {
		i++;
		if (i < n && (w[i] == '+' || w[i] == '-'))
			i++;
		if ((r = S_digit_run(w, n, &i, 10)) < 0)
			goto underscore;
		if (r == 0) {
			S_error(p, start + i, "a float needs digits in its exponent");
			return NULL;
		}
		is_float = 1;
	}
	if (i < n) {
		if (base != 10 && S_is_bare((unsigned char)w[i]))
			S_error(p, start + i, "invalid %s digit '%c'", bases, w[i]);
		else
			S_error(p, start + i, "invalid character '%c' in number", w[i]);
		return NULL;
	}
	if (is_float) {
		f = S_to_double(p, w, n);
		if (isinf(f)) {
			S_bad_word(p, start, n, "out of the range of a 64-bit float");
			return NULL;
		}
		v = S_value_new(p, TOML_FLOAT, start);
		v->u.f = f;
		return v;
	}
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (j = int_start; j < n; j++) {
		if (w[j] == '_')
			continue;
		d = S_hex_value((unsigned char)w[j]);
		if (mag > (limit - (uint64_t)d) / (uint64_t)base) {
			S_bad_word(p, start, n, "out of the range of a 64-bit integer");
			return NULL;
		}
		mag = mag * (uint64_t)base + (uint64_t)d;
	}
	v = S_value_new(p, TOML_INTEGER, start);
	if (neg)
		v->u.i = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	else
		v->u.i = (int64_t)mag;
	return v;
underscore:
	S_error(p, start + i, "an underscore in a number must stand between two digits");
	return NULL;
}

/* Reads exactly n digits at p->pos into *out. */
static int
S_fixed_digits(struct parser *p, int n, int *out)
{
	int i, c;

	*out = 0;
	for (i = 0; i < n; i++) {
		c = S_peek_at(p, p->pos + (size_t)i);
		if (c < '0' || c > '9')
			return 0;
		*out = *out * 10 + (c - '0');
	}
	p->pos += (size_t)n;
	return 1;
}

static int
S_expect_char(struct parser *p, int c)
{
	if (S_peek(p) != c)
		return 0;
	p->pos++;
	return 1;
}

static int
S_days_in_month(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
		return 29;
	return days[month - 1];
}

/* HH:MM:SS[.fraction] */
static int
S_parse_time(struct parser *p, struct toml_datetime *dt)
{
	size_t start = p->pos;
	int digits = 0, c;

	if (!S_fixed_digits(p, 2, &dt->hour) || !S_expect_char(p, ':') ||
	    !S_fixed_digits(p, 2, &dt->minute))
		return S_error(p, start, "invalid time: expected HH:MM:SS");
	if (!S_expect_char(p, ':'))
		return S_error(p, start, "invalid time: seconds are required (HH:MM:SS)");
	if (!S_fixed_digits(p, 2, &dt->second))
		return S_error(p, start, "invalid time: expected HH:MM:SS");
	if (dt->hour > 23)
		return S_error(p, start, "invalid time: hour %02d is past 23", dt->hour);
	if (dt->minute > 59)
		return S_error(p, start, "invalid time: minute %02d is past 59", dt->minute);
	/* 60 is a leap second, as RFC 3339 allows. */
	if (dt->second > 60)
		return S_error(p, start, "invalid time: second %02d is past 60", dt->second);
	if (S_peek(p) != '.')
		return 1;
	p->pos++;
	while ((c = S_peek(p)) >= '0' && c <= '9') {
		/* Past nanoseconds the digits are read but dropped. */
		if (digits < 9) {
			dt->nanosecond = dt->nanosecond * 10 + (c - '0');
			digits++;
		}
		p->pos++;
	}
	if (digits == 0)
		return S_error(p, p->pos - 1, "invalid time: expected digits after '.'");
	dt->frac_digits = digits;
	while (digits++ < 9)
		dt->nanosecond *= 10;
	return 1;
}

/* A date-time, date or time starting at p->pos (which holds a digit). */
static struct toml_value *
S_parse_datetime(struct parser *p)
{
	struct toml_datetime dt;
	size_t start = p->pos, at;
	int has_date = 0, has_time = 0, sign, c;
	int oh, om;
	enum toml_type type;
	struct toml_value *v;

	memset(&dt, 0, sizeof(dt));
	if (S_peek_at(p, start + 4) == '-') {
		if (!S_fixed_digits(p, 4, &dt.year) || !S_expect_char(p, '-') ||
		    !S_fixed_digits(p, 2, &dt.month) || !S_expect_char(p, '-') ||
		    !S_fixed_digits(p, 2, &dt.day)) {
			S_error(p, start, "invalid date: expected YYYY-MM-DD");
			return NULL;
		}
		if (dt.month < 1 || dt.month > 12) {
			S_error(p, start, "invalid date: month %02d is not 01 to 12", dt.month);
			return NULL;
		}
		if (dt.day < 1 || dt.day > S_days_in_month(dt.year, dt.month)) {
			S_error(p, start, "invalid date: %04d-%02d has no day %02d",
			    dt.year, dt.month, dt.day);
			return NULL;
		}
		has_date = 1;
		c = S_peek(p);
		if (c == 'T' || c == 't') {
			p->pos++;
			c = S_peek(p);
			if (c < '0' || c > '9') {
				S_error(p, p->pos, "invalid date-time: expected a time after '%c'",
				    p->src[p->pos - 1]);
				return NULL;
			}
			has_time = 1;
		} else if (c == ' ' && (c = S_peek_at(p, p->pos + 1)) >= '0' && c <= '9') {
			/* A date, a space and a time make a date-time. */
			p->pos++;
			has_time = 1;
		}
	} else
		has_time = 1;
	if (has_time && !S_parse_time(p, &dt))
		return NULL;
	if (has_date && has_time) {
		at = p->pos;
		c = S_peek(p);
		if (c == 'Z' || c == 'z') {
			p->pos++;
			dt.has_offset = dt.offset_z = 1;
		} else if (c == '+' || c == '-') {
			sign = c == '-' ? -1 : 1;
			p->pos++;
			if (!S_fixed_digits(p, 2, &oh) || !S_expect_char(p, ':') ||
			    !S_fixed_digits(p, 2, &om)) {
				S_error(p, at, "invalid time offset: expected %cHH:MM", c);
				return NULL;
			}
			if (oh > 23 || om > 59) {
				S_error(p, at, "invalid time offset %c%02d:%02d: hours go to 23, minutes to 59",
				    c, oh, om);
				return NULL;
			}
			dt.has_offset = 1;
			dt.offset_minutes = sign * (oh * 60 + om);
		}
	}
	if (has_date && has_time)
		type = dt.has_offset ? TOML_DATETIME : TOML_DATETIME_LOCAL;
	else
		type = has_date ? TOML_DATE_LOCAL : TOML_TIME_LOCAL;
	v = S_value_new(p, type, start);
	v->u.dt = dt;
	return v;
}

static int
S_looks_like_datetime(const struct parser *p)
{
	size_t i;

	for (i = 0; i < 2; i++)
		if (S_peek_at(p, p->pos + i) < '0' || S_peek_at(p, p->pos + i) > '9')
			return 0;
	if (S_peek_at(p, p->pos + 2) == ':')
		return 1;
	for (; i < 4; i++)
		if (S_peek_at(p, p->pos + i) < '0' || S_peek_at(p, p->pos + i) > '9')
			return 0;
	return S_peek_at(p, p->pos + 4) == '-';
}

static struct toml_value *
S_parse_string_value(struct parser *p)
{
	size_t start = p->pos;
	int ok, q = S_peek(p);
	struct toml_value *v;

	buf_reset(&p->text);
	if (S_at_triple(p, (char)q))
		ok = q == '"' ? S_parse_ml_basic(p, &p->text) : S_parse_ml_literal(p, &p->text);
	else
		ok = q == '"' ? S_parse_basic(p, &p->text) : S_parse_literal(p, &p->text);
	if (!ok)
		return NULL;
	v = S_value_new(p, TOML_STRING, start);
	v->u.s.ptr = S_text_copy(&p->text, &v->u.s.len);
	return v;
}

/* ------------------------------------------------------------------ */
/* key/values, arrays, inline tables                                   */

/*
 * Parses `key = value` at p->pos into table t, which sits at `depth`.
 * Dotted keys make (or go through) tables made by dotted keys; they
 * may not enter a table with its own header, an inline table, or
 * anything that is not a table.
 */
static int
S_parse_keyval(struct parser *p, struct toml_value *t, int depth)
{
	struct key_path k;
	struct key_part *part;
	struct toml_keyval *kv;
	struct toml_value *v;
	size_t i;
	int ok = 0;

	memset(&k, 0, sizeof(k));
	if (!S_parse_key(p, &k))
		goto out;
	if (S_peek(p) != '=') {
		S_error(p, p->pos, "expected '=' after key %s", S_key_name(p, &k.v[k.len - 1]));
		goto out;
	}
	p->pos++;
	S_skip_ws(p);
	for (i = 0; i < k.len; i++) {
		part = &k.v[i];
		if (!S_depth_ok(p, ++depth, part->off))
			goto out;
		kv = S_lookup(p, t, part->s, part->len);
		if (i + 1 == k.len) {
			if (kv != NULL) {
				S_error(p, part->off, "duplicate key %s", S_key_name(p, part));
				goto out;
			}
			break;
		}
		if (kv == NULL) {
			v = S_value_at(TOML_TABLE, part->line, part->col);
			v->flags = F_DOTTED;
			S_table_add(p, t, part, v);
			t = v;
			continue;
		}
		v = kv->value;
		if (v->type != TOML_TABLE) {
			S_error(p, part->off, "key %s is already %s, not a table",
			    S_key_name(p, part), S_a_type(v));
			goto out;
		}
		if (v->flags & F_INLINE) {
			S_error(p, part->off, "cannot add keys to inline table %s: inline tables are closed at their '}'",
			    S_key_name(p, part));
			goto out;
		}
		if (v->flags & F_HEADER) {
			S_error(p, part->off, "cannot add keys to table %s with a dotted key: it has its own [header]",
			    S_key_name(p, part));
			goto out;
		}
		/* A step of a header path becomes a dotted table: it may
		 * no longer get a header of its own. */
		v->flags = (v->flags & ~(unsigned)F_IMPLICIT) | F_DOTTED;
		t = v;
	}
	if ((v = S_parse_value(p, depth)) == NULL)
		goto out;
	S_table_add(p, t, &k.v[k.len - 1], v);
	ok = 1;
out:
	S_key_free(&k);
	return ok;
}

static struct toml_value *
S_parse_array(struct parser *p, int depth)
{
	struct toml_value *a = S_value_new(p, TOML_ARRAY, p->pos), *v;
	char w[16];

	p->pos++;
	for (;;) {
		S_skip_ws_nl(p);
		if (S_peek(p) == ']')
			break;
		if (p->pos >= p->len) {
			S_error(p, p->pos, "unterminated array: missing ']'");
			goto fail;
		}
		if ((v = S_parse_value(p, depth + 1)) == NULL)
			goto fail;
		S_array_add(a, v);
		S_skip_ws_nl(p);
		if (S_peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (S_peek(p) == ']')
			break;
		if (p->pos >= p->len)
			S_error(p, p->pos, "unterminated array: missing ']'");
		else
			S_error(p, p->pos, "expected ',' or ']' after an array element, found %s",
			    S_what(p, p->pos, w, sizeof(w)));
		goto fail;
	}
	p->pos++;
	return a;
fail:
	toml_free(a);
	return NULL;
}

static struct toml_value *
S_parse_inline_table(struct parser *p, int depth)
{
	struct toml_value *t = S_value_new(p, TOML_TABLE, p->pos);
	char w[16];
	int c;

	p->pos++;
	S_skip_ws(p);
	if (S_peek(p) == '}')
		goto done;
	for (;;) {
		S_skip_ws(p);
		if (S_at_newline(p) || S_peek(p) == '#') {
			S_error(p, p->pos, "an inline table must be on one line: found %s before '}'",
			    S_peek(p) == '#' ? "a comment" : "a newline");
			goto fail;
		}
		if (S_peek(p) == '}') {
			S_error(p, p->pos, "trailing comma not allowed in an inline table");
			goto fail;
		}
		if (S_peek(p) == -1) {
			S_error(p, p->pos, "unterminated inline table: missing '}'");
			goto fail;
		}
		if (!S_parse_keyval(p, t, depth))
			goto fail;
		S_skip_ws(p);
		c = S_peek(p);
		if (c == ',') {
			p->pos++;
			continue;
		}
		if (c == '}')
			break;
		if (c == -1)
			S_error(p, p->pos, "unterminated inline table: missing '}'");
		else if (S_at_newline(p) || c == '#')
			S_error(p, p->pos, "an inline table must be on one line: found %s before '}'",
			    c == '#' ? "a comment" : "a newline");
		else
			S_error(p, p->pos, "expected ',' or '}' after an inline-table value, found %s",
			    S_what(p, p->pos, w, sizeof(w)));
		goto fail;
	}
done:
	p->pos++;
	t->flags |= F_INLINE;
	return t;
fail:
	toml_free(t);
	return NULL;
}

static struct toml_value *
S_parse_value(struct parser *p, int depth)
{
	size_t start = p->pos, n;
	int c = S_peek(p);
	char w[16];

	if (!S_depth_ok(p, depth, start))
		return NULL;
	switch (c) {
	case '"':
	case '\'':
		return S_parse_string_value(p);
	case '[':
		return S_parse_array(p, depth);
	case '{':
		return S_parse_inline_table(p, depth);
	case '+':
	case '-':
	case '.':
	case 'i':
	case 'n':
		return S_parse_number(p);
	default:
		break;
	}
	if (c >= '0' && c <= '9')
		return S_looks_like_datetime(p) ? S_parse_datetime(p) : S_parse_number(p);
	if (c == -1 || !S_is_bare(c)) {
		S_error(p, start, "expected a value, found %s", S_what(p, start, w, sizeof(w)));
		return NULL;
	}
	while (S_is_word(S_peek(p)))
		p->pos++;
	n = p->pos - start;
	if (n == 4 && memcmp(p->src + start, "true", 4) == 0) {
		struct toml_value *v = S_value_new(p, TOML_BOOL, start);
		v->u.b = 1;
		return v;
	}
	if (n == 5 && memcmp(p->src + start, "false", 5) == 0)
		return S_value_new(p, TOML_BOOL, start);
	S_bad_word(p, start, n, "strings must be quoted; booleans are true and false");
	return NULL;
}

/* ------------------------------------------------------------------ */
/* headers and the document                                            */

/* [a.b.c] or [[a.b.c]], with p->pos at the first '['. */
static int
S_parse_header(struct parser *p, struct toml_value *root)
{
	struct key_path k;
	struct key_part *part;
	struct toml_keyval *kv;
	struct toml_value *t = root, *v;
	size_t at = p->pos, i;
	int aot = 0, depth = 0, ok = 0, line, col;
	char w[16];

	memset(&k, 0, sizeof(k));
	S_locate(p, at, &line, &col);
	p->pos++;
	if (S_peek(p) == '[') {
		aot = 1;
		p->pos++;
	}
	if (!S_parse_key(p, &k))
		goto out;
	if (S_peek(p) != ']' || (aot && S_peek_at(p, p->pos + 1) != ']')) {
		if (S_peek(p) == ']')
			p->pos++;
		S_error(p, p->pos, "expected '%s' to close the header [%s%s, found %s",
		    aot ? "]]" : "]", aot ? "[" : "", S_path_name(p, &k, k.len),
		    S_what(p, p->pos, w, sizeof(w)));
		goto out;
	}
	p->pos += aot ? 2 : 1;

	for (i = 0; i + 1 < k.len; i++) {
		part = &k.v[i];
		if (!S_depth_ok(p, ++depth, part->off))
			goto out;
		if ((kv = S_lookup(p, t, part->s, part->len)) == NULL) {
			v = S_value_at(TOML_TABLE, line, col);
			v->flags = F_IMPLICIT;
			S_table_add(p, t, part, v);
			t = v;
			continue;
		}
		v = kv->value;
		if (v->type == TOML_ARRAY && (v->flags & F_AOT)) {
			/* A path through an array of tables goes into its last table. */
			v = v->u.a.items[v->u.a.len - 1];
			if (!S_depth_ok(p, ++depth, part->off))
				goto out;
		} else if (v->type == TOML_ARRAY) {
			S_error(p, part->off, "cannot extend array %s: only arrays of tables made with [[...]] can be",
			    S_path_name(p, &k, i + 1));
			goto out;
		} else if (v->type != TOML_TABLE) {
			S_error(p, part->off, "cannot use %s as a table: it is already %s",
			    S_path_name(p, &k, i + 1), S_a_type(v));
			goto out;
		}
		if (v->flags & F_INLINE) {
			S_error(p, part->off, "cannot extend inline table %s: inline tables are closed at their '}'",
			    S_path_name(p, &k, i + 1));
			goto out;
		}
		t = v;
	}

	part = &k.v[k.len - 1];
	if (!S_depth_ok(p, ++depth, part->off))
		goto out;
	kv = S_lookup(p, t, part->s, part->len);
	v = kv ? kv->value : NULL;
	if (aot) {
		if (v == NULL) {
			v = S_value_at(TOML_ARRAY, line, col);
			v->flags = F_AOT;
			S_table_add(p, t, part, v);
		} else if (v->type != TOML_ARRAY || !(v->flags & F_AOT)) {
			S_error(p, part->off, "cannot define [[%s]]: it is already %s",
			    S_path_name(p, &k, k.len), S_a_type(v));
			goto out;
		}
		if (!S_depth_ok(p, ++depth, part->off))
			goto out;
		t = S_value_at(TOML_TABLE, line, col);
		t->flags = F_HEADER;
		S_array_add(v, t);
	} else if (v == NULL) {
		v = S_value_at(TOML_TABLE, line, col);
		v->flags = F_HEADER;
		S_table_add(p, t, part, v);
		t = v;
	} else if (v->type == TOML_TABLE && (v->flags & F_IMPLICIT)) {
		/* Named at last after being a step of other headers. */
		v->flags = F_HEADER;
		v->line = line;
		v->col = col;
		t = v;
	} else {
		if (v->type == TOML_TABLE && (v->flags & F_HEADER))
			S_error(p, part->off, "table [%s] is defined twice",
			    S_path_name(p, &k, k.len));
		else if (v->type == TOML_TABLE && (v->flags & F_DOTTED))
			S_error(p, part->off, "cannot define table [%s]: dotted keys already defined it",
			    S_path_name(p, &k, k.len));
		else
			S_error(p, part->off, "cannot define table [%s]: it is already %s",
			    S_path_name(p, &k, k.len), S_a_type(v));
		goto out;
	}
	p->cur = t;
	p->cur_depth = depth;
	ok = S_end_of_line(p, aot ? "an [[array of tables]] header" : "a [table] header");
out:
	S_key_free(&k);
	return ok;
}

static int
S_parse_document(struct parser *p, struct toml_value *root)
{
	int c;

	/* A UTF-8 byte order mark may open the document. */
	if (p->len >= 3 && memcmp(p->src, "\xEF\xBB\xBF", 3) == 0)
		p->pos = 3;
	for (;;) {
		S_skip_ws(p);
		S_skip_comment(p);
		if (p->pos >= p->len)
			return 1;
		c = S_peek(p);
		if (S_at_newline(p))
			S_skip_newline(p);
		else if (c == '[') {
			if (!S_parse_header(p, root))
				return 0;
		} else if (!S_parse_keyval(p, p->cur, p->cur_depth) ||
		    !S_end_of_line(p, "a value"))
			return 0;
	}
}

struct toml_value *
toml_parse(const char *src, size_t len, struct toml_error *err)
{
	struct parser p;
	struct toml_error dummy;
	struct toml_value *root;
	int ok = 0;

	memset(&p, 0, sizeof(p));
	p.src = src ? src : "";
	p.srclen = src ? len : 0;
	p.err = err ? err : &dummy;
	p.loc_line = 1;
	memset(p.err, 0, sizeof(*p.err));
	buf_init(&p.text);
	S_scan_bytes(&p);
	root = S_value_new(&p, TOML_TABLE, 0);
	root->flags = F_HEADER;
	p.cur = root;
	if (!S_parse_document(&p, root))
		goto out;
	/* The grammar stopped short of a bad byte without tripping on it. */
	if (p.bad != SIZE_MAX) {
		S_error(&p, p.bad, "%s", p.badmsg);
		goto out;
	}
	ok = 1;
out:
	free(p.slots);
	buf_free(&p.text);
	if (!ok) {
		toml_free(root);
		root = NULL;
	}
	return root;
}

void
toml_free(struct toml_value *v)
{
	size_t i;

	if (v == NULL)
		return;
	switch (v->type) {
	case TOML_STRING:
		free(v->u.s.ptr);
		break;
	case TOML_ARRAY:
		for (i = 0; i < v->u.a.len; i++)
			toml_free(v->u.a.items[i]);
		free(v->u.a.items);
		break;
	case TOML_TABLE:
		for (i = 0; i < v->u.t.len; i++) {
			free(v->u.t.items[i].key);
			toml_free(v->u.t.items[i].value);
		}
		free(v->u.t.items);
		break;
	default:
		break;
	}
	free(v);
}

const struct toml_keyval *
toml_get_entry(const struct toml_value *t, const char *key)
{
	size_t i, n;

	if (t == NULL || t->type != TOML_TABLE)
		return NULL;
	n = strlen(key);
	for (i = 0; i < t->u.t.len; i++)
		if (t->u.t.items[i].keylen == n && memcmp(t->u.t.items[i].key, key, n) == 0)
			return &t->u.t.items[i];
	return NULL;
}

struct toml_value *
toml_get(const struct toml_value *t, const char *key)
{
	const struct toml_keyval *kv = toml_get_entry(t, key);

	return kv ? kv->value : NULL;
}

const char *
toml_type_name(enum toml_type t)
{
	switch (t) {
	case TOML_STRING:
		return "string";
	case TOML_INTEGER:
		return "integer";
	case TOML_FLOAT:
		return "float";
	case TOML_BOOL:
		return "boolean";
	case TOML_DATETIME:
		return "offset date-time";
	case TOML_DATETIME_LOCAL:
		return "local date-time";
	case TOML_DATE_LOCAL:
		return "local date";
	case TOML_TIME_LOCAL:
		return "local time";
	case TOML_ARRAY:
		return "array";
	case TOML_TABLE:
		return "table";
	}
	return "value";
}

/*
 * toml-decode: the toml-test decoder interface over gen/toml.c.
 *
 * Reads TOML on standard input and writes the suite's tagged JSON on
 * standard output: every scalar as {"type": T, "value": "..."}, tables
 * as objects (keys in document order), arrays as arrays. Invalid input
 * exits 1 with `<stdin>:line:col: error: message` on standard error.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toml.h"
#include "util.h"

static void
S_json_string(struct buf *out, const char *s, size_t n)
{
	size_t i;
	unsigned char c;

	buf_putc(out, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			buf_printf(out, "\\u%04x", c);
		else
			buf_putc(out, c);
	}
	buf_putc(out, '"');
}

/* The shortest %g spelling that reads back as the same double. */
static void
S_float_text(char *dst, size_t dstsz, double d)
{
	int prec;

	if (isnan(d)) {
		snprintf(dst, dstsz, "nan");
		return;
	}
	if (isinf(d)) {
		snprintf(dst, dstsz, "%sinf", d < 0 ? "-" : "");
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(dst, dstsz, "%.*g", prec, d);
		if (strtod(dst, NULL) == d)
			return;
	}
}

static void
S_datetime_text(struct buf *out, enum toml_type type, const struct toml_datetime *dt)
{
	int frac, i, off;

	if (type != TOML_TIME_LOCAL)
		buf_printf(out, "%04d-%02d-%02d", dt->year, dt->month, dt->day);
	if (type == TOML_DATE_LOCAL)
		return;
	if (type != TOML_TIME_LOCAL)
		buf_putc(out, 'T');
	buf_printf(out, "%02d:%02d:%02d", dt->hour, dt->minute, dt->second);
	if (dt->frac_digits > 0) {
		frac = dt->nanosecond;
		for (i = dt->frac_digits; i < 9; i++)
			frac /= 10;
		buf_printf(out, ".%0*d", dt->frac_digits, frac);
	}
	if (type != TOML_DATETIME)
		return;
	if (dt->offset_z) {
		buf_putc(out, 'Z');
		return;
	}
	off = dt->offset_minutes;
	buf_printf(out, "%c%02d:%02d", off < 0 ? '-' : '+', abs(off) / 60, abs(off) % 60);
}

static void
S_scalar(struct buf *out, const char *type, const char *value, size_t n)
{
	buf_printf(out, "{\"type\":\"%s\",\"value\":", type);
	S_json_string(out, value, n);
	buf_putc(out, '}');
}

/* Recursion is bounded: toml_parse rejects trees deeper than TOML_MAX_DEPTH. */
static void
S_json_value(struct buf *out, const struct toml_value *v)
{
	char text[64];
	struct buf dt;
	size_t i;

	switch (v->type) {
	case TOML_STRING:
		S_scalar(out, "string", v->u.s.ptr, v->u.s.len);
		break;
	case TOML_INTEGER:
		snprintf(text, sizeof(text), "%" PRId64, v->u.i);
		S_scalar(out, "integer", text, strlen(text));
		break;
	case TOML_FLOAT:
		S_float_text(text, sizeof(text), v->u.f);
		S_scalar(out, "float", text, strlen(text));
		break;
	case TOML_BOOL:
		S_scalar(out, "bool", v->u.b ? "true" : "false", v->u.b ? 4 : 5);
		break;
	case TOML_DATETIME:
	case TOML_DATETIME_LOCAL:
	case TOML_DATE_LOCAL:
	case TOML_TIME_LOCAL:
		buf_init(&dt);
		S_datetime_text(&dt, v->type, &v->u.dt);
		S_scalar(out, v->type == TOML_DATETIME ? "datetime" :
		    v->type == TOML_DATETIME_LOCAL ? "datetime-local" :
		    v->type == TOML_DATE_LOCAL ? "date-local" : "time-local",
		    buf_str(&dt), dt.len);
		buf_free(&dt);
		break;
	case TOML_ARRAY:
		buf_putc(out, '[');
		for (i = 0; i < v->u.a.len; i++) {
			if (i)
				buf_putc(out, ',');
			S_json_value(out, v->u.a.items[i]);
		}
		buf_putc(out, ']');
		break;
	case TOML_TABLE:
		buf_putc(out, '{');
		for (i = 0; i < v->u.t.len; i++) {
			if (i)
				buf_putc(out, ',');
			S_json_string(out, v->u.t.items[i].key, v->u.t.items[i].keylen);
			buf_putc(out, ':');
			S_json_value(out, v->u.t.items[i].value);
		}
		buf_putc(out, '}');
		break;
	}
}

int
main(void)
{
	struct buf in, out;
	struct toml_error err;
	struct toml_value *root = NULL;
	char chunk[65536];
	size_t n;
	int rc = 1;

	buf_init(&in);
	buf_init(&out);
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		buf_put(&in, chunk, n);
	if (ferror(stdin)) {
		fprintf(stderr, "<stdin>: error: cannot read standard input\n");
		goto out;
	}
	if ((root = toml_parse(in.data, in.len, &err)) == NULL) {
		fprintf(stderr, "<stdin>:%d:%d: error: %s\n", err.line, err.col, err.message);
		goto out;
	}
	S_json_value(&out, root);
	buf_putc(&out, '\n');
	if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		fprintf(stderr, "<stdout>: error: cannot write\n");
		goto out;
	}
	rc = 0;
out:
	toml_free(root);
	buf_free(&in);
	buf_free(&out);
	return rc;
}

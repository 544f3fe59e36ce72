/*
 * diag: collecting, sorting and printing diagnostics.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void
diag_init(struct diag_list *dl)
{
	memset(dl, 0, sizeof(*dl));
}

void
diag_free(struct diag_list *dl)
{
	size_t i;

	for (i = 0; i < dl->len; i++) {
		free(dl->v[i].file);
		free(dl->v[i].message);
	}
	free(dl->v);
	diag_init(dl);
}

void
diag_add(struct diag_list *dl, enum diag_level level, const char *file,
    int line, int col, const char *fmt, ...)
{
	struct diag *d;
	struct buf b;
	va_list ap;

	dl->v = xgrow(dl->v, &dl->cap, dl->len + 1, sizeof(*dl->v));
	d = &dl->v[dl->len];
	d->level = level;
	d->file = file ? xstrdup(file) : NULL;
	d->line = line;
	d->col = col;
	d->seq = dl->len;
	buf_init(&b);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	d->message = buf_detach(&b);
	dl->len++;
	if (level == DIAG_ERROR)
		dl->errors++;
	else
		dl->warnings++;
}

void
diag_move(struct diag_list *dl, struct diag_list *from)
{
	size_t i;

	dl->v = xgrow(dl->v, &dl->cap, dl->len + from->len, sizeof(*dl->v));
	for (i = 0; i < from->len; i++) {
		dl->v[dl->len] = from->v[i];
		dl->v[dl->len].seq = dl->len;
		dl->len++;
	}
	dl->errors += from->errors;
	dl->warnings += from->warnings;
	free(from->v);
	from->v = NULL;
	from->len = from->cap = from->errors = from->warnings = 0;
}

void
diag_copy(struct diag_list *dl, const struct diag_list *from)
{
	size_t i;

	for (i = 0; i < from->len; i++)
		diag_add(dl, from->v[i].level, from->v[i].file, from->v[i].line, from->v[i].col,
		    "%s", from->v[i].message);
}

int
diag_failed(const struct diag_list *dl)
{
	return dl->errors > 0 || (dl->strict && dl->warnings > 0);
}

static int
S_cmp(const void *pa, const void *pb)
{
	const struct diag *a = pa, *b = pb;
	int c;

	/* Diagnostics without a file (site-wide) come first. */
	if (a->file == NULL || b->file == NULL) {
		if (a->file != b->file)
			return a->file == NULL ? -1 : 1;
	} else if ((c = strcmp(a->file, b->file)) != 0)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int
S_same(const struct diag *a, const struct diag *b)
{
	if ((a->file == NULL) != (b->file == NULL))
		return 0;
	if (a->file && strcmp(a->file, b->file) != 0)
		return 0;
	return a->level == b->level && a->line == b->line &&
	    a->col == b->col && strcmp(a->message, b->message) == 0;
}

void
diag_sort(struct diag_list *dl)
{
	size_t i, j;

	if (dl->len > 1)
		qsort(dl->v, dl->len, sizeof(*dl->v), S_cmp);
	/* The same problem found twice (say, a link seen by two passes) is reported once. */
	for (i = j = 0; i < dl->len; i++) {
		if (j > 0 && S_same(&dl->v[j - 1], &dl->v[i])) {
			if (dl->v[i].level == DIAG_ERROR)
				dl->errors--;
			else
				dl->warnings--;
			free(dl->v[i].file);
			free(dl->v[i].message);
			continue;
		}
		dl->v[j++] = dl->v[i];
	}
	dl->len = j;
}

/*
 * Appends s with control characters shown as \xNN: file names and quoted
 * content are the author's, and an escape sequence in them must not reach
 * the terminal (nor a newline split a diagnostic in two).
 */
static void
S_put_clean(struct buf *b, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\x%02x", *p);
		else
			buf_putc(b, *p);
}

static void
S_format(struct buf *b, const struct diag *d, int color)
{
	const char *bold = color ? "\033[1m" : "";
	const char *reset = color ? "\033[0m" : "";
	const char *lvl_color = "";

	if (color)
		lvl_color = d->level == DIAG_ERROR ? "\033[1;31m" : "\033[1;35m";
	buf_puts(b, bold);
	if (d->file) {
		S_put_clean(b, d->file);
		if (d->line > 0) {
			buf_printf(b, ":%d", d->line);
			if (d->col > 0)
				buf_printf(b, ":%d", d->col);
		}
		buf_puts(b, ": ");
	} else
		buf_puts(b, "quizdeck: ");
	buf_puts(b, reset);
	buf_printf(b, "%s%s:%s ", lvl_color, d->level == DIAG_ERROR ? "error" : "warning", reset);
	S_put_clean(b, d->message);
}

char *
diag_format(const struct diag *d)
{
	struct buf b;

	buf_init(&b);
	S_format(&b, d, 0);
	return buf_detach(&b);
}

char *
diag_join(const struct diag_list *dl)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_put(&b, "", 0);
	for (i = 0; i < dl->len; i++) {
		if (i)
			buf_putc(&b, '\n');
		S_format(&b, &dl->v[i], 0);
	}
	return buf_detach(&b);
}

void
diag_print(const struct diag_list *dl, FILE *fp, int color)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	for (i = 0; i < dl->len; i++) {
		buf_reset(&b);
		S_format(&b, &dl->v[i], color);
		fprintf(fp, "%s\n", buf_str(&b));
	}
	buf_free(&b);
}

/*
 * htmlmd: one walk over libxml2's tree of the field. Blocks are written
 * into buffers of their own and indented by their container (a list
 * item, a block quote), so a container never needs to know what is
 * inside it. The walk recurses on elements, at most HTMLMD_MAX_DEPTH
 * deep: below that an element is kept as its text.
 */
#include "htmlmd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "util.h"

#define HTMLMD_MAX_DEPTH 64

struct conv {
	const struct htmlmd_opts *o;
	struct htmlmd *out;
	struct buf unknown;
	int depth;
	int cell;                  /* in a table cell: '|' escaped, one line */
};

static const char *const S_blocks_names[] = {
	"address", "article", "aside", "blockquote", "center", "dd", "details", "div", "dl",
	"dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
	"h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section",
	"summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
};

static int
S_is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcasecmp((const char *)n->name, name) == 0;
}

static int
S_is_block(const xmlNode *n)
{
	size_t i;

	if (n->type != XML_ELEMENT_NODE)
		return 0;
	for (i = 0; i < sizeof(S_blocks_names) / sizeof(S_blocks_names[0]); i++)
		if (S_is(n, S_blocks_names[i]))
			return 1;
	return 0;
}

/* The attribute's value (caller frees with xmlFree), or NULL. */
static char *
S_attr(const xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static int
S_has_class(const xmlNode *n, const char *cls)
{
	char *v = S_attr(n, "class");
	int has = 0;

	if (v) {
		const char *p = v;
		size_t len = strlen(cls);

		while ((p = strstr(p, cls)) != NULL) {
			if ((p == v || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' ')) {
				has = 1;
				break;
			}
			p += len;
		}
		xmlFree(v);
	}
	return has;
}

static void
S_note_unknown(struct conv *c, const xmlNode *n)
{
	char *tag = xconcat("<", (const char *)n->name, ">", NULL);
	const char *u = buf_str(&c->unknown);
	const char *p = strstr(u, tag);
	size_t len = strlen(tag);

	if (!(p && (p[len] == ' ' || p[len] == '\0'))) {
		if (c->unknown.len)
			buf_putc(&c->unknown, ' ');
		buf_puts(&c->unknown, tag);
	}
	free(tag);
}

/* ---- script -------------------------------------------------------------- */

static int
S_url_is_script(const char *url)
{
	while (*url && (unsigned char)*url <= ' ')
		url++;
	return strncasecmp(url, "javascript:", 11) == 0 || strncasecmp(url, "vbscript:", 9) == 0;
}

/* Why the tree under n is refused, as a new string, or NULL. Iterative: depth is the input's. */
static char *
S_find_script(xmlNode *n)
{
	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlAttr *a;

			if (S_is(n, "script"))
				return xstrdup("a <script> element");
			for (a = n->properties; a; a = a->next) {
				const char *name = (const char *)a->name;
				char *v;
				int bad;

				if (strncasecmp(name, "on", 2) == 0)
					return xasprintf("an %s attribute on <%s>", name, (const char *)n->name);
				v = (char *)xmlNodeGetContent((xmlNode *)a);
				bad = v && S_url_is_script(v);
				xmlFree(v);
				if (bad)
					return xasprintf("a script URL in <%s %s>", (const char *)n->name, name);
			}
			if (n->children) {
				n = n->children;
				continue;
			}
		}
		while (n && n->next == NULL)
			n = n->parent;
		if (n)
			n = n->next;
	}
	return NULL;
}

/* ---- text ---------------------------------------------------------------- */

static int
S_at_line_start(const struct buf *b)
{
	return b->len == 0 || b->data[b->len - 1] == '\n';
}

/* 1 if the current line of b is 1 to 9 digits: a '.' or ')' now would make it a list marker. */
static int
S_after_digits(const struct buf *b)
{
	size_t i = b->len, n = 0;

	while (i > 0 && b->data[i - 1] >= '0' && b->data[i - 1] <= '9') {
		i--;
		n++;
	}
	return n >= 1 && n <= 9 && (i == 0 || b->data[i - 1] == '\n');
}

/*
 * Text as Markdown that reads back as the same text: white space folded
 * as HTML folds it (a run holding a line break stays one, outside a
 * heading or cell), punctuation that Markdown would read escaped.
 */
static void
S_text(struct conv *c, struct buf *b, const char *s)
{
	int one_line = c->o->heading || c->cell;

	while (*s) {
		unsigned char ch = (unsigned char)*s;

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f') {
			const char *run = s;
			int nl = 0;

			for (; *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f'; s++)
				nl |= *s == '\n' || *s == '\r' || *s == '\f';
			if (nl && !one_line) {
				/* Spaces before a line break would make it a hard one. */
				while (b->len && (b->data[b->len - 1] == ' ' || b->data[b->len - 1] == '\t'))
					b->data[--b->len] = '\0';
				if (!S_at_line_start(b))
					buf_putc(b, '\n');
			} else if (nl) {
				if (b->len && b->data[b->len - 1] != ' ' && !S_at_line_start(b))
					buf_putc(b, ' ');
			} else if (!S_at_line_start(b))
				/* Spaces and tabs inside a line read back as they are: kept. */
				buf_put(b, run, (size_t)(s - run));
			continue;
		}
		if (S_at_line_start(b)) {
			const char *d = s;

			while (isdigit((unsigned char)*d))
				d++;
			if (strchr("#>-+=|:", ch))
				buf_putc(b, '\\');
			else if (d > s && d - s < 10 && (*d == '.' || *d == ')')) {
				buf_put(b, s, (size_t)(d - s));
				buf_putc(b, '\\');
				s = d;
				continue;
			}
		}
		if ((ch == '.' || ch == ')') && S_after_digits(b)) {
			/* "1." or "1)" opening a line would start a list, however the digits came. */
			buf_putc(b, '\\');
		} else if (strchr("\\`*[]<~", ch) || (ch == '|' && c->cell))
			buf_putc(b, '\\');
		else if (ch == '&' && (isalpha((unsigned char)s[1]) || s[1] == '#'))
			buf_putc(b, '\\');
		else if (ch == '_') {
			int before = b->len && isalnum((unsigned char)b->data[b->len - 1]);

			if (!before || !isalnum((unsigned char)s[1]))
				buf_putc(b, '\\');
		}
		buf_putc(b, ch);
		s++;
	}
}

/* The longest run of backticks in s. */
static size_t
S_longest_run(const char *s, char ch)
{
	size_t best = 0, run = 0;

	for (; *s; s++) {
		run = *s == ch ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

static void
S_code_span(struct conv *c, struct buf *b, const char *text)
{
	size_t n = S_longest_run(text, '`') + 1, i, len = strlen(text);
	int pad = len && (text[0] == '`' || text[len - 1] == '`' ||
	    (text[0] == ' ' && text[len - 1] == ' ' && strspn(text, " ") != len));
	const char *p;

	for (i = 0; i < n; i++)
		buf_putc(b, '`');
	if (pad)
		buf_putc(b, ' ');
	for (p = text; *p; p++)
		buf_putc(b, *p == '\n' || *p == '\r' || (c->cell && *p == '|') ? ' ' : *p);
	if (pad)
		buf_putc(b, ' ');
	for (i = 0; i < n; i++)
		buf_putc(b, '`');
}

/*
 * A link or image destination: spaces and control characters
 * percent-encoded (a destination is one line), in <...> when it holds
 * parentheses or angle brackets.
 */
static void
S_destination(struct buf *b, const char *url)
{
	const char *p;
	int angle = strpbrk(url, "()<>") != NULL || *url == '\0';

	if (angle)
		buf_putc(b, '<');
	for (p = url; *p; p++) {
		unsigned char ch = (unsigned char)*p;

		if (ch <= ' ' || ch == 0x7f)
			buf_printf(b, "%%%02X", ch);
		else {
			if (ch == '\\' || (angle && (ch == '<' || ch == '>')))
				buf_putc(b, '\\');
			buf_putc(b, ch);
		}
	}
	if (angle)
		buf_putc(b, '>');
}

/* ---- inlines ------------------------------------------------------------- */

static void S_inlines(struct conv *c, xmlNode *first, struct buf *b);
static void S_blocks(struct conv *c, xmlNode *first, struct buf *b, const char *sep);

/* The text under n, as it is (for code). */
static char *
S_content(xmlNode *n)
{
	xmlChar *t = xmlNodeGetContent(n);
	char *s = xstrdup(t ? (const char *)t : "");

	xmlFree(t);
	return s;
}

/* Children wrapped in a delimiter, with the spaces at their ends put outside it. */
static void
S_wrapped(struct conv *c, xmlNode *n, struct buf *b, const char *open, const char *close)
{
	struct buf in;
	size_t start, end;

	buf_init(&in);
	S_inlines(c, n->children, &in);
	start = 0;
	end = in.len;
	while (start < end && (in.data[start] == ' ' || in.data[start] == '\n'))
		start++;
	while (end > start && (in.data[end - 1] == ' ' || in.data[end - 1] == '\n'))
		end--;
	if (start < end) {
		if (start > 0 && !S_at_line_start(b))
			buf_putc(b, ' ');
		buf_puts(b, open);
		buf_put(b, in.data + start, end - start);
		buf_puts(b, close);
		if (end < in.len)
			buf_putc(b, ' ');
	} else if (in.len && !S_at_line_start(b))
		buf_putc(b, ' ');
	buf_free(&in);
}

/* 1 if n's text can be a footnote's label as written: letters, digits, '-' and '_'. */
static int
S_is_label(xmlNode *n)
{
	char *t = S_content(n);
	int ok = *t && t[strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")] == '\0';

	free(t);
	return ok;
}

static void
S_link(struct conv *c, xmlNode *n, struct buf *b)
{
	char *href = S_attr(n, "href"), *title = S_attr(n, "title");

	if (href == NULL || *href == '\0') {
		S_inlines(c, n->children, b);
	} else if (S_is(n->parent, "sup") && S_has_class(n->parent, "footnote-ref") &&
	    S_is_label(n)) {
		char *label = S_content(n);

		buf_printf(b, "[^%s]", label);
		free(label);
	} else {
		size_t before = b->len;

		S_wrapped(c, n, b, "[", "](");
		if (b->len > before + 1 && b->data[b->len - 1] == '(' && b->data[b->len - 2] == ']') {
			const char *p;

			S_destination(b, href);
			if (title && *title) {
				buf_puts(b, " \"");
				for (p = title; *p; p++) {
					if (*p == '"' || *p == '\\')
						buf_putc(b, '\\');
					buf_putc(b, *p == '\n' || *p == '\r' ? ' ' : *p);
				}
				buf_putc(b, '"');
			}
			buf_putc(b, ')');
		}
	}
	xmlFree(href);
	xmlFree(title);
}

static void
S_image(struct conv *c, xmlNode *n, struct buf *b)
{
	char *src = S_attr(n, "src"), *alt = S_attr(n, "alt"), *dest = NULL;

	if (src == NULL || *src == '\0') {
		if (alt)
			S_text(c, b, alt);
		goto out;
	}
	if (c->o->image)
		dest = c->o->image(c->o->image_arg, src);
	buf_puts(b, "![");
	if (alt) {
		struct buf t;

		buf_init(&t);
		buf_putc(&t, 'x');     /* not at a line start: no escape of a leading '-' */
		S_text(c, &t, alt);
		buf_puts(b, t.data + 1);
		buf_free(&t);
	}
	buf_puts(b, "](");
	S_destination(b, dest ? dest : src);
	buf_putc(b, ')');
out:
	free(dest);
	xmlFree(src);
	xmlFree(alt);
}

static void
S_inline(struct conv *c, xmlNode *n, struct buf *b)
{
	if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
		S_text(c, b, (const char *)n->content);
		return;
	}
	if (n->type != XML_ELEMENT_NODE)
		return;
	if (c->depth >= HTMLMD_MAX_DEPTH) {
		char *t = S_content(n);

		S_text(c, b, t);
		free(t);
		return;
	}
	c->depth++;
	if (S_is(n, "b") || S_is(n, "strong"))
		S_wrapped(c, n, b, "**", "**");
	else if (S_is(n, "i") || S_is(n, "em"))
		S_wrapped(c, n, b, "*", "*");
	else if (S_is(n, "s") || S_is(n, "del") || S_is(n, "strike"))
		S_wrapped(c, n, b, "~~", "~~");
	else if (S_is(n, "u") || S_is(n, "sub") || S_is(n, "sup")) {
		if (S_has_class(n, "footnote-ref"))
			S_inlines(c, n->children, b);
		else {
			char *open = xconcat("<", (const char *)n->name, ">", NULL);
			char *close = xconcat("</", (const char *)n->name, ">", NULL);

			S_wrapped(c, n, b, open, close);
			free(open);
			free(close);
		}
	} else if (S_is(n, "code") || S_is(n, "kbd") || S_is(n, "tt") || S_is(n, "samp")) {
		char *t = S_content(n);

		S_code_span(c, b, t);
		free(t);
	} else if (S_is(n, "a"))
		S_link(c, n, b);
	else if (S_is(n, "img"))
		S_image(c, n, b);
	else if (S_is(n, "br"))
		buf_puts(b, c->o->heading || c->cell ? " " : "\\\n");
	else if (S_is(n, "style") || S_is(n, "head") || S_is(n, "title"))
		;
	else if (S_is_block(n)) {
		/* A block among inlines (a heading's list, a div in a cell): its text, on this line. */
		if (c->o->heading)
			c->out->flattened = 1;
		if (b->len && b->data[b->len - 1] != ' ' && !S_at_line_start(b))
			buf_putc(b, ' ');
		S_inlines(c, n->children, b);
		if (b->len && b->data[b->len - 1] != ' ' && !S_at_line_start(b))
			buf_putc(b, ' ');
	} else {
		if (!S_is(n, "span") || n->properties)
			S_note_unknown(c, n);
		S_inlines(c, n->children, b);
	}
	c->depth--;
}

static void
S_inlines(struct conv *c, xmlNode *first, struct buf *b)
{
	xmlNode *n;

	for (n = first; n; n = n->next)
		S_inline(c, n, b);
}

/* ---- blocks -------------------------------------------------------------- */

/* body with every line after the first indented by `indent` (blank lines stay empty). */
static void
S_indented(struct buf *b, const char *first, const char *indent, const char *body)
{
	const char *p;

	buf_puts(b, first);
	for (p = body; *p; p++) {
		buf_putc(b, *p);
		if (*p == '\n' && p[1] && p[1] != '\n')
			buf_puts(b, indent);
	}
}

/* Adds a finished block to b, after sep when b holds one already. */
static void
S_add_block(struct buf *b, const char *sep, const char *block)
{
	if (*block == '\0')
		return;
	if (b->len)
		buf_puts(b, sep);
	buf_puts(b, block);
}

/* An inline run as a paragraph: trimmed, no hard break at its end. */
static void
S_paragraph(struct buf *b, const char *sep, struct buf *run)
{
	size_t start = 0, end = run->len;
	char *s;

	for (;;) {
		while (end > start && (run->data[end - 1] == ' ' || run->data[end - 1] == '\n'))
			end--;
		if (end >= start + 1 && run->data[end - 1] == '\\' &&
		    (end - start == 1 || run->data[end - 2] != '\\'))
			end--;
		else
			break;
	}
	while (start < end && (run->data[start] == ' ' || run->data[start] == '\n'))
		start++;
	s = xstrndup(run->data ? run->data + start : "", end - start);
	{
		/* Spaces after a line break would read as indentation. */
		char *r = s, *w = s;

		for (; *r; r++) {
			*w++ = *r;
			if (*r == '\n')
				while (r[1] == ' ')
					r++;
		}
		*w = '\0';
	}
	S_add_block(b, sep, s);
	free(s);
	buf_reset(run);
}

static void
S_code_block(xmlNode *n, struct buf *b, const char *sep)
{
	char *text = S_content(n), *lang = NULL;
	xmlNode *code = n->children;
	struct buf out;
	size_t fence, i;

	if (code && code->next == NULL && S_is(code, "code")) {
		char *cls = S_attr(code, "class");

		if (cls && strncmp(cls, "language-", 9) == 0) {
			size_t len = strspn(cls + 9, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789+-_.#");

			lang = xstrndup(cls + 9, len);
		}
		xmlFree(cls);
	}
	{
		/* Markdown reads a lone CR as a line end too: every line end becomes one LF. */
		char *r = text, *w = text;

		for (; *r; r++) {
			if (*r == '\r') {
				*w++ = '\n';
				if (r[1] == '\n')
					r++;
			} else
				*w++ = *r;
		}
		*w = '\0';
	}
	fence = S_longest_run(text, '`') + 1;
	if (fence < 3)
		fence = 3;
	buf_init(&out);
	for (i = 0; i < fence; i++)
		buf_putc(&out, '`');
	if (lang)
		buf_puts(&out, lang);
	buf_putc(&out, '\n');
	buf_puts(&out, text);
	if (*text && text[strlen(text) - 1] != '\n')
		buf_putc(&out, '\n');
	for (i = 0; i < fence; i++)
		buf_putc(&out, '`');
	S_add_block(b, sep, buf_str(&out));
	buf_free(&out);
	free(text);
	free(lang);
}

static void
S_list(struct conv *c, xmlNode *n, struct buf *b, const char *sep)
{
	int ordered = S_is(n, "ol"), tight = 1;
	long num = 1;
	char *start = S_attr(n, "start");
	xmlNode *li, *k;
	struct buf out, item;

	if (start) {
		num = strtol(start, NULL, 10);
		if (num < 0 || num > 999999999)
			num = 1;
		xmlFree(start);
	}
	for (li = n->children; li; li = li->next)
		for (k = li->children; S_is(li, "li") && k; k = k->next)
			if (S_is(k, "p"))
				tight = 0;
	buf_init(&out);
	buf_init(&item);
	for (li = n->children; li; li = li->next) {
		char marker[24];

		if (li->type != XML_ELEMENT_NODE)
			continue;
		if (ordered)
			snprintf(marker, sizeof(marker), "%ld. ", num++);
		else
			snprintf(marker, sizeof(marker), "- ");
		buf_reset(&item);
		if (S_is(li, "li"))
			S_blocks(c, li->children, &item, tight ? "\n" : "\n\n");
		else
			S_blocks(c, li, &item, "\n");
		/* An empty item holds nothing to keep, and after a paragraph "-" would underline it. */
		if (item.len == 0)
			continue;
		if (out.len)
			buf_puts(&out, tight ? "\n" : "\n\n");
		S_indented(&out, marker, ordered ? "   " : "  ", buf_str(&item));
	}
	S_add_block(b, sep, buf_str(&out));
	buf_free(&out);
	buf_free(&item);
}

/* The rows of a table, in order: tr children of the table or of its sections (caller frees). */
static xmlNode **
S_rows(xmlNode *table, size_t *len)
{
	xmlNode *n, *r, **rows = NULL;
	size_t cap = 0;

	*len = 0;
	for (n = table->children; n; n = n->next) {
		if (S_is(n, "tr")) {
			rows = xgrow(rows, &cap, *len + 1, sizeof(*rows));
			rows[(*len)++] = n;
		} else if (S_is(n, "thead") || S_is(n, "tbody") || S_is(n, "tfoot"))
			for (r = n->children; r; r = r->next)
				if (S_is(r, "tr")) {
					rows = xgrow(rows, &cap, *len + 1, sizeof(*rows));
					rows[(*len)++] = r;
				}
	}
	return rows;
}

static void
S_table(struct conv *c, xmlNode *n, struct buf *b, const char *sep)
{
	xmlNode **rows, *cell;
	size_t nrows, ncols = 0, i, k;
	struct buf out;

	rows = S_rows(n, &nrows);

	for (i = 0; i < nrows; i++) {
		k = 0;
		for (cell = rows[i]->children; cell; cell = cell->next)
			k += S_is(cell, "td") || S_is(cell, "th");
		if (k > ncols)
			ncols = k;
	}
	if (ncols == 0) {
		free(rows);
		return;
	}
	buf_init(&out);
	c->cell++;
	for (i = 0; i < nrows; i++) {
		k = 0;
		buf_putc(&out, '|');
		for (cell = rows[i]->children; cell; cell = cell->next) {
			struct buf t;
			size_t s, e;

			if (!S_is(cell, "td") && !S_is(cell, "th"))
				continue;
			buf_init(&t);
			buf_putc(&t, 'x');  /* a cell is never at a line start */
			S_inlines(c, cell->children, &t);
			for (s = 1; s < t.len && t.data[s] == ' '; s++)
				;
			for (e = t.len; e > s && t.data[e - 1] == ' '; e--)
				;
			buf_putc(&out, ' ');
			buf_put(&out, t.data + s, e - s);
			buf_puts(&out, " |");
			buf_free(&t);
			k++;
		}
		for (; k < ncols; k++)
			buf_puts(&out, "  |");
		buf_putc(&out, '\n');
		if (i == 0) {
			buf_putc(&out, '|');
			for (k = 0; k < ncols; k++)
				buf_puts(&out, " --- |");
			buf_putc(&out, '\n');
		}
	}
	c->cell--;
	out.data[--out.len] = '\0';
	S_add_block(b, sep, buf_str(&out));
	buf_free(&out);
	free(rows);
}

/* quizdeck's footnotes: each item "[^N]: its blocks", without the link back. */
static void
S_footnotes(struct conv *c, xmlNode *n, struct buf *b, const char *sep)
{
	xmlNode *ol, *li, *k, *next;
	struct buf item;
	long num = 1;

	for (ol = n->children; ol && !S_is(ol, "ol"); ol = ol->next)
		;
	if (ol == NULL)
		return;
	buf_init(&item);
	for (li = ol->children; li; li = li->next) {
		char *value, *first;

		if (!S_is(li, "li"))
			continue;
		value = S_attr(li, "value");
		if (value)
			num = strtol(value, NULL, 10);
		xmlFree(value);
		/* The link back to the reference is the exporter's, not the note's. */
		for (k = li->children; k; k = k->next) {
			xmlNode *a;

			for (a = k->children; a; a = next) {
				next = a->next;
				if (S_is(a, "a") && S_has_class(a, "footnote-backref")) {
					xmlUnlinkNode(a);
					xmlFreeNode(a);
				}
			}
		}
		first = xasprintf("[^%ld]: ", num++);
		buf_reset(&item);
		S_blocks(c, li->children, &item, "\n\n");
		{
			struct buf one;

			buf_init(&one);
			S_indented(&one, first, "    ", buf_str(&item));
			S_add_block(b, sep, buf_str(&one));
			buf_free(&one);
		}
		free(first);
	}
	buf_free(&item);
}

/* One block element into b. */
static void
S_block(struct conv *c, xmlNode *n, struct buf *b, const char *sep)
{
	struct buf in;

	buf_init(&in);
	if (c->depth >= HTMLMD_MAX_DEPTH) {
		S_inline(c, n, &in);
		S_paragraph(b, sep, &in);
		buf_free(&in);
		return;
	}
	c->depth++;
	if (S_is(n, "pre"))
		S_code_block(n, b, sep);
	else if (S_is(n, "ul") || S_is(n, "ol"))
		S_list(c, n, b, sep);
	else if (S_is(n, "table"))
		S_table(c, n, b, sep);
	else if (S_is(n, "hr"))
		S_add_block(b, sep, "***");
	else if (S_is(n, "section") && S_has_class(n, "footnotes"))
		S_footnotes(c, n, b, sep);
	else if (S_is(n, "blockquote")) {
		const char *p;

		S_blocks(c, n->children, &in, "\n\n");
		if (in.len) {
			struct buf q;

			buf_init(&q);
			buf_puts(&q, "> ");
			for (p = buf_str(&in); *p; p++) {
				buf_putc(&q, *p);
				if (*p == '\n')
					buf_puts(&q, p[1] == '\n' ? ">" : "> ");
			}
			S_add_block(b, sep, buf_str(&q));
			buf_free(&q);
		}
	} else {
		/* p, div and the blocks with no form of their own: their content, as blocks. */
		if (!S_is(n, "p") && !S_is(n, "div"))
			S_note_unknown(c, n);
		S_blocks(c, n->children, b, sep);
	}
	c->depth--;
	buf_free(&in);
}

/* The nodes from first on, as blocks joined by sep; runs of inlines become paragraphs. */
static void
S_blocks(struct conv *c, xmlNode *first, struct buf *b, const char *sep)
{
	struct buf run;
	xmlNode *n;

	buf_init(&run);
	for (n = first; n; n = n->next) {
		if (S_is_block(n)) {
			S_paragraph(b, sep, &run);
			S_block(c, n, b, sep);
		} else
			S_inline(c, n, &run);
	}
	S_paragraph(b, sep, &run);
	buf_free(&run);
}

/* ---- the field ----------------------------------------------------------- */

int
htmlmd_convert(const char *html, const struct htmlmd_opts *o, struct htmlmd *out)
{
	struct conv c;
	struct buf b;
	htmlDocPtr doc;
	xmlNode *body = NULL, *n;
	char *wrapped;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.o = o;
	c.out = out;
	buf_init(&c.unknown);
	buf_init(&b);
	/* A body of its own, so the parser never moves the field's first text into a head. */
	wrapped = xconcat("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>",
	    html, "</body></html>", NULL);
	doc = htmlReadMemory(wrapped, (int)strlen(wrapped), NULL, "UTF-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	free(wrapped);
	if (doc && xmlDocGetRootElement(doc))
		for (n = xmlDocGetRootElement(doc)->children; n; n = n->next)
			if (S_is(n, "body"))
				body = n;
	if (body && (out->script = S_find_script(body->children)) != NULL) {
		rc = -1;
		goto out;
	}
	if (body == NULL)
		;
	else if (o->heading) {
		struct buf run;

		buf_init(&run);
		S_inlines(&c, body->children, &run);
		S_paragraph(&b, "", &run);
		buf_free(&run);
	} else
		S_blocks(&c, body->children, &b, "\n\n");
	out->md = buf_detach(&b);
	if (out->md == NULL)
		out->md = xstrdup("");
	if (c.unknown.len)
		out->unknown = buf_detach(&c.unknown);
out:
	xmlFreeDoc(doc);
	buf_free(&b);
	buf_free(&c.unknown);
	return rc;
}

void
htmlmd_free(struct htmlmd *out)
{
	free(out->md);
	free(out->script);
	free(out->unknown);
	memset(out, 0, sizeof(*out));
}

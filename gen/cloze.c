/*
 * cloze: deletions in a card's front (cloze.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cloze.h"
#include "markdown.h"
#include "util.h"

#define OPEN "{{c"

/* A text node's literal, and where its first byte is in the source. */
struct cursor {
	cmark_node *node;
	int line, col;             /* 0 when unknown */
};

static const char *
S_lit(cmark_node *n)
{
	const char *s = cmark_node_get_literal(n);

	return s ? s : "";
}

static int
S_is_text(cmark_node *n)
{
	return n && cmark_node_get_type(n) == CMARK_NODE_TEXT;
}

/*
 * The next opener `{{c` digits `::` in s from `from`: its offset, the
 * offset just past it, and its number (-1 when the digits are missing
 * or too many). Returns 0 when there is none.
 */
static int
S_find_opener(const char *s, size_t from, size_t *at, size_t *end, int *number)
{
	const char *p = s + from;

	while ((p = strstr(p, OPEN)) != NULL) {
		const char *q = p + strlen(OPEN);
		long v = 0;
		int digits = 0;

		while (*q >= '0' && *q <= '9') {
			if (v <= CLOZE_MAX)
				v = v * 10 + (*q - '0');
			q++;
			digits++;
		}
		if (q[0] == ':' && q[1] == ':') {
			*at = (size_t)(p - s);
			*end = (size_t)(q + 2 - s);
			*number = digits == 0 || v < 1 || v > CLOZE_MAX ? -1 : (int)v;
			return 1;
		}
		p += strlen(OPEN);
	}
	return 0;
}

static void
S_issue(struct cloze_list *out, enum cloze_problem what, const struct cursor *c, size_t off)
{
	struct cloze_issue *is;

	out->issues = xgrow(out->issues, &out->issues_cap, out->nissues + 1, sizeof(*out->issues));
	is = &out->issues[out->nissues++];
	is->what = what;
	is->line = c->line;
	is->col = c->line > 0 ? c->col + (int)off : 0;
}

/* A new text node holding s[0..n). */
static cmark_node *
S_text_node(const char *s, size_t n)
{
	cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
	char *v = xstrndup(s, n);

	cmark_node_set_literal(t, v);
	free(v);
	return t;
}

/* Replaces text node n's literal by s[0..len). */
static void
S_set_lit(cmark_node *n, const char *s, size_t len)
{
	char *v = xstrndup(s, len);

	cmark_node_set_literal(n, v);
	free(v);
}

/* 1 if the plain text of the nodes is empty or only spaces. */
static int
S_blank(cmark_node *del)
{
	char *t = md_plain_text(del);
	const char *p = t;
	int blank;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	blank = *p == '\0';
	free(t);
	return blank;
}

/* A node that is or sits inside a deletion, up to the heading. */
static int
S_in_deletion(cmark_node *n, cmark_node *heading)
{
	for (; n && n != heading; n = cmark_node_parent(n))
		if (cloze_number(n))
			return 1;
	return 0;
}

/*
 * The hint's `::` of a deletion whose answer starts at first's byte
 * `from` and ends at close in m: the first `::` in a text node among
 * them, before close (one inside emphasis or code is the answer's).
 * *k and *sep get its node and place, or NULL.
 */
static void
S_find_hint(cmark_node *first, size_t from, cmark_node *m, const char *close,
    cmark_node **k, const char **sep)
{
	cmark_node *n;

	*k = NULL;
	*sep = NULL;
	for (n = first; n != NULL; n = n == m ? NULL : cmark_node_next(n)) {
		const char *p;

		if (!S_is_text(n))
			continue;
		p = strstr(S_lit(n) + (n == first ? from : 0), "::");
		if (p != NULL && (n != m || p < close)) {
			*k = n;
			*sep = p;
			return;
		}
	}
}

/* Appends the text of node n and what it holds, raw HTML as written: a hint is text. */
static void
S_put_text(struct buf *b, cmark_node *n)
{
	cmark_iter *it = cmark_iter_new(n);
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *x = cmark_iter_get_node(it);

		if (ev != CMARK_EVENT_ENTER)
			continue;
		switch (cmark_node_get_type(x)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
		case CMARK_NODE_HTML_INLINE:
			buf_puts(b, S_lit(x));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			buf_putc(b, ' ');
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
}

/*
 * A hint's text, from just after sep (in text node k) to close (in m):
 * the text of the nodes between, raw HTML as written. Caller frees.
 */
static char *
S_hint_text(cmark_node *k, const char *sep, cmark_node *m, const char *close)
{
	struct buf b;
	cmark_node *n;

	buf_init(&b);
	if (k == m)
		buf_put(&b, sep + 2, (size_t)(close - (sep + 2)));
	else {
		buf_puts(&b, sep + 2);
		for (n = cmark_node_next(k); n != m; n = cmark_node_next(n))
			S_put_text(&b, n);
		buf_put(&b, S_lit(m), (size_t)(close - S_lit(m)));
	}
	buf_putc(&b, '\0');
	return buf_detach(&b);
}

/*
 * Rewrites the deletion whose opener is s[at..end) of text node c->node,
 * closed by the first `}}` among it and its following siblings. Returns
 * 1 with where scanning goes on in *next (its node may be NULL), or 0
 * with nothing changed when it is not closed or holds another opener.
 */
static int
S_wrap(const struct cursor *c, size_t at, size_t end, int number,
    struct cloze_list *out, struct cursor *next, cmark_node *trash)
{
	const char *s = S_lit(c->node);
	cmark_node *m = c->node, *del, *n, *after, *k;
	const char *close = strstr(s + end, "}}"), *sep;
	size_t from = end, o_at, o_end;
	int o_num;
	char mark[16];
	char *exit_mark, *tail, *hint;
	struct cloze_deletion *dv;

	/* The closer: in this node, or in a following sibling text node. */
	while (close == NULL) {
		if (S_is_text(m) && S_find_opener(S_lit(m), from, &o_at, &o_end, &o_num)) {
			S_issue(out, CLOZE_NESTED, c, at);
			return 0;
		}
		m = cmark_node_next(m);
		if (m == NULL) {
			S_issue(out, CLOZE_UNCLOSED, c, at);
			return 0;
		}
		from = 0;
		if (S_is_text(m))
			close = strstr(S_lit(m), "}}");
	}
	/* An opener before the closer: a deletion inside another. */
	if (S_find_opener(S_lit(m), from, &o_at, &o_end, &o_num) &&
	    S_lit(m) + o_at < close) {
		S_issue(out, CLOZE_NESTED, c, at);
		return 0;
	}

	/* The hint: after the first `::` of a text node among the deletion's own. */
	S_find_hint(c->node, end, m, close, &k, &sep);
	hint = sep ? S_hint_text(k, sep, m, close) : NULL;
	snprintf(mark, sizeof(mark), "{{c%d::", number > 0 ? number : 0);
	exit_mark = xconcat(hint ? "::" : "", hint ? hint : "", "}}", NULL);
	free(hint);

	del = cmark_node_new(CMARK_NODE_CUSTOM_INLINE);
	cmark_node_set_on_enter(del, mark);
	cmark_node_set_on_exit(del, exit_mark);
	free(exit_mark);

	/*
	 * The answer's nodes move into the deletion; the hint's and the
	 * closer's go to trash (the hint is in on_exit, as text; a container
	 * among them is still on cloze_mark's list); what follows the closer
	 * stays after the deletion, and empty text goes.
	 */
	{
		cmark_node *last = sep ? k : m;
		const char *ls = S_lit(last), *answer_end = sep ? sep : close;

		tail = xstrdup(close + 2);
		if (last == c->node)
			cmark_node_append_child(del, S_text_node(s + end, (size_t)(answer_end - (s + end))));
		else {
			cmark_node_append_child(del, S_text_node(s + end, strlen(s + end)));
			while ((n = cmark_node_next(c->node)) != last) {
				cmark_node_unlink(n);
				cmark_node_append_child(del, n);
			}
			cmark_node_append_child(del, S_text_node(ls, (size_t)(answer_end - ls)));
		}
		if (m != c->node)
			for (n = last == c->node ? cmark_node_next(c->node) : last; n != NULL; n = after) {
				after = n == m ? NULL : cmark_node_next(n);
				cmark_node_unlink(n);
				cmark_node_append_child(trash, n);
			}
		cmark_node_insert_after(c->node, del);
		after = NULL;
		if (*tail) {
			after = S_text_node(tail, strlen(tail));
			cmark_node_insert_after(del, after);
		}
		next->node = after ? after : cmark_node_next(del);
		next->line = after && m == c->node ? c->line : 0;
		next->col = after && m == c->node ? c->col + (int)(close + 2 - s) : 0;
		if (at == 0)
			cmark_node_free(c->node);
		else
			S_set_lit(c->node, s, at);
		free(tail);
	}
	if (S_blank(del))
		S_issue(out, CLOZE_EMPTY, c, at);
	if (number < 0)
		S_issue(out, CLOZE_BAD_NUMBER, c, at);

	out->v = xgrow(out->v, &out->cap, out->len + 1, sizeof(*out->v));
	dv = &out->v[out->len++];
	dv->number = number > 0 ? number : 0;
	dv->answer = md_plain_text(del);
	{
		size_t hl;
		const char *h = cloze_hint(del, &hl);

		dv->hint = h ? xstrndup(h, hl) : NULL;
	}
	dv->line = c->line;
	dv->col = c->line > 0 ? c->col + (int)at : 0;
	return 1;
}

/* 1 if n is heading or inside it. */
static int
S_within(cmark_node *n, cmark_node *heading)
{
	for (; n != NULL; n = cmark_node_parent(n))
		if (n == heading)
			return 1;
	return 0;
}

/* Finds and rewrites the deletions among container's children. */
static void
S_mark_children(cmark_node *heading, cmark_node *container, struct cloze_list *out, cmark_node *trash)
{
	cmark_node *n = cmark_node_first_child(container);
	struct cursor c;
	int nested = !S_within(container, heading) || S_in_deletion(container, heading);

	c.node = n;
	c.line = n ? cmark_node_get_start_line(n) : 0;
	c.col = n ? cmark_node_get_start_column(n) : 0;
	while (c.node) {
		size_t at, end, from = 0;
		int number;
		struct cursor next;
		int wrapped = 0;

		while (S_is_text(c.node) && S_find_opener(S_lit(c.node), from, &at, &end, &number)) {
			if (nested) {
				S_issue(out, CLOZE_NESTED, &c, at);
				from = end;
				continue;
			}
			if (!(wrapped = S_wrap(&c, at, end, number, out, &next, trash))) {
				from = end;
				continue;
			}
			break;
		}
		if (wrapped) {
			c = next;
			continue;
		}
		c.node = cmark_node_next(c.node);
		c.line = c.node ? cmark_node_get_start_line(c.node) : 0;
		c.col = c.node ? cmark_node_get_start_column(c.node) : 0;
	}
}

size_t
cloze_mark(cmark_node *heading, struct cloze_list *out)
{
	cmark_iter *it = cmark_iter_new(heading);
	cmark_event_type ev;
	cmark_node **v = NULL, *trash = cmark_node_new(CMARK_NODE_PARAGRAPH);
	size_t len = 0, cap = 0, i;

	/* Text arrives split at delimiters ("a_b"): a marker must be in one node. */
	cmark_consolidate_text_nodes(heading);
	/* The containers first: rewriting moves nodes under the iterator. */
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);

		if (ev != CMARK_EVENT_ENTER || cmark_node_first_child(n) == NULL)
			continue;
		if (cmark_node_get_type(n) == CMARK_NODE_IMAGE)
			continue;
		v = xgrow(v, &cap, len + 1, sizeof(*v));
		v[len++] = n;
	}
	cmark_iter_free(it);
	/* A container a hint held is in trash now: a deletion in it is one inside another. */
	for (i = 0; i < len; i++)
		S_mark_children(heading, v[i], out, trash);
	free(v);
	cmark_node_free(trash);
	return out->len;
}

void
cloze_list_free(struct cloze_list *l)
{
	size_t i;

	for (i = 0; i < l->len; i++) {
		free(l->v[i].answer);
		free(l->v[i].hint);
	}
	free(l->v);
	free(l->issues);
	memset(l, 0, sizeof(*l));
}

int
cloze_number(cmark_node *n)
{
	const char *e;

	if (n == NULL || cmark_node_get_type(n) != CMARK_NODE_CUSTOM_INLINE)
		return 0;
	e = cmark_node_get_on_enter(n);
	if (e == NULL || strncmp(e, OPEN, strlen(OPEN)) != 0)
		return 0;
	return atoi(e + strlen(OPEN));
}

int
cloze_has(cmark_node *heading)
{
	cmark_iter *it = cmark_iter_new(heading);
	cmark_event_type ev;
	int found = 0;

	while (!found && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		found = ev == CMARK_EVENT_ENTER && cloze_number(cmark_iter_get_node(it)) != 0;
	cmark_iter_free(it);
	return found;
}

const char *
cloze_hint(cmark_node *n, size_t *len)
{
	const char *x = cloze_number(n) ? cmark_node_get_on_exit(n) : NULL;
	size_t l;

	if (x == NULL || strncmp(x, "::", 2) != 0)
		return 0;
	l = strlen(x);
	if (l < 4)
		return 0;
	*len = l - 4;
	return *len ? x + 2 : NULL;
}

char *
cloze_blank(cmark_node *n)
{
	size_t len;
	const char *h = cloze_hint(n, &len);
	char *s, *v;

	if (h == NULL)
		return xstrdup("[\xe2\x80\xa6]");
	v = xstrndup(h, len);
	s = xconcat("[", v, "]", NULL);
	free(v);
	return s;
}

char *
cloze_text(cmark_node *heading, enum cloze_show show, int number)
{
	cmark_iter *it = cmark_iter_new(heading);
	cmark_event_type ev;
	struct buf b;
	char *out, *w, *r;

	buf_init(&b);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		int num = ev == CMARK_EVENT_ENTER ? cloze_number(n) : 0;

		if (show == CLOZE_SHOW_SOURCE && cloze_number(n)) {
			buf_puts(&b, ev == CMARK_EVENT_ENTER ? cmark_node_get_on_enter(n)
			    : cmark_node_get_on_exit(n));
			continue;
		}
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (num && (show == CLOZE_SHOW_NONE || (show == CLOZE_SHOW_BLANK && num == number))) {
			if (show == CLOZE_SHOW_BLANK) {
				char *bl = cloze_blank(n);

				buf_puts(&b, bl);
				free(bl);
			} else
				buf_putc(&b, ' ');
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			continue;
		}
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			buf_puts(&b, S_lit(n));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			buf_putc(&b, ' ');
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	buf_putc(&b, '\0');
	out = buf_detach(&b);
	/* Spaces collapsed, none at either end: where an answer was taken out. */
	for (r = w = out; *r; r++) {
		if (*r == ' ' && (w == out || w[-1] == ' '))
			continue;
		*w++ = *r;
	}
	while (w > out && w[-1] == ' ')
		w--;
	*w = '\0';
	return out;
}

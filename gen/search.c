/*
 * search: the index behind the theme's search box (search.h). Plain
 * data out of the linked model, with a short excerpt of each section's
 * and card's text read from its doc's tree.
 */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "site.h"

/* An excerpt is cut at a word near this many bytes: the index stays small and a result one line or two. */
#define SEARCH_EXCERPT 150

/*
 * Appends the plain text of node to an excerpt, whitespace runs made one
 * space, until it holds SEARCH_EXCERPT bytes; then cuts it at the last
 * space and ends it with an ellipsis. Returns 1 once the excerpt is full.
 */
static int
S_excerpt_add(struct buf *ex, cmark_node *node)
{
	char *text = md_plain_text(node), *p;
	size_t n;
	int full = 0;

	for (p = text; *p && !full; p++) {
		int space = *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';

		if (space && (ex->len == 0 || ex->data[ex->len - 1] == ' '))
			continue;
		if (!space && ex->len > 0 && p == text && ex->data[ex->len - 1] != ' ')
			buf_putc(ex, ' ');
		buf_putc(ex, space ? ' ' : *p);
		/* Never between the bytes of one character. */
		full = ex->len >= SEARCH_EXCERPT && ((unsigned char)p[1] & 0xc0) != 0x80;
	}
	free(text);
	if (!full)
		return 0;
	/* Back to the last space, so no word is cut; but one long word is. */
	n = ex->len;
	while (n > 0 && ex->data[n - 1] != ' ')
		n--;
	if (n == 0)
		n = ex->len;
	while (n > 0 && ex->data[n - 1] == ' ')
		n--;
	ex->len = n;
	buf_puts(ex, "\xe2\x80\xa6");
	return 1;
}

static void
S_entry(struct buf *b, const char *kind, const char *title, const char *where1,
    const char *where2, const char *url, const char *id, const char *text)
{
	char *u = id ? xconcat(url, "#", id, NULL) : xstrdup(url);

	buf_puts(b, "{\"kind\":");
	buf_put_json_string(b, kind);
	buf_puts(b, ",\"title\":");
	buf_put_json_string(b, title);
	buf_puts(b, ",\"where\":[");
	buf_put_json_string(b, where1);
	if (where2) {
		buf_putc(b, ',');
		buf_put_json_string(b, where2);
	}
	buf_puts(b, "],\"url\":");
	buf_put_json_string(b, u);
	buf_puts(b, ",\"text\":");
	buf_put_json_string(b, text);
	buf_puts(b, "},\n");
	free(u);
}

/* Text worth a line in a result: prose, lists and quotes, not tables, code or raw HTML. */
static int
S_is_prose(cmark_node *n)
{
	cmark_node_type type = cmark_node_get_type(n);

	return type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_LIST || type == CMARK_NODE_BLOCK_QUOTE;
}

/*
 * The chapter, with the text before its first section, then its
 * sections, each with the text of the top-level blocks after its heading.
 */
void
search_chapter(struct buf *b, const struct chapter *c, const struct doc_tree *t, const char *guide)
{
	struct buf *ex = xcalloc(c->nsections + 1, sizeof(*ex));
	struct buf *cur = &ex[c->nsections];
	size_t i, at = 0;
	int full = 0;
	cmark_node *n;

	for (n = t ? cmark_node_first_child(doc_tree_root(t)) : NULL; n; n = cmark_node_next(n)) {
		const struct section *s = cmark_node_get_type(n) == CMARK_NODE_HEADING ?
		    doc_tree_section_at(t, n) : NULL;

		if (s) {
			/* Sections are in document order: the search goes on from the last found. */
			for (i = at; i < c->nsections && c->sections[i] != s; i++)
				;
			cur = NULL;
			if (i < c->nsections) {
				cur = &ex[i];
				at = i + 1;
			}
			full = 0;
		} else if (cur && !full && S_is_prose(n))
			full = S_excerpt_add(cur, n);
	}
	S_entry(b, "chapter", c->title, guide, NULL, c->url, NULL, buf_str(&ex[c->nsections]));
	buf_free(&ex[c->nsections]);
	for (i = 0; i < c->nsections; i++) {
		const struct section *s = c->sections[i];

		S_entry(b, "section", s->title, c->title, NULL, c->url, s->id, buf_str(&ex[i]));
		buf_free(&ex[i]);
	}
	free(ex);
}

void
search_deck(struct buf *b, const struct deck *d, const struct doc_tree *t)
{
	struct buf ex;
	size_t i;

	buf_init(&ex);
	for (i = 0; i < d->ncards; i++) {
		const struct card *c = &d->cards[i];
		const struct card_nodes *cn = t ? doc_tree_card(t, c) : NULL;
		cmark_node *n;

		buf_reset(&ex);
		buf_put(&ex, "", 0);
		for (n = cn ? cn->back.first : NULL; n; n = cmark_node_next(n)) {
			if ((S_is_prose(n) && S_excerpt_add(&ex, n)) || n == cn->back.last)
				break;
		}
		if (c->kind == CARD_REVERSED) {
			char *title = xconcat(c->front_text, " (reversed)", NULL);

			S_entry(b, "card", title, d->title, NULL, d->url, c->id, buf_str(&ex));
			free(title);
		} else
			S_entry(b, "card", c->front_text, d->title, NULL, d->url, c->id, buf_str(&ex));
	}
	buf_free(&ex);
}

void
search_questions(struct buf *b, const struct test *t)
{
	size_t j, k;

	for (j = 0; j < t->ntopics; j++)
		for (k = 0; k < t->topics[j]->nquestions; k++) {
			const struct question *q = &t->topics[j]->questions[k];

			S_entry(b, "question", q->stem_text, t->title, t->topics[j]->title,
			    t->url, q->id, "");
		}
}

void
search_begin(struct buf *b)
{
	buf_puts(b, "/* quizdeck's search index, written at build time and read by search.js. */\n"
	    "window.quizdeckSearch = [\n");
}

void
search_end(struct buf *b)
{
	buf_puts(b, "];\n");
}

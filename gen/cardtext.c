/*
 * cardtext: the text of a card as Pango layouts. See cardtext.h.
 *
 * The flattening is one walk with cmark's iterator that keeps its own
 * stack of lists, items and quotes on the heap, so deep nesting in the
 * input costs a loop, not C stack. Layouts are made on the first
 * cardtext_layout and only re-measured on later ones.
 */
#include "cardtext.h"
#include "cloze.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

#include "image.h"

#define MONO_SIZE 0.86           /* code blocks, relative to the text */
#define IMAGE_MAX_EM 16          /* a picture's height at most, in em of the text: it shrinks with it */
#define NOTE_SIZE 0.82           /* footnotes, relative to the text */
#define MAX_BARS 8               /* block-quote bars drawn beside one block */
#define SHRINK_STEP 0.25         /* pt between tries when code or a table shrinks to fit */
/* pt a line may run past its measure before it counts as too wide (rounding, never a glyph). */
#define WIDTH_SLACK 0.5
/* Greys, 0 black to 1 white. */
#define GREY_RULE 0.55
#define GREY_SHADE 0.935

enum blk_kind { BLK_TEXT, BLK_HEADING, BLK_CODE, BLK_RULE, BLK_TABLE, BLK_IMAGE };

struct table {
	int ncols, nrows;
	char **cells;                /* nrows * ncols markup strings; NULL where a row is short */
	int *header;                 /* per row */
	char *align;                 /* per column: 'l', 'c', 'r' or 0 */
	PangoLayout **lay;           /* nrows * ncols, made on first layout */
	double *colw, *rowh;         /* pt, at the last size laid out */
	double *minw;                /* per column: its widest piece that may not break, pt */
	double size;                 /* pt, the cells' size at the last layout (shrunk to fit) */
	double width;
	struct blk *pics;            /* the cells' images, in reading order, each under its cell's text */
	size_t npics, pics_cap;
};

struct bar {
	double at;                   /* em from the body's start edge */
	int quote;                   /* which block quote, to join bars across gaps */
};

/* One block of a back, with its place in the nesting. */
struct blk {
	enum blk_kind kind;
	double indent;               /* em from the body's start edge */
	double space;                /* em of space above it */
	struct bar bars[MAX_BARS];
	int nbars;
	char *marker;                /* list marker markup on an item's first block, or NULL */
	char *markup;                /* TEXT, HEADING: markup; CODE: plain text */
	struct table *table;         /* TABLE */
	int note;                    /* a block of the footnotes, set smaller */
	PangoLayout *layout, *mlayout;
	PangoLayout *cont;           /* CODE: the continuation mark, at the code's size */
	cmark_node *image;           /* IMAGE: its node; markup is its description, in italics */
	struct image *img;           /* IMAGE: the picture, or NULL: the description is set instead */
	const char *why;             /* IMAGE without a picture: why (image_load's reason) */
	double iw;                   /* IMAGE: drawn width, pt */
	int cell;                    /* IMAGE in a table: its cell, r * ncols + c */
	PangoAlignment align;        /* IMAGE set as its description: where its lines sit */
	double csize;                /* CODE: the code's size at the last layout, pt */
	double h;                    /* pt, at the last size laid out */
	double y;                    /* pt from the body's top */
};

struct cardtext {
	struct blk *v;
	size_t len, cap;
	size_t notes;                /* the first block of the footnotes (len: none) */
	double size, width;          /* of the last layout, pt */
	double height;               /* of the last layout, pt */
	cmark_node **lost;           /* what is not printed (cardtext_lost) */
	size_t nlost, lost_cap;
};

/*
 * What flattening a card finds besides its blocks: the footnotes it
 * references, by number in order of first reference, and what it
 * cannot print.
 */
struct found {
	int *refs;
	size_t nrefs, refs_cap;
	unsigned char *seen;         /* per footnote number: referenced already */
	size_t seen_cap;
	int quotes;                  /* block quotes so far, each its id */
	int collect;                 /* images are gathered in imgs, not set as their description */
	cmark_node **imgs;
	size_t nimgs, imgs_cap;
	struct cardtext *ct;
	int cloze;                   /* the deletion shown marked (cardtext_new_cloze), or 0 */
};

/* What the flattening walk is inside of. */
enum nest_kind { NEST_LIST, NEST_ITEM, NEST_QUOTE };
struct nest {
	enum nest_kind kind;
	double indent;               /* em, including this level */
	int ordered, tight, delim_paren;
	int next;                    /* NEST_LIST: the next item's number */
	int quote;                   /* NEST_QUOTE: its id */
};

/* ---- inline text ----------------------------------------------------- */

void
cardtext_escape(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			buf_puts(b, "&amp;");
		else if (c == '<')
			buf_puts(b, "&lt;");
		else if (c == '>')
			buf_puts(b, "&gt;");
		else if (c == '\'')
			buf_puts(b, "&#39;");
		else if (c == '"')
			buf_puts(b, "&quot;");
		else if (c >= 0x20 || c == '\n' || c == '\t')
			buf_putc(b, c);
	}
}

static const char *
S_literal(cmark_node *n)
{
	const char *s = cmark_node_get_literal(n);

	return s ? s : "";
}

static int
S_is(cmark_node *n, const char *type)
{
	const char *t = cmark_node_get_type_string(n);

	return t && strcmp(t, type) == 0;
}

static void
S_lose(struct found *fd, cmark_node *n)
{
	struct cardtext *ct = fd->ct;

	ct->lost = xgrow(ct->lost, &ct->lost_cap, ct->nlost + 1, sizeof(*ct->lost));
	ct->lost[ct->nlost++] = n;
}

/* Records footnote number lit (as cmark-gfm numbers them) as referenced. */
static void
S_ref(struct found *fd, const char *lit)
{
	long num = strtol(lit, NULL, 10);
	size_t old = fd->seen_cap;

	/* cmark-gfm numbers the definitions 1, 2, ...: never more than the file has. */
	if (num <= 0 || num > INT_MAX)
		return;
	fd->seen = xgrow(fd->seen, &fd->seen_cap, (size_t)num + 1, 1);
	memset(fd->seen + old, 0, fd->seen_cap - old);
	if (fd->seen[num])
		return;
	fd->seen[num] = 1;
	fd->refs = xgrow(fd->refs, &fd->refs_cap, fd->nrefs + 1, sizeof(*fd->refs));
	fd->refs[fd->nrefs++] = (int)num;
}

/*
 * Inline code as markup that breaks only at its spaces: `git diff
 * --staged` may go over two lines as `git diff` and `--staged`, never
 * after `--`, which would read as two commands.
 */
static void
S_code_words(struct buf *b, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, " ");

		if (n == 0) {
			buf_putc(b, ' ');
			s++;
			continue;
		}
		buf_puts(b, "<span allow_breaks=\"false\">");
		{
			char *word = xstrndup(s, n);

			cardtext_escape(b, word);
			free(word);
		}
		buf_puts(b, "</span>");
		s += n;
	}
}

/*
 * The inline content of a paragraph, heading or table cell as Pango
 * markup: emphasis and code keep their look, links become their text,
 * images their description; raw HTML is left out (it is not text).
 * What it references and loses goes to fd, when not NULL.
 */
static void
S_inline_found(cmark_node *container, struct buf *b, struct found *fd, int cloze,
    const struct cardtext_link_hook *hook)
{
	cmark_iter *it = cmark_iter_new(container);
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		int enter = ev == CMARK_EVENT_ENTER;

		if (n == container)
			continue;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
			cardtext_escape(b, S_literal(n));
			break;
		case CMARK_NODE_CODE:
			buf_puts(b, "<span font_family=\"" CARDTEXT_MONO_FAMILY "\" size=\"88%\""
			    " insert_hyphens=\"false\">");
			S_code_words(b, S_literal(n));
			buf_puts(b, "</span>");
			break;
		case CMARK_NODE_SOFTBREAK:
			buf_putc(b, ' ');
			break;
		case CMARK_NODE_LINEBREAK:
			/* A line separator: a new line within the same paragraph. */
			buf_puts(b, "\xe2\x80\xa8");
			break;
		case CMARK_NODE_IMAGE:
			if (fd && fd->collect) {
				/* Drawn after the paragraph: its description is not text here. */
				if (enter) {
					fd->imgs = xgrow(fd->imgs, &fd->imgs_cap, fd->nimgs + 1, sizeof(*fd->imgs));
					fd->imgs[fd->nimgs++] = n;
					cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				}
				break;
			}
			/* fall through */
		case CMARK_NODE_EMPH:
			buf_puts(b, enter ? "<i>" : "</i>");
			if (fd && enter && cmark_node_get_type(n) == CMARK_NODE_IMAGE)
				S_lose(fd, n);
			break;
		case CMARK_NODE_STRONG:
			buf_puts(b, enter ? "<b>" : "</b>");
			break;
		case CMARK_NODE_LINK:
			if (hook)
				hook->link(hook->ctx, n, enter, b);
			break;
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			/* An extension's node, so the iterator visits it twice. */
			if (!enter)
				break;
			buf_puts(b, "<sup>");
			cardtext_escape(b, S_literal(n));
			buf_puts(b, "</sup>");
			if (fd)
				S_ref(fd, S_literal(n));
			break;
		case CMARK_NODE_HTML_INLINE:
			if (fd)
				S_lose(fd, n);
			break;
		case CMARK_NODE_CUSTOM_INLINE:
			/* Deletion -cloze marked (weight and a rule: it prints in grey), or cloze blank. */
			if (cloze == 0 || cloze_number(n) != (cloze < 0 ? -cloze : cloze))
				break;
			if (cloze < 0)
				buf_puts(b, enter ? "<b><u>" : "</u></b>");
			else if (enter) {
				char *blank = cloze_blank(n);

				cardtext_escape(b, blank);
				free(blank);
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			}
			break;
		default:
			if (S_is(n, "strikethrough"))
				buf_puts(b, enter ? "<s>" : "</s>");
			break;
		}
	}
	cmark_iter_free(it);
}

static char *
S_inline(cmark_node *container, struct found *fd)
{
	struct buf b;

	buf_init(&b);
	S_inline_found(container, &b, fd, fd ? -fd->cloze : 0, NULL);
	buf_putc(&b, '\0');
	return buf_detach(&b);
}

char *
cardtext_inline(cmark_node *container)
{
	return S_inline(container, NULL);
}

char *
cardtext_inline_cloze(cmark_node *container, int cloze)
{
	struct buf b;

	buf_init(&b);
	S_inline_found(container, &b, NULL, cloze, NULL);
	buf_putc(&b, '\0');
	return buf_detach(&b);
}

void
cardtext_inline_put(cmark_node *container, struct buf *b, const struct cardtext_link_hook *hook)
{
	S_inline_found(container, b, NULL, 0, hook);
}

/* Code as plain text: tabs to 4-column stops, no final newline. */
static char *
S_code_text(const char *s)
{
	struct buf b;
	size_t col = 0;

	buf_init(&b);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\t') {
			do
				buf_putc(&b, ' ');
			while (++col % 4);
		} else if (c == '\n') {
			buf_putc(&b, '\n');
			col = 0;
		} else if (c >= 0x20) {
			buf_putc(&b, c);
			/* Columns count characters, not the bytes that continue one. */
			if ((c & 0xc0) != 0x80)
				col++;
		}
	}
	while (b.len > 0 && b.data[b.len - 1] == '\n')
		b.len--;
	buf_putc(&b, '\0');
	return buf_detach(&b);
}

/* ---- flattening a back into blocks ----------------------------------- */

static double
S_nest_indent(const struct nest *stack, size_t depth)
{
	return depth ? stack[depth - 1].indent : 0;
}

static const struct nest *
S_nearest_list(const struct nest *stack, size_t depth)
{
	while (depth > 0) {
		if (stack[depth - 1].kind == NEST_LIST)
			return &stack[depth - 1];
		depth--;
	}
	return NULL;
}

static struct blk *
S_emit(struct cardtext *out, enum blk_kind kind, const struct nest *stack,
    size_t depth, char **pending_marker)
{
	struct blk *b, *prev;
	const struct nest *list = S_nearest_list(stack, depth);
	size_t i;

	out->v = xgrow(out->v, &out->cap, out->len + 1, sizeof(*out->v));
	b = &out->v[out->len++];
	memset(b, 0, sizeof(*b));
	prev = out->len > 1 ? &out->v[out->len - 2] : NULL;
	b->kind = kind;
	b->note = out->len - 1 >= out->notes;
	b->indent = S_nest_indent(stack, depth);
	b->marker = *pending_marker;
	*pending_marker = NULL;
	for (i = 0; i < depth && b->nbars < MAX_BARS; i++)
		if (stack[i].kind == NEST_QUOTE) {
			b->bars[b->nbars].at = (i ? stack[i - 1].indent : 0) + 0.15;
			b->bars[b->nbars].quote = stack[i].quote;
			b->nbars++;
		}
	/* Space above, in em: a heading stands off what precedes it and binds to what follows. */
	if (!prev)
		b->space = 0;
	else if (kind == BLK_HEADING)
		b->space = 0.85;
	else if (prev->kind == BLK_HEADING)
		b->space = 0.3;
	else if (list && list->tight)
		b->space = 0.22;
	else
		b->space = 0.6;
	return b;
}

/* Markup that shows nothing: tags and white space only. */
static int
S_blank(const char *m)
{
	while (*m) {
		if (*m == '<') {
			const char *end = strchr(m, '>');

			if (!end)
				return 0;
			m = end + 1;
		} else if (*m == ' ' || *m == '\n' || *m == '\t')
			m++;
		else if (strncmp(m, "\xe2\x80\xa8", 3) == 0)
			m += 3;
		else
			return 0;
	}
	return 1;
}

/*
 * Makes b the image block of node img: its description, in italics,
 * stands in until it has a picture.
 */
static void
S_image_init(struct blk *b, cmark_node *img)
{
	char *alt = S_inline(img, NULL);

	b->kind = BLK_IMAGE;
	b->image = img;
	b->markup = xasprintf("<i>%s</i>", alt);
	free(alt);
}

/*
 * The inline content of n as markup, its images gathered in fd->imgs
 * (from 0) and left out: the caller draws them after it.
 */
static char *
S_inline_pictures(cmark_node *n, struct found *fd)
{
	char *markup;

	fd->collect = 1;
	fd->nimgs = 0;
	markup = S_inline(n, fd);
	fd->collect = 0;
	return markup;
}

static struct table *
S_table_new(cmark_node *node, struct found *fd)
{
	struct table *t = xcalloc(1, sizeof(*t));
	uint8_t *align = cmark_gfm_extensions_get_table_alignments(node);
	cmark_node *row, *cell;
	int r, c;

	t->ncols = cmark_gfm_extensions_get_table_columns(node);
	for (row = cmark_node_first_child(node); row; row = cmark_node_next(row))
		t->nrows++;
	if (t->ncols <= 0 || t->nrows <= 0) {
		t->ncols = t->nrows = 0;
		return t;
	}
	t->cells = xcalloc((size_t)t->nrows * t->ncols, sizeof(*t->cells));
	t->lay = xcalloc((size_t)t->nrows * t->ncols, sizeof(*t->lay));
	t->header = xcalloc((size_t)t->nrows, sizeof(*t->header));
	t->rowh = xcalloc((size_t)t->nrows, sizeof(*t->rowh));
	t->colw = xcalloc((size_t)t->ncols, sizeof(*t->colw));
	t->minw = xcalloc((size_t)t->ncols, sizeof(*t->minw));
	t->align = xcalloc((size_t)t->ncols, 1);
	for (c = 0; c < t->ncols; c++)
		t->align[c] = align ? (char)align[c] : 0;
	for (r = 0, row = cmark_node_first_child(node); row; row = cmark_node_next(row), r++) {
		t->header[r] = cmark_gfm_extensions_get_table_row_is_header(row);
		for (c = 0, cell = cmark_node_first_child(row); cell && c < t->ncols;
		    cell = cmark_node_next(cell), c++) {
			char *m = S_inline_pictures(cell, fd);
			size_t k;

			/* A cell that is only pictures has no line of text above them. */
			if (fd->nimgs > 0 && S_blank(m)) {
				free(m);
				m = NULL;
			}
			t->cells[r * t->ncols + c] = m;
			if (fd->nimgs > 0)
				t->pics = xgrow(t->pics, &t->pics_cap, t->npics + fd->nimgs, sizeof(*t->pics));
			for (k = 0; k < fd->nimgs; k++) {
				struct blk *p = &t->pics[t->npics++];

				memset(p, 0, sizeof(*p));
				S_image_init(p, fd->imgs[k]);
				p->cell = r * t->ncols + c;
			}
		}
	}
	return t;
}

static void
S_blk_free(struct blk *b)
{
	free(b->marker);
	free(b->markup);
	if (b->layout)
		g_object_unref(b->layout);
	if (b->mlayout)
		g_object_unref(b->mlayout);
	if (b->cont)
		g_object_unref(b->cont);
	image_free(b->img);
}

static void
S_table_free(struct table *t)
{
	size_t k;
	int i;

	if (!t)
		return;
	for (i = 0; i < t->nrows * t->ncols; i++) {
		free(t->cells[i]);
		if (t->lay[i])
			g_object_unref(t->lay[i]);
	}
	free(t->cells);
	free(t->lay);
	free(t->header);
	free(t->rowh);
	free(t->colw);
	free(t->minw);
	free(t->align);
	for (k = 0; k < t->npics; k++)
		S_blk_free(&t->pics[k]);
	free(t->pics);
	free(t);
}

void
cardtext_free(struct cardtext *bs)
{
	size_t i;

	if (!bs)
		return;
	for (i = 0; i < bs->len; i++) {
		S_table_free(bs->v[i].table);
		S_blk_free(&bs->v[i]);
	}
	free(bs->v);
	free(bs->lost);
	free(bs);
}

/* The marker of a list's next item: bullets by depth, numbers as written. */
static char *
S_marker(struct nest *list, int lists_above, cmark_node *item)
{
	static const char *bullets[] = { "\xe2\x80\xa2", "\xe2\x80\x93", "\xe2\x97\xa6" };

	if (S_is(item, "tasklist"))
		return xstrdup(cmark_gfm_extensions_get_tasklist_item_checked(item)
		    ? "\xe2\x98\x91" : "\xe2\x98\x90");
	if (list->ordered)
		return xasprintf("%d%c", list->next++, list->delim_paren ? ')' : '.');
	return xstrdup(bullets[lists_above % 3]);
}

/*
 * A paragraph or heading (kind): its text, then each of its images as a
 * block of its own (an image alone in its paragraph is just the image).
 */
static void
S_paragraph(struct cardtext *out, struct found *fd, enum blk_kind kind, cmark_node *n,
    const struct nest *stack, size_t depth, char **pending)
{
	char *markup = S_inline_pictures(n, fd);
	size_t k;

	if (fd->nimgs == 0 || !S_blank(markup))
		S_emit(out, kind, stack, depth, pending)->markup = markup;
	else
		free(markup);
	for (k = 0; k < fd->nimgs; k++)
		S_image_init(S_emit(out, BLK_IMAGE, stack, depth, pending), fd->imgs[k]);
}

/*
 * Flattens a range of blocks (a card's back, a footnote's body) into
 * blocks, noting in fd what it references and loses. The walk keeps its
 * own stack of lists, items and quotes (heap, not recursion);
 * paragraphs, headings and tables are read whole and the walk skips past
 * them. With a marker (which it takes), the range is set as one item
 * with that marker: a footnote and its number.
 */
static void
S_flatten(const struct block_range *range, struct cardtext *out, struct found *fd, char *marker)
{
	struct nest *stack = NULL;
	size_t depth = 0, cap = 0;
	char *pending = marker;
	int lists = 0;
	cmark_node *top;

	if (marker) {
		stack = xgrow(stack, &cap, 1, sizeof(*stack));
		memset(&stack[0], 0, sizeof(stack[0]));
		stack[0].kind = NEST_ITEM;
		stack[0].indent = 1.3;
		depth = 1;
	}

	for (top = range->first; top; top = cmark_node_next(top)) {
		cmark_iter *it = cmark_iter_new(top);
		cmark_event_type ev;

		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			int enter = ev == CMARK_EVENT_ENTER;
			struct blk *b;

			switch (cmark_node_get_type(n)) {
			case CMARK_NODE_LIST:
				if (!enter) {
					depth--;
					lists--;
					break;
				}
				stack = xgrow(stack, &cap, depth + 1, sizeof(*stack));
				memset(&stack[depth], 0, sizeof(stack[depth]));
				stack[depth].kind = NEST_LIST;
				stack[depth].indent = S_nest_indent(stack, depth);
				stack[depth].ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
				stack[depth].tight = cmark_node_get_list_tight(n);
				stack[depth].delim_paren = cmark_node_get_list_delim(n) == CMARK_PAREN_DELIM;
				stack[depth].next = cmark_node_get_list_start(n);
				depth++;
				lists++;
				break;
			case CMARK_NODE_ITEM:
				if (!enter) {
					/* An empty item still shows its marker. */
					if (pending)
						S_emit(out, BLK_TEXT, stack, depth, &pending)->markup = xstrdup("");
					depth--;
					break;
				}
				free(pending);
				pending = depth > 0 && stack[depth - 1].kind == NEST_LIST
				    ? S_marker(&stack[depth - 1], lists - 1, n) : NULL;
				stack = xgrow(stack, &cap, depth + 1, sizeof(*stack));
				memset(&stack[depth], 0, sizeof(stack[depth]));
				stack[depth].kind = NEST_ITEM;
				stack[depth].indent = S_nest_indent(stack, depth) +
				    (depth > 0 && stack[depth - 1].ordered ? 1.45 : 1.15);
				depth++;
				break;
			case CMARK_NODE_BLOCK_QUOTE:
				if (!enter) {
					depth--;
					break;
				}
				stack = xgrow(stack, &cap, depth + 1, sizeof(*stack));
				memset(&stack[depth], 0, sizeof(stack[depth]));
				stack[depth].kind = NEST_QUOTE;
				stack[depth].indent = S_nest_indent(stack, depth) + 0.95;
				stack[depth].quote = ++fd->quotes;
				depth++;
				break;
			case CMARK_NODE_PARAGRAPH:
				S_paragraph(out, fd, BLK_TEXT, n, stack, depth, &pending);
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				break;
			case CMARK_NODE_HEADING:
				/* A cloze card's text, answered, is set as text, its answer marked. */
				S_paragraph(out, fd, fd->cloze && n == range->first ? BLK_TEXT : BLK_HEADING,
				    n, stack, depth, &pending);
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				break;
			case CMARK_NODE_CODE_BLOCK:
				b = S_emit(out, BLK_CODE, stack, depth, &pending);
				b->markup = S_code_text(S_literal(n));
				break;
			case CMARK_NODE_THEMATIC_BREAK:
				S_emit(out, BLK_RULE, stack, depth, &pending);
				break;
			case CMARK_NODE_HTML_BLOCK:
				/* Raw HTML is not text: the caller says it is not printed. */
				S_lose(fd, n);
				break;
			case CMARK_NODE_FOOTNOTE_DEFINITION:
				/* Set after the text, where referenced (cardtext_new). */
				if (enter)
					cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				break;
			default:
				if (enter && S_is(n, "table")) {
					b = S_emit(out, BLK_TABLE, stack, depth, &pending);
					b->table = S_table_new(n, fd);
					cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
				}
				break;
			}
		}
		cmark_iter_free(it);
		if (top == range->last)
			break;
	}
	/* A footnote with no text still shows its number. */
	if (marker && pending == marker)
		S_emit(out, BLK_TEXT, stack, depth, &pending)->markup = xstrdup("");
	free(pending);
	free(stack);
}

/*
 * The footnotes fd references, after the text: a short rule, then each
 * note with its number, in order of first reference (a note may
 * reference another, which comes after it).
 */
static void
S_notes(struct cardtext *ct, struct found *fd, cmark_node *any)
{
	cmark_node *root = any, *c, **defs = NULL;
	size_t ndefs = 0, cap = 0, i;
	char *none = NULL;

	ct->notes = ct->len;
	if (fd->nrefs == 0 || any == NULL)
		return;
	/* The doc's definitions, in number order (cmark-gfm sorts them last in the document). */
	while (cmark_node_parent(root))
		root = cmark_node_parent(root);
	for (c = cmark_node_first_child(root); c; c = cmark_node_next(c))
		if (cmark_node_get_type(c) == CMARK_NODE_FOOTNOTE_DEFINITION) {
			defs = xgrow(defs, &cap, ndefs + 1, sizeof(*defs));
			defs[ndefs++] = c;
		}
	S_emit(ct, BLK_RULE, NULL, 0, &none)->space = 1.1;
	for (i = 0; i < fd->nrefs; i++) {
		struct block_range r;
		int num = fd->refs[i];

		if ((size_t)num > ndefs)
			continue;
		r.first = cmark_node_first_child(defs[num - 1]);
		r.last = cmark_node_last_child(defs[num - 1]);
		S_flatten(&r, ct, fd, xasprintf("%d", num));
	}
	free(defs);
}

static struct cardtext *
S_new(const struct block_range *back, cmark_node *front, int cloze)
{
	struct cardtext *ct = xcalloc(1, sizeof(*ct));
	struct found fd;

	memset(&fd, 0, sizeof(fd));
	fd.ct = ct;
	fd.cloze = cloze;
	ct->notes = SIZE_MAX;
	/* The front's images are its own to draw (cardtext_new_pictures); its notes are set here. */
	if (front)
		free(S_inline_pictures(front, &fd));
	S_flatten(back, ct, &fd, NULL);
	S_notes(ct, &fd, front ? front : back->first);
	free(fd.imgs);
	free(fd.refs);
	free(fd.seen);
	return ct;
}

struct cardtext *
cardtext_new(const struct block_range *back, cmark_node *front)
{
	return S_new(back, front, 0);
}

struct cardtext *
cardtext_new_cloze(const struct block_range *back, int cloze)
{
	return S_new(back, NULL, cloze);
}

struct cardtext *
cardtext_new_pictures(cmark_node *const *v, size_t n)
{
	struct cardtext *ct = xcalloc(1, sizeof(*ct));
	struct found fd;
	char *none = NULL;
	size_t i, k;

	memset(&fd, 0, sizeof(fd));
	fd.ct = ct;
	ct->notes = SIZE_MAX;
	for (i = 0; i < n; i++) {
		free(S_inline_pictures(v[i], &fd));
		for (k = 0; k < fd.nimgs; k++) {
			struct blk *b = S_emit(ct, BLK_IMAGE, NULL, 0, &none);

			S_image_init(b, fd.imgs[k]);
			b->align = PANGO_ALIGN_CENTER;
		}
	}
	free(fd.imgs);
	free(fd.refs);
	free(fd.seen);
	return ct;
}

char *
cardtext_inline_front(cmark_node *container, int cloze)
{
	struct cardtext ct;
	struct found fd;
	struct buf b;

	memset(&ct, 0, sizeof(ct));
	memset(&fd, 0, sizeof(fd));
	fd.ct = &ct;
	fd.collect = 1;
	buf_init(&b);
	S_inline_found(container, &b, &fd, cloze, NULL);
	buf_putc(&b, '\0');
	free(fd.imgs);
	free(fd.refs);
	free(fd.seen);
	free(ct.lost);
	return buf_detach(&b);
}

size_t
cardtext_lost(const struct cardtext *ct, cmark_node *const **v)
{
	*v = ct->lost;
	return ct->nlost;
}

/* The i-th image, in reading order (a table's after the blocks before it), or NULL. */
static struct blk *
S_image_blk(const struct cardtext *ct, size_t i)
{
	size_t k;

	for (k = 0; k < ct->len; k++) {
		const struct table *t = ct->v[k].table;

		if (ct->v[k].kind == BLK_IMAGE && i-- == 0)
			return &ct->v[k];
		if (t && i < t->npics)
			return &t->pics[i];
		if (t)
			i -= t->npics;
	}
	return NULL;
}

size_t
cardtext_image_count(const struct cardtext *ct)
{
	size_t k, n = 0;

	for (k = 0; k < ct->len; k++)
		n += ct->v[k].kind == BLK_IMAGE ? 1 : ct->v[k].table ? ct->v[k].table->npics : 0;
	return n;
}

cmark_node *
cardtext_image_node(const struct cardtext *ct, size_t i)
{
	struct blk *b = S_image_blk(ct, i);

	return b ? b->image : NULL;
}

void
cardtext_set_image(struct cardtext *ct, size_t i, struct image *img, const char *why)
{
	struct blk *b = S_image_blk(ct, i);

	if (!b) {
		image_free(img);
		return;
	}
	image_free(b->img);
	b->img = img;
	b->why = img ? NULL : why;
}

const char *
cardtext_image_why(const struct cardtext *ct, size_t i)
{
	struct blk *b = S_image_blk(ct, i);

	return b && !b->img ? (b->why ? b->why : "was not read") : NULL;
}

/* ---- laying out ------------------------------------------------------ */

/*
 * Bounds on what Pango is given, so that the time hostile content costs
 * grows with its length and no faster. Pango breaks a word that has no
 * break opportunity in time quadratic in its length: a zero-width space
 * after every CARDTEXT_MAX_RUN characters of an unbroken run keeps it
 * linear (no word is that long, and such a run is broken across lines
 * anyway). And no card shows CARDTEXT_MAX_CHARS characters even at the
 * smallest size (more than a whole A4 page holds at 7 pt): past that the
 * text is cut, with an ellipsis, and the card is reported as too long as
 * before. Tags of markup are always copied, so the markup stays balanced;
 * an entity counts as one character.
 */
#define CARDTEXT_MAX_RUN 200
#define CARDTEXT_MAX_CHARS 30000

static char *
S_bound_text(const char *s, int plain)
{
	struct buf b;
	size_t run = 0, total = 0;
	const char *end;

	buf_init(&b);
	buf_puts(&b, "");
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = 1;

		if (!plain && c == '<' && (end = strchr(s, '>')) != NULL) {
			buf_put(&b, s, (size_t)(end - s + 1));
			s = end + 1;
			continue;
		}
		if (!plain && c == '&' && (end = strchr(s, ';')) != NULL)
			n = (size_t)(end - s + 1);
		else
			while ((s[n] & 0xC0) == 0x80)
				n++;
		if (total < CARDTEXT_MAX_CHARS) {
			if (c == ' ' || c == '\n' || c == '\t')
				run = 0;
			else if (run++ >= CARDTEXT_MAX_RUN) {
				buf_puts(&b, "\xE2\x80\x8B");
				run = 1;
			}
			buf_put(&b, s, n);
		} else if (total == CARDTEXT_MAX_CHARS)
			buf_puts(&b, "\xE2\x80\xA6");
		total++;
		s += n;
	}
	return buf_detach(&b);
}

PangoLayout *
cardtext_new_layout(PangoContext *pango, const char *markup, int plain)
{
	PangoLayout *l = pango_layout_new(pango);
	char *text = S_bound_text(markup, plain);

	pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	if (plain)
		pango_layout_set_text(l, text, -1);
	else
		pango_layout_set_markup(l, text, -1);
	free(text);
	return l;
}

void
cardtext_set_font(PangoLayout *l, const PangoFontDescription *base, double size,
    PangoWeight weight)
{
	PangoFontDescription *fd = pango_font_description_copy_static(base);

	pango_font_description_set_size(fd, (int)lround(size * PANGO_SCALE));
	pango_font_description_set_weight(fd, weight);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
}

static double
S_width(PangoLayout *l)
{
	int pw, ph;

	pango_layout_get_size(l, &pw, &ph);
	return (double)pw / PANGO_SCALE;
}

static double
S_height(PangoLayout *l)
{
	int pw, ph;

	pango_layout_get_size(l, &pw, &ph);
	return (double)ph / PANGO_SCALE;
}

static double
S_baseline(PangoLayout *l)
{
	return (double)pango_layout_get_baseline(l) / PANGO_SCALE;
}

static int
S_rtl(PangoLayout *l)
{
	PangoLayoutLine *line = pango_layout_get_line_readonly(l, 0);

	return line && line->resolved_dir == PANGO_DIRECTION_RTL;
}

/*
 * Sets image block b for text of `size` pt in a column `room` pt wide
 * (HUGE_VAL: unbounded, its natural size): its picture never larger than
 * itself, as wide as the column at most and shrinking with the text; or,
 * without one, its description. Returns its height.
 */
static double
S_image_layout(struct blk *b, const struct cardtext_fonts *f, double size, double room)
{
	double iw, ih, scale;

	if (!b->img) {
		if (!b->layout)
			b->layout = cardtext_new_layout(f->pango, b->markup, 0);
		cardtext_set_font(b->layout, f->text, size, PANGO_WEIGHT_NORMAL);
		pango_layout_set_width(b->layout, room == HUGE_VAL ? -1 : (int)(room * PANGO_SCALE));
		pango_layout_set_alignment(b->layout, b->align);
		b->iw = S_width(b->layout);
		b->h = S_height(b->layout);
		return b->h;
	}
	image_size(b->img, &iw, &ih);
	scale = fmin(1, fmin(room / iw, IMAGE_MAX_EM * size / ih));
	b->iw = iw * scale;
	b->h = ih * scale;
	return b->h;
}

void
cardtext_table_columns(double *colw, const double *minw, int ncols, double room)
{
	char *fixed;
	double sum = 0;
	int c, open = ncols, changed = 1;

	for (c = 0; c < ncols; c++)
		sum += colw[c];
	if (sum <= room)
		return;
	fixed = xcalloc((size_t)ncols + 1, 1);
	while (changed && open > 0) {
		double share = room / open;

		changed = 0;
		for (c = 0; c < ncols; c++)
			if (!fixed[c] && (colw[c] <= share || (minw && minw[c] >= share))) {
				/* Only a floor (minw) fixes a column wider than its share. */
				if (colw[c] > share)
					colw[c] = minw[c];
				fixed[c] = 1;
				room -= colw[c];
				open--;
				changed = 1;
			}
	}
	for (c = 0; c < ncols; c++)
		if (!fixed[c])
			colw[c] = room / open;
	free(fixed);
}

/*
 * Sets the cells at `size`: each column's natural width (colw) and its
 * widest piece that may not break (minw). Returns the natural width of
 * the whole table's text: pictures widen their columns, but as they
 * scale to their column's width they never make the table too wide.
 */
static double
S_table_measure(const struct cardtext_fonts *f, struct table *t, double size)
{
	double total = 0.9 * size * (t->ncols - 1);
	int r, c;
	size_t k;

	for (c = 0; c < t->ncols; c++)
		t->colw[c] = t->minw[c] = 0;
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			PangoLayout **l = &t->lay[r * t->ncols + c];
			const char *m = t->cells[r * t->ncols + c];

			if (!m)
				continue;
			if (!*l)
				*l = cardtext_new_layout(f->pango, m, 0);
			cardtext_set_font(*l, f->text, size, t->header[r] ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
			/* At width 0 every line is one piece that may not break. */
			pango_layout_set_width(*l, 0);
			t->minw[c] = fmax(t->minw[c], S_width(*l));
			pango_layout_set_width(*l, -1);
			t->colw[c] = fmax(t->colw[c], S_width(*l));
		}
	for (c = 0; c < t->ncols; c++)
		total += t->colw[c];
	for (k = 0; k < t->npics; k++) {
		struct blk *p = &t->pics[k];

		c = p->cell % t->ncols;
		S_image_layout(p, f, size, HUGE_VAL);
		t->colw[c] = fmax(t->colw[c], p->iw);
		if (!p->img) {
			pango_layout_set_width(p->layout, 0);
			t->minw[c] = fmax(t->minw[c], S_width(p->layout));
		}
	}
	return total;
}

/* The next size to try, below `size` and no less than `least`, on a grid of SHRINK_STEP, for something natural pt wide at `size` to fit `room` pt. */
static double
S_shrink(double size, double least, double natural, double room)
{
	double s = size;

	if (natural <= room || size <= least)
		return size;
	/* Type scales almost in proportion: start there, on the grid below. */
	s = SHRINK_STEP * floor(size * room / natural / SHRINK_STEP);
	return fmax(least, fmin(s, size - SHRINK_STEP));
}

/* A column's alignment ('l', 'c', 'r' or 0) as Pango's. */
static PangoAlignment
S_align(char a)
{
	return a == 'r' ? PANGO_ALIGN_RIGHT : a == 'c' ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT;
}

static double
S_table_layout(const struct cardtext_fonts *f, struct table *t, double size, double width)
{
	double least = fmin(size, f->min > 0 ? f->min : size);
	double natural = S_table_measure(f, t, size), gap, pady, h;
	int r, c;
	size_t k;

	/* Too wide: smaller, down to the smallest size, before any cell wraps. */
	while (natural > width && size > least) {
		size = S_shrink(size, least, natural, width);
		natural = S_table_measure(f, t, size);
	}
	t->size = size;
	gap = 0.9 * size;
	pady = 0.22 * size;
	cardtext_table_columns(t->colw, t->minw, t->ncols, width - gap * (t->ncols - 1));
	for (r = 0; r < t->nrows; r++) {
		t->rowh[r] = 0;
		for (c = 0; c < t->ncols; c++) {
			PangoLayout *l = t->lay[r * t->ncols + c];

			if (!l)
				continue;
			pango_layout_set_width(l, (int)(t->colw[c] * PANGO_SCALE));
			pango_layout_set_alignment(l, S_align(t->align[c]));
			t->rowh[r] = fmax(t->rowh[r], S_height(l));
		}
	}
	/* A cell's pictures stand under its text, each its column's width at most. */
	for (k = 0; k < t->npics; k++) {
		struct blk *p = &t->pics[k];
		PangoLayout *l = t->lay[p->cell];
		double above = k > 0 && t->pics[k - 1].cell == p->cell ? t->pics[k - 1].y + t->pics[k - 1].h
		    : l ? S_height(l) : 0;

		p->y = above > 0 ? above + 0.3 * size : 0;
		p->align = S_align(t->align[p->cell % t->ncols]);
		S_image_layout(p, f, size, t->colw[p->cell % t->ncols]);
		t->rowh[p->cell / t->ncols] = fmax(t->rowh[p->cell / t->ncols], p->y + p->h);
	}
	h = 0;
	for (r = 0; r < t->nrows; r++) {
		t->rowh[r] += 2 * pady;
		h += t->rowh[r];
	}
	/*
	 * A column narrower than one letter still holds that letter: widen it,
	 * and the caller sees the table overflow.
	 */
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if (t->lay[r * t->ncols + c])
				t->colw[c] = fmax(t->colw[c], S_width(t->lay[r * t->ncols + c]));
	for (k = 0; k < t->npics; k++)
		if (!t->pics[k].img)
			t->colw[t->pics[k].cell % t->ncols] = fmax(t->colw[t->pics[k].cell % t->ncols],
			    S_width(t->pics[k].layout));
	t->width = gap * (t->ncols - 1);
	for (c = 0; c < t->ncols; c++)
		t->width += t->colw[c];
	return h;
}

/*
 * The attributes of a code block's layout l, set unwrapped at its size:
 * no hyphens (one would read as code), and no break inside a word (a
 * run without spaces) that fits a line of `room` pt, so that lines wrap
 * at spaces where they can; a longer word breaks where it must, marked
 * like every wrap.
 */
static void
S_code_attrs(PangoLayout *l, double room)
{
	const char *text = pango_layout_get_text(l);
	PangoAttrList *attrs = pango_attr_list_new();
	size_t i = 0, start, last;

	pango_attr_list_insert(attrs, pango_attr_insert_hyphens_new(FALSE));
	pango_layout_set_attributes(l, attrs);
	pango_layout_set_width(l, -1);
	while (text[i]) {
		PangoRectangle a, z;
		PangoAttribute *keep;

		if (text[i] == ' ' || text[i] == '\n') {
			i++;
			continue;
		}
		start = last = i;
		while (text[i] && text[i] != ' ' && text[i] != '\n') {
			if (((unsigned char)text[i] & 0xc0) != 0x80)
				last = i;
			i++;
		}
		pango_layout_index_to_pos(l, (int)start, &a);
		pango_layout_index_to_pos(l, (int)last, &z);
		if (fabs((double)(z.x + z.width - a.x)) / PANGO_SCALE > room)
			continue;
		keep = pango_attr_allow_breaks_new(FALSE);
		keep->start_index = (guint)start;
		keep->end_index = (guint)i;
		pango_attr_list_insert(attrs, keep);
	}
	pango_layout_set_attributes(l, attrs);
	pango_attr_list_unref(attrs);
}

/*
 * Sets code block b for text of `size` pt in a box `room` pt wide: its
 * own size shrunk until its longest line fits (down to f->min), then
 * lines that still do not fit wrapped, each continuation indented by the
 * width of the mark drawn before it. Returns its height.
 */
static double
S_code_layout(struct blk *b, const struct cardtext_fonts *f, double size, double room)
{
	double cs = size * MONO_SIZE, least = fmin(cs, f->min > 0 ? f->min : cs), natural, mark;

	if (!b->layout) {
		b->layout = cardtext_new_layout(f->pango, b->markup, 1);
		/* Code reads left to right whatever its strings hold. */
		pango_layout_set_auto_dir(b->layout, FALSE);
		b->cont = cardtext_new_layout(f->pango, CARDTEXT_CONTINUED, 1);
	}
	pango_layout_set_indent(b->layout, 0);
	pango_layout_set_attributes(b->layout, NULL);
	pango_layout_set_width(b->layout, -1);
	cardtext_set_font(b->layout, f->mono, cs, PANGO_WEIGHT_NORMAL);
	natural = S_width(b->layout);
	while (natural > room && cs > least) {
		cs = S_shrink(cs, least, natural, room);
		cardtext_set_font(b->layout, f->mono, cs, PANGO_WEIGHT_NORMAL);
		natural = S_width(b->layout);
	}
	b->csize = cs;
	cardtext_set_font(b->cont, f->mono, cs, PANGO_WEIGHT_NORMAL);
	mark = S_width(b->cont) + 0.35 * cs;
	if (natural > room) {
		S_code_attrs(b->layout, room - mark);
		pango_layout_set_width(b->layout, (int)(room * PANGO_SCALE));
		/* A hanging indent: the first line of each code line full width, the rest after the mark. */
		pango_layout_set_indent(b->layout, -(int)(mark * PANGO_SCALE));
	}
	return S_height(b->layout);
}

double
cardtext_layout(struct cardtext *bs, const struct cardtext_fonts *f, double size, double width)
{
	double y = 0;
	size_t i;
	int too_wide = 0;

	bs->size = size;
	bs->width = width;
	for (i = 0; i < bs->len; i++) {
		struct blk *b = &bs->v[i];
		double s = b->note ? size * NOTE_SIZE : size;
		double indent = fmin(b->indent * s, width / 2);
		double bw = width - indent;

		if (i > 0)
			y += b->space * s;
		b->y = y;
		if (b->kind == BLK_IMAGE && b->img) {
			y += S_image_layout(b, f, s, bw);
			continue;
		}
		switch (b->kind) {
		case BLK_IMAGE:
			/* Its description, no picture (that is above). */
			b->h = S_image_layout(b, f, s, bw);
			if (S_width(b->layout) > bw + WIDTH_SLACK)
				too_wide = 1;
			break;
		case BLK_TEXT:
		case BLK_HEADING:
			if (!b->layout)
				b->layout = cardtext_new_layout(f->pango, b->markup, 0);
			cardtext_set_font(b->layout, f->text, b->kind == BLK_HEADING ? s * 1.12 : s,
			    b->kind == BLK_HEADING ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
			pango_layout_set_width(b->layout, (int)(bw * PANGO_SCALE));
			b->h = S_height(b->layout);
			/* A word of inline code longer than the line does not break. */
			if (S_width(b->layout) > bw + WIDTH_SLACK)
				too_wide = 1;
			break;
		case BLK_CODE:
			b->h = S_code_layout(b, f, s, bw - s) + 0.9 * s;
			if (S_width(b->layout) > bw - s + WIDTH_SLACK)
				too_wide = 1;
			break;
		case BLK_RULE:
			b->h = 0.6 * s;
			break;
		case BLK_TABLE:
			b->h = S_table_layout(f, b->table, s, bw);
			if (b->table->width > bw + 0.01)
				too_wide = 1;
			break;
		}
		if (b->marker) {
			if (!b->mlayout)
				b->mlayout = cardtext_new_layout(f->pango, b->marker, 0);
			cardtext_set_font(b->mlayout, f->text, s, PANGO_WEIGHT_NORMAL);
		}
		y += b->h;
	}
	bs->height = y;
	return too_wide ? HUGE_VAL : y;
}

/* ---- drawing --------------------------------------------------------- */

void
cardtext_grey(cairo_t *cr, double g)
{
	cairo_set_source_rgb(cr, g, g, g);
}

void
cardtext_show(cairo_t *cr, PangoLayout *l, double x, double y)
{
	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, l);
}

void
cardtext_hline(cairo_t *cr, double x0, double x1, double y, double width)
{
	cairo_set_line_width(cr, width);
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_stroke(cr);
}

/*
 * Draws image block b as last laid out in a box at (x, y) `room` pt
 * wide: its picture placed across the box as b->align says (centred
 * when `centre`), or its description.
 */
static void
S_image_draw(const struct blk *b, cairo_t *cr, double x, double y, double room, int centre)
{
	double at = centre || b->align == PANGO_ALIGN_CENTER ? 0.5 : b->align == PANGO_ALIGN_RIGHT ? 1 : 0;

	if (b->img)
		image_draw(b->img, cr, x + (room - b->iw) * at, y, b->iw, b->h);
	else
		cardtext_show(cr, b->layout, x, y);
}

static void
S_table_draw(cairo_t *cr, const struct table *t, double x, double y, double size)
{
	double gap = 0.9 * size, pady = 0.22 * size, cx;
	size_t k = 0;
	int r, c;

	cairo_set_source_rgb(cr, 0, 0, 0);
	cardtext_hline(cr, x, x + t->width, y, 0.6);
	for (r = 0; r < t->nrows; r++) {
		cx = x;
		for (c = 0; c < t->ncols; c++) {
			PangoLayout *l = t->lay[r * t->ncols + c];

			if (l)
				cardtext_show(cr, l, cx, y + pady);
			for (; k < t->npics && t->pics[k].cell == r * t->ncols + c; k++)
				S_image_draw(&t->pics[k], cr, cx, y + pady + t->pics[k].y, t->colw[c], 0);
			cx += t->colw[c] + gap;
		}
		y += t->rowh[r];
		/* Booktabs: a light rule under the header, heavier ones top and bottom. */
		if (t->header[r] && r + 1 < t->nrows)
			cardtext_hline(cr, x, x + t->width, y, 0.35);
	}
	cardtext_hline(cr, x, x + t->width, y, 0.6);
}

/* The continuation mark before every line a code block's line wrapped onto; (x, y) is the layout's origin. */
static void
S_code_marks(cairo_t *cr, const struct blk *b, double x, double y)
{
	PangoLayoutIter *it = pango_layout_get_iter(b->layout);
	double mark_base = S_baseline(b->cont);

	do {
		PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);

		if (line && !line->is_paragraph_start)
			cardtext_show(cr, b->cont, x,
			    y + (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE - mark_base);
	} while (pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
}

void
cardtext_draw(const struct cardtext *bs, cairo_t *cr, double x, double top, double bottom)
{
	double width = bs->width;
	/* The footnotes, moved down so that they end at bottom. */
	double notes_shift = bs->notes < bs->len ? fmax(0, bottom - (top + bs->height)) : 0;
	size_t i;
	int k;

	for (i = 0; i < bs->len; i++) {
		const struct blk *b = &bs->v[i];
		const struct blk *prev = i > 0 ? &bs->v[i - 1] : NULL;
		double size = b->note ? bs->size * NOTE_SIZE : bs->size;
		double indent = fmin(b->indent * size, width / 2);
		double shift = i >= bs->notes ? notes_shift : 0;
		double y = top + shift + b->y;
		int text = b->kind == BLK_TEXT || b->kind == BLK_HEADING || (b->kind == BLK_IMAGE && !b->img);
		int rtl = text && S_rtl(b->layout);
		double bx = rtl ? x : x + indent;   /* the block's box, left edge */
		double bw = width - indent;
		double first_baseline = 0;

		cairo_set_source_rgb(cr, 0, 0, 0);
		switch (b->kind) {
		case BLK_IMAGE:
		case BLK_TEXT:
		case BLK_HEADING:
			/* An image without its picture is set as its description. */
			if (b->img) {
				S_image_draw(b, cr, bx, y, bw, 1);
				break;
			}
			cardtext_show(cr, b->layout, bx, y);
			first_baseline = S_baseline(b->layout);
			break;
		case BLK_CODE:
			cardtext_grey(cr, GREY_SHADE);
			cairo_rectangle(cr, bx, y, bw, b->h);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0, 0, 0);
			cardtext_show(cr, b->layout, bx + 0.5 * size, y + 0.45 * size);
			S_code_marks(cr, b, bx + 0.5 * size, y + 0.45 * size);
			first_baseline = 0.45 * size + S_baseline(b->layout);
			break;
		case BLK_RULE:
			cardtext_grey(cr, GREY_RULE);
			if (i == bs->notes)
				/* A book's footnote rule: short, at the start of the line. */
				cardtext_hline(cr, x, x + fmin(width * 0.3, 4 * bs->size), y + b->h / 2, 0.4);
			else
				cardtext_hline(cr, bx + bw * 0.35, bx + bw * 0.65, y + b->h / 2, 0.5);
			break;
		case BLK_TABLE:
			S_table_draw(cr, b->table, bx, y, b->table->size);
			if (b->table->nrows > 0 && b->table->lay[0])
				first_baseline = 0.22 * b->table->size + S_baseline(b->table->lay[0]);
			break;
		}
		if (b->mlayout) {
			double mw = S_width(b->mlayout), gap = 0.4 * size;
			double my = y + first_baseline - S_baseline(b->mlayout);

			cairo_set_source_rgb(cr, 0, 0, 0);
			cardtext_show(cr, b->mlayout, rtl ? bx + bw + gap : bx - gap - mw, my);
		}
		/* Quote bars, joined to the previous block's where it is in the same quote. */
		cardtext_grey(cr, GREY_RULE);
		for (k = 0; k < b->nbars; k++) {
			double bar = fmin(b->bars[k].at * size, width / 2);
			double bar_x = rtl ? x + width - bar : x + bar;
			double y0 = y;
			int j;

			for (j = 0; prev && j < prev->nbars; j++)
				if (prev->bars[j].quote == b->bars[k].quote)
					y0 = top + shift + prev->y + prev->h;
			cairo_set_line_width(cr, 1.2);
			cairo_move_to(cr, bar_x, y0);
			cairo_line_to(cr, bar_x, y + b->h);
			cairo_stroke(cr);
		}
	}
}

/*
 * markdown: cmark-gfm with GitHub's extensions, heading attributes,
 * plain text and GitHub-compatible slugs.
 *
 * Nothing here recurses: trees are walked with cmark's iterator, so a
 * document nested ten thousand block quotes deep costs only its size.
 */
#define _GNU_SOURCE /* memmem */
#include "markdown.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm/node.h>

#include "util.h"

static const char *const md_extension_names[] = {
	"table", "tasklist", "strikethrough", "autolink"
};
#define MD_NEXTENSIONS (sizeof(md_extension_names) / sizeof(md_extension_names[0]))

/*
 * md_parse runs on several threads at once. cmark-gfm (0.29) registers
 * its extensions in process-wide lists, once; and while a parser parses
 * inlines (in cmark_parser_finish) it marks the extensions' characters
 * ('~', ':', 'w') in a process-wide table, and unmarks them when done: a
 * parser finishing beside another would unmark them under its feet (a
 * known upstream bug: github/cmark-gfm pull request 176). So the inline
 * pass holds S_inlines; feeding the parser, the block pass, runs side by
 * side.
 */
static pthread_once_t S_registered = PTHREAD_ONCE_INIT;
static pthread_mutex_t S_inlines = PTHREAD_MUTEX_INITIALIZER;

static cmark_parser *
S_parser(cmark_mem *mem)
{
	cmark_parser *p = cmark_parser_new_with_mem(MD_PARSE_OPTIONS, mem);
	size_t i;

	for (i = 0; i < MD_NEXTENSIONS; i++) {
		cmark_syntax_extension *e = cmark_find_syntax_extension(md_extension_names[i]);

		if (e != NULL)
			cmark_parser_attach_syntax_extension(p, e);
	}
	return p;
}

static void
S_register(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

/* s with every invalid UTF-8 sequence replaced by U+FFFD, or NULL if it was valid. */
static char *
S_valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0, i = 0, k;
	int line, col;
	struct buf b;
	uint32_t c;

	if (s == NULL || utf8_validate(s, n, &line, &col))
		return NULL;
	buf_init(&b);
	while (i < n) {
		if ((k = utf8_decode(p + i, n - i, &c)) == 0) {
			buf_puts(&b, "\xEF\xBF\xBD");
			i++;
			continue;
		}
		buf_put(&b, p + i, k);
		i += k;
	}
	return buf_detach(&b);
}

/*
 * One of n's texts, read (which makes it n's own copy: cmark_chunk_to_cstr)
 * and set again only where S_valid_utf8 had to repair it.
 */
static void
S_repair(cmark_node *n, const char *(*get)(cmark_node *), int (*set)(cmark_node *, const char *))
{
	char *fixed = S_valid_utf8(get(n));

	if (fixed != NULL) {
		set(n, fixed);
		free(fixed);
	}
}

/*
 * One walk over a new tree; returns how many nodes it has.
 *
 * cmark-gfm 0.29 can cut a character in two: a "[^" that is no footnote
 * and spans lines ("[^\n日>]") leaves the text "[^\n\xe6", invalid UTF-8
 * out of valid input, which broke the page's encoding and made Pango drop
 * a card's whole back. Every literal, URL, title and info string is made
 * valid again (fuzz_cardtext found it), and so becomes a copy of its own.
 *
 * A parsed block keeps the text it was parsed from (node->content) for as
 * long as it lives, though only its children's literals, copies now, are
 * read after: it is dropped once the walk leaves the block, so a kept tree
 * does not hold its source twice. The field is in cmark-gfm's node.h,
 * installed with the library by the same package, so the layout is the
 * library's own.
 */
static size_t
S_finish_tree(cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	size_t nodes = 0;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);

		if (ev == CMARK_EVENT_EXIT) {
			cmark_strbuf_free(&n->content);
			continue;
		}
		nodes++;
		S_repair(n, cmark_node_get_literal, cmark_node_set_literal);
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_LINK:
		case CMARK_NODE_IMAGE:
			S_repair(n, cmark_node_get_url, cmark_node_set_url);
			S_repair(n, cmark_node_get_title, cmark_node_set_title);
			break;
		case CMARK_NODE_CODE_BLOCK:
			S_repair(n, cmark_node_get_fence_info, cmark_node_set_fence_info);
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	cmark_strbuf_free(&root->content);
	return nodes;
}

cmark_node *
md_parse(const char *md, size_t len)
{
	return md_parse_counted(md, len, NULL);
}

static cmark_node *S_parse(const char *md, size_t len, size_t *nodes, cmark_mem *mem);

/* ---- scratch trees ----------------------------------------------------- */

/*
 * A tree that lives only within one job (parsed, used and dropped in
 * it) is allocated from a scratch arena: bump allocation, no free of its
 * own, everything released at once, because cmark allocates and frees a
 * block for every node and string it makes. cmark_mem has no context
 * pointer, so the arena in use is the thread's current one, and every
 * allocation into such a tree (parsing, and later edits: heading
 * attributes, repaired literals) must happen on the thread that parsed it
 * while the arena is still its current one: from md_parse_scratch to
 * md_scratch_free, with no other arena begun between.
 *
 * Each block has a header: the arena's blocks say so and are never freed
 * on their own; a block made when no arena was current is an ordinary
 * malloc; a pointer with neither mark came from elsewhere and goes to
 * free. Under AddressSanitizer every block is its own allocation, so
 * overruns are still caught.
 */
#define SCRATCH_ARENA 0x5163726174636841ULL   /* header marks */
#define SCRATCH_HEAP 0x5163726174636848ULL
#define SCRATCH_CHUNK (UTIL_ASAN ? 0 : 256 * 1024)

struct scratch_head {
	uint64_t mark;
	size_t size;               /* bytes after the header */
};

struct scratch_chunk {
	struct scratch_chunk *next;
	size_t size, used;         /* bytes after this header */
	max_align_t align[];
};

struct md_scratch {
	struct scratch_chunk *chunks;  /* the newest first; bump allocation in it */
	void *last;                    /* the newest block: it may grow in place */
	struct md_scratch *prev;       /* the thread's current arena before this one */
};

static _Thread_local struct md_scratch *S_current;

static size_t
S_round(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/*
 * A chunk with room for a block of need bytes, when the one in use has
 * none: a new chunk in front, or behind it for a block too large to share
 * one (the one in use keeps its room).
 */
static struct scratch_chunk *
S_scratch_room(struct md_scratch *a, size_t need)
{
	size_t csize = need > SCRATCH_CHUNK / 4 ? need : SCRATCH_CHUNK;
	struct scratch_chunk *c;

	if ((c = malloc(sizeof(*c) + csize)) == NULL)
		return NULL;
	c->size = csize;
	c->used = 0;
	if (a->chunks && need > SCRATCH_CHUNK / 4) {
		c->next = a->chunks->next;
		a->chunks->next = c;
	} else {
		c->next = a->chunks;
		a->chunks = c;
	}
	return c;
}

/* Nearly every call is a bump in the chunk in use: kept small, for the compiler to inline. */
static inline void *
S_scratch_alloc(size_t size)
{
	struct md_scratch *a = S_current;
	struct scratch_chunk *c;
	struct scratch_head *h;
	size_t need;

	if (size > SIZE_MAX / 2)
		return NULL;
	need = sizeof(*h) + S_round(size);
	if (a == NULL) {
		if ((h = malloc(need)) == NULL)
			return NULL;
		h->mark = SCRATCH_HEAP;
		h->size = size;
		return h + 1;
	}
	c = a->chunks;
	if ((c == NULL || c->size - c->used < need) && (c = S_scratch_room(a, need)) == NULL)
		return NULL;
	h = (struct scratch_head *)((char *)c->align + c->used);
	c->used += need;
	h->mark = SCRATCH_ARENA;
	h->size = size;
	a->last = h + 1;
	return h + 1;
}

static void *
S_scratch_calloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > SIZE_MAX / 2 / size)
		return NULL;
	if ((p = S_scratch_alloc(n * size)) != NULL)
		memset(p, 0, n * size);
	return p;
}

static void *
S_scratch_realloc(void *p, size_t size)
{
	struct scratch_head *h;
	struct scratch_chunk *c;
	void *q;

	if (p == NULL)
		return S_scratch_alloc(size);
	h = (struct scratch_head *)p - 1;
	if (h->mark == SCRATCH_HEAP) {
		if ((h = realloc(h, sizeof(*h) + S_round(size))) == NULL)
			return NULL;
		h->size = size;
		return h + 1;
	}
	if (h->mark != SCRATCH_ARENA)
		return realloc(p, size);
	/* The newest block of the chunk in use grows where it is (a strbuf filling up). */
	if (size <= h->size)
		return p;
	c = S_current ? S_current->chunks : NULL;
	if (c && S_current->last == p &&
	    (char *)p + S_round(h->size) == (char *)c->align + c->used &&
	    S_round(size) - S_round(h->size) <= c->size - c->used) {
		c->used += S_round(size) - S_round(h->size);
		h->size = size;
		return p;
	}
	if ((q = S_scratch_alloc(size)) == NULL)
		return NULL;
	memcpy(q, p, h->size < size ? h->size : size);
	return q;
}

static void
S_scratch_free(void *p)
{
	struct scratch_head *h;

	if (p == NULL)
		return;
	h = (struct scratch_head *)p - 1;
	if (h->mark == SCRATCH_HEAP)
		free(h);
	else if (h->mark != SCRATCH_ARENA)
		free(p);
	/* An arena's block goes with the arena. */
}

static cmark_mem S_scratch_mem = { S_scratch_calloc, S_scratch_realloc, S_scratch_free };

cmark_node *
md_parse_scratch(const char *md, size_t len, size_t *nodes, struct md_scratch **scratch)
{
	struct md_scratch *a = xcalloc(1, sizeof(*a));

	a->prev = S_current;
	S_current = a;
	*scratch = a;
	return S_parse(md, len, nodes, &S_scratch_mem);
}

void
md_scratch_free(struct md_scratch *a)
{
	struct scratch_chunk *c, *next;

	if (a == NULL)
		return;
	if (S_current == a)
		S_current = a->prev;
	for (c = a->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

cmark_node *
md_parse_counted(const char *md, size_t len, size_t *nodes)
{
	return S_parse(md, len, nodes, cmark_get_default_mem_allocator());
}

static cmark_node *
S_parse(const char *md, size_t len, size_t *nodes, cmark_mem *mem)
{
	cmark_parser *p;
	cmark_node *doc;
	size_t n;

	pthread_once(&S_registered, S_register);
	p = S_parser(mem);
	cmark_parser_feed(p, md, len);
	pthread_mutex_lock(&S_inlines);
	doc = cmark_parser_finish(p);
	pthread_mutex_unlock(&S_inlines);
	cmark_parser_free(p);
	if (doc == NULL) {
		/* cmark returns NULL only when it ran out of memory. */
		fprintf(stderr, "quizdeck: out of memory parsing Markdown\n");
		abort();
	}
	n = S_finish_tree(doc);
	if (nodes)
		*nodes = n;
	return doc;
}

cmark_llist *
md_syntax_extensions(void)
{
	static cmark_llist *list;
	size_t i;

	if (list != NULL)
		return list;
	pthread_once(&S_registered, S_register);
	for (i = 0; i < MD_NEXTENSIONS; i++) {
		cmark_syntax_extension *e = cmark_find_syntax_extension(md_extension_names[i]);

		if (e != NULL)
			list = cmark_llist_append(cmark_get_default_mem_allocator(), list, e);
	}
	return list;
}

int
md_is_task_item(cmark_node *node)
{
	const char *t;

	if (node == NULL || cmark_node_get_type(node) != CMARK_NODE_ITEM)
		return 0;
	t = cmark_node_get_type_string(node);
	return t != NULL && strcmp(t, "tasklist") == 0;
}

int
md_task_item_checked(cmark_node *node)
{
	return md_is_task_item(node) && cmark_gfm_extensions_get_tasklist_item_checked(node);
}

/* Attributes. */

void
md_attrs_free(struct md_attrs *a)
{
	size_t i;

	free(a->id);
	for (i = 0; i < a->nclasses; i++)
		free(a->classes[i]);
	free(a->classes);
	for (i = 0; i < a->npairs; i++) {
		free(a->keys[i]);
		free(a->values[i]);
	}
	free(a->keys);
	free(a->values);
	memset(a, 0, sizeof(*a));
}

int
md_attrs_has_class(const struct md_attrs *a, const char *cls)
{
	size_t i;

	for (i = 0; i < a->nclasses; i++)
		if (strcmp(a->classes[i], cls) == 0)
			return 1;
	return 0;
}

static int
S_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Characters allowed in an id or class name: what HTML and CSS take
 * without escaping, plus any non-ASCII byte (letters of other scripts).
 */
static int
S_is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':' ||
	    c == '.' || (unsigned char)c >= 0x80;
}

static int
S_is_key_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/*
 * Parses the inside of `{...}` (s, n bytes) into a. Returns 1 if it is an
 * attribute block, 0 if it does not look like one (the braces are then
 * ordinary text, as in "## Sets {a, b}"), -1 if it looks like one but is
 * malformed (*err says why).
 */
static int
S_parse_attrs(const char *s, size_t n, struct md_attrs *a, const char **err)
{
	size_t i = 0, ncls_cap = 0, npair_cap = 0, npair_cap2 = 0;
	int first = 1;

	while (i < n) {
		size_t start, j;

		while (i < n && S_is_space(s[i]))
			i++;
		if (i == n)
			break;
		start = i;
		if (s[i] == '#' || s[i] == '.') {
			for (j = i + 1; j < n && S_is_name_char(s[j]) && !(s[i] == '.' && s[j] == '.'); j++)
				;
			if (j == i + 1 || (j < n && !S_is_space(s[j]))) {
				if (first)
					return 0;
				*err = s[i] == '#' ? "an id after # must be a name: letters, digits, -, _"
				    : "a class after . must be a name: letters, digits, -, _";
				return -1;
			}
			if (s[i] == '#') {
				if (a->id != NULL) {
					*err = "a heading takes one #id";
					return -1;
				}
				a->id = xstrndup(s + i + 1, j - i - 1);
			} else {
				a->classes = xgrow(a->classes, &ncls_cap, a->nclasses + 1, sizeof(*a->classes));
				a->classes[a->nclasses++] = xstrndup(s + i + 1, j - i - 1);
			}
			i = j;
		} else {
			size_t keyend, vstart, vend;

			for (j = i; j < n && S_is_key_char(s[j]); j++)
				;
			if (j == i || j == n || s[j] != '=') {
				if (first)
					return 0;
				*err = "expected #id, .class or key=value";
				return -1;
			}
			keyend = j;
			j++;
			if (j < n && s[j] == '"') {
				vstart = ++j;
				while (j < n && s[j] != '"')
					j++;
				if (j == n) {
					*err = "a quoted value is not closed";
					return -1;
				}
				vend = j++;
			} else {
				vstart = j;
				while (j < n && !S_is_space(s[j]) && s[j] != '"')
					j++;
				vend = j;
			}
			if (j < n && !S_is_space(s[j])) {
				*err = "expected a space after key=value";
				return -1;
			}
			a->keys = xgrow(a->keys, &npair_cap, a->npairs + 1, sizeof(*a->keys));
			a->values = xgrow(a->values, &npair_cap2, a->npairs + 1, sizeof(*a->values));
			a->keys[a->npairs] = xstrndup(s + start, keyend - start);
			a->values[a->npairs] = xstrndup(s + vstart, vend - vstart);
			a->npairs++;
			i = j;
		}
		first = 0;
	}
	return first ? 0 : 1;
}

int
md_heading_attrs(cmark_node *heading, struct md_attrs *attrs, const char **err)
{
	cmark_node *last;
	const char *lit, *open;
	size_t n, close;
	char *keep;
	int rc;

	memset(attrs, 0, sizeof(*attrs));
	*err = NULL;
	/* "{#a_b}" may arrive as several text nodes split at delimiters. */
	cmark_consolidate_text_nodes(heading);
	last = cmark_node_last_child(heading);
	if (last == NULL || cmark_node_get_type(last) != CMARK_NODE_TEXT)
		return 0;
	lit = cmark_node_get_literal(last);
	if (lit == NULL)
		return 0;
	n = strlen(lit);
	while (n > 0 && S_is_space(lit[n - 1]))
		n--;
	if (n < 2 || lit[n - 1] != '}')
		return 0;
	close = n - 1;
	open = NULL;
	for (size_t i = close; i-- > 0;)
		if (lit[i] == '{') {
			open = lit + i;
			break;
		}
	if (open == NULL)
		return 0;
	rc = S_parse_attrs(open + 1, (size_t)(lit + close - open - 1), attrs, err);
	if (rc != 1) {
		/* Nothing is kept from a block that was not taken off. */
		md_attrs_free(attrs);
		return rc;
	}
	n = (size_t)(open - lit);
	while (n > 0 && S_is_space(lit[n - 1]))
		n--;
	if (n == 0 && cmark_node_previous(last) != NULL) {
		cmark_node_free(last);
		last = cmark_node_last_child(heading);
		/* The space before "{" may sit at the end of an earlier text node. */
		if (last && cmark_node_get_type(last) == CMARK_NODE_TEXT) {
			lit = cmark_node_get_literal(last);
			n = lit ? strlen(lit) : 0;
			while (n > 0 && S_is_space(lit[n - 1]))
				n--;
			keep = xstrndup(lit ? lit : "", n);
			cmark_node_set_literal(last, keep);
			free(keep);
		}
		return 1;
	}
	keep = xstrndup(lit, n);
	cmark_node_set_literal(last, keep);
	free(keep);
	return 1;
}

/* Plain text. */

int
md_is_block(cmark_node *n)
{
	return (cmark_node_get_type(n) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK;
}

char *
md_plain_text(cmark_node *node)
{
	cmark_iter *it;
	cmark_event_type ev;
	struct buf b;
	int pending_break = 0;

	buf_init(&b);
	buf_put(&b, "", 0);
	if (node == NULL)
		return buf_detach(&b);
	it = cmark_iter_new(node);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *cur = cmark_iter_get_node(it);
		const char *lit;

		if (ev == CMARK_EVENT_EXIT) {
			if (md_is_block(cur) && cur != node)
				pending_break = 1;
			continue;
		}
		switch (cmark_node_get_type(cur)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
		case CMARK_NODE_CODE_BLOCK:
			lit = cmark_node_get_literal(cur);
			if (lit == NULL || *lit == '\0')
				break;
			if (pending_break && b.len > 0)
				buf_putc(&b, '\n');
			pending_break = 0;
			buf_puts(&b, lit);
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
	while (b.len > 0 && S_is_space(b.data[b.len - 1]))
		b.data[--b.len] = '\0';
	return buf_detach(&b);
}

/* Slugs. */

/*
 * Whether GitHub keeps a code point in a slug: letters, marks, numbers
 * and connector punctuation ('_' and its kin); other punctuation,
 * symbols, separators, controls and unassigned code points go.
 */
static int
S_slug_keeps(gunichar c)
{
	switch (g_unichar_type(c)) {
	case G_UNICODE_LOWERCASE_LETTER:
	case G_UNICODE_MODIFIER_LETTER:
	case G_UNICODE_OTHER_LETTER:
	case G_UNICODE_TITLECASE_LETTER:
	case G_UNICODE_UPPERCASE_LETTER:
	case G_UNICODE_SPACING_MARK:
	case G_UNICODE_ENCLOSING_MARK:
	case G_UNICODE_NON_SPACING_MARK:
	case G_UNICODE_DECIMAL_NUMBER:
	case G_UNICODE_LETTER_NUMBER:
	case G_UNICODE_OTHER_NUMBER:
	case G_UNICODE_CONNECT_PUNCTUATION:
		return 1;
	default:
		return 0;
	}
}

/* Whether s[0..n) is all ASCII: then no Unicode table is needed. */
static int
S_ascii(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

/*
 * GitHub's rule: lower-case (the full mapping, as JavaScript's
 * toLowerCase: a final capital sigma becomes 'ς'), keep what
 * S_slug_keeps keeps and '-', make each space a '-'. Invalid UTF-8 is
 * dropped.
 */
char *
md_slug(const char *text)
{
	size_t n = strlen(text);
	char *valid = NULL, *lower = NULL;
	const char *p;
	struct buf b;

	buf_init(&b);
	buf_put(&b, "", 0);
	if (!S_ascii(text, n)) {
		if (!g_utf8_validate(text, (gssize)n, NULL))
			text = valid = g_utf8_make_valid(text, (gssize)n);
		text = lower = g_utf8_strdown(text, -1);
	}
	for (p = text; *p; p = g_utf8_next_char(p)) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x80) {
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
				buf_putc(&b, c);
			else if (c >= 'A' && c <= 'Z')
				buf_putc(&b, c + ('a' - 'A'));
			else if (c == ' ')
				buf_putc(&b, '-');
		} else if (S_slug_keeps(g_utf8_get_char(p)))
			buf_put(&b, p, (size_t)(g_utf8_next_char(p) - p));
	}
	g_free(lower);
	g_free(valid);
	return buf_detach(&b);
}

/* The canonical caseless form of a valid UTF-8 run: NFD, case-folded, NFD again. */
static void
S_fold_run(struct buf *b, const char *s, size_t n)
{
	char *nfd = g_utf8_normalize(s, (gssize)n, G_NORMALIZE_NFD);
	char *folded = g_utf8_casefold(nfd, -1);
	char *again = g_utf8_normalize(folded, -1, G_NORMALIZE_NFD);

	buf_puts(b, again);
	g_free(again);
	g_free(folded);
	g_free(nfd);
}

/* Only the NFD of a valid UTF-8 run: the form in which composition no longer shows. */
static void
S_nfd_run(struct buf *b, const char *s, size_t n)
{
	char *nfd = g_utf8_normalize(s, (gssize)n, G_NORMALIZE_NFD);

	buf_puts(b, nfd);
	g_free(nfd);
}

/* Only the case folding of a valid UTF-8 run: composition is left as written. */
static void
S_case_run(struct buf *b, const char *s, size_t n)
{
	char *folded = g_utf8_casefold(s, (gssize)n);

	buf_puts(b, folded);
	g_free(folded);
}

/* text (n bytes) with each valid UTF-8 run mapped by run; a byte that is no UTF-8 stays as it is. */
static char *
S_map_runs(const char *text, size_t n, void (*run)(struct buf *, const char *, size_t))
{
	const char *end, *stop = text + n;
	struct buf b;

	buf_init(&b);
	buf_put(&b, "", 0);
	while (text < stop) {
		g_utf8_validate(text, stop - text, &end);
		run(&b, text, (size_t)(end - text));
		if (end < stop)
			buf_putc(&b, *end++);
		text = end;
	}
	return buf_detach(&b);
}

char *
md_casefold(const char *text)
{
	size_t n = strlen(text), i;
	struct buf b;

	/* ASCII, nearly every name: lowered as it is copied. */
	if (S_ascii(text, n)) {
		buf_init(&b);
		buf_put(&b, "", 0);
		buf_put(&b, text, n);
		for (i = 0; i < b.len; i++)
			if (b.data[i] >= 'A' && b.data[i] <= 'Z')
				b.data[i] = (char)(b.data[i] + ('a' - 'A'));
		return buf_detach(&b);
	}
	return S_map_runs(text, n, S_fold_run);
}

/*
 * Two names one canonical caseless form: what is left of their
 * difference once composition is undone is case, and once case is
 * folded is composition.
 */
int
md_fold_difference(const char *a, size_t alen, const char *b, size_t blen)
{
	char *x, *y;
	int diff = 0;

	x = S_map_runs(a, alen, S_nfd_run);
	y = S_map_runs(b, blen, S_nfd_run);
	if (strcmp(x, y) != 0)
		diff |= MD_FOLD_CASE;
	free(x);
	free(y);
	x = S_map_runs(a, alen, S_case_run);
	y = S_map_runs(b, blen, S_case_run);
	if (strcmp(x, y) != 0)
		diff |= MD_FOLD_COMPOSITION;
	free(x);
	free(y);
	return diff;
}

/*
 * The slugger is an open-addressing hash set of the slugs handed out,
 * with the next suffix to try for each base, so a file with a hundred
 * thousand identical headings stays linear.
 */

void
md_slugger_init(struct md_slugger *s)
{
	memset(s, 0, sizeof(*s));
}

void
md_slugger_free(struct md_slugger *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->used[i]);
	free(s->used);
	free(s->next);
	md_slugger_init(s);
}

static size_t
S_slot(const struct md_slugger *s, const char *key)
{
	size_t mask = s->cap - 1;
	size_t i = (size_t)hash_fnv1a(key, strlen(key), HASH_FNV_SEED) & mask;

	while (s->used[i] != NULL && strcmp(s->used[i], key) != 0)
		i = (i + 1) & mask;
	return i;
}

static void
S_grow(struct md_slugger *s)
{
	char **old = s->used;
	size_t *oldnext = s->next, oldcap = s->cap, i;

	s->cap = oldcap ? oldcap * 2 : 64;
	s->used = xcalloc(s->cap, sizeof(*s->used));
	s->next = xcalloc(s->cap, sizeof(*s->next));
	for (i = 0; i < oldcap; i++)
		if (old[i] != NULL) {
			size_t j = S_slot(s, old[i]);

			s->used[j] = old[i];
			s->next[j] = oldnext[i];
		}
	free(old);
	free(oldnext);
}

/* Adds key if absent; returns its slot. */
static size_t
S_add(struct md_slugger *s, const char *key, int *added)
{
	size_t i;

	if ((s->len + 1) * 2 > s->cap)
		S_grow(s);
	i = S_slot(s, key);
	*added = s->used[i] == NULL;
	if (*added) {
		s->used[i] = xstrdup(key);
		s->next[i] = 1;
		s->len++;
	}
	return i;
}

void
md_slugger_reserve(struct md_slugger *s, const char *id)
{
	int added;

	S_add(s, id, &added);
}

char *
md_slugger_take(struct md_slugger *s, const char *slug)
{
	size_t base, n;
	int added;
	char *cand;

	base = S_add(s, slug, &added);
	if (added)
		return xstrdup(slug);
	for (;;) {
		n = s->next[base]++;
		cand = xasprintf("%s-%zu", slug, n);
		S_add(s, cand, &added);
		if (added)
			return cand;
		free(cand);
		/* S_add may have grown the table: find the base again. */
		base = S_slot(s, slug);
	}
}

int
md_slugger_has(const struct md_slugger *s, const char *id)
{
	return s->cap > 0 && s->used[S_slot(s, id)] != NULL;
}

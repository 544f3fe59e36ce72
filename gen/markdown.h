/*
 * markdown: the cmark-gfm wrapper, heading attributes and slugs.
 */
#ifndef QUIZDECK_MARKDOWN_H
#define QUIZDECK_MARKDOWN_H

#include <stddef.h>
#include <cmark-gfm.h>

/*
 * Parses Markdown with the table, tasklist, strikethrough, autolink and
 * footnote extensions and source positions on. The caller frees with
 * cmark_node_free. Line numbers in the tree are relative to `md`.
 */
cmark_node *md_parse(const char *md, size_t len);
/* md_parse, and *nodes gets how many nodes the tree has. */
cmark_node *md_parse_counted(const char *md, size_t len, size_t *nodes);
/*
 * md_parse_counted into a scratch arena (*scratch) that becomes the
 * calling thread's current one: the tree is never freed node by node,
 * but all at once by md_scratch_free, on that thread, which must also be
 * the one to make any change to the tree before. What cmark allocates
 * with the tree's allocator (cmark_render_* output) lives there too.
 */
struct md_scratch;
cmark_node *md_parse_scratch(const char *md, size_t len, size_t *nodes, struct md_scratch **scratch);
void md_scratch_free(struct md_scratch *scratch);
#define MD_PARSE_OPTIONS (CMARK_OPT_SOURCEPOS | CMARK_OPT_FOOTNOTES)

/* An inclusive run of sibling block nodes; both NULL when empty. */
struct block_range {
	cmark_node *first, *last;
};

/*
 * The syntax extensions md_parse attaches, for renderers that take a list
 * (cmark_render_html). Owned by this module; never free it.
 */
cmark_llist *md_syntax_extensions(void);

/* A list item written as a task ("- [ ]" / "- [x]"), and whether it is ticked. */
int md_is_task_item(cmark_node *item);
int md_task_item_checked(cmark_node *item);

/* Heading attributes: the trailing `{#id .class key=value}` of a heading. */
struct md_attrs {
	char *id;                  /* NULL if none */
	char **classes;
	size_t nclasses;
	char **keys, **values;     /* key=value pairs, in order */
	size_t npairs;
};

/*
 * Takes a trailing attribute block off a heading node's last text child
 * (editing the tree) and fills attrs. Returns 1 if a block was found, 0
 * if not, -1 if it was malformed (*err points at a static reason; the
 * text is left as it was and attrs empty). attrs must be freed after 1.
 */
int md_heading_attrs(cmark_node *heading, struct md_attrs *attrs, const char **err);
void md_attrs_free(struct md_attrs *attrs);
int md_attrs_has_class(const struct md_attrs *attrs, const char *cls);

/* The plain text of a node (text, code, and the text of links/emphasis). */
char *md_plain_text(cmark_node *node);

/* 1 when n is a block (a paragraph, a quote, a heading...), 0 for inline content. */
int md_is_block(cmark_node *n);

/* GitHub's slug of a heading's text (without the -N suffix). */
char *md_slug(const char *text);
/*
 * text in canonical caseless form (NFD, case-folded, NFD again), for
 * comparing names as a case-insensitive disk would, and as macOS's,
 * which also ignore or undo composition ("é" as one code point or as
 * "e" and a combining accent). Never makes or takes a '/'. Invalid
 * UTF-8 bytes are kept as they are. Caller frees.
 */
char *md_casefold(const char *text);
/*
 * How two names differ that md_casefold makes one (a and b, alen and
 * blen bytes): MD_FOLD_CASE if in case, MD_FOLD_COMPOSITION if in
 * composition, or both. A disk that ignores case (macOS, Windows) makes
 * names differing in case one file; one that normalises Unicode (macOS)
 * those differing in composition.
 */
enum { MD_FOLD_CASE = 1, MD_FOLD_COMPOSITION = 2 };
int md_fold_difference(const char *a, size_t alen, const char *b, size_t blen);

/* Hands out unique slugs within one file: "a", "a-1", "a-2"... */
struct md_slugger {
	char **used;               /* open-addressing hash set, cap slots */
	size_t *next;              /* per slot: the next -N suffix to try */
	size_t len, cap;
};
void md_slugger_init(struct md_slugger *s);
void md_slugger_free(struct md_slugger *s);
/* Returns a new string: slug, or slug-N if already handed out. */
char *md_slugger_take(struct md_slugger *s, const char *slug);
/* Records an explicit id so later slugs avoid it. */
void md_slugger_reserve(struct md_slugger *s, const char *id);
/* Whether id was handed out or reserved. */
int md_slugger_has(const struct md_slugger *s, const char *id);

#endif

/*
 * theme: finding a theme, loading its templates and filling them.
 *
 * A theme is a folder: templates/page.html (the frame every page shares),
 * templates/<kind>.html (what goes inside the frame's main slot for each
 * kind of page) and assets/ (copied to out/assets/). Templates are plain
 * HTML, parsed once with libxml2's HTML parser, and filled by a few
 * data-qd-* attributes in the manner of sblg; themes/default/README.md
 * documents them. A page is written in one walk of the parsed templates,
 * straight into bytes. Values are text (always written escaped), HTML
 * the renderer wrote, or lists of item scopes for data-qd-repeat.
 */
#ifndef QUIZDECK_THEME_H
#define QUIZDECK_THEME_H

#include <libxml/tree.h>

#include "diag.h"

enum theme_part {
	THEME_HOME,
	THEME_TEST,
	THEME_DECK,
	THEME_CHAPTER,
	THEME_GUIDE,
	THEME_NOT_FOUND,
	THEME_NPARTS
};

struct theme {
	char *name;
	char *dir;                 /* the theme folder found */
	xmlDocPtr page;            /* templates/page.html */
	xmlDocPtr parts[THEME_NPARTS];
	char *part_files[THEME_NPARTS];  /* for diagnostics */
	/* Per part: the value names page.html and the part name, sorted (theme_uses). */
	char **uses[THEME_NPARTS];
	size_t nuses[THEME_NPARTS];
};

/*
 * Finds theme `name` in <site_root>/themes/, then beside the quizdeck
 * executable (install_dirs), and parses its templates, with the strings
 * of lang put in where they name them (data-qd-t). Returns 0, or -1 with a diagnostic for each
 * thing wrong (t is then empty: nothing to free).
 */
struct lang;
int theme_load(struct theme *t, const char *site_root, const char *name,
    const struct lang *lang, struct diag_list *dl);
void theme_free(struct theme *t);
/*
 * Parses one template from memory and checks its data-qd-* attributes
 * (file names it in diagnostics). Returns the document (caller frees with
 * xmlFreeDoc), or NULL with a diagnostic added.
 */
xmlDocPtr theme_parse(const char *data, size_t len, const char *file, struct diag_list *dl);
/*
 * How many data-qd-* attributes of page.html and the template of `part`
 * name the value `name` (at any depth of repeats). A page need not build
 * a value its templates never use: a list of every chapter on each of
 * 10,000 chapter pages would cost time quadratic in the guide.
 */
size_t theme_uses(const struct theme *t, enum theme_part part, const char *name);
/*
 * The node after n in document order, descending into elements' children
 * and never leaving top (NULL: the whole document). NULL at the end.
 */
xmlNodePtr theme_next_node(xmlNodePtr n, xmlNodePtr top);

/* Copies the theme's assets/ to <outdir>/assets/. 0, or -1 with a diagnostic. */
int theme_copy_assets(const struct theme *t, const char *outdir, struct diag_list *dl);

/*
 * A scope of named values for filling a template. Names are kept, not
 * copied: they must outlive the scope (string literals, as every caller
 * has them); a page sets a few dozen, and a copy of each would be an
 * allocation apiece.
 */
struct tvars;

struct tvars *tvars_new(void);
void tvars_free(struct tvars *v);
/* Sets name to a text (copied). A NULL text leaves name unset. */
void tvars_text(struct tvars *v, const char *name, const char *text);
/*
 * Sets name to HTML (len bytes, malloc'd, which v takes over): what a
 * theme_writer wrote, put into the page as it is. It fills slots and
 * replaces; an attribute it names is left as the template has it.
 */
void tvars_html(struct tvars *v, const char *name, char *html, size_t len);
/* Appends a new, empty item to the list `name` and returns it (v owns it). */
struct tvars *tvars_item(struct tvars *v, const char *name);

/*
 * Writes one page to the end of out: the frame with `part` filled into
 * its main slot and everything filled from v, as UTF-8 HTML with a
 * doctype and one charset declaration (the template's, or else one of
 * its own first in the head). Relative href, src and action values of
 * the templates are relative to the output root and are rewritten for
 * page_url (a path below out/). Returns 0, or -1 with a diagnostic added
 * and out as it was.
 */
struct buf;
int theme_render(const struct theme *t, enum theme_part part, const struct tvars *v,
    const char *page_url, struct buf *out, struct diag_list *dl);

/*
 * Writes elements one at a time, straight into bytes, by the rules pages
 * are written by: how the renderer and html.c write HTML for a page.
 * Element and attribute names must outlive the writer (string literals);
 * attributes go right after their element's start; text is escaped,
 * except in a script or style, where libxml2 writes it as it is; nothing
 * is written inside a void element; raw is HTML written by these rules
 * already.
 */
struct theme_writer;

struct theme_writer *theme_writer_new(void);
void theme_writer_free(struct theme_writer *w);
/* Writes what follows to the end of b, no element open. */
void theme_writer_begin(struct theme_writer *w, struct buf *b);
void theme_writer_start(struct theme_writer *w, const char *name);
/* theme_writer_start for a name that may not outlive the writer: it keeps a copy. */
void theme_writer_start_copy(struct theme_writer *w, const char *name);
void theme_writer_attr(struct theme_writer *w, const char *name, const char *value);
void theme_writer_text(struct theme_writer *w, const char *text);
void theme_writer_raw(struct theme_writer *w, const char *html, size_t len);
void theme_writer_end(struct theme_writer *w);
/* How many elements are open, and the innermost one's name (NULL: none). */
size_t theme_writer_depth(const struct theme_writer *w);
const char *theme_writer_top(const struct theme_writer *w);
/*
 * The last element closed with no element left open since
 * theme_writer_begin (NULL: none; valid until the next call), and in
 * *end_tag the length of the output before its end tag (after its start
 * tag when it has none): where more children of it would go.
 */
const char *theme_writer_last(const struct theme_writer *w, size_t *end_tag);

/*
 * Nodes libxml2's HTML parser read (an author's raw HTML), written as
 * libxml2's serialiser writes them: text in a script or style, and
 * comments, as they are, and nothing inside a void element.
 * theme_writer_node writes top and its subtree; theme_writer_start_node
 * starts element el with its attributes and leaves it open, its children
 * the caller's. The nodes may be freed once written.
 */
void theme_writer_node(struct theme_writer *w, xmlNodePtr top);
void theme_writer_start_node(struct theme_writer *w, xmlNodePtr el);

#endif

/*
 * htmlmd: Markdown from the HTML that flashcard fields hold (Anki's
 * editor, quizdeck's own exports), read by libxml2's HTML parser.
 *
 * What has a Markdown form becomes it: b/strong, i/em, s/del, code, pre
 * (with its language-X class), br, p/div, ul/ol/li, tables, img, a, hr,
 * blockquote and quizdeck's own footnotes. u, sub and sup stay as those
 * tags (raw HTML, shown where the site allows it, their text otherwise).
 * Any other element keeps its text and is named in `unknown`. Text is
 * escaped so that it reads back as the same text, and Anki's cloze
 * markers ({{c1::...}}) pass through as they are.
 */
#ifndef QUIZDECK_HTMLMD_H
#define QUIZDECK_HTMLMD_H

#include <stddef.h>

struct htmlmd_opts {
	int heading;               /* one line of inlines: a card's front */
	/*
	 * The destination to write for an image's src, as a new string, or
	 * NULL to write src as it is. May be NULL.
	 */
	char *(*image)(void *arg, const char *src);
	void *image_arg;
};

struct htmlmd {
	char *md;                  /* the Markdown, no line break at either end */
	char *script;              /* why the HTML was refused ("a <script> element"), or NULL */
	char *unknown;             /* elements kept as their text, "<span> <font>", or NULL */
	int flattened;             /* heading: blocks (lists, paragraphs...) joined into one line */
};

/*
 * Converts html. Returns 0, or -1 when the HTML holds script (a script
 * element, an on... attribute, a javascript: URL), with out->script
 * saying which and out->md NULL. Free out with htmlmd_free either way.
 */
int htmlmd_convert(const char *html, const struct htmlmd_opts *o, struct htmlmd *out);
void htmlmd_free(struct htmlmd *out);

#endif

/*
 * import: a deck of another tool (an Anki package, a CSV file) written
 * as a Markdown deck, content/cards/<deck>.md, with its images in
 * content/cards/<deck>/.
 *
 * A command of its own, not a pipeline pass: it reads the file, never
 * the site's model, and writes sources that the next build reads. All
 * is written in a staging folder under content/ and renamed into place
 * at the end, so bad input writes nothing.
 */
#ifndef QUIZDECK_IMPORT_H
#define QUIZDECK_IMPORT_H

#include "diag.h"

enum import_format { IMPORT_ANKI, IMPORT_CSV };

struct import_options {
	const char *site;          /* the site's folder */
	enum import_format format;
	const char *file;
	const char *deck;          /* the deck's file name, or NULL: from the file */
	int force;                 /* replace a deck of that name */
};

/* What an import wrote, for the summary line. */
struct import_result {
	char *path;                /* the deck's Markdown file; caller frees */
	size_t cards, media;
};

/*
 * Imports o->file. Returns 0, or -1 with errors in dl (each naming the
 * file, and the line for CSV) and nothing written. Warnings (what has
 * no Markdown form, what quizdeck's cards do not hold) go to dl too.
 */
int import_run(const struct import_options *o, struct import_result *res, struct diag_list *dl);

#endif

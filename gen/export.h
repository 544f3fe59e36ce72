/*
 * export: the decks and tests in the formats other tools import, into
 * out/export/ (outputs.h names the formats and files): an Anki package,
 * CSV for Anki's text import and TSV for Quizlet per deck; Moodle XML and
 * GIFT per test.
 *
 * Fronts, backs, stems, options and explanations are rendered by the
 * site's HTML writer (render.h), so code, tables and lists stay as the
 * pages show them. The exported HTML leaves the site: images go with it
 * where the format carries files (Anki's media, Moodle XML's embedded
 * files), links to the site's pages become absolute URLs when site.toml
 * sets base_url, and otherwise only their text is kept.
 */
#ifndef QUIZDECK_EXPORT_H
#define QUIZDECK_EXPORT_H

#include <signal.h>
#include <stddef.h>

#include "model.h"
#include "outputs.h"

struct export_options {
	unsigned formats;          /* bits 1 << enum export_format */
	char *const *names;        /* only the decks and tests of these slugs, when nnames > 0 */
	size_t nnames;
	int jobs;                  /* threads; the files are the same for any number */
	const volatile sig_atomic_t *stop;  /* read between files (a signal handler may set it), or NULL */
	/*
	 * Warn, once per file, where a link or image into the site is kept
	 * as its text for want of base_url: set where the exports are asked
	 * for (quizdeck export), not where a build writes them beside the
	 * site, whose lack of an address is the site's own choice.
	 */
	int warn_unkept;
};

/*
 * Writes every wanted export into dir, each file through a temporary
 * name beside it renamed into place. Returns 0 with *written the number
 * of files, or -1 with diagnostics added (or with none when *stop turned
 * non-zero); files written before a failure stay.
 */
int export_write(const struct site *site, const char *dir, const struct export_options *opt,
    size_t *written, struct diag_list *dl);

#endif

/*
 * lang: every string a learner sees, in the site's language.
 *
 * The strings are tables in TOML, one file per language: quizdeck's own
 * i18n/<language>.toml (found as themes are, install_dirs), then the
 * site's i18n/<language>.toml, then site.toml's [strings], each overriding
 * the one before key by key. English (i18n/en.toml) is the base and the
 * list of every key: a key another table lacks reads as English, and a
 * key English lacks is a warning at its line (a typo would otherwise be
 * dropped without a word).
 *
 * A key is its dotted path ("quiz.start"). A string may hold
 * placeholders, {name}, filled by lang_format; a count's string is a
 * table of CLDR plural forms ("zero", "one", "two", "few", "many",
 * "other"), read as keys "quiz.questions.one"..., of which "other" is the
 * one every language has.
 *
 * The pages' scripts read the same table (html.c writes it as a script
 * file), and pick a plural form with the browser's Intl.PluralRules; for
 * the languages quizdeck ships, lang_plural_form gives what it gives.
 * Numbers are written in Latin digits in every language, so that a
 * number reads the same in the PDFs, the pages and the scripts.
 */
#ifndef QUIZDECK_LANG_H
#define QUIZDECK_LANG_H

#include <stddef.h>

#include "diag.h"

struct config;
struct lang;

/*
 * Loads the tables for c->language (its full tag, else its first part:
 * "de-AT" then "de") over English, then the site's and c's overrides.
 * site_root is the site's folder. A language with no table is English
 * with a warning. Returns the tables (never NULL: at worst the keys read
 * as themselves), with a diagnostic for each thing wrong; an error when
 * quizdeck's own English table is not found or does not parse.
 */
struct lang *lang_load(const char *site_root, const struct config *c, struct diag_list *dl);
/* Every key read as itself, for tests and tools that load no site. */
struct lang *lang_empty(void);
void lang_free(struct lang *l);

/* The language tag pages are marked with ("en", "de", "ar"). */
const char *lang_tag(const struct lang *l);
/* 1 when the language is written right to left (its table's dir = "rtl"). */
int lang_rtl(const struct lang *l);

/*
 * The string for key, placeholders as written; the key itself when no
 * table has it (a key the code names is in en.toml: a test checks it).
 * Valid as long as l.
 */
const char *lang_get(const struct lang *l, const char *key);
/* 1 when some table has key. */
int lang_has(const struct lang *l, const char *key);
/*
 * lang_get's string with each {name} replaced by its value, from pairs
 * of name and value ending with NULL: lang_format(l, "print.page", "n",
 * "3", NULL). A placeholder with no value stays as written. Caller frees.
 */
char *lang_format(const struct lang *l, const char *key, ...);
/*
 * The plural form of key for the count n (key.<form>, else key.other),
 * with {n} the count and the other placeholders from the pairs ending
 * with NULL. Caller frees.
 */
char *lang_plural(const struct lang *l, const char *key, long n, ...);
/* The CLDR plural form of n in language tag ("one", "other"...). */
const char *lang_plural_form(const char *tag, long n);

/* The keys and their strings, sorted by key: for writing the scripts' table. */
size_t lang_count(const struct lang *l);
const char *lang_key(const struct lang *l, size_t i);
const char *lang_value(const struct lang *l, size_t i);

#endif

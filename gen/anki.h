/*
 * anki: an Anki package (.apkg) written from plain notes.
 *
 * The package is a zip holding `collection.anki2`, an SQLite collection
 * in the legacy schema 11 that every Anki version imports, a `media` map
 * and the media files named "0", "1", ... This module knows Anki's
 * format and nothing of quizdeck's model: export.c turns a deck into
 * notes. The bytes depend only on what is passed in (the ids are derived
 * from the note keys, the times from `epoch`), so a rebuild writes the
 * same file.
 */
#ifndef QUIZDECK_ANKI_H
#define QUIZDECK_ANKI_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/*
 * The note types written, one Anki model each (anki.c's table holds
 * their fields and card templates). A note has as many fields as its
 * type names; a standard type makes one card per template, a cloze type
 * one per cloze number in its text.
 */
enum anki_kind {
	ANKI_BASIC,                /* Front, Back: one card */
	ANKI_BASIC_REVERSED,       /* Front, Back: a card each way */
	ANKI_CLOZE,                /* Text with {{c1::...}}, Back Extra: a card per cloze number */
	ANKI_NKINDS
};

struct anki_note {
	const char *key;           /* unique in the package, stable: the guid is made of it */
	enum anki_kind kind;
	const char *const *fields; /* HTML, as many as the kind has */
	const char *tags;          /* space-separated, or NULL */
};

/* A file the notes' HTML refers to as <img src="name">. */
struct anki_media {
	const char *name;          /* as the HTML has it: no '/' */
	const char *path;          /* where to read it */
};

struct anki_package {
	const char *deck;          /* the deck's name in Anki */
	const char *description;   /* HTML, or NULL */
	const char *deck_key;      /* stable: the deck's id is made of it */
	const struct anki_note *notes;
	size_t nnotes;
	const struct anki_media *media;
	size_t nmedia;
	int64_t epoch;             /* seconds: every creation and change time */
};

/*
 * Writes the package to path (replacing it). Returns 0, or -1 with an
 * error added to dl naming path.
 */
int anki_write(const struct anki_package *p, const char *path, struct diag_list *dl);

/*
 * The name a media file is carried or imported under, for the export's
 * packages and the import's folder alike: base with every byte that is
 * not a letter, digit, '.', '-', '_' or part of a valid UTF-8 non-ASCII
 * character (and a leading '.') made '_', "media" if it is empty; a name
 * that equals one of taken[0..n) (NULLs skipped) as a case-insensitive
 * disk compares them (md_casefold) gets "2-", "3-"... in front. Caller
 * frees.
 */
char *anki_media_name(const char *base, const char *const *taken, size_t n);

/* The guid of the note with key: "quizdeck:" and the key. Caller frees. */
char *anki_guid(const char *key);

/*
 * What Anki sorts and checks duplicates by: the field's text with HTML
 * tags removed, an image replaced by its file name and entities decoded
 * (caller frees); and the first 8 hex digits of the SHA-1 of that, as a
 * number.
 */
char *anki_strip_html(const char *html);
uint32_t anki_field_checksum(const char *html);

#endif

/*
 * anki_test: Anki's text of a field (what it sorts and checks duplicates
 * by) and its checksum, each input beside what Anki's own rules give
 * (the checksums are the first 8 hex digits of Python's
 * hashlib.sha1(text).hexdigest()); packages of every note type read back
 * (libzip, then SQLite on the collection's bytes): the cards each note
 * makes; an empty deck; a path that cannot be written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>
#include <zip.h>

#include "anki.h"
#include "check.h"
#include "diag.h"
#include "util.h"

static void
test_strip(void)
{
	static const struct { const char *html, *text; } cases[] = {
		{ "What is <code>sizeof(int)</code>?", "What is sizeof(int)?" },
		{ "a &lt; b &amp; c", "a < b & c" },
		{ "x<img src=\"fig.png\" alt=\"A\">y", "x fig.png y" },
		{ "<IMG alt='q' SRC='a b.png'>", " a b.png " },
		{ "<img alt=\"no source\">z", "z" },
		{ "keep<!-- gone <b>x</b> -->this", "keepthis" },
		{ "<style>.a{}</style>s<script>x()</script>t", "st" },
		{ "&#65;&#x42;&nbsp;&quot;&apos;&gt;", "AB \"'>" },
		{ "&unknown; & alone", "&unknown; & alone" },
		{ "a <b", "a <b" },
		{ "Ünï <em>cödé</em> 日本", "Ünï cödé 日本" },
		{ "", "" },
	};
	size_t i;

	CHECK_GROUP("anki, strip");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = anki_strip_html(cases[i].html);

		CHECK_STR(got, cases[i].text, "%s", cases[i].html);
		free(got);
	}
}

static void
test_checksum(void)
{
	CHECK_GROUP("anki, checksum");
	CHECK_INT(anki_field_checksum("What is data parallelism?"), 2676210542u, "plain text");
	CHECK_INT(anki_field_checksum("a &lt; b &amp; <i>c</i>"), 2982413688u, "of the text, not the HTML");
	CHECK_INT(anki_field_checksum("x <img src=\"fig.png\"> y"), 2969426093u, "an image by its name");
	CHECK_INT(anki_field_checksum(""), 3661210606u, "empty");
	{
		char *g = anki_guid("deck/card-1");

		CHECK_STR(g, "quizdeck:deck/card-1", "the guid carries the key");
		free(g);
	}
}

/* The collection in the package at path, opened in memory; NULL if it cannot be read. */
static sqlite3 *
S_open(const char *path, char **media)
{
	zip_t *z = zip_open(path, ZIP_RDONLY, NULL);
	sqlite3 *db = NULL;
	zip_stat_t st;
	zip_file_t *f;
	unsigned char *bytes;

	*media = NULL;
	if (z == NULL)
		return NULL;
	if (zip_stat(z, "collection.anki2", 0, &st) == 0 && (f = zip_fopen(z, "collection.anki2", 0))) {
		bytes = sqlite3_malloc64(st.size);
		if (zip_fread(f, bytes, st.size) == (zip_int64_t)st.size && sqlite3_open(":memory:", &db) == SQLITE_OK)
			sqlite3_deserialize(db, "main", bytes, (sqlite3_int64)st.size, (sqlite3_int64)st.size,
			    SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE);
		else
			sqlite3_free(bytes);
		zip_fclose(f);
	}
	if (zip_stat(z, "media", 0, &st) == 0 && (f = zip_fopen(z, "media", 0))) {
		*media = xcalloc(st.size + 1, 1);
		zip_fread(f, *media, st.size);
		zip_fclose(f);
	}
	zip_discard(z);
	return db;
}

/* The first column of the first row of sql, as text (caller frees), or NULL. */
static char *
S_query(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	char *res = NULL;

	if (db && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			res = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	return res;
}

static void
test_kinds(const char *dir)
{
	static const char *const basic[] = { "Front <b>1</b>", "Back 1" };
	static const char *const reversed[] = { "Front 2", "Back 2" };
	static const char *const reversed_empty[] = { "Front 3", "" };
	static const char *const cloze[] = { "{{c2::a}} {{c1::b}} {{c2::c}} {c3::no}", "extra" };
	static const char *const no_cloze[] = { "nothing to hide", "" };
	struct anki_note notes[] = {
		{ "d/basic", ANKI_BASIC, basic, "tag1 tag2" },
		{ "d/reversed", ANKI_BASIC_REVERSED, reversed, NULL },
		{ "d/reversed-empty", ANKI_BASIC_REVERSED, reversed_empty, NULL },
		{ "d/cloze", ANKI_CLOZE, cloze, NULL },
		{ "d/no-cloze", ANKI_CLOZE, no_cloze, NULL },
	};
	struct anki_package p;
	struct diag_list dl;
	char *path = path_join(dir, "kinds.apkg"), *media, *s;
	sqlite3 *db;

	CHECK_GROUP("anki, note types");
	memset(&p, 0, sizeof(p));
	p.deck = "D";
	p.deck_key = "d";
	p.notes = notes;
	p.nnotes = sizeof(notes) / sizeof(notes[0]);
	p.epoch = 1700000000;
	diag_init(&dl);
	CHECK_INT(anki_write(&p, path, &dl), 0, "written");
	db = S_open(path, &media);
	CHECK(db != NULL, "read back");
	s = S_query(db, "select group_concat(k, ' ') from (select n.guid || ':' || c.ord as k "
	    "from cards c join notes n on c.nid = n.id order by k)");
	CHECK_STR(s, "quizdeck:d/basic:0 quizdeck:d/cloze:0 quizdeck:d/cloze:1 quizdeck:d/no-cloze:0 "
	    "quizdeck:d/reversed-empty:0 quizdeck:d/reversed:0 quizdeck:d/reversed:1",
	    "one card; both ways; one way when the back is empty; a card per cloze number; "
	    "the first card of a cloze without any");
	free(s);
	s = S_query(db, "select flds || '|' || sfld || '|' || tags from notes where guid = 'quizdeck:d/basic'");
	CHECK_STR(s, "Front <b>1</b>\x1f" "Back 1|Front 1| tag1 tag2 ", "fields joined by 0x1f; sort field; tags");
	free(s);
	s = S_query(db, "select count(*) from json_each((select models from col))");
	CHECK_STR(s, "3", "a model for each type used");
	free(s);
	s = S_query(db, "select json_extract(models, '$.\"1690000000003\".type') || "
	    "json_extract(models, '$.\"1690000000003\".tmpls[0].qfmt') from col");
	CHECK_STR(s, "1{{cloze:Text}}", "the cloze type");
	free(s);
	s = S_query(db, "select count(distinct mid) from notes");
	CHECK_STR(s, "3", "notes of three types");
	free(s);
	CHECK_STR(media, "{}", "no media");
	free(media);
	sqlite3_close(db);
	diag_free(&dl);
	free(path);
}

static void
test_empty_and_unwritable(const char *dir)
{
	struct anki_package p;
	struct diag_list dl;
	char *path = path_join(dir, "empty.apkg"), *media, *s, *joined;
	sqlite3 *db;

	CHECK_GROUP("anki, edges");
	memset(&p, 0, sizeof(p));
	p.deck = "Empty \"deck\"";
	p.deck_key = "empty";
	p.epoch = 0;
	diag_init(&dl);
	CHECK_INT(anki_write(&p, path, &dl), 0, "a deck with no notes is a package");
	db = S_open(path, &media);
	s = S_query(db, "select (select count(*) from notes) || ' ' || (select count(*) from cards)");
	CHECK_STR(s, "0 0", "no notes, no cards");
	free(s);
	s = S_query(db, "select group_concat(value ->> 'name', '|') from json_each((select decks from col))");
	CHECK_STR(s, "Default|Empty \"deck\"", "its deck, its name escaped in JSON");
	free(s);
	sqlite3_close(db);
	free(media);
	free(path);
	path = path_join(dir, "no/such/folder/x.apkg");
	CHECK_INT(anki_write(&p, path, &dl), -1, "a folder that is not there");
	joined = diag_join(&dl);
	CHECK(strstr(joined, "error: cannot write ") != NULL && strstr(joined, "x.apkg") != NULL,
	    "says which file: %s", joined);
	free(joined);
	free(path);
	diag_free(&dl);
}

/* One cleaning and numbering for the export's media and the import's images. */
static void
test_media_name(void)
{
	const char *taken[] = { "A.png", NULL, "2-a.png", "\xc3\x89t\xc3\xa9.png" };
	struct { const char *base; size_t n; const char *want; } cases[] = {
		{ "images/cat 1.png", 0, "images_cat_1.png" },
		{ "a.png", 1, "2-a.png" },             /* A.png and a.png are one file on a case-insensitive disk */
		{ "a.png", 3, "3-a.png" },             /* and 2-a.png is taken too; the NULL is skipped */
		{ "\xc3\xa9t\xc3\xa9.png", 4, "2-\xc3\xa9t\xc3\xa9.png" },   /* folded beyond ASCII */
		{ "b\xff\xc3.png", 0, "b__.png" },       /* bytes of no character */
		{ ".hidden", 0, "_hidden" },
		{ "", 0, "media" },
	};
	size_t i;

	CHECK_GROUP("media names");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = anki_media_name(cases[i].base, taken, cases[i].n);

		CHECK_STR(got, cases[i].want, "anki_media_name(\"%s\", %zu taken)", cases[i].base,
		    cases[i].n);
		free(got);
	}
}

int
main(void)
{
	char tmpl[] = "/tmp/anki_test.XXXXXX";
	char *dir = mkdtemp(tmpl);

	test_strip();
	test_checksum();
	test_media_name();
	if (dir) {
		test_kinds(dir);
		test_empty_and_unwritable(dir);
		dir_remove(dir);
	}
	return check_finish();
}

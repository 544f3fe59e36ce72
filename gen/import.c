/*
 * import: a reader per format turns the file into raw notes (fields as
 * HTML, the guid, the kind); then one path names the deck, turns each
 * note into a card (htmlmd.c), stages the Markdown and the images and
 * renames them into content/cards/.
 *
 * The Anki reader opens the package with libzip, copies the collection
 * to a temporary file (SQLite reads files, not zip entries) and reads it
 * read-only; the collection's JSON (note types, decks) and the media map
 * are read with SQLite's own json_each.
 */
#include "import.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <glib.h>
#include <sqlite3.h>
#include <zip.h>

#include "anki.h"
#include "ankifmt.h"
#include "htmlmd.h"
#include "image.h"
#include "util.h"

/*
 * What a package may make the import read or write: the collection's
 * bytes on disk, an image's (what image.c accepts), how much an entry
 * over a megabyte may inflate (images and SQLite pages compress far
 * less; a zip bomb far more), the notes, SQLite's work in virtual
 * machine steps (a legitimate collection of IMPORT_MAX_NOTES notes
 * reads in a small part of it) and the size of one value.
 */
#define IMPORT_MAX_COLLECTION (512L * 1024 * 1024)
#define IMPORT_MAX_MEDIA IMAGE_MAX_BYTES
#define IMPORT_MAX_RATIO 200
#define IMPORT_MAX_NOTES 200000
#define IMPORT_MAX_SQL_STEPS 2000000000LL
#define IMPORT_MAX_VALUE (64 * 1024 * 1024)

enum note_kind { NOTE_BASIC, NOTE_REVERSED, NOTE_CLOZE };

/* A note as the file holds it. */
struct raw_note {
	char *guid;                /* or NULL */
	long long nid;             /* Anki's note id; 0 from CSV */
	int line;                  /* the CSV line it starts on; 0 from Anki */
	enum note_kind kind;
	char *front, *back;        /* HTML */
	int has_tags;
};

/* A file the notes' images name, and where its bytes are. */
struct media_src {
	char *name;                /* as the HTML has it */
	zip_int64_t index;         /* in the package, or -1 */
	char *path;                /* beside the CSV file, or NULL */
	char *out;                 /* the name written, once an image uses it; else NULL */
};

struct import {
	const struct import_options *o;
	struct diag_list *dl;
	struct raw_note *notes;
	size_t n, cap;
	struct media_src *media;
	size_t nmedia, mcap;
	char *title, *description;
	char *slug;
	zip_t *zip;                /* the package, while its media are copied */
	size_t ndecks;             /* Anki decks the notes come from */
	long long sql_steps;       /* what SQLite may still do, in thousands of steps */
	int html;                  /* CSV: fields are HTML */
};

static void
S_error(struct import *im, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
S_error(struct import *im, int line, const char *fmt, ...)
{
	va_list ap;
	struct buf b;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_error(im->dl, im->o->file, line, line ? 1 : 0, "%s", buf_str(&b));
	buf_free(&b);
}

/*
 * An error on what SQLite could not do: what (a format), then SQLite's
 * reason, or that the collection asks for more work than any real one.
 */
static void
S_sql_error(struct import *im, sqlite3 *db, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
S_sql_error(struct import *im, sqlite3 *db, const char *fmt, ...)
{
	va_list ap;
	struct buf b;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (im->sql_steps < 0)
		buf_puts(&b, ": reading it takes more work than any Anki collection of the size "
		    "quizdeck imports (a view or query made to run forever?)");
	else
		buf_printf(&b, " (SQLite says: %s)", sqlite3_errmsg(db));
	S_error(im, 0, "%s", buf_str(&b));
	buf_free(&b);
}

static struct raw_note *
S_add_note(struct import *im)
{
	struct raw_note *n;

	im->notes = xgrow(im->notes, &im->cap, im->n + 1, sizeof(*im->notes));
	n = &im->notes[im->n++];
	memset(n, 0, sizeof(*n));
	return n;
}

static void
S_add_media(struct import *im, const char *name, zip_int64_t index, const char *path)
{
	struct media_src *m;

	im->media = xgrow(im->media, &im->mcap, im->nmedia + 1, sizeof(*im->media));
	m = &im->media[im->nmedia++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->index = index;
	m->path = path ? xstrdup(path) : NULL;
}

/* ---- Anki ---------------------------------------------------------------- */

struct model {
	long long id;
	int type, ntmpls, nflds;
};

/* The note types of the collection. -1 with an error when its JSON is not Anki's. */
static int
S_models(struct import *im, sqlite3 *db, const char *json, struct model **out, size_t *len)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc = -1, step = SQLITE_ERROR;

	*out = NULL;
	*len = 0;
	if (sqlite3_prepare_v2(db, "select key, json_extract(value, '$.type'),"
	    " json_array_length(value, '$.tmpls'), json_array_length(value, '$.flds')"
	    " from json_each(?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *len + 1, sizeof(**out));
		(*out)[*len].id = sqlite3_column_int64(st, 0);
		(*out)[*len].type = sqlite3_column_int(st, 1);
		(*out)[*len].ntmpls = sqlite3_column_int(st, 2);
		(*out)[*len].nflds = sqlite3_column_int(st, 3);
		(*len)++;
	}
	rc = step == SQLITE_DONE ? 0 : -1;
out:
	if (rc == -1)
		S_sql_error(im, db, "not an Anki collection: its note types cannot be read");
	sqlite3_finalize(st);
	return rc;
}

/*
 * 1 if the n bytes at s are text: valid UTF-8 and no NUL (a C string
 * would end there and lose the rest). Else 0, and *at is the offset of
 * the first bad byte.
 */
static int
S_is_text(const char *s, size_t n, size_t *at)
{
	const char *nul = memchr(s, '\0', n);
	size_t upto = nul ? (size_t)(nul - s) : n, i = 0;

	while (i < upto) {
		uint32_t cp;
		size_t k = utf8_decode((const unsigned char *)s + i, upto - i, &cp);

		if (k == 0)
			break;
		i += k;
	}
	*at = i;
	return i == n;
}

/*
 * 0 if a note's fields (n bytes at flds) are text, else -1 with an
 * error naming the note and the field (1-based).
 */
static int
S_anki_fields_text(struct import *im, long long nid, const char *flds, size_t n)
{
	size_t at, i;
	int field = 1;

	if (S_is_text(flds, n, &at))
		return 0;
	for (i = 0; i < at; i++)
		field += flds[i] == ANKI_FIELD_SEP;
	S_error(im, 0, "note %lld: its field %d %s: the package is damaged or not written by "
	    "Anki; fix the note in Anki and export again", nid, field, flds[at] == '\0' ?
	    "holds a NUL byte, which no text holds" : "is not UTF-8 text");
	return -1;
}

/* A note's fields as the HTML of a card: the first the front, the others its back. */
static void
S_anki_fields(struct raw_note *n, const char *flds, const struct model *m)
{
	const char *sep = strchr(flds, ANKI_FIELD_SEP);
	struct buf back;
	const char *p;
	int k = 0;

	n->front = sep ? xstrndup(flds, (size_t)(sep - flds)) : xstrdup(flds);
	if (m->type == ANKI_MODEL_CLOZE)
		n->kind = NOTE_CLOZE;
	else if (m->ntmpls == 2 && m->nflds == 2)
		n->kind = NOTE_REVERSED;
	else
		n->kind = NOTE_BASIC;
	buf_init(&back);
	buf_put(&back, "", 0);
	/* More than one field after the first: each its own block, so none runs into the next. */
	for (p = sep; p; p = sep, k++) {
		size_t len;

		p++;
		sep = strchr(p, ANKI_FIELD_SEP);
		len = sep ? (size_t)(sep - p) : strlen(p);
		if (len == 0)
			continue;
		if (k > 0 || sep)
			buf_puts(&back, "<div>");
		buf_put(&back, p, len);
		if (k > 0 || sep)
			buf_puts(&back, "</div>");
	}
	n->back = buf_detach(&back);
}

static int
S_anki_notes(struct import *im, sqlite3 *db, const struct model *models, size_t nmodels)
{
	sqlite3_stmt *st = NULL;
	int rc = -1, step;
	long long count = 0;

	/* Counted first, so that a huge collection is refused before it is read. */
	if (sqlite3_prepare_v2(db, "select count(*) from notes", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto out;
	count = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (count > IMPORT_MAX_NOTES) {
		S_error(im, 0, "the collection holds %lld notes, more than the %d one deck imports: "
		    "export the deck you want on its own from Anki", count, IMPORT_MAX_NOTES);
		goto out;
	}
	/*
	 * The deck's order: new cards by their position in the new queue
	 * (quizdeck writes the deck's order there), then the rest by age.
	 * One pass over the cards, grouped, and notes found by their key: a
	 * query per note would take time in the square of the notes where
	 * the cards have no index on nid.
	 */
	if (sqlite3_prepare_v2(db, "select id, guid, mid, flds, tags from ("
	    "select n.id, n.guid, n.mid, n.flds, n.tags, o.k from (select nid,"
	    " min(case when type = 0 then due else 9223372036854775807 end) as k"
	    " from cards group by nid) o join notes n on n.id = o.nid"
	    " union all select n.id, n.guid, n.mid, n.flds, n.tags, null from notes n"
	    " where n.id not in (select nid from cards where nid is not null))"
	    " order by k, id", -1, &st, NULL) != SQLITE_OK)
		goto out;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct raw_note *n = S_add_note(im);
		long long mid = sqlite3_column_int64(st, 2);
		const char *guid = (const char *)sqlite3_column_text(st, 1);
		size_t nguid = (size_t)sqlite3_column_bytes(st, 1), at;
		const char *flds = (const char *)sqlite3_column_text(st, 3);
		size_t nflds = (size_t)sqlite3_column_bytes(st, 3);
		const char *tags = (const char *)sqlite3_column_text(st, 4);
		size_t i;

		n->nid = sqlite3_column_int64(st, 0);
		if (flds && S_anki_fields_text(im, n->nid, flds, nflds) == -1)
			goto out;
		if (guid && !S_is_text(guid, nguid, &at)) {
			S_error(im, 0, "note %lld: its guid is not UTF-8 text: the package is damaged "
			    "or not written by Anki", n->nid);
			goto out;
		}
		n->guid = xstrdup(guid ? guid : "");
		n->has_tags = tags && strspn(tags, " ") != strlen(tags);
		for (i = 0; i < nmodels && models[i].id != mid; i++)
			;
		if (i == nmodels) {
			S_error(im, 0, "note %lld has note type %lld, which the collection does not "
			    "define: the package is damaged; export it from Anki again", n->nid, mid);
			goto out;
		}
		S_anki_fields(n, flds ? flds : "", &models[i]);
	}
	if (step != SQLITE_DONE)
		goto out;
	rc = 0;
out:
	if (rc == -1 && !diag_failed(im->dl))
		S_sql_error(im, db, "not an Anki collection: its notes cannot be read");
	sqlite3_finalize(st);
	return rc;
}

/*
 * The title and description of the deck the first note's card is in;
 * how many decks hold cards. -1 with an error when they are not text.
 */
static int
S_anki_deck(struct import *im, sqlite3 *db, const char *decks)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "select json_extract(d.value, '$.name'),"
	    " json_extract(d.value, '$.desc'),"
	    " (select count(distinct did) from cards)"
	    " from json_each(?) d where d.key = (select c.did from cards c order by"
	    " case when c.type = 0 then c.due else 9223372036854775807 end, c.nid limit 1)",
	    -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, decks, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *desc = (const char *)sqlite3_column_text(st, 1);
		size_t at;

		if ((name && !S_is_text(name, (size_t)sqlite3_column_bytes(st, 0), &at)) ||
		    (desc && !S_is_text(desc, (size_t)sqlite3_column_bytes(st, 1), &at))) {
			S_error(im, 0, "the deck's %s in the collection is not UTF-8 text, or holds a "
			    "NUL byte: rename the deck in Anki and export again",
			    name && !S_is_text(name, (size_t)sqlite3_column_bytes(st, 0), &at) ?
			    "name" : "description");
			rc = -1;
		} else if (name && *name)
			im->title = xstrdup(name);
		if (rc == 0 && desc && *desc)
			im->description = anki_strip_html(desc);
		im->ndecks = (size_t)sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The media map, {"0": "name.png", ...}: each name and the entry holding it. */
static int
S_anki_media(struct import *im, sqlite3 *db)
{
	zip_int64_t ix = zip_name_locate(im->zip, ANKI_MEDIA_MAP, 0);
	zip_stat_t zs;
	zip_file_t *f;
	char *json = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1, step = SQLITE_ERROR;

	if (ix < 0)
		return 0;
	if (zip_stat_index(im->zip, (zip_uint64_t)ix, 0, &zs) < 0 || zs.size > 64u << 20 ||
	    (f = zip_fopen_index(im->zip, (zip_uint64_t)ix, 0)) == NULL)
		goto out;
	json = xmalloc((size_t)zs.size + 1);
	if (zip_fread(f, json, zs.size) != (zip_int64_t)zs.size) {
		zip_fclose(f);
		goto out;
	}
	zip_fclose(f);
	json[zs.size] = '\0';
	if (sqlite3_prepare_v2(db, "select key, value from json_each(?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		zip_int64_t at = key ? zip_name_locate(im->zip, key, 0) : -1;

		if (name && at >= 0)
			S_add_media(im, name, at, NULL);
	}
	rc = step == SQLITE_DONE ? 0 : -1;
out:
	if (rc == -1)
		S_error(im, 0, "the package's media map cannot be read: it is not Anki's JSON");
	sqlite3_finalize(st);
	free(json);
	return rc;
}

/* Why S_zip_extract did not copy an entry. */
enum { EXTRACT_DAMAGED = -1, EXTRACT_TOO_BIG = -2, EXTRACT_BOMB = -3 };

/*
 * Copies entry ix to path, at most max bytes. 0, or one of the above
 * with path removed: an entry over max bytes (as its header says, or as
 * it inflates: the header may lie), or one over a megabyte that inflates
 * more than IMPORT_MAX_RATIO times its compressed size.
 */
static int
S_zip_extract(zip_t *z, zip_int64_t ix, const char *path, zip_uint64_t max)
{
	zip_stat_t zs;
	zip_file_t *f = NULL;
	FILE *out = NULL;
	char chunk[65536];
	zip_int64_t got = -1;
	zip_uint64_t total = 0;
	int rc = EXTRACT_DAMAGED;

	if (zip_stat_index(z, (zip_uint64_t)ix, 0, &zs) == -1 ||
	    (zs.valid & (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE)) != (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE))
		return EXTRACT_DAMAGED;
	if (zs.size > max)
		return EXTRACT_TOO_BIG;
	if (zs.size > (1u << 20) && zs.size / IMPORT_MAX_RATIO > zs.comp_size)
		return EXTRACT_BOMB;
	if ((f = zip_fopen_index(z, (zip_uint64_t)ix, 0)) == NULL || (out = fopen(path, "wb")) == NULL)
		goto out;
	while ((got = zip_fread(f, chunk, sizeof(chunk))) > 0) {
		total += (zip_uint64_t)got;
		if (total > max || total > zs.size) {
			rc = EXTRACT_TOO_BIG;
			goto out;
		}
		if (fwrite(chunk, 1, (size_t)got, out) != (size_t)got)
			goto out;
	}
	if (got == 0 && total == zs.size)
		rc = 0;
out:
	if (f)
		zip_fclose(f);
	if (out && fclose(out) != 0 && rc == 0)
		rc = EXTRACT_DAMAGED;
	if (rc != 0 && out)
		unlink(path);
	return rc;
}

/* The error for S_zip_extract's refusal of what (a phrase naming the entry). */
static void
S_extract_error(struct import *im, int why, const char *what, zip_uint64_t max)
{
	if (why == EXTRACT_TOO_BIG)
		S_error(im, 0, "%s is larger than the %llu MB quizdeck imports: the package is "
		    "damaged or not written by Anki", what, (unsigned long long)(max >> 20));
	else if (why == EXTRACT_BOMB)
		S_error(im, 0, "%s inflates over %d times its compressed size, which no real file "
		    "does: the package is damaged or hostile (a zip bomb)", what, IMPORT_MAX_RATIO);
	else
		S_error(im, 0, "cannot read %s: the zip is damaged", what);
}

/* SQLite's progress handler: a nonzero return stops the statement. */
static int
S_sql_budget(void *arg)
{
	long long *left = arg;

	return --*left < 0;
}

/*
 * A read-only connection to a collection from outside, with SQLite's
 * defences: no schema-defined function or virtual table runs, no
 * attached database, limits on a value's size and a statement's depth,
 * and a budget of work (a view or an endless query cannot hang the
 * import). NULL with *err SQLite's message (caller frees).
 */
static sqlite3 *
S_sql_open(const char *path, long long *budget, char **err)
{
	sqlite3 *db = NULL;

	*err = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		*err = xstrdup(db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, IMPORT_MAX_VALUE);
	sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 100000);
	sqlite3_limit(db, SQLITE_LIMIT_COLUMN, 100);
	sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 50);
	sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 5);
	sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, 25000);
	sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, 8);
	sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
	sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 50);
	sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
	sqlite3_progress_handler(db, 1000, S_sql_budget, budget);
	return db;
}

/*
 * 0 if col, notes and cards are tables (not views, whose queries the
 * file would choose), else -1 with the error.
 */
static int
S_anki_tables(struct import *im, sqlite3 *db, const char *entry)
{
	static const char *const names[] = { "col", "notes", "cards" };
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "select type from sqlite_master where name = ?", -1, &st,
	    NULL) != SQLITE_OK) {
		S_error(im, 0, "not an Anki collection: %s in the zip is not Anki's SQLite "
		    "collection (SQLite says: %s)", entry, sqlite3_errmsg(db));
		return -1;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && rc == 0; i++) {
		const char *type;

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, names[i], -1, SQLITE_STATIC);
		type = sqlite3_step(st) == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
		if (type == NULL) {
			S_error(im, 0, "not an Anki collection: %s in the zip has no table \"%s\"",
			    entry, names[i]);
			rc = -1;
		} else if (strcmp(type, "table") != 0) {
			S_error(im, 0, "not an Anki collection: %s in the zip makes \"%s\" a %s, where "
			    "Anki writes a table: the package is damaged or not written by Anki", entry,
			    names[i], type);
			rc = -1;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

static int
S_read_anki(struct import *im, const char *tmpdir)
{
	int err = 0, rc = -1;
	zip_int64_t ix;
	char *colpath = path_join(tmpdir, "collection");
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	struct model *models = NULL;
	size_t nmodels = 0;
	char *models_json = NULL, *decks_json = NULL, *sqlerr = NULL;
	const char *entry;
	long long ver;
	int why;

	if ((im->zip = zip_open(im->o->file, ZIP_RDONLY, &err)) == NULL) {
		if (err == ZIP_ER_NOZIP || err == ZIP_ER_INCONS)
			S_error(im, 0, "not a zip archive, so not an Anki package (Anki writes one "
			    "with File > Export, \"Anki Deck Package\")");
		else if (err == ZIP_ER_NOENT || err == ZIP_ER_OPEN || err == ZIP_ER_READ)
			S_error(im, 0, "cannot read the file: %s", strerror(errno));
		else {
			zip_error_t ze;

			zip_error_init_with_code(&ze, err);
			S_error(im, 0, "cannot read the package: %s", zip_error_strerror(&ze));
			zip_error_fini(&ze);
		}
		goto out;
	}
	if (zip_name_locate(im->zip, ANKI_COLLECTION_21B, 0) >= 0) {
		S_error(im, 0, "the collection is in the compressed format of Anki 2.1.50 and later "
		    "(%s), which quizdeck does not read: export again with \"Support older Anki "
		    "versions\" ticked", ANKI_COLLECTION_21B);
		goto out;
	}
	if ((ix = zip_name_locate(im->zip, ANKI_COLLECTION_21, 0)) < 0 &&
	    (ix = zip_name_locate(im->zip, ANKI_COLLECTION, 0)) < 0) {
		S_error(im, 0, "not an Anki package: the zip holds no %s", ANKI_COLLECTION);
		goto out;
	}
	entry = ix == zip_name_locate(im->zip, ANKI_COLLECTION, 0) ? ANKI_COLLECTION :
	    ANKI_COLLECTION_21;
	if ((why = S_zip_extract(im->zip, ix, colpath, IMPORT_MAX_COLLECTION)) != 0) {
		char *what = xasprintf("the package's collection (%s)", entry);

		S_extract_error(im, why, what, IMPORT_MAX_COLLECTION);
		free(what);
		goto out;
	}
	im->sql_steps = IMPORT_MAX_SQL_STEPS / 1000;
	if ((db = S_sql_open(colpath, &im->sql_steps, &sqlerr)) == NULL) {
		S_error(im, 0, "not an Anki collection: %s in the zip is not Anki's SQLite "
		    "collection (SQLite says: %s)", entry, sqlerr);
		goto out;
	}
	if (S_anki_tables(im, db, entry) == -1)
		goto out;
	if (sqlite3_prepare_v2(db, "select ver, models, decks from col", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		S_sql_error(im, db, "not an Anki collection: %s in the zip is not Anki's SQLite "
		    "collection", entry);
		goto out;
	}
	ver = sqlite3_column_int64(st, 0);
	if (ver != ANKI_SCHEMA_VERSION) {
		S_error(im, 0, "unknown collection schema version %lld: quizdeck reads version %d, "
		    "which Anki writes with \"Support older Anki versions\" ticked", ver,
		    ANKI_SCHEMA_VERSION);
		goto out;
	}
	models_json = xstrdup(sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "");
	decks_json = xstrdup(sqlite3_column_text(st, 2) ? (const char *)sqlite3_column_text(st, 2) : "");
	sqlite3_finalize(st);
	st = NULL;
	if (S_models(im, db, models_json, &models, &nmodels) == -1 ||
	    S_anki_notes(im, db, models, nmodels) == -1 || S_anki_media(im, db) == -1 ||
	    S_anki_deck(im, db, decks_json) == -1)
		goto out;
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	unlink(colpath);
	free(colpath);
	free(sqlerr);
	free(models);
	free(models_json);
	free(decks_json);
	return rc;
}

/* ---- CSV ----------------------------------------------------------------- */

/* The columns a CSV file's cards come from, by what Anki's headers call them; -1: none. */
struct csv_cols {
	int front, back, deck, guid, notetype, tags;
};

/* A column's role from its name in #columns: or a header row. 1 if it is one. */
static int
S_csv_role(struct csv_cols *c, const char *name, int i)
{
	static const struct { const char *name; size_t off; } roles[] = {
		{ "front", offsetof(struct csv_cols, front) },
		{ "text", offsetof(struct csv_cols, front) },
		{ "question", offsetof(struct csv_cols, front) },
		{ "term", offsetof(struct csv_cols, front) },
		{ "back", offsetof(struct csv_cols, back) },
		{ "back extra", offsetof(struct csv_cols, back) },
		{ "extra", offsetof(struct csv_cols, back) },
		{ "answer", offsetof(struct csv_cols, back) },
		{ "definition", offsetof(struct csv_cols, back) },
		{ "deck", offsetof(struct csv_cols, deck) },
		{ "guid", offsetof(struct csv_cols, guid) },
		{ "notetype", offsetof(struct csv_cols, notetype) },
		{ "tags", offsetof(struct csv_cols, tags) },
	};
	size_t k;

	while (*name == ' ')
		name++;
	for (k = 0; k < sizeof(roles) / sizeof(roles[0]); k++)
		if (strcasecmp(name, roles[k].name) == 0) {
			int *slot = (int *)((char *)c + roles[k].off);

			if (*slot == -1)
				*slot = i;
			return 1;
		}
	return 0;
}

/*
 * One record from *p (RFC 4180: fields in double quotes may hold the
 * separator, quotes doubled and line breaks); *line moves on by the
 * lines it takes. Returns the fields (NULL-terminated, caller frees
 * each), or NULL with *bad set when a quote never closes.
 */
static char **
S_csv_record(const char **p, char sep, int *line, int *bad)
{
	const char *s = *p;
	char **v = NULL;
	size_t n = 0, cap = 0;
	struct buf f;

	buf_init(&f);
	for (;;) {
		buf_reset(&f);
		buf_put(&f, "", 0);
		if (*s == '"') {
			for (s++;; s++) {
				if (*s == '\0') {
					*bad = 1;
					goto fail;
				}
				if (*s == '"' && s[1] == '"')
					s++;
				else if (*s == '"') {
					s++;
					break;
				} else if (*s == '\n')
					(*line)++;
				buf_putc(&f, *s);
			}
			while (*s && *s != sep && *s != '\n' && *s != '\r')
				buf_putc(&f, *s++);
		} else
			while (*s && *s != sep && *s != '\n' && !(*s == '\r' && s[1] == '\n'))
				buf_putc(&f, *s++);
		v = xgrow(v, &cap, n + 2, sizeof(*v));
		v[n++] = buf_detach(&f);
		v[n] = NULL;
		if (*s == sep) {
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s == '\n') {
			s++;
			(*line)++;
		}
		break;
	}
	*p = s;
	buf_free(&f);
	return v;
fail:
	buf_free(&f);
	for (n = 0; v && v[n]; n++)
		free(v[n]);
	free(v);
	return NULL;
}

static void
S_strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The separator a #separator: header names. 0 if none of Anki's. */
static char
S_csv_separator(const char *v)
{
	static const struct { const char *name; char c; } names[] = {
		{ "comma", ',' }, { "semicolon", ';' }, { "tab", '\t' }, { "space", ' ' },
		{ "pipe", '|' }, { "colon", ':' },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(v, names[i].name) == 0)
			return names[i].c;
	return strlen(v) == 1 ? v[0] : 0;
}

/* Plain text as the HTML that shows it: line breaks kept. */
static char *
S_text_html(const char *s)
{
	struct buf b;

	buf_init(&b);
	buf_put(&b, "", 0);
	while (*s) {
		size_t n = strcspn(s, "\r\n");
		char *line = xstrndup(s, n);

		buf_put_escaped(&b, line, 0);
		free(line);
		s += n;
		if (*s == '\n')
			buf_puts(&b, "<br>");
		if (*s)
			s++;
	}
	return buf_detach(&b);
}

/* Anki's file headers, "#key:value" lines at the top. 0, or -1 on one it cannot follow. */
static int
S_csv_header(struct import *im, const char *key, const char *value, int line, char *sep,
    struct csv_cols *cols, int *deck_col, int *guid_col, char **notetype)
{
	if (strcasecmp(key, "separator") == 0) {
		if ((*sep = S_csv_separator(value)) == 0) {
			S_error(im, line, "unknown separator \"%s\": use comma, semicolon, tab, space, "
			    "pipe, colon or one character", value);
			return -1;
		}
	} else if (strcasecmp(key, "html") == 0)
		im->html = strcasecmp(value, "true") == 0;
	else if (strcasecmp(key, "columns") == 0) {
		char **names = NULL;
		int i, l = line, bad = 0;
		const char *p = value;

		names = S_csv_record(&p, *sep ? *sep : ',', &l, &bad);
		for (i = 0; names && names[i]; i++)
			S_csv_role(cols, names[i], i);
		S_strv_free(names);
	} else if (strcasecmp(key, "deck column") == 0)
		*deck_col = atoi(value) - 1;
	else if (strcasecmp(key, "guid column") == 0)
		*guid_col = atoi(value) - 1;
	else if (strcasecmp(key, "notetype column") == 0)
		cols->notetype = atoi(value) - 1;
	else if (strcasecmp(key, "tags column") == 0)
		cols->tags = atoi(value) - 1;
	else if (strcasecmp(key, "notetype") == 0) {
		free(*notetype);
		*notetype = xstrdup(value);
	} else if (strcasecmp(key, "deck") == 0) {
		free(im->title);
		im->title = xstrdup(value);
	}
	return 0;
}

static enum note_kind
S_kind_named(const char *notetype)
{
	gchar *low;
	enum note_kind k = NOTE_BASIC;

	if (notetype == NULL)
		return NOTE_BASIC;
	low = g_ascii_strdown(notetype, -1);
	if (strstr(low, "cloze"))
		k = NOTE_CLOZE;
	else if (strstr(low, "reverse"))
		k = NOTE_REVERSED;
	g_free(low);
	return k;
}

static const char *
S_col(char **v, int i)
{
	int k;

	if (i < 0)
		return NULL;
	for (k = 0; v[k] && k < i; k++)
		;
	return v[k];
}

/* 1 if a field of v that no column role takes holds text. */
static int
S_csv_extra(char **v, const struct csv_cols *c, int deck_col, int guid_col)
{
	int i;

	for (i = 0; v[i]; i++) {
		int used = i == (c->front == -1 ? 0 : c->front) || i == (c->back == -1 ? 1 : c->back) ||
		    i == c->deck || i == c->guid || i == c->notetype || i == c->tags ||
		    i == deck_col || i == guid_col;

		if (!used && v[i][strspn(v[i], " \t")] != '\0')
			return 1;
	}
	return 0;
}

static int
S_read_csv(struct import *im)
{
	char *text = NULL, *notetype = NULL;
	size_t len;
	const char *p;
	int line = 1, l, c, rc = -1, first = 1, headers = 1;
	char sep = 0;
	struct csv_cols cols = { -1, -1, -1, -1, -1, -1 };
	int deck_col = -1, guid_col = -1, extra_warned = 0;

	if (file_read(im->o->file, &text, &len) == -1) {
		S_error(im, 0, "cannot read the file: %s", strerror(errno));
		return -1;
	}
	if (!utf8_validate(text, len, &l, &c)) {
		diag_error(im->dl, im->o->file, l, c, "not UTF-8 text: save the file as UTF-8");
		goto out;
	}
	if (memchr(text, '\0', len)) {
		S_error(im, 0, "not a text file: it holds NUL bytes");
		goto out;
	}
	im->html = 1;
	p = text;
	if (strncmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (*p) {
		char **v;
		int bad = 0, at = line;

		if (*p == '#') {
			const char *end = p + strcspn(p, "\r\n"), *colon = memchr(p, ':', (size_t)(end - p));

			if (headers && colon) {
				char *key = xstrndup(p + 1, (size_t)(colon - p - 1));
				char *value = xstrndup(colon + 1, (size_t)(end - colon - 1));
				int hr = S_csv_header(im, key, value, line, &sep, &cols, &deck_col,
				    &guid_col, &notetype);

				free(key);
				free(value);
				if (hr == -1)
					goto out;
			} else {
				/*
				 * Anki reads any other line starting with '#' as a comment; one
				 * among the cards, or not "#key:value" above them, may be a card.
				 */
				diag_warning(im->dl, im->o->file, line, 1, "a line starting with '#' is read "
				    "as a comment, as Anki reads it, and not imported: if it is a card, put "
				    "its first field in quotes (\"#...\")");
			}
			p = *end == '\r' ? end + 1 : end;
			if (*p == '\n')
				p++;
			line++;
			continue;
		}
		headers = 0;
		if (*p == '\n' || (*p == '\r' && p[1] == '\n')) {
			p += *p == '\r' ? 2 : 1;
			line++;
			continue;
		}
		if (sep == 0) {
			size_t n = strcspn(p, "\r\n");

			sep = memchr(p, '\t', n) ? '\t' :
			    memchr(p, ';', n) && !memchr(p, ',', n) ? ';' : ',';
		}
		if ((v = S_csv_record(&p, sep, &line, &bad)) == NULL) {
			S_error(im, at, "a quoted field never ends: a '\"' is missing (a quote inside "
			    "a quoted field is written twice, \"\")");
			goto out;
		}
		if (first && cols.front == -1) {
			struct csv_cols named = { -1, -1, -1, -1, -1, -1 };
			int i, names = 0;

			for (i = 0; v[i]; i++)
				names += S_csv_role(&named, v[i], i);
			first = 0;
			if (named.front != -1 && names == i) {
				/* A header row: the columns' names, no card. */
				cols = named;
				S_strv_free(v);
				continue;
			}
		}
		first = 0;
		{
			struct raw_note *n;
			const char *front = S_col(v, cols.front == -1 ? 0 : cols.front);
			const char *back = S_col(v, cols.back == -1 ? 1 : cols.back);
			const char *guid = S_col(v, guid_col != -1 ? guid_col : cols.guid);
			const char *deck = S_col(v, deck_col != -1 ? deck_col : cols.deck);
			const char *type = S_col(v, cols.notetype);
			const char *tags = S_col(v, cols.tags);

			if (!extra_warned && S_csv_extra(v, &cols, deck_col, guid_col)) {
				diag_warning(im->dl, im->o->file, at, 1, "a record with more fields than "
				    "the columns a card takes (front, back, deck, guid, notetype, tags): the "
				    "others were not imported (a field holding the separator goes in quotes)");
				extra_warned = 1;
			}
			if (front == NULL || *front == '\0') {
				diag_warning(im->dl, im->o->file, at, 1, "a record with no front: not "
				    "imported (a card needs its front in column %d)",
				    cols.front == -1 ? 1 : cols.front + 1);
				S_strv_free(v);
				continue;
			}
			n = S_add_note(im);
			n->line = at;
			n->front = im->html ? xstrdup(front) : S_text_html(front);
			n->back = im->html ? xstrdup(back ? back : "") : S_text_html(back ? back : "");
			n->guid = guid && *guid ? xstrdup(guid) : NULL;
			n->kind = S_kind_named(type ? type : notetype);
			n->has_tags = tags && *tags;
			if (deck && *deck && im->title == NULL)
				im->title = xstrdup(deck);
		}
		S_strv_free(v);
	}
	rc = 0;
out:
	free(text);
	free(notetype);
	return rc;
}

/* ---- the deck ------------------------------------------------------------ */

/* 1 if s is a card id: letters, digits, '-', '_', ':', '.' or non-ASCII characters (UTF-8). */
static int
S_is_id(const char *s)
{
	size_t at;

	if (*s == '\0' || !S_is_text(s, strlen(s), &at))
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (!(c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':' || c == '.'))
			return 0;
	}
	return 1;
}

/* 1 if s is a deck's file name: letters, digits, '-', '_' and '.' (not first). */
static int
S_is_deck_name(const char *s)
{
	if (*s == '\0' || *s == '.' || strlen(s) > 100)
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.'))
			return 0;
	}
	return 1;
}

/* The deck a quizdeck guid names ("quizdeck:DECK/ID"), or NULL. Caller frees. */
static char *
S_guid_deck(const char *guid)
{
	const char *p, *slash;

	if (guid == NULL || strncmp(guid, ANKI_GUID_PREFIX, strlen(ANKI_GUID_PREFIX)) != 0)
		return NULL;
	p = guid + strlen(ANKI_GUID_PREFIX);
	if ((slash = strrchr(p, '/')) == NULL || !S_is_id(slash + 1))
		return NULL;
	return xstrndup(p, (size_t)(slash - p));
}

/* A file name from a title: lower-case ASCII letters and digits, '-' between words. */
static char *
S_slug(const char *title)
{
	struct buf b;
	const char *p;

	buf_init(&b);
	for (p = title ? title : ""; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			buf_putc(&b, c);
		else if (c >= 'A' && c <= 'Z')
			buf_putc(&b, c - 'A' + 'a');
		else if (b.len && b.data[b.len - 1] != '-' && b.len < 60)
			buf_putc(&b, '-');
		if (b.len >= 60)
			break;
	}
	while (b.len && b.data[b.len - 1] == '-')
		b.data[--b.len] = '\0';
	if (b.len == 0)
		buf_puts(&b, "imported");
	return buf_detach(&b);
}

/* The deck's file name: --deck, the deck of quizdeck's guids, else the title's slug. */
static int
S_name_deck(struct import *im)
{
	size_t i;

	if (im->o->deck) {
		if (!S_is_deck_name(im->o->deck)) {
			diag_error(im->dl, NULL, 0, 0, "bad deck name \"%s\": --deck takes a file name "
			    "of letters, digits, '-', '_' and '.'", im->o->deck);
			return -1;
		}
		im->slug = xstrdup(im->o->deck);
		return 0;
	}
	for (i = 0; i < im->n && im->slug == NULL; i++) {
		char *d = S_guid_deck(im->notes[i].guid);

		if (d && S_is_deck_name(d))
			im->slug = d;
		else
			free(d);
	}
	if (im->slug == NULL) {
		char *base = xstrdup(path_basename(im->o->file)), *dot = strrchr(base, '.');

		if (dot && dot != base)
			*dot = '\0';
		im->slug = S_slug(im->title ? im->title : base);
		free(base);
	}
	return 0;
}

/* What htmlmd's image callback needs: the import and the note being converted. */
struct image_ctx {
	struct import *im;
	const struct raw_note *note;
};

static int
S_is_url(const char *src)
{
	const char *p = src;

	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
	    *p == '+' || *p == '-' || *p == '.')
		p++;
	return (p > src && *p == ':') || src[0] == '/';
}

/* A file name safe in a URL and on any file system, unique among those given out (anki_media_name). */
static char *
S_media_name(struct import *im, const char *name)
{
	const char **taken = xcalloc(im->nmedia + 1, sizeof(*taken));
	char *out;
	size_t i;

	for (i = 0; i < im->nmedia; i++)
		taken[i] = im->media[i].out;
	out = anki_media_name(path_basename(name), taken, im->nmedia);
	free(taken);
	return out;
}

static void
S_where(struct buf *b, const struct raw_note *n)
{
	if (n->line)
		buf_printf(b, "the card on line %d", n->line);
	else
		buf_printf(b, "note %lld", n->nid);
}

static char *
S_image(void *arg, const char *src)
{
	struct image_ctx *ctx = arg;
	struct import *im = ctx->im;
	struct media_src *m = NULL;
	char *dec, *beside;
	size_t i;

	if (S_is_url(src))
		return NULL;
	dec = g_uri_unescape_string(src, NULL);
	for (i = 0; i < im->nmedia && !m; i++)
		if (strcmp(im->media[i].name, src) == 0 || (dec && strcmp(im->media[i].name, dec) == 0))
			m = &im->media[i];
	if (m == NULL && im->o->format == IMPORT_CSV && dec) {
		char *dir = path_dirname(im->o->file);
		char *rel = path_normalize(dec);

		beside = rel ? path_join(dir, rel) : NULL;
		if (beside && path_is_file(beside)) {
			S_add_media(im, dec, -1, beside);
			m = &im->media[im->nmedia - 1];
		}
		free(beside);
		free(rel);
		free(dir);
	}
	g_free(dec);
	if (m == NULL) {
		struct buf w;

		buf_init(&w);
		S_where(&w, ctx->note);
		diag_warning(im->dl, im->o->file, ctx->note->line, ctx->note->line ? 1 : 0,
		    "%s: the image \"%s\" is not in the %s: its link is kept as it is, and "
		    "the build will report it", buf_str(&w), src,
		    im->o->format == IMPORT_ANKI ? "package" : "file's folder");
		buf_free(&w);
		return NULL;
	}
	if (m->out == NULL)
		m->out = S_media_name(im, m->name);
	return xconcat(im->slug, "/", m->out, NULL);
}

/* TOML's basic string. */
static void
S_toml_string(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n' || c == '\t' || c == '\r')
			buf_putc(b, ' ');
		else if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, c);
	}
	buf_putc(b, '"');
}

/* One side of a note as Markdown into *md. -1 with an error when it holds script. */
static int
S_side(struct import *im, const struct raw_note *n, const char *html, int heading,
    char **md, struct buf *unknown, int *flattened)
{
	struct htmlmd_opts o;
	struct htmlmd r;
	struct image_ctx ctx = { im, n };
	int rc = 0;

	memset(&o, 0, sizeof(o));
	o.heading = heading;
	o.image = S_image;
	o.image_arg = &ctx;
	if (htmlmd_convert(html, &o, &r) == -1) {
		struct buf w;

		buf_init(&w);
		S_where(&w, n);
		diag_error(im->dl, im->o->file, n->line, n->line ? 1 : 0, "%s: its %s holds %s: "
		    "quizdeck imports no script (a card's page would run it); remove it and "
		    "export again", buf_str(&w), heading ? "front" : "back", r.script);
		buf_free(&w);
		rc = -1;
	} else {
		*md = r.md;
		r.md = NULL;
		if (r.unknown) {
			char *p = r.unknown, *tok;

			for (tok = strtok(p, " "); tok; tok = strtok(NULL, " "))
				if (!strstr(buf_str(unknown), tok)) {
					if (unknown->len)
						buf_puts(unknown, ", ");
					buf_puts(unknown, tok);
				}
		}
		*flattened |= r.flattened;
	}
	htmlmd_free(&r);
	return rc;
}

/* The deck's Markdown into b. -1 when a note holds script. */
static int
S_markdown(struct import *im, struct buf *b)
{
	struct buf unknown;
	char **ids = xcalloc(im->n + 1, sizeof(*ids));
	size_t i, k, tagged = 0, flat = 0, empty = 0;
	int rc = 0;

	buf_init(&unknown);
	buf_puts(b, "+++\ntitle = ");
	S_toml_string(b, im->title ? im->title : im->slug);
	if (im->description && *im->description) {
		buf_puts(b, "\ndescription = ");
		S_toml_string(b, im->description);
	}
	buf_puts(b, "\n+++\n");
	for (i = 0; i < im->n; i++) {
		const struct raw_note *n = &im->notes[i];
		char *front = NULL, *back = NULL, *d = S_guid_deck(n->guid);
		int flattened = 0;

		/* The card id: the guid's where quizdeck wrote it, else the note's id or line. */
		if (d)
			ids[i] = xstrdup(strrchr(n->guid, '/') + 1);
		else
			ids[i] = n->line ? xasprintf("line-%d", n->line) : xasprintf("note-%lld", n->nid);
		free(d);
		for (k = 0; k < i; k++)
			if (strcmp(ids[k], ids[i]) == 0) {
				char *again = xasprintf("%s-%zu", ids[i], i + 1);

				free(ids[i]);
				ids[i] = again;
				k = (size_t)-1;
			}
		if (S_side(im, n, n->front, 1, &front, &unknown, &flattened) == -1 ||
		    S_side(im, n, n->back, 0, &back, &unknown, &flattened) == -1) {
			rc = -1;
			free(front);
			continue;
		}
		flat += flattened != 0;
		tagged += n->has_tags != 0;
		empty += *front == '\0';
		buf_printf(b, "\n## %s%s{#%s%s}\n", front, *front ? " " : "", ids[i],
		    n->kind == NOTE_REVERSED ? " .reverse" : "");
		if (*back)
			buf_printf(b, "\n%s\n", back);
		free(front);
		free(back);
	}
	if (rc == 0) {
		if (unknown.len)
			diag_warning(im->dl, im->o->file, 0, 0, "%s ha%s no Markdown form: only the "
			    "text inside was kept", buf_str(&unknown), strchr(buf_str(&unknown), ',') ?
			    "ve" : "s");
		if (flat)
			diag_warning(im->dl, im->o->file, 0, 0, "%zu front%s held paragraphs, lists "
			    "or tables, which a card's heading cannot: each was joined into one line",
			    flat, flat == 1 ? "" : "s");
		if (empty)
			diag_warning(im->dl, im->o->file, 0, 0, "%zu card%s ha%s an empty front: "
			    "write one before you build", empty, empty == 1 ? "" : "s",
			    empty == 1 ? "s" : "ve");
		if (tagged)
			diag_warning(im->dl, im->o->file, 0, 0, "%zu note%s ha%s tags, which "
			    "quizdeck's cards do not hold: they were not imported", tagged,
			    tagged == 1 ? "" : "s", tagged == 1 ? "s" : "ve");
		if (im->ndecks > 1)
			diag_warning(im->dl, im->o->file, 0, 0, "the notes come from %zu Anki decks: "
			    "all went into this one deck", im->ndecks);
	}
	for (i = 0; i < im->n; i++)
		free(ids[i]);
	free(ids);
	buf_free(&unknown);
	return rc;
}

/* Copies the media the cards use into dir. */
static int
S_write_media(struct import *im, const char *dir, size_t *count)
{
	size_t i;

	*count = 0;
	for (i = 0; i < im->nmedia; i++) {
		struct media_src *m = &im->media[i];
		char *to;
		int rc;

		if (m->out == NULL)
			continue;
		if (*count == 0 && dir_make(dir) == -1) {
			S_error(im, 0, "cannot write %s: %s", dir, strerror(errno));
			return -1;
		}
		to = path_join(dir, m->out);
		if (m->index >= 0 && (rc = S_zip_extract(im->zip, m->index, to, IMPORT_MAX_MEDIA)) != 0) {
			char *what = xasprintf("the image \"%s\"", m->name);

			S_extract_error(im, rc, what, IMPORT_MAX_MEDIA);
			free(what);
			free(to);
			return -1;
		}
		if (m->index < 0 && file_copy(m->path, to) == -1) {
			S_error(im, 0, "cannot copy the image \"%s\" to %s", m->name, to);
			free(to);
			return -1;
		}
		free(to);
		(*count)++;
	}
	return 0;
}

static void
S_import_free(struct import *im)
{
	size_t i;

	for (i = 0; i < im->n; i++) {
		free(im->notes[i].guid);
		free(im->notes[i].front);
		free(im->notes[i].back);
	}
	free(im->notes);
	for (i = 0; i < im->nmedia; i++) {
		free(im->media[i].name);
		free(im->media[i].path);
		free(im->media[i].out);
	}
	free(im->media);
	free(im->title);
	free(im->description);
	free(im->slug);
	if (im->zip)
		zip_discard(im->zip);
}

int
import_run(const struct import_options *o, struct import_result *res, struct diag_list *dl)
{
	struct import im;
	char *content = path_join(o->site, "content"), *cards = path_join(content, "cards");
	char *stage_tpl = path_join(content, ".import-XXXXXX"), *stage = NULL;
	char *md_path = NULL, *media_dir = NULL, *staged_md = NULL, *staged_media = NULL, *name;
	char *old_media = NULL;
	struct buf md;
	int rc = -1, made_content, moved = 0;

	memset(&im, 0, sizeof(im));
	memset(res, 0, sizeof(*res));
	im.o = o;
	im.dl = dl;
	buf_init(&md);
	/* A site of site.toml alone gets content/, and loses it again if nothing is imported. */
	made_content = !path_is_dir(content) && dir_make(content) == 0;
	if ((stage = mkdtemp(stage_tpl)) == NULL) {
		diag_error(dl, NULL, 0, 0, "cannot write into %s: %s", content, strerror(errno));
		goto out;
	}
	if ((o->format == IMPORT_ANKI ? S_read_anki(&im, stage) : S_read_csv(&im)) == -1)
		goto out;
	if (im.n == 0) {
		S_error(&im, 0, "no cards to import: the %s holds no notes",
		    o->format == IMPORT_ANKI ? "package" : "file");
		goto out;
	}
	if (S_name_deck(&im) == -1)
		goto out;
	name = xconcat(im.slug, ".md", NULL);
	md_path = path_join(cards, name);
	staged_md = path_join(stage, name);
	free(name);
	media_dir = path_join(cards, im.slug);
	staged_media = path_join(stage, im.slug);
	if (!o->force && (path_is_file(md_path) || path_is_dir(media_dir) ||
	    access(md_path, F_OK) == 0)) {
		diag_error(dl, md_path, 0, 0, "the deck \"%s\" exists already: import it under "
		    "another name with --deck NAME, or replace it with --force", im.slug);
		goto out;
	}
	if (S_markdown(&im, &md) == -1 || S_write_media(&im, staged_media, &res->media) == -1)
		goto out;
	if (file_write(staged_md, md.data, md.len) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", staged_md, strerror(errno));
		goto out;
	}
	/* Everything is staged: only now is the site touched. */
	if (dir_make(cards) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", cards, strerror(errno));
		goto out;
	}
	/*
	 * The old deck's images go aside into the stage, not away: a rename
	 * that fails puts them back, and only success lets them go with it.
	 */
	old_media = path_join(stage, ".old-media");
	if (o->force && path_is_dir(media_dir) && rename(media_dir, old_media) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot replace %s: %s", media_dir, strerror(errno));
		goto out;
	}
	moved = o->force && path_is_dir(old_media);
	if (res->media && rename(staged_media, media_dir) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", media_dir, strerror(errno));
		goto restore;
	}
	if (rename(staged_md, md_path) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", md_path, strerror(errno));
		if (res->media)
			rename(media_dir, staged_media);
		goto restore;
	}
	res->path = md_path;
	md_path = NULL;
	res->cards = im.n;
	rc = 0;
	goto out;
restore:
	if (moved && rename(old_media, media_dir) == -1)
		diag_error(dl, NULL, 0, 0, "cannot put the old images back in %s: %s; they are in %s",
		    media_dir, strerror(errno), old_media);
out:
	/* The stage holds the old images only when they could not be put back: keep them then. */
	if (stage && !(rc == -1 && moved && path_is_dir(old_media)))
		dir_remove(stage);
	if (rc == -1 && made_content)
		rmdir(content);
	S_import_free(&im);
	buf_free(&md);
	free(content);
	free(cards);
	free(stage_tpl);
	free(md_path);
	free(media_dir);
	free(staged_md);
	free(staged_media);
	free(old_media);
	return rc;
}

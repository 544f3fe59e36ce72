/*
 * anki: the collection built in an in-memory SQLite database, taken out
 * as bytes (sqlite3_serialize) and zipped with the media by libzip.
 *
 * Reproducible bytes: SQLite lays pages out by the statements run, which
 * are the same for the same notes; zip entries get a fixed DOS time from
 * the epoch (set here, in UTC, not through libzip's localtime), fixed
 * external attributes, and come from memory buffers, which carry no file
 * modes.
 */
#include "anki.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <sqlite3.h>
#include <zip.h>

#include "ankifmt.h"
#include "markdown.h"
#include "util.h"

/*
 * Ids look like Anki's (milliseconds since 1970) and fall in a range of
 * past times, [ANKI_ID_BASE, ANKI_ID_BASE + ANKI_ID_SPAN): derived from a
 * key, the same on every export.
 */
#define ANKI_ID_BASE 1500000000000LL
#define ANKI_ID_SPAN 100000000000LL

struct anki_template {
	const char *name;
	const char *qfmt;
	const char *afmt;
};

/*
 * A note type. The ids are fixed, so that a newer export's notes land in
 * the model an earlier import made. A cloze type (cloze = 1) makes its
 * cards from the cloze numbers in its first field; the others one card
 * per template, which req lists with the fields each needs.
 */
struct anki_model {
	const char *name;
	int64_t id;
	int cloze;
	const char *const *fields;
	size_t nfields;
	const struct anki_template *tmpls;
	size_t ntmpls;
	const char *req;           /* JSON, Anki's "req" */
};

static const char *const S_basic_fields[] = { "Front", "Back" };
static const struct anki_template S_basic_tmpls[] = {
	{ "Card 1", "{{Front}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}" },
	{ "Card 2", "{{Back}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}" },
};
static const char *const S_cloze_fields[] = { "Text", "Back Extra" };
static const struct anki_template S_cloze_tmpls[] = {
	{ "Cloze", "{{cloze:Text}}", "{{cloze:Text}}<br>\n{{Back Extra}}" },
};

/* Indexed by enum anki_kind. */
static const struct anki_model S_models[ANKI_NKINDS] = {
	{ "quizdeck Basic", 1690000000001LL, 0, S_basic_fields, 2, S_basic_tmpls, 1,
	    "[[0,\"any\",[0]]]" },
	{ "quizdeck Basic (and reversed card)", 1690000000002LL, 0, S_basic_fields, 2,
	    S_basic_tmpls, 2, "[[0,\"any\",[0]],[1,\"any\",[1]]]" },
	{ "quizdeck Cloze", 1690000000003LL, 1, S_cloze_fields, 2, S_cloze_tmpls, 1,
	    "[[0,\"any\",[0]]]" },
};

/* Cards a note may make: cloze numbers 1 to this. */
#define ANKI_MAX_CARDS 500

/* The cards' look; no colours, so Anki's night mode still works. */
static const char S_css[] =
    ".card { font-family: sans-serif; font-size: 20px; line-height: 1.4; text-align: left; }\n"
    ".card pre { overflow-x: auto; padding: 0.5em; border: 1px solid #8888; }\n"
    ".card code { font-family: monospace; }\n"
    ".card table { border-collapse: collapse; }\n"
    ".card th, .card td { border: 1px solid #8888; padding: 0.2em 0.5em; }\n"
    ".card img { max-width: 100%; }\n";

static const char S_schema[] =
    "create table col (id integer primary key, crt integer not null, mod integer not null,"
    " scm integer not null, ver integer not null, dty integer not null, usn integer not null,"
    " ls integer not null, conf text not null, models text not null, decks text not null,"
    " dconf text not null, tags text not null);"
    "create table notes (id integer primary key, guid text not null, mid integer not null,"
    " mod integer not null, usn integer not null, tags text not null, flds text not null,"
    " sfld integer not null, csum integer not null, flags integer not null, data text not null);"
    "create table cards (id integer primary key, nid integer not null, did integer not null,"
    " ord integer not null, mod integer not null, usn integer not null, type integer not null,"
    " queue integer not null, due integer not null, ivl integer not null, factor integer not null,"
    " reps integer not null, lapses integer not null, left integer not null, odue integer not null,"
    " odid integer not null, flags integer not null, data text not null);"
    "create table revlog (id integer primary key, cid integer not null, usn integer not null,"
    " ease integer not null, ivl integer not null, lastIvl integer not null,"
    " factor integer not null, time integer not null, type integer not null);"
    "create table graves (usn integer not null, oid integer not null, type integer not null);"
    "create index ix_notes_usn on notes (usn);"
    "create index ix_cards_usn on cards (usn);"
    "create index ix_revlog_usn on revlog (usn);"
    "create index ix_cards_nid on cards (nid);"
    "create index ix_cards_sched on cards (did, queue, due);"
    "create index ix_revlog_cid on revlog (cid);"
    "create index ix_notes_csum on notes (csum);";

static int64_t
S_id(const char *key, const char *salt)
{
	uint64_t h = hash_fnv1a(salt, strlen(salt), HASH_FNV_SEED);

	h = hash_fnv1a(key, strlen(key), h);
	return ANKI_ID_BASE + (int64_t)(h % (uint64_t)ANKI_ID_SPAN);
}

char *
anki_guid(const char *key)
{
	return xconcat(ANKI_GUID_PREFIX, key, NULL);
}

/* ---- Anki's text of a field ---------------------------------------------- */

/* 1 if s starts with the ASCII word w, in any case. */
static int
S_starts(const char *s, const char *w)
{
	return strncasecmp(s, w, strlen(w)) == 0;
}

/* Past the element `name` that starts at s (its end tag), or NULL if it never ends. */
static const char *
S_skip_element(const char *s, const char *name)
{
	const char *p;

	for (p = strchr(s, '<'); p; p = strchr(p + 1, '<'))
		if (p[1] == '/' && S_starts(p + 2, name)) {
			p = strchr(p, '>');
			return p ? p + 1 : NULL;
		}
	return NULL;
}

/* An <img ...> tag's src value, the way Anki's pattern reads it, into b. 0 if it has none. */
static int
S_img_src(const char *tag, const char *end, struct buf *b)
{
	const char *p;

	for (p = tag + 4; p + 4 <= end; p++)
		if (S_starts(p, "src=")) {
			p += 4;
			if (*p == '"' || *p == '\'')
				p++;
			buf_putc(b, ' ');
			while (p < end && *p != '"' && *p != '\'' && *p != '>')
				buf_putc(b, *p++);
			buf_putc(b, ' ');
			return 1;
		}
	return 0;
}

/* An entity at s ('&'), decoded into b; the bytes it took, or 0 if it is none of those written here. */
static size_t
S_entity(const char *s, struct buf *b)
{
	static const struct { const char *name; const char *text; } named[] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
		{ "&apos;", "'" }, { "&nbsp;", " " },
	};
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strncmp(s, named[i].name, strlen(named[i].name)) == 0) {
			buf_puts(b, named[i].text);
			return strlen(named[i].name);
		}
	if (s[1] == '#') {
		char *end;
		unsigned long cp = s[2] == 'x' || s[2] == 'X' ? strtoul(s + 3, &end, 16) :
		    strtoul(s + 2, &end, 10);

		if (*end == ';' && end > s + 2 && cp > 0 && cp <= 0x10ffff) {
			buf_put_utf8(b, (uint32_t)cp);
			return (size_t)(end + 1 - s);
		}
	}
	return 0;
}

/*
 * As Anki's strip_html_preserving_media_filenames: an image becomes
 * " name ", comments, styles and scripts go whole, other tags go, and
 * entities are decoded.
 */
char *
anki_strip_html(const char *html)
{
	struct buf b;
	const char *s = html;

	buf_init(&b);
	while (*s) {
		if (*s == '&') {
			size_t n = S_entity(s, &b);

			if (n == 0)
				buf_putc(&b, *s++);
			s += n;
			continue;
		}
		if (*s != '<') {
			buf_putc(&b, *s++);
			continue;
		}
		if (strncmp(s, "<!--", 4) == 0) {
			const char *e = strstr(s + 4, "-->");

			if (e == NULL)
				break;
			s = e + 3;
			continue;
		}
		if (S_starts(s + 1, "style") || S_starts(s + 1, "script")) {
			const char *e = S_skip_element(s, S_starts(s + 1, "style") ? "style" : "script");

			if (e != NULL) {
				s = e;
				continue;
			}
		}
		{
			const char *e = strchr(s, '>');

			if (e == NULL) {
				buf_putc(&b, *s++);
				continue;
			}
			if (S_starts(s + 1, "img"))
				S_img_src(s, e, &b);
			s = e + 1;
		}
	}
	return buf_detach(&b);
}

uint32_t
anki_field_checksum(const char *html)
{
	char *text = anki_strip_html(html);
	gchar *hex = g_compute_checksum_for_string(G_CHECKSUM_SHA1, text, -1);
	char first[9];
	uint32_t v;

	memcpy(first, hex, 8);
	first[8] = '\0';
	v = (uint32_t)strtoul(first, NULL, 16);
	g_free(hex);
	free(text);
	return v;
}

/* ---- the collection's JSON --------------------------------------------- */

/*
 * A JSON string as Anki writes one. Not util's buf_put_json_string,
 * which escapes '<', line breaks and U+2028/9 for JSON inside a page's
 * <script>: the same values, other bytes, and a package's bytes are
 * what a rebuild must reproduce.
 */
static void
S_json_string(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c < 0x20)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, (int)c);
	}
	buf_putc(b, '"');
}

static void
S_json_model(struct buf *b, const struct anki_model *m, int64_t did, int64_t mod)
{
	size_t i;

	buf_printf(b, "\"%lld\":{\"id\":%lld,\"name\":", (long long)m->id, (long long)m->id);
	S_json_string(b, m->name);
	buf_printf(b, ",\"type\":%d,\"mod\":%lld,\"usn\":-1,\"sortf\":0,\"did\":%lld,\"tmpls\":[",
	    m->cloze, (long long)mod, (long long)did);
	for (i = 0; i < m->ntmpls; i++) {
		buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		S_json_string(b, m->tmpls[i].name);
		buf_printf(b, ",\"ord\":%zu,\"qfmt\":", i);
		S_json_string(b, m->tmpls[i].qfmt);
		buf_puts(b, ",\"afmt\":");
		S_json_string(b, m->tmpls[i].afmt);
		buf_puts(b, ",\"did\":null,\"bqfmt\":\"\",\"bafmt\":\"\",\"bfont\":\"\",\"bsize\":0}");
	}
	buf_puts(b, "],\"flds\":[");
	for (i = 0; i < m->nfields; i++) {
		buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		S_json_string(b, m->fields[i]);
		buf_printf(b, ",\"ord\":%zu,\"sticky\":false,\"rtl\":false,\"font\":\"Arial\","
		    "\"size\":20,\"media\":[]}", i);
	}
	buf_puts(b, "],\"css\":");
	S_json_string(b, S_css);
	buf_puts(b, ",\"latexPre\":");
	S_json_string(b, "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n"
	    "\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n"
	    "\\setlength{\\parindent}{0in}\n\\begin{document}\n");
	buf_puts(b, ",\"latexPost\":");
	S_json_string(b, "\\end{document}");
	buf_printf(b, ",\"latexsvg\":false,\"req\":%s,\"tags\":[],\"vers\":[]}", m->req);
}

static void
S_json_deck(struct buf *b, int64_t id, const char *name, const char *desc, int64_t mod)
{
	buf_printf(b, "\"%lld\":{\"id\":%lld,\"name\":", (long long)id, (long long)id);
	S_json_string(b, name);
	buf_printf(b, ",\"mod\":%lld,\"usn\":-1,\"lrnToday\":[0,0],\"revToday\":[0,0],"
	    "\"newToday\":[0,0],\"timeToday\":[0,0],\"collapsed\":false,\"browserCollapsed\":false,"
	    "\"desc\":", (long long)mod);
	S_json_string(b, desc ? desc : "");
	buf_puts(b, ",\"dyn\":0,\"conf\":1,\"extendNew\":0,\"extendRev\":0}");
}

/* ---- the collection ------------------------------------------------------ */

struct collection {
	sqlite3 *db;
	sqlite3_stmt *note, *card;
	const struct anki_package *p;
	int64_t did;
	const char *error;         /* what failed, for the message */
};

static int
S_exec(struct collection *c, const char *sql)
{
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		c->error = sqlite3_errmsg(c->db);
		return -1;
	}
	return 0;
}

static int
S_col_row(struct collection *c)
{
	const struct anki_package *p = c->p;
	int64_t ms = p->epoch * 1000;
	struct buf models, decks, conf;
	sqlite3_stmt *st = NULL;
	const struct anki_model *cur = NULL;
	int used[ANKI_NKINDS] = { 0 };
	size_t i;
	int rc = -1;

	buf_init(&models);
	buf_init(&decks);
	buf_init(&conf);
	/* The note types the notes use, and the first of them as the one to add with. */
	for (i = 0; i < p->nnotes; i++)
		used[p->notes[i].kind] = 1;
	buf_putc(&models, '{');
	for (i = 0; i < ANKI_NKINDS; i++) {
		if (!used[i])
			continue;
		if (cur == NULL)
			cur = &S_models[i];
		else
			buf_putc(&models, ',');
		S_json_model(&models, &S_models[i], c->did, p->epoch);
	}
	buf_putc(&models, '}');
	if (cur == NULL)
		cur = &S_models[0];
	buf_putc(&decks, '{');
	S_json_deck(&decks, 1, "Default", "", p->epoch);
	buf_putc(&decks, ',');
	S_json_deck(&decks, c->did, p->deck, p->description, p->epoch);
	buf_putc(&decks, '}');
	buf_printf(&conf, "{\"activeDecks\":[%lld],\"curDeck\":%lld,\"newSpread\":0,"
	    "\"collapseTime\":1200,\"timeLim\":0,\"estTimes\":true,\"dueCounts\":true,"
	    "\"curModel\":\"%lld\",\"nextPos\":%zu,\"sortType\":\"noteFld\",\"sortBackwards\":false,"
	    "\"addToCur\":true}", (long long)c->did, (long long)c->did, (long long)cur->id,
	    p->nnotes + 1);
	if (sqlite3_prepare_v2(c->db, "insert into col values (1,?,?,?,11,0,0,0,?,?,?,?,'{}')",
	    -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(st, 1, p->epoch - p->epoch % 86400);
	sqlite3_bind_int64(st, 2, ms);
	sqlite3_bind_int64(st, 3, ms);
	sqlite3_bind_text(st, 4, buf_str(&conf), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, buf_str(&models), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, buf_str(&decks), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7,
	    "{\"1\":{\"id\":1,\"name\":\"Default\",\"mod\":0,\"usn\":0,\"maxTaken\":60,"
	    "\"autoplay\":true,\"timer\":0,\"replayq\":true,\"dyn\":false,"
	    "\"new\":{\"bury\":false,\"delays\":[1.0,10.0],\"initialFactor\":2500,"
	    "\"ints\":[1,4,0],\"order\":1,\"perDay\":20,\"separate\":true},"
	    "\"lapse\":{\"delays\":[10.0],\"leechAction\":1,\"leechFails\":8,\"minInt\":1,"
	    "\"mult\":0.0},"
	    "\"rev\":{\"bury\":false,\"ease4\":1.3,\"fuzz\":0.05,\"ivlFct\":1.0,\"maxIvl\":36500,"
	    "\"minSpace\":1,\"perDay\":200,\"hardFactor\":1.2}}}", -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto out;
	rc = 0;
out:
	if (rc == -1)
		c->error = sqlite3_errmsg(c->db);
	sqlite3_finalize(st);
	buf_free(&models);
	buf_free(&decks);
	buf_free(&conf);
	return rc;
}

/*
 * Runs st, bound with id at 1, moving id on by one while it is taken:
 * two keys whose hashes meet still get ids, the same on every export.
 * Returns the id used, or -1.
 */
static int64_t
S_insert_with_id(struct collection *c, sqlite3_stmt *st, int64_t id)
{
	int rc;

	for (;;) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc == SQLITE_DONE)
			return id;
		if (rc != SQLITE_CONSTRAINT) {
			c->error = sqlite3_errmsg(c->db);
			return -1;
		}
		id++;
	}
}

/*
 * The ords of the cards a note of model m makes, ascending: a standard
 * type one per template whose first field is not empty (as its req
 * says: template k needs field k); a cloze type one per cloze number
 * n in its first field, ord n - 1 (Anki makes the first card of a
 * note without any, to show that it has none). Returns how many.
 */
static size_t
S_card_ords(const struct anki_model *m, const struct anki_note *n, int *ords)
{
	const char *p;
	size_t i, k = 0;
	char seen[ANKI_MAX_CARDS] = { 0 };

	if (!m->cloze) {
		for (i = 0; i < m->ntmpls; i++)
			if (i == 0 || (n->fields[i] && *n->fields[i]))
				ords[k++] = (int)i;
		return k;
	}
	for (p = n->fields[0] ? n->fields[0] : ""; (p = strstr(p, "{{c")) != NULL; p += 3) {
		char *end;
		long num = strtol(p + 3, &end, 10);

		if (end > p + 3 && strncmp(end, "::", 2) == 0 && num >= 1 && num <= ANKI_MAX_CARDS)
			seen[num - 1] = 1;
	}
	for (i = 0; i < ANKI_MAX_CARDS; i++)
		if (seen[i])
			ords[k++] = (int)i;
	if (k == 0)
		ords[k++] = 0;
	return k;
}

static int
S_note(struct collection *c, const struct anki_note *n, size_t pos)
{
	const struct anki_model *m = &S_models[n->kind];
	struct buf flds;
	char *guid = anki_guid(n->key), *sfld = NULL, *tags = NULL, *ckey;
	int64_t nid;
	int ords[ANKI_MAX_CARDS];
	size_t i, nords;
	int rc = -1;

	buf_init(&flds);
	for (i = 0; i < m->nfields; i++) {
		if (i)
			buf_putc(&flds, ANKI_FIELD_SEP);
		buf_puts(&flds, n->fields[i] ? n->fields[i] : "");
	}
	sfld = anki_strip_html(n->fields[0] ? n->fields[0] : "");
	tags = n->tags && *n->tags ? xconcat(" ", n->tags, " ", NULL) : xstrdup("");
	sqlite3_bind_text(c->note, 2, guid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(c->note, 3, m->id);
	sqlite3_bind_int64(c->note, 4, c->p->epoch);
	sqlite3_bind_text(c->note, 5, tags, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->note, 6, buf_str(&flds), (int)flds.len, SQLITE_STATIC);
	sqlite3_bind_text(c->note, 7, sfld, -1, SQLITE_STATIC);
	sqlite3_bind_int64(c->note, 8, anki_field_checksum(n->fields[0] ? n->fields[0] : ""));
	if ((nid = S_insert_with_id(c, c->note, S_id(n->key, "note"))) == -1)
		goto out;
	nords = S_card_ords(m, n, ords);
	for (i = 0; i < nords; i++) {
		char ord[16];

		snprintf(ord, sizeof(ord), "card %d", ords[i]);
		ckey = xconcat(n->key, "\n", ord, NULL);
		sqlite3_bind_int64(c->card, 2, nid);
		sqlite3_bind_int64(c->card, 3, c->did);
		sqlite3_bind_int(c->card, 4, ords[i]);
		sqlite3_bind_int64(c->card, 5, c->p->epoch);
		/* A new card's due is its position among the new cards: the deck's order. */
		sqlite3_bind_int64(c->card, 6, (int64_t)pos + 1);
		if (S_insert_with_id(c, c->card, S_id(ckey, "card")) == -1) {
			free(ckey);
			goto out;
		}
		free(ckey);
	}
	rc = 0;
out:
	sqlite3_clear_bindings(c->note);
	sqlite3_clear_bindings(c->card);
	buf_free(&flds);
	free(guid);
	free(sfld);
	free(tags);
	return rc;
}

/* The collection's bytes (sqlite3_free them), or NULL with c->error set. */
static unsigned char *
S_collection(const struct anki_package *p, sqlite3_int64 *len, const char **error)
{
	struct collection c;
	unsigned char *bytes = NULL;
	size_t i;

	memset(&c, 0, sizeof(c));
	c.p = p;
	c.did = S_id(p->deck_key, "deck");
	if (sqlite3_open_v2(":memory:", &c.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		c.error = c.db ? sqlite3_errmsg(c.db) : "out of memory";
		goto out;
	}
	if (S_exec(&c, "pragma page_size = 4096; begin;") == -1 || S_exec(&c, S_schema) == -1 ||
	    S_col_row(&c) == -1)
		goto out;
	if (sqlite3_prepare_v2(c.db, "insert into notes values (?,?,?,?,-1,?,?,?,?,0,'')", -1,
	    &c.note, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c.db, "insert into cards values (?,?,?,?,?,-1,0,0,?,0,0,0,0,0,0,0,0,'')",
	    -1, &c.card, NULL) != SQLITE_OK) {
		c.error = sqlite3_errmsg(c.db);
		goto out;
	}
	for (i = 0; i < p->nnotes; i++)
		if (S_note(&c, &p->notes[i], i) == -1)
			goto out;
	if (S_exec(&c, "commit;") == -1)
		goto out;
	if ((bytes = sqlite3_serialize(c.db, "main", len, 0)) == NULL)
		c.error = "cannot serialise the collection";
out:
	*error = c.error;
	sqlite3_finalize(c.note);
	sqlite3_finalize(c.card);
	/* The message lives in the connection: keep a copy past its close. */
	if (bytes == NULL && c.error) {
		static _Thread_local char msg[256];

		snprintf(msg, sizeof(msg), "%s", c.error);
		*error = msg;
	}
	sqlite3_close(c.db);
	return bytes;
}

/* ---- the zip ------------------------------------------------------------- */

/* A time as a zip entry's DOS date and time, in UTC; 1980 at the earliest. */
static void
S_dos_time(int64_t epoch, zip_uint16_t *dtime, zip_uint16_t *ddate)
{
	time_t t = (time_t)(epoch < 315532800 ? 315532800 : epoch);
	struct tm tm;

	gmtime_r(&t, &tm);
	*dtime = (zip_uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
	*ddate = (zip_uint16_t)(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
}

/* One entry from memory that stays valid until zip_close. 0 or -1. */
static int
S_zip_add(zip_t *z, const char *name, const void *data, size_t len, int64_t epoch)
{
	zip_source_t *src = zip_source_buffer(z, data, len, 0);
	zip_uint16_t dtime, ddate;
	zip_int64_t ix;

	if (src == NULL)
		return -1;
	if ((ix = zip_file_add(z, name, src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)) < 0) {
		zip_source_free(src);
		return -1;
	}
	S_dos_time(epoch, &dtime, &ddate);
	if (zip_file_set_dostime(z, (zip_uint64_t)ix, dtime, ddate, 0) < 0 ||
	    zip_file_set_external_attributes(z, (zip_uint64_t)ix, 0, ZIP_OPSYS_UNIX,
	    (zip_uint32_t)0100644 << 16) < 0 ||
	    zip_set_file_compression(z, (zip_uint64_t)ix, ZIP_CM_DEFLATE, 9) < 0)
		return -1;
	return 0;
}

int
anki_write(const struct anki_package *p, const char *path, struct diag_list *dl)
{
	const char *error = NULL;
	sqlite3_int64 clen = 0;
	unsigned char *col = S_collection(p, &clen, &error);
	char **media = xcalloc(p->nmedia + 1, sizeof(*media));
	size_t *mlen = xcalloc(p->nmedia + 1, sizeof(*mlen));
	char names[32];
	struct buf map;
	zip_t *z = NULL;
	size_t i;
	int err = 0, rc = -1;

	buf_init(&map);
	if (col == NULL) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: the collection: %s", path, error);
		goto out;
	}
	buf_putc(&map, '{');
	for (i = 0; i < p->nmedia; i++) {
		if (file_read(p->media[i].path, &media[i], &mlen[i]) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot write %s: cannot read %s", path, p->media[i].path);
			goto out;
		}
		buf_printf(&map, "%s\"%zu\":", i ? "," : "", i);
		S_json_string(&map, p->media[i].name);
	}
	buf_putc(&map, '}');
	unlink(path);
	if ((z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err)) == NULL) {
		zip_error_t ze;

		zip_error_init_with_code(&ze, err);
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		goto out;
	}
	if (S_zip_add(z, ANKI_COLLECTION, col, (size_t)clen, p->epoch) == -1 ||
	    S_zip_add(z, ANKI_MEDIA_MAP, map.data, map.len, p->epoch) == -1)
		goto zip_failed;
	for (i = 0; i < p->nmedia; i++) {
		snprintf(names, sizeof(names), "%zu", i);
		if (S_zip_add(z, names, media[i], mlen[i], p->epoch) == -1)
			goto zip_failed;
	}
	if (zip_close(z) == 0) {
		z = NULL;
		rc = 0;
		goto out;
	}
zip_failed:
	diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, zip_strerror(z));
	zip_discard(z);
	z = NULL;
out:
	for (i = 0; i < p->nmedia; i++)
		free(media[i]);
	free(media);
	free(mlen);
	buf_free(&map);
	sqlite3_free(col);
	return rc;
}

/* ---- media names --------------------------------------------------------- */

/* 1 if the folded name is one of taken's, folded. */
static int
S_name_taken(const char *folded, const char *const *taken, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *t;
		int same;

		if (taken[i] == NULL)
			continue;
		t = md_casefold(taken[i]);
		same = strcmp(t, folded) == 0;
		free(t);
		if (same)
			return 1;
	}
	return 0;
}

char *
anki_media_name(const char *base, const char *const *taken, size_t n)
{
	struct buf b;
	const unsigned char *p = (const unsigned char *)(base ? base : "");
	char *name, *folded;
	int k = 1;

	buf_init(&b);
	buf_put(&b, "", 0);
	while (*p) {
		uint32_t cp;
		size_t len = *p >= 0x80 ? utf8_decode(p, strlen((const char *)p), &cp) : 0;

		if (len > 0) {
			buf_put(&b, p, len);
			p += len;
			continue;
		}
		if (((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '.' || *p == '-' || *p == '_') && !(b.len == 0 && *p == '.'))
			buf_putc(&b, *p);
		else
			buf_putc(&b, '_');
		p++;
	}
	if (b.len == 0)
		buf_puts(&b, "media");
	name = xstrdup(buf_str(&b));
	for (;;) {
		folded = md_casefold(name);
		if (!S_name_taken(folded, taken, n))
			break;
		free(folded);
		free(name);
		name = xasprintf("%d-%s", ++k, buf_str(&b));
	}
	free(folded);
	buf_free(&b);
	return name;
}

/*
 * export: one job per file (a deck or a test in one format), run on the
 * pool; each job opens its doc trees, renders what the format holds
 * through render.c with export URLs, and writes the file.
 */
#include "export.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "anki.h"
#include "cloze.h"
#include "lang.h"
#include "links.h"
#include "markdown.h"
#include "pool.h"
#include "render.h"
#include "site.h"
#include "theme.h"
#include "util.h"

/* Where Moodle XML files embedded in a text element are found from its HTML. */
#define MOODLE_FILE_PREFIX "@@PLUGINFILE@@/"

/* ---- media and URLs ---------------------------------------------------- */

/* The site's files an export carries, in order of first use, each under a name of its own. */
struct media {
	char **names;              /* flat: no '/' and nothing HTML or Anki would read apart */
	char **paths;              /* the source file */
	const struct asset **assets;
	size_t len, cap;
};

static void
S_media_free(struct media *m)
{
	size_t i;

	for (i = 0; i < m->len; i++) {
		free(m->names[i]);
		free(m->paths[i]);
	}
	free(m->names);
	free(m->paths);
	free(m->assets);
	memset(m, 0, sizeof(*m));
}

/* The asset whose encoded path is target, or NULL. */
static const struct asset *
S_asset(const struct site *site, const char *target)
{
	size_t i;

	for (i = 0; i < site->nassets; i++) {
		char *u = url_encode_path(site->assets[i].url);
		int same = strcmp(u, target) == 0;

		free(u);
		if (same)
			return &site->assets[i];
	}
	return NULL;
}

/* The name asset a is carried under: anki_media_name of its path below out/. */
static const char *
S_media_add(struct media *m, const struct asset *a)
{
	char *name;
	size_t i;

	for (i = 0; i < m->len; i++)
		if (m->assets[i] == a)
			return m->names[i];
	name = anki_media_name(a->url, (const char *const *)m->names, m->len);
	m->names = xgrow(m->names, &m->cap, m->len + 1, sizeof(*m->names));
	m->paths = xrealloc(m->paths, m->cap * sizeof(*m->paths));
	m->assets = xrealloc(m->assets, m->cap * sizeof(*m->assets));
	m->names[m->len] = name;
	m->paths[m->len] = xstrdup(a->src->path);
	m->assets[m->len] = a;
	return m->names[m->len++];
}

/* How an export's HTML refers to things outside it (render_opts.url). */
struct urls {
	const struct site *site;
	const struct doc *doc;
	struct media *media;       /* images are carried here, or NULL: they are not */
	const char *media_prefix;  /* before a carried image's name */
};

/*
 * The first link or image of the export file being written that could
 * not be kept, having no site address (base_url) to lead to: warned of
 * once, after the file.
 */
struct dropped {
	const char *file;          /* the source's display name; NULL: none yet */
	int line, col;
	int is_image;
};

/* The current job's, on its thread: S_run sets it around the file it writes. */
static _Thread_local struct dropped *S_dropped;

static char *
S_export_url(void *arg, cmark_node *node, const char *dest, int is_image)
{
	struct urls *u = arg;
	const char *base = u->site->cfg.base_url;
	const struct asset *a;
	char *target, *res = NULL;

	if (links_is_external(dest))
		return links_url_is_safe(dest, is_image) ? xstrdup(dest) : NULL;
	if ((target = links_output_target(u->site, u->doc, dest)) == NULL)
		return NULL;
	if (is_image && u->media && (a = S_asset(u->site, target)) != NULL)
		res = xconcat(u->media_prefix, S_media_add(u->media, a), NULL);
	else if (base && *base)
		res = xconcat(base, "/", target, NULL);
	else if (S_dropped && S_dropped->file == NULL) {
		S_dropped->file = u->doc->src->display;
		S_dropped->line = cmark_node_get_start_line(node) + u->doc->src->body_line - 1;
		S_dropped->col = cmark_node_get_start_column(node);
		S_dropped->is_image = is_image;
	}
	free(target);
	return res;
}

/* ---- rendering --------------------------------------------------------- */

/* One text of an export being rendered: its bytes, its session and writer. */
struct field {
	struct buf b;
	struct theme_writer *w;
	struct render_out out;
	struct render *r;
	struct urls urls;
};

static void
S_field_begin(struct field *f, const struct site *site, const struct doc *doc,
    const char *prefix, struct media *media, const char *media_prefix, int cloze_markers)
{
	struct render_opts o;

	memset(f, 0, sizeof(*f));
	buf_init(&f->b);
	buf_put(&f->b, "", 0);
	f->w = theme_writer_new();
	theme_writer_begin(f->w, &f->b);
	f->out.w = f->w;
	f->urls.site = site;
	f->urls.doc = doc;
	f->urls.media = media;
	f->urls.media_prefix = media_prefix ? media_prefix : "";
	memset(&o, 0, sizeof(o));
	o.site = site;
	o.doc = doc;
	o.page_url = doc->url ? doc->url : "index.html";
	o.id_prefix = prefix;
	o.url = S_export_url;
	o.url_arg = &f->urls;
	o.cloze_markers = cloze_markers;
	f->r = render_new(&o);
}

/* The HTML written, without the line breaks around it; caller frees. */
static char *
S_field_end(struct field *f)
{
	char *s, *start;
	size_t n;

	render_free(f->r);
	theme_writer_free(f->w);
	s = buf_detach(&f->b);
	for (start = s; *start == '\n'; start++)
		;
	n = strlen(start);
	while (n > 0 && start[n - 1] == '\n')
		n--;
	memmove(s, start, n);
	s[n] = '\0';
	return s;
}

/*
 * The children of node (a heading's inlines, a block quote's blocks);
 * with cloze_markers, a cloze heading with every deletion as written
 * around its rendered answer: Anki's Text field.
 */
static char *
S_html_children(const struct site *site, const struct doc *doc, const char *prefix,
    cmark_node *node, struct media *media, const char *media_prefix, int cloze_markers)
{
	struct field f;

	S_field_begin(&f, site, doc, prefix, media, media_prefix, cloze_markers);
	if (node)
		render_out_children(f.r, &f.out, node);
	render_out_footnotes(f.r, &f.out);
	return S_field_end(&f);
}

/* The blocks of a range, and the footnotes they reference. */
static char *
S_html_blocks(const struct site *site, const struct doc *doc, const char *prefix,
    const struct block_range *range, struct media *media, const char *media_prefix)
{
	struct field f;

	S_field_begin(&f, site, doc, prefix, media, media_prefix, 0);
	if (range->first)
		render_out_blocks(f.r, &f.out, range->first, range->last);
	render_out_footnotes(f.r, &f.out);
	return S_field_end(&f);
}

/* A task-list option's own blocks: everything in the item but its feedback. */
static char *
S_html_option(const struct site *site, const struct doc *doc, const char *prefix,
    const struct option_nodes *on, struct media *media, const char *media_prefix)
{
	struct field f;
	cmark_node *c;

	S_field_begin(&f, site, doc, prefix, media, media_prefix, 0);
	for (c = cmark_node_first_child(on->item); c; c = cmark_node_next(c))
		if (c != on->feedback)
			render_out_blocks(f.r, &f.out, c, c);
	render_out_footnotes(f.r, &f.out);
	return S_field_end(&f);
}

static const char *
S_difficulty(enum difficulty d)
{
	switch (d) {
	case DIFF_EASY:
		return "easy";
	case DIFF_HARD:
		return "hard";
	default:
		return "medium";
	}
}

/*
 * A note's key: its deck and the id of the heading that makes its cards,
 * the same on every export (the guid is made of it). A basic card's id
 * is its heading's; a cloze note's cards (<id>-c1...) and a reversed
 * twin (<id>-r) share their heading's, so a re-export updates the note.
 * Caller frees.
 */
static char *
S_note_key(const struct card *c)
{
	return xconcat(c->deck->slug, "/", c->note_id, NULL);
}

/* ---- a deck ------------------------------------------------------------ */

/*
 * A deck's notes, in deck order: the cards one heading makes are one
 * note (Anki makes the cards from it). A basic card is a Basic note; a
 * basic card and its reversed twin one "Basic (and reversed card)"
 * note; a cloze heading's cards one Cloze note, whose Text holds every
 * deletion as written.
 */
struct deck_note {
	const struct card *card;   /* its first card */
	size_t ncards;
	enum anki_kind kind;
	char *field[2];            /* HTML: Front and Back, or Text and Back Extra */
};

struct deck_notes {
	struct deck_note *v;
	size_t n;
};

static void
S_deck_notes_free(struct deck_notes *dn)
{
	size_t i;

	for (i = 0; i < dn->n; i++) {
		free(dn->v[i].field[0]);
		free(dn->v[i].field[1]);
	}
	free(dn->v);
}

static void
S_deck_notes(const struct site *site, const struct deck *d, struct media *media,
    struct deck_notes *dn)
{
	struct doc_tree *t = doc_tree_open(d->doc);
	size_t i, k;

	memset(dn, 0, sizeof(*dn));
	dn->v = xcalloc(d->ncards + 1, sizeof(*dn->v));
	for (i = 0; i < d->ncards; i += k) {
		const struct card *c = &d->cards[i];
		const struct card_nodes *cn = doc_tree_card(t, c);
		struct deck_note *n = &dn->v[dn->n++];
		char *prefix = xconcat(c->note_id, "-", NULL);
		struct block_range none = { NULL, NULL };
		cmark_node *h = cn ? cn->heading : NULL;

		for (k = 1; i + k < d->ncards && strcmp(d->cards[i + k].note_id, c->note_id) == 0; k++)
			;
		n->card = c;
		n->ncards = k;
		n->kind = c->kind == CARD_CLOZE ? ANKI_CLOZE : k > 1 ? ANKI_BASIC_REVERSED : ANKI_BASIC;
		n->field[0] = S_html_children(site, d->doc, prefix, h, media, "", n->kind == ANKI_CLOZE);
		n->field[1] = S_html_blocks(site, d->doc, prefix, cn ? &cn->back : &none, media, "");
		free(prefix);
	}
	doc_tree_close(t);
}

static int
S_write_anki(const struct site *site, const struct deck *d, const char *path, struct diag_list *dl)
{
	struct media media;
	struct deck_notes dn;
	struct anki_package p;
	struct anki_note *notes;
	struct anki_media *am;
	char **keys;
	const char **fields;
	struct buf desc;
	size_t i;
	int rc;

	memset(&media, 0, sizeof(media));
	S_deck_notes(site, d, &media, &dn);
	notes = xcalloc(dn.n + 1, sizeof(*notes));
	keys = xcalloc(dn.n + 1, sizeof(*keys));
	fields = xcalloc(2 * dn.n + 1, sizeof(*fields));
	am = xcalloc(media.len + 1, sizeof(*am));
	for (i = 0; i < dn.n; i++) {
		keys[i] = S_note_key(dn.v[i].card);
		fields[2 * i] = dn.v[i].field[0];
		fields[2 * i + 1] = dn.v[i].field[1];
		notes[i].key = keys[i];
		notes[i].kind = dn.v[i].kind;
		notes[i].fields = &fields[2 * i];
	}
	for (i = 0; i < media.len; i++) {
		am[i].name = media.names[i];
		am[i].path = media.paths[i];
	}
	buf_init(&desc);
	buf_put(&desc, "", 0);
	buf_put_escaped(&desc, d->description, 1);
	memset(&p, 0, sizeof(p));
	p.deck = d->title;
	p.description = buf_str(&desc);
	p.deck_key = d->slug;
	p.notes = notes;
	p.nnotes = dn.n;
	p.media = am;
	p.nmedia = media.len;
	p.epoch = source_date_epoch();
	rc = anki_write(&p, path, dl);
	for (i = 0; i < dn.n; i++)
		free(keys[i]);
	free(keys);
	free(fields);
	free(notes);
	free(am);
	buf_free(&desc);
	S_deck_notes_free(&dn);
	S_media_free(&media);
	return rc;
}

/*
 * A CSV field as Anki's text import (RFC 4180) reads it: in double
 * quotes, quotes doubled, when it holds a comma, quote or line break, or
 * starts with '#' (a line that does is a comment to Anki).
 */
static void
S_csv_field(struct buf *b, const char *s)
{
	const char *p;

	if (strpbrk(s, ",\"\r\n") == NULL && s[0] != '#') {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			buf_putc(b, '"');
		buf_putc(b, *p);
	}
	buf_putc(b, '"');
}

/* Anki's own note types, by the names a new collection gives them: what a CSV row names. */
static const char *const S_csv_notetype[ANKI_NKINDS] = {
	[ANKI_BASIC] = "Basic",
	[ANKI_BASIC_REVERSED] = "Basic (and reversed card)",
	[ANKI_CLOZE] = "Cloze",
};

/*
 * Anki's text import: a row per note, its note type in the last column,
 * so one file holds basic, reversed and cloze notes; the two fields fill
 * the type's fields in order (Front, Back or Text, Back Extra).
 */
static int
S_csv(const struct site *site, const struct deck *d, struct buf *out, struct diag_list *dl)
{
	struct deck_notes dn;
	size_t i;

	(void)dl;
	S_deck_notes(site, d, NULL, &dn);
	/* Anki's file headers: what the columns are, so no import option needs setting. */
	buf_puts(out, "#separator:comma\n#html:true\n"
	    "#columns:Front or Text,Back or Back Extra,Deck,GUID,Notetype\n"
	    "#deck column:3\n#guid column:4\n#notetype column:5\n");
	for (i = 0; i < dn.n; i++) {
		char *key = S_note_key(dn.v[i].card), *guid = anki_guid(key);

		S_csv_field(out, dn.v[i].field[0]);
		buf_putc(out, ',');
		S_csv_field(out, dn.v[i].field[1]);
		buf_putc(out, ',');
		S_csv_field(out, d->title);
		buf_putc(out, ',');
		S_csv_field(out, guid);
		buf_putc(out, ',');
		S_csv_field(out, S_csv_notetype[dn.v[i].kind]);
		buf_putc(out, '\n');
		free(guid);
		free(key);
	}
	S_deck_notes_free(&dn);
	return 0;
}

/* Text on one line of a TSV: tabs and line breaks become spaces, runs of spaces one. */
static void
S_tsv_field(struct buf *b, const char *s)
{
	int space = 1;

	for (; *s; s++) {
		int c = *s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s;

		if (c == ' ' && space)
			continue;
		space = c == ' ';
		buf_putc(b, c);
	}
	while (b->len > 0 && b->data[b->len - 1] == ' ')
		b->data[--b->len] = '\0';
}

/*
 * A card's back as one line of plain text: its blocks, then the text of
 * the footnotes they reference, in order of first reference (the marks
 * themselves have no place in plain text).
 */
static void
S_tsv_back(struct buf *out, const struct block_range *back)
{
	cmark_node *b, *root, *c;
	long *nums = NULL;
	size_t n = 0, cap = 0, i;
	long k;
	int first = 1;

	for (b = back->first; b; b = cmark_node_next(b)) {
		cmark_iter *it;
		cmark_event_type ev;

		/* cmark-gfm moves definitions to the end, into the last card's range. */
		if (cmark_node_get_type(b) != CMARK_NODE_FOOTNOTE_DEFINITION) {
			char *text = md_plain_text(b);

			if (!first && *text)
				buf_putc(out, ' ');
			first &= !*text;
			S_tsv_field(out, text);
			free(text);
			it = cmark_iter_new(b);
			while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
				cmark_node *x = cmark_iter_get_node(it);
				const char *lit;

				if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(x) != CMARK_NODE_FOOTNOTE_REFERENCE)
					continue;
				lit = cmark_node_get_literal(x);
				k = lit ? strtol(lit, NULL, 10) : 0;
				for (i = 0; i < n && nums[i] != k; i++)
					;
				if (k > 0 && i == n) {
					nums = xgrow(nums, &cap, n + 1, sizeof(*nums));
					nums[n++] = k;
				}
			}
			cmark_iter_free(it);
		}
		if (b == back->last)
			break;
	}
	for (root = back->first; root && cmark_node_parent(root); root = cmark_node_parent(root))
		;
	for (i = 0; i < n; i++) {
		/* The definitions are numbered in document order, as render.c numbers them. */
		for (c = root ? cmark_node_first_child(root) : NULL, k = 0; c; c = cmark_node_next(c))
			if (cmark_node_get_type(c) == CMARK_NODE_FOOTNOTE_DEFINITION && ++k == nums[i]) {
				char *text = md_plain_text(c);

				buf_putc(out, ' ');
				S_tsv_field(out, text);
				free(text);
				break;
			}
	}
	free(nums);
}

/*
 * Quizlet's import: "term<TAB>definition" a line, plain text. A cloze
 * card is its blanked front, then the whole text answered before the
 * back. A reversed twin has no line: Quizlet asks each term either way
 * already (its "answer with term or definition"), so the twin would be
 * the same pair twice.
 */
static int
S_tsv(const struct site *site, const struct deck *d, struct buf *out, struct diag_list *dl)
{
	struct doc_tree *t = doc_tree_open(d->doc);
	size_t i;

	(void)site;
	(void)dl;
	for (i = 0; i < d->ncards; i++) {
		const struct card *c = &d->cards[i];
		const struct card_nodes *cn = doc_tree_card(t, c);

		if (c->kind == CARD_REVERSED)
			continue;
		S_tsv_field(out, c->front_text);
		buf_putc(out, '\t');
		if (cn && c->kind == CARD_CLOZE) {
			char *answered = cloze_text(cn->heading, CLOZE_SHOW_TEXT, 0);
			size_t len = out->len;

			S_tsv_field(out, answered);
			free(answered);
			if (cn->back.first && out->len > len)
				buf_putc(out, ' ');
		}
		if (cn)
			S_tsv_back(out, &cn->back);
		buf_putc(out, '\n');
	}
	doc_tree_close(t);
	return 0;
}

/* ---- a test ------------------------------------------------------------ */

/* HTML in a CDATA section; a "]]>" in it is split across two sections. */
static void
S_cdata(struct buf *b, const char *html)
{
	const char *p = html, *end;

	buf_puts(b, "<![CDATA[");
	while ((end = strstr(p, "]]>")) != NULL) {
		buf_put(b, p, (size_t)(end - p));
		buf_puts(b, "]]]]><![CDATA[>");
		p = end + 3;
	}
	buf_puts(b, p);
	buf_puts(b, "]]>");
}

/* The files m holds, embedded in base64 (Moodle XML's <file>). -1 with an error if one cannot be read. */
static int
S_moodle_files(struct buf *b, const char *indent, const struct media *m, struct diag_list *dl)
{
	size_t i;

	for (i = 0; m && i < m->len; i++) {
		char *data;
		size_t len;
		gchar *b64;

		if (file_read(m->paths[i], &data, &len) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot read %s to embed it: %s", m->paths[i], strerror(errno));
			return -1;
		}
		b64 = g_base64_encode((const guchar *)data, len);
		buf_printf(b, "%s<file name=\"", indent);
		buf_put_escaped(b, m->names[i], 0);
		buf_printf(b, "\" path=\"/\" encoding=\"base64\">%s</file>\n", b64);
		g_free(b64);
		free(data);
	}
	return 0;
}

/*
 * A Moodle text element <tag format="html"> holding html, with the files
 * its HTML refers to (@@PLUGINFILE@@/name) embedded after the text.
 */
static int
S_moodle_text(struct buf *b, const char *indent, const char *tag, const char *html,
    const struct media *m, struct diag_list *dl)
{
	char *inner = xconcat(indent, "  ", NULL);
	int rc;

	buf_printf(b, "%s<%s format=\"html\">\n%s<text>", indent, tag, inner);
	S_cdata(b, html);
	buf_puts(b, "</text>\n");
	rc = S_moodle_files(b, inner, m, dl);
	buf_printf(b, "%s</%s>\n", indent, tag);
	free(inner);
	return rc;
}

/* A Moodle category path part: '/' separates parts, so one in a name is doubled. */
static void
S_category_part(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '/')
			buf_putc(b, '/');
		buf_putc(b, *s);
	}
}

/*
 * The fraction of the grade an option gives: a single answer 100 or 0;
 * with several correct, each correct one an equal share of 100 and each
 * wrong one an equal share of -100, so ticking everything scores 0.
 */
static double
S_fraction(const struct question *q, size_t i)
{
	size_t k, ncorrect = 0;

	for (k = 0; k < q->noptions; k++)
		ncorrect += q->options[k].correct != 0;
	if (!q->multi)
		return q->options[i].correct ? 100.0 : 0.0;
	if (q->options[i].correct)
		return 100.0 / (double)ncorrect;
	return -100.0 / (double)(q->noptions - ncorrect);
}

/* The HTML of a question's parts, and the files each refers to. */
struct question_html {
	char *stem, *explanation;  /* the stem: its heading, further blocks and hint */
	struct media stem_m, expl_m;
	char **option, **feedback;
	struct media *option_m, *feedback_m;
	size_t n;
};

static void
S_question_html(const struct site *site, const struct question *q, const struct doc_tree *t,
    int carry, struct question_html *qh)
{
	const struct question_nodes *qn = doc_tree_question(t, q);
	const struct doc *doc = q->topic->doc;
	const char *pre = carry ? MOODLE_FILE_PREFIX : "";
	char *prefix = xconcat(q->id, "-", NULL);
	struct block_range none = { NULL, NULL };
	struct field f;
	size_t i;

	memset(qh, 0, sizeof(*qh));
	S_field_begin(&f, site, doc, prefix, carry ? &qh->stem_m : NULL, pre, 0);
	if (qn) {
		render_out_open(&f.out, "p", NULL);
		render_out_children(f.r, &f.out, qn->heading);
		render_out_close(&f.out);
		render_out_nl(&f.out);
		if (qn->stem.first)
			render_out_blocks(f.r, &f.out, qn->stem.first, qn->stem.last);
		/* The hint is shown with the question on the site: it may hold what the question needs. */
		if (qn->hint) {
			render_out_open(&f.out, "blockquote", "hint");
			render_out_children(f.r, &f.out, qn->hint);
			render_out_close(&f.out);
		}
	}
	render_out_footnotes(f.r, &f.out);
	qh->stem = S_field_end(&f);
	qh->explanation = S_html_blocks(site, doc, prefix, qn ? &qn->explanation : &none,
	    carry ? &qh->expl_m : NULL, pre);
	qh->n = qn ? q->noptions : 0;
	qh->option = xcalloc(qh->n + 1, sizeof(*qh->option));
	qh->feedback = xcalloc(qh->n + 1, sizeof(*qh->feedback));
	qh->option_m = xcalloc(qh->n + 1, sizeof(*qh->option_m));
	qh->feedback_m = xcalloc(qh->n + 1, sizeof(*qh->feedback_m));
	for (i = 0; i < qh->n; i++) {
		qh->option[i] = S_html_option(site, doc, prefix, &qn->options[i],
		    carry ? &qh->option_m[i] : NULL, pre);
		if (qn->options[i].feedback)
			qh->feedback[i] = S_html_children(site, doc, prefix, qn->options[i].feedback,
			    carry ? &qh->feedback_m[i] : NULL, pre, 0);
	}
	free(prefix);
}

static void
S_question_html_free(struct question_html *qh)
{
	size_t i;

	for (i = 0; i < qh->n; i++) {
		free(qh->option[i]);
		free(qh->feedback[i]);
		S_media_free(&qh->option_m[i]);
		S_media_free(&qh->feedback_m[i]);
	}
	free(qh->option);
	free(qh->feedback);
	free(qh->option_m);
	free(qh->feedback_m);
	free(qh->stem);
	free(qh->explanation);
	S_media_free(&qh->stem_m);
	S_media_free(&qh->expl_m);
}

/* Moodle keeps a question's name under 255 characters: the stem, cut at a character. */
static void
S_question_name(struct buf *b, const char *stem)
{
	size_t n = strlen(stem), max = 250;

	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)stem[n] & 0xc0) == 0x80)
			n--;
	}
	{
		char *s = xstrndup(stem, n);

		buf_put_escaped(b, s, 0);
		free(s);
	}
}

/*
 * A typed number as Moodle reads one: a point for the decimal, no
 * exponent it would not take, no trailing zeros.
 */
static void
S_number(struct buf *b, double v)
{
	char s[64];

	if (v == 0)
		v = 0;                 /* not "-0" */
	snprintf(s, sizeof(s), "%.12g", v);
	buf_puts(b, s);
}

/* 1 if a typed answer holds a line break: Moodle's and GIFT's short answer is one line. */
static int
S_multiline(const struct question *q)
{
	size_t i;

	for (i = 0; i < q->noptions; i++)
		if (q->options[i].answer && strchr(q->options[i].answer, '\n'))
			return 1;
	return 0;
}

/*
 * The Moodle question type of q: a choice is multichoice (single false
 * for choose-all); a number numerical; a text, and a program's output of
 * one line, shortanswer; an output of several lines an essay, since a
 * short answer is one line: its accepted outputs go to the grader.
 */
static const char *
S_moodle_type(const struct question *q)
{
	switch (q->kind) {
	case ANSWER_NUMBER:
		return "numerical";
	case ANSWER_TEXT:
		return "shortanswer";
	case ANSWER_OUTPUT:
		return S_multiline(q) ? "essay" : "shortanswer";
	default:
		return "multichoice";
	}
}

/* A short answer as Moodle matches it: '*' is its wildcard, so a literal one is "\*". */
static void
S_shortanswer_text(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '*')
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
}

/* The fraction of a typed answer: a right one the whole grade, a foreseen wrong one none. */
static double
S_typed_fraction(const struct question *q, size_t i)
{
	return q->options[i].correct ? 100.0 : 0.0;
}

/* A typed answer's <feedback>. */
static int
S_moodle_feedback(struct buf *out, const struct question_html *qh, size_t i, struct diag_list *dl)
{
	return S_moodle_text(out, "      ", "feedback", qh->feedback[i] ? qh->feedback[i] : "",
	    &qh->feedback_m[i], dl);
}

/* The unit of q's first right answer that has one: Moodle's unit 1, or "". */
static const char *
S_question_unit(const struct question *q)
{
	size_t i;

	for (i = 0; i < q->noptions; i++)
		if (q->options[i].correct && q->options[i].unit && *q->options[i].unit)
			return q->options[i].unit;
	return "";
}

static const char *
S_unit(const struct quiz_option *o)
{
	return o->unit ? o->unit : "";
}

/*
 * The right answer that says what unit u is worth, or -1: the first
 * right answer in u. quizdeck converts no unit, but two right answers in
 * two units ("14 GB", "14000 MB") say the same amount, so their ratio is
 * Moodle's multiplier for the second unit (how many of it make one of
 * the question's unit).
 */
static long
S_unit_answer(const struct question *q, const char *u)
{
	size_t i;

	for (i = 0; i < q->noptions; i++)
		if (q->options[i].correct && strcmp(S_unit(&q->options[i]), u) == 0)
			return (long)i;
	return -1;
}

/* How many of unit u make one of the question's unit; 0 when no right answer says. */
static double
S_unit_multiplier(const struct question *q, const char *u)
{
	const char *base = S_question_unit(q);
	long b = S_unit_answer(q, base), k = S_unit_answer(q, u);
	double vb, vk;

	if (!*u || strcmp(u, base) == 0)
		return 1;
	if (b < 0 || k < 0)
		return 0;
	vb = (q->options[b].min + q->options[b].max) / 2;
	vk = (q->options[k].min + q->options[k].max) / 2;
	return vb != 0 && vk != 0 ? vk / vb : 0;
}

/* The items of a number question as written: each in the question's unit, or left out. */
struct typed_numbers {
	double *value, *tolerance;  /* the middle of its range, half of it */
	int *written;
};

/*
 * Each item of number question q in the question's unit. An item is not
 * written when it is the right answer that defines its unit's multiplier
 * (Moodle accepts it through the unit), the same as an earlier one
 * ("720" and "720 assignments" once the unit is optional), or a wrong one
 * in a unit no right answer uses (Moodle could not compare it; the
 * Moodle XML export warns). Free with S_typed_numbers_free.
 */
static void
S_typed_numbers(const struct question *q, struct typed_numbers *tn)
{
	const char *base = S_question_unit(q);
	size_t i, j;

	tn->value = xcalloc(q->noptions + 1, sizeof(*tn->value));
	tn->tolerance = xcalloc(q->noptions + 1, sizeof(*tn->tolerance));
	tn->written = xcalloc(q->noptions + 1, sizeof(*tn->written));
	for (i = 0; i < q->noptions; i++) {
		const struct quiz_option *o = &q->options[i];
		const char *u = S_unit(o);
		double m = S_unit_multiplier(q, u);

		if (m == 0 || (*u && strcmp(u, base) != 0 && S_unit_answer(q, u) == (long)i))
			continue;
		tn->value[i] = (o->min + o->max) / 2 / m;
		tn->tolerance[i] = (o->max - o->min) / 2 / m;
		tn->written[i] = 1;
		for (j = 0; j < i && tn->written[i]; j++)
			if (tn->written[j] && !q->options[j].correct == !o->correct &&
			    tn->value[j] == tn->value[i] && tn->tolerance[j] == tn->tolerance[i])
				tn->written[i] = 0;
	}
}

static void
S_typed_numbers_free(struct typed_numbers *tn)
{
	free(tn->value);
	free(tn->tolerance);
	free(tn->written);
}

/*
 * numerical: each item an answer at the middle of its range with half
 * the range as Moodle's tolerance (absolute, either side; a relative
 * "± 5 %" is already a range). The unit is optional, as on the site: a
 * learner may leave it out, and one typed must be one of the question's
 * (no conversion but the ratios its right answers give).
 */
static int
S_moodle_numerical(const struct question *q, const struct question_html *qh, struct buf *out,
    struct diag_list *dl)
{
	const char *unit = S_question_unit(q);
	struct typed_numbers tn;
	size_t i;
	int rc = 0;

	S_typed_numbers(q, &tn);
	for (i = 0; i < q->noptions && rc == 0; i++) {
		if (!tn.written[i]) {
			if (S_unit_multiplier(q, S_unit(&q->options[i])) == 0)
				diag_warning(dl, q->topic->doc->src->display, q->options[i].line, q->options[i].col,
				    "the wrong answer \"%s\" is in %s, a unit no right answer of question \"%s\" "
				    "uses, so Moodle cannot compare it and the export leaves it out: write it in %s",
				    q->options[i].answer, S_unit(&q->options[i]), q->id, unit);
			continue;
		}
		buf_printf(out, "    <answer fraction=\"%.7g\" format=\"moodle_auto_format\">\n      <text>",
		    S_typed_fraction(q, i));
		S_number(out, tn.value[i]);
		buf_puts(out, "</text>\n");
		rc = S_moodle_feedback(out, qh, i, dl);
		buf_puts(out, "      <tolerance>");
		S_number(out, tn.tolerance[i]);
		buf_puts(out, "</tolerance>\n    </answer>\n");
	}
	S_typed_numbers_free(&tn);
	if (rc == -1)
		return -1;
	if (*unit) {
		buf_puts(out, "    <units>\n");
		for (i = 0; i < q->noptions; i++) {
			const char *u = S_unit(&q->options[i]);

			if (!*u || S_unit_answer(q, u) != (long)i || S_unit_multiplier(q, u) == 0)
				continue;
			buf_puts(out, "      <unit>\n        <multiplier>");
			S_number(out, S_unit_multiplier(q, u));
			buf_puts(out, "</multiplier>\n        <unit_name>");
			buf_put_escaped(out, u, 0);
			buf_puts(out, "</unit_name>\n      </unit>\n");
		}
		buf_puts(out, "    </units>\n");
	}
	/* showunits 0: a box for the unit, 3: none; unitgradingtype 0: the unit is optional. */
	buf_printf(out, "    <unitgradingtype>0</unitgradingtype>\n    <unitpenalty>0</unitpenalty>\n"
	    "    <showunits>%d</showunits>\n    <unitsleft>0</unitsleft>\n", *unit ? 0 : 3);
	return 0;
}

/*
 * shortanswer: each item an answer; a text is compared without case
 * (usecase 0) unless the question is .exact, a program's output with it.
 */
static int
S_moodle_shortanswer(const struct question *q, const struct question_html *qh, struct buf *out,
    struct diag_list *dl)
{
	size_t i;

	buf_printf(out, "    <usecase>%d</usecase>\n", q->exact || q->kind == ANSWER_OUTPUT);
	for (i = 0; i < q->noptions; i++) {
		struct buf t;

		buf_printf(out, "    <answer fraction=\"%.7g\" format=\"moodle_auto_format\">\n      <text>",
		    S_typed_fraction(q, i));
		buf_init(&t);
		buf_put(&t, "", 0);
		S_shortanswer_text(&t, q->options[i].answer ? q->options[i].answer : "");
		buf_put_escaped(out, buf_str(&t), 0);
		buf_free(&t);
		buf_puts(out, "</text>\n");
		if (S_moodle_feedback(out, qh, i, dl) == -1)
			return -1;
		buf_puts(out, "    </answer>\n");
	}
	return 0;
}

/*
 * The outputs of q as HTML for whoever grades it: the accepted ones,
 * then the foreseen wrong ones, each with its feedback.
 */
static void
S_output_html(const struct question *q, const struct question_html *qh, int correct, struct buf *b)
{
	size_t i;

	for (i = 0; i < q->noptions; i++) {
		if (!q->options[i].correct != !correct)
			continue;
		buf_puts(b, correct ? "<p>Accepted output:</p>\n<pre><code>" : "<p>A foreseen wrong output:</p>\n<pre><code>");
		buf_put_escaped(b, q->options[i].answer, 1);
		buf_puts(b, "</code></pre>\n");
		if (qh->feedback[i]) {
			buf_puts(b, qh->feedback[i]);
			buf_putc(b, '\n');
		}
	}
}

/* essay: a monospaced box as tall as the longest output; the outputs go to the grader. */
static int
S_moodle_essay(const struct question *q, const struct question_html *qh, struct buf *out,
    struct diag_list *dl)
{
	struct buf info;
	struct media files;
	size_t i, k, lines = 3;
	int rc;

	for (i = 0; i < q->noptions; i++) {
		const char *p = q->options[i].answer;
		size_t n = 1;

		for (; p && *p; p++)
			n += *p == '\n';
		if (n + 1 > lines)
			lines = n + 1;
	}
	buf_printf(out, "    <responseformat>monospaced</responseformat>\n"
	    "    <responserequired>1</responserequired>\n"
	    "    <responsefieldlines>%zu</responsefieldlines>\n"
	    "    <attachments>0</attachments>\n    <attachmentsrequired>0</attachmentsrequired>\n", lines);
	buf_init(&info);
	buf_put(&info, "", 0);
	S_output_html(q, qh, 1, &info);
	S_output_html(q, qh, 0, &info);
	/* The files the feedbacks use go with the grader's text, which holds them. */
	memset(&files, 0, sizeof(files));
	for (i = 0; i < qh->n; i++)
		for (k = 0; k < qh->feedback_m[i].len; k++)
			S_media_add(&files, qh->feedback_m[i].assets[k]);
	while (info.len > 0 && info.data[info.len - 1] == '\n')
		info.data[--info.len] = '\0';
	rc = S_moodle_text(out, "    ", "graderinfo", buf_str(&info), &files, dl);
	buf_puts(out, "    <responsetemplate format=\"html\">\n      <text></text>\n    </responsetemplate>\n");
	buf_free(&info);
	S_media_free(&files);
	return rc;
}

static int
S_moodle_multichoice(const struct question *q, const struct question_html *qh, struct buf *out,
    struct diag_list *dl)
{
	size_t i;

	buf_printf(out, "    <single>%s</single>\n    <shuffleanswers>true</shuffleanswers>\n"
	    "    <answernumbering>abc</answernumbering>\n"
	    "    <showstandardinstruction>%d</showstandardinstruction>\n",
	    q->multi ? "false" : "true", q->multi);
	for (i = 0; i < qh->n; i++) {
		buf_printf(out, "    <answer fraction=\"%.7g\" format=\"html\">\n      <text>",
		    S_fraction(q, i));
		S_cdata(out, qh->option[i]);
		buf_puts(out, "</text>\n");
		if (S_moodle_files(out, "      ", &qh->option_m[i], dl) == -1)
			return -1;
		if (S_moodle_feedback(out, qh, i, dl) == -1)
			return -1;
		buf_puts(out, "    </answer>\n");
	}
	return 0;
}

static int
S_moodle_question(const struct site *site, const struct question *q, const struct doc_tree *t,
    struct buf *out, struct diag_list *dl)
{
	struct question_html qh;
	const char *type = S_moodle_type(q);
	int rc = -1;

	S_question_html(site, q, t, 1, &qh);
	buf_printf(out, "  <question type=\"%s\">\n    <name>\n      <text>", type);
	S_question_name(out, q->stem_text);
	buf_puts(out, "</text>\n    </name>\n");
	if (S_moodle_text(out, "    ", "questiontext", qh.stem, &qh.stem_m, dl) == -1 ||
	    S_moodle_text(out, "    ", "generalfeedback", qh.explanation, &qh.expl_m, dl) == -1)
		goto out;
	buf_printf(out, "    <defaultgrade>1</defaultgrade>\n    <penalty>%s</penalty>\n"
	    "    <hidden>0</hidden>\n    <idnumber>", strcmp(type, "essay") == 0 ? "0" : "0.3333333");
	buf_put_escaped(out, q->id, 0);
	buf_puts(out, "</idnumber>\n");
	if (strcmp(type, "numerical") == 0)
		rc = S_moodle_numerical(q, &qh, out, dl);
	else if (strcmp(type, "shortanswer") == 0)
		rc = S_moodle_shortanswer(q, &qh, out, dl);
	else if (strcmp(type, "essay") == 0)
		rc = S_moodle_essay(q, &qh, out, dl);
	else
		rc = S_moodle_multichoice(q, &qh, out, dl);
	if (rc == -1)
		goto out;
	buf_printf(out, "    <tags>\n      <tag><text>%s</text></tag>\n    </tags>\n  </question>\n",
	    S_difficulty(q->difficulty));
out:
	S_question_html_free(&qh);
	return rc;
}

/* Moodle XML: a category per topic, below one for the test; a multichoice question each. */
static int
S_moodle(const struct site *site, const struct test *te, struct buf *out, struct diag_list *dl)
{
	size_t i, k;

	buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n");
	for (i = 0; i < te->ntopics; i++) {
		const struct topic *tp = te->topics[i];
		struct doc_tree *t = doc_tree_open(tp->doc);

		buf_puts(out, "  <question type=\"category\">\n    <category>\n      <text>$course$/top/");
		{
			struct buf path;

			buf_init(&path);
			buf_put(&path, "", 0);
			S_category_part(&path, te->title);
			if (te->ntopics > 1 || strcmp(tp->title, te->title) != 0) {
				buf_putc(&path, '/');
				S_category_part(&path, tp->title);
			}
			buf_put_escaped(out, buf_str(&path), 0);
			buf_free(&path);
		}
		buf_puts(out, "</text>\n    </category>\n  </question>\n");
		for (k = 0; k < tp->nquestions; k++)
			if (S_moodle_question(site, &tp->questions[k], t, out, dl) == -1) {
				doc_tree_close(t);
				return -1;
			}
		doc_tree_close(t);
	}
	buf_puts(out, "</quiz>\n");
	return 0;
}

/*
 * GIFT text: the characters GIFT reads as syntax escaped with '\', and
 * line breaks written as "\n", so a question stays one block of lines.
 */
static void
S_gift_text(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\n') {
			buf_puts(b, "\\n");
			continue;
		}
		if (strchr("~=#{}:\\", *s))
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
}

/* A percentage as GIFT writes one: "%50%". */
static void
S_gift_weight(struct buf *b, double w)
{
	buf_printf(b, "%%%.7g%%", w);
}

/*
 * A typed answer's lines in GIFT: a number "=value:tolerance" (GIFT's
 * numerical, with Moodle's absolute tolerance; GIFT has no units, so
 * the numbers are in the question's unit, which its text names), a text "=text" (short answer,
 * compared without case: GIFT has no way to ask for case); a foreseen
 * wrong one weighs "%0%".
 */
static void
S_gift_typed(const struct question *q, const struct question_html *qh, struct buf *out)
{
	struct typed_numbers tn;
	size_t i;

	S_typed_numbers(q, &tn);
	for (i = 0; i < q->noptions; i++) {
		const struct quiz_option *o = &q->options[i];

		if (q->kind == ANSWER_NUMBER && !tn.written[i])
			continue;
		buf_puts(out, o->correct ? "\t=" : "\t=%0%");
		if (q->kind == ANSWER_NUMBER) {
			S_number(out, tn.value[i]);
			buf_putc(out, ':');
			S_number(out, tn.tolerance[i]);
		} else {
			struct buf t;

			buf_init(&t);
			buf_put(&t, "", 0);
			S_shortanswer_text(&t, o->answer ? o->answer : "");
			S_gift_text(out, buf_str(&t));
			buf_free(&t);
		}
		if (qh->feedback[i]) {
			buf_puts(out, "#");
			S_gift_text(out, qh->feedback[i]);
		}
		buf_putc(out, '\n');
	}
	S_typed_numbers_free(&tn);
}

/*
 * A question in GIFT, by the same choice of type as Moodle XML: a
 * program's output of several lines is an essay ("{}"), its outputs in
 * the general feedback before the explanation, since GIFT has no
 * grader's text.
 */
static void
S_gift_question(const struct site *site, const struct question *q, const struct doc_tree *t,
    struct buf *out)
{
	struct question_html qh;
	const char *type = S_moodle_type(q);
	struct buf general;
	size_t i;

	S_question_html(site, q, t, 0, &qh);
	buf_init(&general);
	buf_put(&general, "", 0);
	buf_puts(out, "// [id:");
	S_gift_text(out, q->id);
	buf_printf(out, "] [tag:%s]\n::", S_difficulty(q->difficulty));
	S_gift_text(out, q->stem_text);
	buf_puts(out, "::[html]");
	S_gift_text(out, qh.stem);
	if (strcmp(type, "numerical") == 0 && *S_question_unit(q)) {
		/* GIFT has no units: the question says which one the number is in. */
		char *in = lang_format(site->lang, "export.unit", "unit", S_question_unit(q), NULL);

		buf_puts(&general, "\n<p>");
		buf_put_escaped(&general, in, 1);
		buf_puts(&general, "</p>");
		free(in);
		S_gift_text(out, buf_str(&general));
		buf_reset(&general);
	}
	buf_puts(out, strcmp(type, "numerical") == 0 ? " {#\n" : " {\n");
	if (strcmp(type, "essay") == 0) {
		S_output_html(q, &qh, 1, &general);
		S_output_html(q, &qh, 0, &general);
	} else if (q->kind != ANSWER_CHOICE)
		S_gift_typed(q, &qh, out);
	else
		for (i = 0; i < qh.n; i++) {
			if (q->multi) {
				buf_puts(out, "\t~");
				S_gift_weight(out, S_fraction(q, i));
			} else
				buf_puts(out, q->options[i].correct ? "\t=" : "\t~");
			S_gift_text(out, qh.option[i]);
			if (qh.feedback[i]) {
				buf_puts(out, "#");
				S_gift_text(out, qh.feedback[i]);
			}
			buf_putc(out, '\n');
		}
	buf_puts(&general, qh.explanation);
	while (general.len > 0 && general.data[general.len - 1] == '\n')
		general.data[--general.len] = '\0';
	if (general.len > 0) {
		buf_puts(out, "\t####");
		S_gift_text(out, buf_str(&general));
		buf_putc(out, '\n');
	}
	buf_puts(out, "}\n\n");
	buf_free(&general);
	S_question_html_free(&qh);
}

static int
S_gift(const struct site *site, const struct test *te, struct buf *out, struct diag_list *dl)
{
	size_t i, k;

	(void)dl;
	for (i = 0; i < te->ntopics; i++) {
		const struct topic *tp = te->topics[i];
		struct doc_tree *t = doc_tree_open(tp->doc);
		struct buf path;

		buf_init(&path);
		buf_put(&path, "", 0);
		S_category_part(&path, te->title);
		if (te->ntopics > 1 || strcmp(tp->title, te->title) != 0) {
			buf_putc(&path, '/');
			S_category_part(&path, tp->title);
		}
		buf_puts(out, "$CATEGORY: $course$/top/");
		/* A category line is read to its end: only a line break would end it early. */
		for (k = 0; k < path.len; k++)
			buf_putc(out, path.data[k] == '\n' ? ' ' : path.data[k]);
		buf_puts(out, "\n\n");
		buf_free(&path);
		for (k = 0; k < tp->nquestions; k++)
			S_gift_question(site, &tp->questions[k], t, out);
		doc_tree_close(t);
	}
	return 0;
}

/* ---- the jobs ---------------------------------------------------------- */

struct export_job {
	enum export_format f;
	const struct deck *deck;   /* or */
	const struct test *test;
	char *path, *tmp;
	struct diag_list dl;
	int rc;
};

struct export_batch {
	const struct site *site;
	const struct export_options *opt;
	struct export_job *jobs;
};

static int
S_run(const struct site *site, struct export_job *j, int warn_unkept)
{
	struct buf out;
	struct dropped dropped = { NULL, 0, 0, 0 };
	int rc = -1;

	buf_init(&out);
	buf_put(&out, "", 0);
	S_dropped = warn_unkept ? &dropped : NULL;
	switch (j->f) {
	case EXPORT_ANKI: rc = S_write_anki(site, j->deck, j->tmp, &j->dl); break;
	case EXPORT_CSV: rc = S_csv(site, j->deck, &out, &j->dl); break;
	case EXPORT_TSV: rc = S_tsv(site, j->deck, &out, &j->dl); break;
	case EXPORT_MOODLE: rc = S_moodle(site, j->test, &out, &j->dl); break;
	case EXPORT_GIFT: rc = S_gift(site, j->test, &out, &j->dl); break;
	default: break;
	}
	S_dropped = NULL;
	if (dropped.file)
		diag_warning(&j->dl, dropped.file, dropped.line, dropped.col, dropped.is_image ?
		    "the export %s keeps only the alt text of this image, and of any other of the "
		    "site's: it has no address to load them from (set base_url in site.toml to keep "
		    "them)" : "the export %s keeps only the text of this link into the site, and of "
		    "any other: it has no address to lead to (set base_url in site.toml to keep them)",
		    path_basename(j->path));
	if (rc == 0 && j->f != EXPORT_ANKI && file_write(j->tmp, out.data, out.len) == -1) {
		diag_error(&j->dl, NULL, 0, 0, "cannot write %s: %s", j->tmp, strerror(errno));
		rc = -1;
	}
	buf_free(&out);
	return rc;
}

static void
S_job(void *arg, size_t i, int worker)
{
	struct export_batch *eb = arg;
	struct export_job *j = &eb->jobs[i];

	(void)worker;
	if (eb->opt->stop && *eb->opt->stop) {
		j->rc = -1;
		return;
	}
	j->rc = S_run(eb->site, j, eb->opt->warn_unkept);
	if (j->rc == 0 && rename(j->tmp, j->path) == -1) {
		diag_error(&j->dl, NULL, 0, 0, "cannot write %s: %s", j->path, strerror(errno));
		j->rc = -1;
	}
	if (j->rc == -1)
		unlink(j->tmp);
}

static int
S_wanted(const struct export_options *opt, const char *slug)
{
	size_t i;

	if (opt->nnames == 0)
		return 1;
	for (i = 0; i < opt->nnames; i++)
		if (strcmp(opt->names[i], slug) == 0)
			return 1;
	return 0;
}

static void
S_add_job(struct export_batch *eb, size_t *n, size_t *cap, const char *dir, enum export_format f,
    const struct deck *d, const struct test *te)
{
	struct export_job *j;
	char *rel = outputs_export_path(f, d ? d->slug : te->slug);

	eb->jobs = xgrow(eb->jobs, cap, *n + 1, sizeof(*eb->jobs));
	j = &eb->jobs[(*n)++];
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->deck = d;
	j->test = te;
	/* rel is "export/<name>"; dir is where export/ goes. */
	j->path = path_join(dir, path_basename(rel));
	j->tmp = xasprintf("%s.tmp-%ld", j->path, (long)getpid());
	diag_init(&j->dl);
	free(rel);
}

int
export_write(const struct site *site, const char *dir, const struct export_options *opt,
    size_t *written, struct diag_list *dl)
{
	struct export_batch eb;
	size_t i, n = 0, cap = 0;
	int f, rc = 0;

	memset(&eb, 0, sizeof(eb));
	eb.site = site;
	eb.opt = opt;
	for (f = 0; f < EXPORT_NFORMATS; f++) {
		if (!(opt->formats & (1u << f)))
			continue;
		if (outputs_export_formats[f].of_tests) {
			for (i = 0; i < site->ntests; i++)
				if (S_wanted(opt, site->tests[i]->slug))
					S_add_job(&eb, &n, &cap, dir, (enum export_format)f, NULL, site->tests[i]);
		} else {
			for (i = 0; i < site->ndecks; i++)
				if (S_wanted(opt, site->decks[i]->slug))
					S_add_job(&eb, &n, &cap, dir, (enum export_format)f, site->decks[i], NULL);
		}
	}
	if (n > 0 && dir_make(dir) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot create %s: %s", dir, strerror(errno));
		rc = -1;
	} else
		pool_run(opt->jobs, n, S_job, &eb);
	for (i = 0; i < n; i++) {
		/* What the files say, in the order they were listed, up to the first that failed. */
		if (rc == 0) {
			diag_move(dl, &eb.jobs[i].dl);
			rc = eb.jobs[i].rc;
		}
		diag_free(&eb.jobs[i].dl);
		free(eb.jobs[i].path);
		free(eb.jobs[i].tmp);
	}
	free(eb.jobs);
	if (rc == 0)
		*written = n;
	return rc;
}

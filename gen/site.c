/*
 * site: site_load runs the pipeline's front half: site.toml, content/,
 * then an index job per Markdown file (quiz.c, deck.c, guide.c build the
 * kinds). Every author mistake becomes a diagnostic at its own line and
 * column and the load goes on, so one `check` reports everything.
 *
 * The structure of a topic or deck is read from the document's top-level
 * blocks only: a `##` nested in a list or quote is content, not a new
 * question or card. A Markdown file that is no page (outside quiz/,
 * cards/, guide/, or misplaced in them) gets a warning, except README.md
 * files, which are for reading the sources on GitHub. Links in it are
 * not checked.
 */
#include "site.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "lang.h"
#include "pool.h"
#include "util.h"

/* Loading. */

/* A doc for every Markdown source, in source order, not parsed yet. */
static void
S_make_docs(struct site *site)
{
	size_t i, cap = 0;

	for (i = 0; i < site->sources.len; i++) {
		struct source *src = site->sources.v[i];
		struct doc *d;

		if (src->kind == SOURCE_ASSET)
			continue;
		d = xcalloc(1, sizeof(*d));
		d->src = src;
		d->max_elements = (size_t)site->cfg.limits.max_elements;
		src->doc = d;
		site->docs = xgrow(site->docs, &cap, site->ndocs + 1, sizeof(*site->docs));
		site->docs[site->ndocs++] = d;
	}
}

/*
 * Moves the index of each chapter whose file is unchanged since the
 * previous load into this one's doc: chapters are indexed from their own
 * file alone, so the result is what parsing it again would give. What
 * the link step adds (backlinks) is dropped, to be made again.
 */
static int
S_cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;

	return x < y ? -1 : x > y;
}

static void
S_reuse_chapters(struct site *site, struct site *prev)
{
	struct chapter **moved = NULL;
	size_t i, j, k, nmoved = 0, cap = 0;

	for (i = 0; i < site->ndocs; i++) {
		struct doc *d = site->docs[i], *pd;
		struct chapter *c;

		if (d->src->kind != SOURCE_CHAPTER || d->src->broken ||
		    (pd = site_doc(prev, d->src->rel)) == NULL || pd->chapter == NULL ||
		    pd->src->kind != SOURCE_CHAPTER || pd->src->len != d->src->len ||
		    pd->max_elements != d->max_elements ||
		    memcmp(pd->src->data, d->src->data, d->src->len) != 0)
			continue;
		c = pd->chapter;
		moved = xgrow(moved, &cap, nmoved + 1, sizeof(*moved));
		moved[nmoved++] = c;
		d->links = pd->links;
		d->nlinks = pd->nlinks;
		d->parsed = pd->parsed;
		d->emptied = pd->emptied;
		d->url = pd->url;
		d->anchors = pd->anchors;
		d->nanchors = pd->nanchors;
		d->anchors_cap = pd->anchors_cap;
		d->line_starts = pd->line_starts;
		d->nlines = pd->nlines;
		d->index_diags = pd->index_diags;
		d->chapter = c;
		d->reused = 1;
		pd->links = NULL;
		pd->nlinks = 0;
		pd->url = NULL;
		pd->anchors = NULL;
		pd->nanchors = pd->anchors_cap = 0;
		pd->line_starts = NULL;
		pd->nlines = 0;
		diag_init(&pd->index_diags);
		pd->chapter = NULL;
		c->doc = d;
		c->prev = c->next = NULL;
		free(c->backlinks.v);
		memset(&c->backlinks, 0, sizeof(c->backlinks));
		for (k = 0; k < c->nsections; k++) {
			free(c->sections[k]->backlinks.v);
			memset(&c->sections[k]->backlinks, 0, sizeof(c->sections[k]->backlinks));
		}
	}
	/* The previous load no longer owns what moved. */
	if (nmoved > 1)
		qsort(moved, nmoved, sizeof(*moved), S_cmp_ptr);
	for (j = 0; nmoved > 0 && j < prev->nchapters; j++)
		if (bsearch(&prev->chapters[j], moved, nmoved, sizeof(*moved), S_cmp_ptr) != NULL)
			prev->chapters[j] = NULL;
	free(moved);
}

/* One doc's anchors sorted for doc_anchor: a doc's own, so the docs go on every thread. */
static void
S_anchors_job(void *arg, size_t job, int worker)
{
	struct doc *d = ((struct doc **)arg)[job];

	(void)worker;
	if (d->nanchors > 1)
		qsort(d->anchors, d->nanchors, sizeof(*d->anchors), model_cmp_anchor);
}

/*
 * A Markdown file that is no page is likely a topic or deck in the wrong
 * place; a README.md is for browsing the sources and is left alone.
 */
static void
S_unpublished(struct doc *d, struct diag_list *dl)
{
	const char *rel = d->src->rel;

	if (strcmp(path_basename(rel), "README.md") == 0)
		return;
	if (strncmp(rel, "quiz/", 5) == 0)
		diag_warning(dl, d->src->display, 0, 0,
		    "not published: a test is content/quiz/<test>.md or a folder content/quiz/<test>/ with _index.md and one file per topic");
	else if (strncmp(rel, "cards/", 6) == 0)
		diag_warning(dl, d->src->display, 0, 0,
		    "not published: a deck is one file directly in content/cards/");
	else
		diag_warning(dl, d->src->display, 0, 0,
		    "not published: pages are content/index.md and the files in quiz/, cards/ and guide/");
}

/* The home page, other pages and decks: each doc on its own, in parallel. */
struct pages_batch {
	struct doc **docs;
	struct deck **decks;       /* per doc: its deck, or NULL */
	struct diag_list *dls;     /* per doc, moved into the site's list in file order */
};

static void
S_pages_job(void *arg, size_t job, int worker)
{
	struct pages_batch *pb = arg;
	struct doc *d = pb->docs[job];
	struct diag_list *dl = &pb->dls[job];
	struct heading_list hl = { 0 };
	struct doc_tree *t = model_doc_parse(d, dl);

	(void)worker;
	switch (d->src->kind) {
	case SOURCE_HOME:
		d->url = xstrdup("index.html");
		model_build_page(d, t, &hl, dl);
		model_headings_free(&hl);
		break;
	case SOURCE_OTHER_MD:
		model_build_page(d, t, &hl, dl);
		model_headings_free(&hl);
		S_unpublished(d, dl);
		break;
	case SOURCE_DECK:
		pb->decks[job] = deck_build(d, t, dl);
		break;
	default:
		break;
	}
	model_index_end(d, t);
}

static void
S_build_pages_and_decks(struct site *site, struct diag_list *dl)
{
	struct pages_batch pb;
	size_t i, n = 0, cap = 0;

	pb.docs = xcalloc(site->ndocs + 1, sizeof(*pb.docs));
	for (i = 0; i < site->ndocs; i++) {
		enum source_kind k = site->docs[i]->src->kind;

		if (k == SOURCE_HOME || k == SOURCE_OTHER_MD || k == SOURCE_DECK) {
			pb.docs[n++] = site->docs[i];
		}
	}
	pb.decks = xcalloc(n + 1, sizeof(*pb.decks));
	pb.dls = xcalloc(n + 1, sizeof(*pb.dls));
	for (i = 0; i < n; i++)
		diag_init(&pb.dls[i]);
	pool_run(site->jobs, n, S_pages_job, &pb);
	for (i = 0; i < n; i++) {
		diag_move(dl, &pb.dls[i]);
		diag_free(&pb.dls[i]);
		if (pb.docs[i]->src->kind == SOURCE_HOME)
			site->home = pb.docs[i];
		if (pb.decks[i]) {
			site->decks = xgrow(site->decks, &cap, site->ndecks + 1, sizeof(*site->decks));
			site->decks[site->ndecks++] = pb.decks[i];
		}
	}
	free(pb.docs);
	free(pb.decks);
	free(pb.dls);
}

int
site_load(struct site *site, const char *root, const struct site_options *opt,
    struct diag_list *dl)
{
	size_t errors = dl->errors, i, before;
	char *toml_path, *content_dir;

	memset(site, 0, sizeof(*site));
	site->root = xstrdup(root);
	if (opt && opt->strict)
		dl->strict = 1;

	toml_path = path_join(root, "site.toml");
	before = dl->len;
	config_load(&site->cfg, toml_path, dl);
	/* Shown relative to the site, like every content path. */
	for (i = before; i < dl->len; i++)
		if (dl->v[i].file && strcmp(dl->v[i].file, toml_path) == 0) {
			free(dl->v[i].file);
			dl->v[i].file = xstrdup("site.toml");
		}
	free(toml_path);
	if (opt && opt->print)
		config_apply_print(&site->cfg.print, opt->print);
	site->lang = lang_load(root, &site->cfg, dl);

	site->jobs = opt && opt->jobs > 0 ? opt->jobs : pool_default_threads();
	content_dir = path_join(root, "content");
	content_load_max(&site->sources, content_dir, "content",
	    (size_t)site->cfg.limits.max_file_size, site->jobs, dl);
	free(content_dir);

	S_make_docs(site);
	if (opt && opt->previous)
		S_reuse_chapters(site, opt->previous);
	S_build_pages_and_decks(site, dl);
	if (site->ndecks > 1)
		qsort(site->decks, site->ndecks, sizeof(*site->decks), deck_cmp);
	quiz_build_tests(site, dl);
	guide_build(site, dl);
	/* The files no index job took: their element count is checked all the same. */
	for (i = 0; i < site->ndocs; i++) {
		struct doc *d = site->docs[i];

		if (!d->parsed)
			model_index_end(d, model_doc_parse(d, dl));
	}
	pool_run(site->jobs, site->ndocs, S_anchors_job, site->docs);
	return dl->errors > errors ? -1 : 0;
}

/* Trees again, for the outputs. */

/*
 * Runs on td, a throwaway copy of d, the build that indexed d: t gets
 * the nodes (the same source gives the same structure), td the model
 * data, which the caller drops.
 */
static void
S_build_again(const struct doc *d, struct doc *td, struct doc_tree *t)
{
	struct diag_list dl;

	diag_init(&dl);
	if (d->topic && d->topic->doc == d)
		quiz_topic_free(quiz_build_topic(td, t, d->topic->test, "", d->topic->slug, DIFF_NONE, &dl));
	else if (d->deck)
		deck_free(deck_build(td, t, &dl));
	else if (d->chapter)
		guide_chapter_free(guide_build_chapter(td, t, &dl));
	else if (d->test && d->test->index == d)
		free(quiz_test_index(td, t, &dl));
	else {
		struct heading_list hl = { 0 };

		model_build_page(td, t, &hl, &dl);
		model_headings_free(&hl);
	}
	diag_free(&dl);
}

struct doc_tree *
doc_tree_open(const struct doc *d)
{
	const struct source *src = d->src;
	int empty = d->emptied || src->body == NULL;
	struct doc_tree *t;
	struct doc td;
	size_t k;

	/*
	 * cmark's own allocator, not a scratch arena: an output may hold a
	 * tree for a long time (a deck's, while all its pages are drawn), and
	 * an arena keeps every block cmark frees as it parses and edits.
	 */
	t = model_tree_new(md_parse(empty ? "" : src->body, empty ? 0 : src->body_len));
	memset(&td, 0, sizeof(td));
	td.src = d->src;
	td.parsed = 1;
	S_build_again(d, &td, t);
	for (k = 0; k < td.nanchors; k++)
		free(td.anchors[k].id);
	free(td.anchors);
	free(td.line_starts);
	free(td.url);
	t->d = d;
	if (d->chapter)
		for (k = 0; k < t->nsections && k < d->chapter->nsections; k++)
			cmark_node_set_user_data(t->sections[k], d->chapter->sections[k]);
	return t;
}

void
doc_tree_close(struct doc_tree *t)
{
	model_tree_free(t);
}

cmark_node *
doc_tree_root(const struct doc_tree *t)
{
	return t->root;
}

const struct block_range *
doc_tree_intro(const struct doc_tree *t)
{
	return &t->intro;
}

const struct question_nodes *
doc_tree_question(const struct doc_tree *t, const struct question *q)
{
	size_t i;

	if (q->topic == NULL || q->topic->doc != t->d)
		return NULL;
	i = (size_t)(q - q->topic->questions);
	return i < t->nquestions ? &t->questions[i] : NULL;
}

const struct card_nodes *
doc_tree_card(const struct doc_tree *t, const struct card *c)
{
	size_t i;

	if (c->deck == NULL || c->deck->doc != t->d)
		return NULL;
	i = (size_t)(c - c->deck->cards);
	return i < t->ncards ? &t->cards[i] : NULL;
}

const struct section *
doc_tree_section_at(const struct doc_tree *t, cmark_node *heading)
{
	if (t == NULL || t->d->chapter == NULL || heading == NULL)
		return NULL;
	return cmark_node_get_user_data(heading);
}

/* Freeing. */

/* A doc and what it owns. */
static void
S_doc_free(struct doc *d)
{
	size_t j;

	for (j = 0; j < d->nanchors; j++)
		free(d->anchors[j].id);
	free(d->anchors);
	for (j = 0; j < d->nlinks; j++)
		free(d->links[j].dest);
	free(d->links);
	free(d->line_starts);
	free(d->url);
	diag_free(&d->index_diags);
	free(d);
}

void
site_free(struct site *site)
{
	size_t i;

	lang_free(site->lang);
	for (i = 0; i < site->ntests; i++)
		quiz_test_free(site->tests[i]);
	free(site->tests);
	for (i = 0; i < site->ndecks; i++)
		deck_free(site->decks[i]);
	free(site->decks);
	for (i = 0; i < site->nchapters; i++)
		guide_chapter_free(site->chapters[i]);
	free(site->chapters);
	for (i = 0; i < site->ndocs; i++)
		S_doc_free(site->docs[i]);
	free(site->docs);
	for (i = 0; i < site->nassets; i++)
		free(site->assets[i].url);
	free(site->assets);
	content_free(&site->sources);
	config_free(&site->cfg);
	free(site->root);
	memset(site, 0, sizeof(*site));
}

/* Reporting. */

/* " number", " text", " output" for a typed question; "" for a choice. */
static const char *
S_typed_kind_name(enum answer_kind k)
{
	static const char *const names[] = { "", " number", " text", " output" };

	return names[k];
}

static void
S_count(struct buf *b, size_t n, const char *one, const char *many)
{
	buf_printf(b, "%zu %s", n, n == 1 ? one : many);
}

char *
site_summary(const struct site *site, const struct diag_list *dl)
{
	size_t ntopics = 0, nq = 0, count[3] = { 0 }, ncards = 0, nsections = 0, i, j, k;
	size_t typed[4] = { 0 };
	size_t kinds[CARD_REVERSED + 1] = { 0 };
	struct buf b;

	for (i = 0; i < site->ntests; i++) {
		const struct test *t = site->tests[i];

		ntopics += t->ntopics;
		nq += t->nquestions;
		count[0] += t->count[0];
		count[1] += t->count[1];
		count[2] += t->count[2];
		for (j = 0; j < t->ntopics; j++)
			for (k = 0; k < t->topics[j]->nquestions; k++)
				typed[t->topics[j]->questions[k].kind]++;
	}
	for (i = 0; i < site->ndecks; i++) {
		ncards += site->decks[i]->ncards;
		for (j = 0; j < site->decks[i]->ncards; j++)
			kinds[site->decks[i]->cards[j].kind]++;
	}
	for (i = 0; i < site->nchapters; i++)
		nsections += site->chapters[i]->nsections;
	buf_init(&b);
	S_count(&b, site->ntests, "test", "tests");
	buf_puts(&b, ", ");
	S_count(&b, ntopics, "topic", "topics");
	buf_puts(&b, ", ");
	S_count(&b, nq, "question", "questions");
	buf_printf(&b, " (%zu easy, %zu medium, %zu hard", count[0], count[1], count[2]);
	/* Typed answers only when there are some: "; typed: 4 number, 1 text". */
	for (i = ANSWER_NUMBER, j = 0; i <= ANSWER_OUTPUT; i++)
		if (typed[i])
			buf_printf(&b, "%s%zu %s", j++ ? ", " : "; typed: ", typed[i], S_typed_kind_name(i) + 1);
	buf_puts(&b, "); ");
	S_count(&b, site->ndecks, "deck", "decks");
	buf_puts(&b, ", ");
	S_count(&b, ncards, "card", "cards");
	/* Said only when there are any, so a site of basic cards reads as before. */
	if (kinds[CARD_CLOZE] || kinds[CARD_REVERSED])
		buf_printf(&b, " (%zu cloze, %zu reversed)", kinds[CARD_CLOZE], kinds[CARD_REVERSED]);
	buf_puts(&b, "; ");
	S_count(&b, site->nchapters, "chapter", "chapters");
	buf_puts(&b, ", ");
	S_count(&b, nsections, "section", "sections");
	buf_puts(&b, "; ");
	S_count(&b, site->stats.links, "link", "links");
	buf_puts(&b, "; ");
	S_count(&b, dl->errors, "error", "errors");
	buf_puts(&b, ", ");
	S_count(&b, dl->warnings, "warning", "warnings");
	return buf_detach(&b);
}

/* Quoted for the dump: one line, escapes for the unprintable. */
static void
S_dump_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\x%02x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

/* A block range as "L1-L2" lines in the file, "-" when empty. */
static void
S_dump_range(FILE *fp, const struct doc *d, const char *name, const struct block_range *r)
{
	int l1, c1, l2;

	if (r == NULL || r->first == NULL) {
		fprintf(fp, " %s=-", name);
		return;
	}
	doc_node_pos(d, r->first, &l1, &c1);
	l2 = cmark_node_get_end_line(r->last) + d->src->body_line - 1;
	fprintf(fp, " %s=%d-%d", name, l1, l2);
}

static void
S_dump_links_to(FILE *fp, const struct section_list *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		fprintf(fp, "      links-to %s#%s\n", l->v[i]->chapter->slug, l->v[i]->id);
}

static void
S_dump_xrefs(FILE *fp, const char *indent, const struct xref_list *l)
{
	size_t i;

	for (i = 0; i < l->len; i++) {
		const struct xref *x = &l->v[i];

		if (x->kind == XREF_QUESTION)
			fprintf(fp, "%sbacklink question %s/%s#%s\n", indent,
			    x->u.question->topic->test->slug, x->u.question->topic->slug,
			    x->u.question->id);
		else
			fprintf(fp, "%sbacklink card %s#%s\n", indent,
			    x->u.card->deck->slug, x->u.card->id);
	}
}

/* A topic's questions; tr is the topic's open tree. */
static void
S_dump_questions(FILE *fp, const struct topic *tp, const struct doc_tree *tr)
{
	size_t k, m;

	for (k = 0; k < tp->nquestions; k++) {
		const struct question *q = &tp->questions[k];
		const struct question_nodes *qn = doc_tree_question(tr, q);
		size_t ncorrect = 0, nfeedback = 0;

		for (m = 0; m < q->noptions; m++) {
			ncorrect += q->options[m].correct;
			nfeedback += qn->options[m].feedback != NULL;
		}
		fprintf(fp, "    question %s %s%s%s%s%s at=%d:%d ", q->id,
		    difficulty_name(q->difficulty), q->sample ? " sample" : "",
		    q->multi ? " multi" : "", S_typed_kind_name(q->kind), q->exact ? " exact" : "",
		    q->line, q->col);
		S_dump_str(fp, q->stem_text);
		fprintf(fp, "\n     ");
		S_dump_range(fp, tp->doc, "stem", &qn->stem);
		fprintf(fp, " hint=%s options=%zu correct=%zu feedback=%zu",
		    qn->hint ? "yes" : "no", q->noptions, ncorrect, nfeedback);
		S_dump_range(fp, tp->doc, "explanation", &qn->explanation);
		fprintf(fp, " fingerprint=%s\n", q->fingerprint);
		for (m = 0; m < q->noptions; m++) {
			const struct quiz_option *o = &q->options[m];

			fprintf(fp, "      option [%c] at=%d:%d%s", o->correct ? 'x' : ' ', o->line,
			    o->col, qn->options[m].feedback ? " feedback" : "");
			if (o->answer) {
				fprintf(fp, " = ");
				S_dump_str(fp, o->answer);
			}
			if (o->unit)
				fprintf(fp, " range=%.15g..%.15g unit=\"%s\"", o->min, o->max, o->unit);
			fputc('\n', fp);
		}
		S_dump_links_to(fp, &q->links_to);
	}
}

void
site_dump(const struct site *site, FILE *fp)
{
	struct doc_tree *tr, *ttr;
	size_t i, j;

	/* The block ranges are shown as lines: a doc's tree is open while it is dumped. */
	fprintf(fp, "site ");
	S_dump_str(fp, site->cfg.title);
	fprintf(fp, "\n");
	if (site->home)
		fprintf(fp, "home %s url=%s\n", site->home->src->display, site->home->url);
	for (i = 0; i < site->ntests; i++) {
		const struct test *t = site->tests[i];

		tr = doc_tree_open(t->index);
		fprintf(fp, "test %s ", t->slug);
		S_dump_str(fp, t->title);
		fprintf(fp, " url=%s file=%s questions=%zu easy=%zu medium=%zu hard=%zu",
		    t->url, t->index->src->display, t->nquestions, t->count[0], t->count[1], t->count[2]);
		S_dump_range(fp, t->index, "intro", doc_tree_intro(tr));
		fprintf(fp, "\n");
		if (t->description) {
			fprintf(fp, "  description ");
			S_dump_str(fp, t->description);
			fprintf(fp, "\n");
		}
		for (j = 0; j < t->ntopics; j++) {
			const struct topic *tp = t->topics[j];

			/* A one-file test's introduction is the test's: its topic has none. */
			ttr = tp->doc == t->index ? tr : doc_tree_open(tp->doc);
			fprintf(fp, "  topic %s ", tp->slug);
			S_dump_str(fp, tp->title);
			fprintf(fp, " file=%s", tp->doc->src->display);
			if (tp->doc->src->fm.has_weight)
				fprintf(fp, " weight=%ld", tp->weight);
			S_dump_range(fp, tp->doc, "intro", ttr != tr ? doc_tree_intro(ttr) : NULL);
			fprintf(fp, "\n");
			S_dump_questions(fp, tp, ttr);
			if (ttr != tr)
				doc_tree_close(ttr);
		}
		doc_tree_close(tr);
	}
	for (i = 0; i < site->ndecks; i++) {
		const struct deck *dk = site->decks[i];

		tr = doc_tree_open(dk->doc);
		fprintf(fp, "deck %s ", dk->slug);
		S_dump_str(fp, dk->title);
		fprintf(fp, " url=%s pdf=%s file=%s cards=%zu", dk->url, dk->pdf_url,
		    dk->doc->src->display, dk->ncards);
		S_dump_range(fp, dk->doc, "intro", doc_tree_intro(tr));
		fprintf(fp, "\n");
		if (dk->description) {
			fprintf(fp, "  description ");
			S_dump_str(fp, dk->description);
			fprintf(fp, "\n");
		}
		for (j = 0; j < dk->ncards; j++) {
			const struct card *c = &dk->cards[j];

			fprintf(fp, "  card %d %s %s at=%d:%d ", c->number, c->id, c->label, c->line, c->col);
			if (c->kind != CARD_BASIC)
				fprintf(fp, "kind=%s note=%s cloze=%d ",
				    c->kind == CARD_CLOZE ? "cloze" : "reversed", c->note_id, c->cloze);
			if (c->cloze_source) {
				fprintf(fp, "source=");
				S_dump_str(fp, c->cloze_source);
				fprintf(fp, " ");
			}
			S_dump_str(fp, c->front_text);
			S_dump_range(fp, dk->doc, "back", &doc_tree_card(tr, c)->back);
			fprintf(fp, "\n");
			S_dump_links_to(fp, &c->links_to);
		}
		doc_tree_close(tr);
	}
	for (i = 0; i < site->nchapters; i++) {
		const struct chapter *c = site->chapters[i];

		fprintf(fp, "chapter %zu %s ", i + 1, c->slug);
		S_dump_str(fp, c->title);
		fprintf(fp, " url=%s file=%s", c->url, c->doc->src->display);
		if (c->doc->src->fm.has_weight)
			fprintf(fp, " weight=%ld", c->weight);
		fprintf(fp, " prev=%s next=%s\n", c->prev ? c->prev->slug : "-",
		    c->next ? c->next->slug : "-");
		S_dump_xrefs(fp, "  ", &c->backlinks);
		for (j = 0; j < c->doc->nlinks; j++) {
			const struct doc_link *u = &c->doc->links[j];

			if (u->embed)
				fprintf(fp, "  embed question %s/%s#%s at=%d:%d\n",
				    u->embed->topic->test->slug, u->embed->topic->slug, u->embed->id,
				    u->line, u->col);
		}
		for (j = 0; j < c->nsections; j++) {
			const struct section *s = c->sections[j];

			fprintf(fp, "  section h%d %s at=%d:%d ", s->level, s->id, s->line, s->col);
			S_dump_str(fp, s->title);
			fprintf(fp, "\n");
			S_dump_xrefs(fp, "    ", &s->backlinks);
		}
	}
	for (i = 0; i < site->nassets; i++)
		fprintf(fp, "asset %s url=%s\n", site->assets[i].src->display, site->assets[i].url);
	for (i = 0; i < site->sources.ndrafts; i++)
		fprintf(fp, "draft content/%s\n", site->sources.drafts[i]);
	fprintf(fp, "links %zu\n", site->stats.links);
}

/*
 * quiz: tests > topics > questions, from content/quiz.
 *
 *  - A topic may open with an introduction (any blocks before the first
 *    `##`); a leading `#` heading is its title when the front matter has
 *    none. A `#` heading after the first `##` is an error: it would end a
 *    question in the middle.
 *  - A question heading takes the classes .easy, .medium, .hard and
 *    .sample and nothing else (a misspelt difficulty must not pass as
 *    a style); a key=value on it is a warning, as on any heading.
 *  - A question's options are the first task list after its heading.
 *    Any other task list in a topic is a warning: it shows as a
 *    checklist nobody can tick, and is mostly a question written wrong
 *    (as ### or #, or with its options' feedback not indented, which
 *    ends the list); the warning says which.
 *  - _index.md of a test may set `difficulty`, the default for all its
 *    topics (a topic's own key wins).
 *  - Topics and tests are ordered by weight, pages without one after
 *    those with one (as in Hugo), then by file name.
 */
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "index.h"
#include "pool.h"
#include "util.h"

/* Questions. */

static int
S_is_task_list(cmark_node *n)
{
	cmark_node *item;

	if (cmark_node_get_type(n) != CMARK_NODE_LIST)
		return 0;
	for (item = cmark_node_first_child(n); item; item = cmark_node_next(item))
		if (md_is_task_item(item))
			return 1;
	return 0;
}

static void
S_hash_text(uint64_t *h, cmark_node *n)
{
	char *t = md_plain_text(n);

	*h = hash_fnv1a(t, strlen(t) + 1, *h);
	free(t);
}

static void
S_fingerprint(struct question *q, const struct question_nodes *qn)
{
	uint64_t h = HASH_FNV_SEED;
	cmark_node *n;
	size_t i;

	h = hash_fnv1a(q->stem_text, strlen(q->stem_text) + 1, h);
	if (qn->stem.first)
		for (n = qn->stem.first;; n = cmark_node_next(n)) {
			S_hash_text(&h, n);
			if (n == qn->stem.last)
				break;
		}
	for (i = 0; i < q->noptions; i++) {
		h = hash_fnv1a(q->options[i].correct ? "x" : " ", 1, h);
		S_hash_text(&h, qn->options[i].item);
	}
	snprintf(q->fingerprint, sizeof(q->fingerprint), "%016llx", (unsigned long long)h);
}

/* Reads a question's difficulty and sample mark from its heading's classes. */
static void
S_question_classes(struct doc *d, struct question *q, const struct heading *h,
    enum difficulty deflt, struct diag_list *dl)
{
	static const char *const names[] = { "easy", "medium", "hard" };
	const char *set = NULL;
	size_t i;
	int k;

	q->difficulty = deflt;
	for (i = 0; i < h->attrs.nclasses; i++) {
		const char *c = h->attrs.classes[i];

		if (strcmp(c, "sample") == 0) {
			q->sample = q->marked = 1;
			continue;
		}
		if (strcmp(c, "exact") == 0) {
			q->exact = 1;
			continue;
		}
		for (k = 0; k < 3; k++)
			if (strcmp(c, names[k]) == 0)
				break;
		if (k == 3) {
			static const char *const known[] = { "easy", "medium", "hard", "sample", "exact" };
			const char *near = str_nearest(c, known, 5);

			diag_error(dl, d->src->display, h->line, model_attr_col(d, h, 1, c),
			    "unknown class .%s on a question; expected .easy, .medium, .hard, .sample or .exact%s%s%s",
			    c, near ? ": did you mean ." : "", near ? near : "", near ? "?" : "");
			continue;
		}
		if (set != NULL && strcmp(set, c) != 0) {
			diag_error(dl, d->src->display, h->line, model_attrs_col(d, h),
			    "question \"%s\" has two difficulties, .%s and .%s: keep one", q->id, set, c);
			continue;
		}
		set = c;
		q->difficulty = (enum difficulty)k;
	}
	if (h->attrs.npairs) {
		char *what = xconcat("question \"", q->id, "\"", NULL);

		model_attrs_check(d, h, what, "a question's heading takes {#id .easy .medium .hard .sample .exact}",
		    1, dl);
		free(what);
	}
}

/*
 * Task lists outside a question's options show as checklists nobody can
 * tick, so each one is a mistake, and usually content in the wrong
 * place. Nested in another block, it says only that.
 */
static void
S_check_nested_tasks(struct doc *d, cmark_node *top, struct diag_list *dl)
{
	cmark_node *n;
	int line, col;

	for (n = model_next_block(top, top); n; n = model_next_block(top, n))
		if (S_is_task_list(n)) {
			doc_node_pos(d, n, &line, &col);
			diag_warning(dl, d->src->display, line, col,
			    "a task list inside another block shows as a checklist nobody can tick: "
			    "a question's options are a task list of its own after its ## heading; "
			    "write a plain list (- item) here");
		}
}

/* The last line of n's content (a list's own end takes in the blank lines after it). */
static int
S_last_content_line(cmark_node *n)
{
	cmark_node *c;

	while ((c = cmark_node_last_child(n)) != NULL && md_is_block(c))
		n = c;
	return cmark_node_get_end_line(n);
}

/*
 * A block quote right under the options list opts, with no blank line
 * between or more options after it: authors mean it as an option's
 * feedback.
 */
static int
S_is_loose_feedback(cmark_node *n, cmark_node *opts)
{
	cmark_node *next = cmark_node_next(n);

	if (opts == NULL || cmark_node_get_type(n) != CMARK_NODE_BLOCK_QUOTE || cmark_node_previous(n) != opts)
		return 0;
	return cmark_node_get_start_line(n) == S_last_content_line(opts) + 1 ||
	    (next && S_is_task_list(next));
}

/*
 * The top-level blocks r of a topic's introduction (qid NULL, title its
 * title heading or NULL) or of question qid's body (opts its options, of
 * nopts items): a task list there, a heading other than ## followed by a
 * task list (a question written ### or #), and a block quote right under
 * the options (feedback not indented, which ends the list).
 */
static void
S_check_blocks(struct doc *d, const char *qid, struct block_range r, cmark_node *opts, size_t nopts,
    cmark_node *title, struct diag_list *dl)
{
	const char *file = d->src->display, *what = d->src->kind == SOURCE_TEST_FILE ? "test" : "topic";
	cmark_node *n, *heading = NULL, *covered = NULL;
	int line, col, level;

	for (n = r.first; n; n = cmark_node_next(n)) {
		S_check_nested_tasks(d, n, dl);
		doc_node_pos(d, n, &line, &col);
		if (n == title || n == opts) {
			heading = NULL;
		} else if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
			/* A # inside a question is an error of its own (model_split_parts). */
			heading = qid && cmark_node_get_heading_level(n) == 1 ? NULL : n;
		} else if (S_is_loose_feedback(n, opts)) {
			cmark_node *next = cmark_node_next(n);

			if (next && S_is_task_list(next)) {
				covered = next;
				diag_warning(dl, file, line, col,
				    "this block quote ends question \"%s\"'s options after option %zu, and the "
				    "options below it become a checklist in the explanation: indent the > lines "
				    "under the option to make them its feedback", qid, nopts);
			} else
				diag_warning(dl, file, line, col,
				    "this block quote under question \"%s\"'s last option is not its feedback "
				    "but the start of the explanation: indent the > lines under the option to "
				    "make them its feedback, or leave a blank line above them", qid);
		} else if (S_is_task_list(n) && n != covered) {
			if (heading) {
				doc_node_pos(d, heading, &line, &col);
				level = cmark_node_get_heading_level(heading);
				if (qid)
					diag_warning(dl, file, line, col,
					    "this %.*s heading and the task list after it look like a question, but "
					    "they are part of question \"%s\"'s explanation: a question is a ## heading",
					    level, "######", qid);
				else
					diag_warning(dl, file, line, col,
					    "this %.*s heading and the task list after it look like a question, but "
					    "they are the %s's introduction: a question is a ## heading",
					    level, "######", what);
				heading = NULL;
			} else if (qid)
				diag_warning(dl, file, line, col,
				    "a task list in question \"%s\"'s explanation shows as a checklist nobody "
				    "can tick: a question's options are the first task list after its ## heading; "
				    "start a new question with ##, or write a plain list (- item)", qid);
			else
				diag_warning(dl, file, line, col,
				    "a task list in the %s's introduction shows as a checklist nobody can "
				    "tick: options follow a question's ## heading; write one, or write a plain "
				    "list (- item)", what);
		}
		if (n == r.last)
			break;
	}
}

/* Typed answers. */

static const char *
S_kind_name(enum answer_kind k)
{
	static const char *const names[] = { "choice", "number", "text", "program output" };

	return names[k];
}

/* 1 when the paragraph's source starts with `\=`: an ordinary option showing "=". */
static int
S_escaped_equals(struct doc *d, cmark_node *para)
{
	const char *l;
	size_t len;
	int line, col;

	doc_node_pos(d, para, &line, &col);
	if (line <= 0 || col <= 0 || (l = doc_line(d, line, &len)) == NULL)
		return 0;
	return (size_t)col + 1 <= len && l[col - 1] == '\\' && l[col] == '=';
}

/*
 * The text after item's `=` with the spaces around it trimmed, or NULL
 * when the item's first block is not a paragraph starting with `=` as
 * written (`\=` is an ordinary option's "=").
 */
static char *
S_typed_text(struct doc *d, cmark_node *item)
{
	cmark_node *para = cmark_node_first_child(item);
	char *t, *s, *e;

	if (para == NULL || cmark_node_get_type(para) != CMARK_NODE_PARAGRAPH)
		return NULL;
	t = md_plain_text(para);
	if (t[0] != '=' || S_escaped_equals(d, para)) {
		free(t);
		return NULL;
	}
	for (s = t + 1; *s == ' ' || *s == '\t' || *s == '\n'; s++)
		;
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'); e--)
		;
	s = xstrndup(s, (size_t)(e - s));
	free(t);
	return s;
}

/* The code block in item, or NULL. */
static cmark_node *
S_item_code(cmark_node *item)
{
	cmark_node *c;

	for (c = cmark_node_first_child(item); c; c = cmark_node_next(c))
		if (cmark_node_get_type(c) == CMARK_NODE_CODE_BLOCK)
			return c;
	return NULL;
}

/*
 * Reads option i's typed answer into o; returns its kind, as far as it
 * can tell when it is written wrong: *bad is then set, after an error
 * said why.
 */
static enum answer_kind
S_typed_option(struct doc *d, struct question *q, size_t i, cmark_node *item, char *text,
    int *bad, struct diag_list *dl)
{
	struct quiz_option *o = &q->options[i];
	const char *file = d->src->display;
	cmark_node *code = S_item_code(item);
	struct answer_number num;
	char why[300];
	size_t n;
	int rc;

	if (code) {
		if (*text) {
			diag_error(dl, file, o->line, o->col,
			    "option %zu of question \"%s\" has both \"= %s\" and a code block: a program's "
			    "output is the block alone, under a line holding only - [x] =", i + 1, q->id, text);
			*bad = 1;
			return ANSWER_OUTPUT;
		}
		o->answer = xstrdup(cmark_node_get_literal(code) ? cmark_node_get_literal(code) : "");
		for (n = strlen(o->answer); n > 0 && o->answer[n - 1] == '\n'; n--)
			o->answer[n - 1] = '\0';
		return ANSWER_OUTPUT;
	}
	if (*text == '\0') {
		diag_error(dl, file, o->line, o->col,
		    "option %zu of question \"%s\" has nothing after =: write the answer after it "
		    "(- [x] = 42), or a fenced code block under it for a program's output", i + 1, q->id);
		*bad = 1;
		return ANSWER_TEXT;
	}
	o->answer = xstrdup(text);
	if (q->exact)
		return ANSWER_TEXT;
	rc = answer_parse_number(text, &num, why, sizeof(why));
	if (rc < 0) {
		diag_error(dl, file, o->line, o->col, "option %zu of question \"%s\", = %s: %s",
		    i + 1, q->id, text, why);
		*bad = 1;
		return ANSWER_NUMBER;
	}
	if (rc == 0) {
		if (answer_number_split(text))
			diag_warning(dl, file, o->line, o->col,
			    "option %zu of question \"%s\", = %s, is read as a text answer: a space inside a "
			    "number is read only between groups of three digits (10 000 or 10000 for ten "
			    "thousand); write the number so, or mark the heading .exact to compare it as text",
			    i + 1, q->id, text);
		return ANSWER_TEXT;
	}
	o->min = num.min;
	o->max = num.max;
	o->unit = num.unit;
	return ANSWER_NUMBER;
}

/*
 * Whether question q's options are typed answers (all items start with
 * `=`); if so, reads them and checks them: kinds that agree, one
 * accepted answer at least. A list that mixes `=` items and choices is
 * an error at each item unlike the first.
 */
static int
S_typed_answers(struct doc *d, struct question *q, const struct question_nodes *qn,
    struct diag_list *dl)
{
	const char *file = d->src->display;
	char **texts = xcalloc(q->noptions + 1, sizeof(*texts));
	enum answer_kind *kinds = xcalloc(q->noptions + 1, sizeof(*kinds));
	size_t i, ntyped = 0, first = q->noptions;
	int typed = 0, bad = 0;

	for (i = 0; i < q->noptions; i++)
		ntyped += (texts[i] = S_typed_text(d, qn->options[i].item)) != NULL;
	if (ntyped == 0)
		goto out;
	typed = 1;
	if (ntyped < q->noptions) {
		for (i = 1; i < q->noptions; i++)
			if ((texts[i] != NULL) != (texts[0] != NULL))
				diag_error(dl, file, q->options[i].line, q->options[i].col,
				    texts[i] ? "option %zu of question \"%s\" starts with = but option 1 does not: "
				    "a question takes typed answers (every option - [x] = ...) or choices (none "
				    "starting with =), not both; a choice that starts with = is written \\=" :
				    "option %zu of question \"%s\" does not start with = but option 1 does: "
				    "a question takes typed answers (every option - [x] = ...) or choices (none "
				    "starting with =), not both; a choice that starts with = is written \\=", i + 1, q->id);
		goto out;
	}
	for (i = 0; i < q->noptions; i++) {
		kinds[i] = S_typed_option(d, q, i, qn->options[i].item, texts[i], &bad, dl);
		if (first == q->noptions && q->options[i].correct)
			first = i;
	}
	if (first == q->noptions) {
		diag_error(dl, file, q->options[0].line, q->options[0].col,
		    "question \"%s\" has no accepted answer: mark the right one - [x] = ...; "
		    "an unchecked - [ ] = ... is a wrong answer it expects, shown with its feedback", q->id);
		first = 0;
	}
	q->kind = kinds[first];
	for (i = 0; i < q->noptions && !bad; i++)
		if (kinds[i] != kinds[first])
			diag_error(dl, file, q->options[i].line, q->options[i].col,
			    "option %zu of question \"%s\" is a %s answer, but option %zu, accepted, is a %s "
			    "answer: a question's typed answers are all numbers, all text or all program "
			    "output%s", i + 1, q->id, S_kind_name(kinds[i]), first + 1,
			    S_kind_name(q->kind), kinds[i] == ANSWER_NUMBER || q->kind == ANSWER_NUMBER ?
			    " (mark the heading .exact to compare numbers as text)" : "");
out:
	for (i = 0; i < q->noptions; i++)
		free(texts[i]);
	free(texts);
	free(kinds);
	return typed;
}

/* Question q of topic t from part p; qn gets its nodes. */
static void
S_build_question(struct doc *d, struct topic *t, struct question *q, struct question_nodes *qn,
    const struct part *p, enum difficulty deflt, struct diag_list *dl)
{
	const char *file = d->src->display;
	cmark_node *n, *opts = NULL, *prev = NULL, *item;
	size_t ncorrect = 0, nitems = 0;
	int line, col;

	memset(q, 0, sizeof(*q));
	memset(qn, 0, sizeof(*qn));
	q->id = xstrdup(p->h->id);
	q->stem_text = xstrdup(p->h->text);
	qn->heading = p->h->node;
	q->line = p->h->line;
	q->col = p->h->col;
	q->topic = t;
	S_question_classes(d, q, p->h, deflt == DIFF_NONE ? DIFF_MEDIUM : deflt, dl);

	if (p->body.first)
		for (n = p->body.first;; n = cmark_node_next(n)) {
			if (opts == NULL && S_is_task_list(n)) {
				opts = n;
				if (prev && cmark_node_get_type(prev) == CMARK_NODE_BLOCK_QUOTE)
					qn->hint = prev;
			} else if (opts != NULL)
				model_range_add(&qn->explanation, n);
			if (n == p->body.last)
				break;
			prev = n;
		}
	if (p->body.first && opts != p->body.first && !(qn->hint && qn->hint == p->body.first))
		for (n = p->body.first; n && n != opts && n != qn->hint; n = cmark_node_next(n))
			model_range_add(&qn->stem, n);
	if (opts == NULL) {
		diag_error(dl, file, q->line, q->col,
		    "question \"%s\" has no options: add a task list (- [ ] wrong, - [x] right) after it",
		    q->id);
		S_check_blocks(d, q->id, p->body, NULL, 0, NULL, dl);
		return;
	}
	q->has_options = 1;
	/* Sized to the list: a bank's questions outlive their trees, and most have four options. */
	for (item = cmark_node_first_child(opts); item; item = cmark_node_next(item))
		nitems++;
	q->options = xcalloc(nitems, sizeof(*q->options));
	qn->options = xcalloc(nitems, sizeof(*qn->options));
	nitems = 0;
	for (item = cmark_node_first_child(opts); item; item = cmark_node_next(item)) {
		struct quiz_option *o;
		struct option_nodes *on;
		cmark_node *c;

		nitems++;
		doc_node_pos(d, item, &line, &col);
		if (!md_is_task_item(item)) {
			diag_error(dl, file, line, col,
			    "option %zu of question \"%s\" is not a task item: start it with [ ] or [x]",
			    nitems, q->id);
			continue;
		}
		on = &qn->options[q->noptions];
		o = &q->options[q->noptions++];
		on->item = item;
		o->correct = md_task_item_checked(item);
		o->line = line;
		o->col = col;
		for (c = cmark_node_first_child(item); c; c = cmark_node_next(c))
			if (cmark_node_get_type(c) == CMARK_NODE_BLOCK_QUOTE) {
				on->feedback = c;
				break;
			}
		if (o->correct)
			ncorrect++;
	}
	doc_node_pos(d, opts, &line, &col);
	if (q->noptions > 0 && S_typed_answers(d, q, qn, dl)) {
		/* Typed: one accepted answer is a question; alternatives are all checked. */
	} else if (q->noptions < 2)
		diag_error(dl, file, line, col,
		    "question \"%s\" has only %s option: a question needs at least two",
		    q->id, q->noptions == 0 ? "no task-list" : "one");
	else if (ncorrect == 0)
		diag_error(dl, file, line, col,
		    "question \"%s\" has no correct option: mark the right one with [x]", q->id);
	else if (ncorrect == q->noptions)
		diag_warning(dl, file, line, col,
		    "question \"%s\" marks all %zu options correct, so no answer can be wrong: "
		    "mark the wrong ones [ ]", q->id, q->noptions);
	S_check_blocks(d, q->id, p->body, opts, nitems, NULL, dl);
	q->multi = q->kind == ANSWER_CHOICE && ncorrect > 1;
	if (q->exact && q->kind == ANSWER_CHOICE)
		diag_warning(dl, file, q->line, q->col,
		    "question \"%s\" is marked .exact but is answered by choosing: .exact is for a typed "
		    "answer, compared exactly as written; remove it", q->id);
	if (qn->explanation.first == NULL)
		diag_warning(dl, file, q->line, q->col,
		    "question \"%s\" has no explanation: add a paragraph after the options saying why the answer is right",
		    q->id);
	S_fingerprint(q, qn);
}

struct topic *
quiz_build_topic(struct doc *d, struct doc_tree *tr, struct test *t, const char *url,
    const char *slug, enum difficulty deflt, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	struct topic *tp = xcalloc(1, sizeof(*tp));
	struct parts ps;
	size_t i;

	tp->slug = xstrdup(slug);
	tp->doc = d;
	tp->test = t;
	tp->weight = d->src->fm.weight;
	d->topic = tp;
	d->url = xstrdup(url);
	/* Question ids are checked across the whole test (S_test_ids). */
	model_collect_headings(d, tr, &hl, "question", 0, dl);
	title_h = model_title_heading(&hl);
	if (d->src->fm.title)
		tp->title = xstrdup(d->src->fm.title);
	else if (title_h && *title_h->text)
		tp->title = xstrdup(title_h->text);
	else if (d->src->kind == SOURCE_TEST_FILE)
		tp->title = NULL;      /* takes the test's title below */
	else {
		if (!d->src->fm.error && !d->src->broken)
			diag_warning(dl, d->src->display, 1, 1,
			    "topic has no title, so the topic picker shows \"%s\": add title = \"...\" to the front matter",
			    slug);
		tp->title = xstrdup(slug);
	}
	if (d->src->fm.difficulty != DIFF_NONE)
		deflt = d->src->fm.difficulty;
	model_split_parts(d, tr, &hl, d->src->fm.title ? NULL : title_h, "question", &ps, dl);
	tr->intro = ps.intro;
	S_check_blocks(d, NULL, ps.intro, NULL, 0,
	    d->src->fm.title || title_h == NULL ? NULL : title_h->node, dl);
	for (i = 0; i < hl.len; i++)
		if (!(hl.v[i].top && hl.v[i].level == 2))
			model_heading_attrs_check(d, &hl.v[i], dl);
	tp->questions = xcalloc(ps.len ? ps.len : 1, sizeof(*tp->questions));
	tp->nquestions = ps.len;
	tr->questions = xcalloc(ps.len ? ps.len : 1, sizeof(*tr->questions));
	tr->nquestions = ps.len;
	for (i = 0; i < ps.len; i++)
		S_build_question(d, tp, &tp->questions[i], &tr->questions[i], &ps.v[i], deflt, dl);
	for (i = 0; i < tp->nquestions; i++) {
		struct question *q = &tp->questions[i];

		model_anchor_add(d, q->id, ANCHOR_QUESTION, q->line, q->col, q);
	}
	if (d->src->kind == SOURCE_TOPIC) {
		/* A link to the topic file without # lands on the topic. */
		char *id = xconcat("topic-", tp->slug, NULL);

		model_anchor_add(d, id, ANCHOR_TOPIC, 1, 1, tp);
		free(id);
	}
	if (ps.len == 0 && !d->src->broken)
		diag_error(dl, d->src->display, 1, 1, "%s has no questions: each ## heading starts one",
		    d->src->kind == SOURCE_TEST_FILE ? "test" : "topic");
	free(ps.v);
	model_headings_free(&hl);
	return tp;
}

/* Tests. */

static int
S_cmp_topic(const void *a, const void *b)
{
	const struct topic *x = *(struct topic *const *)a, *y = *(struct topic *const *)b;

	return model_cmp_weighted(x->doc->src->fm.has_weight, x->weight, x->slug,
	    y->doc->src->fm.has_weight, y->weight, y->slug);
}

static int
S_cmp_test(const void *a, const void *b)
{
	const struct test *x = *(struct test *const *)a, *y = *(struct test *const *)b;

	return model_cmp_weighted(x->index->src->fm.has_weight, x->weight, x->slug,
	    y->index->src->fm.has_weight, y->weight, y->slug);
}

struct idref {
	const char *id;
	int line, col;
	int question;              /* 0: a topic's own anchor */
	struct topic *t;
	size_t order;
};

static int
S_cmp_idref(const void *a, const void *b)
{
	const struct idref *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Ids are unique within a test: one page holds all its topics. */
static void
S_test_ids(struct test *t, struct diag_list *dl)
{
	struct idref *v = NULL;
	size_t n = 0, cap = 0, i, j, k;

	for (i = 0; i < t->ntopics; i++) {
		struct topic *tp = t->topics[i];

		for (k = 0; k < tp->doc->nanchors; k++)
			if (tp->doc->anchors[k].kind == ANCHOR_TOPIC) {
				v = xgrow(v, &cap, n + 1, sizeof(*v));
				v[n].id = tp->doc->anchors[k].id;
				v[n].line = v[n].col = 0;
				v[n].question = 0;
				v[n].t = tp;
				v[n].order = n;
				n++;
			}
		for (j = 0; j < tp->nquestions; j++) {
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n].id = tp->questions[j].id;
			v[n].line = tp->questions[j].line;
			v[n].col = tp->questions[j].col;
			v[n].question = 1;
			v[n].t = tp;
			v[n].order = n;
			n++;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), S_cmp_idref);
	for (i = 1; i < n; i++) {
		const struct idref *first;

		if (strcmp(v[i].id, v[i - 1].id) != 0)
			continue;
		for (k = i; k > 0 && strcmp(v[k - 1].id, v[i].id) == 0; k--)
			;
		first = &v[k];
		if (!v[i].question)
			continue;      /* a topic's own anchor: the question is the one to rename */
		if (!first->question)
			diag_error(dl, v[i].t->doc->src->display, v[i].line, v[i].col,
			    "duplicate question id \"%s\": it is the anchor of topic %s in the same test",
			    v[i].id, first->t->slug);
		else if (first->t == v[i].t)
			diag_error(dl, v[i].t->doc->src->display, v[i].line, v[i].col,
			    "duplicate question id \"%s\": line %d has it already; ids are unique within a test",
			    v[i].id, first->line);
		else
			diag_error(dl, v[i].t->doc->src->display, v[i].line, v[i].col,
			    "duplicate question id \"%s\": %s:%d has it already; ids are unique within a test",
			    v[i].id, first->t->doc->src->display, first->line);
	}
	free(v);
}

static void
S_test_finish(struct test *t, struct diag_list *dl)
{
	size_t i, j, k, nsample = 0;

	if (t->ntopics > 1)
		qsort(t->topics, t->ntopics, sizeof(*t->topics), S_cmp_topic);
	for (i = 0; i < t->ntopics; i++) {
		for (j = 0; j < t->topics[i]->nquestions; j++) {
			struct question *q = &t->topics[i]->questions[j];

			t->count[q->difficulty]++;
			t->nquestions++;
			nsample += q->sample;
		}
	}
	/* Without any .sample, the first two easy questions are the samples. */
	for (i = 0, k = nsample; i < t->ntopics && k == 0 && nsample < 2; i++)
		for (j = 0; j < t->topics[i]->nquestions && nsample < 2; j++) {
			struct question *q = &t->topics[i]->questions[j];

			if (q->difficulty == DIFF_EASY && q->has_options) {
				q->sample = 1;
				nsample++;
			}
		}
	S_test_ids(t, dl);
}

/* A test's page. */
static char *
S_test_url(const char *slug)
{
	return xconcat("quiz/", slug, "/index.html", NULL);
}

static struct test *
S_test_new(const char *slug, struct doc *index)
{
	struct test *t = xcalloc(1, sizeof(*t));

	t->slug = xstrdup(slug);
	t->index = index;
	t->url = S_test_url(slug);
	t->weight = index->src->fm.weight;
	if (index->src->fm.description)
		t->description = xstrdup(index->src->fm.description);
	index->test = t;
	return t;
}

static void
S_test_add_topic(struct test *t, struct topic *tp)
{
	t->topics = xrealloc(t->topics, (t->ntopics + 1) * sizeof(*t->topics));
	t->topics[t->ntopics++] = tp;
}

char *
quiz_test_index(struct doc *d, struct doc_tree *tr, struct diag_list *dl)
{
	struct heading_list hl = { 0 };
	const struct heading *title_h;
	char *title;
	cmark_node *n;

	model_build_page(d, tr, &hl, dl);
	title = model_page_title(d, &hl, "test", &title_h, dl);
	memset(&tr->intro, 0, sizeof(tr->intro));
	for (n = cmark_node_first_child(tr->root); n; n = cmark_node_next(n))
		if (title_h == NULL || n != title_h->node)
			model_range_add(&tr->intro, n);
	model_headings_free(&hl);
	return title;
}

/* The topics of folder tests, built in parallel (quiz_build_tests). */
struct topic_job {
	struct doc *doc;
	struct test *test;
	enum difficulty deflt;
	struct topic *topic;
};

struct topic_batch {
	struct topic_job *jobs;
	size_t n;
	struct diag_list *dls;     /* per topic, moved into the site's list in file order */
};

static void
S_topic_job(void *arg, size_t job, int worker)
{
	struct topic_batch *tb = arg;
	struct topic_job *j = &tb->jobs[job];
	char *slug = model_file_stem(j->doc->src->rel);
	struct doc_tree *tr;

	(void)worker;
	tr = model_doc_parse(j->doc, &tb->dls[job]);
	j->topic = quiz_build_topic(j->doc, tr, j->test, j->test->url, slug, j->deflt, &tb->dls[job]);
	model_index_end(j->doc, tr);
	free(slug);
}

/* Builds the tests from content/quiz. docs are in rel order. */
void
quiz_build_tests(struct site *site, struct diag_list *dl)
{
	struct topic_batch tb = { NULL, 0, NULL };
	size_t i, cap = 0, tb_cap = 0, ntopics;

	for (i = 0; i < site->ndocs; i++) {
		struct doc *d = site->docs[i];
		struct source *src = d->src;
		struct test *t;
		char *slug;

		if (src->kind == SOURCE_TEST_FILE) {
			slug = model_file_stem(src->rel);
			{
				char *folder = xasprintf("quiz/%s/_index.md", slug);
				int clash = content_find(&site->sources, folder) != NULL;

				free(folder);
				if (clash) {
					diag_error(dl, src->display, 0, 0,
					    "test \"%s\" is both content/quiz/%s/ and content/%s: rename one",
					    slug, slug, src->rel);
					free(slug);
					continue;
				}
			}
			t = S_test_new(slug, d);
			t->topics = NULL;
			/* The file is the test and its one topic. */
			{
				struct doc_tree *tr = model_doc_parse(d, dl);
				struct topic *tp = quiz_build_topic(d, tr, t, t->url, slug, DIFF_NONE, dl);

				S_test_add_topic(t, tp);
				t->title = tp->title ? xstrdup(tp->title) : NULL;
				if (t->title == NULL) {
					if (!src->fm.error && !src->broken)
						diag_error(dl, src->display, 1, 1,
						    "test has no title: add title = \"...\" to the front matter, or start with a # heading");
					t->title = xstrdup(slug);
				}
				if (tp->title == NULL)
					tp->title = xstrdup(t->title);
				/* What comes before the first question introduces the test (doc_tree_intro). */
				model_index_end(d, tr);
			}
			free(slug);
		} else if (src->kind == SOURCE_TEST_INDEX) {
			char *dir = path_dirname(src->rel);
			size_t k, prefix;
			enum difficulty deflt = src->fm.difficulty;
			struct doc_tree *tr;

			slug = xstrdup(path_basename(dir));
			t = S_test_new(slug, d);
			d->url = xstrdup(t->url);
			tr = model_doc_parse(d, dl);
			t->title = quiz_test_index(d, tr, dl);
			model_index_end(d, tr);
			if (t->title == NULL)
				t->title = xstrdup(slug);
			prefix = strlen(dir) + 1;
			for (k = 0, ntopics = 0; k < site->ndocs; k++) {
				struct doc *td = site->docs[k];

				if (td->src->kind != SOURCE_TOPIC ||
				    strncmp(td->src->rel, dir, prefix - 1) != 0 ||
				    td->src->rel[prefix - 1] != '/')
					continue;
				tb.jobs = xgrow(tb.jobs, &tb_cap, tb.n + 1, sizeof(*tb.jobs));
				tb.jobs[tb.n].doc = td;
				tb.jobs[tb.n].test = t;
				tb.jobs[tb.n].deflt = deflt;
				tb.n++;
				ntopics++;
			}
			if (ntopics == 0 && !src->broken)
				diag_error(dl, src->display, 1, 1,
				    "test has no topics: add a .md file of questions next to _index.md");
			free(dir);
			free(slug);
		} else if (src->kind == SOURCE_TOPIC) {
			/* A topic folder without _index.md: say so once, at its first file. */
			char *dir = path_dirname(src->rel), *index = path_join(dir, "_index.md");
			char *prev_dir = i > 0 ? path_dirname(site->docs[i - 1]->src->rel) : NULL;
			int first = prev_dir == NULL || strcmp(prev_dir, dir) != 0 ||
			    site->docs[i - 1]->src->kind != SOURCE_TOPIC;

			if (content_find(&site->sources, index) == NULL) {
				if (content_is_draft(&site->sources, index)) {
					/* The whole test is a draft. */
				} else if (first)
					diag_error(dl, src->display, 0, 0,
					    "the folder content/%s has no _index.md: add one with the test's title", dir);
			}
			free(prev_dir);
			free(index);
			free(dir);
			continue;
		} else
			continue;
		site->tests = xgrow(site->tests, &cap, site->ntests + 1, sizeof(*site->tests));
		site->tests[site->ntests++] = t;
	}
	/* The topics, each on whichever thread is free, then added in file order. */
	tb.dls = xcalloc(tb.n + 1, sizeof(*tb.dls));
	for (i = 0; i < tb.n; i++)
		diag_init(&tb.dls[i]);
	pool_run(site->jobs, tb.n, S_topic_job, &tb);
	for (i = 0; i < tb.n; i++) {
		S_test_add_topic(tb.jobs[i].test, tb.jobs[i].topic);
		diag_move(dl, &tb.dls[i]);
		diag_free(&tb.dls[i]);
	}
	free(tb.jobs);
	free(tb.dls);
	for (i = 0; i < site->ntests; i++)
		S_test_finish(site->tests[i], dl);
	if (site->ntests > 1)
		qsort(site->tests, site->ntests, sizeof(*site->tests), S_cmp_test);
}

/* Freeing. */

/* A topic's questions and what they own. */
static void
S_questions_free(struct question *v, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].stem_text);
		for (k = 0; k < v[i].noptions; k++) {
			free(v[i].options[k].answer);
			free(v[i].options[k].unit);
		}
		free(v[i].options);
		free(v[i].links_to.v);
	}
	free(v);
}

void
quiz_topic_free(struct topic *tp)
{
	S_questions_free(tp->questions, tp->nquestions);
	free(tp->slug);
	free(tp->title);
	free(tp);
}

void
quiz_test_free(struct test *t)
{
	size_t i;

	for (i = 0; i < t->ntopics; i++)
		quiz_topic_free(t->topics[i]);
	free(t->topics);
	free(t->slug);
	free(t->title);
	free(t->description);
	free(t->url);
	free(t);
}

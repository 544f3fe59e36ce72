/*
 * search: the site's search index, for the theme's search box. One
 * script file that assigns one global, so the box works from disk
 * (file://), where a fetch of JSON would fail.
 */
#ifndef QUIZDECK_SEARCH_H
#define QUIZDECK_SEARCH_H

#include "model.h"
#include "site.h"
#include "outputs.h"
#include "util.h"

/*
 * The index (html.c writes it to out/OUTPUT_SEARCH_INDEX) of the site's
 * guide sections, questions and cards: `window.quizdeckSearch = [...];`,
 * one entry a line, in the model's order: search_begin, then
 * search_chapter for every chapter, search_questions for every test and
 * search_deck for every deck, in the site's order, then search_end. Each
 * entry is {"kind": "chapter" | "section" | "question" | "card",
 * "title", "where" (list: guide, what the site's language calls the
 * guide; chapter; test and topic; deck),
 * "url" (relative to out/, with the #id but for a chapter), "text" (a
 * short excerpt, maybe empty)}. A chapter's and a deck's entries are
 * made apart, from the tree the page that renders them holds open (t,
 * NULL for none), so they can be made on any thread and kept with the
 * page's other pieces.
 */
void search_begin(struct buf *b);
void search_chapter(struct buf *b, const struct chapter *c, const struct doc_tree *t, const char *guide);
void search_questions(struct buf *b, const struct test *t);
void search_deck(struct buf *b, const struct deck *d, const struct doc_tree *t);
void search_end(struct buf *b);

#endif

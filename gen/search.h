/*
 * search: the site's search index, for the theme's search box. One
 * script file that assigns one global, so the box works from disk
 * (file://), where a fetch of JSON would fail.
 */
#ifndef QUIZDECK_SEARCH_H
#define QUIZDECK_SEARCH_H

#include "model.h"
#include "outputs.h"
#include "util.h"

/*
 * Appends the index (html.c writes it to out/OUTPUT_SEARCH_INDEX) of site's guide sections, questions and cards to b:
 * `window.quizdeckSearch = [...];`, one entry a line, in the model's
 * order. Each entry is {"kind": "chapter" | "section" | "question" |
 * "card", "title", "where" (list: "Guide"; chapter; test and topic;
 * deck), "url" (relative to out/, with the #id but for a chapter), "text" (a short excerpt, maybe
 * empty)}. Reads the docs' trees for the excerpts; safe on any thread.
 */
void search_index(const struct site *site, struct buf *b);

#endif

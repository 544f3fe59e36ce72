/*
 * model: what a site is made of, after parsing and linking.
 *
 *   site > tests > topics > questions
 *        > decks > cards
 *        > guide > chapters > sections
 *
 * Plain data only: ids, titles, difficulty, counts, positions, anchors
 * and the links as written. Each Markdown source is parsed while it is
 * indexed and its tree freed when its index job ends, so the model holds
 * no cmark nodes: a pointer into a tree would outlive it, or keep every
 * tree of a large site in memory. An output that renders a doc parses it
 * again (doc_tree_open, site.h); the nodes it needs (a question's stem,
 * a card's back, a section's heading) are in that tree, found from the
 * model's question, card or section. The model holds nothing rendered;
 * the whole of it is freed in one place: site_free.
 *
 * This header holds the model's types and the look-ups on a doc
 * (model.c); loading, trees and freeing are in site.h. The model's own
 * modules share index.h.
 */
#ifndef QUIZDECK_MODEL_H
#define QUIZDECK_MODEL_H

#include <stddef.h>

#include "config.h"
#include "content.h"
#include "diag.h"

struct question;
struct card;
struct section;
struct chapter;

enum anchor_kind { ANCHOR_HEADING, ANCHOR_QUESTION, ANCHOR_CARD, ANCHOR_TOPIC };

/* An id a link may point at inside a doc. */
struct anchor {
	char *id;
	enum anchor_kind kind;
	int line, col;
	union {
		struct section *section;   /* ANCHOR_HEADING in a chapter */
		struct question *question;
		struct card *card;
		struct topic *topic;
	} u;
};

/*
 * A link or image as written in a doc, found when it was indexed: its
 * column is on the `[` (or `![`) as written, whatever cmark counted.
 */
struct doc_link {
	char *dest;
	int line, col;
	int is_image;
	int ref;                   /* reference-style: [text][label] */
	struct question *q;        /* the question or card it is written in, or NULL */
	struct card *c;
	/*
	 * index: the link is all its paragraph holds, and that paragraph is a
	 * top-level block of a chapter (not in a list or quote).
	 */
	int alone;
	/*
	 * link: an alone link that leads to a question (not a draft); the
	 * chapter shows that question in the paragraph's place. Set on every
	 * load, NULL otherwise.
	 */
	struct question *embed;
};

/* One Markdown source. */
struct doc {
	struct source *src;        /* not owned */
	struct doc_link *links;    /* in document order; only for a doc with a url */
	size_t nlinks;
	size_t max_elements;       /* private: [limits] max_elements */
	int parsed;                /* private: indexed from a tree once */
	int emptied;               /* private: over max_elements, indexed as empty */
	char *url;                 /* output page, relative to out/ ("guide/x/index.html"); NULL if not published */
	struct anchor *anchors;    /* sorted by id once parsing is done */
	size_t nanchors, anchors_cap;
	struct chapter *chapter;   /* when this doc is a chapter */
	struct topic *topic;       /* when this doc is a topic (or a one-file test) */
	struct test *test;         /* when this doc is a test's _index.md or one-file test */
	struct deck *deck;         /* when this doc is a deck */
	size_t *line_starts;       /* private: byte offsets of the body's lines (doc_line) */
	size_t nlines;
	/*
	 * private: what its index job reported, and whether this load took
	 * the index from the previous one (site_options.previous) instead of
	 * parsing: it then reports the same again.
	 */
	struct diag_list index_diags;
	int reused;
};

/* A reference from a question or card to somewhere it links. */
enum xref_kind { XREF_QUESTION, XREF_CARD };
struct xref {
	enum xref_kind kind;
	union {
		struct question *question;
		struct card *card;
	} u;
};
struct xref_list {
	struct xref *v;
	size_t len, cap;
};

struct section_list {
	struct section **v;
	size_t len, cap;
};

/*
 * How a question is answered: by choosing options, or by typing (all its
 * options are `- [x] = ...` items, quiz.c): a number, a short text, or a
 * program's output (a fenced block under the `=`).
 */
enum answer_kind { ANSWER_CHOICE, ANSWER_NUMBER, ANSWER_TEXT, ANSWER_OUTPUT };

/* A task-list item of a question; its nodes are in the tree (struct option_nodes). */
struct quiz_option {
	int correct;
	int line, col;
	/*
	 * A typed answer: the text after its `=`, spaces around it trimmed, or
	 * the fenced block's text (ANSWER_OUTPUT); NULL for a choice. An
	 * unchecked one is a wrong answer the author foresaw.
	 */
	char *answer;
	double min, max;           /* ANSWER_NUMBER: the range accepted */
	char *unit;                /* ANSWER_NUMBER: its unit, "" for none; else NULL */
};

struct question {
	char *id;
	char *stem_text;           /* the heading's plain text */
	enum difficulty difficulty;
	int sample;                /* marked .sample, or chosen as a default sample */
	int marked;                /* marked .sample */
	int multi;                 /* more than one correct option (a choice question) */
	enum answer_kind kind;
	int exact;                 /* marked .exact: a typed answer is compared as text, exactly */
	int line, col;             /* the heading's position in the source */
	struct topic *topic;
	struct quiz_option *options;
	size_t noptions;
	int has_options;           /* a task list was found, whatever its items */
	char fingerprint[17];      /* hex of a hash of stem and options: saved answers of a changed question are dropped */
	struct section_list links_to;   /* guide sections its explanation (or any part) links to, in order, unique */
};

struct topic {
	char *slug;                /* file name without .md */
	char *title;
	struct doc *doc;
	long weight;
	struct question *questions;
	size_t nquestions;
	struct test *test;
};

struct test {
	char *slug;                /* folder or file name */
	char *title;
	char *description;         /* NULL if none */
	struct doc *index;         /* _index.md (or the single file) */
	struct topic **topics;     /* ordered by weight, then file name */
	size_t ntopics;
	size_t count[3];           /* questions by difficulty */
	size_t nquestions;
	long weight;
	char *url;                 /* "quiz/<slug>/index.html" */
};

/*
 * What a card asks. One ## heading makes one basic card; a heading with
 * cloze deletions makes one cloze card per deletion number instead; a
 * basic card marked .reverse, or in a deck with reverse = true, makes a
 * reversed card after it as well. They share the heading's nodes
 * (doc_tree_card), and each has its own id.
 */
enum card_kind { CARD_BASIC, CARD_CLOZE, CARD_REVERSED };

struct card {
	char *id;                  /* the heading's id; "<id>-c<n>" (cloze), "<id>-r" (reversed) */
	char *label;               /* the heading's id with the first letter upper-cased,
	                              then " (cloze n)" or " (reversed)" */
	int number;                /* 1-based, in file order, over every kind */
	enum card_kind kind;
	char *note_id;             /* the heading's id, shared by the cards it makes */
	int cloze;                 /* CARD_CLOZE: the deletion's number (c1: 1); else 0 */
	/*
	 * CARD_CLOZE: the heading's plain text with every deletion as written
	 * ({{c1::...}}); else NULL. A code span's text is in it as it is, so
	 * an exporter writing markup renders the heading's nodes instead: a
	 * deletion node's on_enter and on_exit are its markers (cloze.h).
	 */
	char *cloze_source;
	/*
	 * The question's plain text: the heading's, or for a cloze card the
	 * heading's with this deletion as "[hint]" or "[…]" (never its answer).
	 */
	char *front_text;
	int line, col;
	struct deck *deck;
	struct section_list links_to;
	char fingerprint[17];      /* hex of a hash of front and back: saved progress of a changed card is dropped */
};

struct deck {
	char *slug;
	char *title;
	char *description;
	struct doc *doc;
	struct card *cards;
	size_t ncards;
	long weight;
	char *url;                 /* "cards/<slug>/index.html" */
	char *pdf_url;             /* "print/<slug>.pdf" */
};

struct section {
	char *id;
	char *title;               /* plain text */
	int level;                 /* 1..6 */
	int line, col;
	struct chapter *chapter;
	struct xref_list backlinks; /* questions and cards linking here, in model order */
};

struct chapter {
	char *slug;                /* path below guide/ without .md: "ring" or "part/ring" */
	char *title;
	long weight;
	struct doc *doc;
	struct section **sections; /* every heading, in order */
	size_t nsections;
	struct xref_list backlinks; /* links to the chapter without an anchor */
	char *url;                 /* "guide/<slug>/index.html" */
	struct chapter *prev, *next;
};

/* A non-Markdown file some content links to; copied to the output. */
struct asset {
	struct source *src;
	char *url;                 /* path below out/ */
};

struct link_stats {
	size_t links;              /* every link and image checked */
};

struct lang;

struct site {
	char *root;                /* the site folder */
	struct config cfg;
	struct lang *lang;         /* the learner's strings, in cfg.language (lang.h) */
	struct source_set sources;
	struct doc **docs;
	size_t ndocs;
	struct doc *home;          /* content/index.md, or NULL */
	struct test **tests;
	size_t ntests;
	struct deck **decks;
	size_t ndecks;
	struct chapter **chapters; /* in reading order */
	size_t nchapters;
	struct asset *assets;      /* linked files to copy, sorted by url */
	size_t nassets, assets_cap;
	struct link_stats stats;
	int jobs;                  /* threads for indexing, linking and check (site_options) */
};

/* Looks up an anchor by id in a doc (after parsing), or NULL. */
const struct anchor *doc_anchor(const struct doc *d, const char *id);
/* The doc for a source path below content/, or NULL. */
struct doc *site_doc(const struct site *site, const char *rel);
/*
 * Line `line` (1-based, counted from the top of the file as in
 * diagnostics) of d's Markdown body, without its line break; NULL when the
 * line is not in the body. *len gets its length.
 */
const char *doc_line(struct doc *d, int line, size_t *len);

#endif

/*
 * model: what a site is made of, after parsing and linking.
 *
 *   site > tests > topics > questions
 *        > decks > cards
 *        > guide > chapters > sections
 *
 * Each Markdown source is parsed while it is indexed, and its tree freed
 * when its index job ends: the model keeps plain data (ids, titles, the
 * links as written). An output parses a doc again for as long as it
 * renders it (doc_tree_open): then questions, cards, sections and
 * anchors point into that tree (they do not own nodes), and back to NULL
 * once it is closed. Block ranges are inclusive runs of sibling nodes.
 * The model holds what was parsed and linked, nothing rendered; the
 * whole of it is freed in one place: site_free.
 *
 * This header holds the model's types and the look-ups on a doc
 * (model.c); loading, trees and freeing are in site.h. The model's own
 * modules share index.h.
 */
#ifndef QUIZDECK_MODEL_H
#define QUIZDECK_MODEL_H

#include <stddef.h>
#include <cmark-gfm.h>

#include "config.h"
#include "content.h"
#include "diag.h"

struct question;
struct card;
struct section;
struct chapter;

/* An inclusive run of sibling block nodes; both NULL when empty. */
struct block_range {
	cmark_node *first, *last;
};

enum anchor_kind { ANCHOR_HEADING, ANCHOR_QUESTION, ANCHOR_CARD, ANCHOR_TOPIC };

/* An id a link may point at inside a doc. */
struct anchor {
	char *id;
	enum anchor_kind kind;
	int line, col;
	cmark_node *node;          /* the heading (NULL for ANCHOR_TOPIC) */
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
};

/* One Markdown source. */
struct doc {
	struct source *src;        /* not owned */
	cmark_node *root;          /* the tree while open (doc_tree_open), else NULL */
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

struct quiz_option {
	cmark_node *item;          /* the task-list item */
	int correct;
	cmark_node *feedback;      /* block quote inside the item, or NULL */
	int line, col;
};

struct question {
	char *id;
	char *stem_text;           /* the heading's plain text */
	cmark_node *heading;
	enum difficulty difficulty;
	int sample;                /* marked .sample, or chosen as a default sample */
	int marked;                /* marked .sample */
	int multi;                 /* more than one correct option */
	int line, col;             /* the heading's position in the source */
	struct topic *topic;
	struct block_range stem;   /* further stem blocks after the heading */
	cmark_node *hint;          /* block quote before the options, or NULL */
	cmark_node *options_list;  /* the task list */
	struct quiz_option *options;
	size_t noptions;
	struct block_range explanation;
	int has_options;           /* a task list was found, whatever its items */
	char fingerprint[17];      /* hex of a hash of stem and options: saved answers of a changed question are dropped */
	struct section_list links_to;   /* guide sections its explanation (or any part) links to, in order, unique */
};

struct topic {
	char *slug;                /* file name without .md */
	char *title;
	struct doc *doc;
	long weight;
	struct block_range intro;  /* text before the first ## */
	struct question *questions;
	size_t nquestions;
	struct test *test;
};

struct test {
	char *slug;                /* folder or file name */
	char *title;
	char *description;         /* NULL if none */
	struct doc *index;         /* _index.md (or the single file) */
	struct block_range intro;  /* body of _index.md */
	struct topic **topics;     /* ordered by weight, then file name */
	size_t ntopics;
	size_t count[3];           /* questions by difficulty */
	size_t nquestions;
	long weight;
	char *url;                 /* "quiz/<slug>/index.html" */
};

struct card {
	char *id;
	char *label;               /* id with the first letter upper-cased */
	int number;                /* 1-based, in file order */
	char *front_text;          /* the heading's plain text */
	cmark_node *heading;
	struct block_range back;
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
	struct block_range intro;
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
	cmark_node *heading;
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

struct site {
	char *root;                /* the site folder */
	struct config cfg;
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
 * The id of a heading node of doc d (a question, card, section or any
 * other heading given an id), or NULL. Renderers set it as the id
 * attribute. The model keeps it as the node's cmark user data: nobody
 * else may set user data on headings.
 */
const char *doc_heading_id(const struct doc *d, cmark_node *heading);
/*
 * Line `line` (1-based, counted from the top of the file as in
 * diagnostics) of d's Markdown body, without its line break; NULL when the
 * line is not in the body. *len gets its length.
 */
const char *doc_line(struct doc *d, int line, size_t *len);
/* A node's start position in the file (cmark counts from the body's start). */
void doc_node_pos(const struct doc *d, cmark_node *node, int *line, int *col);

#endif

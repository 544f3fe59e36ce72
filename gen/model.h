/*
 * model: what a site is made of, after parsing and linking.
 *
 *   site > tests > topics > questions
 *        > decks > cards
 *        > guide > chapters > sections
 *
 * Each Markdown source is parsed once into a `doc` that owns its cmark
 * tree; questions, cards and sections point into those trees (they do
 * not own nodes). Block ranges are inclusive runs of sibling nodes.
 * One-shot commands drop trees once used (site_options): then only what
 * was rendered, recorded or counted as they loaded is left. The whole
 * model is freed in one place: site_free.
 */
#ifndef QUIZDECK_MODEL_H
#define QUIZDECK_MODEL_H

#include <stddef.h>
#include <stdio.h>
#include <cmark-gfm.h>

#include "config.h"
#include "content.h"
#include "diag.h"

struct question;
struct card;
struct refdefs;
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

/* One parsed Markdown source. */
struct doc {
	struct source *src;        /* not owned */
	cmark_node *root;          /* owned */
	char *url;                 /* output page, relative to out/ ("guide/x/index.html"); NULL if not published */
	struct anchor *anchors;    /* sorted by id once parsing is done */
	size_t nanchors, anchors_cap;
	struct chapter *chapter;   /* when this doc is a chapter */
	struct topic *topic;       /* when this doc is a topic (or a one-file test) */
	struct test *test;         /* when this doc is a test's _index.md or one-file test */
	struct deck *deck;         /* when this doc is a deck */
	size_t *line_starts;       /* private: byte offsets of the body's lines (doc_line) */
	size_t nlines;
	struct link_target *targets; /* private (links.c): where its links lead, by destination */
	size_t ntargets, targets_cap;
	struct link_use *uses;     /* private (links.c): its links, kept when its tree went (links_record) */
	size_t nuses, uses_cap;
	struct refdefs *refdefs;   /* private (links.c): its reference definitions, kept with them */
	int streamed;              /* a chapter whose tree is parsed again for each use (site_chapter_tree) */
	struct md_scratch *scratch; /* where a streamed chapter's or topic's tree lives, while it does */
};

/* A link or image as written in a doc (links_record). */
struct link_use {
	char *dest;                /* owned in doc->uses; borrowed from the tree during a walk */
	int line, col;
	int is_image;
	int ref;                   /* reference-style: [text][label] */
	size_t owner;              /* the question or card it is in, counted from 1; 0: none */
};

/*
 * Content rendered to HTML bytes as it was loaded, before the site was
 * linked (site_options.render_topic): a hole is where a link's target
 * goes, filled for the page it lands on by render_fill.
 */
struct render_hole {
	size_t at;                 /* the byte offset of the attribute's value, or of the mark */
	char *dest;                /* the destination as written; NULL: a mark */
	int is_image;
	size_t mark;               /* a mark: what the renderer's caller puts here (render_fill) */
};
struct rendered {
	char *html;
	size_t len;
	struct render_hole *holes; /* in byte order */
	size_t nholes, holes_cap;
};
void rendered_free(struct rendered *r);

/* A link destination of a doc and its output target (links_output_target). */
struct link_target {
	char *dest;
	char *target;
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
	/*
	 * A streamed topic's question, rendered at load (its tree is gone):
	 * as in the bank and, if it may be a sample, as a sample. NULL otherwise.
	 */
	struct rendered *html, *sample_html;
	struct section_list links_to;   /* guide sections its explanation (or any part) links to, in order, unique */
};

struct topic {
	char *slug;                /* file name without .md */
	char *title;
	struct doc *doc;
	long weight;
	struct block_range intro;  /* text before the first ## */
	struct rendered *intro_html; /* the intro of a streamed topic, rendered at load */
	struct question *questions;
	size_t nquestions;
	struct test *test;
	/*
	 * A streamed topic of a links_only load keeps no questions (none in
	 * questions): its anchors are what links and ids need, and this what
	 * its test counts (S_topic_drop_questions).
	 */
	struct {
		size_t n, count[3];   /* questions, and by difficulty */
	} dropped;
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
	/*
	 * Where the card is written in its doc's body (its heading to the
	 * next card's), when its deck was built a chunk at a time and its
	 * tree is gone (site_options.chunk_cards): card_tree parses it again.
	 * body_len 0 otherwise.
	 */
	size_t body_off, body_len;
};

struct deck {
	char *slug;
	char *title;
	char *description;
	struct doc *doc;
	struct block_range intro;
	struct card *cards;
	size_t ncards;
	/* A streamed deck's cards and intro, rendered at load (its tree is gone); NULL otherwise. */
	struct rendered *cards_html, *intro_html;
	int drawn;                 /* its PDF was written as it loaded (site_options.draw) */
	size_t dropped;            /* a links_only load's streamed deck: its cards, counted and gone (none in cards) */
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
	/*
	 * A streamed chapter's body rendered at load (render_chapter): its
	 * holes are links and marks where a section's "Practise this" list
	 * goes (mark 0: the chapter's own, k: sections[k - 1]'s); with the
	 * sections its leading # heading and its table of contents show.
	 */
	struct rendered *body_html;
	struct section *title_section;
	struct section **toc;
	size_t ntoc;
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
	int jobs;                  /* threads for parsing and freeing (site_options) */
	int links_only;            /* site_options.links_only */
};

struct site_options {
	int strict;                /* warnings are errors */
	int jobs;                  /* threads for parsing, the guide and site_free; 0: one per core */
	/*
	 * One-shot commands (build, print, check without --dump): free the
	 * Markdown bytes once loaded, and stream chapters: each is built as
	 * it is parsed, its links kept as written, and its tree dropped, to
	 * be parsed again when its page is rendered (site_chapter_tree).
	 * Not serve, which reloads from the model it keeps.
	 *
	 * Topics of folder tests stream too, unless they have footnotes or
	 * the site allows raw HTML (both are rendered through libxml2 nodes,
	 * which leave no holes): each is built as it is parsed, its links
	 * kept with the question they are in, render_topic (if set) renders
	 * it, and its tree is dropped for good. Its text is then only in
	 * the struct rendered of its questions and intro.
	 *
	 * With render_deck or draw set, or links_only, decks stream the
	 * same way: render_deck renders the deck's page, draw writes its
	 * PDF. A deck that cannot be rendered with holes, in a build that
	 * renders pages, keeps its tree, to be drawn and rendered from after
	 * loading.
	 */
	int drop_sources;
	void (*render_topic)(const struct site *site, struct topic *tp);
	void (*render_deck)(const struct site *site, struct deck *dk);
	/* Writes each deck's PDF as it loads (struct deck_drawer), with draw_arg. */
	const struct deck_drawer *draw;
	void *draw_arg;
	/* Called once site.toml is read, before any content: settings that win over it. */
	void (*configure)(struct config *cfg, const void *arg);
	const void *configure_arg;
	/*
	 * With render_chapter set, a streamed chapter without footnotes is
	 * rendered as it is parsed, and then needs no second parse.
	 */
	void (*render_chapter)(const struct site *site, struct chapter *c);
	/*
	 * No page will be written (print, check): every link is checked, but
	 * where it leads is not kept (no backlinks, no links_to, no link
	 * targets); a streamed topic keeps no questions (topic.dropped) and
	 * a streamed deck, once built and drawn, no cards (deck.dropped):
	 * their anchors are what links need. For a large site, most of what
	 * print and check kept.
	 */
	int links_only;
	/*
	 * Topics, decks and chapters are read again when they are parsed
	 * (content_load_reread): the whole site's bytes are not in memory at
	 * once. For print, whose memory is to stay flat as a site grows.
	 */
	int reread;
	/*
	 * links_only, without render_deck: a deck of more than DECK_CHUNK_MIN
	 * cards is built DECK_CHUNK_CARDS cards at a time, its tree never
	 * whole, where its file allows (S_build_deck_chunked), and each chunk
	 * drawn (site_options.draw) before the next is built; a card the
	 * drawer gives back (a sheet's cards span two chunks) keeps where its
	 * bytes are, and is drawn from card_tree. So print's memory does not
	 * grow with the length of a deck. A shorter deck's tree is small, and
	 * drawn from whole. Set (tests): a deck of more than chunk_cards
	 * cards, chunk_cards at a time.
	 */
	size_t chunk_cards;
};

#define DECK_CHUNK_MIN 500
#define DECK_CHUNK_CARDS 128

/*
 * Draws a deck's PDF as the deck loads (site_options.draw), for a deck
 * built without error so far. open starts the PDF of dk's ncards cards,
 * to be drawn on up to nthreads threads: 0 and *drawing set, 0 and
 * *drawing NULL for a deck not to be drawn, or -1 with diagnostics.
 * draw gives it cards in deck order, as pdf_deck_draw takes them: it
 * draws what they complete and says in *done how many, from the first,
 * it is done with; the rest come again, first, in the next call (their
 * trees may be gone by then: card.body_len). close finishes the drawing,
 * kept only if `keep` (the deck was given whole and built without
 * error): 0 when kept and whole, else -1. After a -1 from open or draw,
 * only close is called.
 */
struct deck_drawer {
	int (*open)(void *arg, const struct site *site, const struct deck *dk, size_t ncards,
	    int nthreads, struct diag_list *dl, void **drawing);
	int (*draw)(void *drawing, const struct card *cards, size_t n, size_t *done);
	int (*close)(void *drawing, int keep);
};

/*
 * The tree of one card whose deck's tree is gone (card.body_len > 0),
 * parsed again from its bytes: its heading (attributes taken off, as at
 * load) and, if `back`, its back (else only the heading's line is
 * parsed: a front needs no more). -1, with nothing to free, if it does
 * not parse as a card. Safe on any thread; card_tree_free frees it.
 */
struct card_tree {
	cmark_node *root;
	cmark_node *heading;
	struct block_range back;
};
int card_tree(const struct card *c, int back, struct card_tree *t);
void card_tree_free(struct card_tree *t);

/*
 * Loads, parses and links a site rooted at `root`: site.toml, content/.
 * Returns 0 if no error was found; diagnostics go to dl either way. The
 * site must be freed with site_free whatever the result.
 */
int site_load(struct site *site, const char *root, const struct site_options *opt,
    struct diag_list *dl);
void site_free(struct site *site);

/*
 * A streamed chapter's tree, parsed again from its source, with its
 * sections' and anchors' headings pointing into it as when it was loaded;
 * site_chapter_tree_done drops it. For a chapter whose tree was kept,
 * both do nothing. -1 if the tree did not come out as it did at load.
 */
int site_chapter_tree(struct chapter *c);
void site_chapter_tree_done(struct chapter *c);

/* What site_reload changed: the pages to write again. */
struct site_change {
	struct topic *topic;       /* the file reloaded: one of these five */
	struct deck *deck;
	struct chapter *chapter;
	struct test *test;         /* its _index.md */
	int home;                  /* content/index.md */
	struct chapter **chapters; /* chapters listing the topic's questions or the deck's cards */
	size_t nchapters;
};

enum { SITE_RELOADED, SITE_RELOAD_ALL };

/*
 * Reads content/<rel> again after an edit (serve) and puts it into the
 * loaded site in place, if it is a topic, deck, chapter, test's _index.md
 * or the home page whose shape the edit left alone: the same front matter bytes, the same question, card
 * or section ids in the same order (and classes, titles, levels), the
 * same anchors, no new linked file, and no diagnostic that fails the
 * build. Then every struct the rest of the model points at stays where
 * it is, only its contents change, and the pages to write again are in
 * ch (free with site_change_free). Returns SITE_RELOADED, or
 * SITE_RELOAD_ALL: the caller must load the site afresh (which also
 * reports any error); the site may then be half-changed, fit only for
 * site_free.
 */
int site_reload(struct site *site, const char *rel, struct site_change *ch,
    struct diag_list *dl);
void site_change_free(struct site_change *ch);

/* The summary line of `quizdeck check` (no trailing newline); caller frees. */
char *site_summary(const struct site *site, const struct diag_list *dl);
/* A stable text dump of the model, for golden tests (`check --dump`). */
void site_dump(const struct site *site, FILE *fp);

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

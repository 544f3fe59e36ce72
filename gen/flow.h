/*
 * flow: a paginated flow of blocks, set with Pango and written as a PDF
 * with Cairo. The typesetter under the printed book (book.c) and any
 * other printed document of running text.
 *
 * A document is built by appending blocks in reading order: paragraphs
 * in a role (body, headings, notes, title lines ...), code, tables,
 * pictures, rules, contents entries and page breaks. flow_write then lays
 * them out, breaks them into pages (no heading alone at the foot of a
 * page, no first line alone at the foot, no last line alone at the top,
 * no table's header row without its first body row),
 * and draws them with running heads and page numbers, links and an
 * outline. Page references ("p. 12") are laid out with the numbers of
 * the last pass and the whole laid out again until they no longer
 * change, so a reference is always to the page the PDF shows.
 *
 * Text is Pango markup with three private marks (UTF-8 of U+E000..E002):
 * FLOW_LINK_BEGIN and FLOW_LINK_END around a link's text, the n-th BEGIN
 * of a block leading to its n-th struct flow_link; FLOW_PAGE_REF where
 * the page number of the link before it goes. Body text is hyphenated
 * with the dictionary given to flow_new, as soft hyphens, except in
 * code (markup with insert_hyphens="false"), which may break only
 * before . / _ ? # & = (as the Chicago Manual breaks a URL).
 */
#ifndef QUIZDECK_FLOW_H
#define QUIZDECK_FLOW_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include <cairo.h>

#include "image.h"

#define FLOW_LINK_BEGIN "\xee\x80\x80"
#define FLOW_LINK_END "\xee\x80\x81"
#define FLOW_PAGE_REF "\xee\x80\x82"

/*
 * Characters of one block's text that are set; the rest is cut, with an
 * ellipsis. Far more than any paragraph a reader reads (pages of it), and
 * a bound on what one hostile paragraph costs Pango.
 */
#define FLOW_MAX_CHARS 30000

/* The page and the text on it, points. */
struct flow_style {
	double page_w, page_h;
	double margin_top, margin_bottom, margin_side;
	double size;                 /* body text */
	const char *font;            /* text family list, fontconfig names */
	const char *mono;            /* code family list */
	const char *lang;            /* the text's language, BCP 47, or NULL */
	const char *hyphen_dict;     /* libhyphen dictionary path, or NULL: no hyphenation */
	/*
	 * Written right to left: every paragraph's base direction is RTL,
	 * indents, markers, quote bars and tables mirrored (markers in the
	 * right margin of the text), contents numbers at the left, and odd
	 * pages left-hand pages (folios at the outer edge). Code stays left to right.
	 */
	int rtl;
};

/* What a paragraph is: each role has its size, weight, alignment and spacing. */
enum flow_role {
	FLOW_BODY,                   /* justified, hyphenated */
	FLOW_TITLE,                  /* the title page's title */
	FLOW_SUBTITLE,               /* under it, and the author */
	FLOW_LABEL,                  /* "Chapter 3" above a chapter's title */
	FLOW_H1,                     /* a chapter's title, on its opening page */
	FLOW_H2,
	FLOW_H3,
	FLOW_H4,                     /* and deeper */
	FLOW_NOTE,                   /* footnotes, smaller */
	FLOW_ASIDE,                  /* "Practise this", smaller and ragged */
	FLOW_CAPTION,                /* under a picture */
	FLOW_QUESTION,               /* a test's question, its number as marker; kept with what follows */
	FLOW_OPTION,                 /* one of its options, its letter as marker */
	FLOW_KEY                     /* an answer key's entry, ragged */
};

/* Where a link leads: a place in the flow (flow_dest), or a URI. */
struct flow_link {
	int dest;                    /* >= 0: a destination; -1: uri */
	const char *uri;
};

struct flow_para {
	const char *markup;
	enum flow_role role;
	const struct flow_link *links;   /* one per FLOW_LINK_BEGIN, in order */
	size_t nlinks;
	double indent;               /* em from the text's start edge (the right one when rtl) */
	const char *marker;          /* markup set in the indent (a list's bullet), or NULL */
	int quote;                   /* block quotes it is in: a bar for each */
	int tight;                   /* close under the block before (a tight list's items) */
	int keep;                    /* kept on a page with the block after it, as its role may be anyway */
	int dest;                    /* a destination at its top (flow_dest), or -1 */
	int outline;                 /* 0, or its level in the PDF's outline (1 = top) */
	const char *outline_title;   /* plain text, when outline > 0 */
};

/* How a page after flow_new_page shows its running head and number. */
enum flow_page_kind {
	FLOW_PAGE_BARE,              /* no head, no number: a title page */
	FLOW_PAGE_OPENING,           /* a chapter's first page: number at the foot */
	FLOW_PAGE_RUNNING            /* head and number at the top */
};

struct flow;

/* A flow on pages of style st (copied; its strings must outlive the flow). */
struct flow *flow_new(const struct flow_style *st);
void flow_free(struct flow *f);

/* A new destination, placed at the next block appended. */
int flow_dest(struct flow *f);

/*
 * Starts a new page of the kind given (unless nothing is on the current
 * page yet); the pages that follow it run with heads verso (left,
 * even) and recto (right, odd), plain text or NULL.
 */
void flow_new_page(struct flow *f, enum flow_page_kind kind, const char *verso, const char *recto);
/* Vertical space, in body ems; dropped at the top of a page. */
void flow_space(struct flow *f, double em);
/* Vertical space so that the next block starts `fraction` of the way down the text block. */
void flow_sink(struct flow *f, double fraction);

void flow_para(struct flow *f, const struct flow_para *p);
/* A code block: plain text, lines kept, wrapped with a mark only when too wide. */
void flow_code(struct flow *f, const char *text, double indent, int quote);
/* A short centred rule. */
void flow_rule(struct flow *f, double indent);
/* A ruled rectangle the text's width less indent, lines body lines high: a box to write in. */
void flow_box(struct flow *f, double indent, double lines);
/*
 * A picture, not owned (it must outlive flow_write), scaled down to the
 * text's width and at most most of a page's height; dest as flow_para.
 */
void flow_image(struct flow *f, const struct image *im, double indent, int dest);
/*
 * A table of nrows * ncols cells of markup (NULL: empty), copied; a row
 * is a header when header[r]; align per column 'l', 'c', 'r' or 0. The
 * cells' links, as flow_para's, one per FLOW_LINK_BEGIN of the cells
 * row by row.
 */
void flow_table(struct flow *f, int ncols, int nrows, char *const *cells, const int *header,
    const char *align, double indent, const struct flow_link *links, size_t nlinks);
/*
 * A line of the contents: markup, indented by level (1 = top), leading
 * to dest with its page number. Returns the entry, whose markup
 * flow_contents_set replaces (before flow_write): a heading's own markup,
 * known once its chapter is walked.
 */
int flow_contents(struct flow *f, const char *markup, int level, int dest);
void flow_contents_set(struct flow *f, int entry, const char *markup);

struct flow_meta {
	const char *title, *author, *subject;
	const char *date;            /* ISO 8601, for CreationDate and ModDate */
};

/*
 * A Cairo PDF surface of pages w by h pt, its bytes handed to write
 * with closure, with meta's metadata: the title ("" for NULL), the
 * author and subject where not empty, quizdeck as the creator, and
 * meta->date as both dates (never the clock: the bytes are the same on
 * every run). Every PDF quizdeck writes is opened by it: flow_write's
 * and the cards' (pdf.c). The caller checks its status and destroys it.
 */
cairo_surface_t *flow_pdf_surface(cairo_write_func_t write, void *closure, double w, double h,
    const struct flow_meta *meta);

/*
 * Lays the flow out, breaks it into pages and writes it as a PDF at
 * path (NULL: laid out and paginated only, nothing drawn). Returns 0, or -1 with *why set to a reason
 * (static text) when the file cannot be written or *stop turned
 * non-zero (read between pages).
 */
int flow_write(struct flow *f, const char *path, const struct flow_meta *meta,
    const volatile sig_atomic_t *stop, const char **why);
/* After flow_write: the page count, and the 1-based page a destination is on (0: none). */
int flow_pages(const struct flow *f);
int flow_page_of(const struct flow *f, int dest);
/*
 * After flow_write, for tests: each page ("page 3 running") and the
 * pieces of blocks on it ("  block 7 lines 0-4"), each line of text
 * after it as set, a break at a soft hyphen shown as "-".
 */
void flow_dump(const struct flow *f, FILE *fp);

/*
 * The libhyphen dictionary for a language ("en", "en-GB", "de"), found
 * in dir (Debian's /usr/share/hyphen): hyph_<ll>_<CC>.dic, else
 * hyph_<ll>.dic, else the first hyph_<ll>_*.dic in name order. NULL if
 * none; caller frees.
 */
char *flow_hyphen_dict(const char *dir, const char *lang);

#endif

/*
 * content: discovery and front matter.
 *
 * Walks content/ in sorted byte order, reads every file as bytes, checks
 * Markdown files are UTF-8, splits the `+++` TOML front matter off and
 * validates its keys against format.md, and classifies each file by
 * where it lives (quiz/, cards/, guide/, the home page, or an asset).
 */
#ifndef QUIZDECK_CONTENT_H
#define QUIZDECK_CONTENT_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"

struct toml_value;

enum source_kind {
	SOURCE_HOME,         /* content/index.md */
	SOURCE_TEST_INDEX,   /* content/quiz/<test>/_index.md */
	SOURCE_TOPIC,        /* content/quiz/<test>/<topic>.md */
	SOURCE_TEST_FILE,    /* content/quiz/<test>.md: a one-topic test */
	SOURCE_DECK,         /* content/cards/<deck>.md */
	SOURCE_CHAPTER,      /* content/guide/ and below, .md */
	SOURCE_OTHER_MD,     /* any other .md: linkable, not published */
	SOURCE_ASSET         /* any other file: copied when linked */
};

enum difficulty { DIFF_EASY, DIFF_MEDIUM, DIFF_HARD, DIFF_NONE };

/* Front matter keys of format.md, with `has_*` set when written. */
struct front_matter {
	char *title;               /* NULL when absent */
	char *description;
	long weight;
	int has_weight;
	int draft;
	int draft_line, draft_col; /* of draft's value, when draft */
	enum difficulty difficulty; /* DIFF_NONE when absent */
	int difficulty_line, difficulty_col;
	int reverse;               /* a deck's reverse = true: every card also back to front */
	struct toml_value *table;  /* the whole parsed table (owns it), or NULL */
	struct toml_value *extra;  /* the [extra] table inside `table`, or NULL */
	int error;                 /* the front matter had an error (reported) */
};

struct source {
	char *rel;                 /* path below content/, '/'-separated */
	char *display;             /* path shown in diagnostics: "content/..." */
	char *path;                /* path on disk, for reading or copying */
	enum source_kind kind;
	char *data;                /* the file's bytes, NUL-terminated */
	size_t len;
	const char *body;          /* Markdown after the front matter (into data) */
	size_t body_len;
	int body_line;             /* line of data on which body starts, 1-based */
	struct front_matter fm;
	int broken;                /* unreadable, not UTF-8 or front matter unclosed
	                              (reported): exists, but is not parsed */
	struct doc *doc;           /* its parsed doc, which site.c sets; NULL for an asset */
};

struct doc;

struct source_set {
	struct source **v;         /* sorted by rel; drafts are left out */
	size_t len, cap;
	/*
	 * content_find's index: for each slot, 1 + the position in v of a
	 * source whose rel hashes there (0: empty), open addressing over a
	 * power of two at least twice len. Built by content_load; a set
	 * without one is searched in order.
	 */
	size_t *index;
	size_t nindex;
	char **drafts;             /* rel of each draft left out, sorted */
	int (*drafts_at)[2];       /* line and column of each one's draft = true */
	size_t ndrafts, drafts_cap, drafts_at_cap;
};

/*
 * Loads every file below content_dir. Adds diagnostics for unreadable
 * files, bad UTF-8 and bad front matter and goes on; returns 0 if
 * nothing was an error.
 */
int content_load(struct source_set *set, const char *content_dir,
    const char *display_prefix, struct diag_list *dl);
/*
 * content_load with a size limit: a Markdown file over max_size bytes is
 * an error naming the file and the limit, and is not read (0: no limit).
 * Symbolic links are followed only to regular files inside content/; a
 * link leaving content/, a broken or looping one, and one to a folder is
 * a warning with its path, and left out. Files are read on nthreads
 * threads; the diagnostics come in file order whatever the count.
 */
int content_load_max(struct source_set *set, const char *content_dir,
    const char *display_prefix, size_t max_size, int nthreads, struct diag_list *dl);
void content_free(struct source_set *set);
/*
 * Splits and validates front matter of one Markdown file already in
 * src->data; fills src->fm, body, body_len, body_line. Exposed for tests
 * and the fuzzer. Returns 0 or -1 (diagnostics added).
 */
int content_front_matter(struct source *src, struct diag_list *dl);
void front_matter_free(struct front_matter *fm);
/* Finds a source by its path below content/, or NULL. */
struct source *content_find(const struct source_set *set, const char *rel);
/* 1 if rel was a draft left out of the set. */
int content_is_draft(const struct source_set *set, const char *rel);
/* content_is_draft, and where its draft = true is written (line, col of the value). */
int content_draft_at(const struct source_set *set, const char *rel, int *line, int *col);
/* The kind a path below content/ has, from where it lives. */
enum source_kind content_classify(const char *rel);
/* Frees one source made by hand (tests); content_free frees a whole set. */
void source_free(struct source *src);

const char *difficulty_name(enum difficulty d);

#endif

/*
 * diag: the one place diagnostics are collected.
 *
 * Every layer that finds a problem in the input adds it here and returns
 * a status; only main.c prints the list (sorted by file, line, column)
 * and chooses the exit code. Messages follow the compilers' form,
 * `file:line:col: error: message`, so editors can jump to them.
 */
#ifndef QUIZDECK_DIAG_H
#define QUIZDECK_DIAG_H

#include <stddef.h>
#include <stdio.h>

enum diag_level { DIAG_WARNING, DIAG_ERROR };

struct diag {
	enum diag_level level;
	char *file;     /* path as shown to the user; may be NULL */
	int line;       /* 1-based; 0 if unknown */
	int col;        /* 1-based byte column; 0 if unknown */
	char *message;
	size_t seq;     /* insertion order, the last sort key */
};

struct diag_list {
	struct diag *v;
	size_t len, cap;
	size_t errors, warnings;
	int strict;     /* warnings count as errors for the exit status */
};

void diag_init(struct diag_list *dl);
void diag_free(struct diag_list *dl);
void diag_add(struct diag_list *dl, enum diag_level level, const char *file,
    int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
#define diag_error(dl, f, l, c, ...) diag_add((dl), DIAG_ERROR, (f), (l), (c), __VA_ARGS__)
#define diag_warning(dl, f, l, c, ...) diag_add((dl), DIAG_WARNING, (f), (l), (c), __VA_ARGS__)
/*
 * Appends the diagnostics of `from` to dl, in their order, and empties
 * from: work done in parallel keeps a list per job, moved into the main
 * list in job order so the output never depends on the threads.
 */
void diag_move(struct diag_list *dl, struct diag_list *from);
/* Appends a copy of each diagnostic of `from` to dl, in their order. */
void diag_copy(struct diag_list *dl, const struct diag_list *from);
/* True if the list holds an error (or, when strict, a warning). */
int diag_failed(const struct diag_list *dl);
/* Sorts by file, line, column, then order of addition; drops exact repeats. */
void diag_sort(struct diag_list *dl);
/* Prints every diagnostic; colour when `color` is non-zero. */
void diag_print(const struct diag_list *dl, FILE *fp, int color);
/* Formats one diagnostic without colour into a new string (tests use it). */
char *diag_format(const struct diag *d);
/* Every diagnostic as diag_format writes it, one a line, no final newline ("" for none). */
char *diag_join(const struct diag_list *dl);

#endif

/*
 * pdf: printable flashcards, drawn with Cairo and laid out with Pango.
 */
#ifndef QUIZDECK_PDF_H
#define QUIZDECK_PDF_H

#include <signal.h>
#include <stddef.h>

#include "model.h"

/*
 * Writes one deck as a PDF at path with the given print settings, fitting
 * the cards on nthreads threads (the file is the same for any number).
 * Cards that do not fit even at min_font_size are warnings naming their
 * file and line. Returns 0, or -1 with diagnostics added (or, without
 * one, when *stop, if stop is not NULL, turned non-zero: it is read
 * between pages, and may be set by a signal handler). With path NULL the
 * deck is drawn and checked the same way and nothing is written, so
 * `check` finds what `build` would.
 */
int pdf_write_deck(const struct site *site, const struct deck *deck,
    const struct print_config *pc, const char *path, int nthreads,
    const volatile sig_atomic_t *stop, struct diag_list *dl);

/*
 * A calibration sheet, two pages: crosses on the front, scales behind
 * them on the back, to read the printer's back-side shift as back_offset.
 */
int pdf_write_calibration(const struct print_config *pc, const char *path,
    struct diag_list *dl);

/* SOURCE_DATE_EPOCH as ISO 8601 ("2024-01-01T00:00:00Z"), else a fixed date: never the clock. */
void pdf_date(char *out, size_t n);

/*
 * Releases Pango's default font map, so leak checkers see its caches
 * freed. Call once, at exit, after the last PDF (or none).
 */
void pdf_cleanup(void);

#endif

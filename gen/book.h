/*
 * book: the guide as a printed book, out/print/guide.pdf.
 */
#ifndef QUIZDECK_BOOK_H
#define QUIZDECK_BOOK_H

#include <signal.h>

#include "model.h"
#include "outputs.h"

/* Where Debian keeps libhyphen's dictionaries (the hyphen-* packages). */
#define BOOK_HYPHEN_DIR "/usr/share/hyphen"

/*
 * Writes the site's guide as a book at path (NULL: laid out and checked,
 * nothing written), on paper pc->paper_w x pc->paper_h, hyphenated for
 * the site's language with a dictionary from hyphen_dir (Debian's
 * /usr/share/hyphen): a title page, the contents, then each chapter
 * from a new page, its footnotes at its end; links between chapters as
 * PDF links with the page they lead to, and an outline of chapters and
 * sections. What it cannot print (a picture it cannot read, raw HTML
 * under unsafe_html) is a warning at its place. Returns 0, or -1 with a
 * diagnostic (or without one when *stop turned non-zero). A site
 * without chapters has no book: 0, nothing written.
 */
int book_write(const struct site *site, const struct print_config *pc, const char *hyphen_dir,
    const char *path, const volatile sig_atomic_t *stop, struct diag_list *dl);

/*
 * book_write, and with pages not NULL, the pages the book's sections
 * fall on put in *pages (NULL when the site has no chapters or the book
 * failed), for documents that refer to them by page (the handout's
 * answer key). Free with book_pages_free.
 */
struct book_pages;
int book_write_pages(const struct site *site, const struct print_config *pc, const char *hyphen_dir,
    const char *path, const volatile sig_atomic_t *stop, struct diag_list *dl,
    struct book_pages **pages);
/* The 1-based page section s starts on, 0 if it is not in the book. */
int book_section_page(const struct book_pages *bp, const struct section *s);
void book_pages_free(struct book_pages *bp);

#endif

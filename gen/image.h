/*
 * image: a picture read from disk and drawn on a Cairo surface, for the
 * printed outputs (cards; the guide as a book may draw with it too).
 *
 * PNG is read by Cairo; JPEG by gdk-pixbuf (already under librsvg, and
 * it follows a photo's EXIF orientation), its bytes kept so that a PDF
 * embeds the JPEG as it is; SVG is drawn by librsvg as vectors. The
 * format is told from the file's first bytes, not its name.
 */
#ifndef QUIZDECK_IMAGE_H
#define QUIZDECK_IMAGE_H

#include <cairo.h>

/* More pixels than this are refused unread: a small file may claim to be huge. */
#define IMAGE_MAX_PIXELS (50L * 1000 * 1000)
#define IMAGE_MAX_BYTES (32L * 1024 * 1024)

struct image;

/*
 * Reads the picture at path. Returns it (image_free frees), or NULL with
 * *why set to a short static reason, for a message: "cannot be read",
 * "is not a PNG, JPEG or SVG file", "is damaged" and so on.
 */
struct image *image_load(const char *path, const char **why);
/* Its natural size in points, a pixel being a CSS pixel (1/96 in). */
void image_size(const struct image *im, double *w_pt, double *h_pt);
/*
 * Draws it into the box at (x, y), w by h in cr's units, as large as
 * fits with its proportions kept, centred in the box.
 */
void image_draw(const struct image *im, cairo_t *cr, double x, double y, double w, double h);
void image_free(struct image *im);

#endif

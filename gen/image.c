/*
 * image: pictures for print. See image.h.
 */
#include "image.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <librsvg/rsvg.h>

#include "util.h"

#define PT_PER_PX 0.75           /* a CSS pixel, 1/96 in, in points */
#define SVG_DPI 96.0

struct image {
	cairo_surface_t *raster;     /* PNG, JPEG: pixels */
	RsvgHandle *svg;             /* SVG */
	double w, h;                 /* natural size, pt */
};

/* Where Cairo reads a PNG from: the file's bytes in memory. */
struct reading {
	const unsigned char *p;
	size_t left;
};

static cairo_status_t
S_read_png(void *closure, unsigned char *data, unsigned int len)
{
	struct reading *r = closure;

	if (len > r->left)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, r->p, len);
	r->p += len;
	r->left -= len;
	return CAIRO_STATUS_SUCCESS;
}

static uint32_t
S_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int
S_too_many_pixels(double w, double h)
{
	return w <= 0 || h <= 0 || w * h > (double)IMAGE_MAX_PIXELS;
}

static cairo_surface_t *
S_png(const unsigned char *data, size_t len, const char **why)
{
	struct reading r = { data, len };
	cairo_surface_t *s;

	/* The header's size first: IHDR's width and height. */
	if (len < 24 || memcmp(data + 12, "IHDR", 4) != 0) {
		*why = "is damaged";
		return NULL;
	}
	if (S_too_many_pixels(S_be32(data + 16), S_be32(data + 20))) {
		*why = "is too large (over 50 million pixels)";
		return NULL;
	}
	s = cairo_image_surface_create_from_png_stream(S_read_png, &r);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		*why = "is damaged";
		return NULL;
	}
	return s;
}

/* A pixbuf's pixels as a Cairo surface (premultiplied, native-endian ARGB). */
static cairo_surface_t *
S_from_pixbuf(GdkPixbuf *pb)
{
	int w = gdk_pixbuf_get_width(pb), h = gdk_pixbuf_get_height(pb);
	int nch = gdk_pixbuf_get_n_channels(pb), alpha = gdk_pixbuf_get_has_alpha(pb);
	int stride = gdk_pixbuf_get_rowstride(pb), x, y;
	const guchar *px = gdk_pixbuf_read_pixels(pb);
	cairo_surface_t *s = cairo_image_surface_create(alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, w, h);
	unsigned char *out;
	int ostride;

	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		return s;
	cairo_surface_flush(s);
	out = cairo_image_surface_get_data(s);
	ostride = cairo_image_surface_get_stride(s);
	for (y = 0; y < h; y++) {
		const guchar *p = px + (size_t)y * stride;
		uint32_t *o = (uint32_t *)(void *)(out + (size_t)y * ostride);

		for (x = 0; x < w; x++, p += nch) {
			uint32_t a = alpha && nch == 4 ? p[3] : 255;
			uint32_t r = p[0] * a / 255, g = p[1] * a / 255, b = p[2] * a / 255;

			o[x] = a << 24 | r << 16 | g << 8 | b;
		}
	}
	cairo_surface_mark_dirty(s);
	return s;
}

static cairo_surface_t *
S_jpeg(const char *path, const unsigned char *data, size_t len, const char **why)
{
	GdkPixbuf *pb, *turned;
	cairo_surface_t *s = NULL;
	const char *orient;
	int w = 0, h = 0;

	if (gdk_pixbuf_get_file_info(path, &w, &h) == NULL || S_too_many_pixels(w, h)) {
		*why = w > 0 ? "is too large (over 50 million pixels)" : "is damaged";
		return NULL;
	}
	pb = gdk_pixbuf_new_from_file(path, NULL);
	if (pb == NULL) {
		*why = "is damaged";
		return NULL;
	}
	orient = gdk_pixbuf_get_option(pb, "orientation");
	turned = gdk_pixbuf_apply_embedded_orientation(pb);
	s = S_from_pixbuf(turned ? turned : pb);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		s = NULL;
		*why = "is too large to draw";
	} else if (orient == NULL || strcmp(orient, "1") == 0) {
		/* Upright as stored: a PDF can embed the JPEG itself, not its pixels. */
		unsigned char *copy = xmalloc(len);

		memcpy(copy, data, len);
		cairo_surface_set_mime_data(s, CAIRO_MIME_TYPE_JPEG, copy, len, free, copy);
	}
	if (turned)
		g_object_unref(turned);
	g_object_unref(pb);
	return s;
}

static RsvgHandle *
S_svg(const unsigned char *data, size_t len, double *w, double *h, const char **why)
{
	RsvgHandle *svg = rsvg_handle_new_from_data(data, len, NULL);
	gboolean has_w, has_h, has_box;
	RsvgLength lw, lh;
	RsvgRectangle box;

	if (svg == NULL) {
		*why = "is not a PNG, JPEG or SVG file that can be read";
		return NULL;
	}
	rsvg_handle_set_dpi(svg, SVG_DPI);
	if (!rsvg_handle_get_intrinsic_size_in_pixels(svg, w, h)) {
		/* Percentages: the viewBox's proportions, 300 by 150 px as a browser has it. */
		rsvg_handle_get_intrinsic_dimensions(svg, &has_w, &lw, &has_h, &lh, &has_box, &box);
		*w = 300;
		*h = has_box && box.width > 0 ? 300 * box.height / box.width : 150;
	}
	if (!(*w > 0 && *h > 0)) {
		g_object_unref(svg);
		*why = "has no size";
		return NULL;
	}
	return svg;
}

struct image *
image_load(const char *path, const char **why)
{
	static const unsigned char png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	struct image *im = NULL;
	char *data = NULL;
	size_t len = 0;
	int rc = file_read_max(path, IMAGE_MAX_BYTES, &data, &len);
	const unsigned char *u = (const unsigned char *)data;
	size_t i = 0;

	if (rc == -2) {
		*why = "is too large (over 32 MB)";
		return NULL;
	}
	if (rc != 0) {
		*why = errno == ENOENT ? "is missing" : "cannot be read";
		return NULL;
	}
	im = xcalloc(1, sizeof(*im));
	if (len >= 8 && memcmp(u, png_magic, 8) == 0)
		im->raster = S_png(u, len, why);
	else if (len >= 3 && u[0] == 0xff && u[1] == 0xd8 && u[2] == 0xff)
		im->raster = S_jpeg(path, u, len, why);
	else {
		/* SVG is text: a byte-order mark, white space, then '<'. */
		if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
			i = 3;
		while (i < len && (u[i] == ' ' || u[i] == '\t' || u[i] == '\n' || u[i] == '\r'))
			i++;
		if (i < len && u[i] == '<')
			im->svg = S_svg(u, len, &im->w, &im->h, why);
		else
			*why = "is not a PNG, JPEG or SVG file";
	}
	free(data);
	if (im->raster) {
		im->w = cairo_image_surface_get_width(im->raster) * PT_PER_PX;
		im->h = cairo_image_surface_get_height(im->raster) * PT_PER_PX;
	} else if (im->svg) {
		im->w *= PT_PER_PX;
		im->h *= PT_PER_PX;
	} else {
		free(im);
		im = NULL;
	}
	return im;
}

void
image_size(const struct image *im, double *w_pt, double *h_pt)
{
	*w_pt = im->w;
	*h_pt = im->h;
}

void
image_draw(const struct image *im, cairo_t *cr, double x, double y, double w, double h)
{
	double scale = w / im->w < h / im->h ? w / im->w : h / im->h;
	double dw = im->w * scale, dh = im->h * scale;

	x += (w - dw) / 2;
	y += (h - dh) / 2;
	cairo_save(cr);
	if (im->svg) {
		RsvgRectangle viewport = { x, y, dw, dh };

		rsvg_handle_render_document(im->svg, cr, &viewport, NULL);
	} else {
		cairo_translate(cr, x, y);
		cairo_scale(cr, dw / cairo_image_surface_get_width(im->raster),
		    dh / cairo_image_surface_get_height(im->raster));
		cairo_set_source_surface(cr, im->raster, 0, 0);
		cairo_paint(cr);
	}
	cairo_restore(cr);
}

void
image_free(struct image *im)
{
	if (!im)
		return;
	if (im->raster)
		cairo_surface_destroy(im->raster);
	if (im->svg)
		g_object_unref(im->svg);
	free(im);
}

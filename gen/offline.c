/*
 * offline: the manifest, its icons and the service worker's file list,
 * made from what the build wrote.
 */
#include "offline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cairo.h>
#include <glib.h>

#include "lang.h"
#include "outputs.h"
#include "util.h"

/* Hex digits kept of a SHA-256: enough to tell two versions of a file apart. */
#define OFFLINE_HASH_LEN 16

/* A short_name longer than this is cut at a word: what a home screen shows under an icon. */
#define OFFLINE_SHORT_NAME 12

struct colour {
	double r, g, b;
	char hex[8];               /* "#rrggbb" */
};

/*
 * The colour a custom property `name` (with its "--") is first given in
 * css, if it is #rgb or #rrggbb. 0 and *c set, or -1.
 */
static int
S_css_colour(const char *css, const char *name, struct colour *c)
{
	size_t n = strlen(name);
	const char *p;

	for (p = strstr(css, name); p; p = strstr(p + 1, name)) {
		const char *v = p + n, *h;
		unsigned int rgb[3];
		size_t len = 0;

		while (*v == ' ' || *v == '\t')
			v++;
		if (*v++ != ':')
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != '#')
			return -1;
		for (h = v + 1; g_ascii_isxdigit(*h); h++)
			len++;
		if (len == 3) {
			for (size_t i = 0; i < 3; i++)
				rgb[i] = (unsigned int)g_ascii_xdigit_value(v[1 + i]) * 17;
		} else if (len == 6) {
			for (size_t i = 0; i < 3; i++)
				rgb[i] = (unsigned int)(g_ascii_xdigit_value(v[1 + 2 * i]) * 16 +
				    g_ascii_xdigit_value(v[2 + 2 * i]));
		} else
			return -1;
		c->r = rgb[0] / 255.0;
		c->g = rgb[1] / 255.0;
		c->b = rgb[2] / 255.0;
		snprintf(c->hex, sizeof(c->hex), "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
		return 0;
	}
	return -1;
}

/* The theme's accent and page colours, from the stylesheet the build copied. */
static void
S_theme_colours(const char *outdir, struct colour *accent, struct colour *bg)
{
	char *path = path_join(outdir, "assets/style.css"), *css = NULL;
	size_t len;

	*accent = (struct colour){ 0.2, 0.2, 0.2, "#333333" };
	*bg = (struct colour){ 1, 1, 1, "#ffffff" };
	if (file_read(path, &css, &len) == 0) {
		(void)S_css_colour(css, "--accent", accent);
		(void)S_css_colour(css, "--bg", bg);
	}
	free(css);
	free(path);
}

static void
S_rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
	cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
	cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
	cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
	cairo_close_path(cr);
}

static cairo_status_t
S_png_put(void *closure, const unsigned char *data, unsigned int len)
{
	buf_put(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

/*
 * Two cards, one behind the other, on the accent colour to the edges.
 * The cards keep inside the middle 80% circle, so a launcher that masks
 * the icon to any shape (purpose "maskable") cuts none of them. No text:
 * fonts differ between machines, and the bytes must not.
 */
static int
S_icon(const char *outdir, const char *name, int size, const struct colour *accent,
    const struct colour *bg, struct diag_list *dl)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, size, size);
	cairo_t *cr = cairo_create(s);
	char *path = path_join(outdir, name);
	struct buf png;
	cairo_status_t st;
	int rc = -1, i;

	buf_init(&png);
	cairo_scale(cr, size / 100.0, size / 100.0);
	cairo_set_source_rgb(cr, accent->r, accent->g, accent->b);
	cairo_paint(cr);
	/* The card behind, turned a little and half the strength of the front. */
	cairo_save(cr);
	cairo_translate(cr, 55, 48);
	cairo_rotate(cr, 10 * M_PI / 180);
	S_rounded_rect(cr, -17, -23, 34, 46, 4);
	cairo_set_source_rgba(cr, bg->r, bg->g, bg->b, 0.5);
	cairo_fill(cr);
	cairo_restore(cr);
	/* The front card and three lines of text on it. */
	S_rounded_rect(cr, 29, 29, 34, 46, 4);
	cairo_set_source_rgb(cr, bg->r, bg->g, bg->b);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, accent->r, accent->g, accent->b);
	cairo_set_line_width(cr, 3.5);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	for (i = 0; i < 3; i++) {
		cairo_move_to(cr, 36, 43 + 9 * i);
		cairo_line_to(cr, 56 - 6 * i, 43 + 9 * i);
	}
	cairo_stroke(cr);
	cairo_surface_flush(s);
	/* The status that failed: drawing's, else the PNG stream's own. */
	if ((st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS ||
	    (st = cairo_surface_write_to_png_stream(s, S_png_put, &png)) != CAIRO_STATUS_SUCCESS) {
		diag_error(dl, NULL, 0, 0, "cannot draw the app icon %s: %s", name,
		    cairo_status_to_string(st));
		goto out;
	}
	if (file_write(path, png.data, png.len) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	buf_free(&png);
	free(path);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return rc;
}

/*
 * The site's title cut to OFFLINE_SHORT_NAME characters at a space, or
 * whole when it has no space that early. Caller frees.
 */
static char *
S_short_name(const char *title)
{
	const char *p = title, *cut = NULL;
	size_t chars = 0;

	if (g_utf8_strlen(title, -1) <= OFFLINE_SHORT_NAME)
		return xstrdup(title);
	for (; *p && chars <= OFFLINE_SHORT_NAME; p = g_utf8_next_char(p), chars++)
		if (*p == ' ')
			cut = p;
	return cut ? xstrndup(title, (size_t)(cut - title)) : xstrdup(title);
}

static int
S_manifest(const struct site *site, const char *outdir, const struct colour *accent,
    const struct colour *bg, struct diag_list *dl)
{
	static const int sizes[] = { 192, 512 };
	static const char *const icons[] = { OUTPUT_ICON_192, OUTPUT_ICON_512 };
	static const char *const purposes[] = { "any", "maskable" };
	const struct config *cfg = &site->cfg;
	char *path = path_join(outdir, OUTPUT_MANIFEST), *short_name = S_short_name(cfg->title);
	struct buf b;
	size_t i, k;
	int rc = 0;

	buf_init(&b);
	buf_puts(&b, "{\n  \"name\": ");
	buf_put_json_string(&b, cfg->title);
	buf_puts(&b, ",\n  \"short_name\": ");
	buf_put_json_string(&b, short_name);
	if (cfg->description && *cfg->description) {
		buf_puts(&b, ",\n  \"description\": ");
		buf_put_json_string(&b, cfg->description);
	}
	buf_puts(&b, ",\n  \"lang\": ");
	buf_put_json_string(&b, cfg->language && *cfg->language ? cfg->language : "en");
	if (lang_rtl(site->lang))
		buf_puts(&b, ",\n  \"dir\": \"rtl\"");
	/* Relative to the manifest: the site may be hosted under any path. */
	buf_puts(&b, ",\n  \"id\": \"./\",\n  \"start_url\": \"./index.html\",\n  \"scope\": \"./\",\n"
	    "  \"display\": \"standalone\",\n");
	buf_printf(&b, "  \"theme_color\": \"%s\",\n  \"background_color\": \"%s\",\n  \"icons\": [",
	    accent->hex, bg->hex);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++)
			buf_printf(&b, "%s\n    {\"src\": \"%s\", \"sizes\": \"%dx%d\", \"type\": \"image/png\", "
			    "\"purpose\": \"%s\"}", k + i ? "," : "", icons[i], sizes[i], sizes[i], purposes[k]);
	buf_puts(&b, "\n  ]\n}\n");
	if (file_write(path, b.data, b.len) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	buf_free(&b);
	free(short_name);
	free(path);
	return rc;
}

/* Every file below outdir but the worker, as paths below it, in byte order. */
static char **
S_files(const char *outdir, size_t *n)
{
	char **files = dir_files(outdir, "", n);
	size_t i, k = 0;

	for (i = 0; i < *n; i++)
		if (strcmp(files[i], OUTPUT_SERVICE_WORKER) == 0)
			free(files[i]);
		else
			files[k++] = files[i];
	*n = k;
	return files;
}

/* The first OFFLINE_HASH_LEN hex digits of the SHA-256 of a file's bytes, into hex; 0 or -1. */
static int
S_file_hash(const char *path, char hex[OFFLINE_HASH_LEN + 1])
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	unsigned char chunk[65536];
	FILE *f = fopen(path, "rb");
	size_t got;
	int rc = -1;

	if (f == NULL)
		goto out;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		g_checksum_update(ck, chunk, got);
	if (ferror(f)) {
		errno = EIO;
		goto out;
	}
	memcpy(hex, g_checksum_get_string(ck), OFFLINE_HASH_LEN);
	hex[OFFLINE_HASH_LEN] = '\0';
	rc = 0;
out:
	{
		int saved = errno;

		if (f)
			fclose(f);
		g_checksum_free(ck);
		errno = saved;
	}
	return rc;
}

/* A download the learner opens when wanted: cached then, not with the pages. */
static int
S_on_demand(const char *rel)
{
	return strncmp(rel, "print/", 6) == 0 || strncmp(rel, "export/", 7) == 0;
}

static int
S_worker(const char *outdir, struct diag_list *dl)
{
	char **files, *path = NULL, hex[OFFLINE_HASH_LEN + 1];
	struct buf list, b;
	size_t n, i;
	int rc = -1;

	buf_init(&list);
	buf_init(&b);
	files = S_files(outdir, &n);
	for (i = 0; i < n; i++) {
		char *full = path_join(outdir, files[i]), *url = url_encode_path(files[i]);
		int bad = S_file_hash(full, hex);

		if (bad)
			diag_error(dl, NULL, 0, 0, "cannot read %s for the offline file list: %s",
			    full, strerror(errno));
		free(full);
		if (bad) {
			free(url);
			goto out;
		}
		buf_puts(&list, i ? ",\n[" : "[");
		buf_put_json_string(&list, url);
		buf_printf(&list, ", \"%s\"%s]", hex, S_on_demand(files[i]) ? ", \"on-demand\"" : "");
		free(url);
	}
	{
		gchar *version = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
		    (const guchar *)(list.data ? list.data : ""), list.len);

		buf_printf(&b, "/* Written by quizdeck: every file of this site and a hash of its bytes, "
		    "for the offline cache (assets/offline-worker.js). */\n"
		    "self.QUIZDECK_OFFLINE = {\n\"version\": \"%.*s\",\n\"files\": [\n",
		    OFFLINE_HASH_LEN, version);
		g_free(version);
	}
	buf_put(&b, list.data ? list.data : "", list.len);
	buf_puts(&b, "\n]\n};\nimportScripts(\"assets/offline-worker.js\");\n");
	path = path_join(outdir, OUTPUT_SERVICE_WORKER);
	if (file_write(path, b.data, b.len) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	free(path);
	buf_free(&list);
	buf_free(&b);
	return rc;
}

int
offline_write(const struct site *site, const char *outdir, struct diag_list *dl)
{
	struct colour accent, bg;

	S_theme_colours(outdir, &accent, &bg);
	if (S_icon(outdir, OUTPUT_ICON_192, 192, &accent, &bg, dl) == -1 ||
	    S_icon(outdir, OUTPUT_ICON_512, 512, &accent, &bg, dl) == -1 ||
	    S_manifest(site, outdir, &accent, &bg, dl) == -1)
		return -1;
	/* Last: it lists the files above. */
	return S_worker(outdir, dl);
}

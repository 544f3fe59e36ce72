/*
 * fuzz_util.h: what the site-level fuzz targets share. Include once.
 *
 *   fz_site_dir()              a private folder on tmpfs, made once per process
 *   fz_put(rel, data, len)     writes a file of the site (folders made)
 *   fz_split(data, size, ...)  cuts the input at form feeds (\f) into parts
 *   fz_check_tree(node, raw)   the injection oracle: aborts on script in a tree
 *   fz_check_file(path, raw)   the same for a written HTML page
 *
 * The oracle is what the hostile-content suite asserts, applied to every
 * input: no <script> without src, no on* event attribute, no style
 * attribute, and no URL attribute that links_url_is_safe refuses. With
 * raw HTML allowed ([markdown] unsafe_html) only the URL rule holds.
 */
#ifndef QUIZDECK_FUZZ_UTIL_H
#define QUIZDECK_FUZZ_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "links.h"
#include "theme.h"
#include "util.h"

static char fz_dir[128];

/* At a clean exit: the folder goes. After a crash it stays, with the input that crashed. */
static void
fz_site_dir_remove(void)
{
	dir_remove(fz_dir);
}

static inline const char *
fz_site_dir(void)
{
	if (fz_dir[0] == '\0') {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(fz_dir, sizeof(fz_dir), "%s/quizdeck-fuzz-%ld", base, (long)getpid());
		dir_remove(fz_dir);
		if (dir_make(fz_dir) == -1) {
			perror(fz_dir);
			abort();
		}
		atexit(fz_site_dir_remove);
	}
	return fz_dir;
}

static inline void
fz_put(const char *rel, const void *data, size_t len)
{
	char *path = path_join(fz_site_dir(), rel);

	if (file_write(path, data, len) == -1) {
		perror(path);
		abort();
	}
	free(path);
}

static inline void
fz_put_str(const char *rel, const char *text)
{
	fz_put(rel, text, strlen(text));
}

/* Cuts data at '\f' into at most max parts; returns how many. Parts point into data. */
static inline size_t
fz_split(const char *data, size_t size, const char **part, size_t *len, size_t max)
{
	size_t n = 0, start = 0, i;

	for (i = 0; i <= size && n < max; i++) {
		if (i == size || (data[i] == '\f' && n + 1 < max)) {
			part[n] = data + start;
			len[n] = i - start;
			n++;
			start = i + 1;
		}
	}
	return n;
}

static inline void
fz_fail(const char *what, const xmlChar *name, const xmlChar *value)
{
	fprintf(stderr, "fuzz oracle: %s: <%s> %s\n", what, name ? (const char *)name : "",
	    value ? (const char *)value : "");
	abort();
}

static inline int
fz_is_url_attr(const char *n)
{
	static const char *const v[] = {
		"href", "src", "action", "formaction", "poster", "data", "xlink:href", "srcset",
		"background", "cite", "longdesc", "usemap", "manifest",
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcasecmp(n, v[i]) == 0)
			return 1;
	return 0;
}

/* The oracle over one tree (see the top of the file). */
static inline void
fz_check_tree(xmlNodePtr top, int raw_html)
{
	xmlNodePtr n = top;

	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlAttrPtr a;

			if (!raw_html && xmlStrcasecmp(n->name, (const xmlChar *)"script") == 0 &&
			    !xmlHasProp(n, (const xmlChar *)"src"))
				fz_fail("inline script", n->name, NULL);
			for (a = n->properties; a; a = a->next) {
				xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);

				if (!raw_html && xmlStrncasecmp(a->name, (const xmlChar *)"on", 2) == 0)
					fz_fail("event attribute", n->name, a->name);
				if (!raw_html && xmlStrcasecmp(a->name, (const xmlChar *)"style") == 0)
					fz_fail("style attribute", n->name, v);
				if (v && fz_is_url_attr((const char *)a->name) &&
				    !links_url_is_safe((const char *)v,
				    xmlStrcasecmp(n->name, (const xmlChar *)"img") == 0))
					fz_fail("unsafe URL", n->name, v);
				xmlFree(v);
			}
		}
		n = theme_next_node(n, top);
	}
}

static inline void
fz_check_html(const char *data, size_t len, int raw_html)
{
	htmlDocPtr doc = htmlReadMemory(data, (int)len, NULL, "UTF-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);

	if (doc == NULL)
		fz_fail("unparsable page", NULL, NULL);
	fz_check_tree(xmlDocGetRootElement(doc), raw_html);
	xmlFreeDoc(doc);
}

static inline void
fz_check_file(const char *path, int raw_html)
{
	char *data;
	size_t len;

	if (file_read(path, &data, &len) == -1)
		return;
	fz_check_html(data, len, raw_html);
	free(data);
}

#endif

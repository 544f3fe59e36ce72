/*
 * site_fixture.h: small sites written to a temporary folder, for the
 * unit tests of content, model and links. Include once, after check.h.
 *
 *   fixture_begin();                          a fresh, empty site
 *   fixture_put("content/guide/a.md", text);  any file, folders made
 *   fixture_load(&site, &dl);                 site_load + diag_sort
 *   fixture_diags(&dl)                        every diagnostic, one a line
 *   fixture_end(&site, &dl);                  frees and removes it all
 */
#ifndef QUIZDECK_SITE_FIXTURE_H
#define QUIZDECK_SITE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "links.h"
#include "model.h"
#include "outputs.h"
#include "site.h"
#include "util.h"

static char fixture_root[64];
static char *fixture_text;

static inline void
fixture_put(const char *rel, const char *text)
{
	char *path = path_join(fixture_root, rel);

	if (file_write(path, text, strlen(text)) == -1) {
		perror(path);
		exit(2);
	}
	free(path);
}

static inline void
fixture_begin(void)
{
	strcpy(fixture_root, "/tmp/quizdeck-unit-XXXXXX");
	if (mkdtemp(fixture_root) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	fixture_put("site.toml", "");
}

static inline int
fixture_load(struct site *site, struct diag_list *dl)
{
	struct site_options so = { 0 };
	int rc;

	diag_init(dl);
	rc = site_load(site, fixture_root, &so, dl);
	if (links_resolve(site, dl) == -1)
		rc = -1;
	outputs_check(site, dl);
	if (dl->errors > 0)
		rc = -1;
	diag_sort(dl);
	return rc;
}

/* Every diagnostic, formatted and joined by newlines (valid until the next call). */
static inline const char *
fixture_diags(const struct diag_list *dl)
{
	free(fixture_text);
	fixture_text = diag_join(dl);
	return fixture_text;
}

static inline void
fixture_end(struct site *site, struct diag_list *dl)
{
	site_free(site);
	diag_free(dl);
	dir_remove(fixture_root);
	free(fixture_text);
	fixture_text = NULL;
}

#endif

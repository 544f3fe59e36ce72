/*
 * build: staging, then an atomic swap into place.
 */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "html.h"
#include "pdf.h"
#include "util.h"

static int
S_wanted(const struct build_options *opt, const struct deck *d)
{
	size_t i;

	if (opt->ndecks == 0)
		return 1;
	for (i = 0; i < opt->ndecks; i++)
		if (strcmp(opt->decks[i], d->slug) == 0)
			return 1;
	return 0;
}

/* Writes each wanted deck's PDF below dir/print/. */
static int
S_write_pdfs(const struct site *site, const struct build_options *opt,
    const char *dir, int in_place, struct diag_list *dl)
{
	char *printdir = path_join(dir, "print");
	size_t i;
	int rc = 0;

	if (dir_make(printdir) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot create %s: %s", printdir, strerror(errno));
		rc = -1;
		goto out;
	}
	for (i = 0; i < site->ndecks && rc == 0; i++) {
		const struct deck *d = site->decks[i];
		char *name, *path, *tmp;

		if (!S_wanted(opt, d))
			continue;
		name = xasprintf("%s.pdf", d->slug);
		path = path_join(printdir, name);
		/* In place (`quizdeck print`), each file goes through a temporary name. */
		tmp = in_place ? xasprintf("%s.tmp-%ld", path, (long)getpid()) : xstrdup(path);
		if (pdf_write_deck(site, d, &site->cfg.print, tmp, dl) == -1)
			rc = -1;
		else if (in_place && rename(tmp, path) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
			rc = -1;
		}
		if (rc == -1 && in_place)
			unlink(tmp);
		free(tmp);
		free(path);
		free(name);
	}
out:
	free(printdir);
	return rc;
}

/* Puts staging where outdir was, atomically when outdir exists. */
static int
S_swap(const char *staging, const char *outdir, struct diag_list *dl)
{
	char *old = NULL;
	int rc = -1;

	if (renameat2(AT_FDCWD, staging, AT_FDCWD, outdir, RENAME_EXCHANGE) == 0) {
		/* staging now holds the previous output. */
		if (dir_remove(staging) == -1)
			diag_warning(dl, NULL, 0, 0, "cannot remove the previous output, now at %s", staging);
		return 0;
	}
	if (errno == ENOENT) {
		if (rename(staging, outdir) == 0)
			return 0;
	} else if (errno == EINVAL || errno == ENOSYS) {
		/* A file system without RENAME_EXCHANGE: two renames. */
		old = xasprintf("%s.old-%ld", outdir, (long)getpid());
		if (rename(outdir, old) == 0 && rename(staging, outdir) == 0) {
			dir_remove(old);
			rc = 0;
			goto out;
		}
	}
	diag_error(dl, NULL, 0, 0, "cannot put the new output in place at %s: %s",
	    outdir, strerror(errno));
out:
	free(old);
	return rc;
}

int
build_run(const struct site *site, const struct build_options *opt,
    struct diag_list *dl)
{
	char *staging = NULL;
	int rc = -1;

	if (!opt->html) {
		if (dir_make(opt->outdir) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot create %s: %s", opt->outdir, strerror(errno));
			return -1;
		}
		return S_write_pdfs(site, opt, opt->outdir, 1, dl);
	}
	staging = xasprintf("%s.staging-%ld", opt->outdir, (long)getpid());
	dir_remove(staging);
	if (dir_make(staging) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot create %s: %s", staging, strerror(errno));
		goto out;
	}
	if (html_build(site, staging, dl) == -1)
		goto out;
	if (opt->pdf && S_write_pdfs(site, opt, staging, 0, dl) == -1)
		goto out;
	if (S_swap(staging, opt->outdir, dl) == -1)
		goto out;
	rc = 0;
out:
	if (rc == -1 && staging)
		dir_remove(staging);
	free(staging);
	return rc;
}

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
#include <dirent.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "html.h"
#include "pdf.h"
#include "util.h"

volatile sig_atomic_t build_cancelled;

int
build_should_stop(void)
{
	return build_cancelled != 0;
}

static void
S_on_signal(int sig)
{
	build_cancelled = sig;
}

/*
 * The real path of p, which need not exist yet: the deepest existing
 * ancestor is resolved and the rest appended. NULL if nothing resolves.
 */
static char *
S_resolve(const char *p)
{
	char real[PATH_MAX];
	char *head = xstrdup(p), *res = NULL;
	struct buf tail;

	buf_init(&tail);
	for (;;) {
		char *slash;

		if (realpath(*head ? head : ".", real) != NULL) {
			res = *buf_str(&tail) ? path_join(real, buf_str(&tail)) : xstrdup(real);
			break;
		}
		if ((slash = strrchr(head, '/')) == NULL) {
			char *t = path_join(head, buf_str(&tail));

			buf_reset(&tail);
			buf_puts(&tail, t);
			free(t);
			*head = '\0';
			continue;
		}
		{
			char *t = path_join(slash + 1, buf_str(&tail));

			buf_reset(&tail);
			buf_puts(&tail, t);
			free(t);
		}
		if (slash == head) {
			head[1] = '\0';
			if (realpath(head, real) != NULL)
				res = path_join(real, buf_str(&tail));
			break;
		}
		*slash = '\0';
	}
	buf_free(&tail);
	free(head);
	if (res) {
		char *n = path_normalize(res + 1);

		free(res);
		res = n ? xasprintf("/%s", n) : NULL;
		free(n);
	}
	return res;
}

/* 1 if a is b or an ancestor of b (both normalised absolute paths). */
static int
S_contains(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (strcmp(a, "/") == 0)
		return 1;
	return strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/');
}

int
build_check_outdir(const char *root, const char *outdir, struct diag_list *dl)
{
	static const char *const kept[] = { "", "content", "themes" };
	char *out = S_resolve(outdir), *base = S_resolve(root);
	size_t i;
	int rc = -1;

	if (out == NULL || base == NULL) {
		diag_error(dl, NULL, 0, 0, "cannot resolve the output folder %s", outdir);
		goto out;
	}
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		char *p = *kept[i] ? path_join(base, kept[i]) : xstrdup(base);
		int bad = S_contains(out, p) || (*kept[i] && S_contains(p, out));

		free(p);
		if (bad) {
			diag_error(dl, NULL, 0, 0, "refusing to write the site to %s: "
			    "the output folder may not be /, the site's folder, content/ or "
			    "themes/, hold one of them, or lie inside content/ or themes/",
			    outdir);
			goto out;
		}
	}
	rc = 0;
out:
	free(out);
	free(base);
	return rc;
}

/*
 * Removes staging folders of builds that died without cleaning up (their
 * process is gone). Called with the build lock held.
 */
static void
S_remove_stale(const char *outdir)
{
	char *parent = path_dirname(outdir);
	const char *name = path_basename(outdir);
	char *prefix = xasprintf("%s.staging-", name);
	size_t n = strlen(prefix);
	struct dirent *de;
	DIR *d;

	if ((d = opendir(*parent ? parent : ".")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *end, *p;
			long pid;

			if (strncmp(de->d_name, prefix, n) != 0)
				continue;
			pid = strtol(de->d_name + n, &end, 10);
			if (*end || pid <= 0 || (kill((pid_t)pid, 0) == -1 && errno == ESRCH) ||
			    pid == (long)getpid()) {
				p = path_join(parent, de->d_name);
				dir_remove(p);
				free(p);
			}
		}
		closedir(d);
	}
	free(prefix);
	free(parent);
}

/*
 * Two builds of one output at once would interleave their swaps: the
 * second waits on an flock of the output's parent folder (no lock file
 * is left behind). Returns the descriptor to close, or -1.
 */
static int
S_lock(const char *outdir, struct diag_list *dl)
{
	char *parent = path_dirname(outdir);
	int fd;

	if (*parent && dir_make(parent) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot create %s: %s", parent, strerror(errno));
		free(parent);
		return -1;
	}
	fd = open(*parent ? parent : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1 || flock(fd, LOCK_EX) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot lock %s: %s", *parent ? parent : ".", strerror(errno));
		if (fd != -1)
			close(fd);
		fd = -1;
	}
	free(parent);
	return fd;
}

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
		if (build_should_stop())
			rc = -1;
		else if (pdf_write_deck(site, d, &site->cfg.print, tmp, dl) == -1)
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
	struct sigaction sa, old_int, old_term, old_hup;
	char *staging = NULL;
	int rc = -1, lock;

	if (build_check_outdir(site->root, opt->outdir, dl) == -1)
		return -1;
	if ((lock = S_lock(opt->outdir, dl)) == -1)
		return -1;
	S_remove_stale(opt->outdir);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = S_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;    /* a second ^C ends the process at once */
	build_cancelled = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);

	if (!opt->html) {
		if (dir_make(opt->outdir) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot create %s: %s", opt->outdir, strerror(errno));
			goto out;
		}
		rc = S_write_pdfs(site, opt, opt->outdir, 1, dl);
		goto out;
	}
	staging = xasprintf("%s.staging-%ld", opt->outdir, (long)getpid());
	dir_remove(staging);
	if (dir_make(staging) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot create %s: %s", staging, strerror(errno));
		goto out;
	}
	if (html_build(site, staging, dl) == -1 || build_should_stop())
		goto out;
	if (opt->pdf && (S_write_pdfs(site, opt, staging, 0, dl) == -1 || build_should_stop()))
		goto out;
	if (S_swap(staging, opt->outdir, dl) == -1)
		goto out;
	rc = 0;
out:
	if (rc == -1 && staging)
		dir_remove(staging);
	if (build_should_stop()) {
		diag_error(dl, NULL, 0, 0, "interrupted by signal %d: the previous output is untouched",
		    (int)build_cancelled);
		rc = -1;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	close(lock);
	free(staging);
	return rc;
}

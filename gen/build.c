/*
 * build: staging, then an atomic swap into place.
 */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <limits.h>
#include <stdatomic.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "book.h"
#include "html.h"
#include "offline.h"
#include "pdf.h"
#include "pool.h"
#include "util.h"

volatile sig_atomic_t build_cancelled;

static int
S_should_stop(void)
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
 * The build replaces the output folder as a whole and deletes the old one:
 * that must never be a folder of someone else's files (`-o ~/Documents`).
 * An existing output must be a folder that is empty or holds an
 * index.html (a previous build). Returns 0 if it may be replaced.
 */
static int
S_check_replaceable(const char *outdir, struct diag_list *dl)
{
	struct dirent *de;
	struct stat st;
	int entries = 0, index = 0;
	DIR *d;

	if (stat(outdir, &st) == -1)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		diag_error(dl, NULL, 0, 0, "the output %s exists and is not a folder", outdir);
		return -1;
	}
	if ((d = opendir(outdir)) == NULL) {
		diag_error(dl, NULL, 0, 0, "cannot read the output folder %s: %s", outdir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		entries++;
		index |= strcmp(de->d_name, "index.html") == 0;
	}
	closedir(d);
	if (entries > 0 && !index) {
		diag_error(dl, NULL, 0, 0, "refusing to replace %s: it holds files but no index.html, "
		    "so it is not a previous build; remove it or choose another folder with -o", outdir);
		return -1;
	}
	return 0;
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
S_jobs(const struct build_options *opt)
{
	return opt->jobs > 0 ? opt->jobs : pool_default_threads();
}

static int
S_wanted(const struct build_options *opt, const struct deck *d)
{
	size_t i;

	if (opt->ndecks == 0)
		return opt->ntests == 0;
	for (i = 0; i < opt->ndecks; i++)
		if (strcmp(opt->decks[i], d->slug) == 0)
			return 1;
	return 0;
}

/* One deck's PDF, written by a job of S_write_pdfs. */
struct deck_job {
	const struct deck *deck;
	char *path;                /* where it goes */
	char *tmp;                 /* where it is written: path, or beside it when in place */
	struct diag_list dl;
	int rc;
};

struct deck_batch {
	const struct site *site;
	struct deck_job *jobs;
	struct deck_job **order;   /* the jobs, longest deck first */
	int nthreads;              /* threads inside one deck */
	atomic_size_t failed;      /* the first deck that failed; later ones need not run */
};

static void
S_deck_job(void *arg, size_t i, int worker)
{
	struct deck_batch *db = arg;
	struct deck_job *j = db->order[i];
	size_t k = (size_t)(j - db->jobs), first;

	(void)worker;
	if (k > atomic_load(&db->failed) || S_should_stop())
		j->rc = -1;
	else
		j->rc = pdf_write_deck(db->site, j->deck, &db->site->cfg.print, j->tmp,
		    db->nthreads, &build_cancelled, &j->dl);
	if (j->rc == -1) {
		first = atomic_load(&db->failed);
		while (k < first && !atomic_compare_exchange_weak(&db->failed, &first, k))
			;
	}
}

/* Longest deck first, so the threads finish together; ties in deck order. */
static int
S_cmp_deck_size(const void *a, const void *b)
{
	const struct deck_job *x = *(struct deck_job *const *)a, *y = *(struct deck_job *const *)b;

	if (x->deck->ncards != y->deck->ncards)
		return x->deck->ncards > y->deck->ncards ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Where deck dk's PDF goes in printdir, and the file it is written to:
 * the same, or in place (`quizdeck print`) a temporary name beside it.
 */
static void
S_deck_paths(const char *printdir, const struct deck *dk, int in_place, char **path, char **tmp)
{
	char *name = xconcat(dk->slug, ".pdf", NULL);

	*path = path_join(printdir, name);
	*tmp = in_place ? xasprintf("%s.tmp-%ld", *path, (long)getpid()) : xstrdup(*path);
	free(name);
}

/*
 * The guide as a book in printdir (NULL: laid out only); in place through
 * a temporary file, as a deck. *pages: its sections' pages.
 */
static int
S_write_book(const struct site *site, const char *printdir, int in_place, struct diag_list *dl,
    struct book_pages **pages)
{
	char *path = printdir ? path_join(printdir, "guide.pdf") : NULL;
	char *tmp = !path ? NULL : in_place ? xasprintf("%s.tmp-%ld", path, (long)getpid()) : xstrdup(path);
	int rc = book_write_pages(site, &site->cfg.print, BOOK_HYPHEN_DIR, tmp, &build_cancelled, dl, pages);

	if (!path)
		return rc;
	/* Under --strict a warning (a picture it cannot print) fails the book too. */
	if (rc == 0 && diag_failed(dl))
		rc = -1;
	if (rc == 0 && in_place && rename(tmp, path) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == -1 && in_place)
		unlink(tmp);
	free(tmp);
	free(path);
	return rc;
}

/*
 * Test t's handout is wanted: every test's with every deck and no test
 * named, but never one without the topic asked for.
 */
static int
S_handout_wanted(const struct build_options *opt, const struct test *t)
{
	size_t i;

	if (opt->handout && opt->handout->topic) {
		for (i = 0; i < t->ntopics; i++)
			if (strcmp(t->topics[i]->slug, opt->handout->topic) == 0)
				break;
		if (i == t->ntopics)
			return 0;
	}
	if (opt->ntests == 0)
		return opt->ndecks == 0;
	for (i = 0; i < opt->ntests; i++)
		if (strcmp(opt->tests[i], t->slug) == 0)
			return 1;
	return 0;
}

/*
 * The wanted tests' handouts in printdir, in place through temporary
 * files as a deck; bp gives their key's pages of the book, or NULL: the
 * book is laid out for them (what that reports is the book's to say, and
 * said when it is written).
 */
static int
S_write_handouts(const struct site *site, const struct build_options *opt, const char *printdir,
    int in_place, const struct book_pages *bp, size_t *written, struct diag_list *dl)
{
	static const struct handout_choice whole;
	struct book_pages *laid = NULL;
	struct diag_list quiet;
	size_t i;
	int rc = 0;

	diag_init(&quiet);
	for (i = 0; rc == 0 && i < site->ntests && !S_should_stop(); i++) {
		const struct test *t = site->tests[i];
		char *name, *path, *tmp;

		if (!S_handout_wanted(opt, t))
			continue;
		if (bp == NULL && laid == NULL && site->nchapters > 0) {
			S_write_book(site, NULL, 0, &quiet, &laid);
			bp = laid;
		}
		name = outputs_handout_path(t->slug);
		path = path_join(printdir, strrchr(name, '/') + 1);
		tmp = in_place ? xasprintf("%s.tmp-%ld", path, (long)getpid()) : xstrdup(path);
		rc = handout_write(site, t, opt->handout ? opt->handout : &whole, bp, &site->cfg.print, tmp,
		    &build_cancelled, dl);
		if (rc == 0 && in_place && rename(tmp, path) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
			rc = -1;
		}
		if (rc == -1 && in_place)
			unlink(tmp);
		if (rc == 0)
			(*written)++;
		free(tmp);
		free(path);
		free(name);
	}
	book_pages_free(laid);
	diag_free(&quiet);
	return rc;
}

/*
 * Writes each wanted deck's PDF into printdir: decks at once, one per
 * thread, and threads left over fitting cards for them (a lone deck gets
 * them all). What the decks leave is gathered in deck order, up to the
 * first that failed, as if they had run one after another and stopped
 * there.
 */
static int
S_write_pdfs(const struct site *site, const struct build_options *opt,
    const char *printdir, int in_place, size_t *written, struct diag_list *dl)
{
	struct deck_batch db;
	struct book_pages *bp = NULL;
	size_t i, n = 0;
	int rc = 0, nthreads = S_jobs(opt);

	memset(&db, 0, sizeof(db));
	if (dir_make(printdir) == -1) {
		diag_error(dl, NULL, 0, 0, "cannot create %s: %s", printdir, strerror(errno));
		rc = -1;
		goto out;
	}
	db.site = site;
	db.jobs = xcalloc(site->ndecks + 1, sizeof(*db.jobs));
	db.order = xcalloc(site->ndecks + 1, sizeof(*db.order));
	for (i = 0; i < site->ndecks; i++) {
		const struct deck *d = site->decks[i];
		struct deck_job *j = &db.jobs[n];

		if (!S_wanted(opt, d))
			continue;
		j->deck = d;
		S_deck_paths(printdir, d, in_place, &j->path, &j->tmp);
		diag_init(&j->dl);
		db.order[n] = j;
		n++;
	}
	if (n > 1)
		qsort(db.order, n, sizeof(*db.order), S_cmp_deck_size);
	/* Threads beyond one per deck fit cards for the deck they are given to. */
	db.nthreads = pool_share(nthreads, n);
	atomic_init(&db.failed, SIZE_MAX);
	pool_run(n > 1 ? nthreads : 1, n, S_deck_job, &db);
	for (i = 0; i < n; i++) {
		struct deck_job *j = &db.jobs[i];

		if (rc == 0) {
			diag_move(dl, &j->dl);
			rc = j->rc;
			/* Under --strict a warning (a card that does not fit) fails the deck too. */
			if (rc == 0 && diag_failed(dl))
				rc = -1;
			if (rc == 0 && in_place && rename(j->tmp, j->path) == -1) {
				diag_error(dl, NULL, 0, 0, "cannot write %s: %s", j->path, strerror(errno));
				rc = -1;
			}
			if (rc == -1 && in_place)
				unlink(j->tmp);
		} else if (in_place)
			unlink(j->tmp);
		diag_free(&j->dl);
		free(j->tmp);
		free(j->path);
	}
	/* With every deck, the book: `quizdeck print` with no deck named writes it too. */
	if (rc == 0 && opt->ndecks == 0 && opt->ntests == 0 && site->nchapters > 0 && !S_should_stop()) {
		if (S_write_book(site, printdir, in_place, dl, &bp) == -1)
			rc = -1;
		else
			n++;
	}
	if (rc == 0 && !S_should_stop())
		rc = S_write_handouts(site, opt, printdir, in_place, bp, &n, dl);
	book_pages_free(bp);
	if (rc == 0)
		*written = n;
out:
	free(db.jobs);
	free(db.order);
	return rc;
}

/* The exports asked for, into exportdir. */
static int
S_write_exports(const struct site *site, const struct build_options *opt, const char *exportdir,
    size_t *written, struct diag_list *dl)
{
	struct export_options eo;

	memset(&eo, 0, sizeof(eo));
	eo.formats = opt->exports;
	eo.names = opt->decks;
	eo.nnames = opt->ndecks;
	eo.jobs = S_jobs(opt);
	eo.stop = &build_cancelled;
	eo.warn_unkept = !opt->html;
	return export_write(site, exportdir, &eo, written, dl);
}

/* nftw passes no argument to its callback: S_count_page counts into this (main thread only). */
static size_t S_pages_seen;

static int
S_count_page(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_F && path_has_suffix(path, ".html"))
		S_pages_seen++;
	return 0;
}

/* The .html files below dir, which this build wrote. */
static size_t
S_count_pages(const char *dir)
{
	S_pages_seen = 0;
	nftw(dir, S_count_page, 16, FTW_PHYS);
	return S_pages_seen;
}

struct removal {
	char **paths;
	int *failed;
};

static void
S_remove_job(void *arg, size_t i, int worker)
{
	struct removal *rm = arg;

	(void)worker;
	rm->failed[i] = dir_remove(rm->paths[i]) == -1;
}

/*
 * dir_remove(path), the folders two levels down removed on nthreads
 * threads: a previous site has one folder per page.
 */
static int
S_remove_tree(const char *path, int nthreads)
{
	struct removal rm = { NULL, NULL };
	size_t n = 0, cap = 0, i;
	struct dirent *de, *de2;
	DIR *d, *d2;
	int rc = 0;

	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *sub;

			if (de->d_type != DT_DIR || de->d_name[0] == '.')
				continue;
			sub = path_join(path, de->d_name);
			if ((d2 = opendir(sub)) != NULL) {
				while ((de2 = readdir(d2)) != NULL) {
					if (strcmp(de2->d_name, ".") == 0 || strcmp(de2->d_name, "..") == 0)
						continue;
					rm.paths = xgrow(rm.paths, &cap, n + 1, sizeof(*rm.paths));
					rm.paths[n++] = path_join(sub, de2->d_name);
				}
				closedir(d2);
			}
			free(sub);
		}
		closedir(d);
	}
	rm.failed = xcalloc(n + 1, sizeof(*rm.failed));
	pool_run(nthreads, n, S_remove_job, &rm);
	for (i = 0; i < n; i++) {
		rc |= rm.failed[i] ? -1 : 0;
		free(rm.paths[i]);
	}
	free(rm.paths);
	free(rm.failed);
	return dir_remove(path) == -1 ? -1 : rc;
}

/* Puts staging where outdir was, atomically when outdir exists. */
static int
S_swap(const char *staging, const char *outdir, int nthreads, struct diag_list *dl)
{
	char *old = NULL;
	int rc = -1;

	if (renameat2(AT_FDCWD, staging, AT_FDCWD, outdir, RENAME_EXCHANGE) == 0) {
		/* staging now holds the previous output. */
		if (S_remove_tree(staging, nthreads) == -1)
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

/* A build under way: its output checked and locked, its staging made (build_begin). */
struct build {
	const struct build_options *opt;
	char *staging;             /* NULL in place (`quizdeck print`) */
	char *printdir;            /* where the PDFs go: <staging>/print, or <outdir>/print in place */
	char *exportdir;           /* where the exports go, the same way */
	int had_out, had_print, had_export;   /* in place: they were there before (build_finish) */
	int lock;
	struct sigaction old_int, old_term, old_hup;
};

struct build *
build_begin(const char *root, const struct build_options *opt, struct diag_list *dl)
{
	struct sigaction sa;
	struct build *b;
	int lock;

	if (build_check_outdir(root, opt->outdir, dl) == -1)
		return NULL;
	if ((lock = S_lock(opt->outdir, dl)) == -1)
		return NULL;
	S_remove_stale(opt->outdir);
	if (opt->html && S_check_replaceable(opt->outdir, dl) == -1) {
		close(lock);
		return NULL;
	}
	b = xcalloc(1, sizeof(*b));
	b->opt = opt;
	b->lock = lock;
	if (opt->html) {
		b->staging = xasprintf("%s.staging-%ld", opt->outdir, (long)getpid());
		dir_remove(b->staging);
		if (dir_make(b->staging) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot create %s: %s", b->staging, strerror(errno));
			close(lock);
			free(b->staging);
			free(b);
			return NULL;
		}
	}
	b->printdir = path_join(b->staging ? b->staging : opt->outdir, "print");
	b->exportdir = path_join(b->staging ? b->staging : opt->outdir, OUTPUT_EXPORT_DIR);
	b->had_out = access(opt->outdir, F_OK) == 0;
	b->had_print = access(b->printdir, F_OK) == 0;
	b->had_export = access(b->exportdir, F_OK) == 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = S_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;    /* a second ^C ends the process at once */
	build_cancelled = 0;
	sigaction(SIGINT, &sa, &b->old_int);
	sigaction(SIGTERM, &sa, &b->old_term);
	sigaction(SIGHUP, &sa, &b->old_hup);
	return b;
}

int
build_finish(struct build *b, const struct site *site, struct diag_list *dl)
{
	const struct build_options *opt = b->opt;
	size_t pdfs = 0, exports = 0;
	int rc = -1;

	if (site == NULL || S_should_stop())
		goto out;
	if (!opt->html) {
		if (dir_make(opt->outdir) == -1) {
			diag_error(dl, NULL, 0, 0, "cannot create %s: %s", opt->outdir, strerror(errno));
			goto out;
		}
		rc = opt->pdf ? S_write_pdfs(site, opt, b->printdir, 1, &pdfs, dl) : 0;
		if (rc == 0 && opt->exports)
			rc = S_write_exports(site, opt, b->exportdir, &exports, dl);
		if (rc == 0 && opt->counts) {
			opt->counts->pages = 0;
			opt->counts->pdfs = pdfs;
			opt->counts->exports = exports;
		}
		goto out;
	}
	if (html_build(site, b->staging, S_jobs(opt), &build_cancelled, opt->cache, opt->offline,
	    opt->exports, dl) == -1 ||
	    S_should_stop())
		goto out;
	if (opt->pdf && (S_write_pdfs(site, opt, b->printdir, 0, &pdfs, dl) == -1 || S_should_stop()))
		goto out;
	if (opt->exports && (S_write_exports(site, opt, b->exportdir, &exports, dl) == -1 ||
	    S_should_stop()))
		goto out;
	/* Last: the worker lists every file written before it. */
	if (opt->offline && offline_write(site, b->staging, dl) == -1)
		goto out;
	/* Under --strict, a warning from the outputs fails the build: nothing is swapped in. */
	if (diag_failed(dl))
		goto out;
	if (opt->counts) {
		opt->counts->pages = S_count_pages(b->staging);
		opt->counts->pdfs = pdfs;
		opt->counts->exports = exports;
	}
	if (S_swap(b->staging, opt->outdir, S_jobs(opt), dl) == -1)
		goto out;
	rc = 0;
out:
	if (rc == -1 && b->staging)
		dir_remove(b->staging);
	/* A print that failed leaves no folder it made, unless a deck it wrote is in it. */
	if (rc == -1 && b->staging == NULL) {
		if (!b->had_print)
			rmdir(b->printdir);
		if (!b->had_export)
			rmdir(b->exportdir);
		if (!b->had_out)
			rmdir(opt->outdir);
	}
	/* A signal after the swap comes too late to stop anything: the build is done. */
	if (rc == -1 && S_should_stop()) {
		diag_error(dl, NULL, 0, 0, "interrupted by signal %d: the previous output is untouched",
		    (int)build_cancelled);
		rc = -1;
	}
	sigaction(SIGINT, &b->old_int, NULL);
	sigaction(SIGTERM, &b->old_term, NULL);
	sigaction(SIGHUP, &b->old_hup, NULL);
	close(b->lock);
	free(b->printdir);
	free(b->exportdir);
	free(b->staging);
	free(b);
	return rc;
}

int
build_run(const struct site *site, const struct build_options *opt,
    struct diag_list *dl)
{
	struct build *b = build_begin(site->root, opt, dl);

	return b ? build_finish(b, site, dl) : -1;
}

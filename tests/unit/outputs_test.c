/*
 * outputs_test: outputs_check on sites made by hand, no files: which
 * outputs would be one file on a disk that ignores case or normalises
 * Unicode, what each message names (the kind of disk among it), and that
 * a folder thousands of pages share costs one entry and says nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diag.h"
#include "model.h"
#include "outputs.h"
#include "util.h"

/* A site of chapters, decks and assets, each made from "url<TAB>source" strings. */
struct fake {
	struct site site;
	struct source src[64];
	struct doc doc[64];
	struct chapter chapters[64], *chp[64];
	struct deck decks[8], *dkp[8];
	char slugs[8][64];
	struct asset assets[8];
	size_t nsrc;
};

static struct doc *
S_doc(struct fake *f, const char *display)
{
	struct source *s = &f->src[f->nsrc];
	struct doc *d = &f->doc[f->nsrc++];

	s->display = (char *)display;
	d->src = s;
	return d;
}

static void
S_chapter(struct fake *f, const char *url, const char *display)
{
	struct chapter *c = &f->chapters[f->site.nchapters];

	c->url = (char *)url;
	c->doc = S_doc(f, display);
	f->chp[f->site.nchapters++] = c;
	f->site.chapters = f->chp;
}

static void
S_deck(struct fake *f, const char *url, const char *pdf_url, const char *display)
{
	struct deck *d = &f->decks[f->site.ndecks];
	const char *slug = url + strlen("cards/");

	/* The slug between cards/ and /index.html: its exports are named by it. */
	d->slug = f->slugs[f->site.ndecks];
	snprintf(d->slug, sizeof(f->slugs[0]), "%.*s", (int)(strchr(slug, '/') - slug), slug);
	d->url = (char *)url;
	d->pdf_url = (char *)pdf_url;
	d->doc = S_doc(f, display);
	f->dkp[f->site.ndecks++] = d;
	f->site.decks = f->dkp;
}

static void
S_asset(struct fake *f, const char *url, const char *display)
{
	struct asset *a = &f->assets[f->site.nassets++];

	a->url = (char *)url;
	a->src = S_doc(f, display)->src;
	f->site.assets = f->assets;
}

/* Every diagnostic outputs_check gives, one a line (caller frees). */
static char *
S_check(const struct site *site)
{
	struct diag_list dl;
	char *s;

	diag_init(&dl);
	outputs_check(site, &dl);
	s = diag_join(&dl);
	diag_free(&dl);
	return s;
}

static void
test_clean(void)
{
	struct fake f;
	char *got;

	CHECK_GROUP("outputs, none meet");
	memset(&f, 0, sizeof(f));
	S_chapter(&f, "guide/a/index.html", "content/guide/a.md");
	S_chapter(&f, "guide/b/index.html", "content/guide/b.md");
	S_deck(&f, "cards/d/index.html", "print/d.pdf", "content/cards/d.md");
	S_asset(&f, "guide/pic.png", "content/guide/pic.png");
	got = S_check(&f.site);
	CHECK_STR(got, "", "pages, a deck and an asset in shared folders say nothing");
	free(got);
}

static void
test_case(void)
{
	struct fake f;
	char *got;

	CHECK_GROUP("outputs, case");
	memset(&f, 0, sizeof(f));
	S_deck(&f, "cards/Foo/index.html", "print/Foo.pdf", "content/cards/Foo.md");
	S_deck(&f, "cards/foo/index.html", "print/foo.pdf", "content/cards/foo.md");
	/* Latin letters beyond ASCII fold too: É and é. */
	S_chapter(&f, "guide/\xc3\xa9t\xc3\xa9/index.html", "content/guide/\xc3\xa9t\xc3\xa9.md");
	S_chapter(&f, "guide/\xc3\x89T\xc3\x89/index.html", "content/guide/\xc3\x89T\xc3\x89.md");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/cards/foo.md: error: out/cards/foo/index.html and out/cards/Foo/index.html (for "
	    "content/cards/Foo.md) are one file on a case-insensitive disk (macOS, Windows): rename one\n"
	    "content/guide/\xc3\xa9t\xc3\xa9.md: error: out/guide/\xc3\xa9t\xc3\xa9/index.html and "
	    "out/guide/\xc3\x89T\xc3\x89/index.html (for content/guide/\xc3\x89T\xc3\x89.md) are one file on a "
	    "case-insensitive disk (macOS, Windows): rename one\n"
	    "content/cards/foo.md: error: out/print/foo.pdf and out/print/Foo.pdf (for content/cards/Foo.md) "
	    "are one file on a case-insensitive disk (macOS, Windows): rename one",
	    "names that differ in case only, ASCII or not, in the order of the folded name, the first source named");
	free(got);
}

static void
test_same_path(void)
{
	struct fake f;
	char *got;

	CHECK_GROUP("outputs, one path");
	memset(&f, 0, sizeof(f));
	S_chapter(&f, "guide/x/index.html", "content/guide/x.md");
	S_asset(&f, "guide/x/index.html", "content/guide/x/index.html");
	/* Two chapters on one address are reported where their slugs are made. */
	S_chapter(&f, "guide/y/index.html", "content/guide/y.md");
	S_chapter(&f, "guide/y/index.html", "content/guide/a/y.md");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/guide/x/index.html: error: would be written to out/guide/x/index.html, as "
	    "content/guide/x.md is: rename or move one",
	    "a copied file on a page's path yields to the page; chapters on one path are not told twice");
	free(got);
}

/* What a build writes for offline use takes its names before content does. */
static void
test_offline_names(void)
{
	struct fake f;
	char *got;

	CHECK_GROUP("outputs, the offline files");
	memset(&f, 0, sizeof(f));
	S_asset(&f, "sw.js", "content/sw.js");
	S_asset(&f, "Offline.html", "content/Offline.html");
	S_asset(&f, "icon-512.png", "content/icon-512.png");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/icon-512.png: error: would be written to out/icon-512.png, as the app icon is: "
	    "rename or move one\n"
	    "content/Offline.html: error: out/Offline.html and out/offline.html (for the offline page) "
	    "are one file on a case-insensitive disk (macOS, Windows): rename one\n"
	    "content/sw.js: error: would be written to out/sw.js, as the service worker is: rename or move one",
	    "a content file on the worker's, an icon's or the offline page's name is refused, in the order of the names");
	free(got);
}

static void
test_folder(void)
{
	struct fake f;
	char *got;

	CHECK_GROUP("outputs, folders");
	memset(&f, 0, sizeof(f));
	/* b.md comes first, a.md sorts first: the message names a.md. */
	S_chapter(&f, "guide/part/b/index.html", "content/guide/part/b.md");
	S_chapter(&f, "guide/part/a/index.html", "content/guide/part/a.md");
	S_asset(&f, "guide/Part", "content/guide/Part");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/guide/Part: error: out/guide/Part would be a file, but content/guide/part/a.md needs "
	    "a folder out/guide/part (one name on a case-insensitive disk: macOS, Windows): rename one",
	    "a file where pages need a folder names the source that sorts first");
	free(got);
	memset(&f, 0, sizeof(f));
	S_asset(&f, "guide/notes", "content/guide/notes");
	S_chapter(&f, "guide/notes/index.html", "content/guide/notes.md");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/guide/notes: error: out/guide/notes would be a file, but content/guide/notes.md "
	    "needs a folder out/guide/notes: rename one",
	    "the same name as file and folder, no case involved");
	free(got);
}

/*
 * "é" as one code point (\xc3\xa9) and as "e" and a combining accent
 * (e\xcc\x81): one name where Unicode is normalised, as on macOS; the
 * message names that disk, or one that also ignores case.
 */
static void
test_export(void)
{
	struct fake f;
	char *got;

	CHECK_GROUP("outputs, exports");
	memset(&f, 0, sizeof(f));
	S_deck(&f, "cards/d/index.html", "print/d.pdf", "content/cards/d.md");
	S_asset(&f, "export/D.apkg", "content/export/D.apkg");
	S_asset(&f, "export/d.pdf", "content/export/d.pdf");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/export/D.apkg: error: out/export/D.apkg and out/export/d.apkg (for content/cards/d.md) "
	    "are one file on a case-insensitive disk (macOS, Windows): rename one",
	    "a copied file in the way of a deck's export; other names in export/ are free");
	free(got);
}

static void
test_composition(void)
{
	struct fake f;
	char *got;

	CHECK_GROUP("outputs, composition");
	memset(&f, 0, sizeof(f));
	S_deck(&f, "cards/caf\xc3\xa9/index.html", "print/caf\xc3\xa9.pdf", "content/cards/caf\xc3\xa9.md");
	S_deck(&f, "cards/cafe\xcc\x81/index.html", "print/cafe\xcc\x81.pdf", "content/cards/cafe\xcc\x81.md");
	S_chapter(&f, "guide/r\xc3\xa9sum\xc3\xa9/index.html", "content/guide/r\xc3\xa9sum\xc3\xa9.md");
	S_chapter(&f, "guide/RE\xcc\x81SUME\xcc\x81/index.html", "content/guide/RE\xcc\x81SUME\xcc\x81.md");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/cards/caf\xc3\xa9.md: error: out/cards/caf\xc3\xa9/index.html and "
	    "out/cards/cafe\xcc\x81/index.html (for content/cards/cafe\xcc\x81.md) are one file on a disk "
	    "that normalises Unicode (macOS): rename one\n"
	    "content/guide/r\xc3\xa9sum\xc3\xa9.md: error: out/guide/r\xc3\xa9sum\xc3\xa9/index.html and "
	    "out/guide/RE\xcc\x81SUME\xcc\x81/index.html (for content/guide/RE\xcc\x81SUME\xcc\x81.md) are one "
	    "file on a case-insensitive disk that normalises Unicode (macOS): rename one\n"
	    "content/cards/caf\xc3\xa9.md: error: out/print/caf\xc3\xa9.pdf and out/print/cafe\xcc\x81.pdf "
	    "(for content/cards/cafe\xcc\x81.md) are one file on a disk that normalises Unicode (macOS): rename one",
	    "composition only: macOS alone; case and composition: a case-insensitive disk that normalises");
	free(got);
	memset(&f, 0, sizeof(f));
	S_chapter(&f, "guide/caf\xc3\xa9/a/index.html", "content/guide/caf\xc3\xa9/a.md");
	S_asset(&f, "guide/cafe\xcc\x81", "content/guide/cafe\xcc\x81");
	got = S_check(&f.site);
	CHECK_STR(got,
	    "content/guide/cafe\xcc\x81: error: out/guide/cafe\xcc\x81 would be a file, but "
	    "content/guide/caf\xc3\xa9/a.md needs a folder out/guide/caf\xc3\xa9 (one name on a disk that "
	    "normalises Unicode: macOS): rename one",
	    "a file where a page needs a folder, composed otherwise");
	free(got);
}

/* Thousands of pages in a few folders: one entry a folder, nothing said; then a file on one. */
static void
test_many(void)
{
	enum { N = 5000 };
	struct site site;
	struct chapter *cs = xcalloc(N, sizeof(*cs)), **cp = xcalloc(N, sizeof(*cp));
	struct source *ss = xcalloc(N + 1, sizeof(*ss));
	struct doc *ds = xcalloc(N + 1, sizeof(*ds));
	char **urls = xcalloc(N, sizeof(*urls));
	struct asset a;
	size_t i;
	char *got;

	CHECK_GROUP("outputs, many");
	memset(&site, 0, sizeof(site));
	for (i = 0; i < N; i++) {
		urls[i] = xasprintf("guide/part-%02zu/ch-%05zu/index.html", i % 50, i);
		ss[i].display = urls[i];
		ds[i].src = &ss[i];
		cs[i].url = urls[i];
		cs[i].doc = &ds[i];
		cp[i] = &cs[i];
	}
	site.chapters = cp;
	site.nchapters = N;
	got = S_check(&site);
	CHECK_STR(got, "", "%d pages in 50 folders say nothing", N);
	free(got);
	ss[N].display = "content/guide/PART-07";
	a.url = "guide/PART-07";
	a.src = &ss[N];
	site.assets = &a;
	site.nassets = 1;
	got = S_check(&site);
	CHECK_STR(got,
	    "content/guide/PART-07: error: out/guide/PART-07 would be a file, but "
	    "guide/part-07/ch-00007/index.html needs a folder out/guide/part-07 (one name on a "
	    "case-insensitive disk: macOS, Windows): rename one",
	    "a file on a folder a hundred pages share: one message, naming the first");
	free(got);
	for (i = 0; i < N; i++)
		free(urls[i]);
	free(urls);
	free(cs);
	free(cp);
	free(ss);
	free(ds);
}

int
main(void)
{
	test_clean();
	test_case();
	test_export();
	test_composition();
	test_same_path();
	test_offline_names();
	test_folder();
	test_many();
	return check_finish();
}

/*
 * libFuzzer target: a whole site from one input, through the question
 * and deck parsers, the guide, link resolution and, when the site has no
 * error, every page (html_build on tmpfs) with the injection oracle of
 * fuzz_util.h over each page written.
 *
 * The input is cut at form feeds (\f):
 *
 *   topic \f deck \f chapter \f site.toml \f the test's _index.md
 *
 * written as content/quiz/t/topic.md, content/cards/deck.md,
 * content/guide/chapter.md, site.toml (empty when absent) and
 * content/quiz/t/_index.md (a title when absent). A fixed chapter with
 * a few anchors and an image are there to link to.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "links.h"
#include "html.h"
#include "model.h"
#include "outputs.h"
#include "site.h"
#include "util.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fixed_md[] =
	"# Fixed chapter\n\n## Ring all-reduce {#ring}\n\nText.\n\n### Details\n\n![diagram](img.png)\n";

/* A 1x1 PNG. */
static const unsigned char png[] = {
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00,
	0x00, 0x05, 0x00, 0x01, 0x7a, 0x5e, 0xab, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44,
	0xae, 0x42, 0x60, 0x82,
};

static void
S_check_pages(const struct site *site, const char *out)
{
	int raw = site->cfg.markdown.unsafe_html;
	size_t i;
	char *p;

	p = path_join(out, "index.html");
	fz_check_file(p, raw);
	free(p);
	for (i = 0; i < site->ntests; i++) {
		p = path_join(out, site->tests[i]->url);
		fz_check_file(p, raw);
		free(p);
	}
	for (i = 0; i < site->ndecks; i++) {
		p = path_join(out, site->decks[i]->url);
		fz_check_file(p, raw);
		free(p);
	}
	for (i = 0; i < site->nchapters; i++) {
		p = path_join(out, site->chapters[i]->url);
		fz_check_file(p, raw);
		free(p);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	const char *part[5];
	size_t len[5], n;
	struct site_options so;
	struct diag_list dl;
	struct site site;
	char *out;

	if (!ready) {
		fz_put_str("content/guide/fixed.md", fixed_md);
		fz_put("content/guide/img.png", png, sizeof(png));
		ready = 1;
	}
	n = fz_split((const char *)data, size, part, len, 5);
	fz_put("content/quiz/t/topic.md", part[0], len[0]);
	fz_put("content/cards/deck.md", n > 1 ? part[1] : "", n > 1 ? len[1] : 0);
	fz_put("content/guide/chapter.md", n > 2 ? part[2] : "", n > 2 ? len[2] : 0);
	fz_put("site.toml", n > 3 ? part[3] : "", n > 3 ? len[3] : 0);
	if (n > 4)
		fz_put("content/quiz/t/_index.md", part[4], len[4]);
	else
		fz_put_str("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");

	memset(&so, 0, sizeof(so));
	diag_init(&dl);
	site_load(&site, fz_site_dir(), &so, &dl);
	links_resolve(&site, &dl);
	outputs_check(&site, &dl);
	out = path_join(fz_site_dir(), "out");
	dir_remove(out);
	if (!diag_failed(&dl)) {
		dir_make(out);
		if (html_build(&site, out, 1, NULL, NULL, 0, 0, &dl) == 0)
			S_check_pages(&site, out);
		else
			dir_remove(out);
	}
	site_free(&site);
	diag_free(&dl);
	dir_remove(out);
	free(out);
	return 0;
}

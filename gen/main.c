/*
 * quizdeck: build study sites and printable flashcards from Markdown.
 *
 * main parses the command line, runs the pipeline (load > parse > link >
 * render) and is the only place that prints diagnostics or picks the
 * exit status: 0 done, 1 the content has errors, 2 usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build.h"
#include "diag.h"
#include "export.h"
#include "import.h"
#include "html.h"
#include "links.h"
#include "model.h"
#include "outputs.h"
#include "book.h"
#include "handout.h"
#include "pdf.h"
#include "scaffold.h"
#include "serve.h"
#include "site.h"
#include "util.h"

#define QUIZDECK_VERSION "0.1.0"

enum { EXIT_CONTENT = 1, EXIT_USAGE = 2 };

static const char usage_main[] =
"usage: quizdeck [-C DIR] COMMAND [OPTIONS]\n"
"\n"
"Build a study website and printable flashcards from Markdown.\n"
"\n"
"commands:\n"
"  build     write the HTML site, the PDF flashcards and the book into out/\n"
"  check     parse and link everything; print diagnostics and a summary\n"
"  print     write only the PDFs: flashcards and the guide as a book\n"
"  export    write decks and tests for Anki, Quizlet and Moodle (out/export/)\n"
"  import    write a deck from an Anki package or a CSV file (content/cards/)\n"
"  serve     build, serve on this machine and rebuild on change\n"
"  new       create a new site with one example of each kind\n"
"\n"
"options:\n"
"  -C DIR      run in DIR, the site's folder (default: .)\n"
"  --version   print the version\n"
"  -h, --help  this text; `quizdeck COMMAND --help` for a command\n"
"\n"
"exit status: 0 done, 1 content errors, 2 usage\n";

static const char usage_build[] =
"usage: quizdeck build [-C DIR] [-o OUT] [-j N] [-q] [--strict] [--no-pdf]\n"
"                      [--no-export] [--no-offline]\n"
"\n"
"Writes the static site, out/print/DECK.pdf for every deck,\n"
"out/print/guide.pdf (the guide as a book) and out/export/ (`quizdeck\n"
"export --help`). The build goes to a staging folder and replaces OUT\n"
"only when all of it succeeded, then one line says what was written, in\n"
"how long and where.\n"
"\n"
"  -C DIR        the site's folder (default: .)\n"
"  -o OUT        the output folder (default: DIR/out)\n"
"  -j N          work on N threads (default: one per core); the output is\n"
"                the same for any N\n"
"  -q            no summary line (and no progress line)\n"
"  --strict      warnings are errors\n"
"  --no-pdf      skip the PDFs (flashcards and book)\n"
"  --no-export   skip out/export/\n"
"  --no-offline  no service worker or app manifest: the hosted site then\n"
"                works offline only opened from disk, as serve shows it\n";

static const char usage_check[] =
"usage: quizdeck check [-C DIR] [--strict] [--dump]\n"
"\n"
"Parses and links every file, prints each problem as file:line:col and a\n"
"summary line. Exit 1 on any error (any warning with --strict).\n"
"\n"
"  -C DIR     the site's folder (default: .)\n"
"  --strict   warnings are errors\n"
"  --dump     print the parsed model as stable text (for tests)\n";

/* The names --paper, --card, --duplex, --cut-marks and --layout take come from config.c's tables. */
static const char usage_print_head[] =
"usage: quizdeck print [-C DIR] [-o OUT] [-j N] [-q] [OPTIONS] [DECK...]\n"
"\n"
"Writes OUT/print/DECK.pdf for the named decks; with none (and no --test),\n"
"every deck, OUT/print/guide.pdf, the guide as a book, and each test's\n"
"handout OUT/print/TEST-handout.pdf. The options override [print]\n"
"in site.toml; names are read in any case (A4, Letter).\n"
"\n"
"  -j N             work on N threads (default: one per core)\n"
"  -q               no summary line (and no progress line)\n";

static const char usage_print_tail[] =
"  --back-offset O  shift of the back pages, as \"0.5mm,-0.3mm\"\n"
"  --calibration    write OUT/print/calibration.pdf, a sheet to measure\n"
"                   your printer's back-side shift, and nothing else\n"
"\n"
"A handout is a practice test to print: questions, then the answer key.\n"
"Without the options below it holds the whole test; samples are left out.\n"
"  --test NAME      write the handout of test NAME (repeatable)\n"
"  --topic T        only questions of topic T\n"
"  --questions N    draw N questions, by the --confidence mix\n"
"  --confidence C   warming-up (60% easy, 30% medium, 10% hard), steady\n"
"                   (as the test has them) or confident (10%, 30%, 60%)\n"
"  --mix E,M,H      draw exactly E easy, M medium and H hard questions\n"
"  --seed S         the draw's seed, a whole number (default: 1)\n";

#define USAGE_WIDTH 79
#define USAGE_INDENT 19        /* where an option's text starts */

/* An option and its text, the text filled to USAGE_WIDTH under USAGE_INDENT. */
static void
S_usage_option(struct buf *b, const char *option, const char *text)
{
	size_t col, len;
	const char *end;

	buf_printf(b, "  %-*s", USAGE_INDENT - 2, option);
	col = USAGE_INDENT;
	while (*text) {
		end = strchr(text, ' ');
		len = end ? (size_t)(end - text) : strlen(text);
		if (col > USAGE_INDENT && col + 1 + len > USAGE_WIDTH) {
			buf_printf(b, "\n%*s", USAGE_INDENT, "");
			col = USAGE_INDENT;
		} else if (col > USAGE_INDENT) {
			buf_putc(b, ' ');
			col++;
		}
		buf_put(b, text, len);
		col += len;
		text += len;
		while (*text == ' ')
			text++;
	}
	buf_putc(b, '\n');
}

static void
S_usage_choice(struct buf *b, const char *option, enum config_choice which, const char *other)
{
	char *list = config_choice_list(which, other);

	S_usage_option(b, option, list);
	free(list);
}

/* print's usage, made once; it lives as long as the process. */
static const char *
S_usage_print(void)
{
	static char *text;
	struct buf b;

	if (text != NULL)
		return text;
	buf_init(&b);
	buf_puts(&b, usage_print_head);
	S_usage_choice(&b, "--paper P", CONFIG_PAPER, "WxHmm / WxHin");
	S_usage_choice(&b, "--card C", CONFIG_CARD, "WxHmm");
	S_usage_choice(&b, "--duplex D", CONFIG_DUPLEX, NULL);
	S_usage_choice(&b, "--cut-marks M", CONFIG_CUT_MARKS, NULL);
	S_usage_choice(&b, "--layout L", CONFIG_LAYOUT, NULL);
	buf_puts(&b, usage_print_tail);
	text = buf_detach(&b);
	return text;
}

static const char usage_export_head[] =
"usage: quizdeck export [-C DIR] [-o OUT] [-j N] [-q] [--strict] FORMAT [NAME...]\n"
"\n"
"Writes OUT/export/ files for the decks and tests named (default: all),\n"
"each in place of the last. FORMAT is one of:\n"
"\n";

static const char usage_export_tail[] =
"\n"
"  -C DIR           the site's folder (default: .)\n"
"  -o OUT           the output folder (default: DIR/out)\n"
"  -j N             work on N threads (default: one per core)\n"
"  -q               no summary line\n"
"  --strict         warnings are errors\n";

/* The name `quizdeck export` takes for every format at once. */
#define EXPORT_ALL_NAME "all"

/* export's usage, made once from outputs.h's table; it lives as long as the process. */
static const char *
S_usage_export(void)
{
	static char *text;
	struct buf b;
	int f;

	if (text != NULL)
		return text;
	buf_init(&b);
	buf_puts(&b, usage_export_head);
	for (f = 0; f < EXPORT_NFORMATS; f++)
		S_usage_option(&b, outputs_export_formats[f].name, outputs_export_formats[f].what);
	S_usage_option(&b, EXPORT_ALL_NAME, "every one of them, as build writes them");
	buf_puts(&b, usage_export_tail);
	text = buf_detach(&b);
	return text;
}

/* The formats a FORMAT argument names, as bits 1 << enum export_format; 0 for none. */
static unsigned
S_export_formats(const char *name)
{
	int f;

	if (strcmp(name, EXPORT_ALL_NAME) == 0)
		return (1u << EXPORT_NFORMATS) - 1;
	for (f = 0; f < EXPORT_NFORMATS; f++)
		if (strcmp(name, outputs_export_formats[f].name) == 0)
			return 1u << f;
	return 0;
}

#define SERVE_PORT 8000
#define SERVE_BIND "127.0.0.1"
#define S_STR(x) S_STR2(x)
#define S_STR2(x) #x

static const char usage_serve[] =
"usage: quizdeck serve [-C DIR] [--port N] [--bind ADDR]\n"
"\n"
"Builds the site, serves it at http://" SERVE_BIND ":" S_STR(SERVE_PORT) "/ and rebuilds on\n"
"change; open pages reload themselves.\n"
"\n"
"  -C DIR       the site's folder (default: .)\n"
"  --port N     the port (default: " S_STR(SERVE_PORT) ")\n"
"  --bind ADDR  the address to listen on (default: " SERVE_BIND ", this machine\n"
"               only); 0.0.0.0 (or ::) listens on every address, to preview\n"
"               on a phone on the same network\n";

static const char usage_import[] =
"usage: quizdeck import [-C DIR] [--deck NAME] [--force] anki|csv FILE\n"
"\n"
"Writes content/cards/NAME.md, a Markdown deck of the cards in FILE, and\n"
"content/cards/NAME/ with their images. anki reads an Anki package\n"
"(.apkg, \"Support older Anki versions\" ticked), csv a CSV or TSV file\n"
"as Anki's text import reads it (#separator:, #columns:... header lines,\n"
"or a header row naming Front and Back). HTML becomes Markdown, cloze notes\n"
"cloze cards, reversed notes cards with .reverse, and a note quizdeck\n"
"exported keeps its card id, so exporting again updates Anki's notes.\n"
"Bad input writes nothing.\n"
"\n"
"  --deck NAME  the deck's file name (default: the deck quizdeck's guids\n"
"               name, else the deck's title or the file's name)\n"
"  --force      replace a deck of that name\n";

static const char usage_new[] =
"usage: quizdeck new DIR\n"
"\n"
"Creates DIR with site.toml, a practice test, a flashcard deck and a guide\n"
"chapter, ready for `quizdeck build -C DIR`.\n";

enum {
	OPT_STRICT = 256, OPT_DUMP, OPT_NO_PDF, OPT_NO_OFFLINE, OPT_PAPER, OPT_CARD, OPT_DUPLEX,
	OPT_CUT_MARKS, OPT_BACK_OFFSET, OPT_CALIBRATION, OPT_PORT, OPT_BIND, OPT_VERSION,
	OPT_NO_EXPORT, OPT_LAYOUT, OPT_TEST, OPT_TOPIC, OPT_QUESTIONS, OPT_CONFIDENCE, OPT_MIX, OPT_SEED,
	OPT_DECK, OPT_FORCE
};

struct cli {
	const char *command;
	const char *dir;
	const char *out;
	int strict;
	int dump;
	int no_pdf;
	int no_export;
	int no_offline;
	const char *deck;          /* import's --deck */
	int force;                 /* import's --force */
	int calibration;
	int port;
	const char *bind;          /* serve's address, numeric */
	int quiet;                 /* -q: no summary line */
	int jobs;                  /* -j; 0: one per core */
	const char *paper, *card, *duplex, *cut_marks, *back_offset, *layout;
	char **tests;              /* print's --test names */
	size_t ntests;
	struct handout_choice handout;
	char **args;
	int nargs;
};

static int
S_color(FILE *fp)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(fileno(fp)) && (nc == NULL || *nc == '\0');
}

/* Prints the diagnostics and returns the exit status they call for. */
static int
S_report(struct diag_list *dl)
{
	diag_sort(dl);
	diag_print(dl, stderr, S_color(stderr));
	return diag_failed(dl) ? EXIT_CONTENT : 0;
}

static int
S_usage_error(const char *usage, const char *fmt, const char *arg)
{
	fprintf(stderr, "quizdeck: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage);
	return EXIT_USAGE;
}

/* "what \"arg\"", and the nearest of which's names if one is near; then print's usage. */
static int
S_usage_choice_error(const char *what, const char *arg, enum config_choice which)
{
	const char *near = config_choice_nearest(which, arg);

	fprintf(stderr, "quizdeck: %s \"%s\"", what, arg);
	if (near)
		fprintf(stderr, "; did you mean \"%s\"?", near);
	fprintf(stderr, "\n%s", S_usage_print());
	return EXIT_USAGE;
}

static int S_no_such_export(const struct site *site, const char *name, unsigned formats);

/* A whole number of at most max in text, or -1. */
static long long
S_whole(const char *text, long long max)
{
	char *end;
	long long v;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	v = strtoll(text, &end, 10);
	return *end || errno || v > max ? -1 : v;
}

/* One of print's handout options into ch: 0, or the status of a usage error, which is printed. */
static int
S_handout_option(struct handout_choice *ch, int opt, const char *arg)
{
	const char *names[HANDOUT_NMIXES], *near;
	long long v;
	int i;

	switch (opt) {
	case OPT_TOPIC:
		ch->topic = arg;
		return 0;
	case OPT_QUESTIONS:
		if ((v = S_whole(arg, 100000)) < 1)
			return S_usage_error(S_usage_print(), "bad question count \"%s\" (a whole number, 1 or more)", arg);
		ch->count = (size_t)v;
		return 0;
	case OPT_CONFIDENCE:
		if ((ch->mix = handout_mix_named(arg)) != NULL)
			return 0;
		for (i = 0; i < HANDOUT_NMIXES; i++)
			names[i] = handout_mixes[i].name;
		near = str_nearest(arg, names, HANDOUT_NMIXES);
		fprintf(stderr, "quizdeck: unknown confidence \"%s\"", arg);
		if (near)
			fprintf(stderr, "; did you mean \"%s\"?", near);
		else
			fprintf(stderr, " (warming-up, steady or confident)");
		fprintf(stderr, "\n%s", S_usage_print());
		return EXIT_USAGE;
	case OPT_MIX: {
		const char *p = arg;

		for (i = 0; i < 3; i++) {
			char num[16];
			size_t len = strcspn(p, ",");

			if (len == 0 || len >= sizeof(num) || (i < 2) != (p[len] == ','))
				break;
			memcpy(num, p, len);
			num[len] = '\0';
			if ((v = S_whole(num, 100000)) < 0)
				break;
			ch->counts[i] = (size_t)v;
			p += len + (i < 2);
		}
		if (i < 3)
			return S_usage_error(S_usage_print(), "bad mix \"%s\": give three counts, easy, medium "
			    "and hard, as --mix 3,4,3", arg);
		ch->has_counts = 1;
		return 0;
	}
	case OPT_SEED:
		if ((v = S_whole(arg, 0x7fffffffffffffffLL)) < 0)
			return S_usage_error(S_usage_print(), "bad seed \"%s\" (a whole number)", arg);
		ch->seed = (unsigned long long)v;
		ch->has_seed = 1;
		return 0;
	}
	return 0;
}

/*
 * print's --test names and --topic name a test and a topic of it (of one
 * of them, or of any test without --test): 0, or the usage status, with
 * the nearest name and all there are said.
 */
static int
S_check_handout_names(const struct site *site, const struct cli *cli)
{
	const char **names;
	const char *near;
	size_t i, k, j, n = 0, cap;
	int found = 0;

	for (i = 0; i < cli->ntests; i++) {
		for (k = 0; k < site->ntests; k++)
			if (strcmp(site->tests[k]->slug, cli->tests[i]) == 0)
				break;
		if (k == site->ntests)
			return S_no_such_export(site, cli->tests[i], 1u << EXPORT_GIFT);
	}
	if (!cli->handout.topic)
		return 0;
	cap = 1;
	for (k = 0; k < site->ntests; k++)
		cap += site->tests[k]->ntopics;
	names = xcalloc(cap, sizeof(*names));
	for (k = 0; k < site->ntests; k++) {
		const struct test *t = site->tests[k];
		int wanted = cli->ntests == 0;

		for (i = 0; i < cli->ntests; i++)
			wanted |= strcmp(cli->tests[i], t->slug) == 0;
		for (j = 0; wanted && j < t->ntopics; j++) {
			names[n++] = t->topics[j]->slug;
			found |= strcmp(t->topics[j]->slug, cli->handout.topic) == 0;
		}
	}
	if (!found) {
		near = str_nearest(cli->handout.topic, names, n);
		fprintf(stderr, "quizdeck: no topic named \"%s\"", cli->handout.topic);
		if (near)
			fprintf(stderr, "; did you mean \"%s\"?", near);
		fprintf(stderr, "%s", n ? (near ? " The topics are: " : "; the topics are: ") : ": there are none\n");
		for (i = 0; i < n; i++)
			fprintf(stderr, "%s%s%s", i == 0 ? "" : ", ", names[i], i + 1 == n ? "\n" : "");
	}
	free(names);
	return found ? 0 : EXIT_USAGE;
}

/* The command line's print settings, as config_apply_print takes them. */
static struct print_overrides
S_print_overrides(const struct cli *cli)
{
	struct print_overrides po = { cli->paper, cli->card, cli->duplex, cli->cut_marks,
	    cli->back_offset, cli->layout };

	return po;
}

/*
 * The command line's print settings, checked before anything is loaded:
 * 0, or the status of a usage error, which is printed.
 */
static int
S_check_print_options(const struct cli *cli)
{
	struct print_overrides po = S_print_overrides(cli);
	struct print_config pc;
	enum print_override_error e;

	memset(&pc, 0, sizeof(pc));
	e = config_apply_print(&pc, &po);
	free(pc.paper_name);
	free(pc.card_name);
	switch (e) {
	case PRINT_OVERRIDE_OK:
		return 0;
	case PRINT_BAD_PAPER:
		return S_usage_choice_error("unknown paper size", cli->paper, CONFIG_PAPER);
	case PRINT_BAD_CARD:
		return S_usage_choice_error("unknown card size", cli->card, CONFIG_CARD);
	case PRINT_BAD_DUPLEX:
		return S_usage_choice_error("unknown duplex mode", cli->duplex, CONFIG_DUPLEX);
	case PRINT_BAD_CUT_MARKS:
		return S_usage_choice_error("unknown cut marks", cli->cut_marks, CONFIG_CUT_MARKS);
	case PRINT_BAD_LAYOUT:
		return S_usage_choice_error("unknown layout", cli->layout, CONFIG_LAYOUT);
	case PRINT_BAD_BACK_OFFSET:
		return S_usage_error(S_usage_print(), "bad back offset \"%s\"", cli->back_offset);
	}
	return 0;
}

static int
S_load(struct site *site, const struct cli *cli, struct diag_list *dl)
{
	struct site_options so;
	struct print_overrides po = S_print_overrides(cli);
	size_t errors = dl->errors;

	memset(&so, 0, sizeof(so));
	so.strict = cli->strict;
	so.jobs = cli->jobs;
	so.print = &po;
	dl->strict = cli->strict;
	site_load(site, cli->dir, &so, dl);
	links_resolve(site, dl);
	outputs_check(site, dl);
	return dl->errors > errors ? -1 : 0;
}

/* The output folder, as build_begin names what goes beside it (path_trim_dir). */
static char *
S_outdir(const struct cli *cli)
{
	return cli->out ? path_trim_dir(cli->out) : path_join(cli->dir, "out");
}

/*
 * What the output passes find without writing anything: the theme and its
 * templates, every deck's cards drawn and fitted as build draws them
 * (the paper and card settings, cards that do not fit), the book and
 * each test's whole handout laid out (pictures they cannot draw). So
 * `check --strict` passes exactly when `build --strict` does.
 */
static void
S_check_outputs(const struct site *site, struct diag_list *dl)
{
	static const struct handout_choice whole;
	size_t i;

	html_build(site, NULL, 1, NULL, NULL, 0, 0, dl);
	for (i = 0; i < site->ndecks; i++)
		if (pdf_write_deck(site, site->decks[i], &site->cfg.print, NULL, site->jobs,
		    NULL, dl) == -1)
			break;
	book_write(site, &site->cfg.print, BOOK_HYPHEN_DIR, NULL, NULL, dl);
	for (i = 0; i < site->ntests; i++)
		handout_write(site, site->tests[i], &whole, NULL, &site->cfg.print, NULL, NULL, dl);
}

static int
S_cmd_check(const struct cli *cli)
{
	struct diag_list dl;
	struct site site;
	char *summary;
	int status;

	diag_init(&dl);
	if (S_load(&site, cli, &dl) == 0 && !diag_failed(&dl))
		S_check_outputs(&site, &dl);
	status = S_report(&dl);
	if (cli->dump)
		site_dump(&site, stdout);
	summary = site_summary(&site, &dl);
	printf("%s\n", summary);
	free(summary);
	site_free(&site);
	diag_free(&dl);
	return status;
}

/*
 * The model build and print load, kept for the process's life. Their last
 * step is exit, and freeing a large site's model block by block is work
 * for nothing: the system takes it back whole, as with clang's
 * -disable-free. Held here, not on the stack, it stays reachable, so
 * valgrind counts no leak. Sanitizer builds do free it, so leak checking
 * still covers site_free; serve and check free theirs.
 */
static struct site S_build_site;

/*
 * No deck is named name: says so, with the nearest slug if one is near
 * and every deck there is. Returns the usage status.
 */
static int
S_no_such_deck(const struct site *site, const char *name)
{
	const char **slugs = xcalloc(site->ndecks + 1, sizeof(*slugs));
	const char *near;
	size_t i;

	for (i = 0; i < site->ndecks; i++)
		slugs[i] = site->decks[i]->slug;
	near = str_nearest(name, slugs, site->ndecks);
	fprintf(stderr, "quizdeck: no deck named \"%s\" in content/cards", name);
	if (near)
		fprintf(stderr, "; did you mean \"%s\"?", near);
	if (site->ndecks == 0)
		fprintf(stderr, ": there are no decks\n");
	else {
		fprintf(stderr, "%s deck%s: ", near ? " The" : "; the", site->ndecks > 1 ? "s are" : " is");
		for (i = 0; i < site->ndecks; i++)
			fprintf(stderr, "%s%s", i == 0 ? "" : ", ", slugs[i]);
		fprintf(stderr, "\n");
	}
	free(slugs);
	return EXIT_USAGE;
}

/*
 * No deck or test an export of formats can write is named name: says
 * so, with the nearest name and every one there is. Returns the usage
 * status.
 */
static int
S_no_such_export(const struct site *site, const char *name, unsigned formats)
{
	const char **names = xcalloc(site->ndecks + site->ntests + 1, sizeof(*names));
	int decks = 0, tests = 0, f;
	const char *near, *what;
	size_t i, n = 0;

	for (f = 0; f < EXPORT_NFORMATS; f++)
		if (formats & (1u << f)) {
			tests |= outputs_export_formats[f].of_tests;
			decks |= !outputs_export_formats[f].of_tests;
		}
	for (i = 0; decks && i < site->ndecks; i++)
		names[n++] = site->decks[i]->slug;
	for (i = 0; tests && i < site->ntests; i++)
		names[n++] = site->tests[i]->slug;
	what = decks && tests ? "deck or test" : decks ? "deck" : "test";
	near = str_nearest(name, names, n);
	fprintf(stderr, "quizdeck: no %s named \"%s\"", what, name);
	if (near)
		fprintf(stderr, "; did you mean \"%s\"?", near);
	if (n == 0)
		fprintf(stderr, ": there are none\n");
	else {
		fprintf(stderr, "%s %s: ", near ? " There are" : "; there are", decks && tests ?
		    "these decks and tests" : decks ? "these decks" : "these tests");
		for (i = 0; i < n; i++)
			fprintf(stderr, "%s%s", i == 0 ? "" : ", ", names[i]);
		fprintf(stderr, "\n");
	}
	free(names);
	return EXIT_USAGE;
}

/* 1 if a deck or test of formats' kinds is named name. */
static int
S_export_name_known(const struct site *site, const char *name, unsigned formats)
{
	size_t i;
	int f;

	for (f = 0; f < EXPORT_NFORMATS; f++) {
		if (!(formats & (1u << f)))
			continue;
		if (outputs_export_formats[f].of_tests) {
			for (i = 0; i < site->ntests; i++)
				if (strcmp(site->tests[i]->slug, name) == 0)
					return 1;
		} else
			for (i = 0; i < site->ndecks; i++)
				if (strcmp(site->decks[i]->slug, name) == 0)
					return 1;
	}
	return 0;
}

static double
S_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
S_plural(struct buf *b, size_t n, const char *one, const char *many)
{
	buf_printf(b, "%zu %s", n, n == 1 ? one : many);
}

/* build's and print's last line: what was written, in how long, where. */
static void
S_build_summary(const struct build_counts *bc, int html, const char *outdir, double seconds)
{
	struct buf b;

	buf_init(&b);
	if (html) {
		buf_puts(&b, "built ");
		S_plural(&b, bc->pages, "page", "pages");
		buf_puts(&b, " and ");
	} else
		buf_puts(&b, "printed ");
	S_plural(&b, bc->pdfs, "PDF", "PDFs");
	buf_printf(&b, " into %s%s in %.1f s", outdir, html ? "" : "/print", seconds);
	printf("%s\n", buf_str(&b));
	buf_free(&b);
}

/*
 * build (html), print (neither html nor exports) and export (exports
 * only, the formats of cli's first argument): each writes what it is
 * for, the arguments naming decks (and, for export, tests).
 */
static int
S_cmd_build(const struct cli *cli, int html, unsigned exports)
{
	struct build_options bo;
	struct diag_list dl;
	struct site *site = &S_build_site;
	struct build *b = NULL;
	struct build_counts counts = { 0, 0, 0 };
	char *outdir = S_outdir(cli);
	double start = S_seconds();
	int status, bad;

	diag_init(&dl);
	memset(&bo, 0, sizeof(bo));
	bo.outdir = outdir;
	bo.html = html;
	bo.pdf = (html || !exports) && !cli->no_pdf;
	bo.exports = exports;
	bo.offline = html && !cli->no_offline;
	bo.decks = cli->args;
	bo.ndecks = (size_t)cli->nargs;
	bo.tests = cli->tests;
	bo.ntests = cli->ntests;
	bo.handout = &cli->handout;
	bo.progress = !cli->quiet && isatty(fileno(stderr));
	bo.jobs = cli->jobs;
	bo.counts = &counts;
	/* Bad print settings are a usage error before anything is loaded or written. */
	bad = S_check_print_options(cli);
	if (bad) {
		status = bad;
		goto out;
	}
	if (!cli->calibration && (b = build_begin(cli->dir, &bo, &dl)) == NULL)
		goto report;
	if (S_load(site, cli, &dl) == 0 && !diag_failed(&dl)) {
		for (int i = 0; i < cli->nargs && !bad; i++) {
			size_t k;

			if (!html && exports) {
				if (!S_export_name_known(site, cli->args[i], exports))
					bad = S_no_such_export(site, cli->args[i], exports);
				continue;
			}
			for (k = 0; k < site->ndecks; k++)
				if (strcmp(site->decks[k]->slug, cli->args[i]) == 0)
					break;
			if (k == site->ndecks)
				bad = S_no_such_deck(site, cli->args[i]);
		}
		if (!bad)
			bad = S_check_handout_names(site, cli);
		if (bad) {
			if (b)
				build_finish(b, NULL, &dl);
			status = bad;
			goto out;
		}
		if (cli->calibration) {
			char *printdir = path_join(outdir, "print");
			char *path = path_join(printdir, "calibration.pdf");

			if (dir_make(printdir) == 0)
				pdf_write_calibration(&site->cfg.print, path, &dl);
			else
				diag_error(&dl, NULL, 0, 0, "cannot create %s: %s", printdir, strerror(errno));
			free(path);
			free(printdir);
		} else if (build_finish(b, site, &dl) == 0 && !cli->quiet) {
			status = S_report(&dl);
			if (!html && exports)
				printf("exported %zu file%s into %s/%s in %.1f s\n", counts.exports,
				    counts.exports == 1 ? "" : "s", outdir, OUTPUT_EXPORT_DIR,
				    S_seconds() - start);
			else
				S_build_summary(&counts, html, outdir, S_seconds() - start);
			b = NULL;
			goto out;
		}
		b = NULL;
	}
	/* The load failed: what the build made goes. */
	if (b)
		build_finish(b, NULL, &dl);
report:
	status = S_report(&dl);
out:
	if (UTIL_ASAN)
		site_free(site);
	diag_free(&dl);
	free(outdir);
	return status;
}

static int
S_cmd_serve(const struct cli *cli)
{
	struct serve_options so;

	memset(&so, 0, sizeof(so));
	so.root = cli->dir;
	so.port = cli->port;
	so.bind = cli->bind;
	so.report = S_report;
	return serve_run(&so);
}

static int
S_cmd_new(const struct cli *cli)
{
	struct diag_list dl;
	int status;

	if (cli->nargs != 1)
		return S_usage_error(usage_new, "%s", "new takes one folder name");
	diag_init(&dl);
	scaffold_write(cli->args[0], &dl);
	status = S_report(&dl);
	if (status == 0)
		printf("created %s: try `quizdeck build -C %s`\n", cli->args[0], cli->args[0]);
	diag_free(&dl);
	return status;
}

static int
S_cmd_import(const struct cli *cli)
{
	struct import_options io;
	struct import_result res;
	struct diag_list dl;
	int status;

	if (cli->nargs != 2)
		return S_usage_error(usage_import, "%s", "import takes a format (anki or csv) and a file");
	memset(&io, 0, sizeof(io));
	if (!strcmp(cli->args[0], "anki"))
		io.format = IMPORT_ANKI;
	else if (!strcmp(cli->args[0], "csv"))
		io.format = IMPORT_CSV;
	else
		return S_usage_error(usage_import, "unknown import format \"%s\": anki or csv",
		    cli->args[0]);
	io.site = cli->dir;
	io.file = cli->args[1];
	io.deck = cli->deck;
	io.force = cli->force;
	diag_init(&dl);
	if (import_run(&io, &res, &dl) == -1 && !diag_failed(&dl))
		diag_error(&dl, io.file, 0, 0, "%s", "not imported");
	status = S_report(&dl);
	if (res.path) {
		printf("imported %zu card%s into %s", res.cards, res.cards == 1 ? "" : "s", res.path);
		if (res.media)
			printf(" and %zu image%s beside it", res.media, res.media == 1 ? "" : "s");
		printf("\n");
		status = 0;
	}
	free(res.path);
	diag_free(&dl);
	return status;
}

static const struct option long_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "no-pdf", no_argument, NULL, OPT_NO_PDF },
	{ "no-export", no_argument, NULL, OPT_NO_EXPORT },
	{ "no-offline", no_argument, NULL, OPT_NO_OFFLINE },
	{ "paper", required_argument, NULL, OPT_PAPER },
	{ "card", required_argument, NULL, OPT_CARD },
	{ "duplex", required_argument, NULL, OPT_DUPLEX },
	{ "cut-marks", required_argument, NULL, OPT_CUT_MARKS },
	{ "back-offset", required_argument, NULL, OPT_BACK_OFFSET },
	{ "layout", required_argument, NULL, OPT_LAYOUT },
	{ "calibration", no_argument, NULL, OPT_CALIBRATION },
	{ "test", required_argument, NULL, OPT_TEST },
	{ "topic", required_argument, NULL, OPT_TOPIC },
	{ "questions", required_argument, NULL, OPT_QUESTIONS },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	{ "mix", required_argument, NULL, OPT_MIX },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "bind", required_argument, NULL, OPT_BIND },
	{ "deck", required_argument, NULL, OPT_DECK },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ NULL, 0, NULL, 0 }
};

/* An option as written ("-j", "--port"), by its code: argv may hold its value instead. */
static char *
S_option_name(int code)
{
	size_t i;

	for (i = 0; long_options[i].name; i++)
		if (long_options[i].val == code)
			return xasprintf("--%s", long_options[i].name);
	return xasprintf("-%c", code);
}

/* Which options each command takes, by their codes. */
static int
S_allowed(const char *cmd, int opt)
{
	switch (opt) {
	case 'C':
	case 'h':
		return 1;
	case 'o':
	case 'j':
	case 'q':
		return !strcmp(cmd, "build") || !strcmp(cmd, "print") || !strcmp(cmd, "export");
	case OPT_STRICT:
		return !strcmp(cmd, "build") || !strcmp(cmd, "check") || !strcmp(cmd, "print") ||
		    !strcmp(cmd, "export");
	case OPT_DUMP:
		return !strcmp(cmd, "check");
	case OPT_NO_PDF:
	case OPT_NO_EXPORT:
	case OPT_NO_OFFLINE:
		return !strcmp(cmd, "build");
	case OPT_PAPER: case OPT_CARD: case OPT_DUPLEX: case OPT_CUT_MARKS:
	case OPT_BACK_OFFSET: case OPT_CALIBRATION: case OPT_LAYOUT:
	case OPT_TEST: case OPT_TOPIC: case OPT_QUESTIONS: case OPT_CONFIDENCE: case OPT_MIX: case OPT_SEED:
		return !strcmp(cmd, "print");
	case OPT_PORT:
	case OPT_BIND:
		return !strcmp(cmd, "serve");
	case OPT_DECK:
	case OPT_FORCE:
		return !strcmp(cmd, "import");
	}
	return 0;
}

static const char *const commands[] = {
	"build", "check", "print", "export", "import", "serve", "new"
};

static const char *
S_usage_of(const char *cmd)
{
	if (cmd == NULL)
		return usage_main;
	if (!strcmp(cmd, "build"))
		return usage_build;
	if (!strcmp(cmd, "check"))
		return usage_check;
	if (!strcmp(cmd, "print"))
		return S_usage_print();
	if (!strcmp(cmd, "export"))
		return S_usage_export();
	if (!strcmp(cmd, "import"))
		return usage_import;
	if (!strcmp(cmd, "serve"))
		return usage_serve;
	if (!strcmp(cmd, "new"))
		return usage_new;
	return NULL;
}

/*
 * The site's folder exists and looks like a site (site.toml or content/;
 * with one of them, what is missing is reported as the site's error).
 * 0, or -1 with the one message that says what is wrong.
 */
static int
S_check_site_dir(const char *dir)
{
	char *toml, *content;
	int site;

	if (!path_is_dir(dir)) {
		fprintf(stderr, "quizdeck: no folder \"%s\": -C names the site's folder\n", dir);
		return -1;
	}
	toml = path_join(dir, "site.toml");
	content = path_join(dir, "content");
	site = path_is_file(toml) || path_is_dir(content);
	free(toml);
	free(content);
	if (site)
		return 0;
	fprintf(stderr, "quizdeck: \"%s\" is not a site: it has no site.toml and no content/ "
	    "(-C names the site's folder; `quizdeck new DIR` makes a new one)\n", dir);
	return -1;
}

static int S_main(int argc, char *argv[]);

/* print's --test names (cli.tests), freed when S_main has returned. */
static char **S_test_names;

int
main(int argc, char *argv[])
{
	int status;

	mem_tune();
	status = S_main(argc, argv);
	free(S_test_names);

	/* Font caches live for the process; dropping them keeps leak checks meaningful. */
	pdf_cleanup();
	return status;
}

static int
S_main(int argc, char *argv[])
{
	struct cli cli;
	const char *usage;
	int c, i;

	memset(&cli, 0, sizeof(cli));
	cli.dir = ".";
	cli.port = SERVE_PORT;
	cli.bind = SERVE_BIND;

	/* Options before the command: -C, --help, --version. */
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--version")) {
			printf("quizdeck %s\n", QUIZDECK_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_main, stdout);
			return 0;
		} else if (!strcmp(argv[i], "-C") && i + 1 < argc)
			cli.dir = argv[++i];
		else if (!strncmp(argv[i], "-C", 2) && argv[i][2])
			cli.dir = argv[i] + 2;
		else
			return S_usage_error(usage_main, "unknown option %s", argv[i]);
	}
	if (i == argc) {
		fputs(usage_main, stderr);
		return EXIT_USAGE;
	}
	cli.command = argv[i];
	if ((usage = S_usage_of(cli.command)) == NULL) {
		const char *near = str_nearest(cli.command, commands, sizeof(commands) / sizeof(commands[0]));

		fprintf(stderr, "quizdeck: unknown command \"%s\"", cli.command);
		if (near)
			fprintf(stderr, "; did you mean \"%s\"?", near);
		fprintf(stderr, "\n%s", usage_main);
		return EXIT_USAGE;
	}

	/* The command's own options; getopt_long sees argv from the command on. */
	argc -= i;
	argv += i;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":C:o:j:hq", long_options, NULL)) != -1) {
		if (c == '?' || c == ':')
			return S_usage_error(usage, c == ':' ? "option %s needs a value" :
			    "unknown option %s", argv[optind - 1]);
		if (c == OPT_VERSION) {
			printf("quizdeck %s\n", QUIZDECK_VERSION);
			return 0;
		}
		if (!S_allowed(cli.command, c)) {
			char *name = S_option_name(c);
			int rc = S_usage_error(usage, "option %s does not apply here", name);

			free(name);
			return rc;
		}
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'C': cli.dir = optarg; break;
		case 'o': cli.out = optarg; break;
		case 'q': cli.quiet = 1; break;
		case 'j': {
			char *end;
			long j = strtol(optarg, &end, 10);

			if (*end || end == optarg || j < 1 || j > 64)
				return S_usage_error(usage, "bad thread count \"%s\" (1 to 64)", optarg);
			cli.jobs = (int)j;
			break;
		}
		case OPT_STRICT: cli.strict = 1; break;
		case OPT_DUMP: cli.dump = 1; break;
		case OPT_NO_PDF: cli.no_pdf = 1; break;
		case OPT_NO_EXPORT: cli.no_export = 1; break;
		case OPT_NO_OFFLINE: cli.no_offline = 1; break;
		case OPT_PAPER: cli.paper = optarg; break;
		case OPT_CARD: cli.card = optarg; break;
		case OPT_DUPLEX: cli.duplex = optarg; break;
		case OPT_CUT_MARKS: cli.cut_marks = optarg; break;
		case OPT_BACK_OFFSET: cli.back_offset = optarg; break;
		case OPT_LAYOUT: cli.layout = optarg; break;
		case OPT_CALIBRATION: cli.calibration = 1; break;
		case OPT_DECK: cli.deck = optarg; break;
		case OPT_FORCE: cli.force = 1; break;
		case OPT_TEST:
			S_test_names = xrealloc(S_test_names, (cli.ntests + 1) * sizeof(*S_test_names));
			S_test_names[cli.ntests++] = optarg;
			cli.tests = S_test_names;
			break;
		case OPT_TOPIC: case OPT_QUESTIONS: case OPT_CONFIDENCE: case OPT_MIX: case OPT_SEED: {
			int rc = S_handout_option(&cli.handout, c, optarg);

			if (rc)
				return rc;
			break;
		}
		case OPT_PORT: {
			char *end;
			long p = strtol(optarg, &end, 10);

			if (*end || p < 1 || p > 65535)
				return S_usage_error(usage, "bad port \"%s\"", optarg);
			cli.port = (int)p;
			break;
		}
		case OPT_BIND: {
			unsigned char addr[16];

			if (inet_pton(AF_INET, optarg, addr) != 1 && inet_pton(AF_INET6, optarg, addr) != 1)
				return S_usage_error(usage, "bad address \"%s\": give an IP address, "
				    "such as 127.0.0.1, 0.0.0.0 or ::", optarg);
			cli.bind = optarg;
			break;
		}
		}
	}
	cli.args = argv + optind;
	cli.nargs = argc - optind;

	if (!strcmp(cli.command, "check") || !strcmp(cli.command, "serve") ||
	    !strcmp(cli.command, "build")) {
		if (cli.nargs > 0)
			return S_usage_error(usage, "unexpected argument \"%s\"", cli.args[0]);
	}
	if (strcmp(cli.command, "new") != 0 && S_check_site_dir(cli.dir) != 0)
		return EXIT_USAGE;
	if (!strcmp(cli.command, "check"))
		return S_cmd_check(&cli);
	if (!strcmp(cli.command, "build"))
		return S_cmd_build(&cli, 1, cli.no_export ? 0 : (1u << EXPORT_NFORMATS) - 1);
	if (!strcmp(cli.command, "print"))
		return S_cmd_build(&cli, 0, 0);
	if (!strcmp(cli.command, "export")) {
		unsigned formats;

		if (cli.nargs == 0)
			return S_usage_error(usage, "%s", "export needs a FORMAT");
		if ((formats = S_export_formats(cli.args[0])) == 0) {
			const char *names[EXPORT_NFORMATS + 1], *near;
			int f;

			for (f = 0; f < EXPORT_NFORMATS; f++)
				names[f] = outputs_export_formats[f].name;
			names[EXPORT_NFORMATS] = EXPORT_ALL_NAME;
			near = str_nearest(cli.args[0], names, EXPORT_NFORMATS + 1);
			fprintf(stderr, "quizdeck: unknown export format \"%s\"", cli.args[0]);
			if (near)
				fprintf(stderr, "; did you mean \"%s\"?", near);
			fprintf(stderr, "\n%s", usage);
			return EXIT_USAGE;
		}
		cli.args++;
		cli.nargs--;
		return S_cmd_build(&cli, 0, formats);
	}
	if (!strcmp(cli.command, "import"))
		return S_cmd_import(&cli);
	if (!strcmp(cli.command, "serve"))
		return S_cmd_serve(&cli);
	return S_cmd_new(&cli);
}

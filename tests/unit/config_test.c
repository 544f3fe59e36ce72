/*
 * config: defaults, every key, and a table of wrong inputs with the exact
 * diagnostic each must give.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "config.h"
#include "diag.h"
#include "util.h"

/* Writes text to a temporary site.toml and loads it. */
static int
S_load(const char *text, struct config *c, struct diag_list *dl)
{
	char path[] = "/tmp/quizdeck-config-XXXXXX";
	int fd = mkstemp(path), rc;

	if (fd == -1 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror("config_test");
		exit(2);
	}
	close(fd);
	diag_init(dl);
	rc = config_load(c, path, dl);
	unlink(path);
	return rc;
}

static void
test_defaults(void)
{
	struct config c;
	struct diag_list dl;

	CHECK_GROUP("config defaults");
	CHECK_INT(S_load("", &c, &dl), 0, "an empty site.toml is a valid site");
	CHECK_INT(dl.len, 0, "and gives no diagnostic");
	CHECK_STR(c.theme, "default", "theme");
	CHECK_STR(c.language, "en", "language");
	CHECK_STR(c.site_id, "", "site_id unset");
	CHECK_INT(c.quiz.questions, 10, "quiz.questions");
	CHECK_INT(c.quiz.reveal, REVEAL_EACH, "quiz.reveal");
	CHECK_INT(c.quiz.seconds_easy, 30, "quiz.seconds.easy");
	CHECK_INT(c.quiz.seconds_medium, 45, "quiz.seconds.medium");
	CHECK_INT(c.quiz.seconds_hard, 75, "quiz.seconds.hard");
	CHECK(c.quiz.pass_mark == 0.7, "quiz.pass_mark 0.7");
	CHECK_INT(c.markdown.unsafe_html, 0, "markdown.unsafe_html off");
	CHECK_INT(c.limits.max_file_size, 8 * 1024 * 1024, "limits.max_file_size 8 MiB");
	CHECK_INT(c.limits.max_elements, 500000, "limits.max_elements");
	CHECK(c.print.paper_w == 210 && c.print.paper_h == 297, "paper a4");
	CHECK(c.print.card_w == 74 && c.print.card_h == 105, "card a7");
	CHECK_INT(c.print.duplex, DUPLEX_LONG_EDGE, "duplex");
	CHECK_INT(c.print.cut_marks, CUT_CORNERS, "cut marks");
	CHECK_INT(c.print.layout, LAYOUT_AUTO, "layout auto");
	CHECK_STR(c.print.font, "Noto Sans", "font");
	CHECK(c.print.min_font_size == 7, "min_font_size");
	config_free(&c);
	diag_free(&dl);
}

static void
test_every_key(void)
{
	struct config c;
	struct diag_list dl;
	const char *text =
	    "title = \"T\"\ndescription = \"D\"\nlanguage = \"de\"\nauthor = \"A\"\n"
	    "base_url = \"https://example.org/study/\"\ntheme = \"mine\"\n"
	    "site_id = \"weather-2026_v.1\"\n"
	    "[quiz]\nquestions = 25\nreveal = \"end\"\n"
	    "seconds = { easy = 20, medium = 40, hard = 90 }\npass_mark = 1\n"
	    "[markdown]\nunsafe_html = true\n"
	    "[print]\npaper = \"letter\"\ncard = \"index-3x5\"\nduplex = \"short-edge\"\n"
	    "cut_marks = \"lines\"\nlayout = \"margins\"\nfont = \"DejaVu Sans\"\nmin_font_size = 6.5\n"
	    "back_offset = \"0.5mm, -0.3mm\"\n"
	    "[limits]\nmax_file_size = 1048576\nmax_elements = 1000\n";

	CHECK_GROUP("config keys");
	CHECK_INT(S_load(text, &c, &dl), 0, "every key loads");
	CHECK_STR(c.title, "T", "title");
	CHECK_STR(c.description, "D", "description");
	CHECK_STR(c.language, "de", "language");
	CHECK_STR(c.author, "A", "author");
	CHECK_STR(c.base_url, "https://example.org/study", "base_url loses its trailing slash");
	CHECK_STR(c.theme, "mine", "theme");
	CHECK_STR(c.site_id, "weather-2026_v.1", "site_id");
	CHECK_INT(c.quiz.questions, 25, "quiz.questions");
	CHECK_INT(c.quiz.reveal, REVEAL_END, "quiz.reveal end");
	CHECK_INT(c.quiz.seconds_hard, 90, "quiz.seconds.hard");
	CHECK(c.quiz.pass_mark == 1.0, "an integer pass_mark is taken as a number");
	CHECK_INT(c.markdown.unsafe_html, 1, "unsafe_html");
	CHECK(c.print.paper_w == 215.9 && c.print.paper_h == 279.4, "letter paper");
	CHECK(c.print.card_w == 76.2 && c.print.card_h == 127, "index-3x5 card");
	CHECK_INT(c.print.duplex, DUPLEX_SHORT_EDGE, "short-edge");
	CHECK_INT(c.print.cut_marks, CUT_LINES, "lines");
	CHECK_INT(c.print.layout, LAYOUT_MARGINS, "layout margins");
	CHECK_STR(c.print.font, "DejaVu Sans", "font");
	CHECK(c.print.min_font_size == 6.5, "min_font_size 6.5");
	CHECK(c.print.back_offset_x == 0.5 && c.print.back_offset_y == -0.3, "back_offset");
	CHECK_INT(c.limits.max_file_size, 1048576, "limits.max_file_size");
	CHECK_INT(c.limits.max_elements, 1000, "limits.max_elements");
	config_free(&c);
	diag_free(&dl);
}

static void
test_sizes(void)
{
	double w, h;

	CHECK_GROUP("config sizes");
	CHECK(config_paper_size("210x297mm", &w, &h) == 0 && w == 210 && h == 297, "210x297mm");
	CHECK(config_paper_size("8.5x11in", &w, &h) == 0 && fabs(w - 215.9) < 1e-9 && fabs(h - 279.4) < 1e-9, "8.5x11in");
	CHECK(config_card_size("business", &w, &h) == 0 && w == 85 && h == 55, "business 85x55");
	CHECK(config_card_size("a6", &w, &h) == 0 && w == 105 && h == 148, "a6");
	CHECK(config_card_size("index-4x6", &w, &h) == 0 && w == 101.6 && h == 152.4, "index-4x6");
	CHECK(config_card_size("63x88mm", &w, &h) == 0 && w == 63 && h == 88, "custom card");
	CHECK(config_card_size("63x88", &w, &h) == -1, "a size needs a unit");
	CHECK(config_card_size("1x1mm", &w, &h) == -1, "a card of 1 mm is refused");
	CHECK(config_paper_size("b5", &w, &h) == -1, "unknown paper");
	CHECK(config_paper_size("A4", &w, &h) == 0 && w == 210 && h == 297, "A4, in any case");
	CHECK(config_paper_size("Letter", &w, &h) == 0 && w == 215.9, "Letter");
	CHECK(config_paper_size("A5", &w, &h) == 0 && w == 148 && h == 210, "A5");
	CHECK(config_card_size("A7", &w, &h) == 0 && w == 74 && h == 105, "A7");
	CHECK(config_card_size("Index-3X5", &w, &h) == 0 && w == 76.2, "Index-3X5");
	CHECK(config_paper_size("210X297MM", &w, &h) == 0 && w == 210 && h == 297, "210X297MM");
	{
		enum duplex_mode d;
		enum cut_marks m;
		enum print_layout l;

		CHECK(config_parse_duplex("Short-Edge", &d) == 0 && d == DUPLEX_SHORT_EDGE, "Short-Edge");
		CHECK(config_parse_cut_marks("NONE", &m) == 0 && m == CUT_NONE, "NONE");
		CHECK(config_parse_layout("Full", &l) == 0 && l == LAYOUT_FULL, "Full");
		CHECK(config_parse_layout("edge", &l) == -1, "no layout edge");
	}
	CHECK(config_parse_offset("0,0", &w, &h) == 0 && w == 0 && h == 0, "offset 0,0");
	CHECK(config_parse_offset("0.02in, 1pt", &w, &h) == 0 && w > 0.5 && w < 0.51, "offset in inches");
	CHECK(config_parse_offset("0.5mm", &w, &h) == -1, "offset needs two lengths");
	CHECK(config_parse_offset("50mm, 0", &w, &h) == -1, "offset over 20 mm");
}

struct bad_case {
	const char *input;
	int line, col;
	const char *message;
};

static const struct bad_case bad[] = {
	{ "titel = \"x\"\n", 1, 1, "unknown key \"titel\" in site.toml; did you mean \"title\"?" },
	{ "title = 3\n", 1, 9, "\"title\" must be a string" },
	{ "\n[quiz]\nquestions = 0\n", 3, 13, "\"questions\" must be from 1 to 1000" },
	{ "[quiz]\nquestions = \"ten\"\n", 2, 13, "\"questions\" must be an integer" },
	{ "[quiz]\nreveal = \"never\"\n", 2, 10, "\"reveal\" must be \"each\" or \"end\", not \"never\"" },
	{ "[quiz]\npass_mark = 1.5\n", 2, 13, "\"pass_mark\" must be a fraction from 0 to 1" },
	{ "[quiz]\nseconds = { easy = 30, tricky = 5 }\n", 2, 24, "unknown key \"quiz.seconds.tricky\" in site.toml: [quiz.seconds] takes easy, medium or hard" },
	{ "[quiz]\nseconds = { meduim = 5 }\n", 2, 13, "unknown key \"quiz.seconds.meduim\" in site.toml; did you mean \"quiz.seconds.medium\"?" },
	{ "[quiz]\nlength = 3\n", 2, 1, "unknown key \"quiz.length\" in site.toml: [quiz] takes questions, reveal, seconds or pass_mark" },
	{ "colour = \"red\"\n", 1, 1, "unknown key \"colour\" in site.toml: the top level takes title, description, language, author, base_url, theme, site_id, quiz, markdown, print, strings or limits" },
	{ "[print]\ncutmarks = \"none\"\n", 2, 1, "unknown key \"print.cutmarks\" in site.toml; did you mean \"print.cut_marks\"?" },
	{ "[print]\ncard = \"tarrot\"\n", 2, 8, "\"card\": unknown card size \"tarrot\" (a7, a6, a8, index-3x5, index-4x6, index-5x8, business, poker, tarot, or \"WxHmm\"); did you mean \"tarot\"?" },
	{ "[print]\nduplex = \"shortedge\"\n", 2, 10, "\"duplex\" must be long-edge, short-edge, fold or single, not \"shortedge\"; did you mean \"short-edge\"?" },
	{ "[print]\npaper = \"b5\"\n", 2, 9, "\"paper\": unknown paper \"b5\" (a4, a3, a5, letter, legal, tabloid, or \"WxHmm\" / \"WxHin\"); did you mean \"a5\"?" },
	{ "[print]\npaper = \"folio\"\n", 2, 9, "\"paper\": unknown paper \"folio\" (a4, a3, a5, letter, legal, tabloid, or \"WxHmm\" / \"WxHin\")" },
	{ "[print]\nduplex = \"both\"\n", 2, 10, "\"duplex\" must be long-edge, short-edge, fold or single, not \"both\"" },
	{ "[print]\ncut_marks = \"dots\"\n", 2, 13, "\"cut_marks\" must be corners, lines or none, not \"dots\"" },
	{ "[print]\nlayout = \"ful\"\n", 2, 10, "\"layout\" must be auto, full or margins, not \"ful\"; did you mean \"full\"?" },
	{ "[print]\nlayout = \"tiled\"\n", 2, 10, "\"layout\" must be auto, full or margins, not \"tiled\"" },
	{ "[print]\nlayout = \"\"\n", 2, 10, "\"layout\" must be auto, full or margins, not \"\"" },
	{ "[print]\nmin_font_size = 1\n", 2, 17, "\"min_font_size\" must be from 3 to 72 points" },
	{ "[print]\nback_offset = \"1mm\"\n", 2, 15, "\"back_offset\" must be two lengths within 20 mm, as \"0.5mm, -0.3mm\", not \"1mm\"" },
	{ "[markdown]\nunsafe_html = \"yes\"\n", 2, 15, "\"unsafe_html\" must be true or false" },
	{ "base_url = \"example.org\"\n", 1, 12, "\"base_url\" must start with https:// or http://, not \"example.org\"" },
	{ "theme = \"../x\"\n", 1, 9, "\"theme\" must name a folder in themes/, not \"../x\"" },
	{ "quiz = 3\n", 1, 8, "\"quiz\" must be a table" },
	{ "site_id = \"my site\"\n", 1, 11, "\"site_id\" must be 1 to 64 letters, digits, '.', '-' or '_', not \"my site\"" },
	{ "site_id = \"\"\n", 1, 11, "\"site_id\" must be 1 to 64 letters, digits, '.', '-' or '_', not \"\"" },
	{ "site_id = 7\n", 1, 11, "\"site_id\" must be a string" },
	{ "language = \"en\\\" onload=\\\"x\"\n", 1, 12,
	  "\"language\" must be a language tag such as \"en\" or \"pt-BR\", not \"en\" onload=\"x\"" },
	{ "language = \"e\"\n", 1, 12, "\"language\" must be a language tag such as \"en\" or \"pt-BR\", not \"e\"" },
	{ "base_url = \"https://x.org/\\\"><script>\"\n", 1, 12,
	  "\"base_url\" must be a URL (spaces, quotes and <>\\^`{|} percent-encoded), not \"https://x.org/\"><script>\"" },
	{ "[limits]\nmax_file_size = 10\n", 2, 17, "\"max_file_size\" must be from 1024 to 1073741824" },
	{ "[limits]\nmax_elements = \"many\"\n", 2, 16, "\"max_elements\" must be an integer" },
	{ "[limits]\nmax_files = 3\n", 2, 1, "unknown key \"limits.max_files\" in site.toml: [limits] takes max_file_size or max_elements" },
};

/* "did you mean": util's distance and nearest name, and config's from its tables. */
static void
test_nearest(void)
{
	static const char *const commands[] = { "build", "check", "print", "serve", "new" };

	CHECK_GROUP("did you mean");
	CHECK_INT(str_distance("build", "build", 3), 0, "the same word: 0");
	CHECK_INT(str_distance("bulid", "build", 3), 1, "two neighbours swapped: 1");
	CHECK_INT(str_distance("BUILD", "build", 3), 0, "case does not count");
	CHECK_INT(str_distance("", "abc", 3), 3, "from nothing: the length");
	CHECK_INT(str_distance("kitten", "sitting", 3), 3, "kitten, sitting: 3");
	CHECK_INT(str_distance("kitten", "sitting", 2), 3, "past max: max + 1");
	CHECK_STR(str_nearest("bulid", commands, 5), "build", "bulid: build");
	CHECK_STR(str_nearest("chek", commands, 5), "check", "chek: check");
	CHECK_STR(str_nearest("frobnicate", commands, 5), NULL, "nothing near frobnicate");
	CHECK_STR(str_nearest("nw", commands, 5), "new", "nw: new");
	CHECK_STR(config_choice_nearest(CONFIG_PAPER, "leter"), "letter", "paper leter: letter");
	CHECK_STR(config_choice_nearest(CONFIG_CARD, "bussiness"), "business", "card bussiness: business");
	CHECK_STR(config_choice_nearest(CONFIG_DUPLEX, "sigle"), "single", "duplex sigle: single");
	CHECK_STR(config_choice_nearest(CONFIG_CUT_MARKS, "corner"), "corners", "cut marks corner: corners");
	CHECK_STR(config_choice_nearest(CONFIG_LAYOUT, "margin"), "margins", "layout margin: margins");
	CHECK_STR(config_choice_nearest(CONFIG_PAPER, "210x297"), NULL, "nothing near a size without its unit");
}

static void
test_bad_inputs(void)
{
	size_t i;

	CHECK_GROUP("config bad input");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct config c;
		struct diag_list dl;
		int rc = S_load(bad[i].input, &c, &dl);

		CHECK(rc == -1 && dl.errors == 1, "case %zu is refused with one error", i);
		if (dl.len == 1) {
			CHECK_STR(dl.v[0].message, bad[i].message, "case %zu message", i);
			CHECK(dl.v[0].line == bad[i].line && dl.v[0].col == bad[i].col,
			    "case %zu at %d:%d (got %d:%d)", i, bad[i].line, bad[i].col,
			    dl.v[0].line, dl.v[0].col);
		}
		config_free(&c);
		diag_free(&dl);
	}
}

/* site.toml itself is held to the default file size limit (its own is not read yet). */
static void
test_huge_file(void)
{
	char path[] = "/tmp/quizdeck-config-XXXXXX";
	int fd = mkstemp(path);
	struct config c;
	struct diag_list dl;
	char msg[160];

	CHECK_GROUP("config size limit");
	if (fd == -1 || ftruncate(fd, CONFIG_MAX_FILE_SIZE + 1) == -1) {
		perror("config_test");
		exit(2);
	}
	close(fd);
	diag_init(&dl);
	CHECK_INT(config_load(&c, path, &dl), -1, "a site.toml over 8 MiB is refused");
	snprintf(msg, sizeof(msg), "the file is %ld bytes, over the limit of %ld bytes",
	    CONFIG_MAX_FILE_SIZE + 1, CONFIG_MAX_FILE_SIZE);
	CHECK(dl.len == 1 && strcmp(dl.v[0].message, msg) == 0, "with the size and the limit: %s",
	    dl.len ? dl.v[0].message : "(nothing)");
	unlink(path);
	config_free(&c);
	diag_free(&dl);
}

static void
test_syntax_error(void)
{
	struct config c;
	struct diag_list dl;

	CHECK_GROUP("config syntax");
	CHECK_INT(S_load("title = \"x\"\ntitle = \"y\"\n", &c, &dl), -1, "a duplicate key is refused");
	CHECK(dl.len == 1 && dl.v[0].line == 2, "at the second definition (line %d)", dl.len ? dl.v[0].line : 0);
	config_free(&c);
	diag_free(&dl);
}

/* Command-line print settings over site.toml's: what each sets, and which is bad. */
static void
test_print_overrides(void)
{
	struct config c;
	struct diag_list dl;
	struct print_overrides all = { "a5", "business", "short-edge", "lines", "0.5mm, -1mm", "full" };
	struct print_overrides none = { NULL, NULL, NULL, NULL, NULL, NULL };
	struct print_overrides bad_card = { "a4", "a77", NULL, NULL, NULL, NULL };
	struct print_overrides bad_offset = { NULL, NULL, NULL, NULL, "left", NULL };
	struct print_overrides bad_layout = { NULL, NULL, NULL, NULL, NULL, "ful" };

	CHECK_GROUP("config print overrides");
	S_load("[print]\npaper = \"letter\"\ncard = \"a6\"\n", &c, &dl);
	CHECK_INT(config_apply_print(&c.print, &none), PRINT_OVERRIDE_OK, "nothing given: nothing to refuse");
	CHECK_STR(c.print.paper_name, "letter", "nothing given: site.toml's paper stays");
	CHECK_INT(config_apply_print(&c.print, &all), PRINT_OVERRIDE_OK, "every setting given");
	CHECK_STR(c.print.paper_name, "a5", "the paper's name as written");
	CHECK(c.print.paper_w == 148 && c.print.paper_h == 210, "a5 is 148x210 mm");
	CHECK_STR(c.print.card_name, "business", "the card's name as written");
	CHECK(c.print.card_w == 85 && c.print.card_h == 55, "business is 85x55 mm");
	CHECK_INT(c.print.duplex, DUPLEX_SHORT_EDGE, "duplex");
	CHECK_INT(c.print.cut_marks, CUT_LINES, "cut marks");
	CHECK(c.print.back_offset_x == 0.5 && c.print.back_offset_y == -1, "back offset");
	CHECK_INT(c.print.layout, LAYOUT_FULL, "layout");
	CHECK_INT(config_apply_print(&c.print, &bad_layout), PRINT_BAD_LAYOUT, "an unknown layout is named as such");
	CHECK_INT(config_apply_print(&c.print, &bad_card), PRINT_BAD_CARD, "an unknown card is named as such");
	CHECK_INT(config_apply_print(&c.print, &bad_offset), PRINT_BAD_BACK_OFFSET, "a bad offset is named as such");
	config_free(&c);
	diag_free(&dl);
}

int
main(void)
{
	test_defaults();
	test_every_key();
	test_sizes();
	test_nearest();
	test_bad_inputs();
	test_huge_file();
	test_syntax_error();
	test_print_overrides();
	return check_finish();
}

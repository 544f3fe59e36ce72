/*
 * lang: filling placeholders, the plural forms of the shipped languages,
 * the order tables override one another in, and English where a table
 * says nothing. The tables are quizdeck's own i18n/ (found beside the
 * test program, as the build finds it) and a site written here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config.h"
#include "diag.h"
#include "lang.h"
#include "util.h"

static char S_root[64];

static void
S_put(const char *rel, const char *text)
{
	char *path = path_join(S_root, rel);

	if (file_write(path, text, strlen(text)) == -1) {
		perror(path);
		exit(2);
	}
	free(path);
}

/* A site whose site.toml is text, its tables loaded; the diagnostics, one a line, into diags. */
static struct lang *
S_load(const char *text, struct config *c, struct buf *diags)
{
	struct diag_list dl;
	struct lang *l;
	char *path;
	size_t i;

	S_put("site.toml", text);
	path = path_join(S_root, "site.toml");
	diag_init(&dl);
	if (config_load(c, path, &dl) == -1) {
		fprintf(stderr, "lang_test: site.toml does not load\n");
		exit(2);
	}
	free(path);
	l = lang_load(S_root, c, &dl);
	buf_init(diags);
	buf_put(diags, "", 0);
	for (i = 0; i < dl.len; i++)
		buf_printf(diags, "%d:%d: %s\n", dl.v[i].line, dl.v[i].col, dl.v[i].message);
	diag_free(&dl);
	return l;
}

static void
test_format(void)
{
	struct config c;
	struct buf d;
	struct lang *l = S_load("", &c, &d);
	char *s;

	CHECK_GROUP("lang format");
	CHECK_STR(d.data, "", "English loads with no diagnostic");
	CHECK_STR(lang_tag(l), "en", "the tag of a site that names none");
	CHECK_INT(lang_rtl(l), 0, "English is left to right");
	s = lang_format(l, "html.chapter-eyebrow", "n", "3", "total", "10", NULL);
	CHECK_STR(s, "Guide \xc2\xb7 Chapter 3 of 10", "two placeholders filled");
	free(s);
	s = lang_format(l, "html.chapter-eyebrow", "total", "10", NULL);
	CHECK_STR(s, "Guide \xc2\xb7 Chapter {n} of 10", "a placeholder with no value stays as written");
	free(s);
	s = lang_format(l, "html.title-test", "title", "{n} & <b>", NULL);
	CHECK_STR(s, "Practice test: {n} & <b>", "a value is put in as it is, never read for placeholders");
	free(s);
	CHECK_STR(lang_get(l, "no.such-key"), "no.such-key", "a key no table has reads as itself");
	CHECK_INT(lang_has(l, "no.such-key"), 0, "and lang_has says so");
	CHECK_INT(lang_has(l, "nav.home"), 1, "a key of en.toml is there");
	lang_free(l);
	buf_free(&d);
	config_free(&c);
}

static void
test_plural_forms(void)
{
	static const long n[] = { 0, 1, 2, 3, 11, 100, 101 };
	static const char *const en[] = { "other", "one", "other", "other", "other", "other", "other" };
	static const char *const ar[] = { "zero", "one", "two", "few", "many", "other", "other" };
	size_t i;

	CHECK_GROUP("lang plural forms");
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		CHECK_STR(lang_plural_form("en", n[i]), en[i], "en %ld", n[i]);
		CHECK_STR(lang_plural_form("de", n[i]), en[i], "de %ld", n[i]);
		CHECK_STR(lang_plural_form("de-AT", n[i]), en[i], "de-AT %ld, as de", n[i]);
		CHECK_STR(lang_plural_form("ar", n[i]), ar[i], "ar %ld", n[i]);
	}
	CHECK_STR(lang_plural_form("ar", 210), "few", "ar 210 (10 after the hundreds)");
	CHECK_STR(lang_plural_form("ar", 1011), "many", "ar 1011 (11 after the hundreds)");
}

static void
test_plural_strings(void)
{
	static const long n[] = { 0, 1, 2, 3, 11, 100, 101 };
	static const char *const en[] = { "0 questions", "1 question", "2 questions", "3 questions",
		"11 questions", "100 questions", "101 questions" };
	static const char *const de[] = { "0 Fragen", "1 Frage", "2 Fragen", "3 Fragen",
		"11 Fragen", "100 Fragen", "101 Fragen" };
	static const char *const ar[] = { "\xd9\x84\xd8\xa7 \xd8\xa3\xd8\xb3\xd8\xa6\xd9\x84\xd8\xa9",
		"\xd8\xb3\xd8\xa4\xd8\xa7\xd9\x84 \xd9\x88\xd8\xa7\xd8\xad\xd8\xaf",
		"\xd8\xb3\xd8\xa4\xd8\xa7\xd9\x84\xd8\xa7\xd9\x86",
		"3 \xd8\xa3\xd8\xb3\xd8\xa6\xd9\x84\xd8\xa9",
		"11 \xd8\xb3\xd8\xa4\xd8\xa7\xd9\x84\xd9\x8b\xd8\xa7",
		"100 \xd8\xb3\xd8\xa4\xd8\xa7\xd9\x84", "101 \xd8\xb3\xd8\xa4\xd8\xa7\xd9\x84" };
	const char *const *want[] = { en, de, ar };
	static const char *const tags[] = { "en", "de", "ar" };
	size_t k, i;

	CHECK_GROUP("lang plural strings");
	for (k = 0; k < 3; k++) {
		struct config c;
		struct buf d;
		char *toml = xasprintf("language = \"%s\"\n", tags[k]);
		struct lang *l = S_load(toml, &c, &d);

		CHECK_STR(d.data, "", "%s loads with no diagnostic", tags[k]);
		for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
			char *s = lang_plural(l, "counts.questions", n[i], NULL);

			CHECK_STR(s, want[k][i], "%s: %ld questions", tags[k], n[i]);
			free(s);
		}
		if (k == 2)
			CHECK_INT(lang_rtl(l), 1, "Arabic is right to left");
		lang_free(l);
		buf_free(&d);
		config_free(&c);
		free(toml);
	}
}

static void
test_overrides(void)
{
	struct config c;
	struct buf d;
	struct lang *l;
	char *s;

	CHECK_GROUP("lang overrides");
	S_put("i18n/de.toml", "[nav]\nhome = \"Anfang\"\nguide = \"Buch\"\n");
	l = S_load("language = \"de\"\n[strings]\n\"nav.guide\" = \"Handbuch\"\n"
	    "[strings.counts.cards]\none = \"eine Karte\"\nother = \"{n} Kärtchen\"\n", &c, &d);
	CHECK_STR(d.data, "", "no diagnostic");
	CHECK_STR(lang_get(l, "nav.home"), "Anfang", "the site's i18n/de.toml over quizdeck's");
	CHECK_STR(lang_get(l, "nav.guide"), "Handbuch", "site.toml's [strings] over the site's table");
	CHECK_STR(lang_get(l, "nav.deck"), "Lernkarten", "quizdeck's German where the site says nothing");
	s = lang_plural(l, "counts.cards", 1, NULL);
	CHECK_STR(s, "eine Karte", "a plural form from [strings], without its count");
	free(s);
	s = lang_plural(l, "counts.cards", 7, NULL);
	CHECK_STR(s, "7 K\xc3\xa4rtchen", "its other form");
	free(s);
	lang_free(l);
	buf_free(&d);
	config_free(&c);
}

static void
test_fallback(void)
{
	struct config c;
	struct buf d;
	struct lang *l;

	CHECK_GROUP("lang fallback");
	S_put("i18n/xx.toml", "[language]\nname = \"X\"\ndir = \"rtl\"\n[nav]\nhome = \"Xhome\"\n");
	l = S_load("language = \"xx\"\n", &c, &d);
	CHECK_STR(d.data, "", "a site's own language: no warning");
	CHECK_STR(lang_get(l, "nav.home"), "Xhome", "its string");
	CHECK_STR(lang_get(l, "nav.guide"), "Guide", "a key it lacks reads as English");
	CHECK_INT(lang_rtl(l), 1, "its dir");
	lang_free(l);
	buf_free(&d);
	config_free(&c);

	l = S_load("language = \"qq\"\n", &c, &d);
	CHECK(strstr(d.data, "1:1: no strings for language \"qq\": the pages are in English") != NULL,
	    "an unknown language is a warning at site.toml's language");
	CHECK_STR(lang_get(l, "nav.guide"), "Guide", "and English");
	CHECK_STR(lang_tag(l), "qq", "the pages keep the tag the site gave");
	lang_free(l);
	buf_free(&d);
	config_free(&c);

	l = S_load("[strings]\n\"nav.hme\" = \"Start\"\n\"html.title-test\" = \"Test: {name}\"\n", &c, &d);
	CHECK(strstr(d.data, "2:1: no string is called \"nav.hme\"; did you mean \"nav.home\"?") != NULL,
	    "an unknown key: did you mean");
	CHECK(strstr(d.data, "3:1: string \"html.title-test\" has {name}, which is never filled") != NULL,
	    "a placeholder English lacks");
	CHECK_STR(lang_get(l, "html.title-test"), "Practice test: {title}", "which leaves English in place");
	lang_free(l);
	buf_free(&d);
	config_free(&c);
}

int
main(void)
{
	strcpy(S_root, "/tmp/quizdeck-lang-XXXXXX");
	if (mkdtemp(S_root) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	test_format();
	test_plural_forms();
	test_plural_strings();
	test_overrides();
	test_fallback();
	dir_remove(S_root);
	return check_finish();
}

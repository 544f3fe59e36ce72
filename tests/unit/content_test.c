/*
 * content: classification by path, front matter (a table of inputs, each
 * with the exact diagnostics it must give), UTF-8 checks and the walk.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "check.h"
#include "content.h"
#include "diag.h"
#include "toml.h"
#include "util.h"
#include "site_fixture.h"

static void
test_classify(void)
{
	static const struct {
		const char *rel;
		enum source_kind kind;
	} cases[] = {
		{ "index.md", SOURCE_HOME },
		{ "quiz/t/_index.md", SOURCE_TEST_INDEX },
		{ "quiz/t/topic.md", SOURCE_TOPIC },
		{ "quiz/single.md", SOURCE_TEST_FILE },
		{ "quiz/_index.md", SOURCE_OTHER_MD },
		{ "quiz/t/deeper/x.md", SOURCE_OTHER_MD },
		{ "cards/deck.md", SOURCE_DECK },
		{ "cards/_index.md", SOURCE_OTHER_MD },
		{ "cards/sub/deck.md", SOURCE_OTHER_MD },
		{ "guide/ring.md", SOURCE_CHAPTER },
		{ "guide/part/ring.md", SOURCE_CHAPTER },
		{ "guide/part/_index.md", SOURCE_CHAPTER },
		{ "about.md", SOURCE_OTHER_MD },
		{ "README.md", SOURCE_OTHER_MD },
		{ "quiz/t/README.md", SOURCE_OTHER_MD },
		{ "cards/README.md", SOURCE_OTHER_MD },
		{ "guide/README.md", SOURCE_CHAPTER },
		{ "guide/part/README.md", SOURCE_CHAPTER },
		{ "guide/ring.svg", SOURCE_ASSET },
		{ "quiz/t/figure.png", SOURCE_ASSET },
		{ "notes.MD", SOURCE_ASSET },
	};
	size_t i;

	CHECK_GROUP("classify");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_INT(content_classify(cases[i].rel), cases[i].kind, "%s", cases[i].rel);
}

/* Runs the front-matter pass over text as a file of the given kind. */
static char *
S_front(const char *text, enum source_kind kind, struct source *src)
{
	struct diag_list dl;
	char *s;

	memset(src, 0, sizeof(*src));
	src->rel = "f.md";
	src->display = "f.md";
	src->kind = kind;
	src->data = xstrdup(text);
	src->len = strlen(text);
	diag_init(&dl);
	content_front_matter(src, &dl);
	s = diag_join(&dl);
	diag_free(&dl);
	return s;
}

static void
S_src_done(struct source *src)
{
	front_matter_free(&src->fm);
	free(src->data);
}

static void
test_front_matter_table(void)
{
	static const struct {
		const char *name;
		enum source_kind kind;
		const char *text;
		const char *want;      /* every diagnostic, one a line */
	} cases[] = {
		{ "none", SOURCE_CHAPTER, "# Title\n", "" },
		{ "all common keys", SOURCE_CHAPTER,
		  "+++\ntitle = \"T\"\ndescription = \"D\"\nweight = 3\ndraft = false\n+++\nbody\n", "" },
		{ "difficulty in a topic", SOURCE_TOPIC, "+++\ndifficulty = \"hard\"\n+++\n", "" },
		{ "difficulty in a one-file test", SOURCE_TEST_FILE, "+++\ndifficulty = \"easy\"\n+++\n", "" },
		{ "extra is free", SOURCE_DECK,
		  "+++\ntitle = \"T\"\n[extra]\nanything = [1, 2]\nnested = { a = 1 }\n+++\n", "" },
		{ "unknown key", SOURCE_CHAPTER, "+++\ntitle = \"T\"\nauthor = \"me\"\n+++\n",
		  "f.md:3:1: error: unknown front-matter key \"author\": expected title, description, weight or draft; put keys of your own under [extra]" },
		{ "unknown key in a question file", SOURCE_TOPIC, "+++\ntags = []\n+++\n",
		  "f.md:2:1: error: unknown front-matter key \"tags\": expected title, description, weight, draft or difficulty; put keys of your own under [extra]" },
		{ "a misspelt key", SOURCE_CHAPTER, "+++\ntitel = \"T\"\n+++\n",
		  "f.md:2:1: error: unknown front-matter key \"titel\"; did you mean \"title\"? (keys of your own go under [extra])" },
		{ "a key in the wrong case", SOURCE_DECK, "+++\nDraft = true\n+++\n",
		  "f.md:2:1: error: unknown front-matter key \"Draft\"; did you mean \"draft\"? (keys of your own go under [extra])" },
		{ "a misspelt table", SOURCE_CHAPTER, "+++\n[extras]\nx = 1\n+++\n",
		  "f.md:2:2: error: unknown front-matter key \"extras\"; did you mean \"extra\"? (keys of your own go under [extra])" },
		{ "a misspelt difficulty in a question file", SOURCE_TOPIC, "+++\ndificulty = \"easy\"\n+++\n",
		  "f.md:2:1: error: unknown front-matter key \"dificulty\"; did you mean \"difficulty\"? (keys of your own go under [extra])" },
		{ "unknown table", SOURCE_CHAPTER, "+++\n[params]\nx = 1\n+++\n",
		  "f.md:2:2: error: unknown front-matter key \"params\": expected title, description, weight or draft; put keys of your own under [extra]" },
		{ "title not a string", SOURCE_CHAPTER, "+++\ntitle = 3\n+++\n",
		  "f.md:2:9: error: \"title\" must be a string, not an integer" },
		{ "empty title", SOURCE_CHAPTER, "+++\ntitle = \"\"\n+++\n",
		  "f.md:2:9: error: \"title\" may not be empty: leave it out to use the first # heading" },
		{ "weight not an integer", SOURCE_CHAPTER, "+++\nweight = \"2\"\n+++\n",
		  "f.md:2:10: error: \"weight\" must be an integer, not a string" },
		{ "weight a float", SOURCE_CHAPTER, "+++\nweight = 1.5\n+++\n",
		  "f.md:2:10: error: \"weight\" must be an integer, not a float" },
		{ "weight out of range", SOURCE_CHAPTER, "+++\nweight = 99999999999\n+++\n",
		  "f.md:2:10: error: \"weight\" must be from -1000000000 to 1000000000" },
		{ "draft not a boolean", SOURCE_CHAPTER, "+++\ndraft = \"yes\"\n+++\n",
		  "f.md:2:9: error: \"draft\" must be a boolean (true or false), not a string" },
		{ "description an array", SOURCE_DECK, "+++\ndescription = [\"a\"]\n+++\n",
		  "f.md:2:15: error: \"description\" must be a string, not an array" },
		{ "difficulty outside quiz", SOURCE_CHAPTER, "+++\ndifficulty = \"easy\"\n+++\n",
		  "f.md:2:1: error: \"difficulty\" applies only to question files in content/quiz" },
		{ "difficulty misspelt", SOURCE_TOPIC, "+++\ndifficulty = \"medum\"\n+++\n",
		  "f.md:2:14: error: \"difficulty\" must be \"easy\", \"medium\" or \"hard\", not \"medum\"" },
		{ "difficulty not a string", SOURCE_TOPIC, "+++\ndifficulty = 2\n+++\n",
		  "f.md:2:14: error: \"difficulty\" must be a string, not an integer" },
		{ "extra not a table", SOURCE_CHAPTER, "+++\nextra = 1\n+++\n",
		  "f.md:2:9: error: \"extra\" must be a table ([extra]), not an integer" },
		{ "date value", SOURCE_CHAPTER, "+++\ntitle = 2024-01-02\n+++\n",
		  "f.md:2:9: error: \"title\" must be a string, not a local date" },
		{ "several at once", SOURCE_TOPIC, "+++\ntitle = 1\nweight = true\nfoo = 2\n+++\n",
		  "f.md:2:9: error: \"title\" must be a string, not an integer\n"
		  "f.md:3:10: error: \"weight\" must be an integer, not a boolean\n"
		  "f.md:4:1: error: unknown front-matter key \"foo\": expected title, description, weight, draft or difficulty; put keys of your own under [extra]" },
		{ "never closed", SOURCE_CHAPTER, "+++\ntitle = \"T\"\n\n# Body\n",
		  "f.md:1:1: error: front matter opened with +++ is never closed: add a line +++ after it" },
		{ "YAML", SOURCE_CHAPTER, "---\ntitle: Hello\n---\n\n# Body\n",
		  "f.md:1:1: error: front matter must be TOML between +++ lines, not YAML between ---" },
		{ "a thematic break is not YAML", SOURCE_CHAPTER, "---\n\nText\n", "" },
		{ "key with NUL", SOURCE_CHAPTER, "+++\ntitle = \"a\\u0000b\"\n+++\n",
		  "f.md:2:9: error: \"title\" may not contain a NUL character" },
	};
	size_t i;

	CHECK_GROUP("front matter");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct source src;
		char *got = S_front(cases[i].text, cases[i].kind, &src);

		CHECK_STR(got, cases[i].want, "%s", cases[i].name);
		free(got);
		S_src_done(&src);
	}
}

static void
test_front_matter_fields(void)
{
	struct source src;
	char *got;

	CHECK_GROUP("front matter fields");
	got = S_front("+++\ntitle = \"Ring\"\ndescription = \"D\"\nweight = -2\ndraft = true\n"
	    "difficulty = \"hard\"\n[extra]\nk = 1\n+++\n\n## Body\n", SOURCE_TOPIC, &src);
	CHECK_STR(got, "", "no diagnostics");
	CHECK_STR(src.fm.title, "Ring", "title");
	CHECK_STR(src.fm.description, "D", "description");
	CHECK_INT(src.fm.weight, -2, "weight");
	CHECK_INT(src.fm.has_weight, 1, "has_weight");
	CHECK_INT(src.fm.draft, 1, "draft");
	CHECK(src.fm.draft_line == 5 && src.fm.draft_col == 9, "draft's value at 5:9 (got %d:%d)",
	    src.fm.draft_line, src.fm.draft_col);
	CHECK_INT(src.fm.difficulty, DIFF_HARD, "difficulty");
	CHECK_INT(src.fm.difficulty_line, 6, "difficulty's line");
	CHECK(src.fm.extra != NULL && toml_get(src.fm.extra, "k") != NULL, "extra");
	CHECK_INT(src.body_line, 10, "the body starts after the closing +++");
	CHECK_STR(src.body, "\n## Body\n", "the body");
	free(got);
	S_src_done(&src);

	got = S_front("+++\r\ntitle = \"CRLF\"\r\n+++\r\nBody\r\n", SOURCE_CHAPTER, &src);
	CHECK_STR(got, "", "CRLF line ends");
	CHECK_STR(src.fm.title, "CRLF", "title through CRLF");
	CHECK_STR(src.body, "Body\r\n", "body after CRLF");
	CHECK_INT(src.body_line, 4, "body line");
	free(got);
	S_src_done(&src);

	got = S_front("\xEF\xBB\xBF+++\ntitle = \"BOM\"\n+++\nx", SOURCE_CHAPTER, &src);
	CHECK_STR(got, "", "a byte-order mark");
	CHECK_STR(src.fm.title, "BOM", "front matter after a BOM");
	free(got);
	S_src_done(&src);

	got = S_front("+++  \ntitle = \"T\"\n+++\t", SOURCE_CHAPTER, &src);
	CHECK_STR(got, "", "fences with trailing blanks, no final newline");
	CHECK_INT(src.body_len, 0, "empty body");
	free(got);
	S_src_done(&src);

	got = S_front("+++\n+++\n# T\n", SOURCE_CHAPTER, &src);
	CHECK_STR(got, "", "empty front matter");
	CHECK(src.fm.title == NULL && !src.fm.has_weight, "nothing set");
	CHECK_INT(src.fm.difficulty, DIFF_NONE, "difficulty none");
	free(got);
	S_src_done(&src);

	got = S_front("+++\ntitle = \"x\nweight = 2\n+++\n", SOURCE_CHAPTER, &src);
	CHECK(strncmp(got, "f.md:2:", 7) == 0, "a TOML error at its line in the file: %s", got);
	CHECK_INT(src.fm.error, 1, "flagged");
	free(got);
	S_src_done(&src);

	got = S_front("+++\ntitle = \"T\"\n\nweight = 1\nweight = 2\n+++\n", SOURCE_CHAPTER, &src);
	CHECK(strncmp(got, "f.md:5:", 7) == 0, "a duplicate key at line 5: %s", got);
	free(got);
	S_src_done(&src);

	got = S_front("Text\n+++\ntitle = 1\n+++\n", SOURCE_CHAPTER, &src);
	CHECK_STR(got, "", "+++ below the top is Markdown");
	CHECK_INT(src.body_line, 1, "all body");
	free(got);
	S_src_done(&src);
}

/* content_load over a folder: bad UTF-8 at line:col, sorted walk, drafts. */
static void
test_load(void)
{
	static const struct {
		const char *rel, *bytes, *want;
	} bad[] = {
		{ "guide/a.md", "\xff\n", "content/guide/a.md:1:1: error: invalid UTF-8 (byte 0xff): save the file as UTF-8" },
		{ "guide/b.md", "# T\nab\xc3", "content/guide/b.md:2:3: error: invalid UTF-8 (byte 0xc3): save the file as UTF-8" },
		{ "guide/c.md", "# T\n\nx \xc0\xaf", "content/guide/c.md:3:3: error: invalid UTF-8 (byte 0xc0): save the file as UTF-8" },
		{ "guide/d.md", "é\xed\xa0\x80", "content/guide/d.md:1:3: error: invalid UTF-8 (byte 0xed): save the file as UTF-8" },
		{ "guide/e.md", "\xf4\x90\x80\x80", "content/guide/e.md:1:1: error: invalid UTF-8 (byte 0xf4): save the file as UTF-8" },
		{ "guide/f.md", "+++\ntitle = \"\x80\"\n+++\n", "content/guide/f.md:2:10: error: invalid UTF-8 (byte 0x80): save the file as UTF-8" },
	};
	struct source_set set;
	struct diag_list dl;
	char *dir;
	size_t i;
	int rc;

	CHECK_GROUP("load");
	fixture_begin();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *rel = path_join("content", bad[i].rel);

		fixture_put(rel, bad[i].bytes);
		free(rel);
	}
	fixture_put("content/guide/z.md", "# Fine\n");
	fixture_put("content/guide/draft.md", "+++\ndraft = true\n+++\n# Draft\n");
	fixture_put("content/guide/.hidden.md", "\xff");
	fixture_put("content/guide/img.png", "\x89PNG\xff\xff");
	fixture_put("content/quiz/t/_index.md", "+++\ntitle = \"T\"\n+++\n");
	fixture_put("content/.git/config", "x");
	dir = path_join(fixture_root, "content");
	diag_init(&dl);
	rc = content_load(&set, dir, "content", &dl);
	diag_sort(&dl);
	CHECK_INT(rc, -1, "errors make it fail");
	CHECK_INT(dl.len, sizeof(bad) / sizeof(bad[0]), "one diagnostic per bad file");
	for (i = 0; i < dl.len && i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *s = diag_format(&dl.v[i]);

		CHECK_STR(s, bad[i].want, "%s", bad[i].rel);
		free(s);
	}
	CHECK_INT(set.len, 9, "every file but the draft and dot files");
	for (i = 1; i < set.len; i++)
		if (strcmp(set.v[i - 1]->rel, set.v[i]->rel) >= 0)
			break;
	CHECK(i == set.len, "sorted by path");
	CHECK(content_find(&set, "guide/z.md") != NULL, "find a file");
	CHECK(content_find(&set, "guide/draft.md") == NULL, "a draft is left out");
	CHECK(content_is_draft(&set, "guide/draft.md"), "and remembered as a draft");
	CHECK(content_find(&set, "guide/.hidden.md") == NULL, "dot files are skipped");
	CHECK(content_find(&set, "guide/a.md") && content_find(&set, "guide/a.md")->broken,
	    "a file with bad UTF-8 stays, marked broken");
	CHECK(content_find(&set, "guide/img.png") &&
	    content_find(&set, "guide/img.png")->kind == SOURCE_ASSET,
	    "an asset, its bytes not checked");
	CHECK(content_find(&set, "quiz/t/_index.md") &&
	    strcmp(content_find(&set, "quiz/t/_index.md")->fm.title, "T") == 0,
	    "front matter read during the walk");
	content_free(&set);
	diag_free(&dl);

	diag_init(&dl);
	rc = content_load(&set, "/nonexistent/quizdeck", "content", &dl);
	CHECK_INT(rc, -1, "no content folder");
	CHECK_STR(fixture_diags(&dl),
	    "content: error: no content folder: the site's Markdown goes in content/",
	    "says where content goes");
	content_free(&set);
	diag_free(&dl);
	free(dir);
	dir_remove(fixture_root);
	free(fixture_text);
	fixture_text = NULL;
}

/*
 * file_read reads a source whole in one read when it is as long as
 * fstat says, around every boundary of its buffer and its 64 KiB chunk;
 * file_read_max stops at the limit and says the size.
 */
static void
test_file_read(void)
{
	static const size_t sizes[] = { 0, 1, 2, 4095, 65535, 65536, 65537, 200001 };
	char *path, *data, *want;
	size_t i, k, len;
	int rc;

	CHECK_GROUP("file_read");
	fixture_begin();
	path = path_join(fixture_root, "f.md");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		want = xmalloc(sizes[i] + 1);
		for (k = 0; k < sizes[i]; k++)
			want[k] = (char)('a' + (k * 7 + i) % 26);
		if (file_write(path, want, sizes[i]) == -1) {
			perror(path);
			exit(2);
		}
		data = NULL;
		rc = file_read(path, &data, &len);
		CHECK(rc == 0 && len == sizes[i] && memcmp(data, want, len) == 0 && data[len] == '\0',
		    "%zu bytes read back whole and NUL-terminated", sizes[i]);
		free(data);
		if (sizes[i] > 1) {
			rc = file_read_max(path, sizes[i] - 1, &data, &len);
			CHECK(rc == -2 && data == NULL && len == sizes[i],
			    "%zu bytes over a limit a byte less: -2 and the size", sizes[i]);
			rc = file_read_max(path, sizes[i], &data, &len);
			CHECK(rc == 0 && len == sizes[i], "%zu bytes at a limit of as many: read", sizes[i]);
			free(data);
		}
		free(want);
	}
	free(path);
	path = path_join(fixture_root, "missing.md");
	errno = 0;
	CHECK(file_read(path, &data, &len) == -1 && errno == ENOENT, "a missing file: -1, ENOENT");
	free(path);
	dir_remove(fixture_root);
}

/*
 * dir_remove takes a built site's folders, each usually holding one
 * index.html, in four calls each, and anything else by listing it; it
 * never follows a symbolic link out of the tree.
 */
static void
test_dir_remove(void)
{
	char *outside, *tree, *p;
	int rc;

	CHECK_GROUP("dir_remove");
	fixture_begin();
	fixture_put("outside/keep.txt", "kept");
	fixture_put("tree/index.html", "home");
	fixture_put("tree/guide/ring/index.html", "a page");
	fixture_put("tree/guide/index.html", "a section page, with folders beside it");
	fixture_put("tree/assets/site.css", "no index.html here");
	fixture_put("tree/more/index.html", "an index.html");
	fixture_put("tree/more/other.txt", "and another file");
	fixture_put("tree/odd/index.html/inside.txt", "index.html is a folder here");
	p = path_join(fixture_root, "tree/empty");
	dir_make(p);
	free(p);
	outside = path_join(fixture_root, "outside");
	p = path_join(fixture_root, "tree/guide/link");
	if (symlink(outside, p) == -1) {
		perror(p);
		exit(2);
	}
	free(p);
	tree = path_join(fixture_root, "tree");
	rc = dir_remove(tree);
	CHECK_INT(rc, 0, "the tree is removed without error");
	CHECK(!path_is_dir(tree), "and is gone");
	p = path_join(outside, "keep.txt");
	CHECK(path_is_file(p), "a symbolic link in it is removed, not followed");
	free(p);
	CHECK_INT(dir_remove(tree), 0, "removing what is not there succeeds");
	free(tree);
	free(outside);
	dir_remove(fixture_root);
}

/* content_find through the index content_load builds: every file found as itself, no other. */
static void
test_find(void)
{
	struct source_set set;
	struct diag_list dl;
	char rel[64];
	size_t i, found = 0, missing = 0;

	CHECK_GROUP("content_find");
	fixture_begin();
	for (i = 0; i < 300; i++) {
		char *path;

		snprintf(rel, sizeof(rel), "content/guide/part-%zu/ch-%05zu.md", i % 7, i);
		path = xstrdup(rel);
		fixture_put(path, "# T\n");
		free(path);
	}
	diag_init(&dl);
	memset(&set, 0, sizeof(set));
	{
		char *dir = path_join(fixture_root, "content");

		content_load(&set, dir, "content", &dl);
		free(dir);
	}
	CHECK(set.index != NULL && set.nindex >= 2 * set.len, "content_load indexes what it loaded");
	for (i = 0; i < 300; i++) {
		const struct source *src;

		snprintf(rel, sizeof(rel), "guide/part-%zu/ch-%05zu.md", i % 7, i);
		src = content_find(&set, rel);
		found += src != NULL && strcmp(src->rel, rel) == 0;
		snprintf(rel, sizeof(rel), "guide/part-%zu/ch-%05zu.md", (i + 1) % 7, i);
		missing += content_find(&set, rel) == NULL;
	}
	CHECK_INT((long)found, 300, "each of 300 files is found as itself");
	CHECK_INT((long)missing, 300, "and 300 names of no file find nothing");
	CHECK(content_find(&set, "") == NULL && content_find(&set, "guide") == NULL, "nor a folder");
	content_free(&set);
	diag_free(&dl);
	dir_remove(fixture_root);
}

int
main(void)
{
	test_classify();
	test_front_matter_table();
	test_front_matter_fields();
	test_load();
	test_file_read();
	test_dir_remove();
	test_find();
	return check_finish();
}

/*
 * scaffold: `quizdeck new DIR` writes a small site with one example of
 * each kind (of question: choices, all that apply, typed; of card:
 * basic, cloze, reversed), so a new author starts from something that
 * builds and sees every form.
 */
#include "scaffold.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct scaffold_file {
	const char *path;
	const char *text;
};

static const struct scaffold_file files[] = {
	/* What build writes: out/, and the staging folder beside it while it runs. */
	{ ".gitignore",
	  "/out/\n"
	  "/out.staging-*/\n"
	  "/out.old-*/\n" },
	{ "site.toml",
	  "title = \"My study notes\"\n"
	  "description = \"Practice questions, flashcards and notes.\"\n"
	  "language = \"en\"\n"
	  "theme = \"default\"\n"
	  "\n"
	  "[quiz]\n"
	  "questions = 10\n"
	  "reveal = \"each\"\n"
	  "\n"
	  "[print]\n"
	  "paper = \"a4\"\n"
	  "card = \"a7\"\n"
	  "duplex = \"long-edge\"\n" },
	{ "content/index.md",
	  "+++\n"
	  "title = \"My study notes\"\n"
	  "+++\n"
	  "\n"
	  "Start with the [practice test](quiz/first-test/_index.md), drill the\n"
	  "[flashcards](cards/basics.md), or read the [guide](guide/getting-started.md).\n" },
	{ "content/quiz/first-test/_index.md",
	  "+++\n"
	  "title = \"A first practice test\"\n"
	  "description = \"Three questions to show the format.\"\n"
	  "+++\n" },
	{ "content/quiz/first-test/basics.md",
	  "+++\n"
	  "title = \"Basics\"\n"
	  "weight = 1\n"
	  "+++\n"
	  "\n"
	  "## Which file holds a site's settings? {#settings-file .easy}\n"
	  "\n"
	  "- [ ] content/index.md\n"
	  "    > That is the home page's introduction.\n"
	  "- [x] site.toml\n"
	  "- [ ] out/index.html\n"
	  "    > out/ is generated; never edit it by hand.\n"
	  "\n"
	  "Settings live in `site.toml` at the site's root; see\n"
	  "[the guide](../../guide/getting-started.md#settings).\n"
	  "\n"
	  "## Which of these are kinds of content? {#kinds .medium}\n"
	  "\n"
	  "- [x] Practice tests\n"
	  "- [x] Flashcard decks\n"
	  "- [x] Guide chapters\n"
	  "- [ ] Spreadsheets\n"
	  "\n"
	  "Tests, decks and chapters; see [the guide](../../guide/getting-started.md#kinds-of-content).\n"
	  "\n"
	  "## Which command writes the site into out/? {#build .easy}\n"
	  "\n"
	  "- [x] = quizdeck build\n"
	  "- [ ] = quizdeck new\n"
	  "    > That makes a new site like this one.\n"
	  "\n"
	  "Options that start with `=` take a typed answer: a text like this one, or a\n"
	  "number with its tolerance, `= 0.2 \xc2\xb1 0.01`.\n" },
	{ "content/cards/basics.md",
	  "+++\n"
	  "title = \"Basics\"\n"
	  "description = \"Cards about the format.\"\n"
	  "+++\n"
	  "\n"
	  "## What is one card? {#card}\n"
	  "\n"
	  "A `##` heading (the front) and the blocks under it (the back).\n"
	  "\n"
	  "## Where do the printable cards go? {#print}\n"
	  "\n"
	  "To `out/print/basics.pdf`, ready to print double-sided.\n"
	  "\n"
	  "## A cloze card hides the {{c1::words}} its heading marks, a card per {{c2::number::which}} {#cloze}\n"
	  "\n"
	  "Write `{{c1::answer}}` or `{{c1::answer::hint}}` in a card's heading.\n"
	  "\n"
	  "## site.toml {#site-toml .reverse}\n"
	  "\n"
	  "The file of a site's settings; `.reverse` asks this card both ways.\n" },
	{ "content/guide/getting-started.md",
	  "+++\n"
	  "title = \"Getting started\"\n"
	  "weight = 1\n"
	  "+++\n"
	  "\n"
	  "## Settings {#settings}\n"
	  "\n"
	  "Everything about the site as a whole lives in `site.toml`.\n"
	  "\n"
	  "## Kinds of content {#kinds-of-content}\n"
	  "\n"
	  "Practice tests live in `content/quiz/`, flashcard decks in\n"
	  "`content/cards/` and chapters like this one in `content/guide/`.\n" },
};

/* 1 if dir is missing or an empty directory. */
static int
S_usable(const char *dir)
{
	DIR *d;
	struct dirent *de;
	int empty = 1;

	if ((d = opendir(dir)) == NULL)
		return errno == ENOENT;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

int
scaffold_write(const char *dir, struct diag_list *dl)
{
	size_t i;

	if (!S_usable(dir)) {
		diag_error(dl, NULL, 0, 0, "%s already exists and is not empty: choose a new folder", dir);
		return -1;
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = path_join(dir, files[i].path);
		int rc = file_write(path, files[i].text, strlen(files[i].text));

		if (rc == -1)
			diag_error(dl, NULL, 0, 0, "cannot write %s: %s", path, strerror(errno));
		free(path);
		if (rc == -1)
			return -1;
	}
	return 0;
}

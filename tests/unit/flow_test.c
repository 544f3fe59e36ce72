/*
 * flow_test: the typesetter's page rules, hyphenation and page
 * references, read from flow_dump's account of the pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flow.h"
#include "util.h"
#include "check.h"

#define DICTS "/usr/share/hyphen"

/* A page that holds about `lines` lines of 10 pt text, 200 pt wide. */
static struct flow *
S_flow(double lines, const char *dict)
{
	struct flow_style st;

	memset(&st, 0, sizeof(st));
	st.page_w = 260;
	st.page_h = 60 + lines * 13.62 + 0.5;
	st.margin_top = 30;
	st.margin_bottom = 30;
	st.margin_side = 30;
	st.size = 10;
	st.font = "Noto Serif";
	st.mono = "Noto Sans Mono";
	st.lang = "en";
	st.hyphen_dict = dict;
	return flow_new(&st);
}

static void
S_para(struct flow *f, enum flow_role role, const char *markup)
{
	struct flow_para p;

	memset(&p, 0, sizeof(p));
	p.markup = markup;
	p.role = role;
	p.dest = -1;
	flow_para(f, &p);
}

/* n words of filler, so a paragraph of about n/5 lines. */
static char *
S_words(int n)
{
	static const char *w[] = { "alpha", "beta", "gamma", "delta", "ring", "mesh", "tensor" };
	struct buf b;
	int i;

	buf_init(&b);
	for (i = 0; i < n; i++) {
		buf_puts(&b, i ? " " : "");
		buf_puts(&b, w[i % 7]);
	}
	buf_putc(&b, '\0');
	return buf_detach(&b);
}

static char *
S_dump(struct flow *f)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	flow_dump(f, fp);
	fclose(fp);
	return out;
}

struct piece_row {
	int page, block, l0, l1;
};

/* The pieces flow_dump lists, in order. */
static size_t
S_pieces(const char *dump, struct piece_row *v, size_t max)
{
	const char *s = dump;
	int page = 0;
	size_t n = 0;

	while (s && *s) {
		int a, b, c;

		if (sscanf(s, "page %d", &a) == 1)
			page = a;
		else if (sscanf(s, "  block %d lines %d-%d", &a, &b, &c) == 3 && n < max) {
			v[n].page = page;
			v[n].block = a;
			v[n].l0 = b;
			v[n].l1 = c;
			n++;
		}
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return n;
}

/*
 * A paragraph of every length after a filler of every length: a split
 * leaves at least two lines on each page, and a heading is never the
 * last thing on a page.
 */
static void
test_page_rules(void)
{
	int fill, words, bad_split = 0, bad_head = 0, splits = 0;
	struct piece_row v[64];

	CHECK_GROUP("flow page rules");
	for (fill = 1; fill <= 40; fill += 3)
		for (words = 5; words <= 60; words += 5) {
			struct flow *f = S_flow(8, NULL);
			char *a = S_words(fill), *b = S_words(words), *dump;
			const char *why = NULL;
			size_t n, i;

			flow_new_page(f, FLOW_PAGE_RUNNING, "verso", "recto");
			S_para(f, FLOW_BODY, a);
			S_para(f, FLOW_H2, "A heading");
			S_para(f, FLOW_BODY, b);
			S_para(f, FLOW_BODY, a);
			if (flow_write(f, NULL, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" },
			    NULL, &why) != 0)
				bad_split++;
			dump = S_dump(f);
			n = S_pieces(dump, v, 64);
			for (i = 0; i < n; i++) {
				int first = i == 0 || v[i - 1].block != v[i].block;
				int last = i + 1 == n || v[i + 1].block != v[i].block;

				if (!(first && last)) {
					splits++;
					if (v[i].l1 - v[i].l0 < 2) {
						bad_split++;
						printf("# fill %d words %d: a piece of one line\n%s", fill, words, dump);
					}
				}
				if (v[i].block == 2 && (i + 1 == n || v[i + 1].page != v[i].page)) {
					bad_head++;
					printf("# fill %d words %d: the heading ends a page\n%s", fill, words, dump);
				}
			}
			free(dump);
			free(a);
			free(b);
			flow_free(f);
		}
	CHECK(splits > 10, "paragraphs were split across pages (%d times)", splits);
	CHECK(bad_split == 0, "no split leaves one line alone at a page's foot or head (%d did)", bad_split);
	CHECK(bad_head == 0, "no heading ends a page (%d did)", bad_head);
}

/*
 * A table after a filler of every length: its first piece holds the
 * header row and at least one body row (a header alone at a page's foot
 * heads nothing). Some fillers leave room for the header only, so the
 * rule is met by moving the table, not by chance.
 */
static void
test_table_header(void)
{
	char *cells[8] = { "Name", "Size", "one", "1", "two", "2", "three", "3" };
	int header[4] = { 1, 0, 0, 0 }, fill, bad = 0, moved = 0;
	struct piece_row v[64];

	CHECK_GROUP("flow table header kept with a row");
	for (fill = 1; fill <= 80; fill += 2) {
		struct flow *f = S_flow(8, NULL);
		char *a = S_words(fill), *dump;
		const char *why = NULL;
		size_t n, i;

		flow_new_page(f, FLOW_PAGE_RUNNING, "verso", "recto");
		S_para(f, FLOW_BODY, a);
		flow_table(f, 2, 4, cells, header, "ll", 0, NULL, 0);
		if (flow_write(f, NULL, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" },
		    NULL, &why) != 0)
			bad++;
		dump = S_dump(f);
		n = S_pieces(dump, v, 64);
		for (i = 0; i < n; i++) {
			if (v[i].block != 2 || v[i].l0 != 0)
				continue;
			if (v[i].l1 < 2) {
				bad++;
				printf("# fill %d: the header alone\n%s", fill, dump);
			}
			/* On a page after the filler's last line, with nothing of the table before it. */
			if (i > 0 && v[i - 1].page != v[i].page)
				moved++;
		}
		free(dump);
		free(a);
		flow_free(f);
	}
	CHECK(bad == 0, "no table's header row is alone at a page's foot (%d were)", bad);
	CHECK(moved > 0, "some tables moved to the next page whole (%d)", moved);
}

/* Each line that ends in a hyphen, joined to the next line's first word, is a word of the text. */
static int
S_hyphen_breaks(const char *dump, const char *text, int *wrong)
{
	const char *s = dump;
	int n = 0;

	*wrong = 0;
	while ((s = strstr(s, "-\n    | ")) != NULL) {
		const char *start = s, *next = s + 8;
		char word[128];
		size_t a = 0, k;

		while (start > dump && start[-1] != ' ' && start[-1] != '|')
			start--;
		for (k = 0; start + k < s && a < sizeof(word) - 1; k++)
			word[a++] = start[k];
		for (k = 0; next[k] && next[k] != ' ' && next[k] != '\n' && a < sizeof(word) - 1; k++)
			word[a++] = next[k];
		word[a] = '\0';
		n++;
		if (!strstr(text, word)) {
			(*wrong)++;
			printf("# \"%s\" is not a word of the text\n", word);
		}
		s = next;
	}
	return n;
}

static void
test_hyphenation(void)
{
	const char *text = "Characteristically, internationalization considerations necessitate "
	    "extraordinarily comprehensive documentation, notwithstanding implementation "
	    "responsibilities and telecommunication infrastructure.";
	char *dict = flow_hyphen_dict(DICTS, "en-US"), *dump, *code;
	struct flow *f;
	const char *why;
	int wrong, n;

	CHECK_GROUP("flow hyphenation");
	if (!dict) {
		printf("skip flow hyphenation: no %s/hyph_en_US.dic (apt-get install hyphen-en-us)\n", DICTS);
		return;
	}
	f = S_flow(30, dict);
	S_para(f, FLOW_BODY, text);
	flow_write(f, NULL, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" }, NULL, &why);
	dump = S_dump(f);
	n = S_hyphen_breaks(dump, text, &wrong);
	CHECK(n > 0, "long words in a narrow column break at hyphens (%d)", n);
	CHECK(wrong == 0, "and every break is inside a word of the text");
	free(dump);
	flow_free(f);

	f = S_flow(30, NULL);
	S_para(f, FLOW_BODY, text);
	flow_write(f, NULL, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" }, NULL, &why);
	dump = S_dump(f);
	CHECK(S_hyphen_breaks(dump, text, &wrong) == 0, "without a dictionary, no hyphens");
	free(dump);
	flow_free(f);

	f = S_flow(30, dict);
	code = xconcat("<span insert_hyphens=\"false\">", text, "</span>", NULL);
	S_para(f, FLOW_BODY, code);
	flow_write(f, NULL, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" }, NULL, &why);
	dump = S_dump(f);
	CHECK(S_hyphen_breaks(dump, text, &wrong) == 0, "code is not hyphenated");
	free(dump);
	free(code);
	flow_free(f);
	free(dict);
}

/* A reference to a destination pages later reads that page, whatever the reference's own width. */
static void
test_page_refs(void)
{
	struct flow *f = S_flow(6, NULL);
	struct flow_link l;
	struct flow_para p;
	const char *why = NULL;
	char *dump, want[64];
	int d = flow_dest(f), i;

	CHECK_GROUP("flow page references");
	l.dest = d;
	l.uri = NULL;
	memset(&p, 0, sizeof(p));
	p.markup = "See " FLOW_LINK_BEGIN "the end" FLOW_LINK_END " (p. " FLOW_PAGE_REF ").";
	p.links = &l;
	p.nlinks = 1;
	p.dest = -1;
	flow_para(f, &p);
	for (i = 0; i < 12; i++) {
		char *w = S_words(40);

		S_para(f, FLOW_BODY, w);
		free(w);
	}
	memset(&p, 0, sizeof(p));
	p.markup = "The end";
	p.role = FLOW_H2;
	p.dest = d;
	p.outline = 1;
	p.outline_title = "The end";
	flow_para(f, &p);
	CHECK(flow_write(f, NULL, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" },
	    NULL, &why) == 0, "laid out");
	CHECK(flow_page_of(f, d) > 5, "the destination is pages on (page %d)", flow_page_of(f, d));
	CHECK(flow_page_of(f, d) == flow_pages(f), "on the last page");
	snprintf(want, sizeof(want), "See the end (p. %d).", flow_page_of(f, d));
	dump = S_dump(f);
	CHECK(strstr(dump, want) != NULL, "the reference reads \"%s\"", want);
	free(dump);
	flow_free(f);
}

/* Occurrences of needle in the n bytes at hay. */
static int
S_count(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;
	int c = 0;

	for (i = 0; i + k <= n; i++)
		if (memcmp(hay + i, needle, k) == 0)
			c++;
	return c;
}

/* Links in a table's cells are links of the PDF, each to its own place, a page reference among them. */
static void
test_table_links(void)
{
	char tmpl[] = "/tmp/flow_test.XXXXXX", *dir = mkdtemp(tmpl), *path = path_join(dir, "t.pdf");
	struct flow *f = S_flow(6, NULL);
	struct flow_link l[3];
	struct flow_para p;
	const char *why = NULL;
	char *cells[4], *pdf = NULL;
	int header[2] = { 1, 0 }, d = flow_dest(f), i;
	size_t len = 0;

	CHECK_GROUP("flow links in table cells");
	l[0].dest = d;
	l[0].uri = NULL;
	l[1].dest = -1;
	l[1].uri = "https://example.org/one";
	l[2].dest = -1;
	l[2].uri = "https://example.org/two";
	cells[0] = "Where";
	cells[1] = "Link";
	cells[2] = "See " FLOW_LINK_BEGIN "the end" FLOW_LINK_END " (p. " FLOW_PAGE_REF ")";
	cells[3] = FLOW_LINK_BEGIN "one" FLOW_LINK_END " and " FLOW_LINK_BEGIN "two" FLOW_LINK_END;
	flow_table(f, 2, 2, cells, header, "ll", 0, l, 3);
	for (i = 0; i < 12; i++) {
		char *w = S_words(40);

		S_para(f, FLOW_BODY, w);
		free(w);
	}
	memset(&p, 0, sizeof(p));
	p.markup = "The end";
	p.role = FLOW_H2;
	p.dest = d;
	flow_para(f, &p);
	CHECK(flow_write(f, path, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" },
	    NULL, &why) == 0, "written");
	CHECK(file_read(path, &pdf, &len) == 0, "read back");
	CHECK(S_count(pdf, len, "/Subtype /Link") == 3, "three links (%d)", S_count(pdf, len, "/Subtype /Link"));
	CHECK(S_count(pdf, len, "/URI (https://example.org/one)") == 1 &&
	    S_count(pdf, len, "/URI (https://example.org/two)") == 1, "each cell link to its own URI");
	CHECK(S_count(pdf, len, "/Dest (d0)") == 1, "the page reference's link to its destination");
	free(pdf);
	free(path);
	flow_free(f);
	dir_remove(dir);
}

static void
S_touch(const char *dir, const char *name)
{
	char *p = path_join(dir, name);

	file_write(p, "UTF-8\n", 6);
	free(p);
}

static void
test_dictionaries(void)
{
	char tmpl[] = "/tmp/flow_test.XXXXXX", *dir = mkdtemp(tmpl), *p;

	CHECK_GROUP("flow hyphenation dictionaries");
	S_touch(dir, "hyph_de_CH.dic");
	S_touch(dir, "hyph_de_AT.dic");
	S_touch(dir, "hyph_en.dic");
	S_touch(dir, "hyph_en_GB.dic");
	p = flow_hyphen_dict(dir, "de");
	CHECK(p && path_has_suffix(p, "/hyph_de_AT.dic"), "a language alone: its first region's (%s)", p);
	free(p);
	p = flow_hyphen_dict(dir, "de-CH");
	CHECK(p && path_has_suffix(p, "/hyph_de_CH.dic"), "a region: its own (%s)", p);
	free(p);
	p = flow_hyphen_dict(dir, "en-US");
	CHECK(p && path_has_suffix(p, "/hyph_en.dic"), "a region without one: the language's (%s)", p);
	free(p);
	p = flow_hyphen_dict(dir, "EN_gb");
	CHECK(p && path_has_suffix(p, "/hyph_en_GB.dic"), "in any case, with _ (%s)", p);
	free(p);
	CHECK(flow_hyphen_dict(dir, "fr") == NULL, "none for a language without one");
	CHECK(flow_hyphen_dict(dir, "") == NULL, "none for no language");
	dir_remove(dir);
}

/*
 * A paragraph kept with what follows it (flow_para.keep), and a box to
 * write in after it: wherever the filler before them ends, the box is on
 * the page of the paragraph's last line, and so is an option after a
 * kept one.
 */
static void
test_keep_box(void)
{
	int fill, apart = 0, seen = 0;
	struct piece_row v[64];

	CHECK_GROUP("flow keep and box");
	for (fill = 1; fill <= 60; fill += 2) {
		struct flow *f = S_flow(8, NULL);
		char *a = S_words(fill), *dump;
		struct flow_para p;
		const char *why = NULL;
		int para_page = 0, box_page = 0, opt_page[2] = { 0, 0 };
		size_t n, i;

		flow_new_page(f, FLOW_PAGE_RUNNING, "verso", "recto");
		S_para(f, FLOW_BODY, a);
		memset(&p, 0, sizeof(p));
		p.markup = "Write a number.";
		p.role = FLOW_OPTION;
		p.keep = 1;
		p.dest = -1;
		flow_para(f, &p);
		flow_box(f, 2, 2);
		p.markup = "The first option, kept with the next one";
		flow_para(f, &p);
		p.markup = "The last option";
		p.keep = 0;
		flow_para(f, &p);
		S_para(f, FLOW_BODY, a);
		flow_write(f, NULL, &(struct flow_meta){ "t", NULL, NULL, "2024-01-01T00:00:00Z" }, NULL, &why);
		dump = S_dump(f);
		n = S_pieces(dump, v, 64);
		for (i = 0; i < n; i++) {
			if (v[i].block == 2)
				para_page = v[i].page;
			if (v[i].block == 3)
				box_page = v[i].page;
			if (v[i].block == 4 || v[i].block == 5)
				opt_page[v[i].block - 4] = v[i].page;
		}
		seen += box_page > 0;
		if (para_page != box_page || opt_page[0] != opt_page[1] || box_page == 0)
			apart++;
		free(dump);
		free(a);
		flow_free(f);
	}
	CHECK(seen == 30, "every box is laid out (%d of 30)", seen);
	CHECK(apart == 0, "a box is never parted from what asks for it, nor a kept option from the next (%d)", apart);
}

int
main(void)
{
	test_dictionaries();
	test_hyphenation();
	test_page_rules();
	test_page_refs();
	test_keep_box();
	test_table_links();
	test_table_header();
	return check_finish();
}

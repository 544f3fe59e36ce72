/*
 * config: site.toml, every key of format.md with its default.
 */
#ifndef QUIZDECK_CONFIG_H
#define QUIZDECK_CONFIG_H

#include "diag.h"

enum reveal_mode { REVEAL_EACH, REVEAL_END };
enum duplex_mode { DUPLEX_LONG_EDGE, DUPLEX_SHORT_EDGE, DUPLEX_FOLD, DUPLEX_SINGLE };
enum cut_marks { CUT_CORNERS, CUT_LINES, CUT_NONE };
/* How cards sit on a sheet (impose.h): auto picks full where more fit. */
enum print_layout { LAYOUT_AUTO, LAYOUT_FULL, LAYOUT_MARGINS };

struct print_config {
	char *paper_name;          /* as written: "a4", "letter", "210x297mm" */
	double paper_w, paper_h;   /* millimetres, portrait */
	char *card_name;           /* "a7", "business", "74x105mm" */
	double card_w, card_h;     /* millimetres */
	enum duplex_mode duplex;
	enum cut_marks cut_marks;
	enum print_layout layout;
	char *font;                /* fontconfig family */
	double min_font_size;      /* points */
	double back_offset_x;      /* millimetres, added to every back page */
	double back_offset_y;
};

/* One string of site.toml's [strings] (lang.h), its key dotted. */
struct config_string {
	char *key;
	char *value;
	int line, col;
};

struct config {
	char *path;                /* the site.toml read, for diagnostics */
	char *title;
	char *description;
	char *language;
	int language_line, language_col;   /* where it was written; 0: not written */
	char *author;
	char *base_url;            /* "" when unset; never has a trailing slash */
	char *theme;
	char *site_id;             /* "" when unset: the pages then use a hash of title and base_url */
	struct {
		long questions;        /* default test length */
		enum reveal_mode reveal;
		long seconds_easy, seconds_medium, seconds_hard;
		double pass_mark;      /* 0..1 */
	} quiz;
	struct {
		int unsafe_html;
	} markdown;
	struct print_config print;
	struct config_string *strings;     /* [strings], in the order written */
	size_t nstrings;
	struct {
		long max_file_size;    /* bytes per Markdown file (and site.toml) */
		long max_elements;     /* Markdown elements (cmark nodes) per file */
	} limits;
};

/*
 * The default limits: what one hostile file may cost. Parsing takes
 * memory in proportion to a file's bytes (most for a file of one-letter
 * list items), and building in proportion to its elements (a heading
 * makes the page's, the contents' and the anchor's): each limit keeps its
 * worst case within an ordinary machine's memory, and lies far above
 * what real chapters and decks hold.
 */
#define CONFIG_MAX_FILE_SIZE (8L * 1024 * 1024)
#define CONFIG_MAX_ELEMENTS 500000L

/* Fills c with every default. */
void config_defaults(struct config *c);
/*
 * Reads site.toml at path into c (defaults first). A missing file is an
 * error; an empty one is a valid site. Returns 0 on success, -1 if a
 * diagnostic was added.
 */
int config_load(struct config *c, const char *path, struct diag_list *dl);
void config_free(struct config *c);

/* Paper and card sizes by name or "WxHmm" / "WxHin"; 0 on success, -1 if unknown. */
int config_paper_size(const char *name, double *w_mm, double *h_mm);
int config_card_size(const char *name, double *w_mm, double *h_mm);
int config_parse_duplex(const char *s, enum duplex_mode *out);
int config_parse_cut_marks(const char *s, enum cut_marks *out);
int config_parse_layout(const char *s, enum print_layout *out);
/* "0.5mm, -0.3mm" -> x, y in mm. 0 or -1. */
int config_parse_offset(const char *s, double *x_mm, double *y_mm);
const char *config_duplex_name(enum duplex_mode d);

/*
 * Print settings given on the command line, as written; NULL: not
 * given. They win over site.toml's [print] (site_options.print).
 */
struct print_overrides {
	const char *paper, *card, *duplex, *cut_marks, *back_offset, *layout;
};
enum print_override_error {
	PRINT_OVERRIDE_OK, PRINT_BAD_PAPER, PRINT_BAD_CARD, PRINT_BAD_DUPLEX,
	PRINT_BAD_CUT_MARKS, PRINT_BAD_BACK_OFFSET, PRINT_BAD_LAYOUT
};
/*
 * Applies po to pc. On the first setting that does not parse it stops
 * and says which; pc may then be half-changed.
 */
enum print_override_error config_apply_print(struct print_config *pc,
    const struct print_overrides *po);

/*
 * The names a [print] setting (and its `quizdeck print` option) accepts,
 * from the tables the parsers above read, so that help text, error
 * messages and the README (checked by a unit test) name the same ones.
 * config_choice_name gives the i-th in table order, or NULL past the
 * last. config_choice_list joins them for a message, "a, b or c"; with
 * other, the last alternative is other instead: "a, b, c, or other".
 * The caller frees the list. No name holds a '%'. Names are read
 * without regard to case ("A4", "Letter"). config_choice_nearest gives
 * the name nearest to a mistyped s, for "did you mean", or NULL.
 */
enum config_choice { CONFIG_PAPER, CONFIG_CARD, CONFIG_DUPLEX, CONFIG_CUT_MARKS, CONFIG_LAYOUT };
const char *config_choice_name(enum config_choice which, size_t i);
char *config_choice_list(enum config_choice which, const char *other);
const char *config_choice_nearest(enum config_choice which, const char *s);

#endif

/*
 * Unit tests for gen/toml.c: values and their positions, the
 * redefinition rules, and every error with its exact message and place.
 * The conformance suite (tests/toml-conformance.sh) covers the rest of
 * the grammar against toml-test.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "toml.h"
#include "util.h"

/*
 * Parses text from a heap copy of exactly its length, with no NUL after
 * it, so a read past the end shows up under ASan.
 */
static struct toml_value *
S_parse_n(const char *text, size_t len, struct toml_error *err)
{
	char *copy = xmalloc(len ? len : 1);
	struct toml_value *root;

	memcpy(copy, text, len);
	root = toml_parse(copy, len, err);
	free(copy);
	return root;
}

static struct toml_value *
S_parse(const char *text, struct toml_error *err)
{
	return S_parse_n(text, strlen(text), err);
}

static void
test_scalars(void)
{
	struct toml_error err;
	struct toml_value *root, *v;
	const char *doc =
	    "title = \"TOML \\\"x\\\"\"\n"
	    "lit = 'C:\\path'\n"
	    "int = -9223372036854775808\n"
	    "max = 9223372036854775807\n"
	    "hex = 0xDEAD_beef\n"
	    "oct = 0o755\n"
	    "bin = 0b1101\n"
	    "flt = 6.626e-34\n"
	    "neg_inf = -inf\n"
	    "nan = nan\n"
	    "yes = true\n"
	    "no = false\n"
	    "nul = \"a\\u0000b\"\n"
	    "emoji = \"\\U0001F600\"\n";

	CHECK_GROUP("toml scalars");
	root = S_parse(doc, &err);
	CHECK(root != NULL, "document parses%s%s", root ? "" : ": ", root ? "" : err.message);
	if (root == NULL)
		return;
	CHECK_STR(toml_get(root, "title")->u.s.ptr, "TOML \"x\"", "basic string escapes");
	CHECK_STR(toml_get(root, "lit")->u.s.ptr, "C:\\path", "literal string keeps backslash");
	CHECK(toml_get(root, "int")->u.i == INT64_MIN, "INT64_MIN");
	CHECK(toml_get(root, "max")->u.i == INT64_MAX, "INT64_MAX");
	CHECK_INT(toml_get(root, "hex")->u.i, 0xDEADBEEF, "hex with underscore");
	CHECK_INT(toml_get(root, "oct")->u.i, 0755, "octal");
	CHECK_INT(toml_get(root, "bin")->u.i, 13, "binary");
	CHECK(toml_get(root, "flt")->u.f == 6.626e-34, "float with exponent");
	v = toml_get(root, "neg_inf");
	CHECK(v->type == TOML_FLOAT && isinf(v->u.f) && v->u.f < 0, "-inf");
	CHECK(isnan(toml_get(root, "nan")->u.f), "nan");
	CHECK(toml_get(root, "yes")->u.b == 1 && toml_get(root, "no")->u.b == 0, "booleans");
	v = toml_get(root, "nul");
	CHECK(v->u.s.len == 3 && memcmp(v->u.s.ptr, "a\0b", 4) == 0, "\\u0000 kept, len counts it");
	CHECK_STR(toml_get(root, "emoji")->u.s.ptr, "\xF0\x9F\x98\x80", "\\U escape to UTF-8");
	CHECK_STR(toml_type_name(toml_get(root, "yes")->type), "boolean", "type name");
	CHECK(toml_get(root, "missing") == NULL, "absent key is NULL");
	toml_free(root);
}

static void
test_multiline_strings(void)
{
	static const struct {
		const char *toml, *want;
	} cases[] = {
		{ "s = \"\"\"\nline\"\"\"", "line" },
		{ "s = \"\"\"\r\nline\r\nnext\"\"\"", "line\r\nnext" },
		{ "s = \"\"\"a \\\n   \n  b\"\"\"", "a b" },
		{ "s = \"\"\"a \\  \t\n  b\"\"\"", "a b" },
		{ "s = \"\"\"\"x\"\"\"\"", "\"x\"" },
		{ "s = \"\"\"\"\"x\"\"\"\"\"", "\"\"x\"\"" },
		{ "s = \"\"\"\"\"\"", "" },
		{ "s = '''''x'''''", "''x''" },
		{ "s = '''\nC:\\n'''", "C:\\n" },
		{ "s = '''a\n\n b'''", "a\n\n b" },
	};
	struct toml_error err;
	struct toml_value *root;
	size_t i;

	CHECK_GROUP("toml multi-line strings");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		root = S_parse(cases[i].toml, &err);
		CHECK_STR(root ? toml_get(root, "s")->u.s.ptr : err.message, cases[i].want,
		    "case %zu", i);
		toml_free(root);
	}
}

static void
test_datetimes(void)
{
	struct toml_error err;
	struct toml_value *root, *v;
	const char *doc =
	    "odt = 1979-05-27T00:32:00.999999-07:00\n"
	    "z = 1979-05-27 07:32:00z\n"
	    "ldt = 1979-05-27t07:32:00.1234567891234\n"
	    "ld = 2000-02-29\n"
	    "lt = 23:59:60\n";

	CHECK_GROUP("toml date-times");
	root = S_parse(doc, &err);
	CHECK(root != NULL, "document parses%s%s", root ? "" : ": ", root ? "" : err.message);
	if (root == NULL)
		return;
	v = toml_get(root, "odt");
	CHECK(v->type == TOML_DATETIME && v->u.dt.year == 1979 && v->u.dt.month == 5 &&
	    v->u.dt.day == 27 && v->u.dt.hour == 0 && v->u.dt.minute == 32 &&
	    v->u.dt.second == 0, "offset date-time fields");
	CHECK_INT(v->u.dt.nanosecond, 999999000, "fraction in nanoseconds");
	CHECK_INT(v->u.dt.frac_digits, 6, "fraction digits as written");
	CHECK_INT(v->u.dt.offset_minutes, -420, "offset -07:00");
	CHECK(v->u.dt.has_offset && !v->u.dt.offset_z, "numeric offset");
	v = toml_get(root, "z");
	CHECK(v->type == TOML_DATETIME && v->u.dt.offset_z && v->u.dt.offset_minutes == 0,
	    "space separator and lower-case z");
	v = toml_get(root, "ldt");
	CHECK(v->type == TOML_DATETIME_LOCAL && !v->u.dt.has_offset, "local date-time");
	CHECK_INT(v->u.dt.nanosecond, 123456789, "digits past nanoseconds are dropped");
	CHECK_INT(v->u.dt.frac_digits, 9, "frac_digits stops at 9");
	v = toml_get(root, "ld");
	CHECK(v->type == TOML_DATE_LOCAL && v->u.dt.day == 29, "leap day in 2000");
	v = toml_get(root, "lt");
	CHECK(v->type == TOML_TIME_LOCAL && v->u.dt.second == 60, "leap second");
	toml_free(root);
}

static void
test_tables(void)
{
	struct toml_error err;
	struct toml_value *root, *v;
	const char *doc =
	    "[a.b.c]\n"
	    "x = 1\n"
	    "[a]\n"
	    "y.z = 2\n"
	    "[[fruit]]\n"
	    "name = \"apple\"\n"
	    "[fruit.physical]\n"
	    "color = \"red\"\n"
	    "[[fruit]]\n"
	    "name = \"banana\"\n"
	    "[ 'quoted' . \"k\\u0065y\" ]\n"
	    "mixed = [1, \"two\", [3], {four = 4}]\n";

	CHECK_GROUP("toml tables");
	root = S_parse(doc, &err);
	CHECK(root != NULL, "document parses%s%s", root ? "" : ": ", root ? "" : err.message);
	if (root == NULL)
		return;
	v = toml_get(toml_get(toml_get(toml_get(root, "a"), "b"), "c"), "x");
	CHECK(v && v->u.i == 1, "a.b.c.x");
	v = toml_get(toml_get(toml_get(root, "a"), "y"), "z");
	CHECK(v && v->u.i == 2, "a.y.z from a dotted key");
	v = toml_get(root, "fruit");
	CHECK(v && v->type == TOML_ARRAY && v->u.a.len == 2, "array of two tables");
	if (v && v->u.a.len == 2) {
		CHECK_STR(toml_get(toml_get(v->u.a.items[0], "physical"), "color")->u.s.ptr,
		    "red", "subtable goes into the last [[fruit]]");
		CHECK_STR(toml_get(v->u.a.items[1], "name")->u.s.ptr, "banana", "second element");
	}
	v = toml_get(toml_get(root, "quoted"), "key");
	CHECK(v && v->type == TOML_TABLE, "quoted header keys with whitespace and escapes");
	v = toml_get(v, "mixed");
	CHECK(v && v->u.a.len == 4 && v->u.a.items[3]->type == TOML_TABLE, "mixed array");
	CHECK_STR(root->u.t.items[0].key, "a", "keys keep document order (first)");
	CHECK_STR(root->u.t.items[2].key, "quoted", "keys keep document order (last)");
	toml_free(root);
}

static void
test_positions(void)
{
	struct toml_error err;
	struct toml_value *root, *t;
	const struct toml_keyval *kv;
	const char *doc =
	    "# comment\n"
	    "title = \"x\"\n"
	    "  a.b = [\n"
	    "    1,\n"
	    "    2 ]\n"
	    "s = \"\"\"\n"
	    "two\n"
	    "lines\"\"\" \n"
	    "\n"
	    "[server]\n"
	    "port\t=\t8080\r\n"
	    "[[item]]\n";

	CHECK_GROUP("toml positions");
	root = S_parse(doc, &err);
	CHECK(root != NULL, "document parses%s%s", root ? "" : ": ", root ? "" : err.message);
	if (root == NULL)
		return;
	kv = toml_get_entry(root, "title");
	CHECK(kv->line == 2 && kv->col == 1, "key title at 2:1 (got %d:%d)", kv->line, kv->col);
	CHECK(kv->value->line == 2 && kv->value->col == 9, "value of title at 2:9 (got %d:%d)",
	    kv->value->line, kv->value->col);
	kv = toml_get_entry(root, "a");
	CHECK(kv->line == 3 && kv->col == 3, "dotted part a at 3:3 (got %d:%d)", kv->line, kv->col);
	t = kv->value;
	kv = toml_get_entry(t, "b");
	CHECK(kv->line == 3 && kv->col == 5, "dotted part b at 3:5 (got %d:%d)", kv->line, kv->col);
	CHECK(kv->value->line == 3 && kv->value->col == 9, "array at 3:9 (got %d:%d)",
	    kv->value->line, kv->value->col);
	CHECK(kv->value->u.a.items[1]->line == 5 && kv->value->u.a.items[1]->col == 5,
	    "second element at 5:5 (got %d:%d)", kv->value->u.a.items[1]->line,
	    kv->value->u.a.items[1]->col);
	kv = toml_get_entry(root, "s");
	CHECK(kv->value->line == 6 && kv->value->col == 5, "multi-line string at 6:5 (got %d:%d)",
	    kv->value->line, kv->value->col);
	kv = toml_get_entry(root, "server");
	CHECK(kv->line == 10 && kv->col == 2, "header key at 10:2 (got %d:%d)", kv->line, kv->col);
	CHECK(kv->value->line == 10 && kv->value->col == 1, "table at its '[' 10:1 (got %d:%d)",
	    kv->value->line, kv->value->col);
	kv = toml_get_entry(kv->value, "port");
	CHECK(kv->line == 11 && kv->col == 1 && kv->value->col == 8,
	    "port at 11:1, value at col 8 (got %d:%d, %d)", kv->line, kv->col, kv->value->col);
	kv = toml_get_entry(root, "item");
	CHECK(kv->value->u.a.items[0]->line == 12, "[[item]] table on line 12 (got %d)",
	    kv->value->u.a.items[0]->line);
	toml_free(root);

	/* An implicit table takes the position of its own header once it gets one. */
	root = S_parse("[x.y]\n[x]\n", &err);
	kv = root ? toml_get_entry(root, "x") : NULL;
	CHECK(kv && kv->value->line == 2 && kv->value->col == 1, "[x] after [x.y] is at 2:1");
	toml_free(root);
}

/* Documents that the redefinition rules allow. */
static void
test_allowed(void)
{
	static const char *docs[] = {
		"[a.b.c]\n[a]\n",                                 /* super-table after sub-table */
		"[a]\nb.c = 1\n[a.b.d]\n",                        /* sub-table of a dotted table */
		"[[a]]\n[a.b]\n[[a]]\n[a.b]\n",                   /* each element is new */
		"[[a.b]]\n[a]\nx = 1\n",                          /* implicit a, defined later */
		"a.b.c = 1\na.b.d = 2\n",                         /* dotted keys share tables */
		"a = {b.c = 1, b.d = 2}\n",                       /* dotted keys inside inline */
		"[a.b.c]\n[a]\nb.x = 1\n",                        /* implicit table via dotted key */
		"['']\n'' = 1\n[\"\".a]\n",                      /* empty quoted keys */
		"1.2 = 3\n",                                      /* dotted numeric key */
		("\xEF\xBB\xBF" "a = 1\n"),                       /* byte order mark */
		"a = [\n# c\n1, # c\n\n2,\n]\n",                  /* comments, trailing comma */
		"a = {b = [\n1]}\n",                              /* newline inside a value */
		"true = true\ninf = inf\n",                       /* keywords as keys */
	};
	struct toml_error err;
	struct toml_value *root;
	size_t i;

	CHECK_GROUP("toml allowed");
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		root = S_parse(docs[i], &err);
		CHECK(root != NULL, "case %zu parses%s%s", i, root ? "" : ": ", root ? "" : err.message);
		toml_free(root);
	}
}

static void
test_errors(void)
{
	static const struct {
		const char *toml;
		int line, col;
		const char *message;
	} cases[] = {
		/* keys and redefinitions */
		{ "a = 1\na = 2", 2, 1, "duplicate key \"a\"" },
		{ "title \"x\"", 1, 7, "expected '=' after key \"title\"" },
		{ "= 1", 1, 1, "expected a key, found '='" },
		{ "a. = 1", 1, 4, "expected a key after '.', found '='" },
		{ "\"\"\"k\"\"\" = 1", 1, 1, "a key cannot be a multi-line string" },
		{ "a = false\na.b = true", 2, 1, "key \"a\" is already a boolean, not a table" },
		{ "[a]\nb = 1\n[a]", 3, 2, "table [a] is defined twice" },
		{ "[a]\n[a.b]\n[a.b]", 3, 4, "table [a.b] is defined twice" },
		{ "[fruit]\napple.color = 1\n[fruit.apple]", 3, 8,
		  "cannot define table [fruit.apple]: dotted keys already defined it" },
		{ "a.b = 1\n[a]", 2, 2, "cannot define table [a]: dotted keys already defined it" },
		{ "[a.b.c]\n[a]\nb.c.t = 1", 3, 3,
		  "cannot add keys to table \"c\" with a dotted key: it has its own [header]" },
		{ "a = {}\n[a.b]", 2, 2,
		  "cannot extend inline table a: inline tables are closed at their '}'" },
		{ "a = {b = 1}\na.c = 2", 2, 1,
		  "cannot add keys to inline table \"a\": inline tables are closed at their '}'" },
		{ "a = {b = {}, b.c = 1}", 1, 14,
		  "cannot add keys to inline table \"b\": inline tables are closed at their '}'" },
		{ "a = [{b = 1}]\n[a.c]", 2, 2,
		  "cannot extend array a: only arrays of tables made with [[...]] can be" },
		{ "a = []\n[[a]]", 2, 3, "cannot define [[a]]: it is already an array" },
		{ "[a]\n[[a]]", 2, 3, "cannot define [[a]]: it is already a table" },
		{ "[[a]]\n[a]", 2, 2, "cannot define table [a]: it is already an array of tables" },
		{ "a = 1\n[a.b]", 2, 2, "cannot use a as a table: it is already an integer" },
		{ "[[a.b]]\n[a]\nb.y = 2", 3, 1, "key \"b\" is already an array of tables, not a table" },
		/* headers */
		{ "[]", 1, 2, "expected a key, found ']'" },
		{ "[a", 1, 3, "expected ']' to close the header [a, found end of input" },
		{ "[[a]", 1, 5, "expected ']]' to close the header [[a, found end of input" },
		{ "[a] b = 1", 1, 5, "expected a newline after a [table] header, found 'b'" },
		/* values */
		{ "a = ", 1, 5, "expected a value, found end of input" },
		{ "a = 1 2", 1, 7, "expected a newline after a value, found '2'" },
		{ "a = True", 1, 5,
		  "invalid value 'True': strings must be quoted; booleans are true and false" },
		{ "a = [1 2]", 1, 8, "expected ',' or ']' after an array element, found '2'" },
		{ "a = [1,,2]", 1, 8, "expected a value, found ','" },
		{ "a = [1", 1, 7, "unterminated array: missing ']'" },
		{ "a = {b = 1,}", 1, 12, "trailing comma not allowed in an inline table" },
		{ "a = {b = 1\n}", 1, 11,
		  "an inline table must be on one line: found a newline before '}'" },
		{ "a = {b = 1", 1, 11, "unterminated inline table: missing '}'" },
		/* numbers */
		{ "a = 012", 1, 5, "leading zeros are not allowed in numbers" },
		{ "a = -0_1", 1, 6, "leading zeros are not allowed in numbers" },
		{ "a = 1__0", 1, 6, "an underscore in a number must stand between two digits" },
		{ "a = 10_", 1, 7, "an underscore in a number must stand between two digits" },
		{ "a = 1._5", 1, 7, "an underscore in a number must stand between two digits" },
		{ "a = 1.", 1, 6, "a float needs a digit after its '.'" },
		{ "a = .5", 1, 5, "a float needs a digit before its '.'" },
		{ "a = 1e", 1, 7, "a float needs digits in its exponent" },
		{ "a = 1.5.1", 1, 8, "invalid character '.' in number" },
		{ "a = -0x1", 1, 5, "a hexadecimal integer cannot have a sign" },
		{ "a = 0b102", 1, 9, "invalid binary digit '2'" },
		{ "a = 0o", 1, 7, "expected octal digits after 0o" },
		{ "a = 0X1", 1, 6, "invalid character 'X' in number" },
		{ "a = 9223372036854775808", 1, 5,
		  "invalid value '9223372036854775808': out of the range of a 64-bit integer" },
		{ "a = -9223372036854775809", 1, 5,
		  "invalid value '-9223372036854775809': out of the range of a 64-bit integer" },
		{ "a = 1e999", 1, 5, "invalid value '1e999': out of the range of a 64-bit float" },
		{ "a = Inf", 1, 5,
		  "invalid value 'Inf': strings must be quoted; booleans are true and false" },
		{ "a = nan_", 1, 5, "invalid value 'nan_': strings must be quoted" },
		/* date-times */
		{ "d = 2023-02-29", 1, 5, "invalid date: 2023-02 has no day 29" },
		{ "d = 2023-13-01", 1, 5, "invalid date: month 13 is not 01 to 12" },
		{ "d = 2023-1-01", 1, 5, "invalid date: expected YYYY-MM-DD" },
		{ "d = 24:00:00", 1, 5, "invalid time: hour 24 is past 23" },
		{ "d = 12:60:00", 1, 5, "invalid time: minute 60 is past 59" },
		{ "d = 12:00:61", 1, 5, "invalid time: second 61 is past 60" },
		{ "d = 1979-05-27T07:32Z", 1, 16, "invalid time: seconds are required (HH:MM:SS)" },
		{ "d = 07:32:00.", 1, 13, "invalid time: expected digits after '.'" },
		{ "d = 1979-05-27T", 1, 16, "invalid date-time: expected a time after 'T'" },
		{ "d = 1979-05-27T07:32:00+7:00", 1, 24, "invalid time offset: expected +HH:MM" },
		{ "d = 1979-05-27T07:32:00+24:00", 1, 24,
		  "invalid time offset +24:00: hours go to 23, minutes to 59" },
		{ "d = 07:32:00Z", 1, 13, "expected a newline after a value, found 'Z'" },
		/* strings */
		{ "s = \"a\\xb\"", 1, 7, "invalid escape \\x in string" },
		{ "s = \"a\\ b\"", 1, 7, "invalid escape in string: '\\' followed by space" },
		{ "s = \"\\u12\"", 1, 6, "invalid escape \\u in string: it needs 4 hexadecimal digits" },
		{ "s = \"\\uD800\"", 1, 6,
		  "invalid escape \\uD800 in string: U+D800 is a surrogate, not a character" },
		{ "s = \"\\U00110000\"", 1, 6,
		  "invalid escape \\U00110000 in string: beyond U+10FFFF, the last code point" },
		{ "s = \"abc", 1, 9, "unterminated string: missing closing '\"'" },
		{ "s = \"abc\nd\"", 1, 9,
		  "unterminated string: newline before the closing '\"' (use \"\"\" for multi-line strings)" },
		{ "s = 'abc", 1, 9, "unterminated string: missing closing \"'\"" },
		{ "s = \"\"\"abc\n", 2, 1, "unterminated multi-line string: missing closing '\"\"\"'" },
		{ "s = '''abc''''''", 1, 16,
		  "too many quotes: a multi-line string ends with at most two before its closing '''" },
		{ "s = \"\"\"a\\ b\"\"\"", 1, 9,
		  "invalid escape in string: '\\' followed by blanks must end the line" },
		/* bytes */
		{ "a = 1\r\nb = 2\r", 2, 6, "carriage return not followed by a line feed" },
		{ "# bell \x07\n", 1, 8, "control character U+0007 is not allowed (only tab and newlines are)" },
		{ "s = \"\x7f\"", 1, 6, "control character U+007F is not allowed (only tab and newlines are)" },
		{ "s = '\x0c'", 1, 6, "control character U+000C is not allowed (only tab and newlines are)" },
		{ "s = \"\xC3\x28\"", 1, 6,
		  "invalid UTF-8: bad sequence starting with byte 0xC3" },
		{ "s = \"\xED\xA0\x80\"", 1, 6,
		  "invalid UTF-8: bad sequence starting with byte 0xED" },
		{ "a = \xEF\xBB\xBF", 1, 5, "expected a value, found U+FEFF" },
		/* an earlier error wins over a later bad byte, and the other way round */
		{ "a = 1 x\n\x01", 1, 7, "expected a newline after a value, found 'x'" },
		{ "a = \"x\x01\" y", 1, 7, "control character U+0001 is not allowed (only tab and newlines are)" },
	};
	struct toml_error err;
	struct toml_value *root;
	size_t i;

	CHECK_GROUP("toml errors");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		root = S_parse(cases[i].toml, &err);
		CHECK(root == NULL, "case %zu is rejected", i);
		if (root != NULL) {
			toml_free(root);
			continue;
		}
		CHECK_STR(err.message, cases[i].message, "case %zu message", i);
		CHECK(err.line == cases[i].line && err.col == cases[i].col,
		    "case %zu at %d:%d (got %d:%d)", i, cases[i].line, cases[i].col,
		    err.line, err.col);
	}
}

static void
test_limits(void)
{
	struct toml_error err;
	struct toml_value *root;
	struct buf b;
	int i;

	CHECK_GROUP("toml limits");

	/* Exactly TOML_MAX_DEPTH levels: a at depth 1, innermost array at 128. */
	buf_init(&b);
	buf_puts(&b, "a = ");
	for (i = 0; i < TOML_MAX_DEPTH; i++)
		buf_putc(&b, '[');
	for (i = 0; i < TOML_MAX_DEPTH; i++)
		buf_putc(&b, ']');
	root = S_parse_n(b.data, b.len, &err);
	CHECK(root != NULL, "%d nested arrays parse", TOML_MAX_DEPTH);
	toml_free(root);

	buf_reset(&b);
	buf_puts(&b, "a = ");
	for (i = 0; i < 100000; i++)
		buf_puts(&b, "{b=[");
	root = S_parse_n(b.data, b.len, &err);
	CHECK(root == NULL, "100000 nested inline tables and arrays are rejected");
	CHECK_STR(err.message, "nesting too deep: more than 128 levels of tables and arrays",
	    "depth message");
	CHECK(err.line == 1 && err.col == 4 + 4 * 64 + 1, "at the 129th level (got %d:%d)",
	    err.line, err.col);

	buf_reset(&b);
	for (i = 0; i < 1000; i++)
		buf_puts(&b, "k.");
	buf_puts(&b, "k = 1");
	root = S_parse_n(b.data, b.len, &err);
	CHECK(root == NULL && strncmp(err.message, "nesting too deep", 16) == 0,
	    "a 1001-part dotted key is too deep");

	buf_reset(&b);
	for (i = 0; i < 20000; i++)
		buf_printf(&b, "[t%d]\nk%d = %d\n", i, i, i);
	root = S_parse_n(b.data, b.len, &err);
	CHECK(root != NULL && root->u.t.len == 20000, "20000 tables");
	toml_free(root);
	buf_free(&b);

	/* The input need not end in NUL; bytes past len are never looked at. */
	root = toml_parse("a = 12", 5, &err);
	CHECK(root && toml_get(root, "a")->u.i == 1, "len bounds the input");
	toml_free(root);
	root = S_parse_n("", 0, &err);
	CHECK(root && root->type == TOML_TABLE && root->u.t.len == 0, "empty input is an empty table");
	toml_free(root);
	root = toml_parse(NULL, 0, &err);
	CHECK(root != NULL, "NULL with length 0 is an empty document");
	toml_free(root);
}

int
main(void)
{
	test_scalars();
	test_multiline_strings();
	test_datetimes();
	test_tables();
	test_positions();
	test_allowed();
	test_errors();
	test_limits();
	return check_finish();
}

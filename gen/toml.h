/*
 * toml: a TOML 1.0.0 parser, written here (no C TOML library is packaged).
 *
 * toml_parse turns a document into a tree of values. Tables keep their
 * keys in document order. Every value remembers the line and column
 * where it was written, so callers can point at it in diagnostics.
 */
#ifndef QUIZDECK_TOML_H
#define QUIZDECK_TOML_H

#include <stddef.h>
#include <stdint.h>

enum toml_type {
	TOML_STRING,
	TOML_INTEGER,
	TOML_FLOAT,
	TOML_BOOL,
	TOML_DATETIME,        /* offset date-time */
	TOML_DATETIME_LOCAL,
	TOML_DATE_LOCAL,
	TOML_TIME_LOCAL,
	TOML_ARRAY,
	TOML_TABLE
};

struct toml_datetime {
	int year, month, day;          /* 0 for a local time */
	int hour, minute, second;      /* 0 for a local date */
	int nanosecond;
	int frac_digits;               /* digits of fraction written (at most 9: later
	                                  ones are dropped), 0 if none */
	int has_offset;
	int offset_minutes;            /* east of UTC; with has_offset */
	int offset_z;                  /* offset written as Z (or z) */
};

/*
 * No value sits deeper than this below the root table (its keys are at
 * depth 1; an array's items and a table's keys one below it), so code
 * that walks the tree may recurse. Deeper documents are rejected with
 * "nesting too deep".
 */
#define TOML_MAX_DEPTH 128

struct toml_value;

struct toml_keyval {
	char *key;                     /* UTF-8, NUL-terminated */
	size_t keylen;                 /* bytes; a quoted key may hold U+0000 ("\u0000"),
	                                  so compare with this, not strlen */
	struct toml_value *value;
	int line, col;                 /* where the key (this part of a dotted key) was written */
};

struct toml_value {
	enum toml_type type;
	int line, col;                 /* where the value (or table header) starts */
	union {
		struct {                   /* TOML_STRING */
			char *ptr;             /* NUL-terminated; len excludes it */
			size_t len;            /* strings may contain U+0000 via \u0000 */
		} s;
		int64_t i;                 /* TOML_INTEGER */
		double f;                  /* TOML_FLOAT */
		int b;                     /* TOML_BOOL */
		struct toml_datetime dt;   /* the four date/time types */
		struct {                   /* TOML_ARRAY */
			struct toml_value **items;
			size_t len, cap;
		} a;
		struct {                   /* TOML_TABLE */
			struct toml_keyval *items;
			size_t len, cap;
		} t;
	} u;
	/* parser bookkeeping for the redefinition rules; ignore elsewhere */
	unsigned flags;
};

struct toml_error {
	int line, col;                 /* 1-based position of the problem */
	char message[256];             /* "what and why", without position */
};

/*
 * Parses `len` bytes of TOML. Returns the root table (caller frees with
 * toml_free), or NULL with *err filled in. Never reads past len; the
 * input need not be NUL-terminated.
 */
struct toml_value *toml_parse(const char *src, size_t len, struct toml_error *err);
void toml_free(struct toml_value *v);

/* The value under `key` in table t, or NULL. */
struct toml_value *toml_get(const struct toml_value *t, const char *key);
/* The keyval entry under `key` in table t (for the key's position), or NULL. */
const struct toml_keyval *toml_get_entry(const struct toml_value *t, const char *key);
/*
 * A stable English name for a type: "string", "integer", "float",
 * "boolean", "offset date-time", "local date-time", "local date",
 * "local time", "array", "table".
 */
const char *toml_type_name(enum toml_type t);

#endif

/*
 * util: memory, growable buffers, paths and files.
 *
 * Out-of-memory is not a recoverable condition for a build tool: every
 * allocation goes through the x* family, which aborts with a message.
 */
#ifndef QUIZDECK_UTIL_H
#define QUIZDECK_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * 1 in a build under AddressSanitizer (gcc or clang), where memory is
 * managed for the checker to see: every block its own, all freed.
 */
#if defined(__SANITIZE_ADDRESS__)
#define UTIL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UTIL_ASAN 1
#endif
#endif
#ifndef UTIL_ASAN
#define UTIL_ASAN 0
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows an array of *cap elements of size `size` so index `need - 1` fits. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The strings given, up to a NULL, end to end (caller frees): what
 * xasprintf("%s%s", ...) makes, without reading a format, which costs
 * ten times the copying on the paths every link and page takes.
 */
char *xconcat(const char *first, ...) __attribute__((sentinel));

/* A growable byte buffer, always NUL-terminated once anything was added. */
struct buf {
	char *data;
	size_t len;
	size_t cap;
};

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
/* Room for n bytes and the NUL in one allocation, where the size is known ahead. */
void buf_reserve(struct buf *b, size_t n);
void buf_put(struct buf *b, const void *p, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, int c);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/*
 * Appends s (NULL: empty) as a JSON string that is also safe inside a
 * script: no raw control character, '<', line or paragraph separator.
 */
void buf_put_json_string(struct buf *b, const char *s);
/*
 * Appends s (NULL: nothing) as HTML or XML text: '&', '<' and '>' as
 * entities, and '"' too with quotes (for an attribute's value).
 */
void buf_put_escaped(struct buf *b, const char *s, int quotes);
/* Appends the UTF-8 encoding of code point cp (must be valid). */
void buf_put_utf8(struct buf *b, uint32_t cp);
/* Hands the contents to the caller (who frees them) and empties b. */
char *buf_detach(struct buf *b);
/* The contents as a C string ("" when nothing was added). */
const char *buf_str(const struct buf *b);

/*
 * UTF-8. utf8_decode reads one code point from s (at most n bytes) and
 * returns its length, or 0 for an invalid or truncated sequence (overlong
 * forms, surrogates and values above U+10FFFF are invalid).
 */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
/*
 * Checks that s is valid UTF-8. Returns 1 if so; else 0 with *line and
 * *col (1-based, col counted in bytes) at the first bad byte.
 */
int utf8_validate(const char *s, size_t n, int *line, int *col);

/* Paths. All returned strings are the caller's to free. */
char *path_join(const char *a, const char *b);
/* The directory part of a relative path ("" for a bare name). */
char *path_dirname(const char *p);
/*
 * Where quizdeck's own data folder `rel` ("themes/default", "i18n") may
 * be, in the order to look: installed (<prefix>/share/quizdeck/rel
 * beside <prefix>/bin), then in the source tree beside the executable,
 * one up and two up (build/asan/). Sets *n (at most 4; 0 when the
 * executable's path is unknown); the caller frees each and the array.
 */
char **install_dirs(const char *rel, size_t *n);
/* The last component of p. Points into p. */
const char *path_basename(const char *p);
/*
 * Normalises a relative path lexically: drops "." and empty components
 * and folds "x/..". Returns NULL if the path climbs above its root.
 */
char *path_normalize(const char *p);
/*
 * A folder's path without the trailing slashes and "/." that name the
 * same folder ("out/" and "out/." are "out"; "/" stays): a name to add
 * a suffix to (out.staging-N beside out, not inside it).
 */
char *path_trim_dir(const char *p);
/* The relative URL that leads from page `from` to `to` (both relative to the output root). */
char *path_relative(const char *from, const char *to);
/* path_relative(from, the first to_len bytes of to), appended to b. */
void path_relative_put(struct buf *b, const char *from, const char *to, size_t to_len);
/*
 * A relative path as a URL path: every byte but letters, digits, '/' and
 * -._~!$&'()*+,;=@ is percent-encoded, so spaces, '#', '?', '%' and
 * non-ASCII names survive, and a first segment holding ':' can never be
 * read as a scheme ("javascript:x/index.html"). Caller frees.
 */
char *url_encode_path(const char *path);
/*
 * Per byte, the URL escapers that keep it as it is: url_encode_path
 * (URL_KEEP_PATH: unreserved, sub-delims, '/' and '@'), and pages for
 * URL attributes (URL_KEEP_ATTR: libxml2's xmlURIEscapeStr with
 * "@/:=?;#%&,+<>" kept).
 */
#define URL_KEEP_PATH 1
#define URL_KEEP_ATTR 2
extern const unsigned char url_keep[256];
int path_has_suffix(const char *p, const char *suffix);

/*
 * Reads a whole file. Returns 0 and sets *data (NUL-terminated, caller
 * frees) and *len on success; -1 with errno set on failure.
 */
int file_read(const char *path, char **data, size_t *len);
/* file_read, but -2 with *len the size and nothing read when the file is over max bytes (max > 0). */
int file_read_max(const char *path, size_t max, char **data, size_t *len);
/* Writes data to path, creating parent directories. 0 or -1 (errno). */
int file_write(const char *path, const void *data, size_t len);
/* Copies a file in chunks (memory stays bounded), creating parent directories. 0 or -1 (errno). */
int file_copy(const char *from, const char *to);
/* mkdir -p. 0 or -1 (errno). */
int dir_make(const char *path);
/* rm -rf. 0 or -1. Does not follow symbolic links. */
int dir_remove(const char *path);
int path_is_dir(const char *path);
int path_is_file(const char *path);

/*
 * The time every output is stamped with: SOURCE_DATE_EPOCH (seconds) when
 * it is set and valid, else 2024-01-01T00:00:00Z; never the clock, so
 * builds repeat.
 */
long long source_date_epoch(void);

/* 64-bit FNV-1a, for stable content fingerprints (not security). */
uint64_t hash_fnv1a(const void *p, size_t n, uint64_t seed);
#define HASH_FNV_SEED 0xcbf29ce484222325ULL

/*
 * For "did you mean": the edit distance from a to b (insertions,
 * deletions, substitutions and swaps of neighbours, ASCII letters
 * compared without case), or max + 1 once past max or when either is
 * over 256 bytes. str_nearest gives the one of names[0..n) nearest to
 * word, within a third of word's length (1 to 3 edits), the first on a
 * tie; NULL if none is that near.
 */
size_t str_distance(const char *a, const char *b, size_t max);
const char *str_nearest(const char *word, const char *const *names, size_t n);

/* Sorts an array of C strings in byte order. */
void strv_sort(char **v, size_t n);

/*
 * Every file (not folder) below root/under ("" for root itself), as
 * paths below root ("assets/site.js"), in byte order; links are not
 * followed. *n is set; free each and the array.
 */
char **dir_files(const char *root, const char *under, size_t *n);

/* Sets how malloc keeps freed memory (glibc), once at start: see util.c. */
void mem_tune(void);

#endif

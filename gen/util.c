/*
 * util: memory, growable buffers, UTF-8, paths and files.
 */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <limits.h>
#include <malloc.h>
#endif
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
S_oom(size_t n)
{
	fprintf(stderr, "quizdeck: out of memory (%zu bytes)\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL)
		S_oom(n);
	return p;
}

void *
xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (p == NULL)
		S_oom(count * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (q == NULL)
		S_oom(n);
	return q;
}

void *
xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return p;
	n = *cap ? *cap : 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			S_oom(SIZE_MAX);
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		S_oom(SIZE_MAX);
	p = xrealloc(p, n * size);
	*cap = n;
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	struct buf b;
	va_list ap;

	buf_init(&b);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return buf_detach(&b);
}

char *
xconcat(const char *first, ...)
{
	va_list ap;
	const char *s;
	size_t len = 0, n;
	char *res, *p;

	va_start(ap, first);
	for (s = first; s; s = va_arg(ap, const char *)) {
		n = strlen(s);
		if (n > SIZE_MAX - 1 - len)
			S_oom(SIZE_MAX);
		len += n;
	}
	va_end(ap);
	p = res = xmalloc(len + 1);
	va_start(ap, first);
	for (s = first; s; s = va_arg(ap, const char *)) {
		n = strlen(s);
		memcpy(p, s, n);
		p += n;
	}
	va_end(ap);
	*p = '\0';
	return res;
}

void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void
buf_reserve(struct buf *b, size_t n)
{
	if (n + 1 > b->cap) {
		b->data = xrealloc(b->data, n + 1);
		if (b->cap == 0)
			b->data[0] = '\0';
		b->cap = n + 1;
	}
}

void
buf_put(struct buf *b, const void *p, size_t n)
{
	if (n > SIZE_MAX - b->len - 1)
		S_oom(SIZE_MAX);
	/* Most buffers grow to a few hundred bytes: not through 8, 16 and 32 first. */
	if (b->len + n + 1 > b->cap)
		b->data = xgrow(b->data, &b->cap, b->cap == 0 && b->len + n + 1 < 64 ? 64 : b->len + n + 1, 1);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_puts(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

void
buf_putc(struct buf *b, int c)
{
	/* Called a byte at a time by escapers: no call on the way when it fits. */
	if (b->len + 2 > b->cap)
		b->data = xgrow(b->data, &b->cap, b->len + 2, 1);
	b->data[b->len++] = (char)c;
	b->data[b->len] = '\0';
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	b->data = xgrow(b->data, &b->cap, b->len + (size_t)n + 1, 1);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
buf_put_json_string(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	buf_putc(b, '"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == '<')
			buf_printf(b, "\\u%04x", *p);
		else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
			buf_printf(b, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
			p += 2;
		} else
			buf_putc(b, *p);
	}
	buf_putc(b, '"');
}

void
buf_put_escaped(struct buf *b, const char *s, int quotes)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"':
			if (quotes) {
				buf_puts(b, "&quot;");
				break;
			}
			/* FALLTHROUGH */
		default: buf_putc(b, *s);
		}
}

void
buf_put_utf8(struct buf *b, uint32_t cp)
{
	unsigned char s[4];
	size_t n;

	if (cp < 0x80) {
		s[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		s[0] = (unsigned char)(0xC0 | (cp >> 6));
		s[1] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		s[0] = (unsigned char)(0xE0 | (cp >> 12));
		s[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		s[2] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		s[0] = (unsigned char)(0xF0 | (cp >> 18));
		s[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
		s[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		s[3] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	buf_put(b, s, n);
}

char *
buf_detach(struct buf *b)
{
	char *p = b->data ? b->data : xstrdup("");
	buf_init(b);
	return p;
}

const char *
buf_str(const struct buf *b)
{
	return b->data ? b->data : "";
}

size_t
utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	size_t len, i;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if ((s[0] & 0xE0) == 0xC0) {
		len = 2;
		c = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		len = 3;
		c = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		len = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	/* Overlong forms, surrogates and values past Unicode are invalid. */
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
	    (len == 4 && c < 0x10000) || c > 0x10FFFF ||
	    (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

int
utf8_validate(const char *s, size_t n, int *line, int *col)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	int l = 1, c = 1;
	uint32_t cp;

	/*
	 * Every source passes here, and nearly all of it is ASCII: eight
	 * bytes at a time while no high bit is set. The line and column are
	 * counted only for a file that fails.
	 */
	while (i < n) {
		uint64_t w;

		if (n - i >= 8) {
			memcpy(&w, p + i, 8);
			if ((w & UINT64_C(0x8080808080808080)) == 0) {
				i += 8;
				continue;
			}
		}
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = utf8_decode(p + i, n - i, &cp)) == 0)
			break;
		i += k;
	}
	if (i >= n)
		return 1;
	/* Bytes are columns, as the editor that shows the file counts them. */
	for (k = 0; k < i; k++)
		if (p[k] == '\n') {
			l++;
			c = 1;
		} else
			c++;
	*line = l;
	*col = c;
	return 0;
}

char *
path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (la == 0)
		return xstrdup(b);
	if (*b == '\0')
		return xstrdup(a);
	if (a[la - 1] == '/')
		return xconcat(a, b, NULL);
	return xconcat(a, "/", b, NULL);
}

char *
path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');

	if (slash == NULL)
		return xstrdup("");
	return xstrndup(p, (size_t)(slash - p));
}

char **
install_dirs(const char *rel, size_t *n)
{
	static const char *const up[] = { "../share/quizdeck", ".", "..", "../.." };
	char path[PATH_MAX], *exe, **v;
	ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	size_t i;

	*n = 0;
	v = xcalloc(4, sizeof(*v));
	if (len <= 0)
		return v;
	path[len] = '\0';
	exe = path_dirname(path);
	for (i = 0; i < 4; i++) {
		char *dir = strcmp(up[i], ".") == 0 ? xstrdup(exe) : path_join(exe, up[i]);

		v[(*n)++] = path_join(dir, rel);
		free(dir);
	}
	free(exe);
	return v;
}

const char *
path_basename(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? slash + 1 : p;
}

char *
path_normalize(const char *p)
{
	struct buf out;
	const char *s = p, *e;
	size_t *marks = NULL, nmarks = 0, cap = 0;
	char *res = NULL;

	buf_init(&out);
	while (*s) {
		size_t n;

		e = strchr(s, '/');
		n = e ? (size_t)(e - s) : strlen(s);
		if (n == 0 || (n == 1 && s[0] == '.')) {
			/* nothing */
		} else if (n == 2 && s[0] == '.' && s[1] == '.') {
			if (nmarks == 0)
				goto out;
			out.len = marks[--nmarks];
			if (out.data)
				out.data[out.len] = '\0';
		} else {
			marks = xgrow(marks, &cap, nmarks + 1, sizeof(*marks));
			marks[nmarks++] = out.len;
			if (out.len)
				buf_putc(&out, '/');
			buf_put(&out, s, n);
		}
		s += n;
		if (*s == '/')
			s++;
	}
	res = buf_detach(&out);
out:
	buf_free(&out);
	free(marks);
	return res;
}

char *
path_trim_dir(const char *p)
{
	size_t n = strlen(p);

	while (n > 1 && (p[n - 1] == '/' || (p[n - 1] == '.' && p[n - 2] == '/')))
		n--;
	return xstrndup(p, n);
}

void
path_relative_put(struct buf *b, const char *from, const char *to, size_t to_len)
{
	const char *f = from, *t = to, *end = to + to_len, *lf = from, *lt = to;
	const char *q;

	/* Past the folders the two share; a "../" for each one from is in beyond them. */
	while (*f && t < end && *f == *t) {
		if (*f == '/') {
			lf = f + 1;
			lt = t + 1;
		}
		f++;
		t++;
	}
	for (q = lf; *q; q++)
		if (*q == '/')
			buf_put(b, "../", 3);
	buf_put(b, lt, (size_t)(end - lt));
}

char *
path_relative(const char *from, const char *to)
{
	struct buf b;

	buf_init(&b);
	path_relative_put(&b, from, to, strlen(to));
	return buf_detach(&b);
}

#define P URL_KEEP_PATH
#define A URL_KEEP_ATTR
const unsigned char url_keep[256] = {
	['a'] = P | A, ['b'] = P | A, ['c'] = P | A, ['d'] = P | A, ['e'] = P | A, ['f'] = P | A,
	['g'] = P | A, ['h'] = P | A, ['i'] = P | A, ['j'] = P | A, ['k'] = P | A, ['l'] = P | A,
	['m'] = P | A, ['n'] = P | A, ['o'] = P | A, ['p'] = P | A, ['q'] = P | A, ['r'] = P | A,
	['s'] = P | A, ['t'] = P | A, ['u'] = P | A, ['v'] = P | A, ['w'] = P | A, ['x'] = P | A,
	['y'] = P | A, ['z'] = P | A,
	['A'] = P | A, ['B'] = P | A, ['C'] = P | A, ['D'] = P | A, ['E'] = P | A, ['F'] = P | A,
	['G'] = P | A, ['H'] = P | A, ['I'] = P | A, ['J'] = P | A, ['K'] = P | A, ['L'] = P | A,
	['M'] = P | A, ['N'] = P | A, ['O'] = P | A, ['P'] = P | A, ['Q'] = P | A, ['R'] = P | A,
	['S'] = P | A, ['T'] = P | A, ['U'] = P | A, ['V'] = P | A, ['W'] = P | A, ['X'] = P | A,
	['Y'] = P | A, ['Z'] = P | A,
	['0'] = P | A, ['1'] = P | A, ['2'] = P | A, ['3'] = P | A, ['4'] = P | A, ['5'] = P | A,
	['6'] = P | A, ['7'] = P | A, ['8'] = P | A, ['9'] = P | A,
	['-'] = P | A, ['.'] = P | A, ['_'] = P | A, ['~'] = P | A, ['!'] = P | A, ['\''] = P | A,
	['('] = P | A, [')'] = P | A, ['*'] = P | A, ['/'] = P | A, ['@'] = P | A, ['&'] = P | A,
	['+'] = P | A, [','] = P | A, [';'] = P | A, ['='] = P | A,
	['$'] = P,
	[':'] = A, ['?'] = A, ['#'] = A, ['%'] = A, ['<'] = A, ['>'] = A,
};
#undef P
#undef A

char *
url_encode_path(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;
	size_t len, unsafe = 0;
	char *res, *q;

	/* Measured first, then written, or copied when nothing needs encoding (most paths). */
	for (p = (const unsigned char *)path; *p; p++)
		unsafe += !(url_keep[*p] & URL_KEEP_PATH);
	len = (size_t)(p - (const unsigned char *)path);
	if (unsafe == 0)
		return xstrndup(path, len);
	q = res = xmalloc(len + 2 * unsafe + 1);
	for (p = (const unsigned char *)path; *p; p++) {
		if (url_keep[*p] & URL_KEEP_PATH)
			*q++ = (char)*p;
		else {
			*q++ = '%';
			*q++ = hex[*p >> 4];
			*q++ = hex[*p & 15];
		}
	}
	*q = '\0';
	return res;
}

int
path_has_suffix(const char *p, const char *suffix)
{
	size_t lp = strlen(p), ls = strlen(suffix);

	return lp >= ls && strcmp(p + lp - ls, suffix) == 0;
}

int
file_read_max(const char *path, size_t max, char **data, size_t *len)
{
	struct buf b;
	struct stat st;
	char chunk[65536];
	size_t expect = 0;
	ssize_t n;
	int fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	buf_init(&b);
	/* Sized to the file, not to a power of two: sources stay in memory for the whole build. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long long)st.st_size < SIZE_MAX / 2) {
		if (max > 0 && (unsigned long long)st.st_size > max) {
			close(fd);
			*data = NULL;
			*len = (size_t)st.st_size;
			return -2;
		}
		expect = (size_t)st.st_size;
		/* A byte more than fstat said, so that a read falling short shows the end. */
		buf_reserve(&b, expect + 1);
	}
	buf_put(&b, "", 0);
	for (;;) {
		/* Straight into the buffer while the file is as long as fstat said. */
		if (b.cap - 1 > b.len)
			n = read(fd, b.data + b.len, b.cap - 1 - b.len);
		else
			n = read(fd, chunk, sizeof(chunk));
		if (n == -1) {
			if (errno == EINTR)
				continue;
			saved = errno;
			close(fd);
			buf_free(&b);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		if (b.cap - 1 > b.len) {
			b.len += (size_t)n;
			b.data[b.len] = '\0';
		} else
			buf_put(&b, chunk, (size_t)n);
		/*
		 * A regular file reads short only at its end: all fstat said is
		 * here and the read fell short, so no read is needed to see 0.
		 */
		if (expect > 0 && b.len == expect && b.len < b.cap - 1)
			break;
		if (max > 0 && b.len > max) {
			close(fd);
			*data = NULL;
			*len = b.len;
			buf_free(&b);
			return -2;
		}
	}
	close(fd);
	*len = b.len;
	*data = buf_detach(&b);
	return 0;
}

int
file_read(const char *path, char **data, size_t *len)
{
	return file_read_max(path, 0, data, len);
}

int
dir_make(const char *path)
{
	char *p = xstrdup(path), *s;
	int rc = -1;

	/* Usually the parent exists: one mkdir, not one per component. */
	if (mkdir(p, 0777) == 0 || errno == EEXIST) {
		rc = 0;
		goto out;
	}
	if (errno != ENOENT)
		goto out;
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) == -1 && errno != EEXIST)
			goto out;
		*s = '/';
	}
	if (mkdir(p, 0777) == -1 && errno != EEXIST)
		goto out;
	rc = 0;
out:
	free(p);
	return rc;
}

int
file_write(const char *path, const void *data, size_t len)
{
	char *dir = path_dirname(path);
	const char *p = data;
	int fd, rc = -1, saved;

	/* The folder is made only when the file cannot be created without it. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd == -1 && errno == ENOENT && *dir && dir_make(dir) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd == -1)
		goto out;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			saved = errno;
			close(fd);
			errno = saved;
			goto out;
		}
		p += n;
		len -= (size_t)n;
	}
	if (close(fd) == -1)
		goto out;
	rc = 0;
out:
	free(dir);
	return rc;
}

int
file_copy(const char *from, const char *to)
{
	char *dir = path_dirname(to), chunk[65536];
	int in = -1, out = -1, rc = -1, saved;

	if ((in = open(from, O_RDONLY | O_CLOEXEC)) == -1)
		goto out;
	if (*dir && dir_make(dir) == -1)
		goto out;
	if ((out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) == -1)
		goto out;
	for (;;) {
		ssize_t n = read(in, chunk, sizeof(chunk)), done = 0;

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			goto out;
		if (n == 0)
			break;
		while (done < n) {
			ssize_t w = write(out, chunk + done, (size_t)(n - done));

			if (w == -1 && errno == EINTR)
				continue;
			if (w == -1)
				goto out;
			done += w;
		}
	}
	rc = close(out);
	out = -1;
out:
	saved = errno;
	if (in != -1)
		close(in);
	if (out != -1)
		close(out);
	free(dir);
	errno = saved;
	return rc;
}

/*
 * Removes name, a folder, in the folder dfd, with everything in it,
 * relative to dfd so that no path is walked again from the root. A
 * site's folder most often holds one index.html and nothing else: that
 * is unlinked first, and if the folder is then empty it goes without
 * being listed (four calls instead of eight).
 */
static int
S_remove_dir_at(int dfd, const char *name)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, rc = 0;

	/* O_NOFOLLOW: a folder turned symlink meanwhile is not followed. */
	if ((fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : -1;
	if (unlinkat(fd, "index.html", 0) == 0 && unlinkat(dfd, name, AT_REMOVEDIR) == 0) {
		close(fd);
		return 0;
	}
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		int is_dir = de->d_type == DT_DIR;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (de->d_type == DT_UNKNOWN)
			is_dir = fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
		if (is_dir ? S_remove_dir_at(fd, de->d_name) == -1 :
		    unlinkat(fd, de->d_name, 0) == -1 && errno != ENOENT)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(dfd, name, AT_REMOVEDIR) == -1 && errno != ENOENT)
		rc = -1;
	return rc;
}

int
dir_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	return S_remove_dir_at(AT_FDCWD, path);
}

int
path_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
path_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

uint64_t
hash_fnv1a(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = seed;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int
S_strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *
str_nearest(const char *word, const char *const *names, size_t n)
{
	size_t i, d, best, max = strlen(word) / 3;
	const char *found = NULL;

	max = max < 1 ? 1 : max > 3 ? 3 : max;
	best = max + 1;
	for (i = 0; i < n; i++) {
		d = str_distance(word, names[i], max);
		if (d < best) {
			best = d;
			found = names[i];
		}
	}
	return found;
}

void
strv_sort(char **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), S_strcmp_p);
}

char **
dir_files(const char *root, const char *under, size_t *n)
{
	char **files = NULL, **todo = NULL;
	size_t nfiles = 0, fcap = 0, ntodo = 0, tcap = 0;

	todo = xgrow(todo, &tcap, 1, sizeof(*todo));
	todo[ntodo++] = xstrdup(under);
	while (ntodo > 0) {
		char *rel = todo[--ntodo], *dir = *rel ? path_join(root, rel) : xstrdup(root);
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d)) != NULL) {
			char *crel, *full;
			struct stat st;

			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			crel = *rel ? path_join(rel, de->d_name) : xstrdup(de->d_name);
			full = path_join(root, crel);
			if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
				todo = xgrow(todo, &tcap, ntodo + 1, sizeof(*todo));
				todo[ntodo++] = crel;
			} else {
				files = xgrow(files, &fcap, nfiles + 1, sizeof(*files));
				files[nfiles++] = crel;
			}
			free(full);
		}
		if (d)
			closedir(d);
		free(dir);
		free(rel);
	}
	free(todo);
	strv_sort(files, nfiles);
	*n = nfiles;
	return files;
}

size_t
str_distance(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b), i, j, best = 0, res;
	size_t *pp, *prev, *cur, *t;

	if ((la > lb ? la - lb : lb - la) > max || la > 256 || lb > 256)
		return max + 1;
	pp = xcalloc(lb + 1, sizeof(*pp));
	prev = xmalloc((lb + 1) * sizeof(*prev));
	cur = xmalloc((lb + 1) * sizeof(*cur));
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		best = cur[0];
		for (j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t d = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			cur[j] = d;
			if (d < best)
				best = d;
		}
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
		/* A transposition may still lower the next row by one. */
		if (best > max + 1)
			break;
	}
	res = i > la ? prev[lb] : max + 1;
	free(pp);
	free(prev);
	free(cur);
	return res;
}

void
mem_tune(void)
{
#ifdef __GLIBC__
	/*
	 * glibc gives the top of the heap back to the system once more than
	 * M_TRIM_THRESHOLD of it is free, by default less than the state zlib
	 * deflates with. cairo deflates each PDF page, and makes and frees
	 * that state once a page: at the top of the heap, that would be a brk
	 * down and up again, and the page faults to fill it, for every page.
	 * The top is kept instead.
	 *
	 * Setting this fixes the mmap threshold too, which glibc would
	 * otherwise raise to the largest block freed. It goes to the most
	 * glibc allows, so that the largest buffers (a large test page's),
	 * made again on every rebuild in serve, come from the heap and are
	 * not mapped afresh each time.
	 */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

long long
source_date_epoch(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	long long v = 1704067200LL;

	if (e && *e) {
		char *end;
		long long x;

		errno = 0;
		x = strtoll(e, &end, 10);
		if (!*end && errno == 0 && x >= 0 && x < 253402300800LL)
			v = x;
	}
	return v;
}

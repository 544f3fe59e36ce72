/*
 * serve: build, serve (on 127.0.0.1 by default), rebuild on change, reload the tabs.
 *
 * Threads. libmicrohttpd runs one thread per connection, so that an
 * event stream may block waiting for the next build without holding up
 * anyone else. The main thread owns everything else: the inotify
 * watches, the debounce timer and the builds. The two sides share only
 * `struct serve_state` (under its mutex) and the built files.
 *
 * Files. Builds go to a private folder, never to out/ (which may hold a
 * deployed build with its PDFs): <tmp>/quizdeck-serve-XXXXXX/site for
 * the pages, .../pdf/print for the decks. build_run swaps each good
 * build into place with one rename, so a request sees the old site or
 * the new one, never half of each, and a failed build leaves the last
 * good site served. The PDFs live apart because the swap would take
 * them away with every HTML rebuild; they are redrawn only for decks
 * whose file changed (or all, when site.toml or the theme did).
 *
 * The reload script is added to HTML responses as they are sent; the
 * files on disk are exactly what `quizdeck build` writes.
 */
#define _GNU_SOURCE
#include "serve.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "build.h"
#include "cache.h"
#include "html.h"
#include "links.h"
#include "model.h"
#include "outputs.h"
#include "pool.h"
#include "site.h"
#include "util.h"

/*
 * Debounce. A completed write (close, rename into place) settles fast;
 * a write in progress, a deletion or a rename away usually has more to
 * come (editors that save by renaming delete first, then create), so it
 * waits longer. A steady stream of changes still builds every MAX_WAIT.
 */
#define SERVE_SETTLE_MS     10
#define SERVE_QUIET_MS      50
#define SERVE_MAX_WAIT_MS   500
/* An idle event stream sends a comment this often, to notice closed tabs. */
#define SERVE_PING_MS       15000
/* The overlay shows this many diagnostics at most. */
#define SERVE_MAX_DIAGS     50

#define EVENTS_PATH         "/__quizdeck/events"
#define RELOAD_JS_PATH      "/__quizdeck/reload.js"

/* Shared between the HTTP threads and the main thread, under lock. */
struct serve_state {
	pthread_mutex_t lock;
	pthread_cond_t changed;      /* signalled on every event and on stop */
	unsigned long seq;           /* bumped by every event */
	char *event;                 /* the latest event, as sent on the wire */
	char *generation;            /* names the site now served */
	char *error;                 /* the current build errors, or NULL */
	int have_site;               /* a good build is in place */
	int stopping;
};

/* A directory watched by inotify, by watch descriptor. */
struct watch {
	char *rel;                   /* below the site root; "" for the root */
};

struct serve {
	const struct serve_options *opt;
	char *root;                  /* the site folder as given */
	char *tmpdir;                /* the private folder (removed at exit) */
	char *sitedir;               /* tmpdir/site: the pages */
	char *pdfdir;                /* tmpdir/pdf: holds print/<deck>.pdf */
	char *sitedir_real;          /* realpath of sitedir, to check requests against */
	char *pdfdir_real;
	struct MHD_Daemon *daemon;
	struct serve_state st;
	unsigned long builds;        /* good builds so far */

	int ifd;                     /* inotify */
	struct watch *watches;       /* indexed by watch descriptor */
	size_t nwatches;

	/* What changed since the last build, for the PDFs and the log line. */
	char **changed;              /* distinct paths below the root, in order seen */
	size_t nchanged, changed_cap;
	int pdf_all;                 /* site.toml or the theme changed */
	char **pdf_decks;            /* deck slugs whose file changed */
	size_t npdf_decks, pdf_decks_cap;

	/*
	 * The pieces and files of the last good build, so that an edit
	 * renders only what it touched (html_build). NULL, or full set, when
	 * the next build must start afresh: the first, after one that failed
	 * to write, and after a change to site.toml or a theme, which are not
	 * in the cache's keys.
	 */
	struct cache *cache;
	int full;
	/*
	 * The last load, kept until the next: a chapter whose file did not
	 * change is moved over from it instead of parsed again
	 * (site_options.previous). Not used after a change to site.toml.
	 */
	struct site *prev;
};

/* The pipe the signal handler writes to, to wake poll(). */
static int S_signal_pipe[2] = { -1, -1 };
static volatile sig_atomic_t S_stop_signal;

static const char reload_js[] =
"/* quizdeck serve: reloads this tab after each rebuild and shows build\n"
"   errors over the page. Added by `quizdeck serve` only; never built. */\n"
"(function () {\n"
"\t\"use strict\";\n"
"\tif (!window.EventSource) return;\n"
"\tvar box = null, text = null;\n"
"\tvar me = document.currentScript;\n"
"\tvar seen = me && me.getAttribute(\"data-generation\");\n"
"\tfunction show(message) {\n"
"\t\tif (!box) {\n"
"\t\t\tbox = document.createElement(\"div\");\n"
"\t\t\tbox.id = \"quizdeck-serve-errors\";\n"
"\t\t\tbox.setAttribute(\"role\", \"alert\");\n"
"\t\t\tvar s = box.style;\n"
"\t\t\ts.position = \"fixed\"; s.left = \"0\"; s.right = \"0\"; s.top = \"0\";\n"
"\t\t\ts.maxHeight = \"70vh\"; s.overflow = \"auto\"; s.zIndex = \"2147483647\";\n"
"\t\t\ts.background = \"#fff8f6\"; s.color = \"#1a1a1a\"; s.borderBottom = \"4px solid #b3261e\";\n"
"\t\t\ts.padding = \"1rem 1.25rem\"; s.font = \"15px/1.4 system-ui, sans-serif\";\n"
"\t\t\ts.boxShadow = \"0 4px 16px rgba(0,0,0,.25)\";\n"
"\t\t\tvar h = document.createElement(\"strong\");\n"
"\t\t\th.textContent = \"\\u26a0 Build failed: still showing the last good build\";\n"
"\t\t\ttext = document.createElement(\"pre\");\n"
"\t\t\ttext.style.whiteSpace = \"pre-wrap\"; text.style.margin = \".5rem 0 0\";\n"
"\t\t\ttext.style.font = \"13px/1.4 ui-monospace, monospace\";\n"
"\t\t\tbox.appendChild(h);\n"
"\t\t\tbox.appendChild(text);\n"
"\t\t}\n"
"\t\ttext.textContent = message;\n"
"\t\tif (!box.parentNode) document.body.appendChild(box);\n"
"\t}\n"
"\tvar es = new EventSource(\"" EVENTS_PATH "\");\n"
"\t/* A new generation after a reconnect means a rebuild (or a restart)\n"
"\t   happened while this tab was not listening. */\n"
"\tes.addEventListener(\"hello\", function (e) {\n"
"\t\tif (seen && seen !== e.data) location.reload();\n"
"\t\tseen = e.data;\n"
"\t});\n"
"\tes.addEventListener(\"reload\", function () { location.reload(); });\n"
"\tes.addEventListener(\"build-error\", function (e) { show(e.data); });\n"
"})();\n";

static double
S_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
S_on_signal(int sig)
{
	int saved = errno;

	S_stop_signal = sig;
	if (S_signal_pipe[1] != -1 && write(S_signal_pipe[1], "x", 1) == -1) {
		/* The pipe is full: poll() will wake anyway. */
	}
	errno = saved;
}

/* --- events ------------------------------------------------------------ */

/*
 * Replaces the latest event and wakes every stream. Tabs only ever need
 * the newest state (a reload supersedes an error and the other way
 * round), so a stream that was busy sends just the last one.
 */
static void
S_publish(struct serve *sv, const char *name, const char *data)
{
	struct buf b;
	const char *p = data, *nl;

	buf_init(&b);
	buf_printf(&b, "event: %s\n", name);
	/* Each line of the data goes on a data: line; CRs would end lines early. */
	do {
		nl = strchr(p, '\n');
		buf_puts(&b, "data: ");
		for (const char *q = p; nl ? q < nl : *q != '\0'; q++)
			buf_putc(&b, *q == '\r' ? ' ' : *q);
		buf_putc(&b, '\n');
		p = nl ? nl + 1 : NULL;
	} while (p && *p);
	buf_putc(&b, '\n');

	pthread_mutex_lock(&sv->st.lock);
	free(sv->st.event);
	sv->st.event = buf_detach(&b);
	sv->st.seq++;
	pthread_cond_broadcast(&sv->st.changed);
	pthread_mutex_unlock(&sv->st.lock);
}

/* One open event stream. */
struct sse_client {
	struct serve *sv;
	unsigned long seen;          /* the last event sequence sent */
	struct buf out;              /* what is still to send */
	size_t off;
};

/*
 * libmicrohttpd's content reader for an event stream. It blocks until
 * there is an event, a ping is due or the server stops: that is allowed
 * here because each connection has its own thread.
 */
static ssize_t
S_sse_read(void *cls, uint64_t pos, char *dst, size_t max)
{
	struct sse_client *cl = cls;
	struct serve_state *st = &cl->sv->st;
	size_t n;

	(void)pos;
	if (cl->off == cl->out.len) {
		struct timespec until;
		int stop = 0;

		buf_reset(&cl->out);
		cl->off = 0;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += SERVE_PING_MS / 1000;
		pthread_mutex_lock(&st->lock);
		while (!st->stopping && cl->seen == st->seq)
			if (pthread_cond_timedwait(&st->changed, &st->lock, &until) == ETIMEDOUT)
				break;
		if (st->stopping)
			stop = 1;
		else if (cl->seen != st->seq) {
			buf_puts(&cl->out, st->event);
			cl->seen = st->seq;
		} else
			buf_puts(&cl->out, ": ping\n\n");
		pthread_mutex_unlock(&st->lock);
		if (stop)
			return MHD_CONTENT_READER_END_OF_STREAM;
	}
	n = cl->out.len - cl->off;
	if (n > max)
		n = max;
	memcpy(dst, cl->out.data + cl->off, n);
	cl->off += n;
	return (ssize_t)n;
}

static void
S_sse_free(void *cls)
{
	struct sse_client *cl = cls;

	buf_free(&cl->out);
	free(cl);
}

/* --- HTTP ---------------------------------------------------------------- */

static const char *
S_content_type(const char *path)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".svg", "image/svg+xml" },
		{ ".pdf", "application/pdf" },
		{ ".png", "image/png" },
		{ ".xml", "application/xml" },
		{ ".woff2", "font/woff2" },
		{ ".woff", "font/woff" },
		{ ".ttf", "font/ttf" },
		{ ".otf", "font/otf" },
		{ ".json", "application/json" },
		{ ".txt", "text/plain; charset=utf-8" },
		{ ".md", "text/markdown; charset=utf-8" },
		{ ".jpg", "image/jpeg" },
		{ ".jpeg", "image/jpeg" },
		{ ".gif", "image/gif" },
		{ ".webp", "image/webp" },
		{ ".avif", "image/avif" },
		{ ".ico", "image/vnd.microsoft.icon" },
		{ ".webmanifest", "application/manifest+json" },
	};
	const char *dot = strrchr(path_basename(path), '.');
	size_t i;

	if (dot != NULL)
		for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (strcasecmp(dot, types[i].ext) == 0)
				return types[i].type;
	return "application/octet-stream";
}

static enum MHD_Result
S_queue(struct MHD_Connection *conn, unsigned status, struct MHD_Response *r,
    const char *type)
{
	enum MHD_Result ret;

	if (r == NULL)
		return MHD_NO;
	if (type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	/* Every response is fresh: a reload must show the new build. */
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
S_send_text(struct MHD_Connection *conn, unsigned status, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text),
	    (void *)(uintptr_t)text, MHD_RESPMEM_MUST_COPY);

	return S_queue(conn, status, r, "text/plain; charset=utf-8");
}

/* Appends s to b with &, <, > and " escaped. */
static void
S_put_escaped(struct buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		default: buf_putc(b, *s);
		}
	}
}

/*
 * The script tag added to served pages. It names the generation served,
 * so a tab whose event stream connects only after a rebuild still sees
 * that it is behind. Caller frees.
 */
static char *
S_reload_tag(struct serve *sv)
{
	char *tag;

	pthread_mutex_lock(&sv->st.lock);
	tag = xasprintf("<script src=\"" RELOAD_JS_PATH "\" data-generation=\"%s\"></script>",
	    sv->st.generation);
	pthread_mutex_unlock(&sv->st.lock);
	return tag;
}

/*
 * Takes an HTML page (owned) and returns it with the reload script
 * before the last </body>, or at the end when there is none.
 */
static char *
S_inject(struct serve *sv, char *html, size_t len, size_t *outlen)
{
	char *tag = S_reload_tag(sv);
	size_t at = len, i, n = strlen(tag);
	char *res;

	for (i = len; i >= 7; i--)
		if (strncasecmp(html + i - 7, "</body>", 7) == 0) {
			at = i - 7;
			break;
		}
	res = xmalloc(len + n + 1);
	memcpy(res, html, at);
	memcpy(res + at, tag, n);
	memcpy(res + at + n, html + at, len - at);
	res[len + n] = '\0';
	*outlen = len + n;
	free(html);
	free(tag);
	return res;
}

/* Sends a built file, the reload script added to HTML. */
static enum MHD_Result
S_send_file(struct serve *sv, struct MHD_Connection *conn, unsigned status, const char *path)
{
	const char *type = S_content_type(path);
	struct MHD_Response *r;
	struct stat sb;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 || fstat(fd, &sb) == -1 ||
	    !S_ISREG(sb.st_mode)) {
		if (fd != -1)
			close(fd);
		/* The file went away between lookup and open: a swap raced us. */
		return S_send_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "the site is being rebuilt: reload in a moment\n");
	}
	if (strncmp(type, "text/html", 9) == 0) {
		struct buf b;
		char chunk[65536];
		ssize_t got;
		size_t len;
		char *page;

		buf_init(&b);
		buf_put(&b, "", 0);
		while ((got = read(fd, chunk, sizeof(chunk))) != 0) {
			if (got == -1 && errno == EINTR)
				continue;
			if (got == -1)
				break;
			buf_put(&b, chunk, (size_t)got);
		}
		close(fd);
		len = b.len;
		page = S_inject(sv, buf_detach(&b), len, &len);
		r = MHD_create_response_from_buffer(len, page, MHD_RESPMEM_MUST_FREE);
	} else
		r = MHD_create_response_from_fd64((uint64_t)sb.st_size, fd);   /* closes fd */
	return S_queue(conn, status, r, type);
}

enum lookup { LOOKUP_FILE, LOOKUP_DIR, LOOKUP_NONE, LOOKUP_REFUSED };

/*
 * Maps a decoded URL path to a file below base (a real path). Refuses
 * `..` outright, then checks the real path of what it found is still
 * below base, so no symbolic link leads out either. *path is set for
 * LOOKUP_FILE and LOOKUP_DIR (caller frees).
 */
static enum lookup
S_lookup(const char *base, const char *url, char **path)
{
	char real[PATH_MAX];
	struct buf rel;
	const char *p = url, *e;
	enum lookup res = LOOKUP_NONE;
	struct stat sb;
	char *full = NULL;
	size_t n = strlen(base);

	*path = NULL;
	buf_init(&rel);
	buf_put(&rel, "", 0);
	if (*url != '/') {
		res = LOOKUP_REFUSED;
		goto out;
	}
	while (*p) {
		while (*p == '/')
			p++;
		e = p + strcspn(p, "/");
		if (e - p == 2 && p[0] == '.' && p[1] == '.') {
			res = LOOKUP_REFUSED;
			goto out;
		}
		if (e > p && !(e - p == 1 && *p == '.')) {
			if (rel.len)
				buf_putc(&rel, '/');
			buf_put(&rel, p, (size_t)(e - p));
		}
		p = e;
	}
	full = path_join(base, buf_str(&rel));
	if (realpath(full, real) == NULL)
		goto out;
	if (strncmp(real, base, n) != 0 || (real[n] != '\0' && real[n] != '/')) {
		res = LOOKUP_REFUSED;
		goto out;
	}
	if (stat(real, &sb) == -1)
		goto out;
	if (S_ISDIR(sb.st_mode))
		res = LOOKUP_DIR;
	else if (S_ISREG(sb.st_mode))
		res = LOOKUP_FILE;
	else
		goto out;
	*path = xstrdup(real);
out:
	free(full);
	buf_free(&rel);
	return res;
}

/* Percent-encodes a decoded path for a Location header. */
static char *
S_url_encode(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	struct buf b;

	buf_init(&b);
	buf_put(&b, "", 0);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("/-._~", c) != NULL)
			buf_putc(&b, c);
		else {
			buf_putc(&b, '%');
			buf_putc(&b, hex[c >> 4]);
			buf_putc(&b, hex[c & 15]);
		}
	}
	return buf_detach(&b);
}

/*
 * Before the first good build: a page that says the first build is still
 * running or shows its errors, with the script that reloads it once a
 * build succeeds.
 */
static enum MHD_Result
S_send_no_site(struct serve *sv, struct MHD_Connection *conn)
{
	struct MHD_Response *r;
	struct buf b;
	char *tag;
	size_t len;

	buf_init(&b);
	buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
	pthread_mutex_lock(&sv->st.lock);
	if (sv->st.error) {
		buf_puts(&b, "<title>quizdeck serve: the site does not build</title>\n</head>\n<body>\n"
		    "<h1>The site does not build yet</h1>\n"
		    "<p>Fix the problems below; this page reloads by itself once the build succeeds.</p>\n"
		    "<pre>");
		S_put_escaped(&b, sv->st.error);
		buf_puts(&b, "</pre>\n");
	} else
		buf_puts(&b, "<title>quizdeck serve: building</title>\n</head>\n<body>\n"
		    "<h1>Building the site</h1>\n"
		    "<p>This page reloads by itself when the first build is done.</p>\n");
	pthread_mutex_unlock(&sv->st.lock);
	tag = S_reload_tag(sv);
	buf_printf(&b, "%s\n</body>\n</html>\n", tag);
	free(tag);
	len = b.len;
	r = MHD_create_response_from_buffer(len, buf_detach(&b), MHD_RESPMEM_MUST_FREE);
	return S_queue(conn, MHD_HTTP_SERVICE_UNAVAILABLE, r, "text/html; charset=utf-8");
}

static enum MHD_Result
S_send_events(struct serve *sv, struct MHD_Connection *conn)
{
	struct sse_client *cl = xcalloc(1, sizeof(*cl));
	struct MHD_Response *r;

	cl->sv = sv;
	buf_init(&cl->out);
	/* A new stream learns what is served now, and any current errors. */
	pthread_mutex_lock(&sv->st.lock);
	buf_printf(&cl->out, "retry: 1000\nevent: hello\ndata: %s\n\n", sv->st.generation);
	if (sv->st.error && sv->st.event && strncmp(sv->st.event, "event: build-error\n", 19) == 0)
		buf_puts(&cl->out, sv->st.event);
	cl->seen = sv->st.seq;
	pthread_mutex_unlock(&sv->st.lock);
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, S_sse_read, cl, S_sse_free);
	if (r == NULL) {
		S_sse_free(cl);
		return MHD_NO;
	}
	return S_queue(conn, MHD_HTTP_OK, r, "text/event-stream; charset=utf-8");
}

static enum MHD_Result
S_answer(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **req_cls)
{
	struct serve *sv = cls;
	enum lookup found;
	char *path = NULL, *notfound;
	enum MHD_Result ret;
	int have_site;

	(void)version;
	(void)upload_data;
	/*
	 * The first call only announces the headers. Answering then makes
	 * libmicrohttpd close the connection afterwards (it cannot know the
	 * request had no body), so wait for the second: keep-alive matters
	 * when a page pulls in its CSS, scripts and images.
	 */
	if (*req_cls == NULL) {
		*req_cls = (void *)1;
		return MHD_YES;
	}
	if (*upload_data_size != 0) {
		*upload_data_size = 0;     /* a body on GET is read and ignored */
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return S_send_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (strcmp(url, EVENTS_PATH) == 0)
		return S_send_events(sv, conn);
	if (strcmp(url, RELOAD_JS_PATH) == 0)
		return S_queue(conn, MHD_HTTP_OK, MHD_create_response_from_buffer(sizeof(reload_js) - 1,
		    (void *)(uintptr_t)reload_js, MHD_RESPMEM_PERSISTENT), "text/javascript; charset=utf-8");

	pthread_mutex_lock(&sv->st.lock);
	have_site = sv->st.have_site;
	pthread_mutex_unlock(&sv->st.lock);
	if (!have_site)
		return S_send_no_site(sv, conn);

	found = S_lookup(sv->sitedir_real, url, &path);
	/* The decks' PDFs are kept apart from the pages (see the top). */
	if (found == LOOKUP_NONE && strncmp(url, "/print/", 7) == 0)
		found = S_lookup(sv->pdfdir_real, url, &path);
	if (found == LOOKUP_REFUSED)
		return S_send_text(conn, MHD_HTTP_FORBIDDEN, "refused: the path leaves the site\n");
	if (found == LOOKUP_DIR) {
		char *index;

		if (url[strlen(url) - 1] != '/') {
			/* Relative links in the page resolve against the folder only with the slash. */
			char *loc = S_url_encode(url);
			char *where = xasprintf("%s/", loc);
			struct MHD_Response *r = MHD_create_response_from_buffer(0,
			    (void *)(uintptr_t)"", MHD_RESPMEM_PERSISTENT);

			if (r != NULL)
				MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, where);
			ret = S_queue(conn, MHD_HTTP_FOUND, r, NULL);
			free(where);
			free(loc);
			free(path);
			return ret;
		}
		index = path_join(path, "index.html");
		free(path);
		path = index;
		if (!path_is_file(path))
			found = LOOKUP_NONE;
	}
	if (found != LOOKUP_NONE) {
		ret = S_send_file(sv, conn, MHD_HTTP_OK, path);
		free(path);
		return ret;
	}
	free(path);
	notfound = path_join(sv->sitedir_real, "404.html");
	if (path_is_file(notfound))
		ret = S_send_file(sv, conn, MHD_HTTP_NOT_FOUND, notfound);
	else
		ret = S_send_text(conn, MHD_HTTP_NOT_FOUND, "not found\n");
	free(notfound);
	return ret;
}

/* --- watching -------------------------------------------------------------- */

#define WATCH_MASK (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | \
	IN_DELETE | IN_MODIFY | IN_DELETE_SELF | IN_ONLYDIR)

/* Names editors and tools write beside the real files; none is content. */
static int
S_ignored_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] == '.' || name[0] == '#' || (n > 0 && name[n - 1] == '~') ||
	    strcmp(name, "4913") == 0 || path_has_suffix(name, ".swp") ||
	    path_has_suffix(name, ".swx");
}

static void
S_watch_add(struct serve *sv, const char *rel, uint32_t mask)
{
	char *full = *rel ? path_join(sv->root, rel) : xstrdup(sv->root);
	int wd = inotify_add_watch(sv->ifd, full, mask);

	free(full);
	if (wd < 0) {
		if (errno == ENOSPC)
			fprintf(stderr, "quizdeck: serve: out of inotify watches at %s "
			    "(raise fs.inotify.max_user_watches)\n", rel);
		return;
	}
	if ((size_t)wd >= sv->nwatches) {
		size_t old = sv->nwatches;

		sv->watches = xgrow(sv->watches, &sv->nwatches, (size_t)wd + 1, sizeof(*sv->watches));
		memset(sv->watches + old, 0, (sv->nwatches - old) * sizeof(*sv->watches));
	}
	/* Watching a folder twice returns the same descriptor: keep one name. */
	free(sv->watches[wd].rel);
	sv->watches[wd].rel = xstrdup(rel);
}

/*
 * Watches rel (below the root) and every folder under it. Iterative, with
 * an explicit list of folders to visit, so a deep tree cannot exhaust
 * the stack.
 */
static void
S_watch_tree(struct serve *sv, const char *rel)
{
	char **todo = NULL;
	size_t ntodo = 0, cap = 0;

	todo = xgrow(todo, &cap, 1, sizeof(*todo));
	todo[ntodo++] = xstrdup(rel);
	while (ntodo > 0) {
		char *dir = todo[--ntodo];
		char *full = path_join(sv->root, dir);
		struct dirent *de;
		DIR *d;

		S_watch_add(sv, dir, WATCH_MASK);
		if ((d = opendir(full)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				char *child, *childfull;
				struct stat sb;

				if (S_ignored_name(de->d_name))
					continue;
				child = path_join(dir, de->d_name);
				childfull = path_join(sv->root, child);
				/* lstat: a symbolic link to a parent folder must not loop forever. */
				if (lstat(childfull, &sb) == 0 && S_ISDIR(sb.st_mode)) {
					todo = xgrow(todo, &cap, ntodo + 1, sizeof(*todo));
					todo[ntodo++] = child;
				} else
					free(child);
				free(childfull);
			}
			closedir(d);
		}
		free(full);
		free(dir);
	}
	free(todo);
}

/* Forgets the watches of rel and everything below it (moved away). */
static void
S_unwatch_tree(struct serve *sv, const char *rel)
{
	size_t i, n = strlen(rel);

	for (i = 0; i < sv->nwatches; i++) {
		const char *w = sv->watches[i].rel;

		if (w && strncmp(w, rel, n) == 0 && (w[n] == '\0' || w[n] == '/')) {
			inotify_rm_watch(sv->ifd, (int)i);
			free(sv->watches[i].rel);
			sv->watches[i].rel = NULL;
		}
	}
}

static void
S_watch_all(struct serve *sv)
{
	char *p;

	/* The root only for site.toml, content/ and themes/ appearing or being replaced. */
	S_watch_add(sv, "", IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE |
	    IN_DELETE | IN_MODIFY | IN_ONLYDIR);
	p = path_join(sv->root, "content");
	if (path_is_dir(p))
		S_watch_tree(sv, "content");
	free(p);
	p = path_join(sv->root, "themes");
	if (path_is_dir(p))
		S_watch_tree(sv, "themes");
	free(p);
}

/* Notes one change for the PDFs and the log line. */
static void
S_note_change(struct serve *sv, const char *rel)
{
	size_t i;

	for (i = 0; i < sv->nchanged; i++)
		if (strcmp(sv->changed[i], rel) == 0)
			break;
	if (i == sv->nchanged) {
		sv->changed = xgrow(sv->changed, &sv->changed_cap, sv->nchanged + 1,
		    sizeof(*sv->changed));
		sv->changed[sv->nchanged++] = xstrdup(rel);
	}
	if (strcmp(rel, "site.toml") == 0 || strcmp(rel, "content") == 0 ||
	    strncmp(rel, "themes", 6) == 0)
		sv->full = 1;
	if (strcmp(rel, "site.toml") == 0 || strncmp(rel, "themes/", 7) == 0 ||
	    strcmp(rel, "themes") == 0)
		sv->pdf_all = 1;
	else if (strncmp(rel, "content/cards/", 14) == 0 && strchr(rel + 14, '/') == NULL &&
	    path_has_suffix(rel, ".md")) {
		char *slug = xstrndup(rel + 14, strlen(rel + 14) - 3);

		for (i = 0; i < sv->npdf_decks; i++)
			if (strcmp(sv->pdf_decks[i], slug) == 0)
				break;
		if (i < sv->npdf_decks)
			free(slug);
		else {
			sv->pdf_decks = xgrow(sv->pdf_decks, &sv->pdf_decks_cap, sv->npdf_decks + 1,
			    sizeof(*sv->pdf_decks));
			sv->pdf_decks[sv->npdf_decks++] = slug;
		}
	} else if (strcmp(rel, "content") == 0 || strcmp(rel, "content/cards") == 0)
		sv->pdf_all = 1;
}

/* Forgets the changes built; a failed build keeps the decks still to draw. */
static void
S_clear_changes(struct serve *sv, int pdfs_too)
{
	size_t i;

	if (pdfs_too) {
		for (i = 0; i < sv->npdf_decks; i++)
			free(sv->pdf_decks[i]);
		sv->npdf_decks = 0;
		sv->pdf_all = 0;
	}
	for (i = 0; i < sv->nchanged; i++)
		free(sv->changed[i]);
	sv->nchanged = 0;
}

/*
 * Reads what inotify has. Returns -1 if nothing relevant changed, else
 * what the last relevant event was: 0 for a completed write (a close or
 * a rename into place: settles fast), 1 for anything else (a write in
 * progress, a deletion: give it time).
 */
static int
S_read_events(struct serve *sv)
{
	char ev[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
	int res = -1;
	ssize_t n;

	while ((n = read(sv->ifd, ev, sizeof(ev))) > 0) {
		char *p = ev;

		while (p < ev + n) {
			const struct inotify_event *ie = (const struct inotify_event *)(void *)p;
			const char *dir;
			char *rel;

			p += sizeof(*ie) + ie->len;
			if (ie->mask & IN_Q_OVERFLOW) {
				/* Lost events: watch afresh (new folders may be unseen) and rebuild all. */
				S_watch_all(sv);
				S_note_change(sv, "site.toml");
				res = 1;
				continue;
			}
			if (ie->wd < 0 || (size_t)ie->wd >= sv->nwatches ||
			    (dir = sv->watches[ie->wd].rel) == NULL)
				continue;
			if (ie->mask & IN_IGNORED) {
				free(sv->watches[ie->wd].rel);
				sv->watches[ie->wd].rel = NULL;
				continue;
			}
			if (ie->len == 0 || S_ignored_name(ie->name))
				continue;
			if (*dir == '\0' && strcmp(ie->name, "site.toml") != 0 &&
			    strcmp(ie->name, "content") != 0 && strcmp(ie->name, "themes") != 0)
				continue;
			rel = path_join(dir, ie->name);
			if ((ie->mask & IN_ISDIR) && (ie->mask & (IN_CREATE | IN_MOVED_TO)))
				S_watch_tree(sv, rel);
			if ((ie->mask & IN_ISDIR) && (ie->mask & IN_MOVED_FROM))
				S_unwatch_tree(sv, rel);
			if (!(ie->mask & IN_ISDIR) || (ie->mask & (IN_CREATE | IN_MOVED_TO |
			    IN_MOVED_FROM | IN_DELETE))) {
				S_note_change(sv, rel);
				res = (ie->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) ? 0 : 1;
			}
			free(rel);
		}
	}
	return res;
}

/* --- building ---------------------------------------------------------------- */

/*
 * "content/x.md changed: rebuilt in 12 ms". Names the last path that
 * still exists: editors and sed write temporary files first.
 */
static void
S_log_rebuild(struct serve *sv, double ms)
{
	const char *name = NULL;
	size_t i, n = 0;

	for (i = 0; i < sv->nchanged; i++) {
		char *full = path_join(sv->root, sv->changed[i]);
		struct stat sb;

		if (stat(full, &sb) == 0) {
			name = sv->changed[i];
			n++;
		}
		free(full);
	}
	if (name == NULL)
		fprintf(stderr, "quizdeck: files removed: rebuilt in %.0f ms\n", ms);
	else if (n == 1)
		fprintf(stderr, "quizdeck: %s changed: rebuilt in %.0f ms\n", name, ms);
	else
		fprintf(stderr, "quizdeck: %s and %zu more changed: rebuilt in %.0f ms\n", name,
		    n - 1, ms);
}

/* The diagnostics as plain text for the overlay, errors first. */
static char *
S_diag_text(const struct diag_list *dl)
{
	struct buf b;
	size_t i, shown = 0;

	buf_init(&b);
	buf_put(&b, "", 0);
	for (int pass = 0; pass < 2; pass++)
		for (i = 0; i < dl->len; i++) {
			const struct diag *d = &dl->v[i];
			char *line;

			if ((pass == 0) != (d->level == DIAG_ERROR))
				continue;
			if (shown++ == SERVE_MAX_DIAGS) {
				buf_printf(&b, "... and %zu more (see the terminal)\n",
				    dl->len - SERVE_MAX_DIAGS);
				goto out;
			}
			line = diag_format(d);
			buf_printf(&b, "%s\n", line);
			free(line);
		}
out:
	return buf_detach(&b);
}

static void
S_set_generation(struct serve *sv)
{
	char *g = xasprintf("%ld-%ld-%lu", (long)getpid(), (long)time(NULL), sv->builds);

	pthread_mutex_lock(&sv->st.lock);
	free(sv->st.generation);
	sv->st.generation = g;
	pthread_mutex_unlock(&sv->st.lock);
}

/*
 * Loads and links the whole site into site (always to be freed with
 * site_free), then writes it: with the cache of the last build, in
 * place, rendering only what changed; else afresh, through build_run,
 * which swaps the output in only when all of it succeeded. 0 if the
 * site was written.
 */
static int
S_build_all(struct serve *sv, int initial, struct site *site, struct diag_list *dl)
{
	struct build_options bo;
	struct site_options so;
	int rc;

	memset(&so, 0, sizeof(so));
	memset(&bo, 0, sizeof(bo));
	so.previous = sv->full ? NULL : sv->prev;
	site_load(site, sv->root, &so, dl);
	links_resolve(site, dl);
	outputs_check(site, dl);
	/* Nothing was written: the cache still matches what is served. */
	if (diag_failed(dl))
		return -1;
	if (sv->cache && !sv->full)
		rc = html_build(site, sv->sitedir, pool_default_threads(), &S_stop_signal, sv->cache, 0, 0, dl);
	else {
		cache_free(sv->cache);
		sv->cache = cache_new();
		bo.outdir = sv->sitedir;
		bo.html = 1;
		bo.pdf = 0;
		bo.progress = initial && isatty(fileno(stderr));
		bo.cache = sv->cache;
		rc = build_run(site, &bo, dl);
	}
	if (rc != 0) {
		cache_free(sv->cache);
		sv->cache = NULL;
	}
	sv->full = rc != 0;
	return rc;
}

/*
 * Builds the site again, then tells the tabs. Returns 0 if the build
 * succeeded. PDFs follow the reload (a tab is not kept waiting
 * for them) for the decks that changed.
 */
static int
S_build(struct serve *sv, int initial)
{
	struct diag_list dl, pdl;
	struct site site, *kept;
	double t0 = S_now_ms(), ms;
	int rc;

	diag_init(&dl);
	diag_init(&pdl);
	rc = S_build_all(sv, initial, &site, &dl);
	ms = S_now_ms() - t0;
	diag_sort(&dl);
	sv->opt->report(&dl);
	if (S_stop_signal || build_cancelled)
		goto done;
	if (rc == 0) {
		char *data;

		sv->builds++;
		S_set_generation(sv);
		pthread_mutex_lock(&sv->st.lock);
		free(sv->st.error);
		sv->st.error = NULL;
		sv->st.have_site = 1;
		data = xasprintf("{\"generation\": \"%s\", \"build_ms\": %.1f}", sv->st.generation, ms);
		pthread_mutex_unlock(&sv->st.lock);
		S_publish(sv, "reload", data);
		free(data);
		if (initial)
			fprintf(stderr, "quizdeck: built in %.0f ms\n", ms);
		else
			S_log_rebuild(sv, ms);
		if (sv->pdf_all || sv->npdf_decks > 0) {
			struct build_options po;
			size_t i, k = 0;

			/* Only decks that still exist: a deleted deck would be a usage error. */
			memset(&po, 0, sizeof(po));
			po.outdir = sv->pdfdir;
			po.pdf = 1;
			if (!sv->pdf_all) {
				for (i = 0; i < sv->npdf_decks; i++)
					for (size_t j = 0; j < site.ndecks; j++)
						if (strcmp(site.decks[j]->slug, sv->pdf_decks[i]) == 0) {
							char *t = sv->pdf_decks[k];

							sv->pdf_decks[k++] = sv->pdf_decks[i];
							sv->pdf_decks[i] = t;
							break;
						}
				po.decks = sv->pdf_decks;
				po.ndecks = k;
			}
			if (sv->pdf_all || k > 0) {
				build_run(&site, &po, &pdl);
				diag_sort(&pdl);
				sv->opt->report(&pdl);
			}
		}
	} else {
		char *text = S_diag_text(&dl);

		pthread_mutex_lock(&sv->st.lock);
		free(sv->st.error);
		sv->st.error = xstrdup(*text ? text : "the build failed\n");
		pthread_mutex_unlock(&sv->st.lock);
		S_publish(sv, "build-error", *text ? text : "the build failed\n");
		free(text);
		fprintf(stderr, "quizdeck: the build failed%s; %s\n",
		    sv->nchanged ? " after a change" : "",
		    sv->builds ? "still serving the last good build" : "serving an error page until it is fixed");
	}
done:
	/* The load before is freed after the tabs were told: no one waits for it. */
	if (sv->prev) {
		site_free(sv->prev);
		free(sv->prev);
	}
	kept = xmalloc(sizeof(*kept));
	*kept = site;
	sv->prev = kept;
	S_clear_changes(sv, rc == 0);
	diag_free(&pdl);
	diag_free(&dl);
	return rc;
}

/* --- setup and the loop ----------------------------------------------------- */

/*
 * A private folder under $TMPDIR, $XDG_RUNTIME_DIR or /tmp, with a pid
 * file so a later serve can remove folders of ones that were killed.
 */
static char *
S_make_tmpdir(void)
{
	const char *bases[] = { getenv("TMPDIR"), getenv("XDG_RUNTIME_DIR"), "/tmp" };
	size_t i;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		const char *base = bases[i];
		struct dirent *de;
		char *t, *pidfile, *pid;
		DIR *d;

		if (base == NULL || *base == '\0' || access(base, W_OK) == -1)
			continue;
		/* Leftovers of a serve that died without cleaning up. */
		if ((d = opendir(base)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				char *dir, *pf, *text;
				struct stat sb;
				size_t len;
				long other;

				if (strncmp(de->d_name, "quizdeck-serve-", 15) != 0)
					continue;
				dir = path_join(base, de->d_name);
				pf = path_join(dir, "pid");
				if (lstat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_uid == getuid() &&
				    file_read(pf, &text, &len) == 0) {
					other = strtol(text, NULL, 10);
					if (other > 0 && kill((pid_t)other, 0) == -1 && errno == ESRCH)
						dir_remove(dir);
					free(text);
				}
				free(pf);
				free(dir);
			}
			closedir(d);
		}
		t = xasprintf("%s/quizdeck-serve-XXXXXX", base);
		if (mkdtemp(t) == NULL) {
			free(t);
			continue;
		}
		pidfile = path_join(t, "pid");
		pid = xasprintf("%ld\n", (long)getpid());
		file_write(pidfile, pid, strlen(pid));
		free(pid);
		free(pidfile);
		return t;
	}
	return NULL;
}

/*
 * The listening socket on addr (numeric, IPv4 or IPv6), made here so a
 * taken port gets a clear message.
 */
static int
S_listen(const char *addr, int port)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	struct sockaddr *sa = (struct sockaddr *)&sin;
	socklen_t salen = sizeof(sin);
	int fd, one = 1;

	memset(&sin, 0, sizeof(sin));
	memset(&sin6, 0, sizeof(sin6));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		sin6.sin6_family = AF_INET6;
		sin6.sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1) {
			errno = EINVAL;
			return -1;
		}
		sa = (struct sockaddr *)&sin6;
		salen = sizeof(sin6);
	}
	if ((fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, salen) == -1 || listen(fd, 64) == -1) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

static int
S_start_http(struct serve *sv, int lfd)
{
	sigset_t block, old;

	/* Signals go to the main thread only: the HTTP threads inherit this mask. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	sv->daemon = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION |
	    MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, S_answer, sv,
	    MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lfd,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)128,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)120,
	    MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return sv->daemon ? 0 : -1;
}

static void
S_stop_http(struct serve *sv)
{
	if (sv->daemon == NULL)
		return;
	/* Wake the event streams first: their threads must return before the daemon can stop. */
	pthread_mutex_lock(&sv->st.lock);
	sv->st.stopping = 1;
	pthread_cond_broadcast(&sv->st.changed);
	pthread_mutex_unlock(&sv->st.lock);
	MHD_stop_daemon(sv->daemon);
	sv->daemon = NULL;
}

static void
S_loop(struct serve *sv)
{
	double first = 0, last = 0;
	int pending = 0, settle = SERVE_QUIET_MS;

	/*
	 * Events that came during a build are still queued: the next poll
	 * returns at once and they start a new quiet period.
	 */

	while (!S_stop_signal && !build_cancelled) {
		struct pollfd pfd[2];
		int timeout = -1, kind;

		if (pending) {
			double now = S_now_ms(), left = last + settle - now;

			if (first + SERVE_MAX_WAIT_MS - now < left)
				left = first + SERVE_MAX_WAIT_MS - now;
			if (left <= 0) {
				pending = 0;
				S_build(sv, 0);
				continue;
			}
			timeout = (int)left + 1;
		}
		pfd[0].fd = sv->ifd;
		pfd[0].events = POLLIN;
		pfd[1].fd = S_signal_pipe[0];
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, timeout) == -1) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "quizdeck: serve: poll: %s\n", strerror(errno));
			break;
		}
		if (pfd[1].revents)
			break;
		if (pfd[0].revents && (kind = S_read_events(sv)) != -1) {
			last = S_now_ms();
			if (!pending)
				first = last;
			settle = kind == 0 ? SERVE_SETTLE_MS : SERVE_QUIET_MS;
			pending = 1;
		}
	}
}

int
serve_run(const struct serve_options *opt)
{
	struct sigaction sa, old_int, old_term, old_hup, old_pipe;
	struct serve sv;
	const char *bind = opt->bind ? opt->bind : "127.0.0.1";
	char real[PATH_MAX], *toml, *host = NULL;
	int lfd = -1, status = 1, handlers = 0;
	pthread_condattr_t ca;

	memset(&sv, 0, sizeof(sv));
	sv.opt = opt;
	sv.ifd = -1;
	sv.root = xstrdup(opt->root);
	pthread_mutex_init(&sv.st.lock, NULL);
	/* Event streams wait with deadlines on the monotonic clock. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sv.st.changed, &ca);
	pthread_condattr_destroy(&ca);
	S_set_generation(&sv);

	toml = path_join(sv.root, "site.toml");
	if (!path_is_file(toml)) {
		fprintf(stderr, "quizdeck: %s is not a site: no site.toml (try `quizdeck new DIR`)\n",
		    sv.root);
		free(toml);
		goto out;
	}
	free(toml);
	/* An IPv6 address goes in brackets in a URL: http://[::1]:8000/. */
	host = strchr(bind, ':') ? xconcat("[", bind, "]", NULL) : xstrdup(bind);
	if ((lfd = S_listen(bind, opt->port)) == -1) {
		fprintf(stderr, "quizdeck: cannot listen on %s:%d: %s\n", host, opt->port,
		    strerror(errno));
		goto out;
	}
	if ((sv.ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1) {
		fprintf(stderr, "quizdeck: cannot watch the site for changes: %s\n", strerror(errno));
		goto out;
	}
	if (pipe2(S_signal_pipe, O_NONBLOCK | O_CLOEXEC) == -1) {
		fprintf(stderr, "quizdeck: serve: pipe: %s\n", strerror(errno));
		goto out;
	}
	if ((sv.tmpdir = S_make_tmpdir()) == NULL) {
		fprintf(stderr, "quizdeck: cannot create a private folder in $TMPDIR or /tmp: %s\n",
		    strerror(errno));
		goto out;
	}
	sv.sitedir = path_join(sv.tmpdir, "site");
	sv.pdfdir = path_join(sv.tmpdir, "pdf");
	if (dir_make(sv.sitedir) == -1 || dir_make(sv.pdfdir) == -1 ||
	    realpath(sv.sitedir, real) == NULL) {
		fprintf(stderr, "quizdeck: cannot create %s: %s\n", sv.sitedir, strerror(errno));
		goto out;
	}
	sv.sitedir_real = xstrdup(real);
	if (realpath(sv.pdfdir, real) == NULL) {
		fprintf(stderr, "quizdeck: cannot resolve %s: %s\n", sv.pdfdir, strerror(errno));
		goto out;
	}
	sv.pdfdir_real = xstrdup(real);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = S_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	handlers = 1;
	S_stop_signal = 0;

	/* Watch before the first build, so an edit made during it is not lost. */
	S_watch_all(&sv);
	if (S_start_http(&sv, lfd) == -1) {
		fprintf(stderr, "quizdeck: cannot start the HTTP server on %s:%d\n", host, opt->port);
		goto out;
	}
	lfd = -1;    /* the daemon owns it now */
	fprintf(stderr, "quizdeck: serving %s on http://%s:%d/ (%sCtrl-C to stop)\n",
	    sv.root, host, opt->port, strcmp(bind, "0.0.0.0") == 0 || strcmp(bind, "::") == 0 ?
	    "that is, on every address of this machine; " : "");
	sv.pdf_all = 1;
	S_build(&sv, 1);
	S_loop(&sv);
	fprintf(stderr, "quizdeck: stopped\n");
	status = 0;
out:
	S_stop_http(&sv);
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
		sigaction(SIGPIPE, &old_pipe, NULL);
	}
	if (lfd != -1)
		close(lfd);
	if (sv.ifd != -1)
		close(sv.ifd);
	for (int i = 0; i < 2; i++)
		if (S_signal_pipe[i] != -1) {
			close(S_signal_pipe[i]);
			S_signal_pipe[i] = -1;
		}
	if (sv.tmpdir && dir_remove(sv.tmpdir) == -1)
		fprintf(stderr, "quizdeck: could not remove %s\n", sv.tmpdir);
	for (size_t i = 0; i < sv.nwatches; i++)
		free(sv.watches[i].rel);
	free(sv.watches);
	S_clear_changes(&sv, 1);
	free(sv.pdf_decks);
	free(sv.changed);
	cache_free(sv.cache);
	if (sv.prev) {
		site_free(sv.prev);
		free(sv.prev);
	}
	free(sv.st.event);
	free(sv.st.generation);
	free(sv.st.error);
	pthread_cond_destroy(&sv.st.changed);
	pthread_mutex_destroy(&sv.st.lock);
	free(sv.sitedir_real);
	free(sv.pdfdir_real);
	free(sv.sitedir);
	free(sv.pdfdir);
	free(sv.tmpdir);
	free(sv.root);
	free(host);
	return status;
}

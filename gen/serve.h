/*
 * serve: `quizdeck serve`, the edit-preview loop. Builds the site into a
 * private folder, serves it (on 127.0.0.1 unless told otherwise), rebuilds when content/, themes/
 * or site.toml change, and tells open tabs to reload (or shows them the
 * build's errors) through server-sent events.
 */
#ifndef QUIZDECK_SERVE_H
#define QUIZDECK_SERVE_H

#include "diag.h"

struct serve_options {
	const char *root;          /* the site's folder */
	int port;
	const char *bind;          /* the address, numeric: "127.0.0.1", "0.0.0.0", "::" */
	/*
	 * Prints a build's diagnostics (main's printer, so serve's terminal
	 * output reads like `quizdeck build`'s). Serve calls it after every
	 * build; its return value is ignored.
	 */
	int (*report)(struct diag_list *dl);
};

/*
 * Runs until SIGINT or SIGTERM, then stops the server, removes the
 * private folder and returns 0. Returns 1 if it could not start (no
 * site.toml, the port taken, no inotify). A site with errors does not
 * stop it: the errors show in the terminal and the browser, and the last
 * good build (or an error page, before the first) stays served.
 */
int serve_run(const struct serve_options *opt);

#endif

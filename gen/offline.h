/*
 * offline: what makes a hosted site installable and readable offline
 * after the first visit. An output pass run last by a build (never by
 * serve, whose cache would fight live reload), over the files the build
 * wrote: the web app manifest, its icons and the service worker's list
 * of every file with a hash of its bytes.
 */
#ifndef QUIZDECK_OFFLINE_H
#define QUIZDECK_OFFLINE_H

#include "diag.h"
#include "model.h"

/*
 * Writes below outdir, which holds the rest of the build:
 *
 * - OUTPUT_ICON_192 and OUTPUT_ICON_512, drawn with Cairo in the theme's
 *   colours: `--accent` and `--bg`, the first of each in
 *   assets/style.css (#rgb or #rrggbb; else dark grey and white);
 * - OUTPUT_MANIFEST: name, short_name, start_url, display standalone,
 *   the colours and icons, every URL relative to the manifest, so the
 *   site works under any path;
 * - OUTPUT_SERVICE_WORKER: `self.QUIZDECK_OFFLINE = {"version", "files"}`
 *   and importScripts of the theme's assets/offline-worker.js, which
 *   does the caching. "files" lists every other file below outdir in
 *   byte order of its path, as [URL-encoded path, hash] with a third
 *   member "on-demand" for a download (print/, export/: cached once
 *   opened, not at install); "version" is a hash of that list, so the
 *   worker, its cache's name and nothing else change when any file does.
 *
 * Returns 0, or -1 with a diagnostic.
 */
int offline_write(const struct site *site, const char *outdir, struct diag_list *dl);

#endif

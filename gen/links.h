/*
 * links: resolving every link and anchor, and recording backlinks.
 */
#ifndef QUIZDECK_LINKS_H
#define QUIZDECK_LINKS_H

#include "model.h"

/*
 * The link step, after site_load: checks every link and image in every
 * doc, records the assets to copy and the backlinks (sections <-
 * questions, cards). Diagnostics for each broken link at its own
 * position. Returns 0 if none was an error.
 */
int links_resolve(struct site *site, struct diag_list *dl);
/*
 * Where a link destination written in doc `from` leads in the output, as
 * a URL below out/ with any fragment ("guide/ring/index.html#ring-all-reduce");
 * the path is percent-encoded (url_encode_path), so the first '#' starts
 * the fragment.
 * A topic file leads to its test's page (#question, or #topic-<slug>
 * without a fragment); a file that is not Markdown keeps its path below
 * content/ ("guide/ring.svg", copied there: site->assets). Returns NULL
 * for a destination to leave as written (absolute URLs, mailto:) and for
 * a broken one. Caller frees. Only valid after links_resolve.
 */
char *links_output_target(const struct site *site, const struct doc *from, const char *dest);

/*
 * The file on disk that an image or link in `from` names when it leads
 * to one of the site's copied files (site->assets), else NULL: what the
 * printed outputs read a picture from. Only valid after links_resolve.
 */
const char *links_asset_path(const struct site *site, const struct doc *from, const char *dest);

/*
 * 1 if dest is left as written rather than resolved: empty, with a
 * scheme ("https:", "mailto:") or network-path ("//host/...").
 */
int links_is_external(const char *dest);

/*
 * 1 if a URL may be emitted: no javascript:, vbscript:, data: (except
 * images of a raster type), file: schemes, in any case, with any
 * embedded whitespace or control characters. Relative URLs are safe.
 */
int links_url_is_safe(const char *url, int is_image);

#endif

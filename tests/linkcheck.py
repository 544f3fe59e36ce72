#!/usr/bin/env python3
"""Checks the links of a built quizdeck site.

    tests/linkcheck.py OUTDIR [--allow-missing PREFIX]...

Every href and src in every .html file under OUTDIR must lead to a file
inside OUTDIR, and every #fragment to an id (or <a name>) in the page it
points at. URLs with a scheme (https:, mailto:) are not followed, but a
javascript:, vbscript: or data: URL anywhere is a failure. Prints one line
per page, `ok linkcheck PAGE` or `not ok linkcheck PAGE: what is broken`,
and exits 1 if any page failed.
"""

import os
import re
import sys
import urllib.parse
from html.parser import HTMLParser

URL_ATTRS = {"href", "src", "action", "poster", "formaction"}
SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.urls = []          # (line, attribute, value)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                self.ids.add(value)
            elif name == "name" and tag == "a":
                self.ids.add(value)
            elif name in URL_ATTRS:
                self.urls.append((self.getpos()[0], name, value))

    handle_startendtag = handle_starttag


def parse(path, cache):
    if path not in cache:
        p = Page()
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        p.close()
        cache[path] = p
    return cache[path]


def main(argv):
    if len(argv) < 2:
        print("usage: linkcheck.py OUTDIR [--allow-missing PREFIX]...", file=sys.stderr)
        return 2
    root = os.path.realpath(argv[1])
    allow = []
    i = 2
    while i < len(argv):
        if argv[i] == "--allow-missing" and i + 1 < len(argv):
            allow.append(argv[i + 1])
            i += 2
        else:
            print("linkcheck.py: unknown argument " + argv[i], file=sys.stderr)
            return 2
    pages = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".html"):
                pages.append(os.path.join(d, f))
    if not pages:
        print("not ok linkcheck: no pages in " + root)
        return 1
    cache = {}
    failed = 0
    for page in pages:
        rel_page = os.path.relpath(page, root)
        problems = []
        for line, attr, url in parse(page, cache).urls:
            where = "line %d %s=\"%s\"" % (line, attr, url)
            m = SCHEME.match(url.strip())
            if m:
                scheme = m.group(1).lower()
                if scheme in ("javascript", "vbscript", "data", "file"):
                    problems.append(where + ": unsafe URL")
                continue
            if url.startswith("//") or url.startswith("/"):
                problems.append(where + ": not relative")
                continue
            path, _, frag = url.partition("#")
            path = urllib.parse.unquote(path.split("?", 1)[0])
            frag = urllib.parse.unquote(frag)
            target = os.path.realpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not (target == root or target.startswith(root + os.sep)):
                problems.append(where + ": leaves the site")
                continue
            rel_target = os.path.relpath(target, root)
            if os.path.isdir(target):
                problems.append(where + ": a folder (links must name index.html to work from disk)")
                continue
            if not os.path.isfile(target):
                if not any(rel_target.startswith(a) for a in allow):
                    problems.append(where + ": no file " + rel_target)
                continue
            if frag and target.endswith(".html"):
                if frag not in parse(target, cache).ids:
                    problems.append(where + ": no id \"%s\" in %s" % (frag, rel_target))
            elif "#" in url and not frag:
                problems.append(where + ": empty fragment")
        if problems:
            failed += 1
            print("not ok linkcheck %s: %s" % (rel_page, "; ".join(problems[:5])))
            for p in problems[5:]:
                print("#   " + p)
        else:
            print("ok linkcheck " + rel_page)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

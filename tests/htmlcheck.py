#!/usr/bin/env python3
"""Checks built pages for anything that could run script.

    tests/htmlcheck.py OUTDIR [--marker WORD] [--theme DIR]

Every .html file under OUTDIR is parsed (Python's html.parser, which
tokenises as a browser does) and must have:

  - exactly one Content-Security-Policy meta, in the head, equal to the
    theme's (templates/page.html), with no 'unsafe-inline' or
    'unsafe-eval' and with script-src and style-src limited to 'self';
  - no inline script: every <script> has a relative src to a .js file
    under assets/ and no text; no other http-equiv than the CSP;
  - no event-handler attribute (on*), no style attribute, no srcdoc;
  - no URL attribute (href, src, action, formaction, poster, data,
    srcset, xlink:href, background, cite) whose scheme, read the way a
    browser reads it (controls and spaces stripped, tabs and newlines
    dropped), is javascript:, vbscript:, file: or data: (except a raster
    image in an img src);
  - only elements the theme and the renderer make (an injected <svg>,
    <iframe>, <object>, <base>, <style>... is a failure), and stylesheets
    only from assets/;
  - with --marker, the marker (the hostile fixture's qdpwn) only in text,
    in URL attributes (checked above) and in attributes that are never
    code (title, alt, content, aria-label, id, class, data-title, ...).

Prints `ok htmlcheck PAGE` or `not ok htmlcheck PAGE: problems` per page;
exits 1 if any page failed.
"""

import os
import re
import sys
from html.parser import HTMLParser

ALLOWED = set("""
html head meta title link script body header nav main footer section article
aside div span p a ul ol li h1 h2 h3 h4 h5 h6 blockquote pre code em strong
del mark hr br img sup table thead tbody tr th td details summary form fieldset
legend label input select option output button
""".split())
URL_ATTRS = {"href", "src", "action", "formaction", "poster", "data", "srcset",
             "xlink:href", "background", "cite"}
SAFE_FOR_MARKER = {"title", "alt", "content", "aria-label", "data-title", "data-label", "value",
                   "id", "class", "data-id", "data-topic", "for", "name"}
BAD_SCHEMES = {"javascript", "vbscript", "file", "data"}
RASTER = ("image/png", "image/gif", "image/jpeg", "image/webp")


def browser_scheme(url):
    """The scheme a browser would see, lower-cased, or None."""
    u = url.strip("".join(chr(c) for c in range(0x21)))
    u = re.sub(r"[\t\n\r]", "", u)
    m = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*):", u)
    return (m.group(1).lower(), u[m.end():]) if m else (None, u)


class Page(HTMLParser):
    def __init__(self, marker):
        super().__init__(convert_charrefs=True)
        self.marker = marker
        self.problems = []
        self.csp = []
        self.stack = []
        self.script_text = False

    def bad(self, what):
        line = self.getpos()[0]
        self.problems.append("line %d: %s" % (line, what))

    def handle_starttag(self, tag, attrs):
        tag = tag.lower()
        names = {}
        if tag not in ALLOWED:
            self.bad("element <%s>" % tag)
        if self.marker and self.marker in tag:
            self.bad("element made of content <%s>" % tag)
        for name, value in attrs:
            name = name.lower()
            value = value if value is not None else ""
            names[name] = value
            if name.startswith("on"):
                self.bad("event attribute %s on <%s>" % (name, tag))
            if name in ("style", "srcdoc"):
                self.bad("%s attribute on <%s>" % (name, tag))
            if self.marker and self.marker in name:
                self.bad("attribute made of content %s" % name)
            if name in URL_ATTRS:
                scheme, rest = browser_scheme(value)
                if scheme in BAD_SCHEMES and not (
                        scheme == "data" and tag == "img" and name == "src" and
                        rest.strip().lower().startswith(RASTER)):
                    self.bad("%s URL in %s on <%s>: %r" % (scheme, name, tag, value[:80]))
            if self.marker and self.marker in value and name not in SAFE_FOR_MARKER and name not in URL_ATTRS:
                self.bad("content in attribute %s on <%s>: %r" % (name, tag, value[:80]))
        if tag == "script":
            src = names.get("src", "")
            if not src or browser_scheme(src)[0] or not re.search(r"(^|/)assets/[^/]+\.js$", src):
                self.bad("script that is not one of the theme's files: %r" % src)
            self.script_text = True
        if tag == "meta" and "http-equiv" in names:
            if names["http-equiv"].lower() != "content-security-policy":
                self.bad("meta http-equiv=%r" % names["http-equiv"])
            elif "head" not in self.stack or "body" in self.stack:
                self.bad("a CSP meta outside the head")
            else:
                self.csp.append(names.get("content", ""))
        if tag == "link" and "stylesheet" in names.get("rel", "").lower().split():
            if not re.search(r"(^|/)assets/[^/]+\.css$", names.get("href", "")):
                self.bad("stylesheet that is not the theme's: %r" % names.get("href", ""))
        if tag not in ("meta", "link", "input", "img", "br", "hr"):
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1] == tag.lower():
            self.stack.pop()

    def handle_endtag(self, tag):
        tag = tag.lower()
        if tag == "script":
            self.script_text = False
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if self.script_text and data.strip():
            self.bad("inline script text %r" % data.strip()[:60])


def theme_csp(theme):
    with open(os.path.join(theme, "templates", "page.html"), encoding="utf-8") as f:
        p = Page(None)
        p.feed(f.read())
    return p.csp[0] if p.csp else None


def check_policy(policy):
    problems = []
    directives = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives[words[0].lower()] = words[1:]
    for name in ("script-src", "style-src"):
        got = directives.get(name, directives.get("default-src"))
        if got != ["'self'"]:
            problems.append("%s is %r, not 'self' alone" % (name, got))
    if "'unsafe-inline'" in policy or "'unsafe-eval'" in policy:
        problems.append("the policy allows inline code")
    if directives.get("object-src") != ["'none'"]:
        problems.append("object-src is not 'none'")
    if directives.get("base-uri") != ["'none'"]:
        problems.append("base-uri is not 'none'")
    return problems


def main(argv):
    args = argv[1:]
    marker = None
    theme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "themes", "default")
    out = None
    while args:
        a = args.pop(0)
        if a == "--marker" and args:
            marker = args.pop(0)
        elif a == "--theme" and args:
            theme = args.pop(0)
        elif out is None:
            out = a
        else:
            print("usage: htmlcheck.py OUTDIR [--marker WORD] [--theme DIR]", file=sys.stderr)
            return 2
    want = theme_csp(theme)
    failed = 0
    if want is None:
        print("not ok htmlcheck theme: templates/page.html has no Content-Security-Policy meta")
        failed += 1
    else:
        bad = check_policy(want)
        if bad:
            print("not ok htmlcheck theme policy: " + "; ".join(bad))
            failed += 1
        else:
            print("ok htmlcheck theme policy: " + want)
    pages = []
    for d, dirs, files in os.walk(out):
        dirs.sort()
        pages += [os.path.join(d, f) for f in sorted(files) if f.endswith(".html")]
    if not pages:
        print("not ok htmlcheck: no pages in " + str(out))
        return 1
    for path in pages:
        rel = os.path.relpath(path, out)
        p = Page(marker)
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        p.close()
        if len(p.csp) != 1:
            p.problems.append("%d Content-Security-Policy metas in the head, want 1" % len(p.csp))
        elif want is not None and p.csp[0] != want:
            p.problems.append("CSP %r differs from the theme's" % p.csp[0])
        if p.problems:
            failed += 1
            print("not ok htmlcheck %s: %s" % (rel, "; ".join(p.problems[:6])))
            for q in p.problems[6:]:
                print("#   " + q)
        else:
            print("ok htmlcheck " + rel)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

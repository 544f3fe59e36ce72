#!/usr/bin/env python3
"""Writes synthetic quizdeck sites for `make bench`.

    gen-site.py pages OUT [--scale S] [--seed N] [--hugo]
    gen-site.py bank  OUT [--scale S] [--seed N]

pages: 10,000 guide chapters (100 parts of 100) of about 700 bytes to
       8 KB each, with headings (an explicit {#id} on some, GitHub slugs
       on the rest) and relative cross-links to anchors that exist.
       --hugo writes the same chapters as a Hugo site with minimal
       layouts, for comparison page for page.
bank:  one test of 10,000 questions in 100 topic files, 10,000 cards in
       20 decks and 200 chapters, all linking into each other.

--scale 0.1 writes a tenth: the number of files shrinks, not their size,
so the two sizes differ only in how many there are. The output depends
only on the arguments (a seeded generator, fixed iteration order), so
runs on different machines time the same bytes.

Only the standard library: the benchmark must run on a bare machine.
"""

import argparse
import math
import os
import random
import re
import sys

WORDS = """
gradient tensor shard replica rank pipeline stage microbatch optimizer
state activation checkpoint collective ring tree bandwidth latency
overlap bucket stream kernel memory parameter precision loss scale
all-reduce broadcast gather scatter reduce barrier topology node link
switch fabric throughput batch epoch schedule bubble warmup step token
sequence attention expert router capacity dropout layer norm weight
update momentum variance moment fused compute graph compile trace
profile cluster job scheduler host device buffer queue window chunk
partition mesh axis dimension split merge replicate offload prefetch
evict cache page block tile warp thread launch sync async event fence
""".split()

# Body text may carry non-ASCII; headings stay ASCII so every slugger
# (quizdeck's, Hugo's, GitHub's) agrees on their ids.
FLAVOUR = ["naïve", "café", "über", "déjà vu", "résumé", "—", "…", "×"]

HEAD_PUNCT = ["", "", "", "?", ":", ",", "'s"]


def slug(text):
    """GitHub's rule (format.md): lower-case, keep letters, digits,
    space, '-' and '_', spaces become '-'."""
    out = []
    for ch in text.lower():
        if ch.isalnum() or ch in " -_":
            out.append("-" if ch == " " else ch)
    return "".join(out)


class Text:
    """Deterministic prose from a seeded generator."""

    def __init__(self, rng):
        self.rng = rng

    def words(self, lo, hi):
        r = self.rng
        return " ".join(r.choice(WORDS) for _ in range(r.randint(lo, hi)))

    def title(self, lo=2, hi=5):
        w = self.words(lo, hi)
        return w[0].upper() + w[1:]

    def sentence(self):
        r = self.rng
        s = self.words(6, 16)
        x = r.random()
        if x < 0.08:
            s += " " + r.choice(FLAVOUR)
        elif x < 0.16:
            s = s.replace(" ", " `%s` " % r.choice(WORDS), 1)
        elif x < 0.22:
            s = s.replace(" ", " **%s** " % r.choice(WORDS), 1)
        elif x < 0.26:
            s = s.replace(" ", " _%s_ " % r.choice(WORDS), 1)
        return s[0].upper() + s[1:] + "."

    def paragraph(self, lo=2, hi=5):
        r = self.rng
        sents = [self.sentence() for _ in range(r.randint(lo, hi))]
        # Wrap at about 72 columns, the way people write Markdown.
        lines, cur = [], ""
        for w in " ".join(sents).split(" "):
            if cur and len(cur) + 1 + len(w) > 72:
                lines.append(cur)
                cur = w
            else:
                cur = cur + " " + w if cur else w
        if cur:
            lines.append(cur)
        return "\n".join(lines)

    def extra_block(self):
        """A list, a code block or a table: the rest of GFM's usual mix."""
        r = self.rng
        x = r.random()
        if x < 0.4:
            return "\n".join("- " + self.words(3, 9) for _ in range(r.randint(2, 5)))
        if x < 0.7:
            body = "\n".join("    " * r.randint(0, 1) + "%s(%s, %s)" %
                             (r.choice(WORDS).replace("-", "_"), r.choice(WORDS).replace("-", "_"),
                              r.randint(1, 4096)) for _ in range(r.randint(2, 6)))
            return "```python\n%s\n```" % body
        rows = ["| %s | %s | %s |" % ("name", "size", "note"), "| --- | ---: | --- |"]
        for _ in range(r.randint(2, 5)):
            rows.append("| %s | %d | %s |" % (r.choice(WORDS), r.randint(1, 999), self.words(2, 5)))
        return "\n".join(rows)


def heading_set(rng, txt, n):
    """n headings of one file as (level, text, id, explicit): unique ids;
    explicit ids have a digit so no slug (letters only) can take them."""
    used = set()
    out = []
    for i in range(n):
        while True:
            text = txt.title(2, 5) + rng.choice(HEAD_PUNCT)
            s = slug(text)
            if s and s not in used:
                break
        level = 2 if i == 0 or rng.random() < 0.6 else 3
        if rng.random() < 0.35:
            hid = "s%d-%s" % (i + 1, rng.choice(WORDS))
            explicit = True
        else:
            hid = s
            explicit = False
        used.add(hid)
        used.add(s)
        out.append((level, text, hid, explicit))
    return out


def heading_line(level, text, hid, explicit, classes=""):
    attrs = ""
    if explicit or classes:
        attrs = " {" + ("#" + hid if explicit else "") + (" " if explicit and classes else "") + classes + "}"
    return "#" * level + " " + text + attrs


def rel(from_file, to_file):
    """Relative path between two files below content/ ('/'-separated)."""
    return os.path.relpath(to_file, os.path.dirname(from_file) or ".").replace(os.sep, "/")


def write(root, path, text, stats):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    data = text.encode("utf-8")
    with open(full, "wb") as f:
        f.write(data)
    stats[0] += 1
    stats[1] += len(data)


def site_toml(title):
    return ('title = "%s"\n'
            'description = "A synthetic site for timing quizdeck."\n'
            'language = "en"\n'
            'theme = "default"\n' % title)


# --- pages --------------------------------------------------------------

def pages_plan(rng, txt, nchapters):
    """Every chapter's path, title, headings and target size, decided
    before any body is written so links can point at real anchors."""
    chapters = []
    parts = max(1, nchapters // 100)
    for i in range(nchapters):
        part = i * parts // nchapters
        # Sizes log-uniform between 700 bytes and 8 KB: most chapters are
        # short, some long, as in real notes.
        size = int(math.exp(rng.uniform(math.log(700), math.log(8000))))
        nhead = max(1, min(14, size // 600))
        chapters.append({
            "path": "guide/part-%03d/ch-%05d.md" % (part, i),
            "title": txt.title(3, 6),
            "weight": i % 100 + 1,
            "size": size,
            "headings": heading_set(rng, txt, nhead),
        })
    return chapters


def chapter_body(rng, txt, ch, link_targets):
    """The Markdown of one chapter (no front matter), about ch['size'] bytes.
    link_targets() returns (path, anchor-or-None) pairs to link to."""
    out = [txt.paragraph(1, 3)]
    size = len(out[0])
    heads = ch["headings"]
    per = max(1, ch["size"] // (len(heads) + 1))
    for (level, text, hid, explicit) in heads:
        out.append(heading_line(level, text, hid, explicit))
        block_bytes = 0
        while block_bytes < per - 80:
            if rng.random() < 0.2:
                b = txt.extra_block()
            else:
                b = txt.paragraph(1, 4)
                if rng.random() < 0.5:
                    path, anchor = link_targets()
                    href = rel(ch["path"], path) + ("#" + anchor if anchor else "")
                    b += " See [%s](%s)." % (txt.words(1, 3), href)
                if rng.random() < 0.15:
                    own = rng.choice(heads)
                    b += " Compare [above](#%s)." % own[2]
            out.append(b)
            block_bytes += len(b) + 2
        size += block_bytes
    return "\n\n".join(out) + "\n"


def front(title, weight=None, description=None):
    s = "+++\ntitle = \"%s\"\n" % title
    if description:
        s += "description = \"%s\"\n" % description
    if weight is not None:
        s += "weight = %d\n" % weight
    return s + "+++\n\n"


def gen_pages(root, scale, seed, hugo):
    rng = random.Random(seed)
    txt = Text(rng)
    n = max(10, int(round(10000 * scale)))
    chapters = pages_plan(rng, txt, n)
    stats = [0, 0]

    def target():
        c = rng.choice(chapters)
        if rng.random() < 0.2:
            return c["path"], None
        return c["path"], rng.choice(c["headings"])[2]

    content = "content"
    if hugo:
        write(root, "config.toml", HUGO_CONFIG, stats)
        for path, text in HUGO_LAYOUTS.items():
            write(root, path, text, stats)
        write(root, "content/_index.md", front("Synthetic guide") + "The home page.\n", stats)
        write(root, "content/guide/_index.md", front("Guide") + "Every chapter.\n", stats)
    else:
        write(root, "site.toml", site_toml("Synthetic guide, %d chapters" % n), stats)
        home = "Start with [the first chapter](%s).\n" % chapters[0]["path"]
        write(root, "content/index.md", front("Synthetic guide") + home, stats)
    for ch in chapters:
        body = chapter_body(rng, txt, ch, target)
        write(root, os.path.join(content, ch["path"]), front(ch["title"], ch["weight"]) + body, stats)
    return stats


HUGO_CONFIG = """baseURL = "http://localhost/"
languageCode = "en"
title = "Synthetic guide"
disableKinds = ["taxonomy", "term", "RSS"]
relativeURLs = true
enableRobotsTXT = false

[markup.goldmark.renderer]
unsafe = false
[markup.goldmark.parser.attribute]
title = true
"""

# Minimal but comparable to a quizdeck chapter page: title, body, and
# previous/next links in reading order.
HUGO_LAYOUTS = {
    "layouts/_default/baseof.html": """<!DOCTYPE html>
<html lang="{{ .Site.LanguageCode }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} | {{ .Site.Title }}</title>
</head>
<body>
{{ block "main" . }}{{ end }}
</body>
</html>
""",
    "layouts/_default/single.html": """{{ define "main" }}<main>
<h1>{{ .Title }}</h1>
{{ .Content }}
<nav>{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>
</main>{{ end }}
""",
    "layouts/_default/list.html": """{{ define "main" }}<main>
<h1>{{ .Title }}</h1>
{{ .Content }}
<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
</main>{{ end }}
""",
}


# --- bank ---------------------------------------------------------------

def gen_bank(root, scale, seed):
    rng = random.Random(seed)
    txt = Text(rng)
    ntopics = max(1, int(round(100 * scale)))
    ndecks = max(1, int(round(20 * scale)))
    nchapters = max(2, int(round(200 * scale)))
    per_topic, per_deck = 100, 500
    stats = [0, 0]

    chapters = []
    for i in range(nchapters):
        chapters.append({
            "path": "guide/ch-%03d.md" % i,
            "title": txt.title(3, 6),
            "weight": i + 1,
            "size": int(math.exp(rng.uniform(math.log(1500), math.log(8000)))),
            "headings": heading_set(rng, txt, 6 + rng.randint(0, 6)),
        })
    topics = []
    for t in range(ntopics):
        qs = []
        for q in range(per_topic):
            qs.append({"id": "t%03d-q%03d" % (t, q),
                       "diff": rng.choice(["easy", "medium", "medium", "hard"])})
        topics.append({"path": "quiz/bank/topic-%03d.md" % t, "title": txt.title(2, 4), "qs": qs})
    decks = []
    for d in range(ndecks):
        cards = ["d%02d-c%03d" % (d, c) for c in range(per_deck)]
        decks.append({"path": "cards/deck-%02d.md" % d, "title": txt.title(2, 4), "cards": cards})

    def guide_target():
        c = rng.choice(chapters)
        return c["path"], rng.choice(c["headings"])[2]

    def any_target():
        x = rng.random()
        if x < 0.6:
            return guide_target()
        if x < 0.8:
            t = rng.choice(topics)
            return t["path"], rng.choice(t["qs"])["id"]
        d = rng.choice(decks)
        return d["path"], rng.choice(d["cards"])

    write(root, "site.toml", site_toml("Synthetic bank"), stats)
    home = ("The [test](quiz/bank/_index.md), the [first deck](%s) and the [guide](%s).\n"
            % (decks[0]["path"], chapters[0]["path"]))
    write(root, "content/index.md", front("Synthetic bank") + home, stats)
    write(root, "content/quiz/bank/_index.md",
          front("The question bank", description="%d questions in %d topics." %
                (ntopics * per_topic, ntopics)) + txt.paragraph(2, 3) + "\n", stats)

    for ti, t in enumerate(topics):
        out = [front(t["title"], ti + 1).rstrip("\n"), txt.paragraph(1, 2)]
        for qi, q in enumerate(t["qs"]):
            stem = txt.title(5, 12) + "?"
            # Two samples in the whole test, as an author would mark them.
            cls = "." + q["diff"] + (" .sample" if ti == 0 and qi < 2 else "")
            out.append("## %s {#%s %s}" % (stem, q["id"], cls))
            if rng.random() < 0.2:
                out.append(txt.paragraph(1, 2))
            if rng.random() < 0.15:
                out.append("> " + txt.sentence())
            right = rng.randrange(4)
            opts = []
            for o in range(4):
                line = "- [%s] %s" % ("x" if o == right else " ", txt.title(3, 9))
                if rng.random() < 0.12:
                    line += "\n    > " + txt.sentence()
                opts.append(line)
            out.append("\n".join(opts))
            path, anchor = guide_target()
            out.append(txt.paragraph(1, 3) + " See [%s](%s#%s)." %
                       (txt.words(1, 3), rel(t["path"], path), anchor))
        write(root, "content/" + t["path"], "\n\n".join(out) + "\n", stats)

    for di, d in enumerate(decks):
        out = [front(d["title"], di + 1, description="%d cards." % per_deck).rstrip("\n")]
        for cid in d["cards"]:
            out.append("## %s? {#%s}" % (txt.title(3, 8), cid))
            back = txt.paragraph(1, 2)
            if rng.random() < 0.5:
                path, anchor = any_target()
                back += " See [%s](%s#%s)." % (txt.words(1, 2), rel(d["path"], path), anchor)
            out.append(back)
        write(root, "content/" + d["path"], "\n\n".join(out) + "\n", stats)

    for ch in chapters:
        def target():
            return any_target()
        body = chapter_body(rng, txt, ch, target)
        write(root, "content/" + ch["path"], front(ch["title"], ch["weight"]) + body, stats)
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=["pages", "bank"])
    ap.add_argument("out")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--hugo", action="store_true", help="pages only: a Hugo site")
    a = ap.parse_args()
    if a.hugo and a.kind != "pages":
        ap.error("--hugo applies to pages only")
    if os.path.exists(a.out) and os.listdir(a.out):
        ap.error("%s exists and is not empty" % a.out)
    if a.kind == "pages":
        files, size = gen_pages(a.out, a.scale, a.seed, a.hugo)
    else:
        files, size = gen_bank(a.out, a.scale, a.seed)
    print("%s: %d files, %d bytes" % (a.out, files, size))


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The exports of a built site, read back independently of quizdeck.

    exportcheck.py SITE OUT        prints `ok export ...` / `not ok export ...`

SITE is the site's folder (its site.toml and content/), OUT the built
output. Every deck's Anki package is opened with zipfile and sqlite3 and
checked against Anki's schema 11 and the rules Anki's importer relies on
(tables and columns, the collection's models, decks and deck options,
fields joined by 0x1f, the sort field and its checksum computed as Anki
computes them, the media map); its CSV is read with csv as Anki's text
import reads it, its TSV as Quizlet's import does. Every test's Moodle
XML is parsed with xml.etree and checked against Moodle's rules for
multichoice questions; its GIFT file is parsed by the grammar's rules.

Each field is compared with the source: the cards' and questions' ids and
headings are read from the Markdown, and their HTML from the site's own
pages (the deck page lists every card's front and back, the test page
every question), with the pages' relative URLs mapped the way each format
must carry them.
"""
import base64
import csv
import hashlib
import html
import io
import json
import os
import posixpath
import re
import sqlite3
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from html.parser import HTMLParser

failures = 0


def report(ok, what, why=""):
    global failures
    if ok:
        print("ok export %s" % what)
    else:
        failures += 1
        print("not ok export %s: %s" % (what, why))


# ---- Anki's own text rules (anki/utils.py, schema 11 era) -----------------

RE_COMMENT = re.compile(r"(?s)<!--.*?-->")
RE_STYLE = re.compile(r"(?si)<style.*?>.*?</style>")
RE_SCRIPT = re.compile(r"(?si)<script.*?>.*?</script>")
RE_TAG = re.compile(r"(?s)<.*?>")
RE_MEDIA = re.compile(r"(?i)<img[^>]+src=[\"']?([^\"'>]+)[\"']?[^>]*>")
# A deletion in a cloze note's Text: number, answer (HTML), hint or None.
RE_CLOZE = re.compile(r"(?s)\{\{c([0-9]+)::(.*?)(?:::((?:(?!\}\}).)*?))?\}\}")


def strip_html(s):
    s = RE_COMMENT.sub("", s)
    s = RE_STYLE.sub("", s)
    s = RE_SCRIPT.sub("", s)
    s = RE_TAG.sub("", s)
    s = s.replace("&nbsp;", " ")
    return html.unescape(s)


def strip_html_media(s):
    return strip_html(RE_MEDIA.sub(" \\1 ", s))


def field_checksum(s):
    return int(hashlib.sha1(strip_html_media(s).encode("utf-8")).hexdigest()[:8], 16)


SCHEMA = {
    "col": "id crt mod scm ver dty usn ls conf models decks dconf tags",
    "notes": "id guid mid mod usn tags flds sfld csum flags data",
    "cards": "id nid did ord mod usn type queue due ivl factor reps lapses left odue odid flags data",
    "revlog": "id cid usn ease ivl lastIvl factor time type",
    "graves": "usn oid type",
}
INDEXES = {"ix_notes_usn", "ix_cards_usn", "ix_revlog_usn", "ix_cards_nid",
           "ix_cards_sched", "ix_revlog_cid", "ix_notes_csum"}
MODEL_KEYS = {"id", "name", "type", "mod", "usn", "sortf", "did", "tmpls", "flds", "css",
              "latexPre", "latexPost", "req", "tags", "vers"}
TMPL_KEYS = {"name", "ord", "qfmt", "afmt", "did", "bqfmt", "bafmt"}
FLD_KEYS = {"name", "ord", "sticky", "rtl", "font", "size", "media"}
DECK_KEYS = {"id", "name", "mod", "usn", "lrnToday", "revToday", "newToday", "timeToday",
             "collapsed", "desc", "dyn", "conf", "extendNew", "extendRev"}
DCONF_KEYS = {"id", "name", "mod", "usn", "maxTaken", "autoplay", "timer", "replayq", "dyn",
              "new", "lapse", "rev"}
DCONF_PARTS = {
    "new": {"bury", "delays", "initialFactor", "ints", "order", "perDay"},
    "lapse": {"delays", "leechAction", "leechFails", "minInt", "mult"},
    "rev": {"bury", "ease4", "ivlFct", "maxIvl", "perDay"},
}
CONF_KEYS = {"activeDecks", "curDeck", "newSpread", "collapseTime", "timeLim", "estTimes",
             "dueCounts", "curModel", "nextPos", "sortType", "sortBackwards", "addToCur"}


# ---- the site: sources and pages -----------------------------------------

def read_page(path):
    """
    A page's bytes as an export writes the same content: a table's block
    on a page is a named section in the tab order (it scrolls sideways),
    in an export the bare block.
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r'<section class="table-wrap" tabindex="0" aria-label="[^"]*">(<table>.*?</table>)</section>',
                  r'<div class="table-wrap">\1</div>', text, flags=re.S)
    return text


def front_matter(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.match(r"\+\+\+\n(.*?)\n\+\+\+\n", text, re.S)
    return (tomllib.loads(m.group(1)) if m else {}), text[m.end() if m else 0:]


def source_items(body):
    """(id, heading as written) of each `##` heading with an {#id}, in order."""
    out = []
    fence = False
    for line in body.split("\n"):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        m = re.match(r"## (.*?) \{#([^ }]+)[^}]*\}\s*$", line)
        if m:
            out.append((m.group(2), m.group(1)))
    return out


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class Elements(HTMLParser):
    """Each element pred picks, as (attrs, inner HTML), from the page's bytes."""

    def __init__(self, text, pred):
        super().__init__(convert_charrefs=False)
        self.text = text
        self.pred = pred
        self.starts = [0]
        for m in re.finditer("\n", text):
            self.starts.append(m.end())
        self.stack = []
        self.found = []
        self.feed(text)

    def here(self):
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        a = dict(attrs)
        start = self.here() + len(self.get_starttag_text())
        self.stack.append((tag, a, start, self.pred(tag, a)))

    def handle_endtag(self, tag):
        while self.stack:
            t, a, start, want = self.stack.pop()
            if want:
                self.found.append((a, self.text[start:self.here()], start))
            if t == tag:
                break

    def result(self):
        return [(a, inner) for a, inner, _ in sorted(self.found, key=lambda x: x[2])]


def has_class(a, cls):
    return cls in (a.get("class") or "").split()


def inner(text, tag, cls):
    return Elements(text, lambda t, a: t == tag and has_class(a, cls)).result()


def media_name(path):
    """The flat name a carried file must have: the path's ASCII punctuation made '_'."""
    return re.sub(r"[^A-Za-z0-9._\-\u0080-\U0010ffff]", "_", path)


def is_relative(url):
    raw = html.unescape(url)
    return not (raw.startswith("#") or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", raw))


def text_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;")


def map_urls(text, page, base, images):
    """
    The page's relative URLs as an export must write them: links to the
    site absolute under base_url, or without base_url only their text;
    images carried (media: their flat name; moodle: @@PLUGINFILE@@/name)
    or else as links are, an image that cannot be linked by its alt text.
    """
    if not base:
        text = re.sub(r'<a href="([^"]*)"[^>]*>(.*?)</a>',
                      lambda m: m.group(2) if is_relative(m.group(1)) else m.group(0), text, flags=re.S)
        if images == "absolute":
            text = re.sub(r'<img src="([^"]*)" alt="([^"]*)"[^>]*>',
                          lambda m: text_escape(html.unescape(m.group(2))) if is_relative(m.group(1))
                          else m.group(0), text)

    def one(m):
        attr, q, url = m.group(1), m.group(2), m.group(3)
        if not is_relative(url):
            return m.group(0)
        path, _, frag = html.unescape(url).partition("#")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        if attr == "src" and images == "media":
            new = media_name(target)
        elif attr == "src" and images == "moodle":
            new = "@@PLUGINFILE@@/" + media_name(target)
        else:
            new = base + "/" + target + ("#" + frag if frag else "")
        return '%s=%s%s%s' % (attr, q, new.replace("&", "&amp;").replace('"', "&quot;"), q)
    return re.sub(r'\b(src|href)=(["\'])(.*?)\2', one, text)


def site_decks(site, out):
    """
    slug -> (title, description, [card dict], [note]) from sources and deck
    pages. A card: id, kind (basic, cloze, reversed), note (its heading's
    id), heading as written, front, answer (a cloze card's answered text),
    back. A note: the cards one heading makes, in order.
    """
    decks = {}
    cards_dir = os.path.join(site, "content", "cards")
    for name in sorted(os.listdir(cards_dir)):
        if not name.endswith(".md"):
            continue
        slug = name[:-3]
        fm, body = front_matter(os.path.join(cards_dir, name))
        page = read_page(os.path.join(out, "cards", slug, "index.html"))
        headings = dict(source_items(body))
        rows = []
        for a, li in Elements(page, lambda t, x: t == "li" and has_class(x, "card")).result():
            cid = a.get("data-id")
            kind = "cloze" if has_class(a, "card-cloze") else "reversed" if has_class(a, "card-reversed") else "basic"
            note = cid if kind == "basic" else re.sub(r"-(c[0-9]+|r)$", "", cid)
            front = Elements(li, lambda t, x: t in ("h3", "div") and has_class(x, "card-front")).result()
            answer = inner(li, "p", "card-answer")
            back = inner(li, "div", "card-back")
            rows.append({"id": cid, "kind": kind, "note": note, "heading": headings.get(note),
                         "cloze": int(cid.rsplit("-c", 1)[1]) if kind == "cloze" else 0,
                         "front": front[0][1].strip() if front else None,
                         "answer": answer[0][1].strip() if answer else None,
                         "back": back[0][1].strip() if back else None})
        notes = []
        for r in rows:
            if notes and notes[-1][0]["note"] == r["note"]:
                notes[-1].append(r)
            else:
                notes.append([r])
        count = re.search(r"All ([0-9]+) cards? in this deck", page)
        report(count is not None and int(count.group(1)) == len(rows),
               "cards/%s: the page's count is its cards, %d" % (slug, len(rows)),
               count.group(0) if count else "no count")
        decks[slug] = (fm.get("title", slug), fm.get("description", ""), rows, notes)
    return decks


def site_tests(site, out):
    """slug -> (title, [(topic title, [question dict])]) from sources and the test page."""
    tests = {}
    quiz_dir = os.path.join(site, "content", "quiz")
    for slug in sorted(os.listdir(quiz_dir)):
        folder = os.path.join(quiz_dir, slug)
        if not os.path.isdir(folder):
            continue
        fm, _ = front_matter(os.path.join(folder, "_index.md"))
        page = read_page(os.path.join(out, "quiz", slug, "index.html"))
        arts = Elements(page, lambda t, a: t == "article" and a.get("class") == "question").result()
        by_id = {}
        for a, body in arts:
            q = dict(a)
            q["stem"] = inner(body, "h4", "stem")[0][1].strip()
            sb = inner(body, "div", "stem-body")
            q["stem_body"] = sb[0][1].strip() if sb else ""
            hint = re.search(r'<blockquote class="hint">.*?</blockquote>', body, re.S)
            q["hint"] = hint.group(0) if hint else ""
            q["options"] = [(oa.get("data-correct") == "true", ob)
                            for oa, ob in Elements(body, lambda t, x: t == "li" and has_class(x, "option")).result()]
            q["option_text"] = [x.strip() for _, x in inner(body, "div", "option-text")]
            q["typed"] = []
            for ta, tb in Elements(body, lambda t, x: t == "li" and has_class(x, "typed-answer")).result():
                m = re.search(r'<div class="option-feedback"[^>]*>(.*)</div>', tb, re.S)
                q["typed"].append({"correct": ta.get("data-correct") == "true", "answer": ta.get("data-answer"),
                                   "min": ta.get("data-min"), "max": ta.get("data-max"),
                                   "unit": ta.get("data-unit") or "",
                                   "feedback": m.group(1).strip() if m else ""})
            q["explanation"] = inner(body, "div", "explanation")[0][1].strip()
            by_id[q["data-id"]] = q
        topics = []
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".md") or name == "_index.md":
                continue
            tfm, tbody = front_matter(os.path.join(folder, name))
            qs = []
            for qid, heading in source_items(tbody):
                q = by_id.get(qid, {"data-id": qid, "missing": True})
                q["heading"] = heading
                qs.append(q)
            topics.append((tfm.get("weight", 0), name, tfm.get("title", name[:-3]), qs))
        topics.sort()
        tests[slug] = (fm.get("title", slug), [(t, qs) for _, _, t, qs in topics])
    return tests


def plain(text):
    return " ".join(strip_html(text).split())


# ---- Anki ---------------------------------------------------------------

def check_apkg(path, slug, title, desc, rows, groups, base, content):
    what = os.path.relpath(path)
    try:
        z = zipfile.ZipFile(path)
    except zipfile.BadZipFile as e:
        report(False, what, "not a zip: %s" % e)
        return
    names = z.namelist()
    report(names[:2] == ["collection.anki2", "media"], "%s entries" % what,
           "want collection.anki2, media, then media files; got %s" % names)
    report(all(i.date_time == z.infolist()[0].date_time for i in z.infolist()),
           "%s entry times are one fixed time" % what, [i.date_time for i in z.infolist()])
    media = json.loads(z.read("media"))
    report(sorted(media, key=int) == [str(i) for i in range(len(media))] and
           sorted(names[2:], key=int) == sorted(media, key=int),
           "%s media map numbers its files 0..n-1, one entry each" % what,
           "map %s, entries %s" % (media, names[2:]))
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "collection.anki2")
        with open(db_path, "wb") as f:
            f.write(z.read("collection.anki2"))
        db = sqlite3.connect(db_path)
        check_collection(db, what, slug, title, desc, rows, groups, base, media)
        db.close()
    # Each media file is the site's file, byte for byte.
    for num, name in media.items():
        src = None
        for root, _, files in os.walk(content):
            for f in files:
                rel = posixpath.relpath(os.path.join(root, f), content).replace(os.sep, "/")
                if media_name(rel) == name:
                    src = os.path.join(root, f)
        same = src is not None and open(src, "rb").read() == z.read(num)
        report(same, "%s media %s is %s" % (what, num, name), "no such source file or other bytes")


def check_collection(db, what, slug, title, desc, rows, groups, base, media):
    for table, cols in SCHEMA.items():
        got = [r[1] for r in db.execute("pragma table_info(%s)" % table)]
        report(got == cols.split(), "%s table %s has Anki's columns" % (what, table),
               "got %s" % got)
    idx = {r[0] for r in db.execute("select name from sqlite_master where type = 'index'")}
    report(INDEXES <= idx, "%s has Anki's indexes" % what, "missing %s" % (INDEXES - idx))
    colrows = db.execute("select ver, conf, models, decks, dconf, tags, crt, mod from col").fetchall()
    if len(colrows) != 1:
        report(False, "%s col has one row" % what, "%d rows" % len(colrows))
        return
    ver, conf, models, decks, dconf, tags, crt, mod = colrows[0]
    report(ver == 11, "%s schema version 11" % what, "ver %s" % ver)
    conf, models, decks, dconf = (json.loads(x) for x in (conf, models, decks, dconf))
    report(CONF_KEYS <= set(conf), "%s col.conf keys" % what, "missing %s" % (CONF_KEYS - set(conf)))
    report(json.loads(tags) == {}, "%s col.tags" % what, tags)
    ok = True
    for mid, m in models.items():
        ok &= str(m.get("id")) == mid and MODEL_KEYS <= set(m)
        ok &= all(TMPL_KEYS <= set(t) and t["ord"] == i for i, t in enumerate(m.get("tmpls", [])))
        ok &= all(FLD_KEYS <= set(f) and f["ord"] == i for i, f in enumerate(m.get("flds", [])))
        ok &= m.get("type") in (0, 1)
        for t in m.get("tmpls", []):
            for ref in re.findall(r"\{\{([^}]+)\}\}", t["qfmt"] + t["afmt"]):
                ok &= ref.split(":")[-1] in {f["name"] for f in m["flds"]} | {"FrontSide"}
    report(ok and models, "%s models: keys, ords, templates name their fields" % what, models.keys())
    deck = [d for d in decks.values() if d.get("name") == title]
    report("1" in decks and len(deck) == 1 and all(DECK_KEYS <= set(d) and str(d["id"]) == k
                                                  for k, d in decks.items()),
           "%s decks: Default and %r, with Anki's keys" % (what, title), list(decks.values()))
    if deck:
        report(html.unescape(deck[0]["desc"]) == desc, "%s deck description" % what, deck[0]["desc"])
    dok = "1" in dconf and all(DCONF_KEYS <= set(c) and all(k <= set(c[p]) for p, k in DCONF_PARTS.items())
                               for c in dconf.values())
    report(dok, "%s dconf keys" % what, dconf)
    if deck:
        report(all(str(d["conf"]) in dconf for d in decks.values()), "%s decks' conf exists" % what, "")

    notes = db.execute("select id, guid, mid, flds, sfld, csum, tags from notes order by id").fetchall()
    cards = db.execute("select id, nid, did, ord, type, queue, due from cards").fetchall()
    report(len(notes) == len(groups), "%s note count %d, one per heading" % (what, len(groups)),
           "got %d" % len(notes))
    report(len(cards) == len(rows), "%s card count %d, the site's" % (what, len(rows)), "got %d" % len(cards))
    by_guid = {n[1]: n for n in notes}
    report(len(by_guid) == len(notes), "%s guids unique" % what, "")
    refs = set()
    page = "cards/%s/index.html" % slug
    for group in groups:
        first = group[0]
        cid = first["note"]
        guid = "quizdeck:%s/%s" % (slug, cid)
        n = by_guid.get(guid)
        if n is None:
            report(False, "%s note %s" % (what, cid), "no note with guid %s" % guid)
            continue
        nid, _, mid, flds, sfld, csum, ntags = n
        m = models.get(str(mid))
        fields = flds.split("\x1f")
        report(m is not None and len(fields) == len(m["flds"]),
               "%s %s: its model, fields joined by 0x1f" % (what, cid), "%d fields" % len(fields))
        if m is None:
            continue
        mine = sorted(c[3] for c in cards if c[1] == nid)
        report(all(c[4] == 0 and c[5] == 0 and str(c[2]) in decks for c in cards if c[1] == nid),
               "%s %s: new cards in the deck" % (what, cid), "")
        kinds = [r["kind"] for r in group]
        want_back = map_urls(first["back"], page, base, "media")
        if kinds == ["basic"]:
            want_front = map_urls(first["front"], page, base, "media")
            report(m["type"] == 0 and len(m["tmpls"]) == 1, "%s %s: a Basic note" % (what, cid), m["name"])
            report(fields[0] == want_front, "%s %s front is the page's" % (what, cid),
                   "%r != %r" % (fields[0], want_front))
            report(mine == [0], "%s %s: one card" % (what, cid), mine)
        elif kinds == ["basic", "reversed"]:
            rev = group[1]
            want_front = map_urls(first["front"], page, base, "media")
            report(m["type"] == 0 and len(m["tmpls"]) == 2 and m["name"].endswith("Basic (and reversed card)") and
                   m["tmpls"][1]["qfmt"] == "{{Back}}",
                   "%s %s: a Basic (and reversed card) note" % (what, cid), m["name"])
            report(fields[0] == want_front, "%s %s front is the page's" % (what, cid),
                   "%r != %r" % (fields[0], want_front))
            report(rev["front"] == first["back"] and rev["back"] == "<p>%s</p>" % first["front"],
                   "%s %s: the page's reversed card is the note's second card" % (what, cid),
                   "%r / %r" % (rev["front"], rev["back"]))
            report(mine == [0, 1], "%s %s: two cards, each way" % (what, cid), mine)
        elif set(kinds) == {"cloze"}:
            report(m["type"] == 1 and m["tmpls"][0]["qfmt"] == "{{cloze:Text}}",
                   "%s %s: a Cloze note" % (what, cid), m["name"])
            text = fields[0]
            dels = [(int(x.group(1)), x.group(2), x.group(3)) for x in RE_CLOZE.finditer(text)]
            report(sorted({d[0] for d in dels}) == [r["cloze"] for r in group],
                   "%s %s: Text holds {{cN:: for each of its cards" % (what, cid), text)
            for r in group:
                front = RE_CLOZE.sub(lambda x: '<span class="cloze-blank">[%s]</span>' % (x.group(3) or "…")
                                     if int(x.group(1)) == r["cloze"] else x.group(2), text)
                answer = RE_CLOZE.sub(lambda x: '<mark class="cloze">%s</mark>' % x.group(2)
                                      if int(x.group(1)) == r["cloze"] else x.group(2), text)
                want_f = map_urls(r["front"], page, base, "media")
                want_a = map_urls(r["answer"], page, base, "media")
                report(front == want_f, "%s %s: Text blanked is the page's front" % (what, r["id"]),
                       "%r != %r" % (front, want_f))
                report(answer == want_a, "%s %s: Text answered is the page's answer" % (what, r["id"]),
                       "%r != %r" % (answer, want_a))
                report(map_urls(r["back"], page, base, "media") == want_back,
                       "%s %s: the card's back is the note's" % (what, r["id"]), "")
            report(mine == [r["cloze"] - 1 for r in group], "%s %s: a card per cloze number" % (what, cid), mine)
        else:
            report(False, "%s %s: a note of the cards one heading makes" % (what, cid), kinds)
            continue
        report(fields[1] == want_back, "%s %s back is the page's" % (what, cid),
               "%r != %r" % (fields[1], want_back))
        report(first["heading"] is not None, "%s %s is the source's heading" % (what, cid), first["note"])
        want_sfld = strip_html_media(fields[m["sortf"]])
        report(str(sfld) == want_sfld, "%s %s sort field" % (what, cid), "%r != %r" % (sfld, want_sfld))
        report(csum == field_checksum(fields[0]), "%s %s checksum" % (what, cid),
               "%s != %s" % (csum, field_checksum(fields[0])))
        for f in fields:
            refs.update(RE_MEDIA.findall(f))
    report(refs == set(media.values()), "%s media map holds exactly the images the fields use" % what,
           "fields use %s, map has %s" % (sorted(refs), sorted(media.values())))


# ---- CSV and TSV ----------------------------------------------------------

# Anki's stock note types, as a new collection names them: what a CSV row names.
NOTETYPES = {("basic",): "Basic", ("basic", "reversed"): "Basic (and reversed card)", ("cloze",): "Cloze"}


def check_csv(path, slug, title, groups, base):
    what = os.path.relpath(path)
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    header = {}
    while lines and lines[0].startswith("#"):
        k, _, v = lines.pop(0)[1:].partition(":")
        header[k] = v
    report(header.get("separator") == "comma" and header.get("html") == "true" and
           header.get("deck column") == "3" and header.get("guid column") == "4" and
           header.get("notetype column") == "5" and "notetype" not in header,
           "%s headers: deck, guid and note type columns" % what, header)
    got = list(csv.reader(io.StringIO("\n".join(lines)), strict=True))
    got = [r for r in got if r]
    report(len(got) == len(groups), "%s rows %d, one per note" % (what, len(groups)), "got %d" % len(got))
    page = "cards/%s/index.html" % slug
    for r, group in zip(got, groups):
        first = group[0]
        cid = first["note"]
        kinds = tuple(sorted({x["kind"] for x in group}, key=["basic", "reversed", "cloze"].index))
        back = map_urls(first["back"], page, base, "absolute")
        if kinds == ("cloze",):
            report(len(r) == 5 and {int(x.group(1)) for x in RE_CLOZE.finditer(r[0])} ==
                   {x["cloze"] for x in group} and
                   RE_CLOZE.sub(lambda x: x.group(2), r[0]) ==
                   re.sub(r'<mark class="cloze">(.*?)</mark>', r"\1", map_urls(first["answer"], page, base, "absolute")),
                   "%s %s: Text holds its deletions as {{cN::...}}, the answers the page's" % (what, cid), r[:1])
            want = [r[0], back]
        else:
            want = [map_urls(first["front"], page, base, "absolute"), back]
        want += [title, "quizdeck:%s/%s" % (slug, cid), NOTETYPES.get(kinds, "?")]
        report(r == want, "%s %s: fields, deck, guid, note type" % (what, cid), "%r != %r" % (r, want))
        report(not r[0].startswith("#") or text.count('"' + r[0][:5]) > 0,
               "%s %s: a front starting with # is quoted" % (what, cid), r[0])


def back_words(back):
    """The back's words, its images' alt text among them, and its footnotes' words."""
    words = re.sub(r'<sup class="footnote-ref">.*?</sup>|<a class="footnote-backref".*?</a>', "", back)
    words = re.sub(r'<img[^>]*alt="([^"]*)"[^>]*>', r"\1", words)
    words = re.sub(r"</?(p|li|td|th|tr|div|pre|blockquote|h[1-6]|ol|ul|table|section)\b[^>]*>", " ", words)
    return plain(words)


def check_tsv(path, rows):
    """Quizlet asks a term either way itself: a reversed twin has no line of its own."""
    what = os.path.relpath(path)
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    rows = [r for r in rows if r["kind"] != "reversed"]
    report(lines[-1] == "" and len(lines) - 1 == len(rows),
           "%s lines %d, one per card but reversed twins" % (what, len(rows)), "got %d" % (len(lines) - 1))
    for line, r in zip(lines, rows):
        cols = line.split("\t")
        ok = len(cols) == 2 and cols[0] == plain(r["front"]) and "\r" not in line
        report(ok, "%s %s: term TAB definition, plain text" % (what, r["id"]), repr(line))
        if len(cols) == 2:
            words = back_words(r["back"])
            if r["kind"] == "cloze":
                words = (plain(r["answer"]) + " " + words).strip()
            report(cols[1] == words, "%s %s: the back's text" % (what, r["id"]), "%r != %r" % (cols[1], words))


# ---- Moodle -------------------------------------------------------------

def texts_and_files(el, what, site_files):
    """An html text element's text, after checking its @@PLUGINFILE@@ files are in it."""
    report(el is not None and el.get("format") == "html", "%s format html" % what, "")
    if el is None:
        return ""
    text = el.findtext("text") or ""
    files = {f.get("name"): f for f in el.findall("file")}
    used = set(re.findall(r"@@PLUGINFILE@@/([^\"'>]+)", text))
    report(used == set(files), "%s embeds exactly the files it uses" % what,
           "uses %s, embeds %s" % (sorted(used), sorted(files)))
    for name, f in files.items():
        data = base64.b64decode(f.text or "")
        report(f.get("encoding") == "base64" and f.get("path") == "/" and
               site_files.get(name) == data, "%s file %s is the site's" % (what, name), "")
    return text


def fractions_ok(fr, multi):
    if not fr or len(fr) < 2 or any(f < -100 or f > 100 for f in fr):
        return False
    if not multi:
        return max(fr) == 100 and sorted(fr)[-2] < 100
    return round(sum(f for f in fr if f > 0) / 100, 2) == 1 and sum(f for f in fr if f < 0) >= -100.001


MOODLE_TYPES = {"single": "multichoice", "multi": "multichoice", "number": "numerical",
                "text": "shortanswer", "output": "shortanswer", "category": "category", "essay": "essay"}


def moodle_type(src):
    """A program's output of several lines is an essay: a Moodle short answer is one line."""
    if src["data-kind"] == "output" and any("\n" in t["answer"] for t in src["typed"]):
        return "essay"
    return MOODLE_TYPES.get(src["data-kind"], "?")


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check_multichoice(q, qw, src, page, base, site_files):
    multi = src["data-kind"] == "multi"
    report(q.findtext("single") == ("false" if multi else "true"), "%s single" % qw, q.findtext("single"))
    answers = q.findall("answer")
    fr = [float(a.get("fraction")) for a in answers]
    report(fractions_ok(fr, multi), "%s fractions" % qw, fr)
    report(len(answers) == len(src["options"]), "%s one answer per option" % qw,
           "%d != %d" % (len(answers), len(src["options"])))
    for k, (a, (correct, obody)) in enumerate(zip(answers, src["options"])):
        at = texts_and_files(a, "%s answer %d" % (qw, k), site_files)
        report(at == map_urls(src["option_text"][k], page, base, "moodle"),
               "%s answer %d text" % (qw, k), at)
        report((fr[k] > 0) == correct, "%s answer %d is right exactly when the source marks it" % (qw, k), fr[k])
        fb = texts_and_files(a.find("feedback"), "%s answer %d feedback" % (qw, k), site_files)
        m = re.search(r'<div class="option-feedback"[^>]*>(.*)</div>', obody, re.S)
        want_fb = map_urls(m.group(1).strip(), page, base, "moodle") if m else ""
        report(fb == want_fb, "%s answer %d feedback is the option's" % (qw, k), "%r != %r" % (fb, want_fb))


def check_feedback(q, qw, src, page, base, site_files, pairs):
    """pairs: (answer element, typed item): 100 when right, 0 when wrong, the item's feedback."""
    for k, (a, t) in enumerate(pairs):
        report(float(a.get("fraction")) == (100.0 if t["correct"] else 0.0),
               "%s answer %d: 100 when right, 0 when a foreseen wrong one" % (qw, k), a.get("fraction"))
        fb = texts_and_files(a.find("feedback"), "%s answer %d feedback" % (qw, k), site_files)
        want_fb = map_urls(t["feedback"], page, base, "moodle")
        report(fb == want_fb, "%s answer %d feedback is the item's" % (qw, k), "%r != %r" % (fb, want_fb))


def grade_number(ranges, v):
    """The first (value, tolerance, fraction, payload) whose range holds v, as Moodle's numerical grading picks it."""
    for r in ranges:
        eps = 1e-9 * max(1, abs(r[0]))
        if r[0] - r[1] - eps <= v <= r[0] + r[1] + eps:
            return r
    return None


def check_number_items(qw, src, ranges, units):
    """
    Every typed item graded as Moodle grades it: its middle, in its unit,
    divided by the unit's multiplier, falls first in an answer whose range
    is the item's (so the tolerance is the range), right exactly when the
    item is. An item in a unit Moodle does not know must be a wrong one.
    """
    for t in src["typed"]:
        tw = "%s %r" % (qw, t["answer"])
        mult = 1.0 if t["unit"] == "" else units.get(t["unit"])
        if mult is None:
            report(not t["correct"], "%s: a right answer's unit is the question's" % tw, units)
            continue
        lo, hi = float(t["min"]) / mult, float(t["max"]) / mult
        hit = grade_number(ranges, (lo + hi) / 2)
        report(hit is not None and close(hit[0] - hit[1], lo) and close(hit[0] + hit[1], hi) and
               (hit[2] == 100) == t["correct"],
               "%s: graded %s, its range %s..%s" % (tw, "right" if t["correct"] else "wrong", t["min"], t["max"]),
               hit and hit[:3])


def check_numerical(q, qw, src, page, base, site_files):
    """Moodle's tolerance is absolute, either side of the answer; units optional, the first right one's first."""
    answers = q.findall("answer")
    report(0 < len(answers) <= len(src["typed"]), "%s an answer per typed item at most" % qw, len(answers))
    ranges = []
    for a in answers:
        text, tol = a.findtext("text") or "", a.findtext("tolerance") or ""
        ok = re.fullmatch(r"-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?", text) and re.fullmatch(r"[0-9.e+-]+", tol)
        report(bool(ok), "%s answer %s: a number and a tolerance" % (qw, text), tol)
        if ok:
            ranges.append((float(text), float(tol), float(a.get("fraction")), a))
    units = {u.findtext("unit_name"): float(u.findtext("multiplier")) for u in q.findall("units/unit")}
    first = next((t["unit"] for t in src["typed"] if t["correct"] and t["unit"]), "")
    ulist = [(u.findtext("unit_name"), u.findtext("multiplier")) for u in q.findall("units/unit")]
    report((ulist[:1] == [(first, "1")] if first else ulist == []) and
           q.findtext("showunits") == ("0" if first else "3") and q.findtext("unitgradingtype") == "0",
           "%s unit %r first, optional, as on the site" % (qw, first),
           "%s, showunits %s" % (ulist, q.findtext("showunits")))
    check_number_items(qw, src, ranges, units)
    pairs = []
    for t in src["typed"]:
        mult = 1.0 if t["unit"] == "" else units.get(t["unit"])
        if mult is not None:
            hit = grade_number(ranges, (float(t["min"]) + float(t["max"])) / 2 / mult)
            if hit is not None and not any(hit[3] is p[0] for p in pairs):
                pairs.append((hit[3], t))
    report(len(pairs) == len(answers), "%s every answer is an item's" % qw, "%d != %d" % (len(pairs), len(answers)))
    check_feedback(q, qw, src, page, base, site_files, pairs)


def check_shortanswer(q, qw, src, page, base, site_files):
    """usecase 1 when the site compares exactly (.exact, a program's output); '*' is Moodle's wildcard."""
    exact = src.get("data-exact") == "true" or src["data-kind"] == "output"
    report(q.findtext("usecase") == ("1" if exact else "0"), "%s usecase" % qw, q.findtext("usecase"))
    answers = q.findall("answer")
    report(len(answers) == len(src["typed"]), "%s one answer per typed item" % qw,
           "%d != %d" % (len(answers), len(src["typed"])))
    check_feedback(q, qw, src, page, base, site_files, list(zip(answers, src["typed"])))
    for k, (a, t) in enumerate(zip(answers, src["typed"])):
        text = a.findtext("text") or ""
        report(re.sub(r"\\\*", "*", text) == t["answer"] and not re.search(r"(?<!\\)\*", text),
               "%s answer %d is %r, a '*' escaped" % (qw, k, t["answer"]), text)


def check_essay(q, qw, src, page, base, site_files):
    """An output of several lines: a monospaced essay, every output in the grader's information."""
    report(not q.findall("answer") and q.findtext("responseformat") == "monospaced",
           "%s monospaced, no answers" % qw, q.findtext("responseformat"))
    gi = texts_and_files(q.find("graderinfo"), "%s graderinfo" % qw, site_files)
    want = essay_info(src, page, base, "moodle")
    report(gi == want, "%s grader information holds each output" % qw, "%r != %r" % (gi, want))


def essay_info(src, page, base, images):
    out = []
    for correct in (True, False):
        for t in src["typed"]:
            if t["correct"] == correct:
                out.append("<p>%s</p>\n<pre><code>%s</code></pre>" % (
                    "Accepted output:" if correct else "A foreseen wrong output:",
                    t["answer"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")))
                if t["feedback"]:
                    out.append(map_urls(t["feedback"], page, base, images))
    return "\n".join(out)


def check_moodle(path, slug, title, topics, base, site_files):
    what = os.path.relpath(path)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        report(False, what, "not XML: %s" % e)
        return
    report(root.tag == "quiz", "%s root is quiz" % what, root.tag)
    qs = root.findall("question")
    report(all(q.get("type") in MOODLE_TYPES.values() for q in qs),
           "%s question types are Moodle's" % what, {q.get("type") for q in qs})
    i = 0
    page = "quiz/%s/index.html" % slug
    for ttitle, questions in topics:
        cat = qs[i] if i < len(qs) else None
        want = "$course$/top/" + title.replace("/", "//")
        if len(topics) > 1 or ttitle != title:
            want += "/" + ttitle.replace("/", "//")
        report(cat is not None and cat.get("type") == "category" and
               cat.findtext("category/text") == want, "%s category %s" % (what, want),
               cat.findtext("category/text") if cat is not None else "missing")
        i += 1
        for src in questions:
            q = qs[i] if i < len(qs) else None
            i += 1
            qw = "%s %s" % (what, src["data-id"])
            if q is None or src.get("missing"):
                report(False, qw, "missing")
                continue
            want_type = moodle_type(src)
            report(q.get("type") == want_type, "%s is %s" % (qw, want_type), q.get("type"))
            report(q.findtext("idnumber") == src["data-id"], "%s idnumber" % qw, q.findtext("idnumber"))
            name = q.findtext("name/text") or ""
            report(name.strip() != "" and len(name) <= 255 and name == plain(src["stem"]),
                   "%s name is the stem's text" % qw, name)
            qt = texts_and_files(q.find("questiontext"), "%s questiontext" % qw, site_files)
            want_qt = "<p>" + src["stem"] + "</p>\n" + src["stem_body"] + ("\n" if src["stem_body"] else "") + src["hint"]
            want_qt = map_urls(want_qt.rstrip("\n"), page, base, "moodle")
            report(qt == want_qt, "%s question text is the page's stem and hint" % qw, "%r != %r" % (qt, want_qt))
            gf = texts_and_files(q.find("generalfeedback"), "%s generalfeedback" % qw, site_files)
            want_gf = map_urls(src["explanation"], page, base, "moodle")
            report(gf == want_gf, "%s general feedback is the explanation" % qw, "%r != %r" % (gf, want_gf))
            if want_type == "multichoice":
                check_multichoice(q, qw, src, page, base, site_files)
            elif want_type == "numerical":
                check_numerical(q, qw, src, page, base, site_files)
            elif want_type == "shortanswer":
                check_shortanswer(q, qw, src, page, base, site_files)
            else:
                check_essay(q, qw, src, page, base, site_files)
            tags = [t.text for t in q.findall("tags/tag/text")]
            report(tags == [src["data-difficulty"]], "%s difficulty tag" % qw, tags)
    report(i == len(qs), "%s nothing more" % what, "%d elements, %d expected" % (len(qs), i))


# ---- GIFT ---------------------------------------------------------------

GIFT_SPECIAL = "~=#{}:"


def gift_split(text, seps):
    """Splits at unescaped characters of seps: [(sep before, part)], escapes kept."""
    parts, cur, sep, i = [], "", "", 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            cur += text[i:i + 2]
            i += 2
            continue
        if c in seps:
            parts.append((sep, cur))
            sep, cur = c, ""
        else:
            cur += c
        i += 1
    parts.append((sep, cur))
    return parts


def gift_unescape(s):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), s)


def check_gift(path, slug, title, topics, base):
    what = os.path.relpath(path)
    with open(path, encoding="utf-8") as f:
        blocks = [b for b in f.read().split("\n\n") if b.strip()]
    want = [None]
    i = 0
    page = "quiz/%s/index.html" % slug
    for ttitle, questions in topics:
        cat = "$course$/top/" + title.replace("/", "//")
        if len(topics) > 1 or ttitle != title:
            cat += "/" + ttitle.replace("/", "//")
        report(i < len(blocks) and blocks[i] == "$CATEGORY: " + cat, "%s category %s" % (what, cat),
               blocks[i] if i < len(blocks) else "missing")
        i += 1
        for src in questions:
            qw = "%s %s" % (what, src["data-id"])
            kind = moodle_type(src)
            b = blocks[i] if i < len(blocks) else ""
            i += 1
            lines = b.split("\n")
            report(lines[0] == "// [id:%s] [tag:%s]" % (src["data-id"], src["data-difficulty"]),
                   "%s comment with id and tag" % qw, lines[0])
            body = "\n".join(lines[1:])
            # ::title::[html]text { answers }: one opening and one closing brace unescaped.
            top = gift_split(body, "{}")
            if len(top) != 3 or top[1][0] != "{" or top[2][0] != "}" or top[2][1].strip():
                report(False, "%s one answer block" % qw, repr(body[:200]))
                continue
            head = gift_split(top[0][1], ":")
            report(len(head) == 5 and head[1][1] == "" and head[3][1] == "" and
                   gift_unescape(head[2][1]) == plain(src["stem"]) and head[4][1].startswith("[html]"),
                   "%s ::name::[html]" % qw, repr(top[0][1][:120]))
            if len(head) == 5:
                qt = gift_unescape(head[4][1][len("[html]"):]).strip()
                want_qt = "<p>" + src["stem"] + "</p>\n" + src["stem_body"] + ("\n" if src["stem_body"] else "") + src["hint"]
                want_qt = map_urls(want_qt.rstrip("\n"), page, base, "absolute")
                unit = next((t["unit"] for t in src["typed"] if t["correct"] and t["unit"]), "")
                if kind == "numerical" and unit:
                    # GIFT has no units: the question says which one.
                    want_qt += "\n<p>In %s.</p>" % unit.replace("&", "&amp;").replace("<", "&lt;")
                report(qt == want_qt, "%s question text" % qw, "%r != %r" % (qt, want_qt))
            block = top[1][1]
            report(block.startswith("#") == (kind == "numerical"), "%s {# exactly when numerical" % qw, block[:10])
            if kind == "numerical":
                block = block[1:]
            answers = [(s, p) for s, p in gift_split(block, "~=#") if s]
            opts, general = [], None
            j = 0
            while j < len(answers):
                s, p = answers[j]
                if s in "~=":
                    opts.append([s, p.strip(), None])
                elif s == "#" and p == "" and answers[j + 1:j + 4] and all(x[0] == "#" for x in answers[j + 1:j + 3]):
                    general = gift_unescape(answers[j + 3][1]).strip() if j + 3 < len(answers) else None
                    j += 4
                    continue
                elif s == "#" and opts:
                    opts[-1][2] = gift_unescape(p.strip())
                j += 1
            want_gf = map_urls(src["explanation"], page, base, "absolute")
            if kind == "essay":
                report(opts == [], "%s an essay: no answers" % qw, opts)
                want_gf = essay_info(src, page, base, "absolute") + ("\n" + want_gf if want_gf else "")
                report((general or "") == want_gf, "%s general feedback: the outputs, the explanation" % qw,
                       "%r != %r" % (general, want_gf))
                continue
            report((general or "") == want_gf, "%s general feedback" % qw, "%r != %r" % (general, want_gf))
            if kind == "numerical":
                # GIFT has no units: the numbers are in the question's; an item in another unit is checked in the XML.
                ranges = []
                for s, p, fb in opts:
                    wrong = p.startswith("%0%")
                    m = re.fullmatch(r"(-?[0-9.e+-]+):([0-9.e+-]+)", p[3:] if wrong else p)
                    report(s == "=" and m is not None, "%s =value:tolerance, %%0%% when wrong" % qw, s + p)
                    if m:
                        ranges.append((float(m.group(1)), float(m.group(2)), 0 if wrong else 100, fb))
                report(0 < len(ranges) <= len(src["typed"]), "%s an answer per typed item at most" % qw, len(ranges))
                first = next((t["unit"] for t in src["typed"] if t["correct"] and t["unit"]), "")
                mine = dict(src, typed=[t for t in src["typed"] if t["unit"] in ("", first)])
                check_number_items(qw, mine, ranges, {first: 1.0} if first else {})
                for t in mine["typed"]:
                    hit = grade_number(ranges, (float(t["min"]) + float(t["max"])) / 2)
                    want_fb = map_urls(t["feedback"], page, base, "absolute") or None
                    report(hit is not None and hit[3] == want_fb, "%s %r feedback" % (qw, t["answer"]),
                           "%r != %r" % (hit and hit[3], want_fb))
                continue
            if kind == "shortanswer":
                report(len(opts) == len(src["typed"]) and opts, "%s one answer per typed item" % qw,
                       "%d != %d" % (len(opts), len(src["typed"])))
                for (s, p, fb), t in zip(opts, src["typed"]):
                    wrong = p.startswith("%0%")
                    report(s == "=" and wrong != t["correct"], "%s %r: =, %%0%% when wrong" % (qw, t["answer"]), s + p)
                    p = p[3:] if wrong else p
                    report(re.sub(r"\\\*", "*", gift_unescape(p)) == t["answer"],
                           "%s %r: the text, '*' escaped" % (qw, t["answer"]), p)
                    want_fb = map_urls(t["feedback"], page, base, "absolute") or None
                    report(fb == want_fb, "%s %r feedback" % (qw, t["answer"]), "%r != %r" % (fb, want_fb))
                continue
            report(len(opts) == len(src["options"]), "%s one answer per option" % qw,
                   "%d != %d" % (len(opts), len(src["options"])))
            multi = src["data-kind"] == "multi"
            fr = []
            for (s, p, fb), (correct, obody), otext in zip(opts, src["options"], src["option_text"]):
                m = re.match(r"%(-?[0-9.]+)%", p)
                if m:
                    fr.append(float(m.group(1)))
                    p = p[m.end():]
                else:
                    fr.append(100.0 if s == "=" else 0.0)
                report(gift_unescape(p) == map_urls(otext, page, base, "absolute"),
                       "%s answer %r" % (qw, gift_unescape(p)[:30]), "want %r" % otext)
                m2 = re.search(r'<div class="option-feedback"[^>]*>(.*)</div>', obody, re.S)
                want_fb = map_urls(m2.group(1).strip(), page, base, "absolute") if m2 else None
                report(fb == want_fb, "%s answer feedback" % qw, "%r != %r" % (fb, want_fb))
                report((fr[-1] > 0) == correct, "%s answer right exactly when marked" % qw, fr[-1])
            report(fractions_ok(fr, multi), "%s weights" % qw, fr)
    report(i == len(blocks), "%s nothing more" % what, "%d blocks, %d expected" % (len(blocks), i))


def main():
    site, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(site, "site.toml"), "rb") as f:
        cfg = tomllib.load(f)
    base = cfg.get("base_url", "").rstrip("/")
    content = os.path.join(site, "content")
    exp = os.path.join(out, "export")
    site_files = {}
    for root, _, files in os.walk(content):
        for f in files:
            if not f.endswith(".md"):
                rel = posixpath.relpath(os.path.join(root, f), content).replace(os.sep, "/")
                site_files[media_name(rel)] = open(os.path.join(root, f), "rb").read()
    decks = site_decks(site, out)
    for slug, (title, desc, rows, groups) in decks.items():
        check_apkg(os.path.join(exp, slug + ".apkg"), slug, title, desc, rows, groups, base, content)
        check_csv(os.path.join(exp, slug + ".csv"), slug, title, groups, base)
        check_tsv(os.path.join(exp, slug + ".tsv"), rows)
    tests = site_tests(site, out)
    for slug, (title, topics) in tests.items():
        check_moodle(os.path.join(exp, slug + ".xml"), slug, title, topics, base, site_files)
        check_gift(os.path.join(exp, slug + ".gift.txt"), slug, title, topics, base)
    want = sorted([s + x for s in decks for x in (".apkg", ".csv", ".tsv")] +
                  [s + x for s in tests for x in (".xml", ".gift.txt")])
    got = sorted(os.listdir(exp)) if os.path.isdir(exp) else []
    report(got == want, "%s holds one file per deck and test and format" % os.path.relpath(exp),
           "got %s, want %s" % (got, want))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

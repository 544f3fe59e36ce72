#!/usr/bin/env python3
"""Anki packages for the import suite, made and compared with Python's
sqlite3 and zipfile alone (no quizdeck code).

    importcheck.py same A.apkg B.apkg NAME   `ok`/`not ok` lines: the same notes
    importcheck.py make OUT.apkg KIND        a package written as Anki writes one

`same` reads both packages and compares, note by note in deck order (new
cards by due, as Anki shows them): the guid, the note type's kind (basic,
reversed, cloze) and every field, with each image's file name replaced by
a hash of its bytes (an import renames the files it copies).

`make` KINDs: anki (Anki's own note types and guids: HTML formatting, an
image, a cloze note, a reversed note, tags, a subdeck-free deck), and the
bad ones: script, schema18, anki21b, nocol, notsqlite; and the hostile
ones: bomb (an image of 40 MiB of zeros), bigcol (a collection whose
header claims more than quizdeck reads), view (notes an endless
recursive view), toomany (more notes than one import takes), badutf8
(a field not UTF-8), nul (a field holding a NUL byte), badguid (a
quizdeck guid whose card id is not UTF-8), baddeck (a deck name not
UTF-8), casemedia (images "A.png" and "a.png").
"""
import hashlib
import json
import os
import re
import sqlite3
import sys
import tempfile
import zipfile


def read(path):
    """The notes of a package in deck order: (guid, kind, [fields]) with image names hashed."""
    z = zipfile.ZipFile(path)
    media = json.loads(z.read("media")) if "media" in z.namelist() else {}
    digest = {name: hashlib.sha1(z.read(key)).hexdigest()[:12] for key, name in media.items()}
    with tempfile.NamedTemporaryFile(suffix=".anki2") as f:
        f.write(z.read("collection.anki2"))
        f.flush()
        db = sqlite3.connect(f.name)
        models = json.loads(db.execute("select models from col").fetchone()[0])
        rows = db.execute(
            "select n.guid, n.mid, n.flds, min(c.due) from notes n join cards c on c.nid = n.id"
            " group by n.id order by min(c.due), n.id").fetchall()
        db.close()
    notes = []
    for guid, mid, flds, _ in rows:
        m = models[str(mid)]
        kind = "cloze" if m["type"] == 1 else ("reversed" if len(m["tmpls"]) == 2 else "basic")
        fields = [re.sub(r'src="([^"]*)"', lambda x: 'src="%s"' % digest.get(x.group(1), "MISSING:" + x.group(1)), fld)
                  for fld in flds.split("\x1f")]
        notes.append((guid, kind, fields))
    return notes


def same(a, b, name):
    na, nb = read(a), read(b)
    bad = 0
    if [n[0] for n in na] != [n[0] for n in nb]:
        print("not ok import %s: the guids differ, in deck order:\n  %s\n  %s" % (
            name, [n[0] for n in na], [n[0] for n in nb]))
        return
    for x, y in zip(na, nb):
        if x != y:
            bad += 1
            print("not ok import %s: note %s differs:\n  before %r\n  after  %r" % (name, x[0], x[1:], y[1:]))
    if not bad:
        print("ok import %s: %d notes, the same guids, kinds and fields" % (name, len(na)))


# ---- packages as Anki writes them -------------------------------------------

SCHEMA = """
create table col (id integer primary key, crt integer not null, mod integer not null,
 scm integer not null, ver integer not null, dty integer not null, usn integer not null,
 ls integer not null, conf text not null, models text not null, decks text not null,
 dconf text not null, tags text not null);
create table notes (id integer primary key, guid text not null, mid integer not null,
 mod integer not null, usn integer not null, tags text not null, flds text not null,
 sfld integer not null, csum integer not null, flags integer not null, data text not null);
create table cards (id integer primary key, nid integer not null, did integer not null,
 ord integer not null, mod integer not null, usn integer not null, type integer not null,
 queue integer not null, due integer not null, ivl integer not null, factor integer not null,
 reps integer not null, lapses integer not null, left integer not null, odue integer not null,
 odid integer not null, flags integer not null, data text not null);
create table revlog (id integer primary key, cid integer not null, usn integer not null,
 ease integer not null, ivl integer not null, lastIvl integer not null,
 factor integer not null, time integer not null, type integer not null);
create table graves (usn integer not null, oid integer not null, type integer not null);
"""

# A 1x1 PNG.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d4944415478da63f8cfc0f01f0005000201a5f0d8b40000000049454e44ae426082")


def model(mid, name, kind, fields, ntmpls):
    tmpls = [{"name": "Card %d" % (i + 1), "ord": i, "qfmt": "{{%s}}" % fields[i % len(fields)],
              "afmt": "{{FrontSide}}<hr id=answer>{{%s}}" % fields[(i + 1) % len(fields)]}
             for i in range(ntmpls)]
    return {"id": mid, "name": name, "type": kind, "sortf": 0, "did": 1, "mod": 0, "usn": 0,
            "tmpls": tmpls, "flds": [{"name": f, "ord": i} for i, f in enumerate(fields)],
            "css": "", "req": []}


def make(out, kind):
    ver = 18 if kind == "schema18" else 11
    note_rows = [
        # id, guid, model, fields, tags, card ords
        (1600000000001, "e]Q8<jv#2s", 1, ["<b>Bold</b> and <i>italic</i> front",
                                          "A <u>back</u> with<br>a line break and H<sub>2</sub>O<div>and a div</div>"],
         " vocab ", [0]),
        (1600000000002, "b9T!pp3~Lk", 1, ["What is shown?", '<img src="my cat.png"> a cat'], "", [0]),
        (1600000000003, "Cl0ze/id+", 3, ["The capital of France is {{c1::Paris::a city}}, of Italy {{c2::Rome}}",
                                         "Both are <b>capitals</b>."], "", [0, 1]),
        (1600000000004, "Rev&rsed", 2, ["der Hund", "the dog"], "", [0, 1]),
        (1600000000005, "l1st", 1, ["Lists and code", "<ul><li>one</li><li>two</li></ul>"
                                     "<pre>x = 1\n</pre><table><tr><td>a</td><td>b</td></tr></table>"], "", [0]),
    ]
    if kind == "script":
        note_rows[1] = (1600000000002, "b9T!pp3~Lk", 1, ["Hi", "<img src=x onerror=alert(1)>"], "", [0])
    elif kind == "badutf8":
        note_rows[3] = (1600000000004, "Rev&rsed", 2, ["der Hund", b"the d\xffg"], "", [0, 1])
    elif kind == "nul":
        note_rows[4] = (1600000000005, "l1st", 1, ["Lists", "before\0after"], "", [0])
    elif kind == "badguid":
        note_rows[0] = (1600000000001, b"quizdeck:german/card-\xff", 1, ["f", "b"], "", [0])
    elif kind == "casemedia":
        note_rows[1] = (1600000000002, "b9T!pp3~Lk", 1, ["Two", '<img src="A.png"><img src="a.png">'], "", [0])

    models = {
        "1": model(1, "Basic", 0, ["Front", "Back"], 1),
        "2": model(2, "Basic (and reversed card)", 0, ["Front", "Back"], 2),
        "3": model(3, "Cloze", 1, ["Text", "Back Extra"], 1),
    }
    decks = {"1": {"id": 1, "name": "Default", "desc": ""},
             "1650000000000": {"id": 1650000000000, "name": "German & more", "desc": "Words <b>to learn</b>"}}
    decks_json = json.dumps(decks)
    if kind == "baddeck":
        decks_json = decks_json.replace("German & more", "German \\udcff more")
    with tempfile.TemporaryDirectory() as tmp:
        col = os.path.join(tmp, "collection.anki2")
        db = sqlite3.connect(col)
        db.executescript(SCHEMA)
        db.execute("insert into col values (1,0,0,0,?,0,0,0,'{}',?,?,'{}','{}')",
                   (ver, json.dumps(models), decks_json))
        if kind == "baddeck":
            # A lone surrogate escape is no character: the name SQLite's JSON gives back is not UTF-8.
            db.execute("update col set decks = cast(replace(decks, '\\udcff', cast(x'ff' as text)) as text)")
        card = 1700000000000
        for pos, (nid, guid, mid, flds, tags, ords) in enumerate(note_rows):
            flds = [f if isinstance(f, bytes) else f.encode() for f in flds]
            db.execute("insert into notes values (?,?,?,0,0,?,?,?,0,0,'')",
                       (nid, guid, mid, tags, b"\x1f".join(flds), flds[0]))
            for o in ords:
                card += 1
                db.execute("insert into cards values (?,?,?,?,0,0,0,0,?,0,0,0,0,0,0,0,0,'')",
                           (card, nid, 1650000000000, o, pos + 1))
        if kind == "toomany":
            db.execute("with recursive r(i) as (select 1 union all select i + 1 from r limit 200001)"
                       " insert into notes select 1600000000100 + i, 'g' || i, 1, 0, 0, '',"
                       " 'f' || char(31) || 'b', 'f', 0, 0, '' from r")
        if kind == "view":
            db.executescript(
                "drop table notes; create view notes as with recursive r(id) as"
                " (select 1 union all select id + 1 from r) select id, 'g' || id as guid, 1 as mid,"
                " 0 as mod, 0 as usn, '' as tags, 'f' || char(31) || 'b' as flds, '' as sfld,"
                " 0 as csum, 0 as flags, '' as data from r;")
        db.commit()
        db.close()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            if kind == "bomb":
                z.write(col, "collection.anki2")
                z.writestr("media", json.dumps({"0": "my cat.png"}))
                with z.open("0", "w", force_zip64=True) as f:
                    zeros = bytes(1 << 20)
                    for _ in range(40):
                        f.write(zeros)
                return
            if kind == "bigcol":
                # A collection over a megabyte of zeros after its pages: it inflates
                # more than any real file does.
                with open(col, "ab") as f:
                    f.write(bytes(8 << 20))
            if kind == "notsqlite":
                z.writestr("collection.anki2", b"this is not SQLite" * 100)
            elif kind != "nocol":
                z.write(col, "collection.anki2")
            if kind == "anki21b":
                z.writestr("collection.anki21b", b"\x28\xb5\x2f\xfd")
            if kind == "casemedia":
                z.writestr("media", json.dumps({"0": "A.png", "1": "a.png"}))
                z.writestr("0", PNG)
                z.writestr("1", PNG + b"a")
                return
            z.writestr("media", json.dumps({"0": "my cat.png"}))
            z.writestr("0", PNG)


def main():
    if sys.argv[1] == "same":
        same(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: importcheck.py same A B NAME | make OUT KIND")


if __name__ == "__main__":
    main()

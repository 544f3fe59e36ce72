#!/bin/sh
# Exports: out/export/ read back independently (tests/exportcheck.py: the
# Anki package with zipfile and sqlite3 against Anki's schema 11 rules,
# CSV with csv, Moodle XML with xml.etree against Moodle's rules, GIFT by
# its grammar), every field compared with the source and its page.
#
#  1. tests/fixtures/export (code, tables, lists, images, footnotes,
#     links, quoting traps, single and multiple answers, typed numbers,
#     texts and outputs, a cloze and a reversed card) with base_url,
#     the same site without it, and the default site.
#  2. The same bytes from another build: -j 1, another time zone; other
#     bytes, and the collection's times, under another SOURCE_DATE_EPOCH.
#  3. `quizdeck export FORMAT [NAME...]`: only what is asked, in place;
#     usage errors for an unknown format or name; a site with errors
#     writes nothing; `build --no-export`.
#  4. The same builds under ASan+UBSan, when build/asan/quizdeck is there.
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
Q=${QUIZDECK:-./quizdeck}
F=tests/fixtures/export
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok export $*"; }
fail() { echo "not ok export $*"; }

# build NAME SITE [OPTIONS...]: the site into $tmp/NAME, no PDFs; status in $rc.
build() {
	name=$1 site=$2
	shift 2
	$Q build -q -C "$site" -o "$tmp/$name" --no-pdf "$@" >"$tmp/$name.log" 2>&1
	rc=$?
}

# ---- 1. read back ---------------------------------------------------------
cp -R "$F" "$tmp/nobase-site"
sed -i '/^base_url/d' "$tmp/nobase-site/site.toml"
for case in "fixture $F" "nobase $tmp/nobase-site" "default ."; do
	set -- $case
	build "$1" "$2"
	if [ "$rc" -ne 0 ]; then
		fail "$1: the build failed ($rc): $(head -c 300 "$tmp/$1.log")"
		continue
	fi
	python3 tests/exportcheck.py "$2" "$tmp/$1"
done

# A wrong number answer in a unit no right answer uses has no place in
# Moodle's numerical question: it is left out, and the build says so.
want='content/quiz/mixed/typed.md:10:1: warning: the wrong answer "26.2 mi ± 0.1" is in mi, a unit no right answer of question "marathon" uses, so Moodle cannot compare it and the export leaves it out: write it in km'
if grep -qxF "$want" "$tmp/fixture.log" && [ "$(grep -c 'Moodle cannot compare' "$tmp/fixture.log")" = 1 ]; then
	ok "fixture: a wrong answer in an unknown unit is a warning, once"
else
	fail "fixture: want the warning \"$want\"; got $(grep 'typed.md' "$tmp/fixture.log")"
fi

# Without base_url a link to the site keeps its text only, and an image
# that cannot travel (CSV) its alt text; the package still carries it.
if grep -q 'href="https://example.org' "$tmp/nobase/export/kitchen-sink.csv" ||
    ! grep -q "units section, and on" "$tmp/nobase/export/kitchen-sink.csv" ||
    grep -q '<img src="[^"h]' "$tmp/nobase/export/kitchen-sink.csv"; then
	fail "nobase: site links and images are dropped to their text in CSV"
else
	ok "nobase: site links and images are dropped to their text in CSV"
fi

# ---- 2. the same bytes ----------------------------------------------------
build again "$F" -j 1
TZ=Pacific/Chatham build zone "$F"
for f in "$tmp"/fixture/export/*; do
	b=$(basename "$f")
	if cmp -s "$f" "$tmp/again/export/$b" && cmp -s "$f" "$tmp/zone/export/$b"; then
		ok "same bytes: $b with -j 1 and in another time zone"
	else
		fail "same bytes: $b differs between builds"
	fi
done
SOURCE_DATE_EPOCH=1800000000 build later "$F"
if cmp -s "$tmp/fixture/export/one.apkg" "$tmp/later/export/one.apkg"; then
	fail "SOURCE_DATE_EPOCH: the package does not change with it"
else
	ok "SOURCE_DATE_EPOCH: the package changes with it"
fi
for pair in "fixture 1700000000" "later 1800000000"; do
	set -- $pair
	got=$(python3 - "$tmp/$1/export/one.apkg" <<'EOF'
import sqlite3, sys, tempfile, zipfile, os
z = zipfile.ZipFile(sys.argv[1])
d = tempfile.mkdtemp()
p = os.path.join(d, "c")
open(p, "wb").write(z.read("collection.anki2"))
db = sqlite3.connect(p)
crt, mod = db.execute("select crt, mod from col").fetchone()
nmod, = db.execute("select max(mod) from notes").fetchone()
t = z.infolist()[0].date_time
print(crt, mod, nmod, "%04d-%02d-%02d" % t[:3])
EOF
)
	day=$(date -u -d "@$2" +%Y-%m-%d)
	want="$(($2 - $2 % 86400)) $(($2 * 1000)) $2 $day"
	if [ "$got" = "$want" ]; then
		ok "times of $1: collection, notes and zip entries from SOURCE_DATE_EPOCH"
	else
		fail "times of $1: got \"$got\", want \"$want\""
	fi
done

# ---- 3. the command -------------------------------------------------------
cp -R "$tmp/fixture" "$tmp/cmd"
rm -f "$tmp/cmd/export/one.apkg" "$tmp/cmd/export/mixed.xml"
touch -d @1000 "$tmp/cmd/export/kitchen-sink.apkg"
out=$($Q export -C "$F" -o "$tmp/cmd" anki one 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$out" = "${out#*exported 1 file into}" ]; then
	fail "export anki one: unexpected summary \"$out\""
elif [ "$rc" -eq 0 ] && cmp -s "$tmp/cmd/export/one.apkg" "$tmp/fixture/export/one.apkg" &&
    [ ! -f "$tmp/cmd/export/mixed.xml" ] &&
    [ "$(stat -c %Y "$tmp/cmd/export/kitchen-sink.apkg")" = 1000 ]; then
	ok "export anki one: that package alone, the same bytes as build's"
else
	fail "export anki one: status $rc, $(ls "$tmp/cmd/export" | tr '\n' ' ')"
fi
$Q export -C "$F" -o "$tmp/cmd" -q moodle >"$tmp/m.out" 2>/dev/null
if [ $? -eq 0 ] && [ ! -s "$tmp/m.out" ] && cmp -s "$tmp/cmd/export/mixed.xml" "$tmp/fixture/export/mixed.xml"; then
	ok "export -q moodle: every test's XML, no summary"
else
	fail "export -q moodle: $(cat "$tmp/m.out")"
fi
ls "$tmp/cmd" >"$tmp/cmd.before"
check_usage() {
	what=$1 want=$2
	shift 2
	$Q export -C "$F" -o "$tmp/cmd" "$@" >"$tmp/u.out" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(head -n 1 "$tmp/u.out")" = "$want" ]; then
		ok "export $what: exit 2 and says so"
	else
		fail "export $what: status $rc, said \"$(head -n 1 "$tmp/u.out")\", want \"$want\""
	fi
}
check_usage "with no format" "quizdeck: export needs a FORMAT"
check_usage "ankii" 'quizdeck: unknown export format "ankii"; did you mean "anki"?' ankii
check_usage "anki nosuch" 'quizdeck: no deck named "nosuch"; there are these decks: kitchen-sink, one' anki nosuch
check_usage "moodle one" 'quizdeck: no test named "one"; there are these tests: mixed' moodle one
check_usage "all mixd" 'quizdeck: no deck or test named "mixd"; did you mean "mixed"? There are these decks and tests: kitchen-sink, one, mixed' all mixd
if ls "$tmp/cmd" | cmp -s - "$tmp/cmd.before"; then
	ok "export usage errors write nothing"
else
	fail "export usage errors wrote files"
fi
for bad in empty-deck export-name-taken; do
	$Q export -C "tests/bad/$bad" -o "$tmp/bad-$bad" all >"$tmp/bad.out" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && [ ! -e "$tmp/bad-$bad" ] && grep -q ': error: ' "$tmp/bad.out"; then
		ok "export all of tests/bad/$bad: exit 1, its error, nothing written"
	else
		fail "export all of tests/bad/$bad: status $rc, $(head -c 300 "$tmp/bad.out")"
	fi
done
build noexport "$F" --no-export
if [ "$rc" -eq 0 ] && [ -f "$tmp/noexport/index.html" ] && [ ! -e "$tmp/noexport/export" ]; then
	ok "build --no-export: the site without out/export/"
else
	fail "build --no-export: status $rc"
fi

# The pages link the exports: each deck page its .apkg, .csv and .tsv,
# each test page its .xml and .gift.txt, every link to a file written and
# every file written linked; under --no-export no page links export/.
# pagelinks OUT WANT: WANT is "all" or "none"; prints what is wrong, if anything.
pagelinks() {
	python3 - "$1" "$2" 2>&1 <<'PY'
import os, re, sys
from urllib.parse import unquote
out, want = sys.argv[1], sys.argv[2]
kinds = {"page-deck": [".apkg", ".csv", ".tsv"], "page-test": [".xml", ".gift.txt"]}
linked, problems, pages = set(), [], {"page-deck": 0, "page-test": 0}
for dirpath, _, files in os.walk(out):
    for f in files:
        if not f.endswith(".html"):
            continue
        path = os.path.join(dirpath, f)
        html = open(path, encoding="utf-8").read()
        rel = os.path.relpath(path, out)
        body = re.search(r'<body[^>]*class="([^"]*)"', html)
        kind = next((k for k in kinds if body and k in body.group(1).split()), None)
        hrefs = [unquote(h) for h in re.findall(r'href="([^"#?]*)"', html)]
        targets = [os.path.normpath(os.path.join(dirpath, h)) for h in hrefs if "export/" in h]
        if want == "none":
            if targets:
                problems.append(rel + " links " + targets[0])
            continue
        for t in targets:
            if not os.path.isfile(t):
                problems.append(rel + " links " + os.path.relpath(t, out) + ", which is not written")
            linked.add(os.path.relpath(t, out))
        if kind:
            pages[kind] += 1
            slug = os.path.basename(dirpath)
            mine = sorted(os.path.relpath(t, out) for t in targets)
            expect = sorted("export/" + slug + s for s in kinds[kind])
            if mine != expect:
                problems.append(rel + " links " + str(mine) + ", want " + str(expect))
if want == "all":
    exportdir = os.path.join(out, "export")
    written = {"export/" + f for f in os.listdir(exportdir)} if os.path.isdir(exportdir) else set()
    if written - linked:
        problems.append("written but linked from no page: " + ", ".join(sorted(written - linked)))
    if not pages["page-deck"] or not pages["page-test"]:
        problems.append("no deck or no test page seen: " + str(pages))
print("; ".join(problems[:5]))
PY
}
for case in fixture default; do
	why=$(pagelinks "$tmp/$case" all)
	if [ -z "$why" ]; then
		ok "$case: every deck and test page links its exports, each written, and every export is linked"
	else
		fail "$case: $why"
	fi
done
why=$(pagelinks "$tmp/noexport" none)
if [ -z "$why" ] && [ -f "$tmp/noexport/index.html" ]; then
	ok "build --no-export: no page links out/export/"
else
	fail "build --no-export: $why"
fi
$Q export --help >"$tmp/help" 2>&1
for f in anki csv tsv moodle gift all; do
	if grep -q "^  $f " "$tmp/help"; then
		ok "export --help lists $f"
	else
		fail "export --help does not list $f"
	fi
done

# Without base_url, `quizdeck export` says once per file where the first
# link or image into the site was kept as its text; with it, nothing; a
# build that writes the exports beside the site stays quiet.
$Q export -q -C "$tmp/nobase-site" -o "$tmp/nobase-x" all >/dev/null 2>"$tmp/unkept.err"
want="content/cards/kitchen-sink.md:33:1: warning: the export kitchen-sink.csv keeps only the alt text of this image, and of any other of the site's: it has no address to load them from (set base_url in site.toml to keep them)
content/cards/kitchen-sink.md:39:16: warning: the export kitchen-sink.apkg keeps only the text of this link into the site, and of any other: it has no address to lead to (set base_url in site.toml to keep them)
content/quiz/mixed/multi.md:28:1: warning: question \"all-even\" marks all 2 options correct, so no answer can be wrong: mark the wrong ones [ ]
content/quiz/mixed/single.md:22:41: warning: the export mixed.xml keeps only the text of this link into the site, and of any other: it has no address to lead to (set base_url in site.toml to keep them)
content/quiz/mixed/single.md:22:41: warning: the export mixed.gift.txt keeps only the text of this link into the site, and of any other: it has no address to lead to (set base_url in site.toml to keep them)
content/quiz/mixed/typed.md:10:1: warning: the wrong answer \"26.2 mi ± 0.1\" is in mi, a unit no right answer of question \"marathon\" uses, so Moodle cannot compare it and the export leaves it out: write it in km"
if [ "$(cat "$tmp/unkept.err")" = "$want" ]; then
	ok "no base_url: the first link or image kept as text warned of, once per file"
else
	fail "no base_url: got:
$(cat "$tmp/unkept.err")"
fi
$Q export -q -C "$F" -o "$tmp/base-x" all >/dev/null 2>"$tmp/kept.err"
$Q build -q --no-pdf -C "$tmp/nobase-site" -o "$tmp/nobase-b" >/dev/null 2>"$tmp/nobase-b.err"
if ! grep -q "base_url" "$tmp/kept.err" "$tmp/nobase-b.err"; then
	ok "base_url set, or exports written by a build: no such warning"
else
	fail "base_url: $(grep -h base_url "$tmp/kept.err" "$tmp/nobase-b.err")"
fi

# ---- 4. sanitizers ----------------------------------------------------------
asan=${QUIZDECK_ASAN:-build/asan/quizdeck}
if [ -x "$asan" ]; then
	$asan build -q -C "$F" -o "$tmp/asan" --no-pdf >"$tmp/asan.log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && ! grep -q "ERROR: \|runtime error" "$tmp/asan.log" &&
	    diff -r "$tmp/asan/export" "$tmp/fixture/export" >/dev/null; then
		ok "asan: the fixture's exports, the same bytes, no report"
	else
		fail "asan: status $rc: $(grep -m 3 'ERROR\|runtime error' "$tmp/asan.log")"
	fi
fi

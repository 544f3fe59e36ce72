#!/bin/sh
# quizdeck import: Anki packages and CSV files into Markdown decks.
#
#  1. Round trips: the default site's and tests/fixtures/export's decks
#     exported, imported into a site without them, exported again: the
#     same notes, guids and fields (tests/importcheck.py, images compared
#     by their bytes); the fixture's CSV the same bytes.
#  2. A package as Anki writes one (tests/importcheck.py make: Anki's own
#     note types and guids, HTML formatting, an image, a cloze note, a
#     reversed note, tags) and CSV files (quotes, line breaks, a header
#     row, Anki's #separator:/#html:/#columns: lines): the Markdown written
#     against tests/fixtures/import/*.want, the image copied, the deck
#     builds.
#  3. Bad input: each message exactly, status 1, nothing written.
#  4. The same imports under ASan+UBSan, when build/asan/quizdeck is there.
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
Q=${QUIZDECK:-./quizdeck}
F=tests/fixtures/import
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok import $*"; }
fail() { echo "not ok import $*"; }

# site NAME: an empty site in $tmp/NAME.
site() {
	mkdir -p "$tmp/$1/content"
	printf 'title = "Imports"\n' >"$tmp/$1/site.toml"
}

# ---- 1. round trips ---------------------------------------------------------
for case in "fixture tests/fixtures/export" "default ."; do
	set -- $case
	name=$1 src=$2
	$Q export -q -C "$src" -o "$tmp/$name-1" anki >/dev/null 2>&1
	$Q export -q -C "$src" -o "$tmp/$name-1" csv >/dev/null 2>&1
	mkdir -p "$tmp/$name-site"
	cp -R "$src/site.toml" "$src/content" "$tmp/$name-site/"
	rm "$tmp/$name-site"/content/cards/*.md
	for apkg in "$tmp/$name-1"/export/*.apkg; do
		if ! $Q import -C "$tmp/$name-site" anki "$apkg" >"$tmp/$name.log" 2>&1; then
			fail "$name: importing $(basename "$apkg") failed: $(cat "$tmp/$name.log")"
		fi
	done
	$Q export -q -C "$tmp/$name-site" -o "$tmp/$name-2" anki >/dev/null 2>&1
	for apkg in "$tmp/$name-1"/export/*.apkg; do
		python3 tests/importcheck.py same "$apkg" "$tmp/$name-2/export/$(basename "$apkg")" \
		    "$name round trip $(basename "$apkg")"
	done
done

# CSV: quizdeck's own file, with its header lines and guid column, comes back the same bytes.
mkdir -p "$tmp/csv-site"
cp -R tests/fixtures/export/site.toml tests/fixtures/export/content "$tmp/csv-site/"
rm "$tmp/csv-site"/content/cards/*.md
for csv in "$tmp/fixture-1"/export/*.csv; do
	$Q import -C "$tmp/csv-site" csv "$csv" >/dev/null 2>&1
done
$Q export -q -C "$tmp/csv-site" -o "$tmp/csv-2" csv >/dev/null 2>&1
for csv in "$tmp/fixture-1"/export/*.csv; do
	if cmp -s "$csv" "$tmp/csv-2/export/$(basename "$csv")"; then
		ok "csv round trip $(basename "$csv"): the same bytes"
	else
		fail "csv round trip $(basename "$csv"): $(diff "$csv" "$tmp/csv-2/export/$(basename "$csv")" | head -5)"
	fi
done

# ---- 2. Anki's own packages and CSV files ----------------------------------
python3 tests/importcheck.py make "$tmp/anki.apkg" anki
site made
out=$($Q import -C "$tmp/made" anki "$tmp/anki.apkg" 2>&1)
want="$tmp/anki.apkg: warning: 1 note has tags, which quizdeck's cards do not hold: they were not imported
imported 5 cards into $tmp/made/content/cards/german-more.md and 1 image beside it"
if [ "$out" = "$want" ]; then ok "anki: the summary and the tags warning"; else fail "anki: got:
$out"; fi
if diff -u "$F/anki.apkg.want" "$tmp/made/content/cards/german-more.md" >"$tmp/d" 2>&1; then
	ok "anki: formatting, an image, a cloze and a reversed note as $F/anki.apkg.want"
else
	fail "anki: the Markdown differs from $F/anki.apkg.want: $(head -20 "$tmp/d")"
fi
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("0"))' \
    "$tmp/anki.apkg" >"$tmp/cat.png"
if cmp -s "$tmp/cat.png" "$tmp/made/content/cards/german-more/my_cat.png"; then
	ok "anki: the image copied beside the deck under a name safe in a URL"
else
	fail "anki: content/cards/german-more/my_cat.png is not the package's image"
fi
if $Q build -q --no-pdf -C "$tmp/made" -o "$tmp/made-out" >"$tmp/made.log" 2>&1 &&
    grep -q '<img src="my_cat.png"' "$tmp/made-out/cards/german-more/index.html"; then
	ok "anki: the imported deck builds, its image shown"
else
	fail "anki: the imported deck does not build: $(head -5 "$tmp/made.log")"
fi

for csv in quotes.csv headers.tsv; do
	base=${csv%.*}
	$Q import -C "$tmp/made" csv "$F/$csv" >"$tmp/$base.log" 2>&1
	if diff -u "$F/$csv.want" "$tmp/made/content/cards/$base.md" >"$tmp/d" 2>&1; then
		ok "csv: $csv as $F/$csv.want"
	else
		fail "csv: $csv: $(cat "$tmp/$base.log"; head -20 "$tmp/d")"
	fi
done

# --deck names the file; --force replaces a deck, its images with it.
$Q import -C "$tmp/made" --deck other anki "$tmp/anki.apkg" >/dev/null 2>&1
if [ -f "$tmp/made/content/cards/other.md" ] && [ -f "$tmp/made/content/cards/other/my_cat.png" ] &&
    grep -q '(other/my_cat.png)' "$tmp/made/content/cards/other.md"; then
	ok "--deck: other.md, its images in other/ and linked there"
else
	fail "--deck: other.md or other/my_cat.png missing"
fi
$Q import -C "$tmp/made" --deck other --force csv "$F/quotes.csv" >/dev/null 2>&1
if grep -q '^## Name "three" colours {#line-2}$' "$tmp/made/content/cards/other.md" &&
    [ ! -e "$tmp/made/content/cards/other" ]; then
	ok "--force: the deck replaced, the old images gone"
else
	fail "--force: other.md is not the CSV's deck, or other/ is still there"
fi

# ---- 3. bad input -----------------------------------------------------------
printf 'not a zip\n' >"$tmp/text.apkg"
for k in script schema18 anki21b nocol notsqlite bomb bigcol view toomany badutf8 nul badguid \
    baddeck casemedia; do
	python3 tests/importcheck.py make "$tmp/$k.apkg" "$k"
done
printf 'Front,Back\nfine,ok\n"never closed,x\n' >"$tmp/open.csv"
printf 'a,b\n<a href="javascript:alert(1)">x</a>,y\n' >"$tmp/script.csv"
printf '#separator:Semicolons\na;b\n' >"$tmp/sep.csv"
printf 'a,\377\n' >"$tmp/latin1.csv"

# bad NAME WANT-STATUS WANT-STDERR ARGS...: the message exactly, nothing written.
bad() {
	name=$1 want_rc=$2 want=$3
	shift 3
	before=$(cd "$tmp/made" && find . | sort)
	$Q import -C "$tmp/made" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	after=$(cd "$tmp/made" && find . | sort)
	if [ "$rc" -ne "$want_rc" ]; then
		fail "bad $name: status $rc, not $want_rc: $(cat "$tmp/err")"
	elif [ "$(cat "$tmp/err")" != "$want" ]; then
		fail "bad $name: stderr:
$(cat "$tmp/err")
wanted:
$want"
	elif [ "$before" != "$after" ] || [ -s "$tmp/out" ]; then
		fail "bad $name: something was written"
	else
		ok "bad $name: $(head -1 "$tmp/err" | cut -c1-90)"
	fi
}

bad "not a zip" 1 "$tmp/text.apkg: error: not a zip archive, so not an Anki package (Anki writes one with File > Export, \"Anki Deck Package\")" \
    anki "$tmp/text.apkg"
bad "no collection" 1 "$tmp/nocol.apkg: error: not an Anki package: the zip holds no collection.anki2" \
    anki "$tmp/nocol.apkg"
bad "not SQLite" 1 "$tmp/notsqlite.apkg: error: not an Anki collection: collection.anki2 in the zip is not Anki's SQLite collection (SQLite says: file is not a database)" \
    anki "$tmp/notsqlite.apkg"
bad "schema 18" 1 "$tmp/schema18.apkg: error: unknown collection schema version 18: quizdeck reads version 11, which Anki writes with \"Support older Anki versions\" ticked" \
    anki "$tmp/schema18.apkg"
bad "anki21b" 1 "$tmp/anki21b.apkg: error: the collection is in the compressed format of Anki 2.1.50 and later (collection.anki21b), which quizdeck does not read: export again with \"Support older Anki versions\" ticked" \
    anki "$tmp/anki21b.apkg"
bad "script in a field" 1 "$tmp/script.apkg: error: note 1600000000002: its back holds an onerror attribute on <img>: quizdeck imports no script (a card's page would run it); remove it and export again" \
    anki --deck new1 "$tmp/script.apkg"
bad "script in a CSV field" 1 "$tmp/script.csv:2:1: error: the card on line 2: its front holds a script URL in <a href>: quizdeck imports no script (a card's page would run it); remove it and export again" \
    csv "$tmp/script.csv"
bad "the deck exists" 1 "$tmp/made/content/cards/german-more.md: error: the deck \"german-more\" exists already: import it under another name with --deck NAME, or replace it with --force" \
    anki "$tmp/anki.apkg"
bad "unclosed quote" 1 "$tmp/open.csv:3:1: error: a quoted field never ends: a '\"' is missing (a quote inside a quoted field is written twice, \"\")" \
    csv "$tmp/open.csv"
bad "unknown separator" 1 "$tmp/sep.csv:1:1: error: unknown separator \"Semicolons\": use comma, semicolon, tab, space, pipe, colon or one character" \
    csv "$tmp/sep.csv"
bad "not UTF-8" 1 "$tmp/latin1.csv:1:3: error: not UTF-8 text: save the file as UTF-8" \
    csv "$tmp/latin1.csv"
bad "no such file" 1 "$tmp/none.apkg: error: cannot read the file: No such file or directory" \
    anki "$tmp/none.apkg"
bad "bad --deck" 1 "quizdeck: error: bad deck name \"../up\": --deck takes a file name of letters, digits, '-', '_' and '.'" \
    anki --deck ../up "$tmp/anki.apkg"
# Hostile packages: refused before they can fill the disk, hang the import
# or write a deck the next build cannot read, and nothing left behind.
bad "zip bomb image" 1 "$tmp/bomb.apkg: warning: 1 note has tags, which quizdeck's cards do not hold: they were not imported
$tmp/bomb.apkg: error: the image \"my cat.png\" is larger than the 32 MB quizdeck imports: the package is damaged or not written by Anki" \
    anki --deck bomb "$tmp/bomb.apkg"
bad "zip bomb collection" 1 "$tmp/bigcol.apkg: error: the package's collection (collection.anki2) inflates over 200 times its compressed size, which no real file does: the package is damaged or hostile (a zip bomb)" \
    anki --deck bigcol "$tmp/bigcol.apkg"
bad "notes an endless view" 1 "$tmp/view.apkg: error: not an Anki collection: collection.anki2 in the zip makes \"notes\" a view, where Anki writes a table: the package is damaged or not written by Anki" \
    anki --deck view "$tmp/view.apkg"
bad "too many notes" 1 "$tmp/toomany.apkg: error: the collection holds 200006 notes, more than the 200000 one deck imports: export the deck you want on its own from Anki" \
    anki --deck many "$tmp/toomany.apkg"
bad "a field not UTF-8" 1 "$tmp/badutf8.apkg: error: note 1600000000004: its field 2 is not UTF-8 text: the package is damaged or not written by Anki; fix the note in Anki and export again" \
    anki --deck u "$tmp/badutf8.apkg"
bad "a field with NUL" 1 "$tmp/nul.apkg: error: note 1600000000005: its field 2 holds a NUL byte, which no text holds: the package is damaged or not written by Anki; fix the note in Anki and export again" \
    anki --deck n "$tmp/nul.apkg"
bad "a guid not UTF-8" 1 "$tmp/badguid.apkg: error: note 1600000000001: its guid is not UTF-8 text: the package is damaged or not written by Anki" \
    anki "$tmp/badguid.apkg"
bad "a deck name not UTF-8" 1 "$tmp/baddeck.apkg: error: the deck's name in the collection is not UTF-8 text, or holds a NUL byte: rename the deck in Anki and export again" \
    anki "$tmp/baddeck.apkg"

usage=$($Q import --help)
bad "unknown format" 2 "quizdeck: unknown import format \"apkg\": anki or csv
$usage" apkg "$tmp/anki.apkg"
bad "no file" 2 "quizdeck: import takes a format (anki or csv) and a file
$usage" anki

# A site of site.toml alone: content/ made for a deck, and not left behind by a refusal.
mkdir "$tmp/bare"
printf 'title = "Bare"\n' >"$tmp/bare/site.toml"
$Q import -C "$tmp/bare" anki "$tmp/text.apkg" >/dev/null 2>&1
if [ -e "$tmp/bare/content" ]; then
	fail "bare site: a refused import left content/ behind"
elif ! $Q import -C "$tmp/bare" csv "$F/quotes.csv" >/dev/null 2>&1 ||
    ! cmp -s "$tmp/bare/content/cards/quotes.md" "$F/quotes.csv.want"; then
	fail "bare site: the import did not make content/cards/quotes.md"
else
	ok "bare site: content/ made for a deck, not left behind by a refusal"
fi

# A line starting with '#' is a comment, as Anki reads it: said, not dropped silently.
site hash
printf '#separator:comma\n# a note to self\nfront,back\n#hashtag,means\n"#quoted",kept\n' >"$tmp/hash.csv"
out=$($Q import -C "$tmp/hash" csv "$tmp/hash.csv" 2>&1)
want="$tmp/hash.csv:2:1: warning: a line starting with '#' is read as a comment, as Anki reads it, and not imported: if it is a card, put its first field in quotes (\"#...\")
$tmp/hash.csv:4:1: warning: a line starting with '#' is read as a comment, as Anki reads it, and not imported: if it is a card, put its first field in quotes (\"#...\")
imported 1 card into $tmp/hash/content/cards/hash.md"
if [ "$out" = "$want" ] && grep -q '^## \\#quoted {#line-5}$' "$tmp/hash/content/cards/hash.md"; then
	ok "csv: lines starting with '#' warned of, a quoted one imported"
else
	fail "csv: '#' lines: got:
$out"
fi

# Images whose names differ only in case: two files on any disk.
site cases
$Q import -C "$tmp/cases" anki "$tmp/casemedia.apkg" >/dev/null 2>&1
d="$tmp/cases/content/cards/german-more"
if [ "$(ls "$d" 2>/dev/null | tr '\n' ' ')" = "2-a.png A.png " ] &&
    grep -q '!\[\](german-more/A.png)!\[\](german-more/2-a.png)' "$d.md"; then
	ok "media names: A.png and a.png imported as A.png and 2-a.png"
else
	fail "media names: $(ls "$d" 2>&1) $(grep png "$d.md")"
fi

# --force whose last step fails: the old deck keeps its images.
site forced
$Q import -C "$tmp/forced" --deck old anki "$tmp/anki.apkg" >/dev/null 2>&1
rm "$tmp/forced/content/cards/old.md"
mkdir -p "$tmp/forced/content/cards/old.md/x"   # the Markdown cannot be renamed over it
$Q import -C "$tmp/forced" --deck old --force anki "$tmp/casemedia.apkg" >"$tmp/forced.log" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && [ "$(ls "$tmp/forced/content/cards/old")" = "my_cat.png" ] &&
    [ -z "$(find "$tmp/forced/content" -name '.import-*')" ] &&
    grep -q "error: cannot write $tmp/forced/content/cards/old.md: " "$tmp/forced.log"; then
	ok "--force: a failed replacement leaves the old deck's images"
else
	fail "--force: status $rc, old/ holds $(ls "$tmp/forced/content/cards/old" 2>&1): $(cat "$tmp/forced.log")"
fi

# ---- 4. under the sanitizers ------------------------------------------------
asan=${QUIZDECK_ASAN:-build/asan/quizdeck}
if [ -x "$asan" ]; then
	site asan
	: >"$tmp/asan.log"
	for args in "anki $tmp/anki.apkg" "anki $tmp/fixture-1/export/kitchen-sink.apkg" \
	    "csv $F/quotes.csv" "csv $F/headers.tsv" "csv $tmp/fixture-1/export/kitchen-sink.csv --deck ks2" \
	    "anki $tmp/script.apkg --deck s" "anki $tmp/notsqlite.apkg" "anki $tmp/text.apkg" \
	    "csv $tmp/open.csv" "anki $tmp/bomb.apkg --deck b" "anki $tmp/bigcol.apkg --deck b" \
	    "anki $tmp/view.apkg --deck v" "anki $tmp/badutf8.apkg --deck u" "anki $tmp/nul.apkg --deck n" \
	    "anki $tmp/badguid.apkg" "anki $tmp/baddeck.apkg" "anki $tmp/casemedia.apkg --deck cm"; do
		# shellcheck disable=SC2086
		$asan import -C "$tmp/asan" $args >>"$tmp/asan.log" 2>&1
	done
	if ! grep -q "ERROR: \|runtime error" "$tmp/asan.log" &&
	    cmp -s "$tmp/asan/content/cards/german-more.md" "$F/anki.apkg.want"; then
		ok "asan: imports and refusals, no report"
	else
		fail "asan: $(grep -m 3 'ERROR\|runtime error' "$tmp/asan.log")"
	fi
else
	echo "skip import asan: build/asan/quizdeck is not built"
fi

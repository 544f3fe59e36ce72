#!/bin/sh
# Threads never show in the output: a site built with -j1 and with -j4 is
# the same, byte for byte, pages and PDFs alike, and so are its
# diagnostics, in the same order. The site is the golden fixture plus the
# PDF fixtures' decks and a deck of 60 cards made here, long enough to be
# fitted on several threads, with answers that shrink, overflow, hold
# lists, code, tables and right-to-left text.
# One line per check: `ok jobs ...` / `not ok jobs ...`.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
Q=$(cd "$(dirname "$Q")" && pwd)/$(basename "$Q")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok jobs $1"; }
fail() { echo "not ok jobs $1: $2"; }

# same NAME DIR1 DIR2: the two trees hold the same files, byte for byte.
same() {
	if [ ! -d "$2" ] || [ ! -d "$3" ]; then
		fail "$1" "no output to compare"
	elif diff -r "$2" "$3" >"$tmp/diff" 2>&1; then
		ok "$1"
	else
		fail "$1" "$(head -n 5 "$tmp/diff" | tr '\n' ' ')"
	fi
}

# same_log NAME FILE1 FILE2: the same diagnostics, in the same order.
same_log() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -n 4 | tr '\n' ' ')"
	fi
}

site=$tmp/site
cp -R tests/golden/site "$site"
rm -rf "$site/out"
# Each fixture's decks with the pictures beside them.
for f in tests/fixtures/pdf/*/content/cards/*; do
	cp "$f" "$site/content/cards/"
done
awk 'BEGIN {
	printf "+++\ntitle = \"Sixty cards\"\n+++\n\n"
	for (i = 1; i <= 60; i++) {
		printf "## Card %d: what crosses the network when the model is split %d ways? {#m%d}\n\n", i, i % 7 + 2, i
		k = i % 6
		if (k == 0) {
			# Long enough to shrink, every few cards far too long.
			n = i % 12 == 0 ? 90 : 14
			for (w = 0; w < n; w++)
				printf "Every replica computes gradients on its own micro-batch, then joins an all-reduce. "
			printf "\n\n"
		} else if (k == 1)
			printf "1. Partition the weights.\n2. Overlap the `all_gather` with compute.\n   - per layer\n   - per bucket\n\n"
		else if (k == 2)
			printf "```c\nfor (int s = 0; s < %d; s++)\n\tstep(s);\n```\n\n", i
		else if (k == 3)
			printf "| ranks | bytes |\n| ---: | :--- |\n| 2 | N |\n| %d | 2(p-1)/p N |\n\n", i + 6
		else if (k == 4)
			printf "> כל מעבד גרפי מחזיק **עותק מלא** של המודל, card %d.\n\n", i
		else
			printf "Short: *%d*.\n\n", i
	}
}' >"$site/content/cards/sixty.md"
printf '\nSee [the sixty](../cards/sixty.md#m12) and [card 3](../cards/sixty.md#m3).\n' \
    >>"$site/content/guide/knives.md"

# The whole site, pages and decks.
"$Q" build -j1 -C "$site" -o "$tmp/j1" >"$tmp/j1.out" 2>"$tmp/j1.err"
rc1=$?
"$Q" build -j4 -C "$site" -o "$tmp/j4" >"$tmp/j4.out" 2>"$tmp/j4.err"
rc4=$?
if [ "$rc1" -eq 0 ] && [ "$rc4" -eq 0 ]; then
	ok "the site builds with -j1 and -j4"
else
	fail "the site builds with -j1 and -j4" "exit $rc1 and $rc4: $(head -c 300 "$tmp/j4.err")"
fi
n=$(find "$tmp/j1/print" -name '*.pdf' 2>/dev/null | wc -l)
if [ "$n" -ge 5 ]; then
	ok "the build holds every deck's PDF"
else
	fail "the build holds every deck's PDF" "$n PDFs"
fi
same "build -j1 and -j4: every page and PDF identical" "$tmp/j1" "$tmp/j4"
same_log "build -j1 and -j4: the same warnings" "$tmp/j1.err" "$tmp/j4.err"
if grep -q 'm12.*does not fit' "$tmp/j1.err"; then
	ok "the overflowing card is reported"
else
	fail "the overflowing card is reported" "$(head -c 300 "$tmp/j1.err")"
fi

# One deck alone: its cards are fitted on the other threads while one draws.
for j in 1 2 4; do
	"$Q" print -j$j -C "$site" -o "$tmp/p$j" sixty >"$tmp/p$j.out" 2>"$tmp/p$j.err"
done
for j in 2 4; do
	if cmp -s "$tmp/p1/print/sixty.pdf" "$tmp/p$j/print/sixty.pdf"; then
		ok "print -j$j: the deck's PDF is the one -j1 writes"
	else
		fail "print -j$j: the deck's PDF is the one -j1 writes" "$(ls -l "$tmp/p1/print" "$tmp/p$j/print" 2>&1 | tr '\n' ' ')"
	fi
	same_log "print -j$j: the same warnings" "$tmp/p1.err" "$tmp/p$j.err"
done
if cmp -s "$tmp/p1/print/sixty.pdf" "$tmp/j1/print/sixty.pdf"; then
	ok "print and build write the same PDF"
else
	fail "print and build write the same PDF" "they differ"
fi

# Errors found while parsing and building chapters in parallel come out
# in the same order.
cp -R "$site" "$tmp/bad"
for f in "$tmp"/bad/content/guide/*.md "$tmp"/bad/content/quiz/*/*.md; do
	printf '\n[one](nowhere.md) [two](knives.md#nothing) ~~[three](gone.md)~~\n' >>"$f"
done
for i in 1 2 3 4 5 6; do
	printf '# Chapter %d\n\n## Twice {#twice}\n\n## Twice {#twice}\n\n[out](../../../x.md)\n' "$i" \
	    >"$tmp/bad/content/guide/extra-$i.md"
done
"$Q" build -j1 -C "$tmp/bad" -o "$tmp/b1" >/dev/null 2>"$tmp/b1.err"
rc1=$?
"$Q" build -j4 -C "$tmp/bad" -o "$tmp/b4" >/dev/null 2>"$tmp/b4.err"
rc4=$?
if [ "$rc1" -eq 1 ] && [ "$rc4" -eq 1 ] && [ "$(grep -c error "$tmp/b1.err")" -ge 6 ]; then
	ok "broken links fail the build with -j1 and -j4"
else
	fail "broken links fail the build with -j1 and -j4" "exit $rc1 and $rc4"
fi
same_log "broken links: the same errors, in the same order" "$tmp/b1.err" "$tmp/b4.err"

# Files are read, and their front matter parsed, on every thread: what is
# wrong with them still comes out in file order.
cp -R "$site" "$tmp/fm"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	printf '+++\ntitle = "Read %d"\nflavour%d = "x"\n+++\n\nText.\n' "$i" "$i" \
	    >"$tmp/fm/content/guide/read-$i.md"
done
printf '+++\ntitle = "Bytes"\n+++\n\nA \377 byte.\n' >"$tmp/fm/content/guide/read-5b.md"
"$Q" build -j1 -C "$tmp/fm" -o "$tmp/f1" >/dev/null 2>"$tmp/f1.err"
rc1=$?
"$Q" build -j4 -C "$tmp/fm" -o "$tmp/f4" >/dev/null 2>"$tmp/f4.err"
rc4=$?
if [ "$rc1" -eq 1 ] && [ "$rc4" -eq 1 ] && [ "$(grep -c 'unknown front-matter key' "$tmp/f1.err")" -eq 12 ] &&
    grep -q 'read-5b.md:5:3: error: invalid UTF-8' "$tmp/f1.err"; then
	ok "bad front matter and bad bytes fail the build with -j1 and -j4"
else
	fail "bad front matter and bad bytes fail the build with -j1 and -j4" "exit $rc1 and $rc4: $(head -c 300 "$tmp/f1.err")"
fi
same_log "reading files: the same errors, in the same order" "$tmp/f1.err" "$tmp/f4.err"

# -j takes a count of threads, nothing else.
for bad in 0 -1 x 65; do
	"$Q" build -j "$bad" -C "$site" -o "$tmp/x" >/dev/null 2>"$tmp/x.err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q 'thread count' "$tmp/x.err"; then
		ok "-j $bad is a usage error"
	else
		fail "-j $bad is a usage error" "exit $rc: $(head -c 200 "$tmp/x.err")"
	fi
done
"$Q" check -j2 -C "$site" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 2 ]; then
	ok "check takes no -j"
else
	fail "check takes no -j" "exit $rc"
fi
exit 0

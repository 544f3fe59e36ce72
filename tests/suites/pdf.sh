#!/bin/sh
# PDF flashcards, read back with poppler-utils (pdfinfo, pdffonts,
# pdftotext -bbox): page counts and sizes for every paper and card,
# embedded fonts, each back behind its front in every duplex mode, six
# scripts, the overflow warning, metadata, the outline, and identical
# bytes from two runs. One line per check: `ok pdf ...` / `not ok pdf ...`.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
F=tests/fixtures/pdf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok pdf $1"; }
fail() { echo "not ok pdf $1: $2"; }

for t in pdfinfo pdffonts pdftotext pdfimages; do
	if ! command -v "$t" >/dev/null 2>&1; then
		fail "poppler-utils" "$t not found (apt-get install poppler-utils)"
		exit 0
	fi
done

# run NAME FIXTURE [OPTIONS...]: `quizdeck print` into $tmp/NAME; status in $rc.
run() {
	name=$1 site=$2
	shift 2
	$Q print -C "$site" -o "$tmp/$name" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
}

# info FILE KEY: a field of pdfinfo.
info() {
	pdfinfo -isodates "$1" 2>/dev/null | sed -n "s/^$2: *//p"
}

# ---- page count and size, for every paper and card --------------------
# Cards per sheet from impose.h's rules (tests/unit/impose_test.c has the
# same tables), with layout = "margins" and with the default, auto (a
# full sheet where that holds more); 0: the card does not fit. The
# fixture has 10 cards, so a sheet of more than 10 shows as 2 pages.
while read -r paper card margins auto w h; do
	for layout in margins auto; do
		per=$margins
		[ "$layout" = auto ] && per=$auto
		name=size-$paper-$card-$layout
		run "$name" "$F/basic" --paper "$paper" --card "$card" --duplex long-edge --layout "$layout"
		what="$card on $paper, $layout"
		if [ "$per" -eq 0 ]; then
			if [ "$rc" -eq 1 ] && grep -q "card does not fit on" "$tmp/$name.err"; then
				ok "$what: refused, the card does not fit"
			else
				fail "$what" "want exit 1 and \"does not fit\", got $rc: $(head -c 200 "$tmp/$name.err")"
			fi
			continue
		fi
		pdf=$tmp/$name/print/align.pdf
		want=$(( 2 * ((10 + per - 1) / per) ))
		pages=$(info "$pdf" Pages)
		size=$(info "$pdf" "Page size")
		if [ "$rc" -ne 0 ] || [ "$pages" != "$want" ]; then
			fail "$what" "want $want pages ($per cards a sheet), got ${pages:-none} (exit $rc): $(tail -c 300 "$tmp/$name.err")"
			continue
		fi
		if echo "$size" | awk -v w="$w" -v h="$h" '{
			dw = $1 - w * 72 / 25.4; dh = $3 - h * 72 / 25.4
			exit !(dw < 0.01 && dw > -0.01 && dh < 0.01 && dh > -0.01) }'; then
			ok "$what: $pages pages of ${w}x${h} mm"
		else
			fail "$what" "page size $size, want ${w}x${h} mm"
		fi
	done
done <<'EOF'
a4 a7 4 8 210 297
a4 a6 2 4 210 297
a4 a8 10 16 210 297
a4 index-3x5 4 4 210 297
a4 index-4x6 2 2 210 297
a4 index-5x8 1 2 210 297
a4 business 10 10 210 297
a4 poker 9 9 210 297
a4 tarot 4 6 210 297
a3 a7 10 16 297 420
a3 a6 4 8 297 420
a3 a8 25 32 297 420
a3 index-3x5 10 10 297 420
a3 index-4x6 4 4 297 420
a3 index-5x8 4 4 297 420
a3 business 21 21 297 420
a3 poker 18 18 297 420
a3 tarot 10 12 297 420
a5 a7 2 4 148 210
a5 a6 1 2 148 210
a5 a8 4 8 148 210
a5 index-3x5 2 2 148 210
a5 index-4x6 1 1 148 210
a5 index-5x8 0 1 148 210
a5 business 4 4 148 210
a5 poker 4 4 148 210
a5 tarot 2 3 148 210
letter a7 4 6 215.9 279.4
letter a6 2 2 215.9 279.4
letter a8 9 12 215.9 279.4
letter index-3x5 4 4 215.9 279.4
letter index-4x6 2 2 215.9 279.4
letter index-5x8 2 2 215.9 279.4
letter business 9 10 215.9 279.4
letter poker 8 9 215.9 279.4
letter tarot 4 6 215.9 279.4
legal a7 6 8 215.9 355.6
legal a6 3 4 215.9 355.6
legal a8 12 16 215.9 355.6
legal index-3x5 4 4 215.9 355.6
legal index-4x6 3 4 215.9 355.6
legal index-5x8 2 2 215.9 355.6
legal business 12 12 215.9 355.6
legal poker 10 12 215.9 355.6
legal tarot 4 6 215.9 355.6
tabloid a7 10 12 279.4 431.8
tabloid a6 4 4 279.4 431.8
tabloid a8 21 25 279.4 431.8
tabloid index-3x5 10 10 279.4 431.8
tabloid index-4x6 4 4 279.4 431.8
tabloid index-5x8 4 4 279.4 431.8
tabloid business 21 25 279.4 431.8
tabloid poker 16 18 279.4 431.8
tabloid tarot 10 12 279.4 431.8
210x297mm 60x90mm 9 9 210 297
EOF

# Page counts of the other modes: fold puts 2 A7 cards on an A4 page with
# margins, 4 edge to edge.
run fold-margins "$F/basic" --duplex fold --layout margins
[ "$(info "$tmp/fold-margins/print/align.pdf" Pages)" = 5 ] && ok "fold, margins: 10 cards on 5 pages" ||
	fail "fold, margins" "want 5 pages, got $(info "$tmp/fold-margins/print/align.pdf" Pages)"
run fold "$F/basic" --duplex fold
[ "$(info "$tmp/fold/print/align.pdf" Pages)" = 3 ] && ok "fold, full: 10 cards on 3 pages" ||
	fail "fold, full" "want 3 pages, got $(info "$tmp/fold/print/align.pdf" Pages)"
run single "$F/basic" --duplex single
[ "$(info "$tmp/single/print/align.pdf" Pages)" = 4 ] && ok "single: 2 pages of fronts, 2 of backs" ||
	fail "single" "want 4 pages, got $(info "$tmp/single/print/align.pdf" Pages)"
for m in lines none; do
	run "marks-$m" "$F/basic" --cut-marks "$m" --layout margins
	[ "$rc" -eq 0 ] && [ "$(info "$tmp/marks-$m/print/align.pdf" Pages)" = 6 ] &&
		ok "--cut-marks $m: 6 pages" || fail "--cut-marks $m" "exit $rc"
done
run bad-layout "$F/basic" --layout ful
[ "$rc" -eq 2 ] && grep -qF 'quizdeck: unknown layout "ful"; did you mean "full"?' "$tmp/bad-layout.err" &&
	ok "--layout ful: a usage error naming full" ||
	fail "--layout ful" "exit $rc: $(head -c 200 "$tmp/bad-layout.err")"

# ---- fonts ------------------------------------------------------------
run basic "$F/basic"
run scripts "$F/scripts"
for f in "$tmp/basic/print/align.pdf" "$tmp/scripts/print/scripts.pdf"; do
	n=$(pdffonts "$f" 2>/dev/null | tail -n +3 | wc -l)
	bad=$(pdffonts "$f" 2>/dev/null | tail -n +3 | awk '$(NF-4) != "yes" || $(NF-3) != "yes" { print $1 }')
	if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		ok "$(basename "$f"): all $n fonts embedded and subset"
	else
		fail "$(basename "$f") fonts" "not embedded or not subset: ${bad:-no fonts at all}"
	fi
done

# ---- each back behind its front -----------------------------------------
# Every side of a card ends in the same folio ("K03 · 3 / 10") at the same
# place on the card: the bottom centre, upright to the reader. So the
# folio of a back must lie where the sheet's turn carries the front's
# folio: long-edge and single mirror x, short-edge mirrors y (the back is
# drawn upside down there), fold mirrors x about the fold at mid-page.
# folios PDF: "page label centre-x centre-y page-width page-height" in pt.
folios() {
	pdftotext -bbox "$1" - 2>/dev/null | awk '
	function attr(s, k,   r) {
		r = s; sub(".*" k "=\"", "", r); sub("\".*", "", r); return r + 0
	}
	/<page / { p++; W[p] = attr($0, "width"); H[p] = attr($0, "height") }
	/<word / {
		n++; P[n] = p
		X0[n] = attr($0, "xMin"); Y0[n] = attr($0, "yMin")
		X1[n] = attr($0, "xMax"); Y1[n] = attr($0, "yMax")
		t = $0; sub(/.*">/, "", t); sub(/<\/word>.*/, "", t); T[n] = t
	}
	END {
		for (i = 1; i <= n; i++) {
			if (T[i] !~ /^K[0-9][0-9]$/)
				continue
			cx = (X0[i] + X1[i]) / 2; cy = (Y0[i] + Y1[i]) / 2
			x0 = X0[i]; x1 = X1[i]; y0 = Y0[i]; y1 = Y1[i]
			# The rest of the folio: words on its line (a row, or a
			# column where the card is turned) within 45 pt.
			for (j = 1; j <= n; j++) {
				if (P[j] != P[i]) continue
				dy = (Y0[j] + Y1[j]) / 2 - cy; dx = (X0[j] + X1[j]) / 2 - cx
				if ((dy < 1 && dy > -1 && dx < 45 && dx > -45) ||
				    (dx < 1 && dx > -1 && dy < 45 && dy > -45)) {
					if (X0[j] < x0) x0 = X0[j]; if (X1[j] > x1) x1 = X1[j]
					if (Y0[j] < y0) y0 = Y0[j]; if (Y1[j] > y1) y1 = Y1[j]
				}
			}
			printf "%d %s %.3f %.3f %.3f %.3f\n", P[i], T[i], (x0 + x1) / 2, (y0 + y1) / 2, W[P[i]], H[P[i]]
		}
	}'
}

# behind NAME MODE PDF [DX DY]: checks every card; DX, DY: the back offset in mm.
behind() {
	name=$1 mode=$2 pdf=$3 dx=${4:-0} dy=${5:-0}
	folios "$pdf" >"$tmp/$name.folios"
	awk -v mode="$mode" -v name="$name" -v dx="$dx" -v dy="$dy" '
	{ page[NR] = $1; label[NR] = $2; x[NR] = $3; y[NR] = $4; W = $5; H = $6 }
	END {
		mm = 72 / 25.4
		# Which of the two folios of a label is the front: the first page,
		# or in fold mode the one left of the fold.
		for (i = 1; i <= NR; i++) {
			l = label[i]; seen[l]++
			if (!(l in f) || page[i] < page[f[l]] || (page[i] == page[f[l]] && x[i] < x[f[l]])) {
				if (l in f) b[l] = f[l]
				f[l] = i
			} else
				b[l] = i
		}
		for (l in seen) order[++k] = l
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
			if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
		for (i = 1; i <= k; i++) {
			l = order[i]
			if (seen[l] != 2) {
				printf "not ok pdf %s: %s: its folio appears %d times, want a front and a back\n", name, l, seen[l]
				continue
			}
			fx = x[f[l]]; fy = y[f[l]]
			if (mode == "short-edge") { ex = fx; ey = H - fy }
			else { ex = W - fx; ey = fy }
			ex += dx * mm; ey += dy * mm
			d = sqrt((x[b[l]] - ex) ^ 2 + (y[b[l]] - ey) ^ 2) / mm
			if (d <= 0.5)
				printf "ok pdf %s: %s: the back lies behind the front (%.2f mm off)\n", name, l, d
			else
				printf "not ok pdf %s: %s: the back is %.2f mm from where the front is (at %.1f,%.1f mm, want %.1f,%.1f)\n", name, l, d, x[b[l]] / mm, y[b[l]] / mm, ex / mm, ey / mm
		}
		if (k != 10)
			printf "not ok pdf %s: found %d cards, want 10\n", name, k
	}' "$tmp/$name.folios"
}

# The default sheet for A7 on A4 is full (8 cards, turned); each mode
# is checked on it and, where the layouts differ, with margins too.
behind "full long-edge" long-edge "$tmp/basic/print/align.pdf"
run short "$F/basic" --duplex short-edge
behind "full short-edge" short-edge "$tmp/short/print/align.pdf"
behind "full fold" fold "$tmp/fold/print/align.pdf"
behind "full single" single "$tmp/single/print/align.pdf"
run offset "$F/basic" --back-offset "1mm, -2mm"
behind "full, back offset 1mm, -2mm" long-edge "$tmp/offset/print/align.pdf" 1 -2
run margins "$F/basic" --layout margins
behind "margins long-edge" long-edge "$tmp/margins/print/align.pdf"
run short-margins "$F/basic" --duplex short-edge --layout margins
behind "margins short-edge" short-edge "$tmp/short-margins/print/align.pdf"
behind "margins fold" fold "$tmp/fold-margins/print/align.pdf"
run turned "$F/basic" --card a6 --layout margins
behind "a6 turned on a4" long-edge "$tmp/turned/print/align.pdf"
run a6-full "$F/basic" --card a6
behind "a6 full on a4" long-edge "$tmp/a6-full/print/align.pdf"
run a8-full "$F/basic" --card a8 --duplex short-edge
behind "a8 full on a4" short-edge "$tmp/a8-full/print/align.pdf"

# The fronts of a long-edge page sit in the A4/A7 slots of impose.h:
# with margins, folio centres at x = 27 + 37 and 109 + 37 mm; on the full
# sheet the cards are turned (their foot to the left), so each folio is
# level with its card's middle: y = 0.5 + 37 + 74 k mm.
awk 'BEGIN { mm = 72 / 25.4 } $1 % 2 == 1 {
	c = $3 / mm; if ((c - 64) ^ 2 > 0.25 && (c - 146) ^ 2 > 0.25) bad = bad " " $2 }
	END { if (bad) print "not ok pdf margins: fronts centred in their slots:" bad
	      else print "ok pdf margins: fronts centred in their slots" }' "$tmp/margins long-edge.folios"
awk 'BEGIN { mm = 72 / 25.4 } $1 % 2 == 1 {
	c = ($4 / mm - 37.5) % 74; if (c > 37) c -= 74; if (c * c > 0.25) bad = bad " " $2 }
	END { if (bad) print "not ok pdf full: fronts centred in their slots:" bad
	      else print "ok pdf full: fronts centred in their slots" }' "$tmp/full long-edge.folios"

# ---- six scripts ------------------------------------------------------
# Whichever font fontconfig picks for a script, each word must come out
# as text (pdftotext reads it back through the embedded font's ToUnicode
# map; a missing glyph would be drawn as a box) and an embedded font
# must cover every character of it (fontconfig's charset of the font the
# PDF names). A script no installed font covers is a skip, not a pass.
pdftotext "$tmp/scripts/print/scripts.pdf" "$tmp/scripts.txt" 2>/dev/null
pdffonts "$tmp/scripts/print/scripts.pdf" 2>/dev/null | tail -n +3 |
	awk '{ n = $1; sub(/^[A-Z][A-Z][A-Z][A-Z][A-Z][A-Z]\+/, "", n); print n }' | sort -u >"$tmp/scripts.fonts"
codepoints() {
	printf '%s' "$1" | python3 -c 'import sys; print(" ".join("%x" % ord(c) for c in sys.stdin.read()))'
}
while read -r script word; do
	cs=$(codepoints "$word")
	if [ -z "$(fc-list ":charset=$cs" family 2>/dev/null)" ]; then
		echo "skip pdf $script: no installed font covers \"$word\""
		continue
	fi
	if grep -qF "$word" "$tmp/scripts.txt"; then
		ok "$script: the text is there (\"$word\")"
	else
		fail "$script" "no \"$word\" in pdftotext's output"
	fi
	covering=
	while read -r ps; do
		if [ -n "$(fc-list ":postscriptname=$ps:charset=$cs" postscriptname 2>/dev/null)" ]; then
			covering=$ps
			break
		fi
	done <"$tmp/scripts.fonts"
	if [ -n "$covering" ]; then
		ok "$script: drawn in an embedded font that covers it ($covering)"
	else
		fail "$script" "no embedded font covers \"$word\" (embedded: $(tr '\n' ' ' <"$tmp/scripts.fonts"))"
	fi
done <<'WORDS'
Hebrew מקביליות
Arabic البيانات
Greek παραλληλισμός
Cyrillic параллелизм
Chinese 数据并行
Latin parallelism
WORDS

# ---- balanced questions -------------------------------------------------
# At the full measure both questions of the fixture end in a word or two
# alone (40 pt of 174, 47 of 157); balanced, no line of a question is
# under half its longest. pdftotext -bbox-layout gives each question as a
# block of lines in the display size (over 15 pt high).
run balance tests/fixtures/pdf/balance
if [ "$rc" -ne 0 ]; then
	fail "balance" "print failed (exit $rc): $(head -c 300 "$tmp/balance.err")"
else
	pdftotext -bbox-layout "$tmp/balance/print/bal.pdf" - 2>/dev/null | awk '
	function attr(s, k,   r) {
		r = s; sub(".*" k "=\"", "", r); sub("\".*", "", r); return r + 0
	}
	function done() {
		if (n >= 2) {
			blocks++
			if (last < 0.5 * max) bad = bad sprintf(" last line %.0f pt of %.0f;", last, max)
		}
		n = 0; max = 0
	}
	/<block/ { done() }
	/<line / {
		w = attr($0, "xMax") - attr($0, "xMin"); h = attr($0, "yMax") - attr($0, "yMin")
		if (h > 15) { n++; last = w; if (w > max) max = w }
	}
	END {
		done()
		if (blocks < 2) print "not ok pdf balance: found " blocks + 0 " questions of two or more lines, want 2"
		else if (bad != "") print "not ok pdf balance:" bad
		else print "ok pdf balance: " blocks " questions of two or more lines, none ending in a short line"
	}'
fi

# ---- shrink to fit, and the warning when even that fails ---------------
run overflow "$F/overflow"
want='content/cards/long.md:9:1: warning: card "huge" does not fit on a 85x55 mm card even at 7 pt; shorten it or choose a larger card'
if [ "$rc" -eq 0 ] && grep -qxF "$want" "$tmp/overflow.err"; then
	ok "an oversized card is a warning with its file and line"
else
	fail "overflow warning" "exit $rc, stderr: $(head -c 300 "$tmp/overflow.err")"
fi
[ "$(grep -c 'does not fit' "$tmp/overflow.err")" = 1 ] && ok "only the oversized card is reported" ||
	fail "overflow warning" "want one warning: $(cat "$tmp/overflow.err")"
if grep -q "does not fit" "$tmp/basic.err" "$tmp/scripts.err"; then
	fail "no overflow" "a fixture deck overflows: $(cat "$tmp/basic.err" "$tmp/scripts.err")"
else
	ok "the fixture decks fit"
fi
if [ -d content/cards ]; then
	$Q print -o "$tmp/default" >/dev/null 2>"$tmp/default.err"
	if [ $? -eq 0 ] && ! grep -q "does not fit" "$tmp/default.err"; then
		ok "every card of the default site fits"
	else
		fail "default site" "$(head -c 400 "$tmp/default.err")"
	fi
fi

# ---- footnotes ----------------------------------------------------------
# A card's footnotes (referenced on its front or back) are printed on its
# back, as a book sets them: under a short rule at the foot, in order of
# reference, each reference number written once.
run notes "$F/notes"
pdf=$tmp/notes/print/notes.pdf
if [ "$rc" -eq 0 ] && pdftotext -f 2 -l 2 "$pdf" - 2>/dev/null | grep -q "Quokkanote: in South Asia" &&
	pdftotext -f 2 -l 2 "$pdf" - 2>/dev/null | grep -q "Asked of wild fish only" &&
	! pdftotext -f 1 -l 1 "$pdf" - 2>/dev/null | grep -q "Quokkanote"; then
	ok "a card's footnotes, from its front and its back, are printed on its back"
else
	fail "footnotes" "exit $rc, back page: $(pdftotext -f 2 -l 2 "$pdf" - 2>/dev/null | tr '\n' ' ' | head -c 300)"
fi
# y (from the top) of a word's top or bottom on the backs page.
word_y() {
	pdftotext -f 2 -l 2 -bbox "$pdf" - 2>/dev/null |
		sed -n "s/.*yMin=\"\([0-9.]*\)\".*yMax=\"\([0-9.]*\)\".*>$1<.*/\1 \2/p" | head -n 1
}
body=$(word_y 'rivers\.') note1=$(word_y Asked) note2=$(word_y 'Quokkanote:') folio=$(word_y Zebra)
if echo "$body $note1 $note2 $folio" | awk '{ exit !(NF == 8 && $3 > $2 + 60 && $5 > $3 && $7 - $6 < 30 && $7 > $6) }'; then
	ok "footnotes sit at the foot of the back, in order, above the folio"
else
	fail "footnotes" "rivers. $body, note 1 $note1, note 2 $note2, folio $folio (top bottom)"
fi
if pdftotext -layout -f 2 -l 2 "$pdf" - 2>/dev/null | grep -q 'rivers\.2$' &&
	pdftotext -layout -f 1 -l 1 "$pdf" - 2>/dev/null | grep -q 'live?1 '; then
	ok "a footnote's number is written once where it is referenced"
else
	fail "footnotes" "want \"rivers.2\" and \"live?1\": $(pdftotext -layout "$pdf" - 2>/dev/null | grep -E 'rivers|live')"
fi

# ---- code on cards --------------------------------------------------------
# A code line too wide for the card shrinks, then wraps at a space with a
# mark (↪) before the continuation: `git bisect bad    # current commit is
# broken` must never print `current commit is broken` as a line of its
# own. A table too wide shrinks; `git diff --staged` never breaks after
# `--`. A word longer than the line breaks where it must, marked. The
# fixture's cards sit in A4/A7 slots with margins; the backs page is
# page 2: card 1 top right, card 2 top left, card 3 bottom right (pt).
run code "$F/code"
pdf=$tmp/code/print/git.pdf
# back N: the text of card N's back, cropped from page 2, blank lines out.
back() {
	case $1 in
	1) set -- 309 112 ;;
	2) set -- 76.5 112 ;;
	3) set -- 309 432.3 ;;
	esac
	pdftotext -f 2 -l 2 -layout -x "${1%.*}" -y "${2%.*}" -W 210 -H 298 "$pdf" - 2>/dev/null |
		tr -d '\f' | sed 's/^ *//; s/ *$//' | grep -v '^$' | grep -v '^GIT$' | grep -v ' · '
}
if [ "$rc" -ne 0 ]; then
	fail "code" "print failed (exit $rc): $(head -c 300 "$tmp/code.err")"
else
	back 1 >"$tmp/code1"
	if grep -q '^git bisect bad *# current commit is' "$tmp/code1" &&
	    ! grep -v -e '^git ' -e '^↪ ' "$tmp/code1" | grep -q . &&
	    grep -q '^↪ ' "$tmp/code1"; then
		ok "code: a wrapped line goes on after ↪; no continuation reads as a command"
	else
		fail "code" "card 1's lines: $(tr '\n' '|' <"$tmp/code1")"
	fi
	back 2 >"$tmp/code2"
	if grep -q 'git diff --staged' "$tmp/code2" && ! grep -q -- '--$' "$tmp/code2"; then
		ok "code: a table too wide shrinks, \`git diff --staged\` whole on its line"
	else
		fail "code" "card 2's lines: $(tr '\n' '|' <"$tmp/code2")"
	fi
	back 3 >"$tmp/code3"
	joined=$(sed 's/^↪ //' "$tmp/code3" | tr -d '\n')
	if [ "$(grep -c '^↪ ' "$tmp/code3")" -ge 1 ] && ! grep -v -e '^curl ' -e '^↪ ' "$tmp/code3" | grep -q . &&
	    [ "$joined" = "curl https://example.org/a/very/long/path/that/does/not/fit/on/one/line/of/any/card/at/all.tar.gz" ]; then
		ok "code: a word longer than the line breaks, each break marked, nothing lost"
	else
		fail "code" "card 3's lines: $(tr '\n' '|' <"$tmp/code3")"
	fi
	# Every word of the backs inside its card's text area (4.5 mm in).
	pdftotext -f 2 -l 2 -bbox "$pdf" - 2>/dev/null | awk '
	function attr(s, k,   r) {
		r = s; sub(".*" k "=\"", "", r); sub("\".*", "", r); return r + 0
	}
	BEGIN { mm = 72 / 25.4; pad = 4.5 * mm - 0.5 }
	/<word / {
		x0 = attr($0, "xMin"); x1 = attr($0, "xMax"); n++
		left = (x0 + x1) / 2 < 105 * mm ? 27 * mm : 109 * mm
		if (x0 < left + pad || x1 > left + 74 * mm - pad) {
			t = $0; sub(/.*">/, "", t); sub(/<\/word>.*/, "", t)
			bad = bad sprintf(" %s (%.1f-%.1f mm)", t, x0 / mm, x1 / mm)
		}
	}
	END {
		if (n == 0) print "not ok pdf code: no words on the backs page"
		else if (bad != "") print "not ok pdf code: words outside the text area:" bad
		else print "ok pdf code: every word of " n " on the backs page stays 4.5 mm inside its card"
	}'
	if grep -q warning "$tmp/code.err"; then
		fail "code" "warnings: $(head -c 300 "$tmp/code.err")"
	else
		ok "code: every card fits, no warning"
	fi
fi

# ---- images on cards ------------------------------------------------------
# A back's PNG, JPEG (embedded as the JPEG it is) and SVG (drawn as
# vectors, so its description is not there as text) are drawn; one that
# cannot be read is a warning at its line and prints its description.
run images "$F/images"
pdf=$tmp/images/print/pics.pdf
want='content/cards/pics.md:21:1: warning: image "broken.png" on card "broken" is damaged: the PDF shows its description in its place; use a PNG, JPEG or SVG file of the site'
if [ "$rc" -eq 0 ] && [ "$(grep -c warning "$tmp/images.err")" = 1 ] && grep -qxF "$want" "$tmp/images.err"; then
	ok "images: one that cannot be read is a warning at its line"
else
	fail "images" "exit $rc, want the one warning \"$want\", got: $(head -c 400 "$tmp/images.err")"
fi
pdfimages -list "$pdf" 2>/dev/null | awk 'NR > 2 { print $1, $4 "x" $5, $9 }' >"$tmp/images.list"
if [ "$(cat "$tmp/images.list" | tr '\n' ' ')" = "2 60x40 image 2 67x94 jpeg " ]; then
	ok "images: the PNG's pixels and the JPEG as it is, on the backs page"
else
	fail "images" "pdfimages on page 2: $(tr '\n' ' ' <"$tmp/images.list")"
fi
pdftotext -f 2 -l 2 "$pdf" - 2>/dev/null >"$tmp/images.txt"
if grep -q "a damaged picture" "$tmp/images.txt" && grep -q "Each rank sends to the next" "$tmp/images.txt" &&
    ! grep -q -e "four ranks" -e "a black frame" -e "a sheet of cards" "$tmp/images.txt"; then
	ok "images: pictures drawn in place of their descriptions, the damaged one described"
else
	fail "images" "backs text: $(tr '\n' ' ' <"$tmp/images.txt" | head -c 300)"
fi
run images-again "$F/images"
cmp -s "$pdf" "$tmp/images-again/print/pics.pdf" && ok "images: identical bytes on a second run" ||
	fail "images" "two runs differ: $(cmp "$pdf" "$tmp/images-again/print/pics.pdf" 2>&1)"

# Pictures on fronts (under the question; a question that is only a
# picture; a cloze card's, on both its sides) and in table cells are
# drawn the same way, none a warning (the one above is the fixture's
# only one); their descriptions are not printed.
pdf=$tmp/images/print/front.pdf
pdfimages -list "$pdf" 2>/dev/null | awk 'NR > 2 { print $1, $4 "x" $5, $9 }' >"$tmp/front.list"
if [ "$(cat "$tmp/front.list" | tr '\n' ' ')" = "1 60x40 image 1 67x94 jpeg 2 60x40 image 2 67x94 jpeg " ]; then
	ok "images: a front's PNG and JPEG, and a table's on the backs page"
else
	fail "images" "pdfimages of the fronts deck: $(tr '\n' ' ' <"$tmp/front.list")"
fi
pdftotext "$pdf" - 2>/dev/null >"$tmp/front.txt"
if grep -q "Which shape is this?" "$tmp/front.txt" && grep -q "a photo of cards" "$tmp/front.txt" &&
    ! grep -q -e "a black frame" -e "a sheet of cards" -e "four ranks in" "$tmp/front.txt"; then
	ok "images: questions and cells print their text, pictures in place of descriptions"
else
	fail "images" "fronts deck text: $(tr '\n' ' ' <"$tmp/front.txt" | head -c 300)"
fi
# The SVG is vectors: seen in the rendered page, as ink under its question.
box=$(pdftotext -f 1 -l 1 -bbox "$pdf" - 2>/dev/null | awk -F'"' '
	/>The</ && !x0 { x0 = $2 }
	/>ranks:</ { x1 = $6; y1 = $8 }
	END { if (x0 && x1) printf "%d %d", (x0 + x1) / 2 - 50, y1 + 4 }')
ink=0
if [ -n "$box" ]; then
	set -- $box
	pdftoppm -r 72 -gray -f 1 -l 1 -x "$1" -y "$2" -W 100 -H 100 "$pdf" "$tmp/ring" 2>/dev/null
	ink=$(tail -c 10000 "$tmp/ring-1.pgm" 2>/dev/null | od -An -v -tu1 |
		awk '{ for (i = 1; i <= NF; i++) if ($i < 128) n++ } END { print n + 0 }')
fi
[ "$ink" -gt 1000 ] && ok "images: the front's SVG drawn under its question ($ink dark pixels)" ||
	fail "images" "under the cloze card's question ($box): $ink dark pixels of 10000, want the ring"

# ---- metadata, outline, dates, identical bytes ------------------------
pdf=$tmp/basic/print/align.pdf
for kv in "Title:Alignment" "Author:Quizdeck Tests" \
    "Subject:Ten cards whose backs must land behind their fronts." "Creator:quizdeck"; do
	k=${kv%%:*} v=${kv#*:}
	[ "$(info "$pdf" "$k")" = "$v" ] && ok "metadata: $k is \"$v\"" ||
		fail "metadata" "$k is \"$(info "$pdf" "$k")\", want \"$v\""
done
n=$(grep -a -c '/Dest \[' "$pdf")
[ "$n" = 10 ] && ok "outline: one entry per card" || fail "outline" "$n entries, want 10"
grep -a -q '/Title (1. What is data parallelism?)' "$pdf" && ok "outline: entries are numbered questions" ||
	fail "outline" "no entry \"1. What is data parallelism?\""
d=$(info "$pdf" CreationDate)
[ "$d" = "2023-11-14T22:13:20Z" ] && ok "the date is SOURCE_DATE_EPOCH's" ||
	fail "date" "CreationDate $d with SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-unset}, want 2023-11-14T22:13:20Z"
env -u SOURCE_DATE_EPOCH $Q print -C "$F/basic" -o "$tmp/nodate" 2>/dev/null
d=$(info "$tmp/nodate/print/align.pdf" CreationDate)
[ "$d" = "2024-01-01T00:00:00Z" ] && ok "without SOURCE_DATE_EPOCH the date is fixed" ||
	fail "date" "CreationDate $d without SOURCE_DATE_EPOCH, want 2024-01-01T00:00:00Z"
run again "$F/basic"
cmp -s "$pdf" "$tmp/again/print/align.pdf" && ok "two runs give identical bytes" ||
	fail "reproducible" "two runs differ"
run again-scripts "$F/scripts"
cmp -s "$tmp/scripts/print/scripts.pdf" "$tmp/again-scripts/print/scripts.pdf" &&
	ok "two runs give identical bytes in six scripts" || fail "reproducible" "the scripts deck differs between runs"

# ---- threads ------------------------------------------------------------
# With -j2 and up, other threads lay a deck's pages out and the writer
# draws what they hand over: the bytes must be the ones -j1 writes, in
# every duplex mode, with overflowing cards, in every script, and with
# a sheet too full to hand over (business cards on A3: the writer alone).
for c in "long basic" "short basic --duplex short-edge" "fold basic --duplex fold" \
    "single basic --duplex single" "overflow overflow" "scripts scripts" \
    "crowded basic --card 20x12mm --paper a3"; do
	set -- $c
	tcase=$1 tfix=$2
	shift 2
	run "j1-$tcase" "$F/$tfix" -j1 "$@"
	want=$(ls "$tmp/j1-$tcase/print/"*.pdf 2>/dev/null | head -n 1)
	for j in 2 3; do
		run "j$j-$tcase" "$F/$tfix" -j$j "$@"
		got=$tmp/j$j-$tcase/print/$(basename "${want:-none}")
		if [ -n "$want" ] && cmp -s "$want" "$got" && cmp -s "$tmp/j1-$tcase.err" "$tmp/j$j-$tcase.err"; then
			ok "threads: -j$j writes the -j1 bytes and warnings ($tcase)"
		else
			fail "threads" "-j$j differs from -j1 ($tcase): exit $rc, $(cmp "$want" "$got" 2>&1 | head -n 1)"
		fi
	done
done

# ---- long decks -----------------------------------------------------------
# A long deck: every card on its page, numbered to the last, and print
# writes the bytes build writes: on A7 cards (eight a sheet) and on
# business cards (ten a sheet), with one thread and with helpers.
# A7 cards on A4 are a full sheet of eight: 138 sheets, 276 pages.
sh tests/bench/gen-deck.sh "$tmp/long" 1100
$Q print -j2 -C "$tmp/long" -o "$tmp/long-print" >/dev/null 2>"$tmp/long-print.err"
rc=$?
$Q build -j2 -C "$tmp/long" -o "$tmp/long-build" >/dev/null 2>"$tmp/long-build.err"
if [ "$rc" -eq 0 ] && [ "$(info "$tmp/long-print/print/generated.pdf" Pages)" = 276 ] &&
    cmp -s "$tmp/long-print/print/generated.pdf" "$tmp/long-build/print/generated.pdf"; then
	ok "a deck of 1,100 cards: 276 pages, and print draws the bytes build draws"
else
	fail "long deck" "exit $rc, $(info "$tmp/long-print/print/generated.pdf" Pages) pages, $(cmp "$tmp/long-print/print/generated.pdf" "$tmp/long-build/print/generated.pdf" 2>&1 | head -n 1)"
fi
pdftotext -f 275 -l 276 "$tmp/long-print/print/generated.pdf" - 2>/dev/null | grep -q "1100 / 1100" &&
	ok "a deck of 1,100 cards: its last card is numbered 1100 / 1100" ||
	fail "long deck" "no folio 1100 / 1100 on the last pages"
cp -R "$tmp/long" "$tmp/long-biz"
sed -i 's/^card = .*/card = "business"/' "$tmp/long-biz/site.toml"
$Q build -j1 -C "$tmp/long-biz" -o "$tmp/long-biz-build" >/dev/null 2>"$tmp/long-biz-build.err"
for j in 1 2 3; do
	$Q print -j$j -C "$tmp/long-biz" -o "$tmp/long-biz-$j" >/dev/null 2>"$tmp/long-biz-$j.err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(info "$tmp/long-biz-$j/print/generated.pdf" Pages)" = 220 ] &&
	    cmp -s "$tmp/long-biz-$j/print/generated.pdf" "$tmp/long-biz-build/print/generated.pdf"; then
		ok "a deck of 1,100 business cards, ten a sheet, -j$j: print draws the bytes build draws"
	else
		fail "long deck" "business cards -j$j: exit $rc, $(info "$tmp/long-biz-$j/print/generated.pdf" Pages) pages, $(cmp "$tmp/long-biz-$j/print/generated.pdf" "$tmp/long-biz-build/print/generated.pdf" 2>&1 | head -n 1)"
	fi
done
# Single-sided, every back page follows every front; folded, each page
# has both sides. The same bytes as build.
for m in single fold; do
	cp -R "$tmp/long" "$tmp/long-$m"
	sed -i "s/^duplex = .*/duplex = \"$m\"/" "$tmp/long-$m/site.toml"
	$Q build -j1 -C "$tmp/long-$m" -o "$tmp/long-$m-build" >/dev/null 2>&1
	$Q print -j2 -C "$tmp/long-$m" -o "$tmp/long-$m-print" >/dev/null 2>"$tmp/long-$m.err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ -s "$tmp/long-$m-build/print/generated.pdf" ] &&
	    cmp -s "$tmp/long-$m-print/print/generated.pdf" "$tmp/long-$m-build/print/generated.pdf"; then
		ok "a deck of 1,100 cards, duplex $m: print draws the bytes build draws"
	else
		fail "long deck" "duplex $m: exit $rc, $(cmp "$tmp/long-$m-print/print/generated.pdf" "$tmp/long-$m-build/print/generated.pdf" 2>&1 | head -n 1)"
	fi
done
# More than 1,000 cards: a bookmark per hundred, "101-200. Its first
# question" (en dash, so cairo writes the title as UTF-16 hex).
pdf=$tmp/long-print/print/generated.pdf
n=$(grep -a -c '/Dest \[' "$pdf")
# utf16 TEXT: TEXT as cairo writes a title that is not ASCII, in hex.
utf16() {
	printf '%s' "$1" | iconv -f UTF-8 -t UTF-16BE | od -An -tx1 | tr -d ' \n' | tr a-f A-F
}
[ "$n" = 11 ] && ok "a deck of 1,100 cards: a bookmark per hundred cards" ||
	fail "outline" "$n entries, want 11"
grep -a -q "/Title <FEFF$(utf16 '1–100. Card 1: what does data parallelism split')" "$pdf" &&
	ok "a deck of 1,100 cards: bookmarks name their range and first question" ||
	fail "outline" "no entry \"1-100. Card 1: what does data parallelism split...\""
grep -a -q "/Title <FEFF$(utf16 '1001–1100. ')" "$pdf" &&
	ok "a deck of 1,100 cards: the last bookmark ends at the last card" ||
	fail "outline" "no entry \"1001-1100. ...\""

# ---- calibration --------------------------------------------------------
run calibration "$F/basic" --calibration --paper letter
cal=$tmp/calibration/print/calibration.pdf
if [ "$rc" -eq 0 ] && [ "$(info "$cal" Pages)" = 2 ] && info "$cal" "Page size" | grep -q "^612 x 792"; then
	ok "--calibration writes a front and a back on the paper asked for"
else
	fail "calibration" "exit $rc, $(info "$cal" Pages) pages of $(info "$cal" "Page size")"
fi
pdftotext "$cal" - 2>/dev/null | grep -q "back_offset" && ok "calibration: says how to set back_offset" ||
	fail "calibration" "no instructions"
[ ! -e "$tmp/calibration/print/align.pdf" ] && ok "calibration: writes nothing else" ||
	fail "calibration" "also wrote the deck"
exit 0

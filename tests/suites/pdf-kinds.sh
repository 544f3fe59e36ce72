#!/bin/sh
# Cloze and reversed cards in the PDF (tests/fixtures/pdf/kinds), read
# back with pdftotext: each card printed and counted in the folios, a
# cloze front showing its blank (with its hint, as text even where cmark
# reads it as raw HTML) and never its answer,
# its back the whole text; a reversed card asking with the back.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=0

ok() { echo "ok pdf-kinds $1"; }
fail() { echo "not ok pdf-kinds $1: $2"; }

if ! command -v pdftotext >/dev/null 2>&1; then
	fail "poppler-utils" "pdftotext not found (apt-get install poppler-utils)"
	exit 0
fi
if ! $Q print -C tests/fixtures/pdf/kinds -o "$tmp/out" >"$tmp/log" 2>&1; then
	fail "print" "$(head -c 400 "$tmp/log")"
	exit 0
fi
pdf=$tmp/out/print/kinds.pdf
pages=$(pdfinfo "$pdf" | sed -n 's/^Pages: *//p')
# Eight A7 cards a full A4 sheet (the default layout): five cards are one sheet, front and back.
[ "$pages" = 2 ] && ok "five cards on one sheet" || fail "pages" "$pages, want 2"
# -raw: in the order drawn. Fronts are the odd pages, backs the even.
fronts= backs=
for p in 1 2; do
	t=$(pdftotext -raw -f "$p" -l "$p" "$pdf" - | tr '\n' ' ')
	if [ $((p % 2)) = 1 ]; then fronts="$fronts $t"; else backs="$backs $t"; fi
done

# has NAME TEXT WANT: WANT is in TEXT.
has() {
	case $2 in
	*"$3"*) ok "$1" ;;
	*) fail "$1" "\"$3\" not in: $2" ;;
	esac
}
# lacks NAME TEXT WORD: WORD is not in TEXT.
lacks() {
	case $2 in
	*"$3"*) fail "$1" "\"$3\" shows in: $2" ;;
	*) ok "$1" ;;
	esac
}

has "cloze front shows its blank" "$fronts" "The capital of Freedonia is […]"
lacks "cloze front and folio never show the answer" "$fronts" "Quuxville"
has "a second deletion's front shows the first as text, its hint of raw HTML as text" "$fronts" "HBM stands for [<b>what</b>]"
grep -q warning "$tmp/log" && fail "a hint is no raw HTML lost" "$(head -c 400 "$tmp/log")" || ok "a hint is no raw HTML lost"
has "a first deletion's front shows the second as text" "$fronts" "[…] stands for high-"
has "reversed front asks with the back" "$fronts" "Transmission Control Protocol."
for folio in "Capital (cloze 1) · 1 / 5" "(cloze 1) · 2 / 5" "(cloze 2) · 3 / 5" "Tcp · 4 / 5" \
    "Tcp (reversed) · 5 / 5"; do
	has "folio $folio on the front" "$fronts" "$folio"
	has "folio $folio on the back" "$backs" "$folio"
done
has "cloze back shows the whole text" "$backs" "The capital of Freedonia is Quuxville"
has "cloze back shows the extra" "$backs" "Founded in 1933."
has "second deletion's back" "$backs" "HBM stands for high-bandwidth memory"
has "reversed back is the front" "$backs" "TCP"

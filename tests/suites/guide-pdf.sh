#!/bin/sh
# The guide as a book (out/print/guide.pdf), read back with poppler-utils
# and a few lines of Python over the PDF's objects: the paper, fonts
# embedded, the contents' page numbers against where each chapter and
# section is found, the outline against the chapters and sections, links
# inside the book and out of it, pictures, footnotes, hyphenation,
# "Practise this", identical bytes on rebuild, A4 and A5, and the
# warnings. One line per check: `ok guide-pdf ...` / `not ok guide-pdf ...`.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok guide-pdf $1"; }
fail() { echo "not ok guide-pdf $1: $2"; }
check() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "got \"$2\", want \"$3\""; fi; }

for t in pdfinfo pdffonts pdftotext pdfimages pdftoppm python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		fail "tools" "$t not found (make test-deps)"
		exit 0
	fi
done

# The fixture, with a PNG and a JPEG drawn from a PDF by pdftoppm.
site=$tmp/site
cp -R tests/fixtures/book "$site"
$Q new "$tmp/pics" >/dev/null && $Q print -q -C "$tmp/pics" -o "$tmp/pics/out" basics
pdftoppm -png -r 10 -singlefile -f 1 -l 1 "$tmp/pics/out/print/basics.pdf" "$site/content/guide/pic"
pdftoppm -jpeg -r 10 -singlefile -f 1 -l 1 "$tmp/pics/out/print/basics.pdf" "$site/content/guide/photo"

$Q build --strict -q -C "$site" -o "$tmp/out" 2>"$tmp/err"
check "the fixture builds under --strict" "$?" 0
check "and says nothing" "$(cat "$tmp/err")" ""
pdf=$tmp/out/print/guide.pdf
[ -s "$pdf" ] && ok "build writes out/print/guide.pdf" || fail "build writes out/print/guide.pdf" "no file"

info() { pdfinfo "$1" | sed -n "s/^$2: *//p"; }
check "A5 paper from [print] paper" "$(info "$pdf" 'Page size')" "419.528 x 595.276 pts"
check "the title is the site's" "$(info "$pdf" Title)" "Book fixture"
check "dated by SOURCE_DATE_EPOCH" "$(pdfinfo -isodates "$pdf" | sed -n 's/^CreationDate: *//p')" \
	"2023-11-14T22:13:20Z"
notemb=$(pdffonts "$pdf" | tail -n +3 | awk '$(NF-4) != "yes"' | wc -l)
check "every font is embedded" "$notemb" 0

# contents PDF: "title page" lines of the contents page, one per entry, as pdftotext -layout sets them.
contents() {
	pdftotext -layout -f 2 -l 2 "$1" - | sed -n 's/^ *\([0-9]* *\)\{0,1\}\(.*[^ ]\)  *\([0-9][0-9]*\)$/\2|\3/p' |
		sed 's/^[0-9][0-9]* *//'
}
# found PDF TEXT: the first page from 3 on with a line that is TEXT.
found() {
	n=$(pdfinfo "$1" | sed -n 's/^Pages: *//p') p=3
	while [ "$p" -le "$n" ]; do
		if pdftotext -f "$p" -l "$p" "$1" - | grep -qx -- "$2"; then
			echo "$p"
			return
		fi
		p=$((p + 1))
	done
	echo none
}
check_contents() {
	contents "$2" >"$tmp/contents"
	check "$1: the contents list the chapters and their sections" "$(cut -d'|' -f1 "$tmp/contents" | tr '\n' ',')" \
		"First steps,Alpha,Beta,Second chapter,Gamma,Third chapter,Far section,"
	while IFS='|' read -r title page; do
		check "$1: contents say \"$title\" is on page $page" "$(found "$2" "$title")" "$page"
	done <"$tmp/contents"
}
check_contents A5 "$pdf"
ch3=$(sed -n 's/^Third chapter|//p' "$tmp/contents")
far=$(sed -n 's/^Far section|//p' "$tmp/contents")
[ "$far" -gt "$ch3" ] && ok "the far section is pages into its chapter (p. $far)" ||
	fail "the far section is pages into its chapter" "chapter $ch3, section $far"
check "each chapter opens with its number" "$(pdftotext -f "$ch3" -l "$ch3" "$pdf" - | head -1)" "Chapter 3"

# The outline, and the links, read from the PDF's objects (Cairo writes them uncompressed).
python3 - "$pdf" >"$tmp/objects" <<'EOF'
import re, sys
d = open(sys.argv[1], "rb").read()
objs = {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\s*(.*?)endobj", d, re.S)}
def title(s):
    m = re.search(rb"/Title \((.*?)\)\s*/", s, re.S)
    return m.group(1).decode("latin-1") if m else None
def depth(n):
    k = 0
    while True:
        m = re.search(rb"/Parent (\d+) 0 R", objs[n])
        if not m or title(objs[int(m.group(1))]) is None:
            return k
        n = int(m.group(1))
        k += 1
items = [n for n in sorted(objs) if title(objs[n]) is not None and b"/Parent" in objs[n]]
for n in items:
    print("outline " + "  " * depth(n) + title(objs[n]))
for s in objs.values():
    if b"/Subtype /Link" in s:
        m = re.search(rb"/URI \((.*?)\)", s)
        print("uri " + m.group(1).decode() if m else ("dest" if b"/Dest" in s else "link without target"))
EOF
check "the outline holds the chapters and their sections" "$(sed -n 's/^outline //p' "$tmp/objects" | tr '\n' ',')" \
	"Contents,First steps,  Alpha,  Beta,    Beta detail,Second chapter,  Gamma,    The send call,Third chapter,  Far section,"
check "every link leads somewhere" "$(grep -c 'link without target' "$tmp/objects")" 0
# 7 contents lines, "the far section", "the first chapter", two in a table's cells, one in an embedded question's explanation
check "links inside the book: the contents, the text, table cells, a question" "$(grep -cx dest "$tmp/objects")" 12
check "links out of the book lead to their URLs (one in a table cell)" "$(sed -n 's/^uri //p' "$tmp/objects" | sort | tr '\n' ' ')" \
	"https://example.org/a/path?x=1 https://example.org/cell "

pdftotext "$pdf" "$tmp/text"
grep -q "the far section (p. $far)" "$tmp/text" && ok "a link to a section reads its page (p. $far)" ||
	fail "a link to a section reads its page" "no \"the far section (p. $far)\" in $(grep -i 'far section' "$tmp/text" | head -3)"
one=$(sed -n 's/^First steps|//p' "$tmp/contents")
grep -q "the first chapter (p. $one)" "$tmp/text" && ok "a link to a chapter reads its page (p. $one)" ||
	fail "a link to a chapter reads its page" "$(grep 'first chapter' "$tmp/text")"
tr -d '\n ' <"$tmp/text" | grep -qF "Example(https://example.org/a/path?x=1)" &&
	ok "a link out of the book prints its URL" || fail "a link out of the book prints its URL" "not in the text"
grep -qx "Practise this: Checks, question 1." "$tmp/text" && ok "a section's \"Practise this\" is a short reference" ||
	fail "a section's \"Practise this\" is a short reference" "$(grep -i practise "$tmp/text")"

# Links in a table's cells read their pages as in the text.
two=$(sed -n 's/^Second chapter|//p' "$tmp/contents")
beta=$(sed -n 's/^Beta|//p' "$tmp/contents")
pdftotext -layout -f "$two" -l "$((two + 1))" "$pdf" - | tr -s ' ' >"$tmp/two"
grep -q "^Start the first chapter (p. $one)\$" "$tmp/two" && grep -q "^Finish Beta (p. $beta) and Example (https://example.org/cell)\$" "$tmp/two" &&
	ok "links in a table's cells read their pages (p. $one, p. $beta)" ||
	fail "links in a table's cells read their pages" "$(grep -i 'start\|finish' "$tmp/two")"

# A question shown in a chapter: set in its place, in chapter 2, with its answer and explanation below.
qp=$(found "$pdf" "Which section is first?")
pdftotext -f "$qp" -l "$qp" "$pdf" - | sed -n '/^Try a question$/,/^See /p' | tr '\n' '|' >"$tmp/embed"
check "an embedded question prints as the question, its answer below" "$(cat "$tmp/embed")" \
	"Try a question|Which section is first?|A Alpha|B Beta|Answer: A|See Alpha (p. $one).|"
[ "$qp" -ge "$two" ] && [ "$qp" -lt "$ch3" ] && ok "in its chapter (p. $qp)" || fail "in its chapter" "page $qp"

# Code in headings keeps its face: in the text, and on the contents page (a chapter's # title, a section).
pdffonts -f 2 -l 2 "$pdf" | grep -q NotoSansMono && ok "code in a heading is monospace in the contents" ||
	fail "code in a heading is monospace in the contents" "$(pdffonts -f 2 -l 2 "$pdf")"
pdffonts -f "$ch3" -l "$ch3" "$pdf" | grep -q NotoSansMono && ok "and in the chapter's title" ||
	fail "and in the chapter's title" "no monospace font on page $ch3"

# The fixture's test as a handout: its picture drawn, its table set as the book sets one.
ho=$tmp/out/print/checks-handout.pdf
check "the handout draws a question's picture" "$(pdfimages -list "$ho" | tail -n +3 | awk '{ print $1, $3 }')" "1 image"
pdftotext -layout -f 1 -l 1 "$ho" - | tr -s ' ' | sed 's/^ //' >"$tmp/ho"
grep -qx "Format Bytes" "$tmp/ho" && grep -qx "bf16 2" "$tmp/ho" && grep -qx "fp32 4" "$tmp/ho" &&
	ok "the handout sets a question's table in rows and columns" || fail "the handout sets a question's table" "$(cat "$tmp/ho")"

# Footnotes at the end of their chapter: after its last section, before the next chapter.
awk '/^Beta detail$/ { s = 1 } s && /^Notes$/ { n = NR } n && /^1\. *A footnote of the first chapter\.$/ { f = NR }
	/Chapter 2$/ { c = NR } END { exit !(n && f > n && c > f) }' "$tmp/text" &&
	ok "footnotes come under Notes at the end of their chapter" ||
	fail "footnotes come under Notes at the end of their chapter" "$(grep -n 'Notes\|footnote\|^Chapter' "$tmp/text")"

# Pictures: the PNG and the JPEG as images (the JPEG as its own bytes), the SVG as drawing and text.
pdfimages -list "$pdf" | tail -n +3 | awk '{ print $3, $9 }' | sort >"$tmp/images"
check "the PNG and the JPEG are in the PDF" "$(tr '\n' ',' <"$tmp/images")" "image image,image jpeg,"
grep -qx "Diagram label" "$tmp/text" && ok "the SVG is drawn (its text is there)" || fail "the SVG is drawn" "no \"Diagram label\""
grep -qx "A labelled diagram" "$tmp/text" && ok "a picture's title is its caption" || fail "a picture's title is its caption" "none"

# Hyphenation: a line broken at a soft hyphen, whose halves make a word of the source.
word=$(awk '/\xc2\xad$/ { sub(/\xc2\xad$/, ""); n = split($0, w, " "); a = w[n]; getline; split($0, v, " "); print a v[1]; exit }' "$tmp/text")
if [ -n "$word" ] && grep -q -- "$(printf %s "$word" | tr -d ',.')" "$site/content/guide/one.md"; then
	ok "a line breaks at a soft hyphen inside a word (\"$word\")"
else
	fail "a line breaks at a soft hyphen inside a word" "\"$word\""
fi

# The same bytes again, and on one thread.
$Q build -q -C "$site" -o "$tmp/out2" && cmp -s "$pdf" "$tmp/out2/print/guide.pdf" &&
	ok "identical bytes on rebuild" || fail "identical bytes on rebuild" "the files differ"
$Q print -q -j 1 -C "$site" -o "$tmp/out3" && cmp -s "$pdf" "$tmp/out3/print/guide.pdf" &&
	ok "print writes the same book on one thread" || fail "print writes the same book on one thread" "the files differ"

# Right to left (language = "ar"): markers in the right margin. Words' x from pdftotext
# -bbox-layout: on the line of a marker (a word matching the pattern, beside a word of the
# text), "right" if the marker is right of every other word of its line, "left" if left of
# every one; one answer per such line.
sides() {
	pdftotext -bbox-layout "$1" - | python3 -c '
import re, sys
marker, word = re.compile(sys.argv[1]), sys.argv[2]
for line in re.findall(r"<line[^>]*>(.*?)</line>", sys.stdin.read(), re.S):
    ws = [(float(a), float(b), w) for a, b, w in
          re.findall(r"<word xMin=\"([\d.]+)\" yMin=\"[\d.]+\" xMax=\"([\d.]+)\"[^>]*>([^<]*)</word>", line)]
    ms = [x for x in ws if marker.fullmatch(x[2].strip("\u200f"))]
    if len(ms) != 1 or not any(x[2] == word for x in ws):
        continue
    rest = [x for x in ws if x is not ms[0]]
    if ms[0][0] >= max(x[1] for x in rest):
        print("right")
    elif ms[0][1] <= min(x[0] for x in rest):
        print("left")
    else:
        print("between")
' "$2" "$3"
}
check "left to right, an embedded question's letters are left of its options" \
	"$(sides "$pdf" '[AB]' Alpha; sides "$pdf" '[AB]' Beta)" "left
left"
ar=$tmp/ar
cp -R "$site" "$ar"
sed 's/^language = "en"/language = "ar"/' "$site/site.toml" >"$ar/site.toml"
$Q print -q -C "$ar" -o "$ar/out" 2>"$tmp/err"
check "an Arabic book prints" "$?" 0
check "right to left, an embedded question's letters are right of its options" \
	"$(sides "$ar/out/print/guide.pdf" '[AB]' Alpha; sides "$ar/out/print/guide.pdf" '[AB]' Beta)" "right
right"
check "and a handout's question numbers right of their questions" \
	"$(sides "$ar/out/print/checks-handout.pdf" '\.?1\.?' format | head -1)" "right"
check "left to right, left of them" "$(sides "$ho" '\.?1\.?' format | head -1)" "left"
# Folios at the outer edge: odd pages are left-hand pages in a book read right to left.
folio() {
	pdftotext -f "$2" -l "$2" -bbox-layout "$1" - | python3 -c '
import re, sys
w = re.findall(r"<word xMin=\"([\d.]+)\" yMin=\"([\d.]+)\"[^>]*>([^<]*)</word>", sys.stdin.read())
y = min(float(x[1]) for x in w)
top = [x for x in w if float(x[1]) < y + 1 and x[2].isdigit()]
print("left" if top and float(top[0][0]) < 150 else "right", top[0][2] if top else "no folio")
'
}
# (The page after chapter 3's opening runs with a head: the far section is pages into it.)
rp=$((ch3 + 1))
[ $((rp % 2)) -eq 0 ] && ltr=left rtl=right || ltr=right rtl=left
check "a running head's folio at the outer edge, mirrored right to left" \
	"$(folio "$pdf" "$rp"; folio "$ar/out/print/guide.pdf" "$rp")" "$ltr $rp
$rtl $rp"

# A table's header row is kept with its first body row: after fillers of every length
# over a page, some of which leave room at the foot for the header row only.
tb=$tmp/table
mkdir -p "$tb/content/guide"
printf 'title = "Tables"\nlanguage = "en"\n\n[print]\npaper = "a5"\n' >"$tb/site.toml"
bad=""
n=14
while [ "$n" -le 44 ]; do
	{
		printf '+++\ntitle = "Filler"\n+++\n\n# Filler\n\n'
		i=0
		while [ "$i" -lt "$n" ]; do printf 'Line %d.\n\n' "$i"; i=$((i + 1)); done
		printf '| Quantity | Unit |\n|---|---|\n| firstrow | g |\n| secondrow | g |\n| thirdrow | g |\n'
	} >"$tb/content/guide/one.md"
	$Q print -q -C "$tb" -o "$tb/out" 2>/dev/null
	hp=$(found "$tb/out/print/guide.pdf" Quantity) rp=$(found "$tb/out/print/guide.pdf" firstrow)
	[ "$hp" != none ] && [ "$hp" = "$rp" ] || bad="$bad $n:$hp/$rp"
	n=$((n + 1))
done
check "a table's header row is on the page of its first row, whatever stands before it" "$bad" ""

# A4: the paper from --paper, the contents still true.
$Q print -q --paper a4 -C "$site" -o "$tmp/a4"
check "A4 with print --paper a4" "$(info "$tmp/a4/print/guide.pdf" 'Page size')" "595.276 x 841.89 pts (A4)"
check_contents A4 "$tmp/a4/print/guide.pdf"

# print with a deck named writes that deck only, not the book.
$Q print -q -C "$tmp/pics" -o "$tmp/only" basics
[ ! -e "$tmp/only/print/guide.pdf" ] && ok "print DECK writes no book" || fail "print DECK writes no book" "it did"

# Warnings: no dictionary for the language; a picture the book cannot draw.
# (The site's own strings for zz, so that the language itself is no warning.)
mkdir -p "$site/i18n" && printf '[language]\nname = "Zz"\n' >"$site/i18n/zz.toml"
sed 's/^language = "en"/language = "zz"/' "$site/site.toml" >"$tmp/zz.toml" && cp "$tmp/zz.toml" "$site/site.toml"
$Q check -C "$site" >/dev/null 2>"$tmp/err"
# (An unknown language's strings are English, with a warning of their own: lang.h.)
check "no dictionary for the language is a warning that names the package" "$(grep hyphenation "$tmp/err")" \
	"$site/site.toml: warning: no hyphenation dictionary for language \"zz\" in /usr/share/hyphen: the book is set without hyphenation; install Debian's hyphen-zz package (apt-cache search hyphen-)"
# A language written without hyphens (Arabic, Hebrew, Chinese...) misses no dictionary.
for l in ar he zh-TW; do
	mkdir -p "$site/i18n" && printf '[language]\nname = "%s"\n' "$l" >"$site/i18n/$l.toml"
	sed "s/^language = \"en\"/language = \"$l\"/" tests/fixtures/book/site.toml >"$site/site.toml"
	$Q check -C "$site" >/dev/null 2>"$tmp/err"
	check "$l is set without hyphens and without a warning" "$(cat "$tmp/err")" ""
done
rm -rf "$site/i18n"
cp tests/fixtures/book/site.toml "$site/site.toml"
echo "not a picture" >"$site/content/guide/pic.png"
$Q check -C "$site" >/dev/null 2>"$tmp/err"
# check lays the handout out too: the question's picture is the same file.
check "a picture it cannot read is a warning at its place, in the book and in the handout" "$(cat "$tmp/err")" \
	"content/guide/one.md:12:1: warning: image \"pic.png\" is not a PNG, JPEG or SVG file: the book shows its description in its place; use a PNG, JPEG or SVG file of the site
content/quiz/checks.md:14:1: warning: image \"../guide/pic.png\" is not a PNG, JPEG or SVG file: the handout shows its description in its place; use a PNG, JPEG or SVG file of the site"
$Q build --strict -q -C "$site" -o "$tmp/out" 2>/dev/null
check "which fails a --strict build" "$?" 1

# The book's name is taken: a deck named guide would write over it.
mkdir -p "$site/content/cards"
printf '+++\ntitle = "Guide deck"\n+++\n\n## Front\n\nBack.\n' >"$site/content/cards/guide.md"
$Q check -C "$site" >/dev/null 2>"$tmp/err"
grep -q "print/guide.pdf.*the guide as a book\|the guide as a book.*print/guide.pdf" "$tmp/err" &&
	ok "a deck named guide clashes with the book" || fail "a deck named guide clashes with the book" "$(cat "$tmp/err")"

#!/bin/sh
# Files: what the build reads and writes on disk.
#
#  1. Symbolic links in content/ are followed only to regular files inside
#     content/; loops, broken links, links to folders and links leaving
#     content/ (to /etc/passwd, to the site root) are warnings naming the
#     link, and nothing of theirs reaches the output. A symbolic-link
#     loop in a theme's assets is not followed either.
#  2. Outputs that would collide on a case-insensitive disk (macOS,
#     Windows): two decks Foo.md and foo.md, two chapters, two tests, a
#     copied file and a page with one name, a content file over a theme
#     asset: errors naming both, and nothing written.
#  3. Odd file names (spaces, '#', '?', '%', '&', ':', quotes, accents,
#     CJK, a leading dash) build, percent-encoded in every href, and every
#     link works from disk (tests/linkcheck.py and Chromium); a name that
#     is not UTF-8 is an error.
# (Links and images reaching outside the site are tests/bad/hostile-links.)
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
Q=$(pwd)/${QUIZDECK:-quizdeck}
case ${QUIZDECK:-} in /*) Q=$QUIZDECK ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok files $*"; }
fail() { echo "not ok files $*"; }

# Compares a file with expected text; prints ok or the diff.
same() {
	name=$1 want=$2 got=$3
	if printf '%s\n' "$want" | diff -u - "$got" >"$tmp/diff" 2>&1; then
		ok "$name"
	else
		fail "$name: output differs:"
		sed 's/^/#   /' "$tmp/diff"
	fi
}

# --- 1. symbolic links -------------------------------------------------
s=$tmp/links
mkdir -p "$s/content/guide" "$s/themes"
: >"$s/site.toml"
printf '# Outside\n\nroot:x:0:0 from the site root\n' >"$s/outside.md"
printf '# Chapter\n\n[the alias](alias.md)\n' >"$s/content/guide/chapter.md"
ln -s chapter.md "$s/content/guide/alias.md"
ln -s loop-b.md "$s/content/guide/loop-a.md"
ln -s loop-a.md "$s/content/guide/loop-b.md"
ln -s . "$s/content/guide/self"
ln -s ../.. "$s/content/guide/up"
ln -s /etc/passwd "$s/content/guide/passwd.md"
ln -s /etc/passwd "$s/content/guide/passwd.txt"
ln -s ../../outside.md "$s/content/guide/outside.md"
ln -s missing.md "$s/content/guide/dangling.md"
mkfifo "$s/content/guide/fifo"
ln -s fifo "$s/content/guide/fifo-link.md"
cp -R themes/default "$s/themes/default"
ln -s . "$s/themes/default/assets/loop"
real=$(cd "$s" && pwd -P)
want="content/guide/dangling.md: warning: a symbolic link that is broken or loops is not followed: No such file or directory
content/guide/fifo-link.md: warning: a symbolic link to something that is not a file ($real/content/guide/fifo) is not followed
content/guide/loop-a.md: warning: a symbolic link that is broken or loops is not followed: Too many levels of symbolic links
content/guide/loop-b.md: warning: a symbolic link that is broken or loops is not followed: Too many levels of symbolic links
content/guide/outside.md: warning: a symbolic link leading outside content/ (to $real/outside.md) is not followed
content/guide/passwd.md: warning: a symbolic link leading outside content/ (to /etc/passwd) is not followed
content/guide/passwd.txt: warning: a symbolic link leading outside content/ (to /etc/passwd) is not followed
content/guide/self: warning: a symbolic link to a folder is not followed
content/guide/up: warning: a symbolic link leading outside content/ (to $real) is not followed
0 tests, 0 topics, 0 questions (0 easy, 0 medium, 0 hard); 0 decks, 0 cards; 2 chapters, 2 sections; 2 links; 0 errors, 9 warnings"
(cd "$s" && timeout 20 "$Q" check) >"$tmp/check" 2>&1
same "symbolic links: each left out with a warning naming it" "$want" "$tmp/check"
if (cd "$s" && timeout 20 "$Q" check --strict) >/dev/null 2>&1; then
	fail "symbolic links: --strict makes the warnings errors (exit 0)"
else
	ok "symbolic links: --strict makes the warnings errors"
fi
if (cd "$s" && timeout 30 "$Q" build -o "$tmp/links-out") >"$tmp/build" 2>&1; then
	if [ -f "$tmp/links-out/guide/alias/index.html" ] && [ -f "$tmp/links-out/guide/chapter/index.html" ]; then
		ok "symbolic links: a link to a file inside content/ is followed"
	else
		fail "symbolic links: the alias chapter was not built"
	fi
	if grep -rqs 'root:x:0' "$tmp/links-out"; then
		fail "symbolic links: something from outside content/ reached the output"
	else
		ok "symbolic links: nothing from outside content/ reaches the output"
	fi
	if grep -q 'themes/default/assets/loop: warning: a symbolic link to a folder is not followed' "$tmp/build" &&
		[ ! -e "$tmp/links-out/assets/loop" ]; then
		ok "symbolic links: a loop in the theme's assets is not followed"
	else
		fail "symbolic links: theme asset loop: $(grep loop "$tmp/build" | head -c 300)"
	fi
else
	fail "symbolic links: the build fails (exit $?): $(head -c 400 "$tmp/build")"
fi
printf '\n[the password file](passwd.txt) ![it](passwd.md)\n' >>"$s/content/guide/chapter.md"
(cd "$s" && timeout 20 "$Q" check) 2>&1 | grep error: >"$tmp/check"
same "symbolic links: a link to one left out is broken" \
"content/guide/alias.md:5:1: error: broken link \"passwd.txt\": no file content/guide/passwd.txt
content/guide/alias.md:5:33: error: broken image \"passwd.md\": no file content/guide/passwd.md
content/guide/chapter.md:5:1: error: broken link \"passwd.txt\": no file content/guide/passwd.txt
content/guide/chapter.md:5:33: error: broken image \"passwd.md\": no file content/guide/passwd.md" "$tmp/check"

# --- 2. names that collide ---------------------------------------------
s=$tmp/case
mkdir -p "$s/content/cards" "$s/content/guide/x" "$s/content/quiz"
: >"$s/site.toml"
printf '+++\ntitle = "Home"\n+++\n\n[the old home](index.html)\n' >"$s/content/index.md"
echo '<p>an old home page</p>' >"$s/content/index.html"
for d in Foo foo; do printf '# %s\n\n## Card\n\nBack.\n' "$d" >"$s/content/cards/$d.md"; done
for c in Intro intro; do printf '# %s\n' "$c" >"$s/content/guide/$c.md"; done
printf '# X\n\n![pic](x/index.html) ![a](Pic.png) ![b](pic.png)\n' >"$s/content/guide/x.md"
echo '<p>not a page</p>' >"$s/content/guide/x/index.html"
printf 'png' >"$s/content/guide/Pic.png"
printf 'png' >"$s/content/guide/pic.png"
for t in T t; do printf '# %s\n\n## Q\n\n- [ ] a\n- [x] b\n\nWhy.\n' "$t" >"$s/content/quiz/$t.md"; done
want="content/cards/foo.md: error: out/cards/foo/index.html and out/cards/Foo/index.html (for content/cards/Foo.md) are one file on a case-insensitive disk (macOS, Windows): rename one
content/cards/foo.md: error: out/print/foo.pdf and out/print/Foo.pdf (for content/cards/Foo.md) are one file on a case-insensitive disk (macOS, Windows): rename one
content/guide/intro.md: error: out/guide/intro/index.html and out/guide/Intro/index.html (for content/guide/Intro.md) are one file on a case-insensitive disk (macOS, Windows): rename one
content/guide/pic.png: error: out/guide/pic.png and out/guide/Pic.png (for content/guide/Pic.png) are one file on a case-insensitive disk (macOS, Windows): rename one
content/guide/x/index.html: error: would be written to out/guide/x/index.html, as content/guide/x.md is: rename or move one
content/index.html: error: would be written to out/index.html, as content/index.md is: rename or move one
content/quiz/t.md: error: out/print/t-handout.pdf and out/print/T-handout.pdf (for content/quiz/T.md) are one file on a case-insensitive disk (macOS, Windows): rename one
content/quiz/t.md: error: out/quiz/t/index.html and out/quiz/T/index.html (for content/quiz/T.md) are one file on a case-insensitive disk (macOS, Windows): rename one"
(cd "$s" && "$Q" check) 2>&1 | grep error: >"$tmp/check"
same "names that collide on a case-insensitive disk are errors" "$want" "$tmp/check"
if (cd "$s" && "$Q" build -o "$tmp/case-out") >/dev/null 2>&1 || [ -e "$tmp/case-out" ]; then
	fail "names that collide: the build must fail and write nothing"
else
	ok "names that collide: the build fails and writes nothing"
fi
# A file where a page needs a folder, and a question id that differs only in case (an anchor: fine).
s=$tmp/case2
mkdir -p "$s/content/quiz/t" "$s/content/guide"
: >"$s/site.toml"
printf '+++\ntitle = "T"\n+++\n' >"$s/content/quiz/t/_index.md"
printf '# Topic\n\n## Q {#Same}\n\n- [ ] a\n- [x] b\n\nWhy.\n\n## Q {#same}\n\n- [ ] a\n- [x] b\n\nWhy.\n' >"$s/content/quiz/t/topic.md"
printf '# G\n\n[notes](../quiz/T) [one](../quiz/t/topic.md#Same) [two](../quiz/t/topic.md#same)\n' >"$s/content/guide/g.md"
echo 'notes' >"$s/content/quiz/T"
(cd "$s" && "$Q" check) 2>&1 | grep error: >"$tmp/check"
same "a file where a page needs a folder is an error; ids differing in case are not" \
"content/quiz/T: error: out/quiz/T would be a file, but content/quiz/t/_index.md needs a folder out/quiz/t (one name on a case-insensitive disk: macOS, Windows): rename one" "$tmp/check"
# A folder many pages need, where a file is: the message names the source
# that sorts first, whichever page came first (b.md reads first here).
s=$tmp/case3
mkdir -p "$s/content/guide/part"
: >"$s/site.toml"
printf '+++\nweight = 2\n+++\n# A\n' >"$s/content/guide/part/a.md"
printf '+++\nweight = 1\n+++\n# B\n\n[notes](../Part)\n' >"$s/content/guide/part/b.md"
echo 'notes' >"$s/content/guide/Part"
(cd "$s" && "$Q" check) 2>&1 | grep error: >"$tmp/check"
same "a file where many pages need a folder names the first source" \
"content/guide/Part: error: out/guide/Part would be a file, but content/guide/part/a.md needs a folder out/guide/part (one name on a case-insensitive disk: macOS, Windows): rename one" "$tmp/check"
# A content file over one of the theme's files: found when the theme is copied.
s=$tmp/theme-clash
mkdir -p "$s/content/guide" "$s/content/Assets"
: >"$s/site.toml"
printf '# G\n\n[style](../Assets/Style.css)\n' >"$s/content/guide/g.md"
echo 'body{}' >"$s/content/Assets/Style.css"
(cd "$s" && "$Q" build -o "$tmp/clash-out") >"$tmp/build" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "^content/Assets/Style.css: error: would be written over the theme's out/Assets/Style.css: rename or move it$" "$tmp/build" &&
	[ ! -e "$tmp/clash-out" ]; then
	ok "a content file over a theme asset (any case) is an error"
else
	fail "a content file over a theme asset: exit $rc: $(head -c 300 "$tmp/build")"
fi

# --- 3. odd names ------------------------------------------------------
s=$tmp/odd
python3 - "$s" <<'EOF'
import os, sys
root = sys.argv[1]
def put(rel, text, binary=False):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
        f.write(text)
put("site.toml", 'base_url = "https://example.com/s"\n')
put("content/index.md", "# Home\n\n[café](guide/caf%C3%A9%20%26%20%3F.md) [dash](guide/-rf.md)\n")
put("content/quiz/my test #1/_index.md", '+++\ntitle = "A test"\n+++\n')
put("content/quiz/my test #1/100% sure?.md",
    "# Topic\n\n## Q {#q}\n\n- [ ] a\n- [x] b\n\nSee [c](../../guide/caf%C3%A9%20%26%20%3F.md#here) and [d](<../../guide/-rf.md>).\n")
put("content/guide/café & ?.md",
    "# Café & ?\n\n## Here\n\n![img](<my image %231.png>) [deck](../cards/a:b.md#x) [j](<日本語 ノート.md#x>)"
    " [q](<../quiz/my test %231/100%25 sure%3F.md#q>) [topic](<../quiz/my test %231/100%25 sure%3F.md>)"
    " [d2](<../cards/it's \"quoted\".md>)\n")
put("content/guide/-rf.md", "# Dash\n\n[back](caf%C3%A9%20%26%20%3F.md)\n")
put("content/guide/日本語 ノート.md", "# 日本語\n\n## 節 {#x}\n")
put("content/cards/a:b.md", "# Colon\n\n## Front {#x}\n\nBack\n")
put("content/cards/it's \"quoted\".md", "# Quoted\n\n## F\n\nB\n")
put("content/cards/-n.md", "# Dash deck\n\n## F\n\nB\n")
put("content/guide/my image #1.png", bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000200000500017a5eab3f0000000049454e44ae426082"), True)
EOF
if (cd "$s" && "$Q" build -o "$tmp/odd-out") >"$tmp/build" 2>&1; then
	ok "odd names: the site builds with its PDFs"
	for f in "quiz/my test #1/index.html" "guide/café & ?/index.html" "guide/-rf/index.html" \
		"guide/日本語 ノート/index.html" "cards/a:b/index.html" "cards/it's \"quoted\"/index.html" \
		"print/a:b.pdf" "print/it's \"quoted\".pdf" "print/-n.pdf" "guide/my image #1.png"; do
		[ -f "$tmp/odd-out/$f" ] && ok "odd names: wrote $f" || fail "odd names: no $f"
	done
	python3 tests/linkcheck.py "$tmp/odd-out" | sed 's/^\(not \)\{0,1\}ok linkcheck /&odd\//'
	python3 - "$tmp/odd-out" <<'EOF'
import os, re, sys
from html.parser import HTMLParser
bad = []
class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        for n, v in attrs:
            if n in ("href", "src") and v and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", v):
                path = v.split("#", 1)[0]
                if re.search(r"[^A-Za-z0-9/._~!$&'()*+,;=@%-]", path):
                    bad.append("%s: %s" % (self.page, v))
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        if f.endswith(".html"):
            p = P(); p.page = os.path.relpath(os.path.join(d, f), sys.argv[1])
            p.feed(open(os.path.join(d, f), encoding="utf-8").read())
print("ok files odd names: every relative href is percent-encoded" if not bad else
      "not ok files odd names: hrefs not percent-encoded: " + "; ".join(bad[:5]))
EOF
	if grep -q 'href="../../guide/-rf/index.html"' "$tmp/odd-out/quiz/my test #1/index.html" &&
		grep -q 'href="../../guide/caf%C3%A9%20&amp;%20%3F/index.html#here"' "$tmp/odd-out/quiz/my test #1/index.html" &&
		grep -q 'href="cards/a%3Ab/index.html"' "$tmp/odd-out/index.html"; then
		ok "odd names: a colon, a dash, an accent, '&', '?' are encoded as a URL needs"
	else
		fail "odd names: expected encodings missing: $(grep -o 'href="[^"]*"' "$tmp/odd-out/index.html" | head -n 8 | tr '\n' ' ')"
	fi
	if command -v node >/dev/null 2>&1 && [ -d tests/browser/node_modules/playwright-core ] &&
		[ -x "${QD_CHROMIUM:-/usr/bin/chromium}" ]; then
		node tests/browser/follow-links.js "$tmp/odd-out" "files odd names:"
	else
		fail "odd names: browser check needs node, playwright-core and chromium (make test-deps)"
	fi
else
	fail "odd names: the build fails: $(head -c 600 "$tmp/build")"
fi
if (cd "$s" && "$Q" print -o "$tmp/print-out" -- -n) >"$tmp/print" 2>&1 && [ -f "$tmp/print-out/print/-n.pdf" ] &&
	[ ! -e "$tmp/print-out/print/a:b.pdf" ]; then
	ok "odd names: quizdeck print -- -n prints the deck named with a leading dash"
else
	fail "odd names: print -- -n: $(head -c 300 "$tmp/print")"
fi
mkdir -p "$tmp/latin1/content/guide"
: >"$tmp/latin1/site.toml"
printf '# X\n' >"$tmp/latin1/content/guide/caf$(printf '\351').md"
printf '# Y\n' >"$tmp/latin1/content/guide/y.md"
(cd "$tmp/latin1" && "$Q" check) >"$tmp/check" 2>&1
same "a file name that is not UTF-8 is an error" \
'content/guide: error: "caf\xe9.md" is not a UTF-8 name: rename it
0 tests, 0 topics, 0 questions (0 easy, 0 medium, 0 hard); 0 decks, 0 cards; 1 chapter, 1 section; 0 links; 1 error, 0 warnings' "$tmp/check"
exit 0

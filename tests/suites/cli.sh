#!/bin/sh
# The command line: help, version, exit codes, `new`, and diagnostics
# for a broken site.toml.
set -u
Q=${QUIZDECK:-./quizdeck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect NAME STATUS COMMAND...: the command exits with STATUS.
expect() {
	name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		echo "ok cli $name"
	else
		echo "not ok cli $name: exit $got, want $want: $(head -c 300 "$tmp/err")"
	fi
}

# grep_in NAME FILE PATTERN: FILE has a line matching PATTERN (fixed string).
grep_in() {
	if grep -qF -- "$3" "$2"; then
		echo "ok cli $1"
	else
		echo "not ok cli $1: no \"$3\" in: $(head -c 300 "$2")"
	fi
}

expect "--version" 0 $Q --version
grep_in "--version prints the version" "$tmp/out" "quizdeck "
expect "--help" 0 $Q --help
grep_in "--help lists the commands" "$tmp/out" "build     write the HTML site"
for c in build check print serve new; do
	expect "$c --help" 0 $Q "$c" --help
	grep_in "$c --help shows its usage" "$tmp/out" "usage: quizdeck $c"
done
# print's help names config.c's sizes, the last of each table among them.
expect "print --help" 0 $Q print --help
grep_in "print --help names every paper" "$tmp/out" "legal, tabloid, or WxHmm / WxHin"
grep_in "print --help names every card" "$tmp/out" "poker, tarot, or WxHmm"
grep_in "print --help names every duplex mode" "$tmp/out" "long-edge, short-edge, fold or single"
expect "an unknown card size is a usage error" 2 $Q print --card tarots
grep_in "and says which" "$tmp/err" 'unknown card size "tarots"'
expect "no command is a usage error" 2 $Q
expect "an unknown command is a usage error" 2 $Q frobnicate
grep_in "and says which" "$tmp/err" 'unknown command "frobnicate"'
expect "an unknown option is a usage error" 2 $Q check --frob
grep_in "and names it" "$tmp/err" "unknown option --frob"
expect "an option of another command is refused" 2 $Q check --paper a4
grep_in "and names the option, not its value" "$tmp/err" "option --paper does not apply here"
expect "a short option of another command is refused" 2 $Q check -j 1
grep_in "and names it" "$tmp/err" "option -j does not apply here"
expect "a missing option value is refused" 2 $Q build -o
expect "a bad port is refused" 2 $Q serve --port 99999

# A new site builds as it stands.
expect "new makes a site" 0 $Q new "$tmp/site"
expect "the new site checks clean under --strict" 0 $Q -C "$tmp/site" check --strict
grep_in "its summary counts the examples" "$tmp/out" "1 test, 1 topic, 3 questions (2 easy, 1 medium, 0 hard; typed: 1 text); 1 deck, 6 cards (2 cloze, 1 reversed); 1 chapter"
expect "new refuses a folder that is not empty" 1 $Q new "$tmp/site"
grep_in "and says why" "$tmp/err" "already exists and is not empty"

# A broken site.toml: file, line, column and what is wrong; exit 1.
mkdir -p "$tmp/bad/content"
printf 'title = "x"\n[quiz]\nreveal = "sometimes"\n' >"$tmp/bad/site.toml"
expect "a bad site.toml fails check" 1 $Q check -C "$tmp/bad"
grep_in "with file:line:col and the reason" "$tmp/err" \
	"site.toml:3:10: error: \"reveal\" must be \"each\" or \"end\", not \"sometimes\""
printf 'title = "x"\ntitle = "y"\n' >"$tmp/bad/site.toml"
expect "a TOML syntax error fails check" 1 $Q check -C "$tmp/bad"
grep_in "at the second definition" "$tmp/err" "site.toml:2:1: error: duplicate key"
rm "$tmp/bad/site.toml"
expect "a missing site.toml fails check" 1 $Q check -C "$tmp/bad"
grep_in "and says it cannot be read" "$tmp/err" "site.toml: error: cannot read the site settings"

# Front matter problems name the content file and line.
printf '' >"$tmp/bad/site.toml"
mkdir -p "$tmp/bad/content/guide"
printf '+++\ntitle = "A"\ncolour = "red"\n+++\n\n## One {#one}\n\nText.\n' >"$tmp/bad/content/guide/a.md"
expect "an unknown front-matter key fails check" 1 $Q check -C "$tmp/bad"
grep_in "at the key" "$tmp/err" "content/guide/a.md:3:1: error:"

# check runs what the output passes check, writing nothing: a card that
# does not fit, the paper settings, the theme. check --strict fails
# exactly where build --strict does.
ov=tests/fixtures/pdf/overflow
expect "check: a card that does not fit is a warning" 0 $Q -C "$ov" check
grep_in "check names the card that does not fit" "$tmp/err" \
	'content/cards/long.md:9:1: warning: card "huge" does not fit on a 85x55 mm card even at 7 pt'
expect "check --strict fails on it" 1 $Q -C "$ov" check --strict
expect "as build --strict does" 1 $Q -C "$ov" build --strict -o "$tmp/ov-out"
[ ! -e "$tmp/ov-out" ] && echo "ok cli a build failed by --strict leaves nothing behind" ||
	echo "not ok cli a build failed by --strict leaves nothing behind: $(find "$tmp/ov-out" | head -5)"
expect "and print --strict" 1 $Q -C "$ov" print --strict -o "$tmp/ov-print"
[ ! -e "$tmp/ov-print" ] && echo "ok cli a print failed by --strict leaves nothing behind" ||
	echo "not ok cli a print failed by --strict leaves nothing behind: $(find "$tmp/ov-print" | head -5)"
[ ! -e "$ov/out" ] && echo "ok cli check writes nothing" ||
	echo "not ok cli check writes nothing: $ov/out appeared"
mkdir -p "$tmp/theme/content/guide"
printf 'theme = "nosuch"\n' >"$tmp/theme/site.toml"
printf '# A\n\nText.\n' >"$tmp/theme/content/guide/a.md"
expect "check: an unknown theme is an error" 1 $Q -C "$tmp/theme" check
grep_in "check says which theme" "$tmp/err" 'site.toml: error: theme "nosuch" not found'
printf 'theme = "mine"\n' >"$tmp/theme/site.toml"
mkdir -p "$tmp/theme/themes/mine/templates"
printf '<html><body><div data-qd-if="x">\n' >"$tmp/theme/themes/mine/templates/page.html"
expect "check: a broken template is an error" 1 $Q -C "$tmp/theme" check
expect "as it is for build" 1 $Q -C "$tmp/theme" build -o "$tmp/theme-out"
printf 'theme = "default"\n[print]\npaper = "a5"\ncard = "200x300mm"\n' >"$tmp/theme/site.toml"
mkdir -p "$tmp/theme/content/cards"
printf '+++\ntitle = "D"\n+++\n\n## Front {#f}\n\nBack.\n' >"$tmp/theme/content/cards/d.md"
expect "check: a card larger than the paper is an error" 1 $Q -C "$tmp/theme" check
grep_in "check says the card does not fit the paper" "$tmp/err" "does not fit on"

# same NAME FILE TEXT: FILE holds exactly TEXT (printf's %s, a newline added).
same() {
	printf '%s\n' "$3" >"$tmp/want"
	if cmp -s "$tmp/want" "$2"; then
		echo "ok cli $1"
	else
		echo "not ok cli $1: got \"$(head -c 400 "$2")\", want \"$3\""
	fi
}

# Messages that say what to do: "did you mean", and what there is.
expect "a misspelt command is a usage error" 2 $Q bulid
head -n 1 "$tmp/err" >"$tmp/first"
same "and suggests the command meant" "$tmp/first" 'quizdeck: unknown command "bulid"; did you mean "build"?'
expect "a misspelt paper is a usage error" 2 $Q print --paper A44
head -n 1 "$tmp/err" >"$tmp/first"
same "and suggests the paper meant" "$tmp/first" 'quizdeck: unknown paper size "A44"; did you mean "a4"?'
expect "a misspelt duplex mode is a usage error" 2 $Q print --duplex longedge
head -n 1 "$tmp/err" >"$tmp/first"
same "and suggests the mode meant" "$tmp/first" 'quizdeck: unknown duplex mode "longedge"; did you mean "long-edge"?'
expect "-C a folder that is not there is a usage error" 2 $Q -C "$tmp/nope" check
same "in one message" "$tmp/err" "quizdeck: no folder \"$tmp/nope\": -C names the site's folder"
mkdir -p "$tmp/empty"
expect "-C a folder that is not a site is a usage error" 2 $Q -C "$tmp/empty" build
same "in one message" "$tmp/err" "quizdeck: \"$tmp/empty\" is not a site: it has no site.toml and no content/ (-C names the site's folder; \`quizdeck new DIR\` makes a new one)"
[ ! -e "$tmp/empty/out" ] && echo "ok cli and writes nothing there" ||
	echo "not ok cli and writes nothing there: $tmp/empty/out appeared"

# Names in any case: the paper, the card and the duplex mode.
expect "print takes names in any case" 0 $Q -C "$tmp/site" print --paper Letter --card A7 --duplex Short-Edge -o "$tmp/case-out"
[ -f "$tmp/case-out/print/basics.pdf" ] && echo "ok cli and prints the deck" ||
	echo "not ok cli and prints the deck: $(ls "$tmp/case-out/print" 2>&1)"
sed -i 's/^paper = "a4"$/paper = "A5"/; s/^card = "a7"$/card = "A7"/' "$tmp/site/site.toml"
grep_in "(the site says A5)" "$tmp/site/site.toml" 'paper = "A5"'
expect "site.toml takes names in any case" 0 $Q -C "$tmp/site" check --strict

# print names the decks there are.
expect "print of a deck that is not there is a usage error" 2 $Q -C "$tmp/site" print -o "$tmp/p" nosuchdeck
same "and names the decks there are" "$tmp/err" 'quizdeck: no deck named "nosuchdeck" in content/cards; the deck is: basics'
expect "print of a misspelt deck is a usage error" 2 $Q -C "$tmp/site" print -o "$tmp/p" basic
same "and suggests the deck meant" "$tmp/err" 'quizdeck: no deck named "basic" in content/cards; did you mean "basics"? The deck is: basics'

# build and print end with one summary line on stdout; -q silences it.
expect "build" 0 $Q -C "$tmp/site" build -o "$tmp/sum-out"
sed 's/ in [0-9]*\.[0-9] s$/ in T s/' "$tmp/out" >"$tmp/sum"
same "says what it wrote, where and in how long (the deck, the guide as a book and the test's handout)" "$tmp/sum" "built 7 pages and 3 PDFs into $tmp/sum-out in T s"
[ "$(find "$tmp/sum-out" -name '*.html' | wc -l)" -eq 7 ] && echo "ok cli the pages it counts are there" ||
	echo "not ok cli the pages it counts are there: $(find "$tmp/sum-out" -name '*.html' | wc -l)"
[ ! -s "$tmp/err" ] && echo "ok cli and nothing on stderr" || echo "not ok cli and nothing on stderr: $(head -c 300 "$tmp/err")"
expect "build --no-pdf" 0 $Q -C "$tmp/site" build --no-pdf -o "$tmp/sum-out"
sed 's/ in [0-9]*\.[0-9] s$/ in T s/' "$tmp/out" >"$tmp/sum"
same "counts no PDF" "$tmp/sum" "built 7 pages and 0 PDFs into $tmp/sum-out in T s"
expect "print" 0 $Q -C "$tmp/site" print -o "$tmp/sum-out"
sed 's/ in [0-9]*\.[0-9] s$/ in T s/' "$tmp/out" >"$tmp/sum"
same "print says what it printed" "$tmp/sum" "printed 3 PDFs into $tmp/sum-out/print in T s"
expect "build -q" 0 $Q -C "$tmp/site" build -q -o "$tmp/sum-out"
[ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && echo "ok cli build -q prints nothing" ||
	echo "not ok cli build -q prints nothing: $(cat "$tmp/out" "$tmp/err" | head -c 300)"
expect "print -q" 0 $Q -C "$tmp/site" print -q -o "$tmp/sum-out"
[ ! -s "$tmp/out" ] && echo "ok cli print -q prints nothing" || echo "not ok cli print -q prints nothing: $(head -c 300 "$tmp/out")"
expect "-q is not check's" 2 $Q -C "$tmp/site" check -q
expect "a failed build prints no summary" 1 $Q -C "$ov" build --strict -o "$tmp/ov-out"
[ ! -s "$tmp/out" ] && echo "ok cli and no summary" || echo "not ok cli and no summary: $(head -c 300 "$tmp/out")"

# An output folder written with a trailing slash (or "/.") is the same
# folder: its staging goes beside it, never inside it.
expect "build -o OUT/ builds" 0 $Q -C "$tmp/site" build -q -o "$tmp/slash-out/"
[ -f "$tmp/slash-out/index.html" ] && echo "ok cli into OUT" || echo "not ok cli into OUT: no index.html"
expect "and again over the last one" 0 $Q -C "$tmp/site" build -q -o "$tmp/slash-out//"
[ -z "$(ls -A "$tmp/slash-out" | grep -F staging)" ] && [ -z "$(ls "$tmp" | grep -F slash-out.)" ] &&
	echo "ok cli leaving no staging folder" || echo "not ok cli leaving no staging folder: $(ls -A "$tmp" "$tmp/slash-out")"
expect "print -o OUT/. prints" 0 $Q -C "$tmp/site" print -o "$tmp/slash-print/."
grep_in "naming the folder once" "$tmp/out" "into $tmp/slash-print/print in "
expect "export -o OUT/ exports" 0 $Q -C "$tmp/site" export -q -o "$tmp/slash-export/" csv
ls "$tmp/slash-export/export/"*.csv >/dev/null 2>&1 && echo "ok cli into OUT/export" || echo "not ok cli into OUT/export: $(ls -R "$tmp/slash-export" 2>&1 | head -c 300)"

# new: a .gitignore for what build writes.
same "new writes a .gitignore for out/" "$tmp/site/.gitignore" "/out/
/out.staging-*/
/out.old-*/"

# serve's help gives its defaults; --bind takes an address.
expect "serve --help" 0 $Q serve --help
grep_in "serve --help gives the default port" "$tmp/out" "--port N     the port (default: 8000)"
grep_in "and the default address" "$tmp/out" "--bind ADDR  the address to listen on (default: 127.0.0.1, this machine"
expect "serve --bind takes only an IP address" 2 $Q serve --bind localhost
head -n 1 "$tmp/err" >"$tmp/first"
same "and says so" "$tmp/first" 'quizdeck: bad address "localhost": give an IP address, such as 127.0.0.1, 0.0.0.0 or ::'
expect "--bind is serve's" 2 $Q build --bind 0.0.0.0

# A link to a draft is allowed: shown as its text, with one warning at the
# draft's draft = true (an error under --strict: tests/bad/link-to-draft).
expect "a link to a draft builds" 0 $Q -C tests/bad/link-to-draft build -o "$tmp/draft-out"
same "with one warning at the draft, naming the first link" "$tmp/err" \
	"content/guide/soon.md:2:9: warning: this draft is linked from content/guide/g.md:3:1 and 2 other places: the links show as plain text until the draft is published (draft = false)"
grep_in "the links show as their text" "$tmp/draft-out/guide/h/index.html" "<p>See the soon chapter and again.</p>"
! grep -q 'href="[^"]*soon' "$tmp/draft-out/guide/g/index.html" "$tmp/draft-out/guide/h/index.html" &&
	echo "ok cli and lead nowhere" || echo "not ok cli and lead nowhere: an href to soon is there"
[ ! -e "$tmp/draft-out/guide/soon" ] && echo "ok cli the draft is not built" || echo "not ok cli the draft is not built"

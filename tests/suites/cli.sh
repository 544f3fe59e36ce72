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
grep_in "its summary counts the examples" "$tmp/out" "1 test, 1 topic, 2 questions (1 easy, 1 medium, 0 hard); 1 deck, 2 cards; 1 chapter"
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

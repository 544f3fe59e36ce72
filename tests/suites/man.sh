#!/bin/sh
# The manual pages: mandoc finds nothing to warn about, `make install`
# puts them in place, and they cannot drift from the code: every command
# and option `quizdeck --help` names is in quizdeck(1); every site.toml
# and front-matter key gen/config.c and gen/content.c read, with
# config.c's defaults and size names, is in quizdeck(5); and the examples
# of quizdeck(5) build under --strict.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok man $1"; }
fail() { echo "not ok man $1"; }

if ! command -v mandoc >/dev/null 2>&1; then
	fail "mandoc is not installed (make test-deps installs it)"
	exit 1
fi

# A page as plain text, as man shows it, with the overstrike taken out.
render() {
	mandoc -T ascii "$1" | sed 's/.\x08//g'
}

# Lint at the strictest level. The pages name each other, which mandoc
# looks up among the installed manuals: that one message says only that
# they are not installed here.
for page in man/quizdeck.1 man/quizdeck.5; do
	mandoc -T lint -W style "$page" >"$tmp/lint" 2>&1
	grep -v 'STYLE: referenced manual not found: Xr quizdeck [15]' "$tmp/lint" >"$tmp/lint.rest"
	if [ -s "$tmp/lint.rest" ]; then
		fail "mandoc -T lint $page: $(head -c 600 "$tmp/lint.rest")"
	else
		ok "mandoc -T lint $page finds nothing"
	fi
done

render man/quizdeck.1 >"$tmp/page1"
render man/quizdeck.5 >"$tmp/page5"

# Commands: the lines under "commands:" in `quizdeck --help`.
$Q --help >"$tmp/help"
awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' \
	"$tmp/help" >"$tmp/commands"
if [ "$(wc -l <"$tmp/commands")" -lt 5 ]; then
	fail "found the commands in quizdeck --help: only $(tr '\n' ' ' <"$tmp/commands")"
fi
for c in $(cat "$tmp/commands"); do
	if grep -q "^\.It Cm $c\b" man/quizdeck.1 && grep -q "^ *quizdeck .*\b$c\b" "$tmp/page1"; then
		ok "quizdeck(1) describes the command $c"
	else
		fail "quizdeck(1) has no .It Cm $c entry and synopsis line for a command of quizdeck --help"
	fi
	# Its options: each help line that starts with an option, and the usage line.
	$Q "$c" --help >"$tmp/help.$c"
	{
		grep -o '^  -[^ ]*' "$tmp/help.$c" | sed 's/^  //; s/,$//'
		grep '^usage:' "$tmp/help.$c" | grep -o '\[-[^] ]*' | sed 's/^\[//'
	} | sort -u >"$tmp/options.$c"
	for o in $(cat "$tmp/options.$c"); do
		if grep -q -- "$o\b" "$tmp/page1"; then
			ok "quizdeck(1) has $c's option $o"
		else
			fail "quizdeck(1) does not mention $o, an option of quizdeck $c --help"
		fi
	done
done
for o in -C --version --help; do
	if grep -q -- "$o\b" "$tmp/page1"; then
		ok "quizdeck(1) has the global option $o"
	else
		fail "quizdeck(1) does not mention the global option $o"
	fi
done

# Keys: every string config.c and content.c compare a key with.
keys() {
	grep -o 'strcmp(\(kv->key\|k\), "[a-z_]*")' "$1" | sed 's/.*"\(.*\)".*/\1/' | sort -u
}
grep -o 'S_unknown(r, kv, "[a-z.]*"' gen/config.c | sed 's/.*"\(.*\)"/\1/' | sort -u >"$tmp/tables"
# A table's name is compared as a key too: tables have sections of their own.
keys gen/config.c | grep -vxF -f "$tmp/tables" >"$tmp/config-keys"
keys gen/content.c >"$tmp/fm-keys"
if [ "$(wc -l <"$tmp/config-keys")" -lt 20 ] || [ "$(wc -l <"$tmp/fm-keys")" -lt 6 ]; then
	fail "found the keys in gen/config.c and gen/content.c (the way they are compared changed: update this test)"
fi
for k in $(cat "$tmp/config-keys" "$tmp/fm-keys" | sort -u); do
	if grep -q "^\.It Ic $k\b" man/quizdeck.5; then
		ok "quizdeck(5) has an entry for the key $k"
	else
		fail "quizdeck(5) has no .It Ic $k entry, a key gen/config.c or gen/content.c reads"
	fi
done
for t in $(grep -v '^$' "$tmp/tables" | grep -v '\.'); do
	if grep -q "^\.Ss The \[$t\] table" man/quizdeck.5; then
		ok "quizdeck(5) has a section for the table [$t]"
	else
		fail "quizdeck(5) has no section \"The [$t] table\", a table gen/config.c reads"
	fi
done

# Defaults: each literal config_defaults sets is the one quizdeck(5) gives.
# A key's entry is its line in SITE.TOML, "key (type)" or "key    30" in
# a compact list, up to the next blank line.
entry() {
	awk -v k="$1" '
	/^SITE\.TOML/ { in_toml = 1 }
	in_toml && ($0 ~ "^ +" k " \\(" || $0 ~ "^ +" k " +[0-9.]+$") { on = 1 }
	on && /^$/ { exit }
	on { print }' "$tmp/page5"
}
sed -n '/^config_defaults/,/^}/p' gen/config.c |
	sed -n 's/^[[:space:]]*c->\([a-z_.]*\) = \(xstrdup("[^"]*")\|[0-9.]*\);$/\1 \2/p' |
	while read -r field value; do
		key=${field##*.}
		key=${key%_name}
		key=${key#seconds_}
		case $value in
		'xstrdup("")') want='Default: empty' ;;
		xstrdup*) want=$(echo "$value" | sed 's/xstrdup(\(".*"\))/\1/') ;;
		0) continue ;;      # false, or an enum's first value: said in words
		*) want=$value ;;
		esac
		entry "$key" | tr '\n' ' ' | tr -s ' ' >"$tmp/entry"
		if grep -qF -- "$want" "$tmp/entry"; then
			ok "quizdeck(5) gives $key's default, $want"
		else
			fail "quizdeck(5)'s entry for $key does not give the default $want from config_defaults: $(head -c 300 "$tmp/entry")"
		fi
	done

# The names paper, card, duplex, cut_marks and layout take.
sed -n '/^static const struct named_size papers/,/^};/p' gen/config.c |
	sed -n 's/.*{ "\([^"]*\)".*/paper \1/p' >"$tmp/names"
sed -n '/^static const struct named_size cards/,/^};/p' gen/config.c |
	sed -n 's/.*{ "\([^"]*\)".*/card \1/p' >>"$tmp/names"
grep '^static const char \*const duplex_names' gen/config.c | grep -o '"[^"]*"' | tr -d '"' |
	sed 's/^/duplex /' >>"$tmp/names"
grep '^static const char \*const cut_names' gen/config.c | grep -o '"[^"]*"' | tr -d '"' |
	sed 's/^/cut_marks /' >>"$tmp/names"
grep '^static const char \*const layout_names' gen/config.c | grep -o '"[^"]*"' | tr -d '"' |
	sed 's/^/layout /' >>"$tmp/names"
if [ "$(wc -l <"$tmp/names")" -lt 20 ]; then
	fail "found the size and mode names in gen/config.c (their tables changed: update this test)"
fi
while read -r key name; do
	entry "$key" | tr '\n' ' ' | tr -s ' ' >"$tmp/entry"
	if grep -qF "\"$name\"" "$tmp/entry"; then
		ok "quizdeck(5) names $name under $key"
	else
		fail "quizdeck(5)'s entry for $key does not name \"$name\", which gen/config.c takes"
	fi
done <"$tmp/names"

# The examples of quizdeck(5) make a site that builds under --strict.
example() {
	awk -v from="$1" -v to="$2" 'index($0, from) { on = 1; next } index($0, to) { on = 0 } on' \
		"$tmp/page5" | sed 's/^           //' | sed '/./,$!d'
}
site=$tmp/example
mkdir -p "$site/content/quiz/networks" "$site/content/cards" "$site/content/guide"
example "A site.toml for" "A topic file," >"$site/site.toml"
example "A topic file," "A deck," >"$site/content/quiz/networks/tcp.md"
example "A deck," "SEE ALSO" >"$site/content/cards/ports.md"
printf '+++\ntitle = "Networks"\n+++\n' >"$site/content/quiz/networks/_index.md"
printf '# TCP\n\n## Handshake\n\nSYN, SYN-ACK, ACK.\n' >"$site/content/guide/tcp.md"
if $Q check --strict -C "$site" >"$tmp/out" 2>&1 &&
	grep -qF "1 test, 1 topic, 1 question (1 easy, 0 medium, 0 hard); 1 deck, 5 cards (2 cloze, 1 reversed)" "$tmp/out"; then
	ok "the examples of quizdeck(5) check clean under --strict"
else
	fail "the examples of quizdeck(5) do not check clean: $(head -c 600 "$tmp/out")"
fi

# make install puts both pages in place; make uninstall takes them away.
inst=$tmp/inst
if make -s install DESTDIR="$inst" PREFIX=/usr >"$tmp/make" 2>&1 &&
	cmp -s man/quizdeck.1 "$inst/usr/share/man/man1/quizdeck.1" &&
	cmp -s man/quizdeck.5 "$inst/usr/share/man/man5/quizdeck.5"; then
	ok "make install puts quizdeck.1 and quizdeck.5 under PREFIX/share/man"
else
	fail "make install did not install the pages: $(head -c 300 "$tmp/make")"
fi
make -s uninstall DESTDIR="$inst" PREFIX=/usr >/dev/null 2>&1
if [ -e "$inst/usr/share/man/man1/quizdeck.1" ] || [ -e "$inst/usr/share/man/man5/quizdeck.5" ]; then
	fail "make uninstall left a page behind"
else
	ok "make uninstall removes the pages"
fi

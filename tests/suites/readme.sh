#!/bin/sh
# The README shows real output. Every `$ command` in its ```console
# blocks is run, in order, in one shell in an empty folder with this
# quizdeck first on PATH; what the command prints (standard output and
# error together) must be exactly the lines the README shows under it.
# (`quizdeck serve`, which runs until stopped, is shown in prose, not in
# a console block; tests/suites/serve.sh tests it.) Its site.toml block,
# which says it means what an empty site.toml means, must build the
# README's site to the same bytes as an empty one.
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
Q=${QUIZDECK:-./quizdeck}
case $Q in /*) ;; *) Q=$root/$Q ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok readme $1"; }
fail() { echo "not ok readme $1"; }

mkdir "$tmp/bin" "$tmp/work" "$tmp/want"
ln -s "$Q" "$tmp/bin/quizdeck"

# The script of the console blocks: command N's output goes to got/N, the
# README's lines for it to want/N, its text to cmd/N.
mkdir "$tmp/got" "$tmp/cmd"
awk -v dir="$tmp" '
/^```console$/ { on = 1; next }
on && /^```$/ { on = 0; next }
!on { next }
/^\$ / {
	n++
	cmd = substr($0, 3)
	printf "" >(dir "/want/" n)
	print cmd >(dir "/cmd/" n)
	close(dir "/cmd/" n)
	printf "{ %s\n} >\"%s/got/%d\" 2>&1\n", cmd, dir, n >(dir "/script")
	next
}
{ print >>(dir "/want/" n) }
' README.md
count=$(ls "$tmp/cmd" | wc -l)
if [ "$count" -lt 8 ]; then
	fail "found the README's console examples: only $count commands"
fi
(cd "$tmp/work" && PATH="$tmp/bin:$PATH" sh "$tmp/script")

# How long a command took is the one thing that differs from run to run:
# on both sides, "0.1 s" or "120 ms" reads as the same duration.
duration() {
	sed -E 's/\b[0-9]+(\.[0-9]+)? (s|ms)\b/DURATION/g' "$1"
}
i=1
while [ "$i" -le "$count" ]; do
	cmd=$(cat "$tmp/cmd/$i")
	duration "$tmp/want/$i" >"$tmp/want.d"
	duration "$tmp/got/$i" >"$tmp/got.d"
	if cmp -s "$tmp/want.d" "$tmp/got.d"; then
		ok "\$ $cmd prints what the README shows"
	else
		fail "\$ $cmd prints other than the README shows: $(diff "$tmp/want/$i" "$tmp/got/$i" | head -c 800)"
	fi
	i=$((i + 1))
done

# The site.toml block: all the defaults, so it builds what an empty file does.
awk '/^### site\.toml/ { sec = 1 } sec && /^```toml$/ { on = 1; next } on && /^```$/ { exit } on' \
	README.md >"$tmp/site.toml"
if [ "$(grep -c ' = ' "$tmp/site.toml")" -lt 20 ]; then
	fail "found the README's site.toml block: $(wc -l <"$tmp/site.toml") lines"
fi
"$Q" new "$tmp/site" >/dev/null
cp "$tmp/site.toml" "$tmp/site/site.toml"
if "$Q" check --strict -C "$tmp/site" >"$tmp/out" 2>&1; then
	ok "the README's site.toml checks clean under --strict"
else
	fail "the README's site.toml does not check clean: $(head -c 600 "$tmp/out")"
fi
"$Q" build -C "$tmp/site" -o "$tmp/out-readme" >"$tmp/out" 2>&1
: >"$tmp/site/site.toml"
"$Q" build -C "$tmp/site" -o "$tmp/out-empty" >>"$tmp/out" 2>&1
if [ -f "$tmp/out-empty/index.html" ] && diff -r "$tmp/out-readme" "$tmp/out-empty" >"$tmp/diff" 2>&1; then
	ok "the README's site.toml builds the same bytes as an empty one (its values are the defaults)"
else
	fail "the README's site.toml is not the defaults: $(head -c 600 "$tmp/diff") $(head -c 300 "$tmp/out")"
fi

# What that site cannot show (a test length beyond its two questions, raw
# HTML it has none of, a font size no card reaches, limits far above it):
# each number config_defaults sets is the README's.
sed -n '/^config_defaults/,/^}/p' gen/config.c |
	sed -n 's/^[[:space:]]*c->[a-z_]*\.\([a-z_]*\) = \([0-9.]*\|CONFIG_[A-Z_]*\);$/\1 \2/p' >"$tmp/defaults"
if [ "$(wc -l <"$tmp/defaults")" -lt 8 ]; then
	fail "found the numeric defaults in gen/config.c: $(tr '\n' ' ' <"$tmp/defaults")"
fi
while read -r key value; do
	case $value in
	CONFIG_*) value=$(sed -n "s/^#define $value (*\([0-9L *]*\))*\$/\1/p" gen/config.h | tr -d 'L ') ;;
	esac
	case $value in
	*'*'*) value=$(($value)) ;;
	esac
	# A struct field may name a key differently: seconds_easy is easy in seconds = { ... }.
	case $key in
	seconds_*) got=$(sed -n "s/^seconds = {.*${key#seconds_} = \([0-9.]*\).*/\1/p" "$tmp/site.toml") ;;
	*) got=$(sed -n "s/^$key = \([^ ]*\).*/\1/p" "$tmp/site.toml") ;;
	esac
	shown=$got
	[ "$got" = false ] && got=0
	if [ -n "$got" ] && [ -n "$value" ] && awk -v a="$got" -v b="$value" 'BEGIN { exit !(a + 0 == b + 0) }'; then
		ok "the README's $key = $shown is config.c's default"
	else
		fail "the README's site.toml has $key = \"$shown\"; config.c's default is \"$value\""
	fi
done <"$tmp/defaults"

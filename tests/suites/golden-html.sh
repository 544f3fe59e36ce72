#!/bin/sh
# Golden pages: the fixture sites in tests/golden/NAME/ are built and every
# output file (the theme's assets aside; the search index, built from the
# content, included) is compared with tests/golden/NAME.expected/.
#
#   UPDATE=1 sh tests/suites/golden-html.sh    rewrites the expected files
#
# Independently of the expected files, the output must never hold a
# script URL, and with unsafe_html off no raw HTML at all.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# unstable OUT: removes what is not compared here.
unstable() {
	# The theme's files are copied as they are; the search index is built from the content.
	find "$1/assets" -type f ! -name search-index.js -exec rm -f {} +
	# An Anki package's bytes are SQLite's and zlib's; tests/suites/export.sh reads them back.
	find "$1" -path "$1/export/*.apkg" -exec rm -f {} +
	# The worker's list hashes the theme's files too, and the icons are pixels:
	# tests/suites/offline.sh checks both against the files themselves.
	rm -f "$1/sw.js" "$1/icon-192.png" "$1/icon-512.png"
}

sites="site unsafe"

for name in $sites; do
	src=tests/golden/$name
	exp=tests/golden/$name.expected
	out=$tmp/$name
	if ! "$Q" build -C "$src" -o "$out" --no-pdf >"$tmp/$name.log" 2>&1; then
		echo "not ok golden $name: the build failed: $(head -c 400 "$tmp/$name.log")"
		continue
	fi
	unstable "$out"
	if [ "${UPDATE:-}" = 1 ]; then
		rm -rf "$exp"
		cp -R "$out" "$exp"
		echo "ok golden $name: expected files updated"
		continue
	fi
	if [ ! -d "$exp" ]; then
		echo "not ok golden $name: no $exp (run UPDATE=1 sh $0)"
		continue
	fi
	(cd "$exp" && find . -type f | sort) >"$tmp/$name.want"
	(cd "$out" && find . -type f | sort) >"$tmp/$name.got"
	if cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
		echo "ok golden $name: the same files"
	else
		echo "not ok golden $name: files differ: $(diff "$tmp/$name.want" "$tmp/$name.got" | grep '^[<>]' | tr '\n' ' ' | head -c 300)"
	fi
	while read -r f; do
		f=${f#./}
		[ -f "$out/$f" ] || continue
		if cmp -s "$exp/$f" "$out/$f"; then
			echo "ok golden $name/$f"
		else
			echo "not ok golden $name/$f: differs from $exp/$f:"
			diff -u "$exp/$f" "$out/$f" | head -n 30 | sed 's/^/#   /'
		fi
	done <"$tmp/$name.want"
done

# The same builds under ASan+UBSan (make build/asan/quizdeck): same output, no report.
asan=${QUIZDECK_ASAN:-build/asan/quizdeck}
if [ -x "$asan" ] && [ "${UPDATE:-}" != 1 ]; then
	for name in $sites; do
		out=$tmp/asan-$name
		ASAN_OPTIONS=detect_leaks=1 "$asan" build -C "tests/golden/$name" -o "$out" --no-pdf \
			>"$tmp/asan-$name.log" 2>&1
		rc=$?
		unstable "$out"
		if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$tmp/asan-$name.log"; then
			echo "not ok golden asan $name: $(grep -m1 -E 'AddressSanitizer|LeakSanitizer|runtime error' "$tmp/asan-$name.log")"
		elif [ "$rc" -ne 0 ]; then
			echo "not ok golden asan $name: exit $rc: $(head -c 300 "$tmp/asan-$name.log")"
		elif [ -d "$tmp/$name" ] && ! diff -r "$tmp/$name" "$out" >/dev/null 2>&1; then
			echo "not ok golden asan $name: the output differs from the plain build"
		else
			echo "ok golden asan $name"
		fi
	done
fi

# never_in LABEL DIR PATTERN WHAT: no output file matches the extended regex.
never_in() {
	if [ ! -d "$2" ]; then
		echo "not ok golden $1: no output"
	elif hits=$(grep -rlEi -- "$3" "$2"); then
		echo "not ok golden $1: $4 in $(echo "$hits" | tr '\n' ' ')"
	else
		echo "ok golden $1"
	fi
}
never_in "site: no script URL" "$tmp/site" '(href|src|action)="[[:space:]]*(javascript|vbscript|data):' "a script URL"
never_in "site: raw HTML dropped" "$tmp/site" '<script>alert|onclick|onmouseover|class="raw"|<span onmouse' "raw HTML"
never_in "unsafe: no script URL" "$tmp/unsafe" 'href="(javascript|vbscript):' "a script URL"
if grep -q '<kbd>Ctrl</kbd>' "$tmp/unsafe/index.html" 2>/dev/null; then
	echo "ok golden unsafe: raw HTML grafted"
else
	echo "not ok golden unsafe: raw HTML was not grafted"
fi
exit 0

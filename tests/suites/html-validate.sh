#!/bin/sh
# Valid HTML: html-validate (npm, pinned in tests/html, installed by `make
# test-deps`) finds no error on any page of the default site or of the
# golden fixture sites. One line per page.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
hv=tests/html/node_modules/.bin/html-validate
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$hv" ]; then
	echo "not ok html-validate setup: $hv is missing (make test-deps runs npm ci in tests/html)"
	exit 0
fi

# check LABEL SITEDIR: builds the site (no PDFs: not needed here) and validates every page.
check() {
	label=$1 site=$2 out=$tmp/$1
	if ! "$Q" build -C "$site" -o "$out" --no-pdf >"$tmp/$label.log" 2>&1; then
		echo "not ok html-validate $label: the build failed: $(head -c 300 "$tmp/$label.log")"
		return
	fi
	find "$out" -name '*.html' | sort >"$tmp/$label.pages"
	# shellcheck disable=SC2046
	"$hv" --config tests/html/htmlvalidate.json --formatter json $(cat "$tmp/$label.pages") \
		>"$tmp/$label.json" 2>"$tmp/$label.err"
	# shellcheck disable=SC2046
	node tests/html/report.js "$label" "$out" $(cat "$tmp/$label.pages") <"$tmp/$label.json"
}

check default .
for name in site unsafe; do
	check "golden-$name" "tests/golden/$name"
done
exit 0

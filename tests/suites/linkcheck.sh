#!/bin/sh
# Links: every href and src in the built default site (with its PDFs) and
# in the golden fixture sites leads to a file, every #fragment to an id
# (tests/linkcheck.py). One line per page.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if "$Q" build -o "$tmp/default" >"$tmp/default.log" 2>&1; then
	python3 tests/linkcheck.py "$tmp/default" | sed 's/linkcheck /linkcheck default\//'
else
	echo "not ok linkcheck default: the build failed: $(head -c 400 "$tmp/default.log")"
fi
for name in site unsafe; do
	# The fixtures are built without PDFs; their print/ links are the PDF suite's business.
	if "$Q" build -C "tests/golden/$name" -o "$tmp/$name" --no-pdf >"$tmp/$name.log" 2>&1; then
		python3 tests/linkcheck.py "$tmp/$name" --allow-missing print/ | sed "s/linkcheck /linkcheck $name\\//"
	else
		echo "not ok linkcheck $name: the build failed: $(head -c 400 "$tmp/$name.log")"
	fi
done
exit 0

#!/bin/sh
# A synthetic "real book" (tests/fixtures/gen-book.py): 126 chapters and
# about two thousand relative links, most reference-style and many with
# anchors, with a known set of broken ones. `quizdeck check` must resolve
# every good link (no other diagnostic) and report each broken one exactly
# once, at its line and column.
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1
dir=build/book
if ! command -v python3 >/dev/null 2>&1; then
	echo "not ok book: python3 is needed to generate the book"
	exit 1
fi
rm -rf "$dir"
if ! python3 tests/fixtures/gen-book.py "$dir"; then
	echo "not ok book: the generator failed"
	exit 1
fi
status=0
for bin in ${QUIZDECK:-./quizdeck build/asan/quizdeck}; do
	[ -x "$bin" ] || { [ "$bin" = ./quizdeck ] && { echo "not ok book: no $bin"; status=1; }; continue; }
	out=$(mktemp)
	err=$(mktemp)
	"$bin" -C "$dir" check >"$out" 2>"$err"
	rc=$?
	while IFS= read -r want; do
		n=$(grep -cxF -- "$want" "$err")
		where=${want%%: error:*}
		if [ "$n" -eq 1 ]; then
			echo "ok book ($bin): reported once at $where"
		else
			echo "not ok book ($bin): reported $n times, want once: $want"
			status=1
		fi
	done <"$dir/expected-diagnostics"
	extra=$(grep -vxF -f "$dir/expected-diagnostics" "$err")
	if [ -z "$extra" ]; then
		echo "ok book ($bin): every good link resolves (no other diagnostic)"
	else
		echo "not ok book ($bin): unexpected diagnostics:"
		echo "$extra" | head -n 20 | sed 's/^/    /'
		status=1
	fi
	if diff -u "$dir/expected-diagnostics" "$err" >/dev/null; then
		echo "ok book ($bin): diagnostics in file, line, column order"
	else
		echo "not ok book ($bin): diagnostics out of order"
		status=1
	fi
	if diff -u "$dir/expected-summary" "$out" >/dev/null; then
		echo "ok book ($bin): summary $(cat "$out")"
	else
		echo "not ok book ($bin): summary: got $(cat "$out"), want $(cat "$dir/expected-summary")"
		status=1
	fi
	if [ "$rc" -eq 1 ]; then
		echo "ok book ($bin): exit status 1"
	else
		echo "not ok book ($bin): exit status $rc, want 1"
		status=1
	fi
	rm -f "$out" "$err"
done
exit $status

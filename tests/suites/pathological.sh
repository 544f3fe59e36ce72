#!/bin/sh
# Deep nesting and huge inputs (tests/fixtures/gen-pathological.py): the
# checker must finish each within a time limit, without a crash, and give
# the expected summary. Runs the ASan+UBSan build when it exists.
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1
dir=build/pathological
bin=${QUIZDECK:-}
if [ -z "$bin" ]; then
	bin=./quizdeck
	[ -x build/asan/quizdeck ] && bin=build/asan/quizdeck
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "not ok pathological: python3 is needed to generate the inputs"
	exit 1
fi
rm -rf "$dir"
python3 tests/fixtures/gen-pathological.py "$dir" || { echo "not ok pathological: generator failed"; exit 1; }
status=0
for d in "$dir"/*/; do
	name=$(basename "$d")
	out=$(mktemp)
	# ASan keeps its own stack; a bounded walk needs no more than the default.
	timeout 120 "$bin" -C "$d" check >"$out" 2>"$out.err"
	rc=$?
	want=$(cat "$d/expect")
	if [ "$rc" -gt 1 ]; then
		echo "not ok pathological $name: exit status $rc (crash or timeout)"
		tail -n 5 "$out.err" | sed 's/^/    /'
		status=1
	elif ! grep -qF -- "$want" "$out"; then
		echo "not ok pathological $name: summary $(cat "$out"), want it to contain: $want"
		head -n 3 "$out.err" | sed 's/^/    /'
		status=1
	else
		echo "ok pathological $name ($bin)"
	fi
	rm -f "$out" "$out.err"
done
exit $status

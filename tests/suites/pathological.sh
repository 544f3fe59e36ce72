#!/bin/sh
# Deep nesting and huge inputs (tests/fixtures/gen-pathological.py): the
# checker must finish each within a time limit, without a crash, and give
# the expected summary. Runs the ASan+UBSan build when it exists. A case
# may also want a diagnostic (expect-stderr), a build with PDFs that
# agrees with check (build), and a bound on the release binary's peak
# memory (max-rss-mb, measured with GNU time): the limits of [limits].
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
	elif [ -f "$d/expect-stderr" ] && ! grep -qF -- "$(cat "$d/expect-stderr")" "$out.err"; then
		echo "not ok pathological $name: no diagnostic: $(cat "$d/expect-stderr")"
		head -n 3 "$out.err" | sed 's/^/    /'
		status=1
	else
		echo "ok pathological $name ($bin)"
	fi
	if [ -f "$d/build" ]; then
		LSAN_OPTIONS=suppressions=$(pwd)/tests/lsan.supp timeout 60 "$bin" -C "$d" build -o "$out.site" >"$out.build" 2>&1
		brc=$?
		if [ "$brc" -ne "$rc" ]; then
			echo "not ok pathological $name: build exits $brc where check exits $rc"
			tail -n 5 "$out.build" | sed 's/^/    /'
			status=1
		elif [ "$brc" -eq 0 ] && [ ! -f "$out.site/index.html" ]; then
			echo "not ok pathological $name: the build wrote no site"
			status=1
		else
			echo "ok pathological $name: builds with its PDFs"
		fi
		rm -rf "$out.site" "$out.build"
	fi
	if [ -f "$d/max-rss-mb" ] && [ -x /usr/bin/time ] && [ -x ./quizdeck ]; then
		max=$(cat "$d/max-rss-mb")
		/usr/bin/time -f '%M' -o "$out.rss" timeout 120 ./quizdeck -C "$d" check >/dev/null 2>&1
		kb=$(tail -n 1 "$out.rss")
		if [ -n "$kb" ] && [ "$kb" -lt $((max * 1024)) ]; then
			echo "ok pathological $name: peak memory $((kb / 1024)) MB, under $max MB"
		else
			echo "not ok pathological $name: peak memory ${kb:-?} KB, over $max MB"
			status=1
		fi
		rm -f "$out.rss"
	fi
	rm -f "$out" "$out.err"
done
exit $status

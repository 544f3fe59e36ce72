#!/bin/sh
# The model's golden test: `quizdeck check --dump` of the small fixture
# site in tests/golden/model/site against tests/golden/model/expected
# (diagnostics, the dump, the summary line).
#
#   UPDATE=1 sh tests/suites/golden-model.sh   rewrite expected (review the diff!)
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1
dir=tests/golden/model
status=0
for bin in ${QUIZDECK:-./quizdeck build/asan/quizdeck}; do
	if [ ! -x "$bin" ]; then
		[ "$bin" = ./quizdeck ] && { echo "not ok golden model: no $bin"; status=1; }
		continue
	fi
	out=$(mktemp)
	"$bin" -C "$dir/site" check --dump >"$out" 2>&1
	rc=$?
	if [ "${UPDATE:-0}" = 1 ] && [ "$bin" = ./quizdeck ]; then
		cp "$out" "$dir/expected"
	fi
	if ! diff -u "$dir/expected" "$out" >"$out.diff"; then
		echo "not ok golden model ($bin): the dump differs:"
		sed 's/^/    /' "$out.diff"
		status=1
	elif [ "$rc" -ne 0 ]; then
		echo "not ok golden model ($bin): exit status $rc, want 0"
		status=1
	else
		echo "ok golden model ($bin)"
	fi
	rm -f "$out" "$out.diff"
done
exit $status

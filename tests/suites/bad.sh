#!/bin/sh
# Bad input: one small site per author mistake in tests/bad/<case>/, each
# with `expected`, the exact output of `quizdeck check` (diagnostics, then
# the summary line). Every case must also exit with status 1. A case may
# hold `args`, extra options for check (e.g. --strict for a warning).
#
#   sh tests/suites/bad.sh            compare
#   UPDATE=1 sh tests/suites/bad.sh   rewrite every expected file (review the diff!)
#
# QUIZDECK names the binary to run (default ./quizdeck).
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=${QUIZDECK:-./quizdeck}
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1
if [ ! -x "$bin" ]; then
	echo "not ok bad: no $bin (run make first)"
	exit 1
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
status=0
for dir in tests/bad/*/; do
	case=$(basename "$dir")
	args=
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	# shellcheck disable=SC2086
	"$bin" -C "$dir" check $args >"$tmp" 2>&1
	rc=$?
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp" "$dir/expected"
	fi
	if [ ! -f "$dir/expected" ]; then
		echo "not ok bad $case: no expected file (UPDATE=1 makes one)"
		status=1
	elif ! diff -u "$dir/expected" "$tmp" >"$tmp.diff" 2>&1; then
		echo "not ok bad $case: output differs:"
		sed 's/^/    /' "$tmp.diff"
		status=1
	elif [ "$rc" -ne 1 ]; then
		echo "not ok bad $case: exit status $rc, want 1"
		status=1
	else
		echo "ok bad $case"
	fi
	rm -f "$tmp.diff"
done
exit $status

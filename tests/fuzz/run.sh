#!/bin/sh
# Runs each libFuzzer target (built by `make fuzz-targets` with clang, ASan+UBSan).
#
#   sh tests/fuzz/run.sh [SECONDS]     default 60 s per target (make fuzz)
#   FUZZ_BRIEF=1 sh tests/fuzz/run.sh  the seed corpus plus a few seconds
#                                      each, as `make test` does
#
# New inputs found go to build/fuzz/corpus/<target>/; a crash is written
# as build/fuzz/crash-* and makes the run fail: turn it into a regression
# case in the unit or bad-input suites.
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-60}
[ "${FUZZ_BRIEF:-0}" = 1 ] && secs=${FUZZ_SECONDS_BRIEF:-4}
[ -z "$secs" ] && secs=60
mkdir -p build/fuzz
status=0
for t in tests/fuzz/fuzz_*.c; do
	name=$(basename "$t" .c)
	bin=build/fuzz/$name
	if ! make -s "$bin" >build/fuzz/$name.build.log 2>&1; then
		echo "not ok fuzz $name: does not build (build/fuzz/$name.build.log)"
		status=1
		continue
	fi
	corpus=build/fuzz/corpus/$name
	mkdir -p "$corpus"
	seeds=tests/fuzz/seeds/$name
	[ -d "$seeds" ] || seeds=
	log=build/fuzz/$name.log
	"$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=build/fuzz/ "$corpus" $seeds >"$log" 2>&1 &
	pid=$!
	if wait "$pid"; then
		execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
		echo "ok fuzz $name: ${execs:-?} executions in ${secs}s, no crash"
		# A target that writes sites (fuzz_util.h) removes its folder at exit.
		if grep -q fz_site_dir "$t"; then
			if [ -e "/dev/shm/quizdeck-fuzz-$pid" ] || [ -e "/tmp/quizdeck-fuzz-$pid" ]; then
				echo "not ok fuzz $name: left its folder quizdeck-fuzz-$pid behind"
				status=1
			else
				echo "ok fuzz $name: leaves no folder behind"
			fi
		fi
	else
		echo "not ok fuzz $name: crashed; see $log and build/fuzz/crash-*"
		status=1
	fi
done
exit $status

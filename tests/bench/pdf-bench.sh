#!/bin/sh
# How fast `quizdeck print` draws a large deck, and what memory it takes:
# prints one deck of 1,000 and one of N cards (default
# 10,000), with one thread and with two (JOBS="1 2"; one deck on two
# threads is laid out by one while the other draws), and reports cards
# per second and peak resident memory (/usr/bin/time -v). Not part of
# `make test`: it takes a while and measures, it does not judge. On a
# shared machine, compare runs made in the same minute (load shown).
#
#   [JOBS="1 2"] sh tests/bench/pdf-bench.sh [N]
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
n=${1:-10000}
jobs=${JOBS:-1 2}
Q=${QUIZDECK:-$PWD/quizdeck}
if [ ! -x "$Q" ]; then
	echo "pdf-bench: build quizdeck first (make quizdeck)" >&2
	exit 2
fi
if [ ! -x /usr/bin/time ]; then
	echo "pdf-bench: needs GNU time (apt-get install time)" >&2
	exit 2
fi
base=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
tmp=$(mktemp -d "$base/quizdeck-pdf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for cards in 1000 "$n"; do
	sh tests/bench/gen-deck.sh "$tmp/site-$cards" "$cards"
	# One warm-up so fontconfig's caches are hot, then the timed runs.
	"$Q" print -C "$tmp/site-$cards" -o "$tmp/out-$cards" >/dev/null 2>&1
	for j in $jobs; do
		if ! /usr/bin/time -v "$Q" print -j"$j" -C "$tmp/site-$cards" -o "$tmp/out-$cards" \
		    >/dev/null 2>"$tmp/time-$cards"; then
			echo "pdf-bench: quizdeck print failed:" >&2
			grep -v '^\s' "$tmp/time-$cards" | head -n 5 >&2
			exit 1
		fi
		pdf=$tmp/out-$cards/print/generated.pdf
		pages=$(pdfinfo "$pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
		bytes=$(wc -c <"$pdf")
		load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
		awk -v cards="$cards" -v pages="${pages:-?}" -v bytes="$bytes" -v j="$j" -v load="${load:-?}" '
		/Elapsed \(wall clock\)/ {
			t = $NF; m = split(t, a, ":"); s = 0
			for (i = 1; i <= m; i++) s = s * 60 + a[i]
		}
		/User time/ { user = $NF }
		/System time/ { sys = $NF }
		/Maximum resident set size/ { rss = $NF }
		END {
			printf "pdf-bench: %6d cards -j%s, %5s pages, %5.1f MB PDF: %6.2f s (cpu %.2f s), %5.0f cards/s, peak RSS %5.1f MB, load %s\n",
			    cards, j, pages, bytes / 1048576, s, user + sys, (s > 0 ? cards / s : 0), rss / 1024, load
		}' "$tmp/time-$cards"
	done
done

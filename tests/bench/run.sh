#!/bin/sh
# make bench: how fast quizdeck builds, against the floor and Hugo.
#
#   sh tests/bench/run.sh            everything, in at most about 10 minutes
#   BENCH_RUNS=3 BENCH_ONLY=bank sh tests/bench/run.sh   a quicker look
#
# Writes synthetic sites (gen-site.py) into tmpfs, times each command as
# the median of BENCH_RUNS runs (default 5) after one warm-up, with min,
# max and peak memory, and prints a table of medians and of the ratios
# the targets are stated in. Besides the pages and bank corpora, print
# draws one deck of 10,000 cards and one of 1,000 (gen-deck.sh), whose
# peak memory has the same bound as a build's: twice the source and 96 MB. A build and its floor run
# turn about, and their ratio is the median of the turn-by-turn ratios:
# on a shared machine the load drifts, and timing one after the other
# let the drift into the ratio. The bank's PDFs run turn about the same
# way with pango-loop.c, the bare single-core Pango loop the PDF target
# is stated against, and each full size with its tenth, for how cost
# grows. Nothing here passes or fails: the numbers are for
# reading, and they are only as good as the machine is quiet (the load
# average is printed first for that reason).
#
#   BENCH_DIR    where the corpora go (default /dev/shm/quizdeck-bench:
#                rewriting 10,000 files on a disk gets slower run after
#                run, which would time the disk, not quizdeck)
#   BENCH_ONLY   pages | bank: one corpus only
#   BENCH_KEEP=1 leave the corpora and outputs behind
#   BENCH_SLOW   a warm-up longer than this many seconds (default 60) is
#                reported as the only run, so a slow build cannot hold
#                `make bench` for an hour
#   BENCH_LIMIT  a warm-up still running after this many seconds (default
#                90) is stopped and reported as timed out
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
repo=$PWD
Q=$repo/quizdeck
RUNS=${BENCH_RUNS:-5}
SLOW=${BENCH_SLOW:-60}
LIMIT=${BENCH_LIMIT:-90}
ONLY=${BENCH_ONLY:-}
if [ -n "${BENCH_DIR:-}" ]; then
	ROOT=$BENCH_DIR
elif [ -d /dev/shm ] && [ -w /dev/shm ]; then
	ROOT=/dev/shm/quizdeck-bench
else
	ROOT=${TMPDIR:-/tmp}/quizdeck-bench
	echo "bench: no writable /dev/shm; using $ROOT (disk timings drift)" >&2
fi
RES=$ROOT/results

cleanup() {
	[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$ROOT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ ! -x "$Q" ]; then
	echo "bench: no ./quizdeck; run make quizdeck first" >&2
	exit 2
fi
TIME=
[ -x /usr/bin/time ] && TIME=/usr/bin/time

rm -rf "$ROOT"
mkdir -p "$ROOT" || exit 2
: >"$RES"

echo "quizdeck bench: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$RUNS runs after a warm-up, in $ROOT"
echo "  $($Q --version)"
command -v cmark-gfm >/dev/null && echo "  $(cmark-gfm --version | head -n 1)"
command -v hugo >/dev/null && echo "  $(hugo version | cut -d' ' -f1-2)"
[ -z "$TIME" ] && echo "  no /usr/bin/time (Debian package time): no peak memory"
echo

# --- helpers --------------------------------------------------------------

# ns: a monotonic-enough clock in nanoseconds (GNU date).
ns() {
	date +%s%N
}

# bench_run KEY CMD...: a warm-up, then $RUNS timed runs of CMD with its
# output discarded. Appends "KEY median min max peak_kb" (seconds) to
# $RES, or "KEY failed" after printing the command's complaint.
bench_run() {
	key=$1
	shift
	printf 'bench: %-26s ' "$key" >&2
	: >"$ROOT/times"
	: >"$ROOT/mems"
	t0=$(ns)
	if [ -n "$TIME" ]; then
		$TIME -f %M -o "$ROOT/mem" timeout "$LIMIT" "$@" >/dev/null 2>"$ROOT/err"
	else
		timeout "$LIMIT" "$@" >/dev/null 2>"$ROOT/err"
	fi
	rc=$?
	t1=$(ns)
	if [ "$rc" -eq 124 ]; then
		echo "TIMED OUT after $LIMIT s" >&2
		echo "$key failed" >>"$RES"
		return 1
	elif [ "$rc" -ne 0 ]; then
		echo "FAILED: $(grep -v '^Command exited' "$ROOT/err" | head -c 600)" >&2
		echo "$key failed" >>"$RES"
		return 1
	fi
	i=0
	if [ $(((t1 - t0) / 1000000000)) -ge "$SLOW" ]; then
		echo $((t1 - t0)) >>"$ROOT/times"
		[ -n "$TIME" ] && tail -n 1 "$ROOT/mem" >>"$ROOT/mems"
		printf '(warm-up only: over %s s) ' "$SLOW" >&2
		i=$RUNS
	fi
	while [ "$i" -lt "$RUNS" ]; do
		t0=$(ns)
		if [ -n "$TIME" ]; then
			$TIME -f %M -o "$ROOT/mem" "$@" >/dev/null 2>&1
		else
			"$@" >/dev/null 2>&1
		fi
		t1=$(ns)
		echo $((t1 - t0)) >>"$ROOT/times"
		[ -n "$TIME" ] && tail -n 1 "$ROOT/mem" >>"$ROOT/mems"
		i=$((i + 1))
	done
	peak=$(sort -n "$ROOT/mems" | tail -n 1)
	line=$(sort -n "$ROOT/times" | awk -v key="$key" -v peak="${peak:--}" '
		{ a[NR] = $1 }
		END {
			m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			printf "%s %.4f %.4f %.4f %s\n", key, m / 1e9, a[1] / 1e9, a[NR] / 1e9, peak
		}')
	echo "$line" >>"$RES"
	echo "$line" | awk '{ printf "%.3f s (min %.3f, max %.3f)\n", $2, $3, $4 }' >&2
}

# bench_pair KEY_A KEY_B CMD_A CMD_B: KEY_A and KEY_B as bench_run would
# time them, but run turn about (a warm-up of each, then A, B, A, B...)
# so both see the machine in the same state; appends a line for each and
# "KEY_A/KEY_B ratio" with the median, min and max of the per-turn
# ratios. The commands are shell command strings (paths without spaces).
bench_pair() {
	ka=$1 kb=$2 ca=$3 cb=$4
	printf 'bench: %-26s ' "$ka + $kb" >&2
	for k in a b; do
		: >"$ROOT/times.$k"
		: >"$ROOT/mems.$k"
	done
	for k in a b; do
		eval "c=\$c$k"
		if ! timeout "$LIMIT" sh -c "$c" >/dev/null 2>"$ROOT/err"; then
			echo "FAILED: $(head -c 600 "$ROOT/err")" >&2
			echo "$ka failed" >>"$RES"
			echo "$kb failed" >>"$RES"
			return 1
		fi
	done
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		for k in a b; do
			eval "c=\$c$k"
			t0=$(ns)
			if [ -n "$TIME" ]; then
				$TIME -f %M -o "$ROOT/mem" sh -c "$c" >/dev/null 2>&1
				tail -n 1 "$ROOT/mem" >>"$ROOT/mems.$k"
			else
				sh -c "$c" >/dev/null 2>&1
			fi
			t1=$(ns)
			echo $((t1 - t0)) >>"$ROOT/times.$k"
		done
		i=$((i + 1))
	done
	for k in a b; do
		eval "key=\$k$k"
		peak=$(sort -n "$ROOT/mems.$k" | tail -n 1)
		sort -n "$ROOT/times.$k" | awk -v key="$key" -v peak="${peak:--}" '
			{ a[NR] = $1 }
			END {
				m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
				printf "%s %.4f %.4f %.4f %s\n", key, m / 1e9, a[1] / 1e9, a[NR] / 1e9, peak
			}' >>"$RES"
	done
	paste "$ROOT/times.a" "$ROOT/times.b" | awk '{ print $1 / $2 }' | sort -g |
		awk -v key="$ka/$kb" '
			{ a[NR] = $1 }
			END {
				m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
				printf "%s %.4f %.4f %.4f -\n", key, m, a[1], a[NR]
			}' >"$ROOT/pair"
	cat "$ROOT/pair" >>"$RES"
	awk '{ printf "ratio %.2f (min %.2f, max %.2f)\n", $2, $3, $4 }' "$ROOT/pair" >&2
}

# floor_cmd DIR: the floor, the reference parser over every source of DIR
# in one process, as a command string for bench_pair.
floor_cmd() {
	echo "find $1/content -type f -name '*.md' -print0 | xargs -0 cat |
	cmark-gfm -e table -e tasklist -e strikethrough -e autolink >/dev/null"
}

# src_bytes DIR: bytes of the site's sources (content/ and site.toml).
src_bytes() {
	find "$1/content" "$1/site.toml" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'
}

# cards_tsv DIR: DIR's cards as pango-loop reads them, "question TAB
# answer" a line; links keep their text, emphasis marks go.
cards_tsv() {
	awk '
		FNR == 1 { if (q != "") print q "\t" a; q = ""; a = ""; fm = 0 }
		/^\+\+\+/ { fm = !fm; next }
		fm { next }
		/^## / {
			if (q != "") print q "\t" a
			q = substr($0, 4); sub(/ *\{#[^}]*\} *$/, "", q); a = ""; next
		}
		q != "" && NF {
			gsub(/\]\([^)]*\)/, ""); gsub(/[[*]/, "")
			a = a (a == "" ? "" : " ") $0
		}
		END { if (q != "") print q "\t" a }' "$1"/content/cards/*.md
}

# gen KIND NAME [ARGS]: a corpus, with the repo's theme so the bench
# times this tree's templates whatever is installed.
gen() {
	kind=$1 name=$2
	shift 2
	python3 tests/bench/gen-site.py "$kind" "$ROOT/$name" "$@" >/dev/null || exit 2
	case " $* " in
	*" --hugo "*) ;;
	*)
		if [ -d themes/default ]; then
			mkdir -p "$ROOT/$name/themes"
			cp -R themes/default "$ROOT/$name/themes/"
		fi
		echo "$name $(src_bytes "$ROOT/$name")" >>"$ROOT/sizes"
		;;
	esac
}

# deck_names DIR: the site's decks, for `print DECK...`: the cards alone,
# as the PDF targets are stated (print with no names writes the book and
# every test's handout as well).
deck_names() {
	for f in "$1"/content/cards/*.md; do
		[ -e "$f" ] && basename "$f" .md
	done | tr '\n' ' '
}

# --- corpora ----------------------------------------------------------------

t0=$(ns)
: >"$ROOT/sizes"
if [ "$ONLY" != bank ]; then
	gen pages pages
	gen pages pages-10 --scale 0.1
	if command -v hugo >/dev/null; then
		gen pages hugo --hugo
		gen pages hugo-10 --hugo --scale 0.1
	fi
fi
if [ "$ONLY" != pages ]; then
	gen bank bank
	gen bank bank-10 --scale 0.1
fi
echo "bench: corpora written in $(( ($(ns) - t0) / 1000000 )) ms" >&2
if [ "$ONLY" != pages ] && ! cc -O2 -o "$ROOT/pango-loop" tests/bench/pango-loop.c \
	$(pkg-config --cflags --libs pangocairo) 2>"$ROOT/err"; then
	echo "bench: no bare Pango loop to compare PDFs with: $(head -c 300 "$ROOT/err")" >&2
fi

# --- timings ----------------------------------------------------------------

for scale in "" -10; do
	if [ "$ONLY" != bank ]; then
		d=$ROOT/pages$scale
		if command -v cmark-gfm >/dev/null; then
			bench_pair "pages$scale.build" "pages$scale.floor" "$Q build --no-pdf -C $d" "$(floor_cmd "$d")"
		else
			bench_run "pages$scale.build" "$Q" build --no-pdf -C "$d"
		fi
		if command -v hugo >/dev/null; then
			bench_run "pages$scale.hugo" hugo --quiet --noBuildLock -s "$ROOT/hugo$scale" \
				-d "$ROOT/hugo$scale-out" --cacheDir "$ROOT/hugo-cache"
		fi
	fi
	if [ "$ONLY" != pages ]; then
		d=$ROOT/bank$scale
		if command -v cmark-gfm >/dev/null; then
			bench_pair "bank$scale.html" "bank$scale.floor" "$Q build -C $d --no-pdf --no-export" "$(floor_cmd "$d")"
		else
			bench_run "bank$scale.html" "$Q" build -C "$d" --no-pdf --no-export
		fi
		# Turn about with the bare Pango loop the PDF target is stated against.
		if [ -x "$ROOT/pango-loop" ]; then
			cards_tsv "$d" >"$ROOT/bank$scale.cards"
			bench_pair "bank$scale.pdf" "bank$scale.loop" "$Q print -C $d -o $ROOT/bank$scale-print $(deck_names "$d")" \
				"$ROOT/pango-loop $ROOT/bank$scale.cards $ROOT/bank$scale-loop.pdf"
		else
			bench_run "bank$scale.pdf" "$Q" print -C "$d" -o "$ROOT/bank$scale-print" $(deck_names "$d")
		fi
		cat "$d"/content/cards/*.md | grep -c '^## ' | sed "s/^/bank$scale /" >>"$ROOT/cards"
	fi
done

# How cost grows: each full size turn about with its tenth (KEY.full,
# KEY.tenth), so the ratio is not the drift between two runs minutes
# apart (a tenth's build is short, and a quiet moment for it alone moved
# the ratio by a quarter).
growth_pair() {
	bench_pair "$1.full" "$1.tenth" "$2 $3" "$2 $4"
}
if [ "$ONLY" != bank ]; then
	growth_pair pages.build "$Q build --no-pdf -C" "$ROOT/pages" "$ROOT/pages-10"
	# The guide as a book (print with no decks or tests writes the book
	# alone), on the 1,000 chapters: the 10,000 would be a book of some
	# 23,000 pages, far past any real guide.
	if bench_run pages-10.book "$Q" print -C "$ROOT/pages-10" -o "$ROOT/book-print"; then
		n=$(python3 -c 'import re,sys; print(len(re.findall(rb"/Type\s*/Page[^s]", open(sys.argv[1], "rb").read())))' \
			"$ROOT/book-print/print/guide.pdf")
		echo "book $n" >>"$ROOT/cards"
	fi
fi
if [ "$ONLY" != pages ]; then
	growth_pair bank.html "$Q build --no-pdf --no-export -C" "$ROOT/bank" "$ROOT/bank-10"
	# The whole site with its exports (Anki, CSV, TSV, Moodle, GIFT), for scale.
	bench_run bank.site "$Q" build -C "$ROOT/bank" --no-pdf
	bench_pair "bank.pdf.full" "bank.pdf.tenth" "$Q print -o $ROOT/growth-print -C $ROOT/bank $(deck_names "$ROOT/bank")" \
		"$Q print -o $ROOT/growth-print -C $ROOT/bank-10 $(deck_names "$ROOT/bank-10")"
fi

# One deck of 10,000 cards and one of 1,000 (gen-deck.sh): print's speed
# and memory on a long deck, the rest of the site aside.
if [ "$ONLY" != pages ]; then
	for n in 10000 1000; do
		k=deck; [ "$n" = 1000 ] && k=deck-10
		sh tests/bench/gen-deck.sh "$ROOT/$k" "$n" || exit 2
		bench_run "$k.pdf" "$Q" print -C "$ROOT/$k" -o "$ROOT/$k-print"
		echo "$k $n" >>"$ROOT/cards"
		echo "$k $(src_bytes "$ROOT/$k")" >>"$ROOT/sizes"
	done
fi

# Rebuild latency in `quizdeck serve`: edit one heading, time until the
# reload event. Its own warm-up is serve's first build.
# rebuild_run NAME SITE FILE PAGE: FILE (below SITE) edited, PAGE checked.
rebuild_run() {
	printf 'bench: %-26s ' "$1.rebuild" >&2
	if python3 tests/bench/rebuild.py --quizdeck "$Q" --site "$2" --name "$1" \
	    --topic "$3" --page "$4" \
	    --edits $((RUNS * 4 + 1)) --budget 30 >"$ROOT/rebuild" 2>"$ROOT/err"; then
		cat "$ROOT/rebuild" >>"$RES"
		awk '{ printf "%s%.1f ms (min %.1f, max %.1f)", (NR > 1 ? "; server " : ""), \
			$2 * 1000, $3 * 1000, $4 * 1000 } END { print "" }' "$ROOT/rebuild" >&2
	else
		echo "FAILED: $(head -c 600 "$ROOT/err")" >&2
		echo "$1.rebuild failed" >>"$RES"
	fi
}
if [ "$ONLY" != bank ]; then
	# The middle chapter of the 1,000 pages.
	ch=$(cd "$ROOT/pages-10" && find content/guide -name '*.md' ! -name '_index.md' | sort |
		awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
	page=${ch#content/}
	rebuild_run pages-10 "$ROOT/pages-10" "$ch" "/${page%.md}/"
fi
if [ "$ONLY" != pages ]; then
	rebuild_run bank "$ROOT/bank" content/quiz/bank/topic-050.md /quiz/bank/
fi

# --- the table ---------------------------------------------------------------

echo
awk -v sizes="$ROOT/sizes" -v cards="$ROOT/cards" '
function get(k) { return (k in med) ? med[k] : "" }
function sec(k) { return (k in med) ? sprintf("%8.3f", med[k]) : "       -" }
function mb(kb) { return kb == "-" || kb == "" ? "      -" : sprintf("%7.0f", kb / 1024) }
function ratio(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%6.2f", a / b) : "     -" }
# The median of the turn-by-turn ratios where the two ran turn about (bench_pair).
function pair(a, b) { return ((a "/" b) in med) ? sprintf("%6.2f", med[a "/" b]) : ratio(get(a), get(b)) }
# The serve lines: the edit to the reload event, and the build within it.
function rebuilt(name, what, target,    k) {
	k = name ".rebuild"
	if (!(k in med)) {
		printf "%-44s %8s   %s\n", what, "-", "< " target
		return
	}
	printf "%-44s %8.1f   %s\n", what, med[k] * 1000, "< " target
	printf "%-44s %8.1f   %s\n", "  of which the rebuild itself (median), ms", med[name ".rebuild-server"] * 1000, ""
}
BEGIN {
	while ((getline line < sizes) > 0) { split(line, f, " "); src[f[1]] = f[2] }
	while ((getline line < cards) > 0) { split(line, f, " "); ncards[f[1]] = f[2] }
}
$2 == "failed" { failed[$1] = 1; order[++n] = $1; next }
{ med[$1] = $2; lo[$1] = $3; hi[$1] = $4; peak[$1] = $5; order[++n] = $1 }
END {
	printf "%-26s %8s %8s %8s %8s\n", "seconds", "median", "min", "max", "peak MB"
	for (i = 1; i <= n; i++) {
		k = order[i]
		if (k in failed) { printf "%-26s   failed\n", k; continue }
		if (k ~ /rebuild|\/|\.(full|tenth)$/) continue
		printf "%-26s %8.3f %8.3f %8.3f %8s\n", k, med[k], lo[k], hi[k], mb(peak[k])
	}
	print ""
	printf "%-44s %8s   %s\n", "ratio", "measured", "target"
	printf "%-44s %8s   %s\n", "pages build / Hugo", ratio(get("pages.build"), get("pages.hugo")), "<= 0.3"
	printf "%-44s %8s   %s\n", "pages build / floor", pair("pages.build", "pages.floor"), "< 1"
	printf "%-44s %8s   %s\n", "pages-10 build / Hugo", ratio(get("pages-10.build"), get("pages-10.hugo")), "(for scale)"
	printf "%-44s %8s   %s\n", "bank HTML / floor", pair("bank.html", "bank.floor"), "<= 1.2"
	for (s = 0; s < 2; s++) {
		c = s ? "bank-10" : "bank"
		k = c ".pdf"
		if (get(k) != "" && ncards[c] > 0)
			printf "%-44s %8.0f   %s\n", c " PDF cards/s (" ncards[c] " cards)", ncards[c] / med[k],
			    s ? "(for scale)" : ">= 3000"
	}
	if (get("bank.loop") != "" && ncards["bank"] > 0) {
		printf "%-44s %8.0f   %s\n", "bare Pango loop cards/s, one core", ncards["bank"] / med["bank.loop"], \
			"(issue 9: about 2900)"
		if (("bank.pdf/bank.loop") in med)
			printf "%-44s %8.2f   %s\n", "bank PDF / bare Pango loop, cards/s", \
				1 / med["bank.pdf/bank.loop"], ">= 1.03 (3000 / 2900)"
	}
	if (get("pages-10.book") != "" && ncards["book"] > 0)
		printf "%-44s %8.0f   %s\n", "guide book pages/s (" ncards["book"] " pages)", ncards["book"] / med["pages-10.book"], ">= 200"
	if (get("deck.pdf") != "" && ncards["deck"] > 0)
		printf "%-44s %8.0f   %s\n", "one deck PDF cards/s (" ncards["deck"] " cards)", ncards["deck"] / med["deck.pdf"], "(for scale)"
	for (i = 1; i <= n; i++) {
		k = order[i]
		if (k ~ /^(pages|bank|deck)(-10)?\.(build|html|pdf)$/ && !(k in failed)) {
			base = k; sub(/-10\..*/, "", base); sub(/\..*/, "", base)
			corp = k; sub(/\..*/, "", corp)
			if (peak[k] != "-" && (corp in src)) {
				limit = 2 * src[corp] / 1048576 + 96
				printf "%-44s %8s   %s\n", k " peak MB / (2 x " sprintf("%.0f", src[corp] / 1048576) " MB + 96)", \
					ratio(peak[k] / 1024, limit), "<= 1"
			}
		}
	}
	split("pages.build bank.html bank.pdf", full, " ")
	for (i = 1; i <= 3; i++) {
		k = full[i]; t = k; sub(/\./, "-10.", t)
		if ((k ".full/" k ".tenth") in med)
			printf "%-44s %8s   %s\n", k " full / tenth (turn about)", pair(k ".full", k ".tenth"), "<= 11"
		else
			printf "%-44s %8s   %s\n", k " full / tenth", ratio(get(k), get(t)), "<= 11"
	}
	rebuilt("pages-10", "1,000 pages: edit a heading -> reload event, ms", 100)
	rebuilt("bank", "bank: edit a question -> reload event, ms", 300)
}' "$RES"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (figures from a busy machine run slow)"
exit 0

#!/bin/sh
# Nothing lost: a build that fails for any reason leaves the previous
# output exactly as it was (every path, type and checksum) and no
# <out>.staging-* folder behind.
#
#   - a content error (and print into a new folder leaves none);
#   - SIGINT while the pages are written, SIGTERM and SIGHUP while the
#     PDFs are drawn (a generated site big enough to take a second or
#     two); SIGINT while print draws a long deck a chunk at a time; a
#     build killed outright (SIGKILL) leaves a staging folder that the
#     next build removes;
#   - a read-only output folder (a tmpfs remounted read-only: tests run
#     as root, which ignores permissions);
#   - a full disk (a 2 MB tmpfs), both while the pages are written and
#     while a PDF is: a clear "No space left on device";
#   - three builds of one site started at once: all succeed, the output
#     is one complete build, no debris;
#   - an output folder that holds someone else's files, or is a file, is
#     refused and left alone.
# The mount cases print `ok ... # skip` when tmpfs cannot be mounted.
set -u
cd "$(dirname "$0")/../.." || exit 2
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 SOURCE_DATE_EPOCH=1700000000
Q=$(pwd)/${QUIZDECK:-quizdeck}
case ${QUIZDECK:-} in /*) Q=$QUIZDECK ;; esac
tmp=$(mktemp -d)
mounts=
cleanup() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() { echo "ok durability $*"; }
fail() { echo "not ok durability $*"; }

# The state of a folder: every path with its type, every file's checksum.
snap() {
	(cd "$1" && find . -printf '%y %p\n' | sort && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# untouched NAME OUT SNAPSHOT: OUT is as in SNAPSHOT and no staging is left beside it.
untouched() {
	snap "$2" >"$tmp/now"
	if cmp -s "$3" "$tmp/now"; then
		ok "$1: the previous output is exactly as it was"
	else
		fail "$1: the previous output changed: $(diff "$3" "$tmp/now" | head -n 4 | tr '\n' ' ')"
	fi
	left=$(ls -d "$2".staging-* "$2".old-* 2>/dev/null)
	[ -z "$left" ] && ok "$1: no staging folder left" || fail "$1: left behind: $left"
}

# A site big enough that a build takes a second or two: 400 chapters, 300 cards.
python3 - "$tmp/big" <<'EOF'
import os, sys
root = sys.argv[1]
def put(rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w", encoding="utf-8") as f:
        f.write(text)
put("site.toml", 'title = "Big"\n')
words = "the gradient all-reduce ring tree pipeline bubble shard tensor parallel rank step".split()
para = " ".join(words[i % len(words)] for i in range(120)) + "\n\n"
for c in range(400):
    put("content/guide/ch%03d.md" % c, "# Chapter %d\n\n" % c +
        "".join("## Section %d\n\n%s" % (s, para) for s in range(40)))
put("content/cards/deck.md", "# Deck\n\n" +
    "".join("## Card %d about %s\n\n%s" % (i, words[i % 12], para) for i in range(300)))
EOF

# --- a content error ---------------------------------------------------
cp -R tests/golden/site "$tmp/small"
rm -rf "$tmp/small/out"
if "$Q" build -C "$tmp/small" -o "$tmp/small-out" >"$tmp/log" 2>&1; then
	snap "$tmp/small-out" >"$tmp/before"
	cp -R "$tmp/small" "$tmp/small-bad"
	printf '\n[broken](nowhere.md)\n' >>"$tmp/small-bad/content/guide/knives.md"
	"$Q" build -C "$tmp/small-bad" -o "$tmp/small-out" >"$tmp/log" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok "content error: exit 1" || fail "content error: exit $rc"
	untouched "content error" "$tmp/small-out" "$tmp/before"
	# print draws each deck as it loads, before the broken chapter is
	# linked: what it drew goes, the previous PDFs stay.
	"$Q" print -C "$tmp/small" -o "$tmp/small-print" >"$tmp/log" 2>&1 ||
		fail "the small site prints: $(head -c 300 "$tmp/log")"
	snap "$tmp/small-print" >"$tmp/before"
	"$Q" print -C "$tmp/small-bad" -o "$tmp/small-print" >"$tmp/log" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok "content error, print: exit 1" || fail "content error, print: exit $rc"
	untouched "content error, print" "$tmp/small-print" "$tmp/before"
	# Into a folder that was not there: none is left, not even an empty print/.
	"$Q" print -C "$tmp/small-bad" -o "$tmp/fresh-print" >"$tmp/log" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && [ ! -e "$tmp/fresh-print" ]; then
		ok "content error, print into a new folder: exit 1, no folder made"
	else
		fail "content error, print into a new folder: exit $rc, left: $(find "$tmp/fresh-print" 2>/dev/null | head -n 3 | tr '\n' ' ')"
	fi
	# A deck named on the command line that is not there: a usage error, found once
	# the site is loaded, after the others were drawn.
	"$Q" print -C "$tmp/small" -o "$tmp/small-print" knives nosuchdeck >"$tmp/log" 2>&1
	rc=$?
	[ "$rc" -eq 2 ] && grep -q 'no deck named "nosuchdeck"' "$tmp/log" &&
		ok "print of a deck that is not there: exit 2, named" ||
		fail "print of a deck that is not there: exit $rc: $(head -c 300 "$tmp/log")"
	untouched "print of a deck that is not there" "$tmp/small-print" "$tmp/before"
else
	fail "the small site builds: $(head -c 300 "$tmp/log")"
fi

# --- signals -----------------------------------------------------------
if ! "$Q" build -C "$tmp/big" -o "$tmp/big-out" >"$tmp/log" 2>&1; then
	fail "the big site builds: $(head -c 300 "$tmp/log")"
	exit 0
fi
snap "$tmp/big-out" >"$tmp/big-before"
# The next builds would change every page: an interrupted one must change none.
sed -i 's/^title = .*/title = "Bigger"/' "$tmp/big/site.toml"

# interrupt NAME SIGNAL WAIT-FOR: starts a build, sends SIGNAL once WAIT-FOR
# (a path below the staging folder) exists.
interrupt() {
	name=$1 sig=$2 what=$3
	"$Q" build -C "$tmp/big" -o "$tmp/big-out" >"$tmp/sig.log" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 2000 ]; do
		set -- "$tmp"/big-out.staging-*/$what
		[ -e "$1" ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.005
		i=$((i + 1))
	done
	kill -s "$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q "interrupted by signal" "$tmp/sig.log"; then
		ok "$name: the build stops with exit $rc and says so"
	else
		fail "$name: exit $rc (the build may have finished first): $(head -c 300 "$tmp/sig.log")"
	fi
	untouched "$name" "$tmp/big-out" "$tmp/big-before"
}
interrupt "SIGINT while the pages are written" INT "guide"
interrupt "SIGTERM while the PDFs are drawn" TERM "print"
interrupt "SIGHUP while the PDFs are drawn" HUP "print"

# print of a long deck draws it a chunk at a time as it is built, its
# cards freed as they are drawn (model.h, chunk_cards). Stopped while it
# draws, the threads laying pages out must stop before the cards they
# read are freed: run under ASan where it is built, which sees the use
# after free every time (the plain binary crashed one run in four).
A=$Q
[ -x build/asan/quizdeck ] && A=$(pwd)/build/asan/quizdeck
sh tests/bench/gen-deck.sh "$tmp/long" 2500
sed -i 's/^card = .*/card = "business"/' "$tmp/long/site.toml"
if "$Q" print -C "$tmp/long" -o "$tmp/long-out" >"$tmp/log" 2>&1; then
	snap "$tmp/long-out" >"$tmp/long-before"
	sed -i 's/^title = .*/title = "Longer"/' "$tmp/long/content/cards/generated.md"
	# A helper is mid-page only some of the time: stop it at four moments.
	for delay in 0.05 0.2 0.4 0.7; do
		LSAN_OPTIONS=detect_leaks=0 "$A" print -j2 -C "$tmp/long" -o "$tmp/long-out" >"$tmp/sig.log" 2>&1 &
		pid=$!
		i=0
		while [ $i -lt 2000 ] && [ ! -e "$tmp/long-out/print/generated.pdf.tmp-$pid" ] &&
		    kill -0 $pid 2>/dev/null; do
			sleep 0.005
			i=$((i + 1))
		done
		sleep $delay
		kill -s INT $pid 2>/dev/null
		wait $pid
		rc=$?
		name="SIGINT $delay s into drawing a long deck in chunks"
		if [ "$rc" -eq 1 ] && grep -q "interrupted by signal" "$tmp/sig.log" && ! grep -q Sanitizer "$tmp/sig.log"; then
			ok "$name: exit 1, said so, no memory error"
		else
			fail "$name: exit $rc (it may have finished first): $(head -c 400 "$tmp/sig.log")"
		fi
		untouched "$name" "$tmp/long-out" "$tmp/long-before"
	done
else
	fail "the long deck prints: $(head -c 300 "$tmp/log")"
fi

# SIGKILL cannot be caught: the staging folder stays until the next build.
"$Q" build -C "$tmp/big" -o "$tmp/big-out" >/dev/null 2>&1 &
pid=$!
while ! ls -d "$tmp"/big-out.staging-*/guide >/dev/null 2>&1 && kill -0 $pid 2>/dev/null; do sleep 0.005; done
kill -s KILL $pid 2>/dev/null
wait $pid 2>/dev/null
snap "$tmp/big-out" >"$tmp/now"
if cmp -s "$tmp/big-before" "$tmp/now" && ls -d "$tmp"/big-out.staging-* >/dev/null 2>&1; then
	ok "SIGKILL: the output is untouched; the dead build's staging folder is there"
else
	fail "SIGKILL: expected an untouched output and a staging folder"
fi
if "$Q" build --no-pdf -C "$tmp/small" -o "$tmp/big-out" >/dev/null 2>&1 &&
	! ls -d "$tmp"/big-out.staging-* >/dev/null 2>&1; then
	ok "SIGKILL: the next build removes the dead build's staging folder"
else
	fail "SIGKILL: the staging folder is still there after the next build"
fi

# --- three builds at once ----------------------------------------------
"$Q" build --no-pdf -C "$tmp/big" -o "$tmp/ref" >/dev/null 2>&1
snap "$tmp/ref" >"$tmp/ref.snap"
for n in 1 2 3; do
	("$Q" build --no-pdf -C "$tmp/big" -o "$tmp/together" >"$tmp/together.$n.log" 2>&1; echo $? >"$tmp/together.$n.rc") &
done
wait
rcs=$(cat "$tmp"/together.*.rc | tr '\n' ' ')
[ "$rcs" = "0 0 0 " ] && ok "three builds at once all succeed" || fail "three builds at once: exit statuses $rcs"
snap "$tmp/together" >"$tmp/now"
cmp -s "$tmp/ref.snap" "$tmp/now" && ok "three builds at once: the output is one complete build" ||
	fail "three builds at once: the output differs from a single build"
left=$(ls -d "$tmp"/together.staging-* "$tmp"/together.old-* 2>/dev/null)
[ -z "$left" ] && ok "three builds at once: no debris" || fail "three builds at once: left $left"

# --- a read-only disk --------------------------------------------------
mkdir -p "$tmp/ro"
if mount -t tmpfs -o size=16m tmpfs "$tmp/ro" 2>"$tmp/mount.err"; then
	mounts="$tmp/ro $mounts"
	"$Q" build -C "$tmp/small" -o "$tmp/ro/out" >/dev/null 2>&1
	snap "$tmp/ro/out" >"$tmp/before"
	if mount -o remount,ro "$tmp/ro" 2>"$tmp/mount.err"; then
		"$Q" build -C "$tmp/small" -o "$tmp/ro/out" >"$tmp/log" 2>&1
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q "Read-only file system" "$tmp/log"; then
			ok "read-only disk: exit 1, \"Read-only file system\""
		else
			fail "read-only disk: exit $rc: $(head -c 300 "$tmp/log")"
		fi
		untouched "read-only disk" "$tmp/ro/out" "$tmp/before"
	else
		ok "read-only disk # skip cannot remount read-only: $(head -c 100 "$tmp/mount.err")"
	fi
else
	ok "read-only disk # skip cannot mount a tmpfs: $(head -c 100 "$tmp/mount.err")"
fi

# --- a full disk -------------------------------------------------------
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=2m tmpfs "$tmp/full" 2>"$tmp/mount.err"; then
	mounts="$tmp/full $mounts"
	free_k() { df -k "$tmp/full" | awk 'NR == 2 { print $4 }'; }
	# How much the pages alone take on this disk (no PDFs, no exports), and the PDFs.
	"$Q" build --no-pdf --no-export -C "$tmp/small" -o "$tmp/full/probe" >/dev/null 2>&1
	html_k=$(du -sk "$tmp/full/probe" | cut -f1)
	rm -rf "$tmp/full/probe"
	"$Q" build -C "$tmp/small" -o "$tmp/full/out" >"$tmp/log" 2>&1 || fail "full disk: the first build does not fit: $(head -c 200 "$tmp/log")"
	pdf_k=$(du -sk "$tmp/full/out/print" | cut -f1)
	snap "$tmp/full/out" >"$tmp/before"
	# The pages are written first, then the decks' PDFs: room for half
	# the pages fills the disk in a page, room for the pages and half the
	# PDFs in a PDF.
	for phase in pages pdf; do
		rm -f "$tmp/full/filler"
		if [ $phase = pages ]; then keep=$((html_k / 2)); else keep=$((html_k + pdf_k / 2)); fi
		dd if=/dev/zero of="$tmp/full/filler" bs=1k count=$(($(free_k) - keep)) 2>/dev/null
		"$Q" build -C "$tmp/small" -o "$tmp/full/out" >"$tmp/log" 2>&1
		rc=$?
		msg=$(grep 'error: .*No space left on device' "$tmp/log" | head -n 1)
		if [ "$rc" -eq 1 ] && [ -n "$msg" ]; then
			ok "full disk while writing the $phase: exit 1, $(echo "$msg" | sed 's/.*staging-[0-9]*\///')"
		else
			fail "full disk while writing the $phase: exit $rc: $(grep -v warning "$tmp/log" | head -c 300)"
		fi
		if [ $phase = pdf ] && ! echo "$msg" | grep -q 'print/.*\.pdf'; then
			fail "full disk while writing the pdf: the disk filled elsewhere: $msg"
		fi
		untouched "full disk while writing the $phase" "$tmp/full/out" "$tmp/before"
	done
	rm -f "$tmp/full/filler"
else
	ok "full disk # skip cannot mount a tmpfs: $(head -c 100 "$tmp/mount.err")"
fi

# --- output folders that are not ours ----------------------------------
mkdir -p "$tmp/mine"
echo "my thesis" >"$tmp/mine/thesis.txt"
"$Q" build -C "$tmp/small" -o "$tmp/mine" >"$tmp/log" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "refusing to replace $tmp/mine: it holds files but no index.html" "$tmp/log" &&
	[ "$(cat "$tmp/mine/thesis.txt")" = "my thesis" ]; then
	ok "an output folder of someone else's files is refused and left alone"
else
	fail "an output folder of someone else's files: exit $rc: $(head -c 300 "$tmp/log")"
fi
echo "a file" >"$tmp/afile"
"$Q" build -C "$tmp/small" -o "$tmp/afile" >"$tmp/log" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "exists and is not a folder" "$tmp/log" && [ "$(cat "$tmp/afile")" = "a file" ]; then
	ok "an output that is a file is refused and left alone"
else
	fail "an output that is a file: exit $rc: $(head -c 300 "$tmp/log")"
fi
for o in / "$tmp/small" "$tmp/small/content" "$tmp/small/content/guide" "$tmp"; do
	"$Q" build -C "$tmp/small" -o "$o" >"$tmp/log" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "refusing to write the site to" "$tmp/log"; then
		ok "the output folder $o is refused"
	else
		fail "the output folder $o: exit $rc: $(head -c 200 "$tmp/log")"
	fi
done
[ -f "$tmp/small/content/guide/knives.md" ] && ok "the sources are all still there" || fail "a source is gone"
exit 0

#!/bin/sh
# quizdeck serve's rebuild: after each kind of edit, the folder serve
# serves must be byte for byte what `quizdeck build` makes of the edited
# site, every page included: an id, a title or a link changed in one file
# shows on others (backlinks, "Practise this", navigation). A broken edit
# must leave the last good site served. The edits run on a copy of the
# default site, whose questions and cards link into the guide.
# Runs with ./quizdeck, and again with build/asan/quizdeck (ASan and
# UBSan) when it is built: any report from the sanitisers fails.
set -u
Q=${QUIZDECK:-./quizdeck}
case $Q in /*) ;; *) Q=$PWD/$Q ;; esac
label=
tmp=$(mktemp -d)
pid=

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() { echo "ok reload$label $1"; }
notok() { echo "not ok reload$label $1: $2"; }

wait_for() {
	n=$(($1 * 10))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

scenario() {
rm -rf "$tmp/site" "$tmp/run"
mkdir -p "$tmp/site" "$tmp/run"
cp -r site.toml content "$tmp/site/"
# A one-file test beside the default site's folder test.
cat >"$tmp/site/content/quiz/warm-up.md" <<'WARMUP'
+++
title = "Warm-up"
+++

Two questions to start with.

## What does a data-parallel rank hold? {#dp-holds .easy}

- [x] A full copy of the model
- [ ] A slice of every layer

Each rank runs the whole model on its own slice of the batch. See
[data parallelism](../guide/data-parallelism.md).

## What does an all-reduce leave on every rank? {#ar-leaves .easy}

- [x] The sum of every rank's buffer
- [ ] Its own buffer, unchanged

Every rank ends with the same reduced buffer. See
[collectives](../guide/collectives.md).
WARMUP
[ -d themes ] && mkdir -p "$tmp/site/themes" && cp -r themes/default "$tmp/site/themes/"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp TMPDIR=$tmp/run "$Q" serve -C "$tmp/site" --port "$port" >"$tmp/log" 2>&1 &
pid=$!
if ! wait_for 60 grep -q "built in" "$tmp/log"; then
	notok "setup" "serve did not build in 60 s: $(tail -c 400 "$tmp/log")"
	return
fi
sitedir=$(find "$tmp/run" -maxdepth 2 -type d -name site | head -n 1)

# lines PATTERN: how many log lines match.
lines() { grep -c "$1" "$tmp/log"; }
# reacted: serve logged a build or a failure since $before was taken.
reacted() { [ "$(($(lines "rebuilt in") + $(lines "build failed")))" -gt "$before" ]; }

# after_edit NAME HOW FILE SCRIPT: applies the Python SCRIPT (on the
# text `s`) to FILE, waits for serve to finish with it, checks the log
# said HOW ("rebuilt" or "failed") and, unless it failed, compares the
# served folder with a fresh build.
after_edit() {
	name=$1 how=$2 file=$tmp/site/$3 script=$4
	before=$(($(lines "rebuilt in") + $(lines "build failed")))
	python3 - "$file" "$script" <<'EOF'
import sys
path, script = sys.argv[1], sys.argv[2]
s = open(path, encoding="utf-8").read()
t = eval(script, {"s": s})
if t == s:
    sys.exit("the edit changed nothing: " + script)
with open(path + ".tmp", "w", encoding="utf-8") as f:
    f.write(t)
import os
os.rename(path + ".tmp", path)
EOF
	settled "$name" "$how"
}

# after_shell NAME HOW COMMAND: as after_edit, for a change COMMAND makes
# in the site's folder (a file made, moved or removed).
after_shell() {
	name=$1 how=$2
	before=$(($(lines "rebuilt in") + $(lines "build failed")))
	(cd "$tmp/site" && sh -c "$3")
	settled "$name" "$how"
}

# settled NAME HOW: waits for serve to react, then checks as after_edit says.
settled() {
	name=$1 how=$2
	if ! wait_for 60 reacted; then
		notok "$name" "serve did not react in 60 s: $(tail -c 300 "$tmp/log")"
		return
	fi
	last=$(grep -E "rebuilt in|build failed" "$tmp/log" | tail -n 1)
	case $how:$last in
	rebuilt:*"rebuilt in"* | failed:*"build failed"*) ;;
	*)
		notok "$name" "want $how, log says: $last"
		return
		;;
	esac
	if [ "$how" = failed ]; then
		ok "$name"
		return
	fi
	rm -rf "$tmp/fresh"
	# serve writes the pages, not the PDFs, the exports or the offline files.
	if ! "$Q" build -C "$tmp/site" -o "$tmp/fresh" --no-pdf --no-offline --no-export >"$tmp/fresh.log" 2>&1; then
		notok "$name" "the fresh build failed: $(head -c 300 "$tmp/fresh.log")"
		return
	fi
	if d=$(diff -r "$sitedir" "$tmp/fresh" 2>&1); then
		ok "$name ($how, same as a fresh build)"
	else
		notok "$name" "served folder differs from a fresh build: $(echo "$d" | head -c 600)"
	fi
}

T=content/quiz/distributed-training
after_edit "a question's stem" rebuilt "$T/collectives.md" \
	's.replace("A ring all-reduce runs in two phases. Which two?", "A ring all-reduce has two phases. Which?")'
after_edit "an option's feedback" rebuilt "$T/collectives.md" \
	's.replace("it funnels all the data through one rank", "it sends all the data through one rank")'
after_edit "an explanation gains a link into another chapter" rebuilt "$T/collectives.md" \
	's.replace("almost independent of N.", "almost independent of N (see [ZeRO](../../guide/zero-fsdp.md)).", 1)'
after_edit "that link removed again" rebuilt "$T/collectives.md" \
	's.replace(" (see [ZeRO](../../guide/zero-fsdp.md))", "", 1)'
after_edit "a card's back" rebuilt content/cards/distributed-training.md \
	's.replace("processes a different slice of the batch", "works on its own slice of the batch", 1)'
after_edit "a chapter's paragraph" rebuilt content/guide/collectives.md \
	's.replace("## Ring all-reduce {#ring-all-reduce}\n", "## Ring all-reduce {#ring-all-reduce}\n\nA sentence added by a test.\n", 1)'
after_edit "a chapter shows a question in place" rebuilt content/guide/collectives.md \
	's.replace("A sentence added by a test.\n", "A sentence added by a test.\n\n[Check yourself](../quiz/distributed-training/collectives.md#ring-phases)\n", 1)'
after_edit "that question's stem, shown in the chapter" rebuilt "$T/collectives.md" \
	's.replace("A ring all-reduce has two phases. Which?", "A ring all-reduce has two phases: which?")'
after_edit "that question's feedback, shown in the chapter" rebuilt "$T/collectives.md" \
	's.replace("every GPU sends and receives the same amount.", "every GPU sends and receives as much as the others.", 1)'
after_edit "that question's topic gains a link the chapter's copy shows" rebuilt "$T/collectives.md" \
	's.replace("almost independent of N.", "almost independent of N (see [ZeRO](../../guide/zero-fsdp.md)).", 1)'
after_edit "a chapter's heading renamed" rebuilt content/guide/collectives.md \
	's.replace("## Bandwidth in practice {#bandwidth-in-practice}", "## Bandwidth as measured {#bandwidth-in-practice}", 1)'
after_edit "a question's difficulty" rebuilt "$T/collectives.md" \
	's.replace("{#ring-phases .easy}", "{#ring-phases .medium}", 1)'
after_edit "front matter" rebuilt "$T/collectives.md" \
	's.replace("title = \"Collectives and their cost\"", "title = \"Collectives, and what they cost\"", 1)'
after_edit "a broken link" failed "$T/collectives.md" \
	's.replace("#ring-all-reduce)", "#no-such-section)", 1)'
after_edit "the link fixed" rebuilt "$T/collectives.md" \
	's.replace("#no-such-section)", "#ring-all-reduce)", 1)'
after_edit "an edit after the rebuild" rebuilt "$T/collectives.md" \
	's.replace("A ring all-reduce has two phases: which?", "A ring all-reduce runs in two phases. Which two?")'
after_edit "a test's introduction" rebuilt "$T/_index.md" \
	's.replace("The easy questions check vocabulary", "The easy questions test vocabulary", 1)'
after_edit "a test's introduction gains a link" rebuilt "$T/_index.md" \
	's.replace("what crosses the network", "what crosses the [network](../../guide/collectives.md)", 1)'
after_edit "a one-file test's question" rebuilt content/quiz/warm-up.md \
	's.replace("What does a data-parallel rank hold?", "What does each data-parallel rank hold?", 1)'
after_edit "a one-file test's introduction" rebuilt content/quiz/warm-up.md \
	's.replace("Two questions to start with.", "Two easy questions to start with.", 1)'
after_edit "the home page's paragraph" rebuilt content/index.md \
	's.replace("Start with the", "Begin with the", 1)'
after_edit "the home page's heading renamed, its id kept" rebuilt content/index.md \
	's.replace("## In print {#in-print}", "## On paper {#in-print}", 1)'
after_edit "the home page gains a heading" rebuilt content/index.md \
	's.replace("## Offline {#offline}", "## Offline {#offline}\n\n## A new part\n\nText.", 1)'
# What one file shows on other pages.
after_edit "a question's id, shown in a chapter's backlinks" rebuilt "$T/data-parallel.md" \
	's.replace("{#zero1-shards .easy}", "{#zero1-parts .easy}", 1)'
after_edit "a section's title, shown beside the questions linking to it" rebuilt content/guide/zero-fsdp.md \
	's.replace("## ZeRO stages {#zero-stages}", "## The ZeRO stages {#zero-stages}", 1)'
after_edit "a chapter's title, shown in every chapter's navigation" rebuilt content/guide/zero-fsdp.md \
	's.replace("title = \"ZeRO and FSDP\"", "title = \"ZeRO, and FSDP\"", 1)'
after_edit "a card gains a link into a chapter" rebuilt content/cards/distributed-training.md \
	's.replace("keeps a full copy of the model", "keeps a full copy of the model (see [ZeRO](../guide/zero-fsdp.md#zero-stages))", 1)'
after_edit "a card's front, shown in that chapter's backlinks" rebuilt content/cards/distributed-training.md \
	's.replace("## What is data parallelism? {#dp}", "## What does data parallelism mean? {#dp}", 1)'
# Pages made and removed by an edit: none may be left behind.
after_shell "a new chapter" rebuilt \
	'printf "+++\ntitle = \"Extra\"\n+++\n\nLinks to [collectives](collectives.md).\n" >content/guide/extra.md'
after_shell "that chapter removed" rebuilt 'rm content/guide/extra.md'
after_shell "a new image no page links to" rebuilt 'cp content/guide/ring-all-reduce.svg content/guide/ring-copy.svg'
after_edit "a chapter links that image" rebuilt content/guide/collectives.md \
	's.replace("## Ring all-reduce {#ring-all-reduce}\n", "## Ring all-reduce {#ring-all-reduce}\n\n![A copy](ring-copy.svg)\n", 1)'
after_shell "that image redrawn" rebuilt \
	'printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"/>\n" >content/guide/ring-copy.svg'
after_edit "the image's link removed" rebuilt content/guide/collectives.md \
	's.replace("\n![A copy](ring-copy.svg)\n", "", 1)'
# What one file decides for another's questions.
after_edit "a question loses its difficulty" rebuilt "$T/collectives.md" \
	's.replace("{#ring-phases .medium}", "{#ring-phases}", 1)'
after_edit "the test's default difficulty, which that question takes" rebuilt "$T/_index.md" \
	's.replace("+++\n\n", "difficulty = \"hard\"\n+++\n\n", 1)'
after_edit "a question marked a sample" rebuilt "$T/collectives.md" \
	's.replace("{#small-messages .medium}", "{#small-messages .medium .sample}", 1)'
after_edit "the question shown in place removed" rebuilt content/guide/collectives.md \
	's.replace("\n[Check yourself](../quiz/distributed-training/collectives.md#ring-phases)\n", "", 1)'
after_edit "a deck's description" rebuilt content/cards/distributed-training.md \
	's.replace("Cards on splitting", "Cards about splitting", 1)'
after_edit "site.toml's title, on every page" rebuilt site.toml \
	's.replace("title = \"", "title = \"My ", 1)'
# The pieces serve keeps say the learner's strings: a change of wording or language redoes them.
after_edit "a string of site.toml's [strings], in every question" rebuilt site.toml \
	's + "\n[strings]\n\"html.reveal\" = \"Show me\"\n"'
after_edit "site.toml's language" rebuilt site.toml \
	's.replace("language = \"en\"", "language = \"de\"", 1)'
# A chapter not parsed again (its file unchanged) still says what it said.
after_shell "a chapter with a warning" rebuilt \
	'printf "+++\ntitle = \"Warned\"\n+++\n\n## Part {#part .wide}\n\nText.\n" >content/guide/warned.md'
warned=$(grep -c 'warned.md:5:.*warning' "$tmp/log")
after_edit "another chapter's paragraph" rebuilt content/guide/collectives.md \
	's.replace("A sentence added by a test.", "A sentence a test added.", 1)'
if [ "$warned" -ge 1 ] && [ "$(grep -c 'warned.md:5:.*warning' "$tmp/log")" -eq $((warned + 1)) ]; then
	ok "an unchanged chapter's warning is reported on every rebuild"
else
	notok "an unchanged chapter's warning is reported on every rebuild" \
	    "$warned, then $(grep -c 'warned.md:5:.*warning' "$tmp/log") times: $(grep warned.md "$tmp/log" | tail -n 2)"
fi
# An edit writes only the pages it changed: the rest keep their files.
chapter=$sitedir/guide/pipeline/index.html
inode=$(stat -c %i "$chapter" 2>/dev/null)
after_edit "a card's back again" rebuilt content/cards/distributed-training.md \
	's.replace("works on its own slice of the batch", "processes its own slice of the batch", 1)'
if [ -n "$inode" ] && [ "$(stat -c %i "$chapter" 2>/dev/null)" = "$inode" ]; then
	ok "a page the edit did not change is not written again"
else
	notok "a page the edit did not change is not written again" \
	    "guide/pipeline/index.html was replaced (inode $inode, now $(stat -c %i "$chapter" 2>/dev/null))"
fi

kill -INT "$pid"
wait_for 20 sh -c "! kill -0 $pid" && ok "stops on SIGINT" || notok "stops on SIGINT" "still running"
pid=
if grep -q "Sanitizer" "$tmp/log"; then
	notok "no sanitizer report" "$(grep -A 8 Sanitizer "$tmp/log" | head -c 800)"
else
	ok "no sanitizer report"
fi
}

scenario
if [ -z "${QUIZDECK:-}" ] && [ -x build/asan/quizdeck ]; then
	Q=$PWD/build/asan/quizdeck
	label=" (asan)"
	scenario
fi

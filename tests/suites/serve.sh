#!/bin/sh
# quizdeck serve: pages served with the reload script (and the built
# files without it), content types, folders, 404 and refused paths; an
# edit rebuilds and sends the reload event; a broken edit sends the
# error for the overlay and keeps the last good site; a new sub-folder
# is watched; SIGINT stops cleanly; --bind. Every wait is bounded; all
# traffic stays on this machine.
set -u
Q=${QUIZDECK:-./quizdeck}
case $Q in /*) ;; *) Q=$PWD/$Q ;; esac
tmp=$(mktemp -d)
pid=
ssepid=
pid2=

cleanup() {
	for p in $ssepid $pid $pid2; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() { echo "ok serve $1"; }
notok() { echo "not ok serve $1: $2"; }

# wait_for SECONDS CMD...: runs CMD every 0.1 s until it succeeds.
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

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# get PATH: fetches into $tmp/body; prints "status content-type".
get() {
	curl -s --max-time 10 --path-as-is -o "$tmp/body" -w '%{http_code} %{content_type}' "$base$1"
}

# expect_get NAME PATH STATUS [TYPE-PREFIX]
expect_get() {
	got=$(get "$2")
	code=${got%% *}
	type=${got#* }
	if [ "$code" != "$3" ]; then
		notok "$1" "GET $2: status $code, want $3"
	elif [ -n "${4:-}" ] && case $type in "$4"*) false ;; *) true ;; esac; then
		notok "$1" "GET $2: content type \"$type\", want $4"
	else
		ok "$1"
	fi
}

# stopped PID: the process is gone.
stopped() { ! kill -0 "$1" 2>/dev/null; }

if ! "$Q" new "$tmp/site" >/dev/null 2>"$tmp/err"; then
	notok "setup" "quizdeck new failed: $(head -c 300 "$tmp/err")"
	exit 0
fi
mkdir -p "$tmp/run"
port=$(free_port)
base=http://127.0.0.1:$port
TMPDIR=$tmp/run "$Q" serve -C "$tmp/site" --port "$port" >"$tmp/log" 2>&1 &
pid=$!

if wait_for 60 curl -sf --max-time 2 "$base/"; then
	ok "starts and answers on 127.0.0.1"
else
	notok "starts and answers on 127.0.0.1" "no answer on $base/ in 60 s: $(tail -c 400 "$tmp/log")"
	exit 0
fi
grep -q "serving .* on http://127.0.0.1:$port/" "$tmp/log" &&
	ok "says where it serves" || notok "says where it serves" "$(head -c 300 "$tmp/log")"

# --- what is served ---------------------------------------------------------

expect_get "the home page is HTML" / 200 text/html
grep -q '<script src="/__quizdeck/reload.js" data-generation="[0-9-]*"></script></body>' "$tmp/body" &&
	ok "served HTML gets the reload script before </body>" ||
	notok "served HTML gets the reload script before </body>" "not in $(tail -c 200 "$tmp/body")"
sitedir=$(find "$tmp/run" -maxdepth 2 -type d -name site | head -n 1)
if [ -z "$sitedir" ] || [ ! -f "$sitedir/index.html" ]; then
	notok "builds into a private folder" "no site/index.html below \$TMPDIR"
else
	ok "builds into a private folder"
	if grep -rl "__quizdeck" "$sitedir" >/dev/null 2>&1; then
		notok "built files carry no reload script" "$(grep -rl __quizdeck "$sitedir" | head -n 3)"
	else
		ok "built files carry no reload script"
	fi
fi
[ -e "$tmp/site/out" ] && notok "leaves out/ alone" "serve wrote $tmp/site/out" ||
	ok "leaves out/ alone"
expect_get "reload.js is a script" /__quizdeck/reload.js 200 text/javascript
css=$(cd "$sitedir" && find assets -name '*.css' | head -n 1)
js=$(cd "$sitedir" && find assets -name '*.js' | head -n 1)
[ -n "$css" ] && expect_get "CSS as text/css" "/$css" 200 text/css
[ -n "$js" ] && expect_get "scripts as text/javascript" "/$js" 200 text/javascript
if wait_for 30 curl -sf --max-time 2 -o /dev/null "$base/print/basics.pdf"; then
	expect_get "PDFs as application/pdf" /print/basics.pdf 200 application/pdf
else
	notok "PDFs as application/pdf" "no /print/basics.pdf in 30 s"
fi
expect_get "a folder serves its index.html" /guide/getting-started/ 200 text/html
got=$(curl -s --max-time 5 -o /dev/null -w '%{http_code} %{redirect_url}' "$base/guide/getting-started")
case $got in
"302 $base/guide/getting-started/") ok "a folder without its slash is redirected to it" ;;
*) notok "a folder without its slash is redirected to it" "got $got" ;;
esac
expect_get "a missing page is 404" /no/such/page.html 404 text/html
sed 's|<script src="/__quizdeck/reload.js" data-generation="[0-9-]*"></script>||' "$tmp/body" >"$tmp/body404"
cmp -s "$tmp/body404" "$sitedir/404.html" && ok "with the body of 404.html" ||
	notok "with the body of 404.html" "differs from $sitedir/404.html"
expect_get "a path with .. is refused" /../site.toml 403
expect_get "an encoded .. is refused" '/%2e%2e/%2e%2e/etc/passwd' 403
ln -s / "$sitedir/escape"
expect_get "a symbolic link out of the site is refused" /escape/etc/passwd 403
rm -f "$sitedir/escape"
got=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -X POST "$base/")
[ "$got" = 405 ] && ok "POST is refused" || notok "POST is refused" "status $got"

# --- rebuilds -----------------------------------------------------------------

curl -sN --max-time 120 "$base/__quizdeck/events" >"$tmp/sse" 2>/dev/null &
ssepid=$!
if wait_for 10 grep -q '^event: hello' "$tmp/sse"; then
	ok "the event stream says hello"
else
	notok "the event stream says hello" "got: $(head -c 200 "$tmp/sse")"
fi

reloads() { grep -c '^event: reload' "$tmp/sse"; }
has_reloads() { [ "$(reloads)" -ge "$1" ]; }
page_has() { curl -s --max-time 5 "$base$1" | grep -q "$2"; }

chapter=$tmp/site/content/guide/getting-started.md
sed 's/Everything about the site/Everything (edited once) about the site/' "$chapter" >"$tmp/edit"
cat "$tmp/edit" >"$chapter"
if wait_for 15 has_reloads 1; then
	ok "an edit sends the reload event"
else
	notok "an edit sends the reload event" "got: $(tail -c 300 "$tmp/sse"); log: $(tail -c 300 "$tmp/log")"
fi
wait_for 5 page_has /guide/getting-started/ "edited once" && ok "and the change is served" ||
	notok "and the change is served" "no \"edited once\" on /guide/getting-started/"

# A question with no correct option is an error.
topic=$tmp/site/content/quiz/first-test/basics.md
cp "$topic" "$tmp/topic.good"
sed 's/^- \[x\] site.toml/- [ ] site.toml/' "$tmp/topic.good" >"$topic"
if wait_for 15 grep -q '^event: build-error' "$tmp/sse"; then
	ok "a broken edit sends the error event"
else
	notok "a broken edit sends the error event" "got: $(tail -c 300 "$tmp/sse")"
fi
grep -q '^data: content/quiz/first-test/basics.md:[0-9]*:[0-9]*: error: ' "$tmp/sse" &&
	ok "the event carries file:line:col and the error" ||
	notok "the event carries file:line:col and the error" "$(grep '^data' "$tmp/sse" | tail -n 2)"
grep -q 'basics.md:[0-9]*:[0-9]*: error: ' "$tmp/log" && ok "the error shows in the terminal" ||
	notok "the error shows in the terminal" "$(tail -c 300 "$tmp/log")"
expect_get "the last good site stays served" /quiz/first-test/ 200 text/html
page_has /guide/getting-started/ "edited once" && ok "with the last good content" ||
	notok "with the last good content" "the edit is gone"
curl -sN --max-time 2 "$base/__quizdeck/events" >"$tmp/sse2" 2>/dev/null
grep -q '^event: build-error' "$tmp/sse2" && ok "a tab opened now learns of the error" ||
	notok "a tab opened now learns of the error" "$(head -c 200 "$tmp/sse2")"

cp "$tmp/topic.good" "$topic"
wait_for 15 has_reloads 2 && ok "the fix sends a reload" ||
	notok "the fix sends a reload" "$(tail -c 300 "$tmp/sse")"

# A new sub-folder: created, then its file edited once it is watched.
mkdir "$tmp/site/content/guide/part"
printf '+++\ntitle = "More"\n+++\n\n## First {#first}\n\nVersion one.\n' >"$tmp/site/content/guide/part/more.md"
if wait_for 15 page_has /guide/part/more/ "Version one"; then
	ok "a file in a new sub-folder is built"
	printf '+++\ntitle = "More"\n+++\n\n## First {#first}\n\nVersion two.\n' >"$tmp/site/content/guide/part/more.md"
	wait_for 15 page_has /guide/part/more/ "Version two" && ok "and the new sub-folder is watched" ||
		notok "and the new sub-folder is watched" "the second edit was not built"
else
	notok "a file in a new sub-folder is built" "no /guide/part/more/: $(tail -c 300 "$tmp/log")"
fi

# --- the edges ------------------------------------------------------------------

TMPDIR=$tmp/run "$Q" serve -C "$tmp/site" --port "$port" >"$tmp/log2" 2>&1 &
pid2=$!
if wait_for 10 stopped "$pid2"; then
	wait "$pid2"
	rc=$?
	pid2=
	[ "$rc" -eq 1 ] && grep -q "cannot listen on 127.0.0.1:$port" "$tmp/log2" &&
		ok "a taken port is an error that says so" ||
		notok "a taken port is an error that says so" "exit $rc: $(head -c 200 "$tmp/log2")"
else
	notok "a taken port is an error that says so" "the second server did not exit"
fi

# A site that does not build yet: an error page until it does.
"$Q" new "$tmp/broken" >/dev/null 2>&1
sed 's/^- \[x\] site.toml/- [ ] site.toml/' "$tmp/topic.good" >"$tmp/broken/content/quiz/first-test/basics.md"
port2=$(free_port)
TMPDIR=$tmp/run "$Q" serve -C "$tmp/broken" --port "$port2" >"$tmp/log3" 2>&1 &
pid2=$!
if wait_for 30 sh -c "curl -s --max-time 2 http://127.0.0.1:$port2/ | grep -q 'has no correct option'"; then
	ok "before the first good build an error page is served"
	cp "$tmp/topic.good" "$tmp/broken/content/quiz/first-test/basics.md"
	wait_for 15 sh -c "curl -sf --max-time 2 -o /dev/null http://127.0.0.1:$port2/quiz/first-test/" &&
		ok "and the site once fixed" || notok "and the site once fixed" "$(tail -c 300 "$tmp/log3")"
else
	notok "before the first good build an error page is served" "$(tail -c 300 "$tmp/log3")"
fi
kill -INT "$pid2"
wait_for 10 stopped "$pid2"
pid2=

# --- the address: 127.0.0.1 unless --bind says otherwise -----------------------

# This machine's address on its network, if it has one (traffic to it stays on this machine).
other=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -m 1 '^[0-9.]*$')
if [ -n "$other" ]; then
	curl -s --max-time 2 -o /dev/null "http://$other:$port/"
	rc=$?
	[ "$rc" -eq 7 ] && ok "by default it does not answer on $other" ||
		notok "by default it does not answer on $other" "curl exit $rc, want 7 (refused)"
	port2=$(free_port)
	TMPDIR=$tmp/run "$Q" serve -C "$tmp/site" --port "$port2" --bind 0.0.0.0 >"$tmp/log4" 2>&1 &
	pid2=$!
	if wait_for 60 curl -sf --max-time 2 -o /dev/null "http://$other:$port2/"; then
		ok "--bind 0.0.0.0 answers on $other"
		curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$port2/" && ok "and on 127.0.0.1" ||
			notok "and on 127.0.0.1" "no answer"
		line="quizdeck: serving $tmp/site on http://0.0.0.0:$port2/ (that is, on every address of this machine; Ctrl-C to stop)"
		grep -qxF "$line" "$tmp/log4" && ok "and says it serves on every address" ||
			notok "and says it serves on every address" "$(head -c 300 "$tmp/log4")"
	else
		notok "--bind 0.0.0.0 answers on $other" "$(tail -c 300 "$tmp/log4")"
	fi
	kill -INT "$pid2"
	wait_for 10 stopped "$pid2"
	pid2=
else
	echo "skip serve --bind 0.0.0.0: this machine has no address but 127.0.0.1"
fi
if curl -s --max-time 2 -o /dev/null "http://[::1]:1/"; [ $? -eq 7 ]; then
	port2=$(free_port)
	TMPDIR=$tmp/run "$Q" serve -C "$tmp/site" --port "$port2" --bind ::1 >"$tmp/log5" 2>&1 &
	pid2=$!
	if wait_for 60 curl -sf --max-time 2 -o /dev/null "http://[::1]:$port2/"; then
		ok "--bind ::1 answers on IPv6"
		grep -qF "on http://[::1]:$port2/ (Ctrl-C to stop)" "$tmp/log5" && ok "and writes the address in brackets" ||
			notok "and writes the address in brackets" "$(head -c 300 "$tmp/log5")"
	else
		notok "--bind ::1 answers on IPv6" "$(tail -c 300 "$tmp/log5")"
	fi
	kill -INT "$pid2"
	wait_for 10 stopped "$pid2"
	pid2=
else
	echo "skip serve --bind ::1: no IPv6 loopback here"
fi

# --- stopping ---------------------------------------------------------------------

kill -INT "$pid"
if wait_for 15 stopped "$pid"; then
	wait "$pid"
	rc=$?
	pid=
	[ "$rc" -eq 0 ] && ok "SIGINT stops it with status 0" || notok "SIGINT stops it with status 0" "exit $rc"
	left=$(find "$tmp/run" -mindepth 1 -maxdepth 1 | head -n 3)
	[ -z "$left" ] && ok "and removes its private folder" || notok "and removes its private folder" "left $left"
	left=$(find "$tmp/site" -maxdepth 1 -name '*.staging-*' | head -n 3)
	[ -z "$left" ] && ok "and leaves no staging folder" || notok "and leaves no staging folder" "left $left"
	grep -q "stopped" "$tmp/log" && ok "and says so" || notok "and says so" "$(tail -c 200 "$tmp/log")"
else
	notok "SIGINT stops it with status 0" "still running 15 s after SIGINT"
fi
if wait_for 5 stopped "$ssepid"; then
	ssepid=
	ok "open event streams end with it"
else
	notok "open event streams end with it" "curl still reading"
fi
exit 0

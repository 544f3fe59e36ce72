#!/bin/sh
# The files a build writes for a hosted site to work offline: the service
# worker's list holds every other file with the first 16 hex digits of the
# SHA-256 of its bytes (checked here against the files themselves), in byte
# order, downloads marked on-demand, and a version that is the hash of the
# list; a rebuild gives the same bytes, and a content change a new version
# and a new hash for the page changed only. The manifest has what an
# installable app needs (Chromium's criteria: name, start_url, display
# standalone, PNG icons of 192 and 512 px), in the theme's colours, and
# icons of those sizes painted in them. `quizdeck serve` and `build
# --no-offline` write none of it and their pages link none of it.
set -u
Q=${QUIZDECK:-./quizdeck}
case $Q in /*) ;; *) Q=$PWD/$Q ;; esac
tmp=$(mktemp -d)
pid=

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() { echo "ok offline $1"; }
notok() { echo "not ok offline $1: $2"; }

if ! "$Q" new "$tmp/site" >/dev/null 2>"$tmp/err"; then
	notok "setup" "quizdeck new failed: $(head -c 300 "$tmp/err")"
	exit 0
fi
# A theme of its own, its palette changed, so the colours are seen to come from it.
mkdir -p "$tmp/site/themes"
cp -R themes/default "$tmp/site/themes/mine"
sed -i 's/^theme = .*//; 1i theme = "mine"' "$tmp/site/site.toml"
sed -i '0,/--accent: #[0-9a-f]*;/s//--accent: #a31;/; 0,/--bg: #[0-9a-f]*;/s//--bg: #fafafa;/' \
	"$tmp/site/themes/mine/assets/style.css"

build() {
	if "$Q" build -q -C "$tmp/site" -o "$1" 2>"$tmp/err"; then
		return 0
	fi
	notok "setup" "the build failed: $(head -c 300 "$tmp/err")"
	exit 0
}
build "$tmp/a"
build "$tmp/b"

# check.py DIR: one line per check of the list, the manifest and the icons.
cat >"$tmp/check.py" <<'EOF'
import hashlib, json, os, re, struct, sys, zlib

out = sys.argv[1]
def say(ok, what, why=""):
    print(("ok offline " if ok else "not ok offline ") + what + ("" if ok else ": " + why))

sw = open(os.path.join(out, "sw.js"), encoding="utf-8").read()
m = re.search(r'^self\.QUIZDECK_OFFLINE = \{\n"version": "([0-9a-f]{16})",\n"files": \[\n(.*)\n\]\n\};\n'
              r'importScripts\("assets/offline-worker\.js"\);\n\Z', sw, re.S | re.M)
say(m is not None, "sw.js is the list and the worker's import", sw[:300])
if m:
    version, text = m.group(1), m.group(2)
    entries = json.loads("[" + text + "]")
    files = sorted(os.path.relpath(os.path.join(d, f), out).encode()
                   for d, _, fs in os.walk(out) for f in fs)
    files = [f.decode() for f in files if f != b"sw.js"]
    listed = [e[0] for e in entries]
    say(listed == files, "the list holds every file but sw.js, in byte order",
        "missing %s, extra %s, or out of order" % (sorted(set(files) - set(listed))[:5], sorted(set(listed) - set(files))[:5]))
    bad = [e[0] for e in entries
           if e[1] != hashlib.sha256(open(os.path.join(out, e[0]), "rb").read()).hexdigest()[:16]]
    say(not bad, "each hash is the SHA-256 of the file's bytes", str(bad[:5]))
    marks = {e[0]: e[2] if len(e) > 2 else None for e in entries}
    wrong = [p for p, k in marks.items() if (k == "on-demand") != p.startswith(("print/", "export/"))]
    say(not wrong and any(p.startswith("print/") for p in marks),
        "the PDFs, and nothing else, are on-demand", str(wrong[:5]))
    say(version == hashlib.sha256(text.encode()).hexdigest()[:16], "the version is the hash of the list", version)
    for need in ("index.html", "offline.html", "manifest.webmanifest", "icon-192.png", "icon-512.png",
                 "assets/offline.js", "assets/offline-worker.js"):
        if need not in listed:
            say(False, "the list holds " + need, "it does not")

man = json.load(open(os.path.join(out, "manifest.webmanifest"), encoding="utf-8"))
title = re.search(r'^title = "(.*)"', open(sys.argv[2], encoding="utf-8").read(), re.M).group(1)
say(man.get("name") == title, "the manifest's name is the site's title", repr(man.get("name")))
say(0 < len(man.get("short_name", "")) <= 12 and title.startswith(man["short_name"]),
    "its short_name is the title cut to 12 characters at a word", repr(man.get("short_name")))
say((man.get("start_url"), man.get("scope"), man.get("display")) == ("./index.html", "./", "standalone"),
    "start_url, scope and display: relative, so any path hosts it; standalone", repr(man))
say((man.get("theme_color"), man.get("background_color")) == ("#aa3311", "#fafafa"),
    "its colours are the theme's --accent and --bg", repr((man.get("theme_color"), man.get("background_color"))))

def png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h, depth, ctype = struct.unpack(">IIBB", data[16:26])
    idat, pos = b"", 8
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    # The first pixel of the first row is its bytes under every PNG filter.
    bpp = {2: 3, 6: 4}[ctype]
    return w, h, tuple(raw[1:4]), bpp

sizes = set()
for icon in man.get("icons", []):
    w, h, corner, _ = png(os.path.join(out, icon["src"]))
    ok = icon["type"] == "image/png" and icon["sizes"] == "%dx%d" % (w, h) and w == h
    say(ok, "icon %s is a %s PNG" % (icon["src"], icon["sizes"]), "it is %dx%d" % (w, h))
    say(corner == (0xaa, 0x33, 0x11), "icon %s is painted in the accent to its corners" % icon["src"], str(corner))
    if "any" in icon.get("purpose", "any").split():
        sizes.add(icon["sizes"])
say({"192x192", "512x512"} <= sizes, "icons of 192 and 512 px for any purpose", str(sizes))
EOF
python3 "$tmp/check.py" "$tmp/a" "$tmp/site/site.toml"

if diff -r "$tmp/a" "$tmp/b" >"$tmp/diff" 2>&1; then
	ok "a rebuild writes the same bytes"
else
	notok "a rebuild writes the same bytes" "$(head -c 300 "$tmp/diff")"
fi

version() { sed -n 's/^"version": "\(.*\)",$/\1/p' "$1/sw.js"; }
hash_of() { grep "^\[\"$2\"" "$1/sw.js"; }
v1=$(version "$tmp/a")
card=$(find "$tmp/site/content/cards" -name '*.md' | head -n 1)
printf '\n## A card added\n\nIts back.\n' >>"$card"
build "$tmp/c"
v2=$(version "$tmp/c")
if [ -n "$v1" ] && [ -n "$v2" ] && [ "$v1" != "$v2" ]; then
	ok "a content change changes the version ($v1, $v2)"
else
	notok "a content change changes the version" "$v1, then $v2"
fi
deck=$(cd "$tmp/c" && ls cards | head -n 1)
if [ "$(hash_of "$tmp/a" "cards/$deck/index.html")" != "$(hash_of "$tmp/c" "cards/$deck/index.html")" ] &&
	[ "$(hash_of "$tmp/a" assets/style.css)" = "$(hash_of "$tmp/c" assets/style.css)" ]; then
	ok "and the changed page's hash, not the stylesheet's"
else
	notok "and the changed page's hash, not the stylesheet's" "$(hash_of "$tmp/c" "cards/$deck/index.html")"
fi

# The pages link the manifest and the registration, rewritten for their depth.
if grep -q 'assets/offline.js' "$tmp/a/index.html" && grep -q 'rel="manifest" href="manifest.webmanifest"' "$tmp/a/index.html" &&
	grep -q 'href="../../manifest.webmanifest"' "$tmp/a/cards/$deck/index.html"; then
	ok "built pages link the manifest and offline.js, relative to their depth"
else
	notok "built pages link the manifest and offline.js, relative to their depth" "$(grep -c offline "$tmp/a/index.html")"
fi
if grep -q '<h1>You are offline</h1>' "$tmp/a/offline.html" && ! grep -q 'Page not found' "$tmp/a/offline.html" &&
	grep -q 'class="page-offline"' "$tmp/a/offline.html"; then
	ok "offline.html is the theme's page saying the page is not saved"
else
	notok "offline.html is the theme's page saying the page is not saved" "$(grep -o '<h1>.*</h1>' "$tmp/a/offline.html")"
fi
if ! grep -q 'You are offline' "$tmp/a/404.html" && grep -q 'Page not found' "$tmp/a/404.html"; then
	ok "404.html stays the 404 page"
else
	notok "404.html stays the 404 page" "$(grep -o '<h1>.*</h1>' "$tmp/a/404.html")"
fi

# --no-offline: none of it, and the pages link none of it.
if "$Q" build -q --no-offline -C "$tmp/site" -o "$tmp/none" 2>"$tmp/err"; then
	found=$(cd "$tmp/none" && ls sw.js manifest.webmanifest offline.html icon-192.png icon-512.png 2>/dev/null)
	linked=$(grep -rl 'offline.js\|rel="manifest"' "$tmp/none" --include='*.html')
	if [ -z "$found$linked" ]; then
		ok "build --no-offline writes and links no offline file"
	else
		notok "build --no-offline writes and links no offline file" "$found $linked"
	fi
else
	notok "build --no-offline writes and links no offline file" "the build failed: $(head -c 300 "$tmp/err")"
fi

# serve: no worker, no manifest, no link to either (a cache would fight live reload).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
mkdir -p "$tmp/run"
TMPDIR=$tmp/run "$Q" serve -C "$tmp/site" --port "$port" >"$tmp/log" 2>&1 &
pid=$!
n=600
until curl -sf --max-time 2 -o "$tmp/home" "$base/" || [ "$n" -eq 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
if [ "$n" -eq 0 ]; then
	notok "serve" "no answer on $base/ in 60 s: $(tail -c 300 "$tmp/log")"
	exit 0
fi
if grep -q 'offline.js\|rel="manifest"' "$tmp/home"; then
	notok "serve's pages link no worker or manifest" "$(grep -o '<link rel="manifest"[^>]*>' "$tmp/home")"
else
	ok "serve's pages link no worker or manifest"
fi
for f in sw.js manifest.webmanifest offline.html icon-192.png; do
	code=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$base/$f")
	if [ "$code" = 404 ]; then
		ok "serve has no $f"
	else
		notok "serve has no $f" "GET /$f: $code"
	fi
done
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=

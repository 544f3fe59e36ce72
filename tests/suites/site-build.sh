#!/bin/sh
# Building the site: two builds are byte-identical; a failed build leaves
# the previous output untouched and no staging folder behind; a theme that
# does not exist is a clear error; a site without themes/ uses the default.
set -u
cd "$(dirname "$0")/../.." || exit 2
Q=${QUIZDECK:-./quizdeck}
Q=$(cd "$(dirname "$Q")" && pwd)/$(basename "$Q")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same NAME DIR1 DIR2: the two trees are byte-identical.
same() {
	if diff -r "$2" "$3" >"$tmp/diff" 2>&1; then
		echo "ok site-build $1"
	else
		echo "not ok site-build $1: $(head -n 5 "$tmp/diff" | tr '\n' ' ')"
	fi
}

# Determinism: the default site with PDFs, and a fixture.
if "$Q" build -o "$tmp/a" >"$tmp/log" 2>&1 && "$Q" build -o "$tmp/b" >>"$tmp/log" 2>&1; then
	same "default site: two builds are identical" "$tmp/a" "$tmp/b"
else
	echo "not ok site-build default site: the build failed: $(head -c 300 "$tmp/log")"
fi
if "$Q" build -C tests/golden/site --no-pdf -o "$tmp/c" >"$tmp/log" 2>&1 &&
    "$Q" build -C tests/golden/site --no-pdf -o "$tmp/d" >>"$tmp/log" 2>&1; then
	same "fixture: two builds are identical" "$tmp/c" "$tmp/d"
else
	echo "not ok site-build fixture: the build failed: $(head -c 300 "$tmp/log")"
fi

# A failed build: the previous out/ stays exactly as it was.
cp -R tests/golden/site "$tmp/site"
rm -rf "$tmp/site/out"
if (cd "$tmp/site" && "$Q" build --no-pdf >"$tmp/log" 2>&1); then
	cp -R "$tmp/site/out" "$tmp/before"
	printf '\nA [broken link](nowhere.md#nothing).\n' >>"$tmp/site/content/guide/knives.md"
	(cd "$tmp/site" && "$Q" build --no-pdf >"$tmp/log" 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ]; then
		echo "ok site-build a broken link fails the build"
	else
		echo "not ok site-build a broken link fails the build: exit $rc"
	fi
	same "a failed build leaves out/ untouched" "$tmp/before" "$tmp/site/out"
	left=$(find "$tmp/site" -maxdepth 1 -name 'out.*')
	if [ -z "$left" ]; then
		echo "ok site-build a failed build leaves no staging folder"
	else
		echo "not ok site-build a failed build leaves no staging folder: $left"
	fi
else
	echo "not ok site-build the fixture builds in place: $(head -c 300 "$tmp/log")"
fi

# Themes: a missing one is an error naming where it was looked for.
cp -R tests/golden/site "$tmp/notheme"
sed -i 's/^theme = .*/theme = "nope"/' "$tmp/notheme/site.toml"
"$Q" build -C "$tmp/notheme" --no-pdf >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q 'theme "nope" not found' "$tmp/err" && [ ! -e "$tmp/notheme/out" ]; then
	echo "ok site-build a missing theme is a clear error"
else
	echo "not ok site-build a missing theme is a clear error: exit $rc: $(head -c 300 "$tmp/err")"
fi
# A site's own themes/<name> wins over the installed one.
mkdir -p "$tmp/own/themes"
cp -R tests/golden/site/content tests/golden/site/site.toml "$tmp/own/"
cp -R themes/default "$tmp/own/themes/default"
# (The skip link's words are a string, data-qd-t: the theme's own change is to its markup.)
sed -i 's/<a class="skip" href="#main" data-qd-t="page.skip">Skip to content<\/a>/<a class="skip" href="#main">Skip to the text<\/a>/' \
	"$tmp/own/themes/default/templates/page.html"
if "$Q" build -C "$tmp/own" --no-pdf >"$tmp/log" 2>&1 && grep -q 'Skip to the text' "$tmp/own/out/index.html"; then
	echo "ok site-build a site's own theme is used"
else
	echo "not ok site-build a site's own theme is used: $(head -c 300 "$tmp/log")"
fi
# A template mistake is reported with its file and line, and the output stays.
cp -R "$tmp/own/out" "$tmp/own-before"
sed -i 's/data-qd-slot="main"/data-qd-slott="main"/' "$tmp/own/themes/default/templates/page.html"
"$Q" build -C "$tmp/own" --no-pdf >"$tmp/out" 2>"$tmp/err"
if grep -q 'templates/page.html:[0-9]*:.*unknown template attribute "data-qd-slott"' "$tmp/err"; then
	echo "ok site-build a bad template attribute is reported at its line"
else
	echo "not ok site-build a bad template attribute is reported at its line: $(head -c 300 "$tmp/err")"
fi
same "a failed page build leaves out/ untouched" "$tmp/own-before" "$tmp/own/out"
exit 0

#!/bin/sh
# Installs the Debian packages quizdeck needs, when they are missing.
#
#   tools/deps.sh build   libraries, headers and fonts for `make`
#   tools/deps.sh test    what `make test` adds: browser, PDF tools, node
#   tools/deps.sh bench   what `make bench` adds (hugo, when packaged)
#
# As root (or with sudo) it runs apt-get non-interactively; otherwise it
# prints the one command to run and fails.
set -eu

build_pkgs="pkg-config gcc make libcmark-gfm-dev libcmark-gfm-extensions-dev
libxml2-dev libcairo2-dev libpango1.0-dev libfontconfig-dev libmicrohttpd-dev
libsqlite3-dev libzip-dev librsvg2-dev libgdk-pixbuf-2.0-dev libhyphen-dev
hyphen-en-us hyphen-de
fonts-noto-core fonts-noto-mono fonts-dejavu-core"
test_pkgs="clang libclang-rt-14-dev poppler-utils chromium nodejs npm
fonts-noto-cjk python3 valgrind mandoc"
bench_pkgs="hugo cmark-gfm hyperfine time"

case ${1:-build} in
build) want=$build_pkgs ;;
test) want="$build_pkgs $test_pkgs" ;;
bench) want="$build_pkgs $bench_pkgs" ;;
*) echo "usage: tools/deps.sh build|test|bench" >&2; exit 2 ;;
esac

missing=
for p in $want; do
	# Node from nodesource.com ships its own npm, which conflicts with Debian's.
	[ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "quizdeck: missing Debian packages:$missing" >&2
	echo "quizdeck: run: sudo apt-get install -y$missing" >&2
	exit 1
fi

echo "quizdeck: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null

#!/bin/sh
# Every module compiles without a warning under gcc and clang (C11,
# -Wall -Wextra and the project's extra warnings).
set -u
cd "$(dirname "$0")/../.." || exit 2
flags="-std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror -fsyntax-only -Igen"
pkgs="$(pkg-config --cflags libcmark-gfm libxml-2.0 cairo pango pangocairo fontconfig libmicrohttpd librsvg-2.0 gdk-pixbuf-2.0)"
for cc in gcc clang; do
	if ! command -v $cc >/dev/null 2>&1; then
		echo "not ok warnings $cc: not installed"
		continue
	fi
	for f in gen/*.c tests/toml-decode.c tests/unit/*_test.c tests/fuzz/fuzz_*.c; do
		# shellcheck disable=SC2086
		if out=$($cc $flags $pkgs "$f" 2>&1); then
			echo "ok warnings $cc $f"
		else
			echo "not ok warnings $cc $f: $(echo "$out" | head -n 3 | tr '\n' ' ')"
		fi
	done
done

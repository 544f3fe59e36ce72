#!/bin/sh
# toml-conformance: gen/toml.c against TOML 1.0, through tests/toml-decode.
#
# 1. tests/toml/: the repository's own cases, every part of TOML 1.0.
#    valid/X.toml must decode to valid/X.json (tagged as toml-test
#    does); invalid/X.toml must be rejected with exit status 1 and a
#    `<stdin>:line:col: error: message` line, never a crash.
# 2. A differential test against Python's tomllib: TOML_DIFF_COUNT
#    generated documents (400 here; `make fuzz` runs many more), half of
#    them mutated into likely mistakes; both must reject, or accept with
#    equal values.
# 3. The toml-test corpus, when it is beside the checkout (or at
#    TOML_TEST_DIR); a `skip` line says so when it is not.
#
# One `ok ...` / `not ok ...` line per case; exit status 0 either way.

here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
check="$root/tests/toml/tomlcheck.py"
corpus=${TOML_TEST_DIR:-"$root/../shared/corpus/toml-test"}
decoder=${TOML_DECODE:-"$root/tests/toml-decode"}

if [ ! -x "$decoder" ]; then
	make -C "$root" tests/toml-decode >/dev/null 2>&1
fi
if [ ! -x "$decoder" ]; then
	echo "not ok toml decoder: $decoder is not built (make tests/toml-decode)"
	exit 0
fi
if ! python3 -c 'import tomllib' 2>/dev/null; then
	echo "not ok toml python3: Python 3.11 or later is needed (tomllib)"
	exit 0
fi

python3 "$check" corpus "$root/tests/toml" "$decoder"
python3 "$check" diff "${TOML_DIFF_COUNT:-400}" "${TOML_DIFF_SEED:-1}" "$decoder"
if [ -d "$corpus" ]; then
	python3 "$check" corpus-external "$corpus" "$decoder"
else
	echo "skip toml-test corpus: not found at $corpus (set TOML_TEST_DIR to run it)"
fi

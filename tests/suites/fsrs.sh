#!/bin/sh
# The flashcard scheduler in themes/default/assets/cards.js against the
# reference FSRS implementation, ts-fsrs from npm (tests/browser, installed
# by `make test-deps`), over random review histories. The parameters are
# stated in tests/browser/fsrs-compare.js. Prints `ok fsrs ...` lines.
set -u
cd "$(dirname "$0")/../.." || exit 2
if ! command -v node >/dev/null 2>&1; then
	echo "not ok fsrs setup: node is not installed (make test-deps)"
	exit 0
fi
TZ=UTC exec node tests/browser/fsrs-compare.js

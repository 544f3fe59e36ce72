#!/bin/sh
# Browser checks of the practice test and the flashcard viewer: Debian's
# headless Chromium driven by playwright-core (tests/browser, installed by
# `make test-deps`) on the site in tests/browser/fixture-site. Prints one
# line per check, `ok browser ...` or `not ok browser ...: why`.
#
#   tests/suites/browser.sh [FILTER...]   only the checks whose name has FILTER
set -u
cd "$(dirname "$0")/../.." || exit 2

chromium=${QD_CHROMIUM:-/usr/bin/chromium}
if ! command -v node >/dev/null 2>&1; then
	echo "not ok browser setup: node is not installed (make test-deps)"
	exit 0
fi
if [ ! -x "$chromium" ]; then
	echo "not ok browser setup: no Chromium at $chromium (make test-deps)"
	exit 0
fi
if [ ! -d tests/browser/node_modules/playwright-core ] || [ ! -d tests/browser/node_modules/axe-core ]; then
	echo "not ok browser setup: tests/browser/node_modules is missing (make test-deps runs npm ci there)"
	exit 0
fi
if [ -z "${QD_BROWSER_SITE:-}" ] && [ ! -x ./quizdeck ]; then
	echo "not ok browser setup: ./quizdeck is not built (make quizdeck)"
	exit 0
fi
QD_CHROMIUM=$chromium exec node tests/browser/run.js "$@"

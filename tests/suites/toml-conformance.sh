#!/bin/sh
# toml-conformance: runs tests/toml-decode over the toml-test cases.
#
# Every valid/**/X.toml must decode to the value of X.json (compared as
# values: key order ignored, floats as numbers with nan equal to nan,
# date-times normalised); every invalid/**/X.toml must be rejected with
# exit status 1 and a `<stdin>:line:col: error: message` line, never by
# a crash or a sanitizer report. One `ok ...` or `not ok ...` line per
# case; the exit status is 0 either way (tests/run counts the lines).
#
# TOML_TEST_DIR overrides the corpus, TOML_DECODE the decoder.

here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
corpus=${TOML_TEST_DIR:-"$root/../shared/corpus/toml-test"}
decoder=${TOML_DECODE:-"$root/tests/toml-decode"}

if [ ! -d "$corpus" ]; then
	echo "not ok toml corpus: no directory $corpus (set TOML_TEST_DIR)"
	exit 0
fi
if [ ! -x "$decoder" ]; then
	make -C "$root" tests/toml-decode >/dev/null 2>&1
fi
if [ ! -x "$decoder" ]; then
	echo "not ok toml decoder: $decoder is not built (make tests/toml-decode)"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "not ok toml python3: needed to compare JSON"
	exit 0
fi

exec python3 - "$corpus" "$decoder" <<'EOF'
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys

corpus, decoder = sys.argv[1], sys.argv[2]
ERROR_LINE = re.compile(r"^<stdin>:\d+:\d+: error: \S")
SANITIZER = ("Sanitizer", "runtime error", "LeakSanitizer")


def cases(kind):
    found = []
    for top, dirs, files in os.walk(os.path.join(corpus, kind)):
        dirs.sort()
        for name in files:
            if name.endswith(".toml"):
                found.append(os.path.relpath(os.path.join(top, name), corpus))
    return sorted(found)


def run(path):
    with open(os.path.join(corpus, path), "rb") as f:
        data = f.read()
    try:
        p = subprocess.run([decoder], input=data, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out after 60 s"
    return p.returncode, p.stdout, p.stderr


def datetime_norm(s):
    # RFC 3339 spellings of one instant: t/T/space, z/Z/+00:00/-00:00,
    # and trailing zeros of the fraction all mean the same.
    s = s.upper().replace(" ", "T")
    m = re.match(r"^(.*?\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?$", s)
    if not m:
        return s
    base, frac, off = m.group(1), m.group(2) or "", m.group(3) or ""
    frac = frac.rstrip("0")
    if frac == ".":
        frac = ""
    if off in ("+00:00", "-00:00"):
        off = "Z"
    return base + frac + off


def norm(v):
    if isinstance(v, dict):
        if set(v) == {"type", "value"} and isinstance(v["type"], str) \
                and isinstance(v["value"], str):
            t, x = v["type"], v["value"]
            if t == "integer":
                try:
                    return ("integer", int(x))
                except ValueError:
                    return ("integer?", x)
            if t == "float":
                try:
                    f = float(x)
                except ValueError:
                    return ("float?", x)
                return ("float", "nan") if math.isnan(f) else ("float", f)
            if t in ("datetime", "datetime-local", "date-local", "time-local"):
                return (t, datetime_norm(x))
            return (t, x)
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    return ("raw", v)


def first_difference(got, want, where="$"):
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got)):
            if k not in got:
                return "%s: key %s missing" % (where, json.dumps(k))
            if k not in want:
                return "%s: unexpected key %s" % (where, json.dumps(k))
            d = first_difference(got[k], want[k], "%s.%s" % (where, json.dumps(k)))
            if d:
                return d
        return None
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return "%s: %d elements, want %d" % (where, len(got), len(want))
        for i, (g, w) in enumerate(zip(got, want)):
            d = first_difference(g, w, "%s[%d]" % (where, i))
            if d:
                return d
        return None
    if got != want:
        return "%s: got %r, want %r" % (where, got, want)
    return None


def first_line(b):
    s = b.decode("utf-8", "replace").strip().splitlines()
    return s[0] if s else "(nothing on stderr)"


def check_valid(path):
    rc, out, err = run(path)
    if rc is None:
        return "timed out"
    if rc < 0:
        return "killed by signal %d" % -rc
    if rc != 0:
        return "exit status %s: %s" % (rc, first_line(err))
    if any(m.encode() in err for m in SANITIZER):
        return "sanitizer: " + first_line(err)
    try:
        got = json.loads(out.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        return "decoder printed bad JSON: %s" % e
    with open(os.path.join(corpus, path[:-5] + ".json"), encoding="utf-8") as f:
        want = json.load(f)
    return first_difference(norm(got), norm(want))


def check_invalid(path):
    rc, out, err = run(path)
    if rc is None:
        return "timed out"
    if rc < 0:
        return "killed by signal %d" % -rc
    if rc == 0:
        return "accepted invalid input"
    if rc != 1:
        return "exit status %s (want 1): %s" % (rc, first_line(err))
    if any(m.encode() in err for m in SANITIZER):
        return "sanitizer: " + first_line(err)
    if not ERROR_LINE.match(err.decode("utf-8", "replace")):
        return "error not in <stdin>:line:col: error: form: " + first_line(err)
    return None


jobs = [(p, check_valid, "toml-valid") for p in cases("valid")] + \
       [(p, check_invalid, "toml-invalid") for p in cases("invalid")]
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
    results = list(ex.map(lambda j: j[1](j[0]), jobs))
failed = 0
for (path, _, name), why in zip(jobs, results):
    case = path[:-5]
    if why is None:
        print("ok %s %s" % (name, case))
    else:
        failed += 1
        print("not ok toml %s: %s" % (path, why))
print("# toml-test: %d of %d cases passed" % (len(jobs) - failed, len(jobs)),
      file=sys.stderr)
EOF

#!/usr/bin/env python3
"""Checks tests/toml-decode (gen/toml.c behind the toml-test interface).

    tomlcheck.py corpus DIR DECODER      every DIR/valid/**/X.toml decodes
                                         to X.json; every DIR/invalid/**
                                         case is rejected as file:line:col
    tomlcheck.py diff N SEED DECODER     N generated documents, valid and
                                         mutated, decoded by DECODER and by
                                         Python's tomllib: both must reject,
                                         or both accept with equal values
    tomlcheck.py expect DIR              writes X.json for DIR/valid cases
                                         that have none, from tomllib (read
                                         them before committing)

One `ok ...` or `not ok ...` line per case; the exit status is 0 either
way (tests/run counts the lines). Only the standard library.
"""
import concurrent.futures
import datetime
import json
import math
import os
import random
import re
import subprocess
import sys
import tomllib

ERROR_LINE = re.compile(r"^<stdin>:\d+:\d+: error: \S")
SANITIZER = ("Sanitizer", "runtime error", "LeakSanitizer")
INT64 = (-(1 << 63), (1 << 63) - 1)


def run(decoder, data):
    try:
        p = subprocess.run([decoder], input=data, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out after 60 s"
    return p.returncode, p.stdout, p.stderr


def datetime_norm(s, digits=None):
    # RFC 3339 spellings of one instant: t/T/space, z/Z/+00:00/-00:00,
    # and trailing zeros of the fraction all mean the same. tomllib keeps
    # microseconds only: the differential test cuts both sides to six.
    s = s.upper().replace(" ", "T")
    m = re.match(r"^(.*?\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?$", s)
    if not m:
        return s
    base, frac, off = m.group(1), m.group(2) or "", m.group(3) or ""
    if digits is not None:
        frac = frac[:digits + 1]
    frac = frac.rstrip("0")
    if frac == ".":
        frac = ""
    if off in ("+00:00", "-00:00"):
        off = "Z"
    return base + frac + off


def norm(v, digits=None):
    """A tagged toml-test value as plain, comparable Python data."""
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
                return (t, datetime_norm(x, digits))
            return (t, x)
        return {k: norm(x, digits) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x, digits) for x in v]
    return ("raw", v)


def tagged(v):
    """tomllib's value in the toml-test tagged form."""
    if isinstance(v, bool):
        return {"type": "bool", "value": "true" if v else "false"}
    if isinstance(v, int):
        return {"type": "integer", "value": str(v)}
    if isinstance(v, float):
        if math.isnan(v):
            s = "nan"
        elif math.isinf(v):
            s = "inf" if v > 0 else "-inf"
        else:
            s = repr(v)
        return {"type": "float", "value": s}
    if isinstance(v, str):
        return {"type": "string", "value": v}
    if isinstance(v, datetime.datetime):
        t = "datetime" if v.tzinfo is not None else "datetime-local"
        return {"type": t, "value": v.isoformat()}
    if isinstance(v, datetime.date):
        return {"type": "date-local", "value": v.isoformat()}
    if isinstance(v, datetime.time):
        return {"type": "time-local", "value": v.isoformat()}
    if isinstance(v, dict):
        return {k: tagged(x) for k, x in v.items()}
    if isinstance(v, list):
        return [tagged(x) for x in v]
    raise TypeError(type(v))


def out_of_int64(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return not INT64[0] <= v <= INT64[1]
    if isinstance(v, dict):
        return any(out_of_int64(x) for x in v.values())
    if isinstance(v, list):
        return any(out_of_int64(x) for x in v)
    return False


def has_inf(v):
    if isinstance(v, float):
        return math.isinf(v)
    if isinstance(v, dict):
        return any(has_inf(x) for x in v.values())
    if isinstance(v, list):
        return any(has_inf(x) for x in v)
    return False


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


def accepted(decoder, data, digits=None):
    """(value, None) when the decoder accepts, (None, why) otherwise;
    why is None for a clean rejection."""
    rc, out, err = run(decoder, data)
    if rc is None:
        return None, "timed out"
    if rc < 0:
        return None, "killed by signal %d" % -rc
    if any(m.encode() in err for m in SANITIZER):
        return None, "sanitizer: " + first_line(err)
    if rc == 1:
        if not ERROR_LINE.match(err.decode("utf-8", "replace")):
            return None, "error not in <stdin>:line:col: error: form: " + first_line(err)
        return None, None
    if rc != 0:
        return None, "exit status %s: %s" % (rc, first_line(err))
    try:
        return norm(json.loads(out.decode("utf-8")), digits), None
    except (ValueError, UnicodeDecodeError) as e:
        return None, "decoder printed bad JSON: %s" % e


# ---- a corpus of cases ---------------------------------------------------

def cases(corpus, kind):
    found = []
    for top, dirs, files in os.walk(os.path.join(corpus, kind)):
        dirs.sort()
        for name in files:
            if name.endswith(".toml"):
                found.append(os.path.relpath(os.path.join(top, name), corpus))
    return sorted(found)


def check_valid(corpus, decoder, path):
    with open(os.path.join(corpus, path), "rb") as f:
        data = f.read()
    got, why = accepted(decoder, data)
    if got is None:
        return why or "rejected valid input"
    with open(os.path.join(corpus, path[:-5] + ".json"), encoding="utf-8") as f:
        want = json.load(f)
    return first_difference(got, norm(want))


def check_invalid(corpus, decoder, path):
    with open(os.path.join(corpus, path), "rb") as f:
        data = f.read()
    got, why = accepted(decoder, data)
    if got is not None:
        return "accepted invalid input"
    return why


def corpus_main(corpus, decoder, label):
    jobs = [(p, check_valid, "valid") for p in cases(corpus, "valid")] + \
           [(p, check_invalid, "invalid") for p in cases(corpus, "invalid")]
    if not jobs:
        print("not ok %s: no cases under %s" % (label, corpus))
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(lambda j: j[1](corpus, decoder, j[0]), jobs))
    failed = 0
    for (path, _, kind), why in zip(jobs, results):
        if why is None:
            print("ok %s %s %s" % (label, kind, path[:-5]))
        else:
            failed += 1
            print("not ok %s %s: %s" % (label, path, why))
    print("# %s: %d of %d cases passed" % (label, len(jobs) - failed, len(jobs)),
          file=sys.stderr)


# ---- generated documents -------------------------------------------------

BARE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
TEXT = ["a", "Z", " ", "é", "数", "😀", "\"", "'", "\\", "#", "=", "[", "]", "{", "}", ",", "\t", "."]
ESC = ["\\n", "\\t", "\\\\", "\\\"", "\\b", "\\f", "\\r", "\\u00e9", "\\U0001F600", "\\u0041"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd

    def key_part(self):
        r = self.r
        k = r.random()
        if k < 0.6:
            return "".join(r.choice(BARE) for _ in range(r.randint(1, 6)))
        if k < 0.85:
            return '"' + self.basic_body(False) + '"'
        return "'" + "".join(r.choice([c for c in TEXT if c not in "'\\\t"] + ["x"])
                             for _ in range(r.randint(0, 5))) + "'"

    def key(self):
        parts = [self.key_part() for _ in range(self.r.choice([1, 1, 1, 2, 3]))]
        return self.r.choice([".", " . ", ". "]).join(parts)

    def basic_body(self, multiline):
        r = self.r
        out = []
        for _ in range(r.randint(0, 8)):
            if r.random() < 0.3:
                out.append(r.choice(ESC))
            else:
                c = r.choice(TEXT)
                if c in "\"\\":
                    c = "\\" + c
                out.append(c)
            if multiline and r.random() < 0.15:
                out.append(r.choice(["\n", "\\\n   ", "\"\""]))
        return "".join(out)

    def string(self):
        r = self.r
        k = r.randrange(4)
        if k == 0:
            return '"' + self.basic_body(False) + '"'
        if k == 1:
            return '"""' + r.choice(["", "\n"]) + self.basic_body(True) + 'x"""'
        if k == 2:
            return "'" + "".join(r.choice([c for c in TEXT if c != "'"])
                                 for _ in range(r.randint(0, 8))) + "'"
        body = "".join(r.choice(TEXT + ["\n", "''"]) for _ in range(r.randint(0, 8)))
        return "'''" + r.choice(["", "\n"]) + body + "x'''"

    def digits(self, alphabet, n):
        r = self.r
        s = r.choice(alphabet[1:] if len(alphabet) > 1 else alphabet)
        for _ in range(n - 1):
            if r.random() < 0.2:
                s += "_"
            s += r.choice(alphabet)
        return s

    def integer(self):
        r = self.r
        k = r.randrange(5)
        if k == 0:
            return "0x" + self.digits("0123456789abcdefABCDEF", r.randint(1, 15))
        if k == 1:
            return "0o" + self.digits("01234567", r.randint(1, 20))
        if k == 2:
            return "0b" + self.digits("01", r.randint(1, 62))
        if r.random() < 0.1:
            return r.choice(["0", "+0", "-0", "9223372036854775807", "-9223372036854775808"])
        return r.choice(["", "+", "-"]) + self.digits("0123456789", r.randint(1, 18))

    def float_(self):
        r = self.r
        if r.random() < 0.15:
            return r.choice(["", "+", "-"]) + r.choice(["inf", "nan"])
        s = r.choice(["", "+", "-"]) + r.choice(["0", self.digits("0123456789", r.randint(1, 6))])
        has_frac = r.random() < 0.7
        if has_frac:
            s += "." + "".join(r.choice("0123456789") for _ in range(r.randint(1, 6)))
        if not has_frac or r.random() < 0.4:
            s += r.choice("eE") + r.choice(["", "+", "-"]) + self.digits("0123456789", r.randint(1, 2))
        return s

    def datetime_(self):
        r = self.r
        y, mo = r.randint(1, 9999), r.randint(1, 12)
        d = r.randint(1, 28)
        date = "%04d-%02d-%02d" % (y, mo, d)
        t = "%02d:%02d:%02d" % (r.randrange(24), r.randrange(60), r.randrange(60))
        if r.random() < 0.4:
            t += "." + "".join(r.choice("0123456789") for _ in range(r.randint(1, 6)))
        k = r.randrange(4)
        if k == 0:
            return date
        if k == 1:
            return t
        dt = date + r.choice(["T", "t", " "]) + t
        if k == 2:
            return dt
        off = r.choice(["Z", "z", "%s%02d:%02d" % (r.choice("+-"), r.randrange(24), r.randrange(60))])
        return dt + off

    def value(self, depth):
        r = self.r
        k = r.randrange(10 if depth < 3 else 7)
        if k == 0:
            return self.string()
        if k == 1:
            return self.integer()
        if k == 2:
            return self.float_()
        if k == 3:
            return r.choice(["true", "false"])
        if k == 4:
            return self.datetime_()
        if k in (5, 6):
            return self.string() if r.random() < 0.5 else self.integer()
        if k in (7, 8):
            sep = r.choice([", ", ",", " ,\n  ", ",\n# c\n"])
            items = [self.value(depth + 1) for _ in range(r.randint(0, 4))]
            tail = r.choice(["", ","]) if items else ""
            return "[" + sep.join(items) + tail + "]"
        pairs = []
        for _ in range(r.randint(0, 3)):
            pairs.append("%s = %s" % (self.key(), self.value(depth + 1)))
        return "{" + (" " + ", ".join(pairs) + " " if pairs else "") + "}"

    def document(self):
        r = self.r
        lines = []
        for _ in range(r.randint(1, 12)):
            k = r.random()
            if k < 0.12:
                lines.append("[%s]" % self.key())
            elif k < 0.2:
                lines.append("[[%s]]" % self.key())
            elif k < 0.25:
                lines.append(r.choice(["", "# a comment ☃", "   "]))
            else:
                lines.append("%s = %s%s" % (self.key(), self.value(0),
                                            r.choice(["", "", " # end"])))
        return "\n".join(lines) + r.choice(["\n", "", "\r\n"])

    def mutate(self, doc):
        r = self.r
        b = bytearray(doc.encode())
        for _ in range(r.randint(1, 3)):
            if not b:
                break
            i = r.randrange(len(b) + 1)
            k = r.randrange(4)
            if k == 0 and i < len(b):
                del b[i]
            elif k == 1:
                b[i:i] = r.choice([b"=", b"[", b"]", b"\"", b"'", b".", b",", b"\n",
                                   b"_", b"e", b"0", b"{", b"}", b"#", b"\\", b" ", b"\r",
                                   b"\xff", b"\x01", b"+", b":", b"-"])
            elif k == 2:
                lines = bytes(b).split(b"\n")
                j = r.randrange(len(lines))
                lines.insert(j, lines[j])
                b = bytearray(b"\n".join(lines))
            elif i < len(b):
                b[i] = r.randrange(32, 127)
        return bytes(b)


def tomllib_value(data):
    """('ok', normalised value), ('reject', None) or ('skip', why)."""
    try:
        v = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        return "reject", None
    except tomllib.TOMLDecodeError:
        return "reject", None
    except (ValueError, OverflowError):
        return "reject", None
    if out_of_int64(v):
        # TOML 1.0 says an integer beyond 64 bits is an error; tomllib
        # reads it as Python's unbounded int.
        return "skip", "integer beyond 64 bits"
    if has_inf(v) and b"inf" not in data:
        # A finite literal beyond binary64 (1e400): tomllib reads it as
        # inf, gen/toml.c rejects it as out of range, which TOML 1.0
        # leaves open and which tells an author more.
        return "skip", "float beyond binary64"
    return "ok", norm(tagged(v), 6)


def diff_case(decoder, data):
    kind, want = tomllib_value(data)
    got, why = accepted(decoder, data, 6)
    if why is not None:
        return why
    if kind == "skip":
        return None if got is None else "accepted a number beyond 64 bits"
    if kind == "reject":
        return None if got is None else "accepted what tomllib rejects"
    if got is None:
        return "rejected what tomllib accepts"
    return first_difference(got, want)


def diff_main(count, seed, decoder):
    rnd = random.Random(seed)
    g = Gen(rnd)
    docs = []
    for i in range(count):
        d = g.document()
        docs.append(d.encode() if i % 2 == 0 else g.mutate(d))
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(lambda d: diff_case(decoder, d), docs))
    failed = 0
    for i, (d, why) in enumerate(zip(docs, results)):
        if why is None:
            print("ok toml differential %d (seed %d)" % (i, seed))
        else:
            failed += 1
            print("not ok toml differential %d (seed %d): %s; document: %r"
                  % (i, seed, why, d[:400]))
    print("# toml differential: %d of %d agree with tomllib" % (count - failed, count),
          file=sys.stderr)


def expect_main(corpus):
    for path in cases(corpus, "valid"):
        out = os.path.join(corpus, path[:-5] + ".json")
        if os.path.exists(out):
            continue
        with open(os.path.join(corpus, path), "rb") as f:
            v = tomllib.load(f)
        with open(out, "w", encoding="utf-8") as f:
            json.dump(tagged(v), f, ensure_ascii=False, indent=1, sort_keys=False)
            f.write("\n")


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "corpus":
        corpus_main(a[1], a[2], "toml")
    elif len(a) == 3 and a[0] == "corpus-external":
        corpus_main(a[1], a[2], "toml-test")
    elif len(a) == 4 and a[0] == "diff":
        diff_main(int(a[1]), int(a[2]), a[3])
    elif len(a) == 2 and a[0] == "expect":
        expect_main(a[1])
    else:
        sys.exit(__doc__)

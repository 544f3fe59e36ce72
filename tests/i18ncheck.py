#!/usr/bin/env python3
"""The string tables against one another and against the code that names them.

    python3 tests/i18ncheck.py REPO

Prints one `ok` / `not ok` line per check (tests/run counts them):

- every key of i18n/en.toml is in de.toml and ar.toml, with the same
  placeholders ({name}); a count's table (plural forms) has "other" in
  every language and all six CLDR forms in Arabic, and a form may leave
  out a placeholder English has but never add one;
- no table has a key English lacks (English is the list of every key);
- every key the code names is in en.toml: string literals of gen/*.c
  that look like a key of one of English's sections, the templates'
  data-qd-t / data-qd-t-ATTR values, the scripts' .t("key") and
  .plural("key") calls (the theme's scripts keep window.quizdeckI18n in
  a local and call it so);
- every key of en.toml is named somewhere (no string nobody shows), but
  for COMPUTED below.
"""
import glob
import os
import re
import sys
import tomllib

FORMS = ("zero", "one", "two", "few", "many", "other")

# Keys no literal names, each with why: the code builds their names or reads them as data.
COMPUTED = {
    # The table's own name for its language: what a language picker or a
    # site's README would show; lang.c reads language.dir, nothing reads
    # the name yet, and every table must still say which language it is.
    "language.name",
}

PLACEHOLDER = re.compile(r"\{([a-z0-9_-]+)\}")


def flatten(table, prefix=""):
    """{key: string} and {count key: {form: string}} of a parsed table."""
    strings, counts = {}, {}
    for k, v in table.items():
        key = prefix + k
        if isinstance(v, dict):
            if v and all(f in FORMS for f in v) and all(isinstance(x, str) for x in v.values()):
                counts[key] = v
            else:
                s, c = flatten(v, key + ".")
                strings.update(s)
                counts.update(c)
        else:
            strings[key] = v
    return strings, counts


def holes(s):
    return set(PLACEHOLDER.findall(s))


def load(repo, lang):
    with open(os.path.join(repo, "i18n", lang + ".toml"), "rb") as f:
        return flatten(tomllib.load(f))


def check(name, bad):
    if bad:
        print("not ok i18n %s: %s" % (name, "; ".join(bad[:12]) + (" ..." if len(bad) > 12 else "")))
    else:
        print("ok i18n %s" % name)


def tables(repo):
    en_s, en_c = load(repo, "en")
    for lang in ("de", "ar"):
        s, c = load(repo, lang)
        missing = sorted(k for k in en_s if k not in s) + sorted(k for k in en_c if k not in c)
        check("%s has every key of en.toml" % lang, missing)
        extra = sorted(k for k in s if k not in en_s) + sorted(k for k in c if k not in en_c)
        check("%s has no key en.toml lacks" % lang, extra)
        bad = ["%s: %s, English %s" % (k, sorted(holes(s[k])), sorted(holes(en_s[k])))
               for k in sorted(en_s) if k in s and holes(s[k]) != holes(en_s[k])]
        check("%s's strings have English's placeholders" % lang, bad)
        bad = []
        for k in sorted(en_c):
            if k not in c:
                continue
            allowed = set().union(*(holes(v) for v in en_c[k].values()))
            if "other" not in c[k]:
                bad.append("%s has no \"other\"" % k)
            if lang == "ar" and set(c[k]) != set(FORMS):
                bad.append("%s has %s, not the six forms" % (k, sorted(c[k])))
            for form, v in c[k].items():
                if not holes(v) <= allowed:
                    bad.append("%s.%s adds %s" % (k, form, sorted(holes(v) - allowed)))
            if not holes(c[k].get("other", "")) >= holes(en_c[k]["other"]) - {"n"}:
                bad.append("%s.other leaves out %s" % (k, sorted(holes(en_c[k]["other"]) - holes(c[k]["other"]))))
        check("%s's counts have their forms and placeholders" % lang, bad)
    for k in sorted(en_c):
        if "other" not in en_c[k]:
            print("not ok i18n en.toml's %s has no \"other\"" % k)
    return en_s, en_c


def named(repo, sections):
    """{key: [where]} of every key the code, the templates and the scripts name."""
    found = {}
    literal = re.compile(r'"([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)"')
    for path in sorted(glob.glob(os.path.join(repo, "gen", "*.c"))):
        # config.c names site.toml's own tables ("quiz.seconds"), never a string.
        if os.path.basename(path) == "config.c":
            continue
        with open(path, encoding="utf-8") as f:
            for m in literal.finditer(f.read()):
                key = m.group(1)
                # A file name ("search-index.js") is not a key: keys have no such ending.
                if key.split(".")[0] in sections and not re.search(r"\.(js|html|css|toml|pdf|png|json|xml|h|c)$", key):
                    found.setdefault(key, []).append(os.path.relpath(path, repo))
    attr = re.compile(r'data-qd-t(?:-[a-z-]+)?="([^"]*)"')
    for path in sorted(glob.glob(os.path.join(repo, "themes", "*", "templates", "*.html"))):
        with open(path, encoding="utf-8") as f:
            for m in attr.finditer(f.read()):
                found.setdefault(m.group(1), []).append(os.path.relpath(path, repo))
    # A script names a key as a quoted literal, often in a choice (I.t(x ? "a.b" : "a.c")),
    # or the start of one it completes ("search.kind." + kind, "quiz.level-" + level).
    quoted = re.compile(r'"([a-z][a-z0-9-]*(?:\.[a-z0-9-]*)+)"' + "|'([a-z][a-z0-9-]*(?:\\.[a-z0-9-]*)+)'")
    for path in sorted(glob.glob(os.path.join(repo, "themes", "*", "assets", "*.js"))):
        with open(path, encoding="utf-8") as f:
            for m in quoted.finditer(f.read()):
                key = m.group(1) or m.group(2)
                if key.split(".")[0] in sections and not re.search(r"\.(js|html|css|toml|pdf|png|json|xml|webmanifest)$", key):
                    found.setdefault(key, []).append(os.path.relpath(path, repo))
    return found


def usage(repo, en_s, en_c):
    sections = {k.split(".")[0] for k in list(en_s) + list(en_c)}
    found = named(repo, sections)
    # A key ending in "." or "-" is the start of keys a script completes.
    prefixes = [k for k in found if k.endswith(".") or k.endswith("-")]
    for p in prefixes:
        for k in list(en_s) + list(en_c):
            if k.startswith(p):
                found.setdefault(k, []).extend(found[p])
    unknown = ["%s (%s)" % (k, ", ".join(sorted(set(w)))) for k, w in sorted(found.items())
               if k not in en_s and k not in en_c and not (k[-1] in ".-" and any(
                   e.startswith(k) for e in list(en_s) + list(en_c)))]
    check("every key the code names is in en.toml", unknown)
    unused = sorted(k for k in list(en_s) + list(en_c) if k not in found and k not in COMPUTED)
    check("every key of en.toml is named somewhere", unused)
    stale = sorted(k for k in COMPUTED if k in found or (k not in en_s and k not in en_c))
    check("the keys let off the usage check still need it", stale)


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "."
    en_s, en_c = tables(repo)
    usage(repo, en_s, en_c)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The pipeline's layers, checked: load > index > link > outputs.

    layers.py [GEN]       prints `ok ...` / `not ok ...` lines

Each gen/NAME.c is a module and gen/NAME.h its public face. A module may
call a public function of a module on its own layer or below, never one
above (that would be the model calling its renderers, or a renderer
calling up into build); modules on one layer must not call each other in
a circle; the model's headers hold no function pointers (data, not
callbacks). A module missing from LAYERS is a failure: place it.
"""
import os
import re
import sys

# Lowest first. Read: a module calls only modules on its row or above it.
LAYERS = [
    ("support", {"util", "diag", "pool", "toml", "cache", "htmlmd"}),
    ("load", {"config", "content", "markdown", "lang"}),
    ("index", {"answer", "model", "quiz", "deck", "guide", "site", "cloze"}),
    ("link", {"links", "outputs"}),
    ("output helpers", {"render", "theme", "cardtext", "impose", "search", "anki", "image", "flow", "paper"}),
    ("outputs", {"html", "pdf", "export", "offline", "book", "handout"}),
    ("commands", {"build", "scaffold", "import"}),
    ("serve", {"serve"}),
    ("main", {"main"}),
]
MODEL_LAYER = "index"


def code_only(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def declared(header):
    """Function names a header declares."""
    names = set()
    for m in re.finditer(r"([A-Za-z_]\w*)\s*\((?!\s*\*)[^;{}]*\)\s*;", code_only(header)):
        name = m.group(1)
        if name in {"if", "while", "for", "return", "sizeof"}:
            continue
        names.add(name)
    return names


def main():
    gen = sys.argv[1] if len(sys.argv) > 1 else "gen"
    mods = sorted(f[:-2] for f in os.listdir(gen) if f.endswith(".c"))
    layer_of = {}
    for i, (_, names) in enumerate(LAYERS):
        for n in names:
            layer_of[n] = i
    failures = 0

    def report(ok, what):
        nonlocal failures
        if ok:
            print("ok layers %s" % what)
        else:
            failures += 1
            print("not ok layers %s" % what)

    public = {}
    for m in mods:
        h = os.path.join(gen, m + ".h")
        if os.path.exists(h):
            with open(h, encoding="utf-8") as f:
                for name in declared(f.read()):
                    public.setdefault(name, m)
    calls = {}
    for m in mods:
        with open(os.path.join(gen, m + ".c"), encoding="utf-8") as f:
            body = code_only(f.read())
        used = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", body))
        for name in used:
            callee = public.get(name)
            if callee and callee != m:
                calls.setdefault((m, callee), set()).add(name)

    for m in mods:
        report(m in layer_of, "%s has a place in the pipeline" % m)
    for (a, b), names in sorted(calls.items()):
        if a in layer_of and b in layer_of and layer_of[b] > layer_of[a]:
            report(False, "%s (%s) calls up into %s (%s): %s" % (
                a, LAYERS[layer_of[a]][0], b, LAYERS[layer_of[b]][0], ", ".join(sorted(names))))
    ups = [k for k in calls if k[0] in layer_of and k[1] in layer_of and layer_of[k[1]] > layer_of[k[0]]]
    if not ups:
        report(True, "no module calls one later in the pipeline (%d arrows)" % len(calls))

    # Circles: a module reaching itself through calls.
    graph = {}
    for a, b in calls:
        graph.setdefault(a, set()).add(b)
    circles = set()
    for start in mods:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    circles.add(tuple(sorted(path)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + (nxt,)))
    for c in sorted(circles):
        report(False, "a circle of calls: %s" % " <-> ".join(c))
    if not circles:
        report(True, "no circle of calls among %d modules" % len(mods))

    model = [n for n in LAYERS if n[0] == MODEL_LAYER][0][1]
    pointers = []
    for m in sorted(model):
        h = os.path.join(gen, m + ".h")
        if not os.path.exists(h):
            continue
        with open(h, encoding="utf-8") as f:
            for lineno, line in enumerate(code_only(f.read()).splitlines(), 1):
                if re.search(r"\(\s*\*\s*\w+\s*\)\s*\(", line):
                    pointers.append("%s.h:%d" % (m, lineno))
    report(not pointers, "the model's headers hold no function pointers%s" % (
        "" if not pointers else ": " + ", ".join(pointers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

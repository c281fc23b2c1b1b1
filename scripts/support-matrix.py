#!/usr/bin/env python3
"""Reads support-matrix.toml (the Debian releases, the wlroots releases and the compositors
wlr-orient is built for and tested on) for the scripts, one answer per line, words separated by
spaces, so that a shell script reads it with `read` or `$(...)`.

    support-matrix.py releases                 the wlroots releases, oldest first (0.15 0.18 ...)
    support-matrix.py roots                    "CODENAME PKG-CONFIG" per wlroots tested in a root
    support-matrix.py machine                  the PKG-CONFIG name of the machine's own wlroots
    support-matrix.py dev-packages             every wlroots -dev package, newest release first
    support-matrix.py root-packages CODENAME   what a root of that release holds for the tests:
                                               the Swift runtime's needs, each wlroots' -dev and
                                               -examples packages, and its compositors
    support-matrix.py compositors PKG-CONFIG   the compositors' packages built with that wlroots
    support-matrix.py autopkgtest CODENAME     what the packages' end-to-end test needs there:
                                               its compositors, and more ("a, b, c")
    support-matrix.py debian CODENAME KEY      one value of a [[debian]] entry (name, suffix...)
    support-matrix.py builds CODENAME          "PKG-CONFIG:RELEASE" per wlroots of that release,
                                               newest first
    support-matrix.py wlroots RELEASE KEY      one value of a [[wlroots]] entry ("compositors"
                                               joined with ", ")
    support-matrix.py readme-table             the README's table of where it runs (Markdown)
    support-matrix.py man-releases             the releases as the man page says them
    support-matrix.py daemon-compositors       the compositors `wlr-orient daemon` runs beside
                                               on this machine (packages)
    support-matrix.py render-readme            writes that table into README.md, and the
                                               compositors the daemon was run beside and those
                                               expected into README.md and docs/DAEMON.md, in
                                               their places
"""
import os
import re
import sys

try:
    import tomllib
except ImportError:  # Python before 3.11
    sys.exit("support-matrix.py: needs Python 3.11 or newer (tomllib)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATRIX = os.path.join(ROOT, "support-matrix.toml")
README = os.path.join(ROOT, "README.md")
README_BEGIN = "<!-- rendered from support-matrix.toml by scripts/support-matrix.py render-readme -->"
README_END = "<!-- end of the rendered table -->"
DAEMON_DOC = os.path.join(ROOT, "docs", "DAEMON.md")
DAEMON_BEGIN = "<!-- rendered from support-matrix.toml by scripts/support-matrix.py render-readme: the daemon -->"
DAEMON_END = "<!-- end of the rendered list -->"


def load(path=MATRIX):
    with open(path, "rb") as f:
        matrix = tomllib.load(f)
    codenames = [d["codename"] for d in matrix["debian"]]
    for w in matrix["wlroots"]:
        if w["debian"] not in codenames:
            raise SystemExit("support-matrix.toml: wlroots %s names an unknown Debian release %r" % (w["release"], w["debian"]))
    return matrix


def release_key(release):
    return tuple(int(part) for part in release.split("."))


def wlroots_sorted(matrix):
    return sorted(matrix["wlroots"], key=lambda w: release_key(w["release"]))


def debian(matrix, codename):
    for d in matrix["debian"]:
        if d["codename"] == codename:
            return d
    raise SystemExit("support-matrix.py: no Debian release %r in support-matrix.toml" % codename)


def wlroots(matrix, name):
    for w in matrix["wlroots"]:
        if name in (w["release"], w["pkg-config"]):
            return w
    raise SystemExit("support-matrix.py: no wlroots %r in support-matrix.toml" % name)


def package(compositor):
    return compositor.split()[0]


def readme_table(matrix):
    rows = ["| wlroots | Debian | compositors tested under `wlr-orient run` |", "| --- | --- | --- |"]
    for w in wlroots_sorted(matrix):
        rows.append("| %s | %s | %s |" % (w["version"], debian(matrix, w["debian"])["short"], ", ".join(w["compositors"])))
    return "\n".join(rows)


def daemon_compositors(matrix):
    """Where `wlr-orient daemon` was run, in words: by Debian release, the machine's first, each
    with what it does there where it cannot serve the compositor whole; then those expected."""
    notes = matrix["daemon"].get("notes", {})
    by_release = {}
    machine = next(w for w in wlroots_sorted(matrix) if w["tested-in"] == "machine")["debian"]
    by_release[machine] = list(matrix["daemon"]["machine"])
    for w in wlroots_sorted(matrix):
        if w["tested-in"] == "root":
            by_release.setdefault(w["debian"], []).extend(w["compositors"])
    def named(c):
        return "%s (%s)" % (c, notes[package(c)]) if notes.get(package(c)) else c
    run = "; ".join("%s: %s" % (debian(matrix, codename)["name"], ", ".join(named(c) for c in listed))
                    for codename, listed in by_release.items())
    return ("**Run here** beside `wlr-orient daemon`, by the test suite: %s.\n\n"
            "**Expected** from the protocols they offer (wlr-output-management; wlr-layer-shell and "
            "ext-image-copy-capture or wlr-screencopy for the transitions), never run here: %s." % (run, ", ".join(matrix["daemon"]["expected"])))


def man_releases(matrix):
    releases = [w["release"] for w in wlroots_sorted(matrix)]
    return releases[0] if len(releases) == 1 else ", ".join(releases[:-1]) + " and " + releases[-1]


def render_into(path, begin, end, content):
    with open(path) as f:
        text = f.read()
    pattern = re.compile(re.escape(begin) + r"\n.*?\n" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit("support-matrix.py: %s has no place for it (%s ... %s)" % (os.path.basename(path), begin, end))
    rendered = pattern.sub(lambda _: begin + "\n" + content + "\n" + end, text)
    if rendered != text:
        with open(path, "w") as f:
            f.write(rendered)


def render_readme(matrix):
    render_into(README, README_BEGIN, README_END, readme_table(matrix))
    for path in (README, DAEMON_DOC):
        render_into(path, DAEMON_BEGIN, DAEMON_END, daemon_compositors(matrix))


def answer(matrix, args):
    what, rest = args[0], args[1:]
    if what == "releases":
        return [" ".join(w["release"] for w in wlroots_sorted(matrix))]
    if what == "roots":
        return ["%s %s" % (w["debian"], w["pkg-config"]) for w in wlroots_sorted(matrix) if w["tested-in"] == "root"]
    if what == "machine":
        return [w["pkg-config"] for w in matrix["wlroots"] if w["tested-in"] == "machine"]
    if what == "dev-packages":
        return [" ".join(w["dev-package"] for w in reversed(wlroots_sorted(matrix)))]
    if what == "root-packages" and len(rest) == 1:
        d = debian(matrix, rest[0])
        words = list(d["swift-needs"])
        for w in wlroots_sorted(matrix):
            if w["debian"] == d["codename"]:
                words += [w["dev-package"]] + ([w["examples-package"]] if "examples-package" in w else [])
                words += [package(c) for c in w["compositors"]]
        return [" ".join(dict.fromkeys(words))]
    if what == "autopkgtest" and len(rest) == 1:
        d = debian(matrix, rest[0])
        words = [package(c) for w in wlroots_sorted(matrix) if w["debian"] == d["codename"] for c in w["compositors"]]
        return [", ".join(dict.fromkeys(words + d.get("autopkgtest-needs", [])))]
    if what == "compositors" and len(rest) == 1:
        return [" ".join(package(c) for c in wlroots(matrix, rest[0])["compositors"])]
    if what == "debian" and len(rest) == 2:
        value = debian(matrix, rest[0])[rest[1]]
        return [" ".join(value) if isinstance(value, list) else str(value)]
    if what == "builds" and len(rest) == 1:
        debian(matrix, rest[0])
        return [" ".join("%s:%s" % (w["pkg-config"], w["release"]) for w in reversed(wlroots_sorted(matrix))
                         if w["debian"] == rest[0])]
    if what == "wlroots" and len(rest) == 2:
        value = wlroots(matrix, rest[0])[rest[1]]
        return [", ".join(value) if isinstance(value, list) else str(value)]
    if what == "daemon-compositors":
        return [" ".join(package(c) for c in matrix["daemon"]["machine"])]
    if what == "readme-table":
        return [readme_table(matrix)]
    if what == "man-releases":
        return [man_releases(matrix)]
    if what == "render-readme":
        render_readme(matrix)
        return []
    raise SystemExit(__doc__.strip())


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for line in answer(load(), argv):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

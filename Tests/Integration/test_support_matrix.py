"""support-matrix.toml is the one place the wlroots releases, the Debian releases and the
compositors are said; what says them again in its own terms must agree with it: the C header's
range (orient_wlr_features.h, which the C compiles against), the README's table and the man
page. Adding a release is an edit of the matrix and of the header; these fail while the two
disagree."""
import copy
import os
import re
import subprocess

import pytest

from harness import support_matrix
from harness.fakeiio import ROOT

pytestmark = pytest.mark.quick

HEADER = os.path.join(ROOT, "Sources", "CWlrGlue", "include", "orient_wlr_features.h")


def header_accepts(minor, directory):
    """Whether orient_wlr_features.h compiles for wlroots 0.MINOR (its <wlr/version.h> faked)."""
    version = os.path.join(directory, "wlr", "version.h")
    os.makedirs(os.path.dirname(version), exist_ok=True)
    with open(version, "w") as f:
        f.write("#define WLR_VERSION_NUM ((0 << 16) | (%d << 8) | 1)\n" % minor)
    program = os.path.join(directory, "probe.c")
    with open(program, "w") as f:
        f.write('#include "orient_wlr_features.h"\nint main(void) { return 0; }\n')
    return subprocess.run(["cc", "-fsyntax-only", "-I", directory, "-I", os.path.dirname(HEADER), program],
                          capture_output=True).returncode == 0


def disagreements_with_header(matrix, directory):
    """What the matrix and the header say differently of which releases are built for."""
    listed = {int(w["release"].split(".")[1]) for w in matrix["wlroots"]}
    accepted = {minor for minor in range(10, 40) if header_accepts(minor, directory)}
    said = []
    if listed - accepted:
        said.append("support-matrix.toml lists wlroots %s, which orient_wlr_features.h refuses"
                    % ", ".join("0.%d" % m for m in sorted(listed - accepted)))
    if accepted - listed:
        said.append("orient_wlr_features.h builds for wlroots %s, which support-matrix.toml does not list"
                    % ", ".join("0.%d" % m for m in sorted(accepted - listed)))
    return said


def test_the_header_builds_for_exactly_the_releases_of_the_matrix(tmp_path):
    assert disagreements_with_header(support_matrix.matrix(), str(tmp_path)) == []


def test_a_release_added_to_the_matrix_alone_is_caught(tmp_path):
    """What the check says when someone adds a release to one of the two only."""
    matrix = copy.deepcopy(support_matrix.matrix())
    newest = copy.deepcopy(support_matrix.reader.wlroots_sorted(matrix)[-1])
    minor = int(newest["release"].split(".")[1]) + 1
    newest.update({"release": "0.%d" % minor, "version": "0.%d.0" % minor, "pkg-config": "wlroots-0.%d" % minor})
    matrix["wlroots"].append(newest)
    assert disagreements_with_header(matrix, str(tmp_path)) == [
        "support-matrix.toml lists wlroots 0.%d, which orient_wlr_features.h refuses" % minor]
    matrix["wlroots"] = [w for w in matrix["wlroots"] if w["release"] != "0.15"]
    assert "orient_wlr_features.h builds for wlroots 0.15, which support-matrix.toml does not list" \
        in disagreements_with_header(matrix, str(tmp_path))


def test_the_readme_table_is_the_matrix_rendered():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    begin, end = support_matrix.reader.README_BEGIN, support_matrix.reader.README_END
    assert begin in readme and end in readme, "README.md has no rendered table"
    table = readme.split(begin, 1)[1].split(end, 1)[0].strip()
    assert table == support_matrix.reader.readme_table(support_matrix.matrix()), \
        "README.md's table is not the matrix's: python3 scripts/support-matrix.py render-readme"


def test_the_man_page_names_the_releases_of_the_matrix(tmp_path):
    source = os.path.join(ROOT, "docs", "man", "wlr-orient.1.scd")
    with open(source) as f:
        text = f.read()
    assert "@WLROOTS_RELEASES@" in text
    assert not re.search(r"\b0\.1[5-9]\b|\b0\.2\d\b", text), "a release named by hand in the man page"
    # Rendered as `make` renders it.
    man = tmp_path / "man"
    subprocess.run(["make", "-s", "-C", ROOT, "MAN=%s" % man, "%s/wlr-orient.1" % man], check=True)
    page = (man / "wlr-orient.1").read_text().replace("\\&", "")   # roff's zero-width marks after a dot
    releases = support_matrix.reader.man_releases(support_matrix.matrix())
    assert releases in page.replace("\n", " "), releases


def test_the_scripts_name_no_release_the_matrix_names():
    """The scripts ask the matrix: a wlroots package or pkg-config name written into one would
    be a second place to edit."""
    found = []
    for directory in ("scripts", os.path.join("contrib", "debian")):
        for name in sorted(os.listdir(os.path.join(ROOT, directory))):
            path = os.path.join(ROOT, directory, name)
            if not os.path.isfile(path) or name == "support-matrix.py":
                continue
            with open(path, errors="replace") as f:
                for number, line in enumerate(f, 1):
                    code = line.split("#", 1)[0]
                    if re.search(r"\bwlroots-0\.\d+\b|libwlroots-(0\.\d+-)?(dev|examples)", code):
                        found.append("%s:%d: %s" % (os.path.join(directory, name), number, line.strip()))
    assert found == []


def test_the_daemons_lists_are_the_matrix_rendered():
    """The README and docs/DAEMON.md say which compositors the daemon was run beside and which are
    only expected, as the matrix says (`support-matrix.py render-readme` writes both)."""
    begin, end = support_matrix.reader.DAEMON_BEGIN, support_matrix.reader.DAEMON_END
    for path in ("README.md", os.path.join("docs", "DAEMON.md")):
        with open(os.path.join(ROOT, path)) as f:
            text = f.read()
        assert begin in text and end in text, "%s has no rendered list of the daemon's compositors" % path
        said = text.split(begin, 1)[1].split(end, 1)[0].strip()
        assert said == support_matrix.reader.daemon_compositors(support_matrix.matrix()), \
            "%s's list is not the matrix's: python3 scripts/support-matrix.py render-readme" % path


def test_the_compositors_run_here_beside_the_daemon_are_those_the_suite_starts_at_those_versions():
    """On this machine, the matrix's list is exactly the compositors test_daemon_compositors.py
    starts (each test says which with `require`), and each is installed at the version listed;
    in the roots, the daemon runs beside every compositor of the matrix (Tests/Roots)."""
    listed = {c.split()[0]: c.split()[1] for c in support_matrix.matrix()["daemon"]["machine"]}
    with open(os.path.join(ROOT, "Tests", "Integration", "test_daemon_compositors.py")) as f:
        started = set(re.findall(r'require\("([\w-]+)"\)', f.read()))
    assert started == set(listed), "started beside the daemon: %s; the matrix says: %s" % (sorted(started), sorted(listed))
    for package, version in listed.items():
        installed = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True).stdout
        assert installed.startswith(version), "%s is %r here, the matrix says %s" % (package, installed, version)
    with open(os.path.join(ROOT, "Tests", "Roots", "test_root_compositors.py")) as f:
        roots = f.read()
    assert re.search(r'@pytest.mark.parametrize\("name,command,covers", HERE.*\)\ndef test_the_daemon_beside_it', roots), \
        "the roots no longer run the daemon beside every compositor of the matrix"

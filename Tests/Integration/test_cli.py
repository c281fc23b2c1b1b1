"""The CLI as a new user meets it: the built executable, run with the
mistakes people make, answers each in a sentence about their file or device and a non-zero
status, never with a Foundation error domain or code."""
import os
import re
import subprocess

import pytest

from harness.fakeiio import BIN, BUILD, ROOT, FakeIIO

TRACE = os.path.join(ROOT, "Tests", "Fixtures", "traces", "public", "trace_000.csv")
AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def run(*args, env=None, stdin=None, prefix=()):
    return subprocess.run(list(prefix) + [BIN] + list(args), env=env, input=stdin, capture_output=True,
                          text=True, timeout=60)


def no_internals(r):
    for word in ("NSCocoaErrorDomain", "The operation could not be completed", "error 256", "Foundation"):
        assert word not in r.stderr + r.stdout, r


def release():
    """The version, from the one line that writes it."""
    with open(os.path.join(ROOT, "Sources", "wlr-orient", "WlrOrient.swift")) as f:
        return re.search(r'^let wlrOrientVersion = "(\d+\.\d+\.\d+)"$', f.read(), re.M).group(1)


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == release(), r


@pytest.mark.parametrize("case", ["missing", "directory", "unreadable", "binary"])
def test_check_config_says_what_is_wrong_with_the_file(tmp_path, case):
    path = tmp_path / "config.toml"
    prefix = ()
    if case == "directory":
        path.mkdir()
    elif case == "binary":
        path.write_bytes(b"scope = \"focused\"\x00\x01\x02")
    elif case == "unreadable":
        path.write_text('scope = "focused"\n')
        path.chmod(0)
        prefix = AS_NOBODY   # root reads anything
    expected = {
        "missing": "there is no such file",
        "directory": "it is a directory, not a file",
        "unreadable": "it cannot be read (permission denied)",
        "binary": "it is not a text file",
    }[case]
    r = run("check-config", str(path), prefix=prefix)
    assert r.returncode == 1, r
    assert "%s:1:1: cannot use it as a config: %s" % (path, expected) in r.stderr, r.stderr
    no_internals(r)


@pytest.mark.parametrize("case", ["missing", "directory", "binary", "empty"])
def test_detect_says_what_is_wrong_with_the_trace(tmp_path, case):
    path = tmp_path / "trace.csv"
    if case == "directory":
        path.mkdir()
    elif case == "binary":
        path.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    elif case == "empty":
        path.write_text("")
    expected = {
        "missing": "%s: cannot read the trace: there is no such file" % path,
        "directory": "%s: cannot read the trace: it is a directory, not a file" % path,
        "binary": "%s: cannot read the trace: it is not a text file (it holds binary data, or text that is not UTF-8)" % path,
        "empty": "%s: the trace is empty; record one with 'wlr-orient record -o FILE'" % path,
    }[case]
    r = run("detect", str(path))
    assert r.returncode == 1, r
    assert r.stderr.strip() == expected, r.stderr
    no_internals(r)


def test_detect_reads_windows_line_endings_and_standard_input(tmp_path):
    with open(TRACE) as f:
        text = f.read()
    expected = run("detect", TRACE)
    assert expected.returncode == 0 and expected.stdout, expected
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(text.replace("\n", "\r\n").encode())
    r = run("detect", str(crlf))
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected.stdout
    r = run("detect", "-", stdin=text)
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected.stdout


def test_sensor_without_an_accelerometer_says_so_and_fails():
    fake = FakeIIO()   # a testbed with no device at all
    r = run("sensor", "--seconds", "5", env=fake.env())
    assert r.returncode == 1, r
    assert "wlr-orient sensor: no accelerometer found (looked in /sys/bus/iio/devices, through libiio)" in r.stderr, r.stderr


def test_record_without_an_accelerometer_leaves_no_file_behind(tmp_path):
    fake = FakeIIO()
    out = tmp_path / "f.csv"
    r = run("record", "--seconds", "5", "-o", str(out), env=fake.env())
    assert r.returncode == 1, r
    assert "wlr-orient record: no accelerometer found (looked in /sys/bus/iio/devices, through libiio); %s was not written" % out \
        in r.stderr, r.stderr
    assert not out.exists()


def test_the_readme_lists_the_same_commands_and_options_as_help():
    """The README's table of commands names every command and option --help does (the man page
    is compared with --help in test_install.py)."""
    help_text = run("--help").stdout
    subcommands = re.findall(r"^  ([a-z][a-z-]+)\s", help_text.split("SUBCOMMANDS:")[1], re.M)
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    table = readme.split("\n## CLI\n")[1].split("\n## ")[0]
    rows = {}
    for line in table.splitlines():
        m = re.match(r"^\| `wlr-orient ([a-z][a-z-]+)([^`]*)`", line)
        if m:
            rows[m.group(1)] = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*|(?<![\w-])-[a-z](?![\w-])", m.group(2)))
    assert set(subcommands) == set(rows), (subcommands, sorted(rows))
    for command in subcommands:
        text = run("help", command).stdout
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text)) - {"--help", "--version"}
        assert options <= rows[command], (command, options - rows[command])


def test_every_subcommand_answers_help_with_its_own_and_the_other_names_say_what_they_are(tmp_path):
    help_text = run("--help").stdout
    subcommands = re.findall(r"^  ([a-z][a-z-]+)\s", help_text.split("SUBCOMMANDS:")[1], re.M)
    assert "run" in subcommands and "daemon" in subcommands, subcommands
    for command in subcommands:
        for asked in ([command, "--help"], ["help", command]):
            r = run(*asked)
            assert r.returncode == 0 and r.stdout.startswith("OVERVIEW:"), (asked, r)
            assert "USAGE: wlr-orient %s" % command in r.stdout, (asked, r.stdout[:300])
    # After "--", --help is the compositor's: `run -- --help` starts a program called --help.
    # (The build beside the plugin and the preload, which run needs before it starts anything.)
    r = subprocess.run([os.path.join(BUILD, "wlr-orient"), "run", "--", "--help"], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 127 and "cannot start --help" in r.stderr, r
    # The same program by its other two names (links beside it, as the daemon is installed and
    # starts its helper), and the plugin's lean helper.
    for name in ("wlr-orient-daemon", "wlr-orient-sensor-feed"):
        link = tmp_path / name
        link.symlink_to(BIN)
        r = subprocess.run([str(link), "--help"], capture_output=True, text=True, timeout=30)
        assert r.returncode == 0 and r.stdout.startswith("usage: %s " % name), (name, r)
    r = subprocess.run([os.path.join(BUILD, "wlr-orient-sensor-feed"), "--help"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and r.stdout.startswith("usage: wlr-orient-sensor-feed "), r


def test_every_rule_the_code_cites_is_in_docs_design():
    """A "rule 5" in a comment or a test name points at docs/DESIGN.md."""
    with open(os.path.join(ROOT, "docs", "DESIGN.md")) as f:
        rules = {int(n) for n in re.findall(r"^(\d+)\. \*\*", f.read(), re.M)}
    assert len(rules) >= 13 and rules == set(range(1, max(rules) + 1)), sorted(rules)
    cited = {}
    for top in ("Sources", "Tests"):
        for directory, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if not name.endswith((".swift", ".c", ".h")):
                    continue
                path = os.path.join(directory, name)
                with open(path, errors="replace") as f:
                    for m in re.finditer(r"\brules? (\d+)(?:[–-](\d+))?(?![\d°])", f.read()):
                        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
                        for n in range(first, last + 1):
                            cited.setdefault(n, os.path.relpath(path, ROOT))
    assert len(cited) >= 6, "the citations were not found: %s" % cited
    missing = {n: path for n, path in cited.items() if n not in rules}
    assert not missing, "cited but not in docs/DESIGN.md: %s" % missing

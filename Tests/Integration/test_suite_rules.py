"""The suite's own rules, read from its source: a test decides on typed events (harness/events.py),
never on the plugin's or the daemon's log sentences, unless the sentence's wording is what it
tests, and then it says so (`@pytest.mark.wording`); benchmarks and the demo read events only;
every marker a test carries is a declared tier (harness/tiers.py)."""
import ast
import os
import types

import pytest

from harness import tiers
from harness.fakeiio import ROOT

pytestmark = pytest.mark.quick

# Waits on a log that the rule allows outside wording tests: the log of a program with no events.
OWN_LOGS = {
    ("Tests/Integration/test_plugin.py", "test_a_missing_or_broken_plugin_is_logged_and_the_host_runs_on"):
        "the reference host's own line: no plugin runs to send events",
    ("Tests/Integration/test_run.py", "*"): "the preload's lines: C in the compositor, with no events",
    ("benchmarks/rotation_latency_sway.py", "*"): "the preload's frame lines in sway (its debug output)",
    ("Tests/Integration/test_sensor.py", "*"): "the CLI's output (`wlr-orient record`), its interface",
    # foot's protocol trace (WAYLAND_DEBUG): what the app receives, in libwayland's words.
    ("Tests/Integration/harness/compositor.py", "wait_configure"): "foot's protocol trace",
    ("Tests/Integration/harness/compositor.py", "wait_configure_of"): "foot's protocol trace",
    ("Tests/Integration/harness/debian_compositors.py", "app_configured"): "foot's protocol trace",
    ("Tests/Integration/harness/debian_compositors.py", "foot_configure"): "foot's protocol trace",
    ("contrib/demo/demo.py", "first_configure"): "foot's protocol trace",
}
LOG_WAITS = {"wait", "next", "wait_all"}


def python_files(*directories):
    for directory in directories:
        for base, _, names in os.walk(os.path.join(ROOT, directory)):
            for name in sorted(names):
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(base, name), ROOT)


def marks_of(function):
    """The pytest marks a function is decorated with (pytest.mark.NAME, with or without a call)."""
    found = set()
    for decorator in function.decorator_list:
        node = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "mark":
            found.add(node.attr)
    return found


def module_marks(tree):
    """The marks of a module's `pytestmark`."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            return {v.attr for v in values if isinstance(v, ast.Attribute)}
    return set()


def log_reads(tree):
    """(function, line, what) for each read of log sentences: `logged(...)`, and a wait on a
    stream called `log` (`host.log.wait(...)`)."""
    found = []
    # A script's top level counts as a function of its own, "<module>" (inner functions win below).
    module = types.SimpleNamespace(name="<module>", lineno=0, decorator_list=[], walk=tree)
    for function in [module] + [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        for node in ast.walk(getattr(function, "walk", function)):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name) and node.func.id == "logged":
                found.append((function, node.lineno, "logged()"))
            elif isinstance(node.func, ast.Attribute) and node.func.attr in LOG_WAITS \
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr in ("log", "daemon_log"):
                found.append((function, node.lineno, ".log.%s()" % node.func.attr))
    # A helper's read counts where the helper is defined; the innermost function holds the line.
    innermost = {}
    for function, line, what in found:
        if (line, what) not in innermost or function.lineno > innermost[(line, what)].lineno:
            innermost[(line, what)] = function
    return [(function, line, what) for (line, what), function in sorted(innermost.items())]


def test_no_test_decides_on_a_log_sentence_unless_its_wording_is_what_it_tests():
    wrong = []
    for path in python_files("Tests/Integration", "Tests/Roots", "benchmarks", "contrib/demo"):
        with open(os.path.join(ROOT, path)) as f:
            tree = ast.parse(f.read(), path)
        for function, line, what in log_reads(tree):
            if (path, function.name) in OWN_LOGS or (path, "*") in OWN_LOGS:
                continue
            if function.name.startswith("test_") and "wording" in marks_of(function):
                continue
            wrong.append("%s:%d: %s in %s" % (path, line, what, function.name))
    assert wrong == [], "log sentences read outside a test of their wording (mark it wording, or wait on an event):\n" \
        + "\n".join(wrong)


def test_every_mark_is_a_declared_tier():
    known = set(tiers.TIERS) | {"parametrize"}
    unknown = []
    for path in python_files("Tests/Integration", "Tests/Roots"):
        with open(os.path.join(ROOT, path)) as f:
            tree = ast.parse(f.read(), path)
        used = module_marks(tree)
        for function in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            used |= marks_of(function)
        unknown += ["%s: %s" % (path, m) for m in sorted(used - known)]
    assert unknown == []


def test_the_rule_finds_a_log_read_outside_a_wording_test():
    """The check above can fail: it finds each kind of read in a test that is not marked."""
    source = ("import pytest\n"
              "def test_a(host):\n    assert logged(host.events)\n"
              "@pytest.mark.wording\ndef test_b(host):\n    assert logged(host.events)\n"
              "def test_c(host):\n    host.log.wait('x')\n"
              "def helper(s):\n    return s.daemon_log.next(lambda l: True)\n"
              "host.log.wait('y')\n")
    reads = [(f.name, what, "wording" in marks_of(f)) for f, _, what in log_reads(ast.parse(source))]
    assert reads == [("test_a", "logged()", False), ("test_b", "logged()", True), ("test_c", ".log.wait()", False),
                     ("helper", ".log.next()", False), ("<module>", ".log.wait()", False)]

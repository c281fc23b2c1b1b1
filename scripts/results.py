#!/usr/bin/env python3
"""The tests' results read as data: the JUnit XML files that `pytest --junitxml` and
`swift test --xunit-output` write (one per part of the suite), never their console text.

    results.py summary FILE...        one line per file and a total: passed, failed, skipped;
                                      exit 1 if any test failed or was skipped, or a file is
                                      missing, unreadable or holds no test
    results.py failures FILE...       the failed tests' names, one per line
    results.py durations N FILE...    the N slowest tests, seconds first
    results.py hunt N FILE...         over several runs of one suite (scripts/flake-hunt.sh): each
                                      test that failed in any, with how often, and the N slowest
                                      tests by their longest run; exit 1 if any failed

A skipped test never counts as passed: the suite installs what each test needs, so a skip is a
failure to set the machine up, and is reported as such.
"""
import sys
import xml.etree.ElementTree as ElementTree


class Results:
    def __init__(self, path):
        self.path = path
        self.cases = []   # (name, seconds, outcome): outcome is passed, failed or skipped
        root = ElementTree.parse(path).getroot()
        for case in root.iter("testcase"):
            name = "%s::%s" % (case.get("classname", ""), case.get("name", ""))
            if case.find("failure") is not None or case.find("error") is not None:
                outcome = "failed"
            elif case.find("skipped") is not None:
                outcome = "skipped"
            else:
                outcome = "passed"
            self.cases.append((name, float(case.get("time") or 0), outcome))
        # An error outside any test (a fixture of the session, collection) is a failure too.
        self.errors_outside = sum(int(s.get("errors") or 0) for s in root.iter("testsuite")) \
            - sum(1 for c in root.iter("testcase") if c.find("error") is not None)

    def count(self, outcome):
        return sum(1 for _, _, o in self.cases if o == outcome)


def read(paths):
    results, problems = [], []
    for path in paths:
        try:
            results.append(Results(path))
        except (OSError, ElementTree.ParseError) as error:
            problems.append("%s: no results (%s)" % (path, error))
    return results, problems


def summary(paths):
    results, problems = read(paths)
    passed = failed = skipped = 0
    for r in results:
        p, f, s = r.count("passed"), r.count("failed") + max(0, r.errors_outside), r.count("skipped")
        print("%s: %d passed, %d failed, %d skipped" % (r.path, p, f, s))
        if not r.cases:
            problems.append("%s: ran no tests" % r.path)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    for problem in problems:
        print(problem)
    print("tests: %d passed, %d failed, %d skipped" % (passed, failed + len(problems), skipped))
    return 0 if failed == 0 and skipped == 0 and not problems else 1


def failures(paths):
    results, problems = read(paths)
    for r in results:
        for name, _, outcome in r.cases:
            if outcome != "passed":
                print("%s %s" % (outcome, name))
    for problem in problems:
        print(problem)
    return 0


def durations(count, paths):
    results, _ = read(paths)
    cases = sorted((seconds, name) for r in results for name, seconds, _ in r.cases)
    for seconds, name in reversed(cases[-count:]):
        print("%8.2f s  %s" % (seconds, name))
    return 0


def hunt(count, paths):
    results, problems = read(paths)
    runs = len(results)
    failed, longest = {}, {}
    for r in results:
        for name, seconds, outcome in r.cases:
            longest[name] = max(seconds, longest.get(name, 0.0))
            if outcome != "passed":
                failed[name] = failed.get(name, 0) + 1
        if r.errors_outside > 0:
            failed["(outside any test) " + r.path] = r.errors_outside
    total = sum(len(r.cases) for r in results)
    print("%d runs, %d tests run in all, %d failures" % (runs, total, sum(failed.values()) + len(problems)))
    for name, times in sorted(failed.items(), key=lambda item: -item[1]):
        print("FAILED %d of %d: %s" % (times, runs, name))
    for problem in problems:
        print(problem)
    print("the %d slowest (longest run):" % count)
    for name, seconds in sorted(longest.items(), key=lambda item: -item[1])[:count]:
        print("%8.2f s  %s" % (seconds, name))
    return 1 if failed or problems else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "summary":
        return summary(argv[1:])
    if len(argv) >= 2 and argv[0] == "failures":
        return failures(argv[1:])
    if len(argv) >= 3 and argv[0] == "hunt":
        return hunt(int(argv[1]), argv[2:])
    if len(argv) >= 3 and argv[0] == "durations":
        return durations(int(argv[1]), argv[2:])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

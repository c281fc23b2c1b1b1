#!/usr/bin/env bash
# The whole test suite: unit tests of the pure core, the CLI run as a user runs it.
# Installs what it needs first. Ends with one line "tests: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tail -n 3
set +e
swift test 2>&1 | tee "$log" | grep -E '^(✘|✔ Suite|􀢄)|error:|Test run with' 
status=${PIPESTATUS[0]}
set -e

# Swift Testing's closing line: "Test run with N tests in M suites passed/failed ..."
summary=$(grep -E 'Test run with [0-9]+ tests' "$log" | tail -n 1 || true)
total=$(sed -nE 's/.*Test run with ([0-9]+) tests.*/\1/p' <<<"$summary")
failed=$(grep -cE '^✘ Test .* (failed|recorded)' "$log" || true)
if [ -z "$total" ] || [ "$total" -eq 0 ]; then
    echo "scripts/test.sh: no tests ran" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    grep -E '^✘|error:' "$log" | head -n 40 >&2
    echo "tests: $((total - failed)) passed, ${failed:-1} failed"
    exit 1
fi
echo "tests: $total passed, 0 failed"

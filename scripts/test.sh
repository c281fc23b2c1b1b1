#!/usr/bin/env bash
# The whole test suite, installing what it needs first:
#  1. Swift tests: the pure core, the CLI as a user runs it, the trace corpus;
#  2. integration tests, driven by Debian's python3: the sensor layer against fake
#     accelerometers under umockdev (real libiio and libudev), and the plugin end to end in
#     the reference host compositor with real clients (wlr-randr, grim, our own);
#  3. the plugin built against wlroots 0.18, 0.19 and 0.20 in Debian roots, and run inside their
#     own sway, labwc, cage, phoc and wayfire (scripts/test-roots.sh; the roots are made once and
#     cached outside the clone);
#  4. Debian unstable's packages built offline in its root (lintian, piuparts), then installed
#     with apt into a bare root of it and run there: the programs as a user meets them and the
#     packages' autopkgtest (scripts/build-debs.sh, scripts/test-debs.sh; Debian 12 and 13 by the
#     same two commands, outside this suite).
# Each part runs under scripts/no-leftovers.py, which fails it if it leaves a process running.
# Ends with each part's wall time and one line "tests: N passed, M failed".
#
#   scripts/test.sh            everything (CI runs this)
#   scripts/test.sh --quick    for development: the Swift tests and the end-to-end tests in the
#                              reference host (debug build; no release build, valgrind, fuzzing,
#                              Debian roots or packages)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
case "${1:-}" in
    --quick) quick=true ;;
    "") ;;
    *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
started=$(date +%s)
scripts/install-deps.sh test
bash scripts/generate-protocols.sh   # Wayland protocol glue from its XML (not committed)

log=$(mktemp)
pylog=$(mktemp)
rootlog=$(mktemp)
debslog=$(mktemp)
trap 'rm -f "$log" "$pylog" "$rootlog" "$debslog"' EXIT
swift build --build-tests 2>&1 | tail -n 3
# The plugin as libwlr-orient.so and the reference host, for the end-to-end tests; the
# release plugin as shipped (static runtime, only the C API exported) is tested too.
$quick || bash scripts/build-plugin.sh release build/release
bash scripts/build-plugin.sh debug

part() {  # part NAME COMMAND...: the command, failed if it leaves a process running
    local name=$1
    shift
    /usr/bin/python3 scripts/no-leftovers.py "$name" "$@"
}
times=""
timed() {  # timed NAME: the wall time since the last call, for the summary
    local now
    now=$(date +%s)
    times+="$1 $((now - started)) s; "
    started=$now
}
timed build

set +e
part swift swift test 2>&1 | tee "$log" | grep -E '^(✘|✔ Suite)|error:|Test run with|left a process|left behind'
swift_status=${PIPESTATUS[0]}
timed swift
# Debian's python3, not a pyenv shim: the GObject bindings for umockdev live there.
if $quick; then
    integration=(Tests/Integration/test_plugin.py Tests/Integration/test_transitions.py Tests/Integration/test_protocol.py
                 Tests/Integration/test_control.py Tests/Integration/test_apps.py Tests/Integration/test_outside_changes.py
                 -k "not release and not valgrind")
else
    integration=(Tests/Integration)
fi
WLR_ORIENT_BIN="$(swift build --show-bin-path)/wlr-orient" \
    part pytest /usr/bin/python3 -m pytest -q -p no:cacheprovider "${integration[@]}" 2>&1 | tee "$pylog" | tail -n 25
py_status=${PIPESTATUS[0]}
timed integration
if $quick; then
    echo "roots: 0 passed, 0 failed" >"$rootlog"
    echo "debs sid: 0 passed, 0 failed" >"$debslog"
    roots_status=0 debs_status=0
else
    part roots bash scripts/test-roots.sh 2>&1 | tee "$rootlog" | grep -E '^(roots|test-roots|a C program|FAILED|ERROR )|left a process|left behind'
    roots_status=${PIPESTATUS[0]}
    timed roots
    { part debs-build bash scripts/build-debs.sh sid && part debs-test bash scripts/test-debs.sh sid; } 2>&1 | tee "$debslog" \
        | grep -E '^(built|lintian|piuparts|installed|ok|FAILED|debs |test-debs|build-debs)|left a process|left behind'
    debs_status=${PIPESTATUS[0]}
    timed debs
fi
set -e

swift_total=$(sed -nE 's/.*Test run with ([0-9]+) tests.*/\1/p' "$log" | tail -n 1)
swift_failed=$(grep -cE '^✘ Test [^ ]+\(.*\) (with .*)?failed' "$log" || true)
# Counted from pytest's own summary (its last line of its own), not from output a failing test printed.
py_summary=$(grep -E '^(=+ )?[0-9]+ (passed|failed|errors?)' "$pylog" | tail -n 1)
py_passed=$( (grep -oE '[0-9]+ passed' <<<"$py_summary" || true) | grep -oE '[0-9]+' || true)
py_failed=$( (grep -oE '[0-9]+ (failed|errors?)' <<<"$py_summary" || true) | awk '{s+=$1} END {print s+0}')
swift_total=${swift_total:-0}
py_passed=${py_passed:-0}
if [ "$swift_total" -eq 0 ] || { [ "$py_passed" -eq 0 ] && [ "$py_failed" -eq 0 ]; }; then
    echo "scripts/test.sh: a test runner ran no tests (swift: $swift_total, pytest: $py_passed)" >&2
    exit 1
fi
if [ "$swift_status" -ne 0 ] && [ "$swift_failed" -eq 0 ]; then swift_failed=1; fi
if [ "$py_status" -ne 0 ] && [ "$py_failed" -eq 0 ]; then py_failed=1; fi
summary() {  # summary LOG PREFIX STATUS: "PASSED FAILED" from the part's "PREFIX: N passed, M failed"
    local line passed failed
    line=$(grep -E "^$2: " "$1" | tail -n 1 || true)
    passed=$(sed -nE "s/^$2: ([0-9]+) passed.*/\\1/p" <<<"$line")
    failed=$(sed -nE 's/.*, ([0-9]+) failed$/\1/p' <<<"$line")
    # A part that failed without saying so counts one failure.
    if [ "$3" -ne 0 ] && [ "${failed:-0}" -eq 0 ]; then failed=1; fi
    echo "${passed:-0} ${failed:-0}"
}
read -r roots_passed roots_failed <<<"$(summary "$rootlog" roots "$roots_status")"
read -r debs_passed debs_failed <<<"$(summary "$debslog" "debs sid" "$debs_status")"
passed=$((swift_total - swift_failed + py_passed + roots_passed + debs_passed))
failed=$((swift_failed + py_failed + roots_failed + debs_failed))
if grep -q "left behind" "$pylog"; then py_failed=$((py_failed + 1)); failed=$((failed + 1)); fi
echo "time: ${times%; }"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

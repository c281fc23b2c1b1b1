#!/usr/bin/env bash
# The whole test suite, installing what it needs first:
#  1. Swift tests: the pure core, the CLI as a user runs it, the trace corpus;
#  2. integration tests, driven by Debian's python3: the sensor layer against fake
#     accelerometers under umockdev (real libiio and libudev), and the plugin end to end in
#     the reference host compositor with real clients (wlr-randr, grim, our own);
#  3. what differs between wlroots releases (the tests marked `roots`), again for each release of
#     support-matrix.toml that this machine's Debian lacks, in a Debian root of its own, with the
#     plugin built there and run inside that root's sway, labwc, cage, phoc and wayfire
#     (scripts/test-roots.sh; the roots are made once and cached outside the clone);
#  4. Debian unstable's packages built offline in its root (lintian, piuparts), then installed
#     with apt into a bare root of it and run there: the programs as a user meets them and the
#     packages' autopkgtest (scripts/build-debs.sh, scripts/test-debs.sh; Debian 12 and 13 by the
#     same two commands, outside this suite).
# Each part runs under scripts/no-leftovers.py, which fails it if it leaves a process running.
# Parts 3 and 4 run beside 1 and 2 (4 at a lower priority), part 1 beside the release build, and
# part 2's tests under valgrind beside its others. Each part writes its results as JUnit XML in build/results/, and the verdict is read from those
# (scripts/results.py), never from what a runner printed. Ends with each part's wall time and
# one line "tests: N passed, M failed, S skipped" (a skipped test is a failure to set up).
#
#   scripts/test.sh            everything (CI runs this)
#   scripts/test.sh --quick    for development: the Swift tests and the tests marked `quick` (the
#                              reference host's end-to-end tests; debug build; no release build,
#                              valgrind, Debian roots or packages)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
case "${1:-}" in
    --quick) quick=true ;;
    "") ;;
    *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
started=$(date +%s)
results=build/results
rm -rf "$results"
mkdir -p "$results"
times=""
timed() {  # timed NAME: the wall time since the last call, for the summary
    local now
    now=$(date +%s)
    times+="$1 $((now - started)) s; "
    started=$now
}
part() {  # part NAME COMMAND...: the command, failed if it leaves a process running
    local name=$1
    shift
    /usr/bin/python3 scripts/no-leftovers.py "$name" "$@"
}
failed_parts=()
check_part() {  # check_part NAME STATUS: a part that failed is named in the verdict
    [ "$2" -eq 0 ] || failed_parts+=("$1")
}

# What the suite needs from Debian, first: nothing else runs apt meanwhile.
scripts/install-deps.sh test
expected=("$results/swift-swift-testing.xml" "$results/integration.xml")

# The Debian roots and packages (parts 3 and 4) run beside this machine's build and tests (parts
# 1 and 2), and beside each other once the roots are made: most of both is waiting on the archive, compositors and builds (the suite used a third
# of the two cores), and the tests hold up on a machine this busy (scripts/flake-hunt.sh). Their
# lines are shown when both are done.
if ! $quick; then
    while read -r _ wlroots; do expected+=("$results/roots-$wlroots.xml"); done < <(python3 scripts/support-matrix.py roots)
    expected+=("$results/debs-sid.xml")
    beside=$results/roots-and-debs.log
    (
        set +e
        # The roots first, each made once (nearly all of it waits on the archive); then the roots'
        # tests and the packages (built in sid's root, which they only read) side by side.
        begun=$(date +%s)
        part roots-make bash -c 'for release in $(python3 scripts/support-matrix.py roots | cut -d " " -f 1 | sort -u); do
            bash scripts/debian-root.sh path "$release" || exit 1; done' </dev/null >"$results/roots-make.log" 2>&1
        made=$?
        echo "roots-make $made $(( $(date +%s) - begun ))"
        roots() {
            local begun=$(date +%s)
            part roots bash scripts/test-roots.sh </dev/null >"$results/roots.log" 2>&1
            echo "roots $? $(( $(date +%s) - begun ))"
        }
        debs() {
            local begun=$(date +%s)
            # At a lower priority: the package build has slack (it ends long before this machine's
            # tests do), and took the cores evenly from this machine's build (472 s beside it,
            # 213 s alone). The roots' tests are not lowered: their compositors and clients keep
            # time (a client slow to redraw shows in a transition's frames).
            renice -n 5 -p $BASHPID >/dev/null
            { part debs-build bash scripts/build-debs.sh sid && part debs-test bash scripts/test-debs.sh sid; } \
                </dev/null >"$results/debs.log" 2>&1
            echo "debs $? $(( $(date +%s) - begun ))"
        }
        if [ "$made" -eq 0 ]; then
            roots &
            debs &
            wait
        else
            # A root not made would be made by both at once: one after the other, as they fail.
            roots
            debs
        fi
    ) >"$beside" &
    beside_pid=$!
fi
set +e
# The debug build first; then the Swift tests (mostly waiting on timers and children) beside the
# release build, which only the integration tests use.
bash scripts/build-for-tests.sh --quick
built=$?
timed build
if [ $built -ne 0 ]; then
    echo "scripts/test.sh: the build failed; no test of this machine ran" >&2
    [ -z "${beside_pid:-}" ] || wait "$beside_pid"
    exit 1
fi
part swift swift test --skip-build --xunit-output "$results/swift.xml" >"$results/swift.log" 2>&1 &
swift_pid=$!
if ! $quick; then
    bash scripts/build-plugin.sh release build/release
    built=$?
    timed "release build"
fi
wait "$swift_pid"
check_part swift $?
grep -E '^(✘|✔ Suite)|error:|Test run with|left a process|left behind' "$results/swift.log"
timed swift
if [ $built -ne 0 ]; then
    echo "scripts/test.sh: the release build failed; no integration test ran" >&2
    [ -z "${beside_pid:-}" ] || wait "$beside_pid"
    exit 1
fi
# Debian's python3, not a pyenv shim: the GObject bindings for umockdev live there.
export WLR_ORIENT_BIN="$(swift build --show-bin-path)/wlr-orient"
if $quick; then
    tier=(-m "quick and not release and not valgrind and not slow")
else
    # The tests under valgrind (a quarter of part 2's time, nearly all of it one process's CPU)
    # run beside the others, which mostly wait on compositors, clients and sensors; each part has
    # its own results and its own check for processes left behind.
    tier=(-m "not valgrind")
    expected+=("$results/valgrind.xml")
    part valgrind /usr/bin/python3 -m pytest -q -p no:cacheprovider --strict-markers -m valgrind \
        --junitxml="$results/valgrind.xml" Tests/Integration >"$results/valgrind.log" 2>&1 &
    valgrind_pid=$!
fi
part pytest /usr/bin/python3 -m pytest -q -p no:cacheprovider --strict-markers "${tier[@]}" \
    --junitxml="$results/integration.xml" Tests/Integration 2>&1 | tail -n 25
check_part integration "${PIPESTATUS[0]}"
timed integration
if ! $quick; then
    wait "$valgrind_pid"
    check_part valgrind $?
    tail -n 5 "$results/valgrind.log"
    timed "waiting for valgrind"
fi
if ! $quick; then
    wait "$beside_pid"
    grep -E 'debian-root.sh|left a process|left behind' "$results/roots-make.log"
    grep -E '^(roots|test-roots|a C program|built for|FAILED|ERROR )|left a process|left behind' "$results/roots.log"
    grep -E '^(built|lintian|piuparts|installed|ok|FAILED|debs |test-debs|build-debs)|left a process|left behind' "$results/debs.log"
    while read -r name status seconds; do
        check_part "$name" "$status"
        times+="$name $seconds s (beside); "
    done <"$beside"
    timed "waiting for roots and debs"
fi
set -e

echo "time: ${times%; }"
verdict=0
/usr/bin/python3 scripts/results.py summary "${expected[@]}" || verdict=1
if [ ${#failed_parts[@]} -gt 0 ]; then
    # A part can fail with every test passed: a process left behind, a build that broke.
    echo "failed parts: ${failed_parts[*]}"
    verdict=1
fi
exit $verdict

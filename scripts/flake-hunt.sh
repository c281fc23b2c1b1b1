#!/usr/bin/env bash
# Hunts flaky tests: runs the integration suite (or the pytest arguments given) RUNS times with
# the machine oversubscribed (LOAD busy loops beside it, two by default: on this machine's two
# cores, each test gets about a third of the CPU it would alone), then says, from the runs'
# JUnit results, each test that failed and how often, and the slowest tests (their longest run).
# A test that fails here is waiting on the wrong thing, or the product is wrong: fix that, never
# the timeout.
#   scripts/flake-hunt.sh [--runs N] [--load K] [--slowest M] [PYTEST ARGUMENT...]
#   scripts/flake-hunt.sh --runs 10 Tests/Integration/test_control.py -k watcher
# Results in build/flake-hunt/run-N.xml. Builds what the tests need first (as the suite does).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 load=2 slowest=10
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --load) load=$2; shift 2 ;;
        --slowest) slowest=$2; shift 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || set -- Tests/Integration
bash scripts/build-for-tests.sh
out=build/flake-hunt
rm -rf "$out"
mkdir -p "$out"
busy=()
stop_load() { [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true; }
trap stop_load EXIT
for _ in $(seq "$load"); do
    /usr/bin/python3 -c 'while True: pass' &
    busy+=($!)
done
export WLR_ORIENT_BIN
WLR_ORIENT_BIN="$(swift build --show-bin-path)/wlr-orient"
times=()
for run in $(seq "$runs"); do
    started=$(date +%s)
    /usr/bin/python3 scripts/no-leftovers.py "flake hunt $run" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
        --junitxml="$out/run-$run.xml" "$@" 2>&1 | tail -n 3 || true
    times+=("run $run: $(( $(date +%s) - started )) s")
done
stop_load
echo "== $runs runs beside $load busy loops: ${times[*]}"
/usr/bin/python3 scripts/results.py hunt "$slowest" "$out"/run-*.xml

#!/usr/bin/env bash
# The plugin, the preload and the CLI built and tested against every wlroots Debian carries that
# this machine's release does not, each in a root of the Debian release that has it
# (support-matrix.toml: 0.18 in trixie, 0.19 and 0.20 in sid; scripts/debian-root.sh, made once
# and cached outside the clone). Ends with "roots: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
while read -r release wlroots; do
    out=$(mktemp)
    bash scripts/debian-root.sh run "$release" bash /src/scripts/in-root.sh "$wlroots" </dev/null 2>&1 | tee "$out" | tail -n 20 || true
    line=$(grep -E "^roots $wlroots: " "$out" | tail -n 1 || true)
    if [ -z "$line" ]; then
        echo "test-roots.sh: $wlroots in $release did not get as far as its tests" >&2
        failed=$((failed + 1))
    else
        passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
        failed=$((failed + $(sed -E 's/.*, ([0-9]+) failed.*/\1/' <<<"$line")))
    fi
    rm -f "$out"
done < <(python3 scripts/support-matrix.py roots)
echo "roots: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

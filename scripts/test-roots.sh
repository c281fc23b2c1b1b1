#!/usr/bin/env bash
# The plugin, the preload and the CLI built and tested against every wlroots Debian carries after
# 0.15: 0.18 in a trixie root, 0.19 and 0.20 in a sid root (scripts/debian-root.sh,
# made once and cached outside the clone). Ends with "roots: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
for pair in "trixie wlroots-0.18" "sid wlroots-0.19" "sid wlroots-0.20"; do
    read -r release wlroots <<<"$pair"
    out=$(mktemp)
    bash scripts/debian-root.sh run "$release" bash /src/scripts/in-root.sh "$wlroots" 2>&1 | tee "$out" | tail -n 20 || true
    line=$(grep -E "^roots $wlroots: " "$out" | tail -n 1 || true)
    if [ -z "$line" ]; then
        echo "test-roots.sh: $wlroots in $release did not get as far as its tests" >&2
        failed=$((failed + 1))
    else
        passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
        failed=$((failed + $(sed -E 's/.*, ([0-9]+) failed.*/\1/' <<<"$line")))
    fi
    rm -f "$out"
done
echo "roots: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

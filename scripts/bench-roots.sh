#!/usr/bin/env bash
# The plugin's benchmarks in the releases after 0.15: in one 0.18 (trixie)
# and one 0.20 (sid) userland, built for release against that wlroots, the reference host's
# rotation latency, memory and transition cost per frame, and the rotation latency in that
# release's sway under wlr-orient run. Named numbers, prefixed with the wlroots (wlroots_0_20_...).
#   bash scripts/bench-roots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for pair in "trixie wlroots-0.18" "sid wlroots-0.20"; do
    read -r release wlroots <<<"$pair"
    bash scripts/debian-root.sh run "$release" bash /src/scripts/in-root.sh "$wlroots" bench
done

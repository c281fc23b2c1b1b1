#!/usr/bin/env bash
# The plugin's benchmarks in each wlroots release tested in a root whose archive builds sway with
# it (support-matrix.toml: 0.18 in trixie, 0.20 in sid), built for release against it: the reference host's
# rotation latency, memory and transition cost per frame, and the rotation latency in that
# release's sway under wlr-orient run. Named numbers, prefixed with the wlroots (wlroots_0_20_...).
#   bash scripts/bench-roots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/support-matrix.py roots | while read -r release wlroots; do
    [[ " $(python3 scripts/support-matrix.py compositors "$wlroots") " == *" sway "* ]] || continue
    bash scripts/debian-root.sh run "$release" bash /src/scripts/in-root.sh "$wlroots" bench </dev/null
done

#!/usr/bin/env bash
# The demo. Until the plugin and its headless demo compositor land, it shows the closest
# real thing: the CLI checking the example config and a config with mistakes in it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh demo
swift build -c release --product wlr-orient 2>&1 | tail -n 1
bin=$(swift build -c release --show-bin-path)/wlr-orient

echo "== wlr-orient check-config contrib/config.example.toml"
"$bin" check-config contrib/config.example.toml

bad=$(mktemp --suffix=.toml)
trap 'rm -f "$bad"' EXIT
cat >"$bad" <<'TOML'
[device]
orientatons = ["all"]
outputs = 3
[[app]]
match = "org.example.Game"
orientations = ["landscape", "sideways"]
TOML
echo "== wlr-orient check-config (a file with three mistakes)"
"$bin" check-config "$bad" || echo "(exit status $?)"

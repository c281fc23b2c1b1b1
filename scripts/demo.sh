#!/usr/bin/env bash
# The demo: the reference compositor with the plugin, a fake accelerometer turned through the
# four orientations, foot re-wrapping its text; screenshots land in demo-out/.
# Installs what it needs first (Debian packages; the Swift toolchain must be there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh demo
bash scripts/build-plugin.sh release
/usr/bin/python3 contrib/demo/demo.py

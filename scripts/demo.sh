#!/usr/bin/env bash
# The demo: the reference compositor with the plugin, headless, a fake accelerometer playing a
# recorded session, real apps and the CLI; the story and what it writes (demo-out/) are told in
# contrib/demo/demo.py. Installs what it needs first (Debian packages; the Swift toolchain must
# be there), builds, then plays (about 30 s).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh demo
bash scripts/build-plugin.sh release
/usr/bin/python3 contrib/demo/demo.py "$@"

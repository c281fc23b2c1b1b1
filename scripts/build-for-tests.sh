#!/usr/bin/env bash
# What the tests run, built from this tree after installing the Debian packages they need: the
# Swift tests, the CLI, the debug plugin with the reference host and the preload (build/), and,
# unless --quick, the release plugin as shipped (build/release: static runtime, only the C API
# exported), which some end-to-end tests check.
#   scripts/build-for-tests.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
bash scripts/generate-protocols.sh   # Wayland protocol glue from its XML (not committed)
swift build --build-tests 2>&1 | tail -n 3
[ "${1:-}" = --quick ] || bash scripts/build-plugin.sh release build/release
bash scripts/build-plugin.sh debug

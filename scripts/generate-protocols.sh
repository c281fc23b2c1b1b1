#!/usr/bin/env bash
# Regenerates the protocol headers that are committed (Debian ships the XML, not these):
#   Sources/CWlrGlue/include/xdg-shell-protocol.h   wlroots' xdg-shell header includes it
set -euo pipefail
cd "$(dirname "$0")/.."
wayland-scanner server-header /usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml \
    Sources/CWlrGlue/include/xdg-shell-protocol.h

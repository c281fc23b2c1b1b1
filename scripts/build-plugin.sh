#!/usr/bin/env bash
# Builds the plugin (libwlr-orient.so) and the reference host into build/.
#   scripts/build-plugin.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-release}
swift build -c "$mode" --product wlr-orient-plugin 2>&1 | tail -n 1
mkdir -p build
cp "$(swift build -c "$mode" --show-bin-path)/libwlr-orient-plugin.so" build/libwlr-orient.so
cc -O2 -Wall -Werror -o build/wlr-orient-host contrib/host/wlr-orient-host.c \
    -ISources/CWlrGlue/include $(pkg-config --cflags --libs wlroots wayland-server xkbcommon pixman-1 libdrm) -ldl
echo "build/libwlr-orient.so build/wlr-orient-host"

#!/usr/bin/env bash
# Builds the plugin (build/libwlr-orient.so) and the reference host (build/wlr-orient-host).
#   scripts/build-plugin.sh [debug|release]
# release: the Swift runtime is linked in (-static-stdlib), so the plugin loads on a machine
# without the Swift toolchain and adds less memory to the compositor (see docs/DEVELOPING.md);
# debug: linked against the toolchain's runtime, for quick test builds.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-release}
mkdir -p build
if [ "$mode" = release ]; then
    flags=(-c release -Xswiftc -static-stdlib --scratch-path .build-static)
else
    flags=(-c debug)
fi
swift build "${flags[@]}" --product wlr-orient-plugin 2>&1 | tail -n 1
cp "$(swift build "${flags[@]}" --show-bin-path)/libwlr-orient-plugin.so" build/libwlr-orient.so
[ "$mode" = release ] && strip build/libwlr-orient.so
cc -O2 -Wall -Werror -o build/wlr-orient-host contrib/host/wlr-orient-host.c \
    -ISources/CWlrGlue/include $(pkg-config --cflags --libs wlroots wayland-server xkbcommon pixman-1 libdrm) -ldl
echo "build/libwlr-orient.so build/wlr-orient-host"

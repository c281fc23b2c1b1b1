#!/usr/bin/env bash
# Builds the plugin (OUT/libwlr-orient.so), beside it the CLI it runs to read its config
# (OUT/wlr-orient) and the preload that starts it in unmodified compositors
# (OUT/libwlr-orient-preload.so), and the reference host (OUT/wlr-orient-host).
#   scripts/build-plugin.sh [debug|release] [OUT]      (OUT: build)
# release: the Swift runtime is linked in (-static-stdlib), so the plugin loads on a machine
# without the Swift toolchain and adds less memory to the compositor (see docs/DEVELOPING.md);
# only the C API is exported (scripts/plugin-exports.map), unused sections are dropped, and
# relative relocations are packed (DT_RELR, glibc >= 2.36, lld): the loader no longer reads
# 1.8 MB of relocation entries into the compositor at load;
# debug: linked against the toolchain's runtime, for quick test builds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/generate-protocols.sh   # Wayland protocol glue from its XML (not committed)
mode=${1:-release}
out=${2:-build}
mkdir -p "$out"
if [ "$mode" = release ]; then
    flags=(-c release -Xswiftc -static-stdlib --scratch-path .build-static
           -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
           -Xlinker --gc-sections -Xlinker "--version-script=$PWD/scripts/plugin-exports.map")
else
    flags=(-c debug)
fi
swift build "${flags[@]}" --product wlr-orient-plugin 2>&1 | tail -n 1
# The plugin runs `wlr-orient plugin-inputs` to read its TOML files, and looks for it beside itself.
swift build "${flags[@]}" --product wlr-orient 2>&1 | tail -n 1
# The daemon's own program, which `wlr-orient daemon` becomes (see Sources/wlr-orient-daemon).
swift build "${flags[@]}" --product wlr-orient-daemon 2>&1 | tail -n 1
bin=$(swift build "${flags[@]}" --show-bin-path)
cp "$bin/libwlr-orient-plugin.so" "$out/libwlr-orient.so"
cp "$bin/wlr-orient" "$out/wlr-orient"
cp "$bin/wlr-orient-daemon" "$out/wlr-orient-daemon"
[ "$mode" = release ] && strip "$out/libwlr-orient.so" "$out/wlr-orient" "$out/wlr-orient-daemon"
# The preload for unmodified compositors (wlr-orient run): C, libc only, no policy. It is built
# for the wlroots it is compiled against, named by that library's soname.
wlroots_soname=$(objdump -p "$(pkg-config --variable=libdir wlroots)/libwlroots.so" | awk '/SONAME/ { print $2 }')
cc -shared -fPIC -O2 -Wall -Werror -o "$out/libwlr-orient-preload.so" contrib/preload/wlr-orient-preload.c \
    -DWLROOTS_SONAME="\"$wlroots_soname\"" \
    -ISources/CWlrGlue/include $(pkg-config --cflags wlroots wayland-server pixman-1) -ldl
cc -O2 -Wall -Werror -o "$out/wlr-orient-host" contrib/host/wlr-orient-host.c \
    -ISources/CWlrGlue/include $(pkg-config --cflags --libs wlroots wayland-server xkbcommon pixman-1 libdrm) -ldl
echo "$out/libwlr-orient.so $out/wlr-orient $out/wlr-orient-daemon $out/libwlr-orient-preload.so $out/wlr-orient-host"

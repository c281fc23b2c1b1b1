#!/usr/bin/env bash
# Builds the plugin (OUT/libwlr-orient.so), beside it the CLI it runs to read its config
# (OUT/wlr-orient) and the preload that starts it in unmodified compositors
# (OUT/libwlr-orient-preload.so), and the reference host (OUT/wlr-orient-host).
#   scripts/build-plugin.sh [debug|release] [OUT]      (OUT: build)
# release: the Swift runtime is linked in (-static-stdlib), and with it the parts of libstdc++
# it uses (the whole libstdc++.so, with its start-up work, costs the compositor 0.9 MB, and since
# the sensor helper keeps libiio, libxml2 and ICU out of the plugin nothing else of C++ is left
# in it), so the plugin loads on a machine without the Swift toolchain and adds less memory to
# the compositor (see docs/DEVELOPING.md);
# only the C API is exported (scripts/plugin-exports.map), unused sections are dropped (each
# function in a section of its own), relative relocations are packed (DT_RELR, glibc >= 2.36,
# lld): the loader no longer reads 1.8 MB of relocation entries into the compositor at load; and
# the functions a compositor runs are placed side by side (scripts/plugin-order.txt, written by
# tools/plugin-order.py), so that the pages it touches hold them and not the rest of the
# standard library (the kernel maps 64 KB around each page a process touches in a file);
# release also hardens as Debian's build flags ask (read-only relocations bound at load; the
# preload with _FORTIFY_SOURCE, which SwiftPM's C cannot take: -Xcc reaches Swift's importer too,
# and glibc 2.41's fortified read, poll and getcwd make those calls ambiguous in Swift) and strips, unless WLR_ORIENT_STRIP=no (a package strips
# itself, keeping the symbols and debug information in its -dbgsym; the preload then has some too);
# debug: linked against the toolchain's runtime, for quick test builds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/generate-protocols.sh   # Wayland protocol glue from its XML (not committed)
mode=${1:-release}
out=${2:-build}
mkdir -p "$out"
# The wlroots to build against: $WLR_ORIENT_WLROOTS (a pkg-config name), else the newest installed
# (wlroots, or from 0.18 wlroots-0.N). Which releases it may be is said once, in
# Sources/CWlrGlue/include/orient_wlr_features.h: the C below stops there on any other.
if [ -z "${WLR_ORIENT_WLROOTS:-}" ]; then
    WLR_ORIENT_WLROOTS=$(pkg-config --list-all | awk '{ print $1 }' | grep -E '^wlroots(-[0-9]+\.[0-9]+)?$' | sort -V | tail -n 1 || true)
fi
pkg-config --exists "${WLR_ORIENT_WLROOTS:-}" || { echo "build-plugin.sh: no wlroots development files (${WLR_ORIENT_WLROOTS:-none found})" >&2; exit 1; }
export WLR_ORIENT_WLROOTS
wlroots_version=$(pkg-config --modversion "$WLR_ORIENT_WLROOTS")
if [ "$mode" = release ]; then
    flags=(-c release -Xswiftc -static-stdlib --scratch-path .build-static
           -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
           -Xlinker --gc-sections -Xlinker "--version-script=$PWD/scripts/plugin-exports.map"
           -Xswiftc -Xfrontend -Xswiftc -function-sections
           -Xlinker --no-warn-symbol-ordering
           -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
           -Xlinker "--script=$PWD/scripts/no-module-hash.ld")
    # The debug info names each C module a Swift module imported by its precompiled module's
    # signature, which changes whenever a header is rewritten (the generated protocol headers, at
    # every build): two builds of one commit differed there, and in the build-id. Nothing reads it
    # without those precompiled modules, which no package carries.
    flags+=(-Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs)
    # TOMLKit imports all of Foundation, which would put swift-corelibs-foundation on the link
    # line, and with it ICU and its 40 MB of data: the linker takes a few symbols that
    # FoundationEssentials also defines from there first. What the programs use is in
    # FoundationEssentials, so Foundation's own libraries are not linked at all.
    for library in Foundation FoundationInternationalization _FoundationICU; do
        flags+=(-Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc "$library")
    done
    # The runtime asks for -lstdc++: a directory searched first that holds only the archive.
    archive=$(cc -print-file-name=libstdc++.a)
    [ -f "$archive" ] || { echo "build-plugin.sh: no libstdc++.a (libstdc++-dev)" >&2; exit 1; }
    mkdir -p .build-static/static-libstdc++
    ln -sf "$archive" .build-static/static-libstdc++/libstdc++.a
    flags+=(-Xlinker "-L$PWD/.build-static/static-libstdc++")
else
    flags=(-c debug)
fi
product() {  # builds one product (in release, in its order: $2): its last line, or its errors
    local log order=()
    log=$(mktemp)
    [ "$mode" = release ] && order=(-Xlinker "--symbol-ordering-file=$PWD/scripts/$2")
    if swift build "${flags[@]}" "${order[@]}" --product "$1" >"$log" 2>&1; then
        tail -n 1 "$log"
        rm -f "$log"
    else
        grep -E "error|warning: .*\[-W" "$log" | head -n 20 >&2 || true
        tail -n 5 "$log" >&2
        rm -f "$log"
        return 1
    fi
}
product wlr-orient-plugin plugin-order.txt
# The plugin runs `wlr-orient plugin-inputs` to read its TOML files, and looks for it beside itself.
product wlr-orient plugin-order.txt
# The plugin's sensor helper, which it looks for beside itself: a lean program of its own, for in a
# compositor's session nothing else maps its pages (Sources/wlr-orient-sensor-feed/main.swift); what
# it runs is placed side by side as well (scripts/sensor-feed-order.txt, tools/plugin-order.py).
product wlr-orient-sensor-feed sensor-feed-order.txt
bin=$(swift build "${flags[@]}" --show-bin-path)
cp "$bin/libwlr-orient-plugin.so" "$out/libwlr-orient.so"
cp "$bin/wlr-orient" "$out/wlr-orient"
rm -f "$out/wlr-orient-sensor-feed"
cp "$bin/wlr-orient-sensor-feed" "$out/wlr-orient-sensor-feed"
# The daemon's program, which `wlr-orient daemon` becomes: wlr-orient by another name (see
# Sources/wlr-orient/WlrOrient.swift); it starts its own sensor helper as itself, by that name.
ln -sfn wlr-orient "$out/wlr-orient-daemon"
if [ "$mode" = release ] && [ "${WLR_ORIENT_STRIP:-yes}" != no ]; then (cd "$out" && strip libwlr-orient.so wlr-orient wlr-orient-sensor-feed); fi
# The plugin's wlroots boundary and the pixels it shares with the daemon, checked without
# warnings against this wlroots (SwiftPM compiles them with its own flags, which show no C warnings).
for glue in Sources/CWlrGlue/*.c Sources/CPixels/*.c; do
    cc -fsyntax-only -Wall -Wextra -Wundef -Wno-unused-parameter -Werror -DWLR_USE_UNSTABLE -ISources/CWlrGlue/include \
        -ISources/CPixels/include $(pkg-config --cflags "$WLR_ORIENT_WLROOTS" wayland-server pixman-1) "$glue"
done
# The preload for unmodified compositors (wlr-orient run): C, libc only, no policy. It is built
# for the wlroots it is compiled against, named by that library's soname.
libdir=$(pkg-config --variable=libdir "$WLR_ORIENT_WLROOTS")
library=$(pkg-config --libs-only-l "$WLR_ORIENT_WLROOTS" | tr ' ' '\n' | sed -n 's/^-l\(wlroots.*\)/lib\1.so/p' | head -n 1)
wlroots_soname=$(objdump -p "$libdir/$library" | awk '/SONAME/ { print $2 }')
preload_debug=$([ "${WLR_ORIENT_STRIP:-yes}" = no ] && echo -g || true)
cc -shared -fPIC -O2 $preload_debug -D_FORTIFY_SOURCE=2 -Wl,-z,relro,-z,now -Wall -Wundef -Werror -o "$out/libwlr-orient-preload.so" contrib/preload/wlr-orient-preload.c \
    -DWLROOTS_SONAME="\"$wlroots_soname\"" \
    -ISources/CWlrGlue/include $(pkg-config --cflags "$WLR_ORIENT_WLROOTS" wayland-server pixman-1) -ldl
# What they are built for, beside the preload, for `wlr-orient run` and the .pc file: the
# library's soname, the release and its pkg-config name.
printf '%s %s %s\n' "$wlroots_soname" "$wlroots_version" "$WLR_ORIENT_WLROOTS" >"$out/libwlr-orient-preload.wlroots"
built="$out/libwlr-orient.so $out/wlr-orient $out/wlr-orient-daemon $out/wlr-orient-sensor-feed $out/libwlr-orient-preload.so"
# The reference host: the example compositor (contrib/host/example.c) and the test harness built
# on it (contrib/host/wlr-orient-host.c).
cc -O2 -Wall -Wundef -Werror -o "$out/wlr-orient-host" contrib/host/wlr-orient-host.c contrib/host/example.c \
    -ISources/CWlrGlue/include -Icontrib/host/generated $(pkg-config --cflags --libs "$WLR_ORIENT_WLROOTS" wayland-server xkbcommon pixman-1 libdrm) -ldl
built="$built $out/wlr-orient-host"
echo "$built (wlroots $wlroots_version)"

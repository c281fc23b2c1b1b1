#!/usr/bin/env bash
# Inside a Debian root (scripts/debian-root.sh run ROOT), for one wlroots (its pkg-config name):
# builds the plugin, the CLI, the daemon and the preload against it (debug), compiles a C program
# against the installed header with pkg-config, and runs the tests marked `roots` with them. Ends
# with the line "roots WLROOTS: N passed, M failed".
#   bash /src/scripts/in-root.sh wlroots-0.18
# With `bench`, builds for release and runs the benchmarks of that wlroots instead (named numbers,
# each prefixed with the wlroots: wlroots_0_18_...; see scripts/bench-roots.sh).
#   bash /src/scripts/in-root.sh wlroots-0.18 bench
set -euo pipefail
wlroots=$1
what=${2:-test}
# A copy of the tree (what git tracks, and new files it does not ignore), kept in the root between
# runs so that Swift builds only what changed.
# A file the tree no longer has (removed or moved) is removed from the copy too: left there, a
# moved Swift file would be compiled twice.
mkdir -p /work/src
files=$(mktemp)
(cd /src && git ls-files -z --cached --others --exclude-standard) >"$files"
(cd /src && tar --null -T "$files" -cf - 2>/dev/null) | tar -C /work/src -xf -
cd /work/src
for dir in Sources Tests benchmarks scripts tools contrib docs; do
    [ -d "$dir" ] || continue
    find "$dir" -type f -print0 | while IFS= read -r -d '' file; do
        grep -qzxF -- "$file" "$files" || rm -f -- "$file"
    done
done
rm -f "$files"

if [ "$what" = bench ]; then
    build=/work/src/build-$wlroots-release
    WLR_ORIENT_WLROOTS=$wlroots bash scripts/build-plugin.sh release "$build" 2>&1 | tail -n 1
    export WLR_ORIENT_BUILD=$build WLR_ORIENT_BIN=$build/wlr-orient
    prefix="${wlroots//[.-]/_}_"
    echo "== $wlroots, the reference host: sample to first frame with the new transform, over 100 rotations; resident memory the plugin adds"
    python3 benchmarks/rotation_latency.py --rotations 100 | sed "s/^/$prefix/"
    echo "== $wlroots, the reference host: ms per frame each transition adds on pixman, beside memcpy of three frames"
    python3 benchmarks/transition_cost.py --turns 20 --plugin "$build/libwlr-orient.so" | sed "s/^/$prefix/"
    echo "== $wlroots, sway $(sway --version | awk '{print $3}') under wlr-orient run: sample to first frame with the new transform"
    python3 benchmarks/rotation_latency_sway.py --rotations 40 | sed "s/^/$prefix/"
    exit 0
fi

build=build-$wlroots
export WLR_ORIENT_WLROOTS=$wlroots
built=$(date +%s)
bash scripts/build-plugin.sh debug "$build" 2>&1 | tail -n 1
echo "built for $wlroots in $(( $(date +%s) - built )) s"

# A compositor author's build: the header and wlr-orient.pc installed, a program compiled with them.
prefix=/tmp/prefix-$wlroots
rm -rf "$prefix"
make -s install-header PREFIX="$prefix" BUILD="$build"
cat >/tmp/uses-wlr-orient.c <<'PROGRAM'
#include <wlr-orient.h>
int main(void) {
	struct wlr_orient_host host = { 0 };
	wlr_orient_create_func create = wlr_orient_create;
	(void)create;
	wlr_orient_destroy(NULL);
	wlr_orient_render_output_state(NULL, NULL, NULL);
	wlr_orient_prepare_output_state(NULL, NULL, NULL);
	return host.display == NULL ? 0 : 1;
}
PROGRAM
# Linked against the plugin built here (the .pc names -lwlr-orient in the prefix's lib).
mkdir -p "$prefix/lib" && cp "$build/libwlr-orient.so" "$prefix/lib/"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" cc -Wall -Werror -o /tmp/uses-wlr-orient /tmp/uses-wlr-orient.c \
    $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs wlr-orient)
echo "a C program compiled against wlr-orient.h and linked with pkg-config: wlroots $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=wlroots wlr-orient)"

# What differs between wlroots releases, built here for this one: the tests marked `roots`
# (harness/tiers.py) of Tests/Roots (the compositors of this wlroots under `wlr-orient run`, the
# daemon beside them) and of Tests/Integration (the plugin's glue, the preload and the daemon's
# drawing in the reference host built for this wlroots). The rest runs once, on the machine.
# Their results as JUnit XML in the clone's build/results/roots-WLROOTS.xml.
mkdir -p /src/build/results
results=/src/build/results/roots-$wlroots.xml
rm -f "$results"
set +e
WLR_ORIENT_BUILD=/work/src/$build WLR_ORIENT_BIN=/work/src/$build/wlr-orient \
    python3 -m pytest -q -p no:cacheprovider --strict-markers -m "roots and not release and not valgrind" \
    --junitxml="$results" Tests/Roots Tests/Integration 2>&1 | tail -n 15
set -e
# The counts from the JUnit file, not from what pytest printed.
counts=$(python3 scripts/results.py summary "$results" | tail -n 1 || true)
passed=$(sed -E 's/^tests: ([0-9]+) passed.*/\1/' <<<"$counts")
failed=$(sed -E 's/.*, ([0-9]+) failed.*/\1/' <<<"$counts")
echo "roots $wlroots: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

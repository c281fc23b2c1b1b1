#!/usr/bin/env bash
# Builds one release's packages twice from this commit, in the same folder of that release's root
# (scripts/build-debs.sh's build, without network), and compares them: the .deb files, then every
# file they unpack to. Ends with "reproducible RELEASE: N packages identical" or the differences.
#   scripts/check-reproducible.sh bookworm|trixie|sid
set -euo pipefail
release=${1:?usage: check-reproducible.sh bookworm|trixie|sid}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
bash scripts/vendor-dependencies.sh >/dev/null
work=$(mktemp -d)
# WLR_ORIENT_KEEP_BUILDS=1 keeps both builds' packages, unpacked, for a closer look.
[ -n "${WLR_ORIENT_KEEP_BUILDS:-}" ] && echo "keeping both builds in $work" || trap 'rm -rf "$work"' EXIT
for n in 1 2; do
    rm -rf "build/debs/$release"
    mkdir -p "build/debs/$release"
    bash scripts/debian-root.sh run "$release" bash /src/scripts/build-debs.sh --inside "$release" | { grep '^built' || true; }
    mkdir "$work/$n"
    cp "build/debs/$release"/*.deb "$work/$n/"
done
different=0
if [ "$(cd "$work/1" && ls)" != "$(cd "$work/2" && ls)" ]; then
    echo "the two builds made different packages:"; diff <(cd "$work/1" && ls) <(cd "$work/2" && ls) | sed 's/^/    /'
    exit 1
fi
for deb in "$work"/1/*.deb; do
    name=$(basename "$deb")
    cmp -s "$deb" "$work/2/$name" && continue
    different=$((different + 1))
    echo "differs: $name"
    for n in 1 2; do
        mkdir -p "$work/x$n/$name"
        dpkg-deb -R "$work/$n/$name" "$work/x$n/$name"
    done
    diff -r "$work/x1/$name" "$work/x2/$name" | sed 's/^/    /' | head -n 20 || true
done
count=$(ls "$work"/1/*.deb | wc -l)
if [ $different = 0 ]; then
    echo "reproducible $release: $count packages identical"
else
    echo "reproducible $release: $different of $count packages differ"
    exit 1
fi

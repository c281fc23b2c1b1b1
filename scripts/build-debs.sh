#!/usr/bin/env bash
# Builds wlr-orient's Debian packages for one release, in that release's root
# (scripts/debian-root.sh), without network, and checks them with lintian. The packages and
# lintian's report land in build/debs/RELEASE/.
#   scripts/build-debs.sh bookworm|trixie|sid
# Here, the Swift packages are copied into vendor/ first (the only step that reads the package
# mirror); in the root, the source is laid out (scripts/debian-source.sh) and built with
# dpkg-buildpackage in a network namespace of its own (unshare -n: no network at all).
# dpkg-buildpackage -d: the Swift toolchain is swift.org's (bind-mounted), not a Debian package,
# so the build dependencies are not checked against dpkg's database; the root holds them.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" != --inside ]; then
    release=${1:?usage: build-debs.sh bookworm|trixie|sid}
    cd "$here"
    bash scripts/vendor-dependencies.sh
    rm -rf "build/debs/$release"
    mkdir -p "build/debs/$release"
    exec bash scripts/debian-root.sh run "$release" bash /src/scripts/build-debs.sh --inside "$release"
fi
release=$2
work=/tmp/debs
mkdir -p "$work"
tree=$(bash /src/scripts/debian-source.sh "$release" "$work" | tail -n 1)
cd "$tree"
start=$(date +%s)
unshare -n dpkg-buildpackage -b -us -uc -d >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; exit 1; }
echo "built in $(( $(date +%s) - start )) s, offline: $(ls "$work"/*.deb | xargs -n 1 basename | tr '\n' ' ')"
out=/src/build/debs/$release
cp "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$work/build.log" "$out/"
# No error and no warning; the overrides (debian/*.lintian-overrides) each say why.
# (Its notes, in lintian.txt, are mostly words cut short in the Swift runtime's strings.)
set +e
setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp \
    lintian --fail-on error,warning --display-info "$work"/*.changes >"$out/lintian.txt" 2>&1
status=$?
set -e
grep '^[EW]:' "$out/lintian.txt" || true
echo "lintian: $(grep -c '^[EW]:' "$out/lintian.txt") errors and warnings, $(grep -c '^I:' "$out/lintian.txt") notes (lintian.txt)"
exit $status

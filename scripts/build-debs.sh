#!/usr/bin/env bash
# Builds wlr-orient's Debian packages for one release, in that release's root
# (scripts/debian-root.sh), without network, and checks them with lintian. The packages and
# lintian's report land in build/debs/RELEASE/; then piuparts installs and purges them.
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
    bash scripts/debian-root.sh run "$release" bash /src/scripts/build-debs.sh --inside "$release"
    # piuparts: installed, upgraded and purged in a chroot of the release it makes itself.
    # -i: Debian 12's piuparts does not know the temporary folder 13's debconf leaves (not ours);
    # --no-check-valid-until: a frozen mirror outlives unstable's Release file.
    command -v piuparts >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq piuparts; }
    mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | head -n 1 | awk '{ print $2 }')
    debs=$(ls "build/debs/$release"/wlr-orient_*.deb "build/debs/$release"/wlr-orient-plugin-*.deb | grep -v -- -dbgsym_)
    if piuparts -d "$release" -m "${mirror:-http://deb.debian.org/debian}" --no-eatmydata --no-check-valid-until \
            -i /var/cache/debconf/tmp.ci/ $debs >"build/debs/$release/piuparts.log" 2>&1; then
        echo "piuparts: $(grep -c 'PASS' "build/debs/$release/piuparts.log") passes, nothing left behind"
    else
        grep -E "ERROR|FAIL" "build/debs/$release/piuparts.log" | head -n 10 >&2
        exit 1
    fi
    exit 0
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

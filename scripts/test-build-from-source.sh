#!/usr/bin/env bash
# The README's build from source, as a newcomer meets it on a Debian release: in a bare minbase
# root of RELEASE with only the Swift toolchain and what it needs at run time (swift.org's list),
# `bash scripts/install-deps.sh install`, then `make`; the CLI built must answer --version.
#   scripts/test-build-from-source.sh bookworm|trixie|sid
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" != --inside ]; then
    release=${1:?usage: test-build-from-source.sh bookworm|trixie|sid}
    root=${WLR_ORIENT_ROOTS:-/var/cache/wlr-orient/roots}/source-$release
    bash "$here/scripts/debian-root.sh" fresh "$release" "$root"
    set +e
    bash "$here/scripts/debian-root.sh" at "$root" bash /src/scripts/test-build-from-source.sh --inside "$release" \
        "$(python3 "$here/scripts/support-matrix.py" debian "$release" swift-needs)"
    status=$?
    set -e
    rm -rf "$root" "$root.debootstrap.log"
    exit $status
fi
release=$2
swift_needs=$3   # what the Swift toolchain needs at run time there (support-matrix.toml), beside the below
export DEBIAN_FRONTEND=noninteractive
# The archive this machine reaches may be a mirror frozen in time, which outlives sid's Release
# file (as debian-root.sh says): this root's apt, install-deps.sh's too, accepts it.
echo 'Acquire::Check-Valid-Until "false";' >/etc/apt/apt.conf.d/99frozen-mirror
apt-get -qq update
# What the Swift toolchain itself needs (swift.org's instructions for Debian), and git and make.
apt-get -qq install -y --no-install-recommends binutils git ca-certificates make g++ libc6-dev libedit2 libncurses6 \
    libsqlite3-0 libxml2 $swift_needs >/dev/null
mkdir -p /srv/src
(cd /src && git ls-files -z | tar --null -T - -cf -) | tar -C /srv/src -xf -
cd /srv/src
start=$(date +%s)
bash scripts/install-deps.sh install 2>&1 | tail -n 3
make 2>&1 | tail -n 3
build/release/wlr-orient --version
echo "from source on $release: install-deps.sh and make in $(( $(date +%s) - start )) s"

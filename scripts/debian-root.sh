#!/usr/bin/env bash
# Debian roots to build and test in against other wlroots releases: trixie (Debian 13, wlroots
# 0.18) and sid (0.19 and 0.20), and bookworm (12, 0.15) where packages are built for it, made
# with debootstrap from the archive this machine's
# apt uses, and cached outside the clone ($WLR_ORIENT_ROOTS, default /var/cache/wlr-orient/roots).
# A root is made again when it is missing, unfinished, or its package list changed.
#
#   scripts/debian-root.sh path RELEASE           makes the root if needed; prints its folder
#   scripts/debian-root.sh run RELEASE CMD [ARG…]  runs CMD as root inside it
#   scripts/debian-root.sh fresh RELEASE DIR       makes a bare minbase root at DIR (not cached)
#   scripts/debian-root.sh at DIR CMD [ARG…]       runs CMD as root inside the root at DIR
#
# `run` works in a private mount namespace (unshare -m), so whatever it mounts goes with it, even
# when CMD fails or is killed: /proc, /dev, a fresh /tmp and /dev/shm, /sys read-only, this
# repository at /src, and, read-only at the same paths as here, the Swift toolchain and the local
# Swift package mirror (with git's system config, which points github.com at it). Nothing is
# mounted in the root outside that namespace.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${WLR_ORIENT_ROOTS:-/var/cache/wlr-orient/roots}

# What every root holds: a C toolchain, wlroots' headers, the test tools, and what the Swift
# toolchain needs at run time (it runs inside with the machine's own copy bind-mounted).
common="pkg-config gcc libc6-dev binutils git ca-certificates python3 python3-gi python3-pytest python3-pil
 fonts-dejavu-core umockdev gir1.2-umockdev-1.0 wayland-protocols libwayland-bin libwayland-dev
 libxkbcommon-dev libpixman-1-dev libdrm-dev libiio-dev libudev-dev libjson-c-dev libglib2.0-dev
 wlr-randr grim foot dbus-daemon scdoc make libncurses6 libxml2 libedit2 libsqlite3-0 g++
 debhelper lintian"

# The rest, per release: the wlroots releases of its archive, their compositors and what the Swift
# toolchain needs there (support-matrix.toml).
packages_for() {
    echo "$common $(python3 "$here/scripts/support-matrix.py" root-packages "$1")"
}

# The archive's address as apt's sources name it here.
mirror() {
    local uri
    uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | head -n 1 | awk '{ print $2 }')
    [ -n "$uri" ] || uri=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
    echo "${uri:-http://deb.debian.org/debian}"
}

make_root() {
    local release=$1 root=$cache/$1 packages
    packages=$(packages_for "$release" | tr -s ' \n' '\n' | sort -u | tr '\n' ' ')
    if [ -f "$root/.wlr-orient-packages" ] && [ "$(cat "$root/.wlr-orient-packages")" = "$packages" ]; then
        return 0
    fi
    command -v debootstrap >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
    echo "debian-root.sh: making the $release root in $root (debootstrap, then its packages)" >&2
    rm -rf "$root.new"
    mkdir -p "$cache"
    debootstrap --variant=minbase "$release" "$root.new" "$(mirror)" >"$cache/$release.debootstrap.log" 2>&1 \
        || { tail -n 20 "$cache/$release.debootstrap.log" >&2; exit 1; }
    # The packages through the root's own apt (debootstrap --include leaves some unconfigured).
    # sid's Release file carries a Valid-Until that a mirror frozen in time outlives.
    inside "$root.new" sh -c "apt-get -o Acquire::Check-Valid-Until=false update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages" \
        >"$cache/$release.apt.log" 2>&1 || { tail -n 20 "$cache/$release.apt.log" >&2; exit 1; }
    echo "$packages" >"$root.new/.wlr-orient-packages"
    rm -rf "$root"
    mv "$root.new" "$root"
}

# Runs a command in ROOT within a private mount namespace (see the top of this file).
inside() {
    local root=$1
    shift
    local swift_dir mirror_dir=/opt/swift-packages
    swift_dir=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
    # Each written beside and renamed into place: two commands may run in one root at once (the
    # roots' tests and the packages), and neither may find the file half written or gone.
    cp /etc/resolv.conf "$root/etc/resolv.conf.$$" 2>/dev/null && mv -f "$root/etc/resolv.conf.$$" "$root/etc/resolv.conf" || true
    rm -f "$root/etc/gitconfig.$$"
    git config --system --list 2>/dev/null | grep -i insteadof | while IFS='=' read -r key value; do
        git config --file "$root/etc/gitconfig.$$" --add "$key" "$value"
    done
    if [ -f "$root/etc/gitconfig.$$" ]; then mv -f "$root/etc/gitconfig.$$" "$root/etc/gitconfig"; else rm -f "$root/etc/gitconfig"; fi
    unshare -m --propagation private /bin/bash -s "$root" "$swift_dir" "$mirror_dir" "$here" "$@" <<'IN_NAMESPACE'
set -e
root=$1 swift_dir=$2 mirror_dir=$3 repo=$4
shift 4
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/dev/shm"
mount -t tmpfs tmpfs "$root/tmp"
mount --rbind -o ro /sys "$root/sys" 2>/dev/null || true
mkdir -p "$root/src" "$root$swift_dir" "$root$mirror_dir"
mount --bind "$repo" "$root/src"
[ -d "$swift_dir" ] && mount --bind -o ro "$swift_dir" "$root$swift_dir"
[ -d "$mirror_dir" ] && mount --bind -o ro "$mirror_dir" "$root$mirror_dir"
exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH="$swift_dir/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
    CI="${CI:-}" "$@"
IN_NAMESPACE
}

case "${1:-}" in
    path)
        make_root "$2"
        echo "$cache/$2"
        ;;
    run)
        release=$2
        shift 2
        make_root "$release"
        inside "$cache/$release" "$@"
        ;;
    fresh)
        # A minbase root as debootstrap leaves it, nothing added, at DIR (not cached): where a
        # package is installed as a new user would.
        command -v debootstrap >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
        rm -rf "$3"
        debootstrap --variant=minbase "$2" "$3" "$(mirror)" >"$3.debootstrap.log" 2>&1 \
            || { tail -n 20 "$3.debootstrap.log" >&2; exit 1; }
        ;;
    at)
        dir=$2
        shift 2
        inside "$dir" "$@"
        ;;
    *)
        echo "usage: debian-root.sh path RELEASE | run RELEASE CMD [ARG...] | fresh RELEASE DIR | at DIR CMD [ARG...]" >&2
        exit 2
        ;;
esac

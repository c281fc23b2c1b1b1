#!/usr/bin/env bash
# Installs the Debian packages that a task needs, only those missing.
#   scripts/install-deps.sh demo|test|install|bench
# The Swift toolchain itself is expected on the machine (see README).
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
updated=false
update() { $updated || { $SUDO apt-get update -qq; updated=true; }; }

# The first of these packages the archive has (after one `apt-get update` if none shows yet).
first_known() {
    local p
    for pass in 1 2; do
        for p in "$@"; do
            if [ -n "$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ && $2 != "(none)" { print $2 }')" ]; then
                echo "$p"
                return 0
            fi
        done
        [ "$pass" = 1 ] && update
    done
    echo "install-deps.sh: the archive has none of: $*" >&2
    exit 1
}

# wlroots' packages are named by release (support-matrix.toml): libwlroots-dev in Debian 12
# (wlroots 0.15), libwlroots-0.18-dev in 13, libwlroots-0.19-dev and -0.20-dev together in
# unstable (the newest is built against; scripts/build-plugin.sh takes another with
# WLR_ORIENT_WLROOTS).
# Reading that file takes Python 3.11 (tomllib), which a bare Debian lacks.
if ! command -v python3 >/dev/null; then
    update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3
fi
wlroots_dev=$(first_known $(python3 "$(dirname "$0")/support-matrix.py" dev-packages))
wlroots_examples=${wlroots_dev%-dev}-examples

# Building: libiio and libudev (the sensor), json-c (the control socket), GLib (.desktop files), wlroots and what its headers need (the plugin
# and the reference host), wayland-scanner (protocol glue for the test clients).
build="python3 pkg-config gcc libiio-dev libudev-dev libjson-c-dev libglib2.0-dev $wlroots_dev libwayland-dev libwayland-bin wayland-protocols libxkbcommon-dev libpixman-1-dev libdrm-dev"

packages_for() {
    case "$1" in
        # Building needs libiio and libudev; the sensor tests run real libiio against fake
        # devices under umockdev, driven from Debian's python3 with its GObject bindings.
        # Pillow and the DejaVu fonts draw the demo's pictures (and tools/transition-strip.py's);
        # foot is the demo's app.
        demo) echo "$build umockdev gir1.2-umockdev-1.0 python3-gi python3-pil fonts-dejavu-core foot" ;;
        # iio-sensor-proxy and a D-Bus daemon: the sensor tests run beside the real one.
        # udev: systemd-hwdb checks the hwdb entry `calibrate` prints against systemd's rules.
        # debootstrap and piuparts: the Debian roots and the packages' checks.
        test) echo "$build umockdev gir1.2-umockdev-1.0 python3-gi python3-pytest python3-pil fonts-dejavu-core scdoc grim wlr-randr foot iio-sensor-proxy dbus udev debootstrap piuparts" ;;
        # Installing (make install): the man pages are written in scdoc, like sway's.
        install) echo "$build scdoc" ;;
        # The peer the sensor benchmark measures against, on a private D-Bus.
        bench) echo "$build umockdev gir1.2-umockdev-1.0 python3-gi iio-sensor-proxy dbus coreutils" ;;
        *) echo "install-deps.sh: unknown task '$1' (demo|test|install|bench)" >&2; exit 2 ;;
    esac
}

# Debian's own compositors, run under `wlr-orient run` and beside the daemon (support-matrix.toml:
# weston only there), without what they recommend (phoc's is the whole Phosh shell).
compositors_for() {
    case "$1" in
        test) echo "cage $(python3 "$(dirname "$0")/support-matrix.py" daemon-compositors) $wlroots_examples" ;;
        bench) echo "sway" ;;
    esac
}

install_missing() {  # install_missing [APT-OPTION...] -- PACKAGE...
    local options=() missing=()
    while [ "$1" != "--" ]; do options+=("$1"); shift; done
    shift
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    echo "installing: ${missing[*]}"
    update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${options[@]}" "${missing[@]}"
}
install_missing -- $(packages_for "${1:-test}")
install_missing --no-install-recommends -- $(compositors_for "${1:-test}")
# Swift 6.1 or newer: Debian's own where the archive has one that new (unstable: swiftlang 6.2;
# Debian 13's is 6.0, 12 has none: there, swift.org's toolchain).
if ! command -v swift >/dev/null; then
    swiftlang=$(apt-cache policy swiftlang 2>/dev/null | awk '/Candidate:/ && $2 != "(none)" { print $2 }')
    if [ -n "$swiftlang" ] && dpkg --compare-versions "$swiftlang" ge 6.1; then
        install_missing --no-install-recommends -- swiftlang
    else
        echo "swift is not on PATH and Debian's archive here has no Swift 6.1 or newer: install swift.org's toolchain first" >&2
        exit 1
    fi
fi

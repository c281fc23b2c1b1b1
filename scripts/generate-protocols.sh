#!/usr/bin/env bash
# Generates the Wayland protocol glue the plugin is built with, from the XML (nothing generated is
# committed). Every build entry point runs this first; a plain `swift build` needs it once.
#   Sources/CWlrGlue/include/xdg-shell-protocol.h   wlroots' xdg-shell header includes it
#   Sources/CWlrGlue/include/wlr-orient-v1-protocol.h, generated/*.c   our protocol (protocol/)
#   Sources/CWaylandClient/include/*-client-protocol.h, generated/*.c   the daemon's client side
#       of output management, foreign toplevels, layer-shell and screencopy (protocol/wlr/), of
#       ext-image-copy-capture and its output sources (protocol/ext/: newer than Debian 12's
#       wayland-protocols), and of wp_viewporter and ext-idle-notify (wayland-protocols)
#   contrib/host/generated/wlr-layer-shell-unstable-v1-protocol.h   the reference host's layer-shell
#   contrib/host/generated/ext-image-copy-capture-v1-protocol.h   and its ext-image-copy-capture
# The XML is checked against wayland-scanner's DTD (--strict). A file is replaced only when its
# content changes, so that an unchanged protocol does not rebuild the plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wayland-scanner >/dev/null || { echo "generate-protocols.sh: wayland-scanner is missing (apt-get install libwayland-bin)" >&2; exit 1; }
glue=Sources/CWlrGlue
client=Sources/CWaylandClient
mkdir -p "$glue/include" "$glue/generated" "$client/include" "$client/generated"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

generate() {  # generate KIND XML OUT
    wayland-scanner --strict "$1" "$2" "$scratch/out"
    cmp -s "$scratch/out" "$3" || mv "$scratch/out" "$3"
}
xdg_shell=/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
generate server-header "$xdg_shell" "$glue/include/xdg-shell-protocol.h"
# wlroots does not export xdg-shell's interfaces, and ours names xdg_toplevel: the plugin has its own.
generate private-code "$xdg_shell" "$glue/generated/xdg-shell-protocol.c"
generate server-header protocol/wlr-orient-v1.xml "$glue/include/wlr-orient-v1-protocol.h"
generate private-code protocol/wlr-orient-v1.xml "$glue/generated/wlr-orient-v1-protocol.c"
# Layer-shell's get_popup names xdg_popup: the client side of xdg-shell too.
generate client-header "$xdg_shell" "$client/include/xdg-shell-client-protocol.h"
generate private-code "$xdg_shell" "$client/generated/xdg-shell-protocol.c"
# The reference host (contrib/host) offers layer-shell: wlroots' header includes the server side.
mkdir -p contrib/host/generated
generate server-header protocol/wlr/wlr-layer-shell-unstable-v1.xml contrib/host/generated/wlr-layer-shell-unstable-v1-protocol.h
# The shield's turning frames are drawn small and scaled up by the compositor (wp_viewporter).
viewporter=/usr/share/wayland-protocols/stable/viewporter/viewporter.xml
generate client-header "$viewporter" "$client/include/viewporter-client-protocol.h"
generate private-code "$viewporter" "$client/generated/viewporter-protocol.c"
# The daemon hears the person's input through ext-idle-notify (version 1, as Debian 12 has it).
idle_notify=/usr/share/wayland-protocols/staging/ext-idle-notify/ext-idle-notify-v1.xml
generate client-header "$idle_notify" "$client/include/ext-idle-notify-v1-client-protocol.h"
generate private-code "$idle_notify" "$client/generated/ext-idle-notify-v1-protocol.c"
# The reference host on wlroots 0.19 offers ext-image-copy-capture, whose wlroots header includes
# this server header (0.20's includes wayland-protocols' own enum header instead).
generate server-header protocol/ext/ext-image-copy-capture-v1.xml contrib/host/generated/ext-image-copy-capture-v1-protocol.h
for xml in protocol/wlr/*.xml protocol/ext/*.xml; do
    name=$(basename "$xml" .xml)
    generate client-header "$xml" "$client/include/$name-client-protocol.h"
    generate private-code "$xml" "$client/generated/$name-protocol.c"
done

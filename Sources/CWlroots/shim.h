/* wlroots (the release Package.swift names) and libwayland-server from Debian. The wlr headers
 * themselves are included by CWlrGlue's C files only (internal.h); Swift sees none of them. */
#include <wayland-server-core.h>

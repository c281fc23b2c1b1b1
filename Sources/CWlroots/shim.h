/* wlroots 0.15 and libwayland-server from Debian. The wlr headers themselves are included by
 * CWlrGlue's header, which also carries the generated xdg-shell-protocol.h they need. */
#include <wayland-server-core.h>

/*
 * What the daemon speaks to a compositor with: libwayland-client and the client side of the
 * output-management, foreign-toplevel, layer-shell, screencopy, ext-image-copy-capture (with its
 * output sources), viewporter and ext-idle-notify protocols, generated
 * from their XML at build time
 * (scripts/generate-protocols.sh). Swift calls the generated inline requests and fills the
 * listener structs itself; nothing here decides anything.
 */
#ifndef WLR_ORIENT_WAYLAND_CLIENT_GLUE_H
#define WLR_ORIENT_WAYLAND_CLIENT_GLUE_H

#include <wayland-client.h>
#include "wlr-output-management-unstable-v1-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"
#include "ext-image-capture-source-v1-client-protocol.h"
#include "ext-image-copy-capture-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "ext-idle-notify-v1-client-protocol.h"

/* wl_registry_bind's `interface` argument for each global the daemon binds. */
const struct wl_interface *glue_output_manager_interface(void);
const struct wl_interface *glue_foreign_toplevel_manager_interface(void);
const struct wl_interface *glue_output_interface(void);
const struct wl_interface *glue_compositor_interface(void);
const struct wl_interface *glue_shm_interface(void);
const struct wl_interface *glue_layer_shell_interface(void);
const struct wl_interface *glue_screencopy_manager_interface(void);
const struct wl_interface *glue_image_copy_capture_manager_interface(void);
const struct wl_interface *glue_output_capture_source_manager_interface(void);
const struct wl_interface *glue_viewporter_interface(void);
const struct wl_interface *glue_idle_notifier_interface(void);
const struct wl_interface *glue_seat_interface(void);

/* A shared-memory file of `size` bytes for wl_shm (memfd, sealed against shrinking); -1 on failure. */
int glue_shm_file(size_t size);

#endif

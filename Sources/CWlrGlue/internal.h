/*
 * What the glue's C files share and Swift never sees: wlroots' own headers, and the few names
 * that differ between wlroots releases (0.15 to 0.20), each said once here. Everything that
 * differs more than a name is an #if on WLR_VERSION_NUM where it is used.
 */
#ifndef ORIENT_WLR_INTERNAL_H
#define ORIENT_WLR_INTERNAL_H

#define WLR_USE_UNSTABLE 1

#include <pixman.h>
#include <wayland-server-core.h>
#include <wlr/version.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_switch.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>

#include "orient_wlr.h"

/* A release is at least MAJOR.MINOR. */
#define ORIENT_WLR_AT_LEAST(major, minor) (WLR_VERSION_NUM >= (((major) << 16) | ((minor) << 8)))

#if ORIENT_WLR_AT_LEAST(0, 16)
#include <wlr/interfaces/wlr_buffer.h>
#endif
#if ORIENT_WLR_AT_LEAST(0, 17)
#include <wlr/render/pass.h>
#include <wlr/types/wlr_compositor.h>
#endif

/* What every watch starts with (as its first member: orient_wlr_watch_destroy frees it): how to
 * remove its listeners. A watch whose object is destroyed removes them then, and is freed only by
 * orient_wlr_watch_destroy, so that its owner never holds a freed pointer. */
struct orient_wlr_watch {
	void (*unhook)(struct orient_wlr_watch *watch);
};

/* Adds `listener` with `notify` to `signal`. */
static inline void orient_wlr_listen(struct wl_signal *signal, struct wl_listener *listener, wl_notify_func_t notify) {
	listener->notify = notify;
	wl_signal_add(signal, listener);
}

/* Removes `listener` from its signal; removing it again does nothing. */
static inline void orient_wlr_unlisten(struct wl_listener *listener) {
	wl_list_remove(&listener->link);
	wl_list_init(&listener->link);
}

#endif

/*
 * The few lines of C that Swift cannot write: listener trampolines, macros and variadic
 * functions of libwayland and wlroots, turned into plain functions. No decisions here.
 */
#ifndef WLR_ORIENT_GLUE_H
#define WLR_ORIENT_GLUE_H

/* Must be defined before any wlr header, here in the header so that it reaches Swift. */
#define WLR_USE_UNSTABLE 1

#include <spawn.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_switch.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "wlr-orient.h"

/* A wl_listener that calls `callback(context, data)`; create adds it to `signal`. */
struct glue_listener;
typedef void (*glue_callback)(void *context, void *data);
struct glue_listener *glue_listener_create(struct wl_signal *signal, void *context, glue_callback callback);
/* The same on the display's destroy signal (which libwayland keeps private). */
struct glue_listener *glue_listener_create_display_destroy(struct wl_display *display, void *context, glue_callback callback);
/* Removes it from its signal and frees it. NULL is fine. */
void glue_listener_destroy(struct glue_listener *listener);

/* struct wlr_orient with its signals initialised, carrying the plugin object `impl`. */
struct wlr_orient *glue_orient_alloc(void *impl);
void *glue_orient_impl(struct wlr_orient *orient);
void glue_orient_set_impl(struct wlr_orient *orient, void *impl);
void glue_orient_free(struct wlr_orient *orient);
void glue_signal_emit(struct wl_signal *signal, void *data);

/* wlr_log without varargs. */
void glue_log(enum wlr_log_importance importance, const char *message);

/* The file this library was loaded from (dladdr; needs _GNU_SOURCE, which Swift's Glibc lacks),
 * or NULL: the plugin looks for its helper program beside it. */
const char *glue_library_path(void);

/* posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34, _GNU_SOURCE): the spawned program
 * gets none of the compositor's descriptors from `from` up. */
int glue_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* pipe2(fds, O_CLOEXEC) (_GNU_SOURCE): a pipe no other program the compositor starts from
 * another thread can inherit, even for an instant. */
int glue_pipe_cloexec(int fds[2]);

/* Calls `callback(context, output)` for each output in the layout. */
void glue_output_layout_for_each(struct wlr_output_layout *layout, void *context,
	void (*callback)(void *context, struct wlr_output *output));

/* Publishes the current state of every output in the layout to wlr-output-management. */
void glue_publish_output_configuration(struct wlr_output_manager_v1 *manager, struct wlr_output_layout *layout);

/* Event-loop sources with a context pointer, for the sensor's fd and its deadline. */
struct wl_event_source *glue_add_fd(struct wl_event_loop *loop, int fd, void *context, int (*callback)(int fd, uint32_t mask, void *context));
struct wl_event_source *glue_add_timer(struct wl_event_loop *loop, void *context, int (*callback)(void *context));

#endif

/*
 * The few lines of C that Swift cannot write: listener trampolines, macros and variadic
 * functions of libwayland and wlroots, turned into plain functions. No decisions here.
 */
#ifndef WLR_ORIENT_GLUE_H
#define WLR_ORIENT_GLUE_H

/* Must be defined before any wlr header, here in the header so that it reaches Swift. */
#define WLR_USE_UNSTABLE 1

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
#include "wlr-orient-v1-protocol.h"

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

/* Calls `callback(context, output)` for each output in the layout. */
void glue_output_layout_for_each(struct wlr_output_layout *layout, void *context,
	void (*callback)(void *context, struct wlr_output *output));

/* Publishes the current state of every output in the layout to wlr-output-management. */
void glue_publish_output_configuration(struct wlr_output_manager_v1 *manager, struct wlr_output_layout *layout);

/* Our protocol (protocol/wlr-orient-v1.xml), server side, without decisions: see orient_protocol.c.
 * An object speaks for one toplevel, named by its wlr_xdg_surface. */
struct glue_protocol;
struct glue_orient_object;
struct glue_protocol_callbacks {
	/* A client created the object of `toplevel`. */
	void (*created)(void *context, struct wlr_xdg_surface *toplevel);
	/* set_supported_orientations and set_mode, unchecked: the callback checks them. */
	void (*orientations)(void *context, struct glue_orient_object *object, struct wlr_xdg_surface *toplevel, uint32_t value);
	void (*mode)(void *context, struct glue_orient_object *object, struct wlr_xdg_surface *toplevel, uint32_t value);
	/* The object was destroyed, or its toplevel was (it is inert from then on). */
	void (*gone)(void *context, struct wlr_xdg_surface *toplevel);
	/* A client went: the objects it held for these `count` toplevels, all at once (not `gone`). */
	void (*all_gone)(void *context, struct wlr_xdg_surface *const *toplevels, size_t count);
};
struct glue_protocol *glue_protocol_create(struct wl_display *display, void *context,
	const struct glue_protocol_callbacks *callbacks);
/* Removes the global; objects and managers clients still hold become inert. NULL is fine. */
void glue_protocol_destroy(struct glue_protocol *protocol);
/* Events to the object of `toplevel`; false if it has none. */
bool glue_protocol_send_output_orientation(struct glue_protocol *protocol, struct wlr_xdg_surface *toplevel, uint32_t orientation);
bool glue_protocol_send_device_orientation(struct glue_protocol *protocol, struct wlr_xdg_surface *toplevel, uint32_t orientation);
void glue_orient_object_post_error(struct glue_orient_object *object, uint32_t code, const char *message);

/* The old frame of a rotation, turned on the CPU: pixman turns a picture at 2.5 to 7 ns a pixel
 * drawn, so the plugin turns a small copy of it into a canvas half the panel's size itself and
 * has the renderer only scale that up (an untransformed scale, which every renderer does fast). */
struct glue_picture {
	uint32_t *pixels; /* opaque XRGB, rows of `width` */
	int width, height;
};
/* A copy of `buffer` `factor` times smaller each way (each pixel the mean of a factor × factor
 * block; factor 1 to 16), in memory. NULL when the buffer's pixels cannot be read on the CPU. */
struct glue_picture *glue_picture_scaled_down(struct wlr_buffer *buffer, int factor);
void glue_picture_destroy(struct glue_picture *picture);
/* `width` × `height` pixels in memory and a texture of them from `renderer`. Create it outside
 * rendering (wlroots asserts that no texture is made between wlr_renderer_begin and _end). */
struct glue_canvas;
struct glue_canvas *glue_canvas_create(struct wlr_renderer *renderer, int width, int height);
/* NULL is fine. */
void glue_canvas_destroy(struct glue_canvas *canvas);
struct wlr_texture *glue_canvas_texture(struct glue_canvas *canvas);
/* Columns start..<end of one canvas row. */
struct glue_span {
	int start, end;
};
/* Fills row y of the canvas's top-left `width` × `height` pixels over rows[y] (`height` of
 * them): each pixel takes the picture's pixel nearest to `map` applied to its centre (map:
 * row-major 2 × 3, canvas pixels to picture pixels), or transparent where that falls outside the
 * picture; then brings the texture up to date. False (and nothing drawn) for a size or a span
 * beyond the canvas or a map far out of range. */
bool glue_canvas_draw_turned(struct glue_canvas *canvas, const struct glue_picture *picture,
	int width, int height, const struct glue_span *rows, const double map[6]);

/* Asks for a whole new frame of `output` in a way every wlroots 0.15 compositor obeys: the
 * output's damage event for all of it (which wlr_output_damage, and so a compositor's own
 * damage tracking, turns into damage and a frame), then a scheduled frame (for hosts without
 * damage tracking). wlr_output_schedule_frame alone is not enough: sway, cage and phoc roll a
 * frame back when nothing is damaged, and render only the damage when something is. */
void glue_output_damage_whole(struct wlr_output *output);

#endif

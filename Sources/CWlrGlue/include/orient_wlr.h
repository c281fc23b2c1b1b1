/*
 * The plugin's one boundary with wlroots: what Swift calls, in words that mean the same in every
 * wlroots from 0.15 to 0.20. wlroots' objects are opaque here (Swift never reads a field of
 * theirs, so no layout of any release is compiled into it); what each release names or does
 * differently is the business of the C files behind this header (see internal.h). Mechanism only,
 * no decisions.
 *
 * Objects the plugin follows are watched: a watch holds every listener on one object of the
 * compositor (as tinywl keeps them, one struct per object) and calls back with plain values. When
 * its object is destroyed it removes its listeners, then says so (`destroyed`, where it has one);
 * its memory goes only with orient_wlr_watch_destroy(), which also removes the listeners of a
 * watch whose object is still there. NULL is fine.
 */
#ifndef ORIENT_WLR_H
#define ORIENT_WLR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

#include "pixels.h"
#include "wlr-orient.h"
#include "wlr-orient-v1-protocol.h"

struct wlr_buffer;
struct wlr_texture;
struct wlr_input_device;
struct wlr_output_state;
/* A toplevel is named by its xdg_surface in every release (0.16 on: the xdg_toplevel's base). */
struct wlr_xdg_surface;

/* The wlroots release this was built against, e.g. "0.18.2". */
const char *orient_wlr_version(void);

struct orient_wlr_watch;
void orient_wlr_watch_destroy(struct orient_wlr_watch *watch);

/* --- The host's objects --- */

/* Outputs and input devices as the backend adds them. */
struct orient_wlr_backend_events {
	void *context;
	void (*new_output)(void *context, struct wlr_output *output);
	void (*new_input)(void *context, struct wlr_input_device *device);
};
struct orient_wlr_watch *orient_wlr_watch_backend(struct wlr_backend *backend, const struct orient_wlr_backend_events *events);

/* A toplevel at its initial commit, after the host's own handling of it (0.15 to 0.17: xdg-shell's
 * new_surface, which fires there; 0.18 on: the initial commit of each new toplevel): its app_id
 * is known, and the size and transform set now go out in its first configure. */
struct orient_wlr_shell_events {
	void *context;
	void (*new_toplevel)(void *context, struct wlr_xdg_surface *toplevel);
};
struct orient_wlr_watch *orient_wlr_watch_shell(struct wlr_xdg_shell *shell, const struct orient_wlr_shell_events *events);

/* Keyboard focus moved: to a toplevel, to nothing (`toplevel` NULL, `nothing` true), or to a
 * surface that is no xdg toplevel (both NULL and false: a panel, a launcher). */
struct orient_wlr_seat_events {
	void *context;
	void (*focus)(void *context, struct wlr_xdg_surface *toplevel, bool nothing);
};
struct orient_wlr_watch *orient_wlr_watch_seat(struct wlr_seat *seat, const struct orient_wlr_seat_events *events);

/* Every output in the layout. */
void orient_wlr_layout_for_each(struct wlr_output_layout *layout, void *context,
	void (*callback)(void *context, struct wlr_output *output));
/* The current state of every output in the layout, to wlr-output-management. */
void orient_wlr_publish_output_configuration(struct wlr_output_manager_v1 *manager, struct wlr_output_layout *layout);

/* A client asks, through wlr-output-management, for a configuration the compositor is about to
 * apply (called before the compositor's own handler): once for each output it leaves enabled, with
 * the transform it sets there and the client's process (0 when it cannot be told). */
struct orient_wlr_output_manager_events {
	void *context;
	void (*applying)(void *context, struct wlr_output *output, int transform, int client_pid);
};
struct orient_wlr_watch *orient_wlr_watch_output_manager(struct wlr_output_manager_v1 *manager,
	const struct orient_wlr_output_manager_events *events);

/* --- Outputs --- */

struct orient_wlr_output_events {
	void *context;
	/* A commit reached the output; `buffer` is the frame it showed, NULL if it carried none. */
	void (*committed)(void *context, struct wlr_buffer *buffer);
	/* The output is ready for a new frame: called before the host's own frame handler. */
	void (*frame)(void *context);
	void (*destroyed)(void *context);
};
struct orient_wlr_watch *orient_wlr_watch_output(struct wlr_output *output, const struct orient_wlr_output_events *events);
const char *orient_wlr_output_name(struct wlr_output *output);
/* Its mode's size, before any transform. */
void orient_wlr_output_size(struct wlr_output *output, int *width, int *height);
/* Its wl_output transform (0 to 7). */
int orient_wlr_output_transform(struct wlr_output *output);
/* What became of a transform the plugin commits itself. */
enum orient_wlr_transform_commit {
	ORIENT_WLR_TRANSFORM_COMMITTED,
	/* The output takes the transform but not a frame now (one is still pending): commit it again,
	 * with its frame, when the output is ready for the next one. */
	ORIENT_WLR_TRANSFORM_LATER,
	ORIENT_WLR_TRANSFORM_REFUSED,
};
/* Commits a new transform. With `shown` (a texture of the frame the output shows), the commit
 * carries a new frame in which it is drawn unmoved, the first frame under the new transform;
 * where that frame cannot go now, from wlroots 0.16 the answer is LATER on an output that shows
 * frames: a transform committed alone there waits in the kernel for the next vblank (DRM), on the
 * compositor's thread. wlroots 0.15, an output that shows nothing, and a NULL `shown` (no picture
 * to show) commit the transform alone. */
enum orient_wlr_transform_commit orient_wlr_output_set_transform(struct wlr_output *output, int transform,
	struct wlr_texture *shown);
/* Whether a transform can ride the frames the host builds (wlroots 0.17 on: a frame is an output
 * state, orient_wlr_output_state_set_transform). */
bool orient_wlr_transform_rides_frames(void);
/* Adds `transform` to a frame the host is building or has built. */
void orient_wlr_output_state_set_transform(struct wlr_output_state *state, int transform);
/* The transform a state sets, -1 if it sets none; whether it switches the output off. */
int orient_wlr_output_state_transform(struct wlr_output_state *state);
bool orient_wlr_output_state_disables(struct wlr_output_state *state);
/* Asks the compositor to apply `transform` to the output as its own configuration (the output's
 * request_state event, asked from wlroots 0.18: sway 1.9, on 0.17, commits a requested state as it
 * is); false before. */
bool orient_wlr_output_request_transform(struct wlr_output *output, int transform);
/* Whether the output is enabled (shows frames). */
bool orient_wlr_output_enabled(struct wlr_output *output);
void orient_wlr_output_schedule_frame(struct wlr_output *output);
/* While held, every frame of the output is composited by the renderer: no client buffer is
 * scanned out directly (a transition draws into each frame). Holds are counted. */
void orient_wlr_output_hold_composited(struct wlr_output *output, bool hold);
/* Asks for a whole new frame in a way every compositor obeys: the output's damage event for all
 * of it (which a compositor's damage tracking turns into damage and a frame), then a scheduled
 * frame (for hosts without damage tracking). A scheduled frame alone is not enough: sway, cage and
 * phoc roll a frame back when nothing is damaged, and render only the damage when something is. */
void orient_wlr_output_damage_whole(struct wlr_output *output);

/* --- Buffers, textures, drawing into the frame being made --- */

struct wlr_buffer *orient_wlr_buffer_lock(struct wlr_buffer *buffer);
void orient_wlr_buffer_unlock(struct wlr_buffer *buffer);
void orient_wlr_buffer_size(struct wlr_buffer *buffer, int *width, int *height);
struct wlr_texture *orient_wlr_texture_from_buffer(struct wlr_renderer *renderer, struct wlr_buffer *buffer);
void orient_wlr_texture_destroy(struct wlr_texture *texture);
void orient_wlr_texture_size(struct wlr_texture *texture, int *width, int *height);

struct orient_wlr_box {
	int x, y, width, height;
};

/* The frame being made for an output, to draw over. */
struct orient_wlr_frame;
/* wlroots 0.15 to 0.17 hosts: the renderer is between begin and end on the output's buffer. */
struct orient_wlr_frame *orient_wlr_frame_rendering(struct wlr_renderer *renderer, struct wlr_output *output);
/* wlroots 0.17 on: the buffer of an output state the host built and has not committed (NULL if
 * the state carries no buffer of the renderer's, or the release has no render passes). */
struct orient_wlr_frame *orient_wlr_frame_of_state(struct wlr_renderer *renderer, struct wlr_output *output,
	struct wlr_output_state *state);
void orient_wlr_frame_size(struct orient_wlr_frame *frame, int *width, int *height);
/* Draws `texture` through `matrix` (row-major 3 × 3, the unit square onto the frame's pixels) with
 * `alpha`, only within `clips`. False where the release cannot draw that matrix (from 0.18 only
 * an unturned box can be drawn) or the texture cannot be drawn. */
bool orient_wlr_frame_draw(struct orient_wlr_frame *frame, struct wlr_texture *texture, const float matrix[9],
	float alpha, const struct orient_wlr_box *clips, size_t count);
/* Ends it (submits what was drawn, where that is a render pass) and frees it. NULL is fine. */
void orient_wlr_frame_end(struct orient_wlr_frame *frame);

/* --- Toplevels --- */

struct orient_wlr_toplevel_events {
	void *context;
	void (*mapped)(void *context, bool mapped);
	void (*app_id)(void *context);
	/* Its surface committed (the state it has acked may have changed). */
	void (*committed)(void *context);
	void (*destroyed)(void *context);
};
struct orient_wlr_watch *orient_wlr_watch_toplevel(struct wlr_xdg_surface *toplevel, const struct orient_wlr_toplevel_events *events);
/* "" when it has none. */
const char *orient_wlr_toplevel_app_id(struct wlr_xdg_surface *toplevel);
/* Fullscreen or maximized as the compositor has scheduled it or the client asked for it: at the
 * initial commit, what it will be. */
bool orient_wlr_toplevel_will_cover(struct wlr_xdg_surface *toplevel);
/* Fullscreen or maximized as the client has acked it; false until it acked a first configure. */
bool orient_wlr_toplevel_covers(struct wlr_xdg_surface *toplevel);
/* Whether a configure is scheduled and not sent yet, and its serial. */
bool orient_wlr_toplevel_configure_pending(struct wlr_xdg_surface *toplevel, uint32_t *serial);
/* The serial of the last configure it committed, whether it is mapped, whether it was ever
 * configured. */
void orient_wlr_toplevel_configure_facts(struct wlr_xdg_surface *toplevel, uint32_t *committed, bool *mapped, bool *configured);
/* The xdg_surface that names an xdg_toplevel (wlr_orient_set_front's argument). */
struct wlr_xdg_surface *orient_wlr_toplevel_of(struct wlr_xdg_toplevel *toplevel);

/* --- Input devices --- */

enum orient_wlr_input_kind {
	ORIENT_WLR_INPUT_OTHER,
	/* Touchscreens and pen tablets: mapped to the panel. */
	ORIENT_WLR_INPUT_POSITIONAL,
	ORIENT_WLR_INPUT_SWITCH,
	/* A mouse or touchpad: its clicks can tap the suggestion's target. */
	ORIENT_WLR_INPUT_POINTER,
};
enum orient_wlr_input_kind orient_wlr_input_kind(struct wlr_input_device *device);
void orient_wlr_cursor_map_to_output(struct wlr_cursor *cursor, struct wlr_input_device *device, struct wlr_output *output);

/* What a contact on a touchscreen, a pen's tip or a pointer's button did. */
enum orient_wlr_contact {
	ORIENT_WLR_CONTACT_DOWN,
	ORIENT_WLR_CONTACT_MOTION,
	ORIENT_WLR_CONTACT_UP,
	ORIENT_WLR_CONTACT_CANCEL,
};
/* Which kind of device it came from. */
enum orient_wlr_contact_source {
	ORIENT_WLR_CONTACT_FINGER,
	ORIENT_WLR_CONTACT_PEN,
	ORIENT_WLR_CONTACT_BUTTON,
};
/* An input device going away (a touchscreen kept to be mapped to a panel that comes later), and
 * its contacts: a touchscreen's touches and a pen tablet's tip at a point in the device's own axes
 * (0..1 each way, as the kernel gives it: the panel's own, for a touchscreen on it), a pointer's
 * buttons at the cursor's point of the layout (`cursor`), and its moves there as a MOTION with
 * id -1 at each pointer frame (no button need be down); NAN for an up or a cancel, which have
 * none. Heard before the cursor relays them to the compositor (the watch's listeners go first on
 * the device's signals), so before it turns them by the output's transform. */
struct orient_wlr_input_events {
	void *context;
	void (*destroyed)(void *context);
	void (*contact)(void *context, enum orient_wlr_contact_source source, int32_t id, enum orient_wlr_contact what,
		double lx, double ly);
};
struct orient_wlr_watch *orient_wlr_watch_input(struct wlr_input_device *device, struct wlr_cursor *cursor,
	const struct orient_wlr_input_events *events);
/* While the suggestion's target shows, the seat's touches go through this grab: a touch the plugin
 * claimed (it began on the target: the plugin hears each touch before the cursor relays it) reaches
 * no client; every other one goes on as the seat's default grab sends it. It is not started over
 * another grab (a drag, a popup's); one that replaces it ends it (a touch on the target then
 * reaches the client until the target shows again). Touches only (a pen's tip is not held back;
 * a click has the pointer shield below). NULL without a seat. */
struct glue_touch_shield;
struct glue_touch_shield *glue_touch_shield_create(struct wlr_seat *seat);
/* Starts the grab (false when another grab holds the seat's touches), or ends it. */
bool glue_touch_shield_hold(struct glue_touch_shield *shield, bool hold);
/* Claims a touch for the target (true) or lets it go. */
void glue_touch_shield_claim(struct glue_touch_shield *shield, int32_t touch_id, bool claimed);
/* Ends the grab and frees the shield. NULL is fine. */
void glue_touch_shield_destroy(struct glue_touch_shield *shield);
/* The same for the pointer: while the target shows, a button pressed on it (claimed by the plugin,
 * which hears it first) reaches no client, nor does its release; motion, scrolling and every other
 * button go on as the default grab sends them. Ended while that button is still down, the grab
 * holds until it is released (that release reaches no client either), `release_ms` at most. */
struct glue_pointer_shield;
struct glue_pointer_shield *glue_pointer_shield_create(struct wlr_seat *seat);
bool glue_pointer_shield_hold(struct glue_pointer_shield *shield, bool hold, int release_ms);
void glue_pointer_shield_claim(struct glue_pointer_shield *shield, uint32_t button, bool claimed);
void glue_pointer_shield_destroy(struct glue_pointer_shield *shield);

/* Where a point of the layout falls in `output`'s buffer (its pixels, as the panel shows them
 * unturned); false when the point is outside the output. */
bool orient_wlr_output_buffer_point(struct wlr_output_layout *layout, struct wlr_output *output, double lx, double ly,
	double *bx, double *by);

/* A switch's tablet-mode toggles (lid switches and others are not reported): 1 on, 0 off, -1
 * changed (the releases that have a toggle state). */
struct orient_wlr_switch_events {
	void *context;
	void (*tablet_mode)(void *context, int state);
	void (*destroyed)(void *context);
};
struct orient_wlr_watch *orient_wlr_watch_switch(struct wlr_input_device *device, const struct orient_wlr_switch_events *events);

/* --- The plugin object, the log, the display --- */

/* struct wlr_orient with its signals initialised, carrying the plugin object `impl`. */
struct wlr_orient *glue_orient_alloc(void *impl);
void *glue_orient_impl(struct wlr_orient *orient);
void glue_orient_set_impl(struct wlr_orient *orient, void *impl);
void glue_orient_free(struct wlr_orient *orient);
/* Emits `output_transformed` (data: the output) and `destroy` (data: the plugin). */
void glue_orient_emit_output_transformed(struct wlr_orient *orient, struct wlr_output *output);
void glue_orient_emit_destroy(struct wlr_orient *orient);

/* wlr_log without varargs. */
enum orient_wlr_log_level {
	ORIENT_WLR_LOG_DEBUG,
	ORIENT_WLR_LOG_INFO,
	ORIENT_WLR_LOG_ERROR,
};
void glue_log(enum orient_wlr_log_level level, const char *message);

/* A listener on the display's destroy signal, calling `callback(context)`. NULL is fine to destroy. */
struct glue_listener;
struct glue_listener *glue_listener_create_display_destroy(struct wl_display *display, void *context,
	void (*callback)(void *context));
void glue_listener_destroy(struct glue_listener *listener);

/* --- Our protocol (protocol/wlr-orient-v1.xml), server side, without decisions: see
 * orient_protocol.c. An object speaks for one toplevel. --- */
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

/* --- The old frame of a rotation, turned on the CPU: pixman turns a picture at 2.5 to 7 ns a
 * pixel drawn, so the plugin turns a small copy of it into a canvas half the panel's size itself
 * and has the renderer only scale that up (an untransformed scale, which every renderer does fast). */
/* How the old frame's pixels were had. */
enum glue_frame_read {
	GLUE_FRAME_UNREAD = 0,
	/* Its memory, mapped (pixman's buffers, shared memory). */
	GLUE_FRAME_READ_MAPPED = 1,
	/* Copied out by the renderer (GBM buffers, which the CPU cannot map: GLES2, Vulkan), 0.18+. */
	GLUE_FRAME_READ_BY_RENDERER = 2,
};
/* A copy of `buffer` `factor` times smaller each way (each pixel the mean of a factor × factor
 * block; factor 1 to 16), in memory: mapped where the CPU can, else (0.18+) read back through
 * `renderer`; `how` says which. NULL when neither can be had. */
struct pixels_picture *glue_picture_scaled_down(struct wlr_renderer *renderer, struct wlr_buffer *buffer, int factor,
	enum glue_frame_read *how);
/* `width` × `height` pixels in memory and a texture of them from `renderer`. Create it outside
 * rendering (wlroots 0.15 to 0.17 assert that no texture is made between begin and end). */
struct glue_canvas;
struct glue_canvas *glue_canvas_create(struct wlr_renderer *renderer, int width, int height);
/* NULL is fine. */
void glue_canvas_destroy(struct glue_canvas *canvas);
struct wlr_texture *glue_canvas_texture(struct glue_canvas *canvas);
/* Fills row y of the canvas's top-left `width` × `height` pixels over rows[y] (`height` of
 * them): each pixel takes the picture's pixel nearest to `map` applied to its centre (map:
 * row-major 2 × 3, canvas pixels to picture pixels), or transparent where that falls outside the
 * picture; then brings the texture up to date. False (and nothing drawn) for a size or a span
 * beyond the canvas or a map far out of range. */
bool glue_canvas_draw_turned(struct glue_canvas *canvas, const struct pixels_picture *picture,
	int width, int height, const struct pixels_span *rows, const double map[6]);
/* Copies `width` × `height` premultiplied ARGB pixels (rows of `width`) into the canvas's top-left
 * corner and brings the texture up to date. False for a size beyond the canvas. */
bool glue_canvas_write(struct glue_canvas *canvas, const uint32_t *pixels, int width, int height);

#endif

/*
 * wlr-orient: screen auto-rotation for wlroots compositors (0.15 to 0.20; the plugin is built for
 * one of them, see `pkg-config --variable=wlroots wlr-orient`).
 *
 * A compositor loads libwlr-orient.so (link it, or dlopen it and look up the functions
 * below), hands it what it already has, and the built-in panel rotates with the device:
 * the plugin reads the accelerometer through a child process it starts and keeps
 * (wlr-orient-sensor-feed: $WLR_ORIENT_SENSOR_FEED, else beside the library, else in the
 * libexec of its prefix, else on $PATH), whose socket it watches on the compositor's event
 * loop, so that no sensor read ever waits on that loop; it decides the orientation
 * (the user's lock, the device's supported orientations, the app in front) and sets the output
 * transform. With the xdg-shell and the seat it follows the toplevels and keyboard focus, offers
 * the wlr_orient_manager_v1 global (protocol/wlr-orient-v1.xml) and turns the panel for an app
 * launched in an orientation it does not support before its first configure. It serves
 * `wlr-orient lock` & co. on $XDG_RUNTIME_DIR/wlr-orient.$WAYLAND_DISPLAY.sock, which it also
 * exports to the compositor's children as $WLR_ORIENT_SOCKET.
 *
 * What the compositor must do in return:
 *   - listen to `events.output_transformed` and re-configure the clients on that output to
 *     its new size (maximized and fullscreen toplevels especially): the output's box in the
 *     layout has changed, and clients should re-layout, not be scaled;
 *   - call wlr_orient_destroy() before destroying anything it handed over.
 *
 * Everything the plugin decides lives in the plugin; this header carries no policy.
 * Every function is safe to call with NULL. No Swift error or trap crosses this boundary.
 */
#ifndef WLR_ORIENT_H
#define WLR_ORIENT_H

#include <wayland-server-core.h>

struct wlr_backend;
struct wlr_renderer;
struct wlr_allocator;
struct wlr_output_layout;
struct wlr_output_manager_v1;
struct wlr_seat;
struct wlr_cursor;
struct wlr_xdg_shell;
struct wlr_xdg_toplevel;
struct wlr_output;
struct wlr_output_state;

/* What the compositor already has. Pointers may be NULL where noted. */
struct wlr_orient_host {
	struct wl_display *display;          /* required: its event loop runs the sensor */
	struct wlr_backend *backend;         /* required: outputs and input devices appear here */
	struct wlr_renderer *renderer;       /* optional: transitions (wlr_orient_render_output) */
	struct wlr_allocator *allocator;     /* optional: unused for now */
	struct wlr_output_layout *output_layout; /* required: which outputs exist and where */
	struct wlr_output_manager_v1 *output_manager; /* optional: the plugin publishes each new
	                                                 configuration there after a rotation */
	struct wlr_seat *seat;               /* optional: the app in front follows its keyboard focus */
	struct wlr_cursor *cursor;           /* optional: touchscreens and pen tablets attached to it
	                                        are mapped to the rotated panel */
	struct wlr_xdg_shell *xdg_shell;     /* optional: app awareness. The plugin sees each toplevel
	                                        at its initial commit (after the host's own
	                                        new_surface handler) and may turn the panel there,
	                                        so that the first configure has the right size */
	const char *config_path;             /* NULL: $XDG_CONFIG_HOME/wlr-orient/config.toml, then
	                                        /etc/xdg/wlr-orient/config.toml, else defaults. The
	                                        plugin reads it (and its saved state) by running
	                                        `wlr-orient plugin-inputs` once, in
	                                        wlr_orient_create: $WLR_ORIENT_HELPER, else the
	                                        wlr-orient beside the library, else on $PATH */
};

struct wlr_orient {
	struct {
		/* An output's transform changed, so its box did. data: struct wlr_output *. */
		struct wl_signal output_transformed;
		/* Emitted at the start of wlr_orient_destroy(). data: struct wlr_orient *. */
		struct wl_signal destroy;
	} events;

	void *data; /* the compositor's own */
};

/*
 * Creates the plugin. Call after creating the backend, layout, seat and cursor, and before
 * wlr_backend_start(), so that the panel is rotated before its first frame. Returns NULL if
 * `host` lacks a required pointer; a bad config file or a missing sensor is logged and the
 * plugin runs on with defaults (and keeps looking for a sensor).
 */
struct wlr_orient *wlr_orient_create(const struct wlr_orient_host *host);

/* Releases the sensor, removes every listener, frees the plugin. NULL is fine. */
void wlr_orient_destroy(struct wlr_orient *orient);

/*
 * In the compositor's frame path, after it rendered `output` and before it commits: while the
 * panel turns, the plugin draws the old frame over the new layout here (held until the clients
 * have committed their new size, or [transition] timeout-ms, then turned or cross-faded), with
 * the wlr_renderer API only, so pixman and GLES2 alike. It leaves the scissor unset. While a
 * transition runs it calls wlr_output_schedule_frame after each commit, so that every refresh
 * renders. The wlroots 0.15 sequence for a host on wlr_scene (contrib/host does exactly this):
 *
 *     wlr_output_damage_attach_render(damage, &needs_frame, &region);  (or wlr_output_attach_render)
 *     wlr_renderer_begin(renderer, output->width, output->height);
 *     wlr_scene_render_output(scene, output, lx, ly, &region);
 *     wlr_orient_render_output(orient, output);
 *     wlr_renderer_end(renderer);
 *     wlr_output_commit(output);
 *
 * A host that never calls it gets no transitions (the panel turns at once). NULL is fine.
 */
void wlr_orient_render_output(struct wlr_orient *orient, struct wlr_output *output);

/*
 * The same for wlroots 0.17 and later, where a frame is an output state: after the compositor
 * built the state it will commit for `output` (for a host on wlr_scene, wlr_scene_output_build_state)
 * and before it commits it, the plugin draws into the state's buffer with a render pass and marks
 * the state's damage whole. Before it builds the state, wlr_orient_prepare_output_state. The
 * sequence of a host on wlr_scene:
 *
 *     struct wlr_output_state state;
 *     wlr_output_state_init(&state);
 *     wlr_orient_prepare_output_state(orient, output, &state);
 *     wlr_scene_output_build_state(scene_output, &state, NULL);
 *     wlr_orient_render_output_state(orient, output, &state);
 *     wlr_output_commit_state(output, &state);
 *     wlr_output_state_finish(&state);
 *
 * While a transition runs, lock out direct scan-out (wlr_output_lock_attach_render) or the state's
 * buffer may be a client's own. A host that never calls it gets no transitions. NULL is fine.
 */
void wlr_orient_render_output_state(struct wlr_orient *orient, struct wlr_output *output, struct wlr_output_state *state);

/*
 * wlroots 0.17 and later: call it before building the state of `output`'s next frame. The plugin
 * turns a panel with a frame of its own that shows the picture unmoved (a commit with a buffer,
 * which never waits for a vblank); where the output cannot take that frame (one is still pending:
 * a page flip in flight), the turn rides the host's next frame instead: here the plugin adds the
 * new transform to the state (so that the host renders under it), and in
 * wlr_orient_render_output_state draws the picture over it. Without this call the transform is
 * still added there; without either, the plugin commits its frame when the output is next ready
 * for one. The plugin commits no transform alone on an output that shows frames while it has a
 * picture of it (given a renderer, once the output has shown a frame): on DRM such
 * a commit blocks the host's thread until the next vblank. NULL is fine.
 */
void wlr_orient_prepare_output_state(struct wlr_orient *orient, struct wlr_output *output, struct wlr_output_state *state);

/*
 * Optional, for compositors that know better than keyboard focus which toplevel is in front on
 * `output` (the one covering it, whose orientations count). NULL `toplevel`: none. Once called for
 * an output, the plugin no longer guesses there. NULL `orient` or `output` is fine. The panel may
 * turn (and `output_transformed` fire) before it returns: do not call it between attaching a
 * render buffer to an output and committing it.
 */
void wlr_orient_set_front(struct wlr_orient *orient, struct wlr_output *output,
	struct wlr_xdg_toplevel *toplevel);

/* The function types, for compositors that dlopen() the plugin. */
typedef struct wlr_orient *(*wlr_orient_create_func)(const struct wlr_orient_host *host);
typedef void (*wlr_orient_destroy_func)(struct wlr_orient *orient);

#endif

/*
 * wlr-orient-host: the test harness built on the example compositor of example.c (which loads the
 * wlr-orient plugin as a real compositor would), for tests, benchmarks and demos. Headless,
 * pixman renderer, one output (the panel: HEADLESS-1; with --second-output another, HEADLESS-2,
 * beside it), every toplevel maximized on the panel. What is here and not in the example: the
 * options, the commands on standard input, output-management configurations applied,
 * foreign-toplevel, layer-shell and (from wlroots 0.16) ext-idle-notify, told of each touch, a
 * touchscreen and a switch of its own, the frames kept, dumped and recorded, and what it says on
 * standard output about each.
 *
 *   wlr-orient-host [--plugin PATH] [--size WxH] [--touch] [--pointer] [--switch] [--tile] [--debug]
 *                   [--second-output WxH] [--no-foreign-toplevel] [--destroy-plugin-last]
 *                   [--done-before-succeeded] [--copied-environment] [--no-toplevel-outputs]
 *                   [--capture both|screencopy|ext-image-copy|none] [-s COMMAND]
 *
 * --capture: which protocols copying an output are offered: wlr-screencopy, ext-image-copy-capture
 * (with its output sources; wlroots 0.19 and later), both (the default; screencopy alone
 * before 0.19), or none. Asked for ext-image-copy where this wlroots has none, it offers neither, and
 * prints "capture: none".
 *
 * --no-toplevel-outputs: no foreign-toplevel handle is told which output its toplevel is on (no
 * output_enter), as some compositors do.
 * --copied-environment: the environment as it was when the program started is what its children
 * get (-s through posix_spawn, "spawn" through fork and execve), as a Python compositor hands on
 * its os.environ.
 *
 * Without a plugin it is a compositor for `wlr-orient daemon`: it applies wlr-output-management
 * configurations (printing "output configuration test|apply succeeded|failed") and describes its
 * toplevels over foreign-toplevel management (app_id, maximized, activated = focused, on the
 * panel), unless --no-foreign-toplevel. An applied configuration is answered `succeeded` and
 * then the heads are described anew (as phoc does); --done-before-succeeded describes the heads
 * (ending with `done`) first, as some wlroots 0.17 compositors do.
 *
 * It offers wlr-layer-shell (the daemon's shield over a turning panel, bars): each layer surface
 * is placed on its output by its anchors and margins, above or below the toplevels by its layer,
 * and configured anew when a turn changes its output's box; it prints "layer-surface NAMESPACE
 * new on OUTPUT", "... configured W H" and "... destroyed". Touches go to the topmost surface whose
 * input region holds the point.
 *
 * Every toplevel is maximized to the output, or with --tile laid out side by side in equal
 * columns (not maximized, as a tiling compositor does). Each frame is rendered as a compositor on
 * wlr_scene renders it to give the plugin its transitions (example.c, render_output).
 *
 * Like tinywl and cage, it gives keyboard focus to each toplevel when it is mapped, and to the
 * most recent other one when the focused one goes, and prints "focused APP_ID" (once the
 * plugin has had the focus signal) and "unmapped APP_ID" (from its own handler, before the
 * plugin's; a client that asks anything afterwards, such as wlr-randr, sees the plugin's
 * reaction). On start it prints "WAYLAND_DISPLAY=<socket>". It reads commands on standard input, one per line, and answers each on standard output:
 *   touch-down X Y     a touch at normalized panel coordinates (0..1, the panel's own axes)
 *   touch-press X Y    a finger put down there and kept down (answers "touch-pressed")
 *   touch-move X Y     the finger down moved there (answers "touch-moved")
 *   touch-lift         the finger lifted (answers "touch-lifted")
 *   touch-unplug       the touchscreen removed, a finger down or not (answers "touch-unplugged")
 *   pointer-move X Y   (--pointer) the mouse moved to normalized layout coordinates (answers
 *                      "pointer-moved LX LY", the cursor's point of the layout)
 *   pointer-click      (--pointer) its left button pressed and released there ("pointer-clicked")
 *   pointer-press, pointer-release   (--pointer) the same in two steps ("pointer-pressed",
 *                      "pointer-released")
 *   focus APP_ID       keyboard focus to the newest toplevel with this app_id
 *   tablet-mode on|off the tablet-mode switch (--switch) toggles
 *   front APP_ID|none  tells the plugin which toplevel is in front on the output itself
 *                      (wlr_orient_set_front, optional in the API: looked up with dlsym)
 *   spawn COMMAND      runs /bin/sh -c COMMAND as the compositor's child (it inherits what the
 *                      plugin exported, such as WLR_ORIENT_SOCKET)
 *   dump PATH          writes the last committed frame, as the panel holds it (its raw pixels,
 *                      before any transform), as a binary PPM
 *   next-frame         answers "next-frame" after the next frame (what clients committed
 *                      before it is then on screen)
 *   record start [times]  keeps a copy of every frame committed from now on (with "times", only
 *                      its timestamps), up to 1000 frames
 *   record stop DIR    writes them to DIR: frames.tsv (one line per frame: index, presentation
 *                      time in monotonic seconds, transform, milliseconds spent in
 *                      wlr_orient_render_output in wall time and in the thread's CPU time,
 *                      file), frame-NNNN.ppm (raw panel pixels) and idle.tsv (the monotonic
 *                      time of each refresh that committed no new frame)
 *   bare-commits       answers "bare-commits N": the output commits so far that carried no
 *                      frame (a transform alone: on DRM, a wait for the next vblank)
 *   refuse-configurations on|off  every output configuration test and apply fails (or not)
 *   layers-stay on|off layer surfaces keep their size when an output turns (qtile 0.32)
 *   layers-resend on|off  before an output configuration is applied, every layer surface is
 *                      configured twice more with the size it has (qtile); answers "layers-resend
 *                      on|off", and prints "layer-surface NAMESPACE configured again W H"
 *   add-output WxH     a new headless output; answers "added-output NAME"
 *   remove-output NAME destroys an output (unplugged); answers "removed-output NAME"
 *   close-layers       closes every layer-shell surface (as a compositor may at any time);
 *                      answers "closed-layers N"
 *   memcpy-bench N     times N copies of three frames' worth of bytes with memcpy; answers
 *                      "memcpy-3-frames-ms MEDIAN P99"
 *   refresh MHZ        the panel's refresh rate, in mHz (0.15's headless backend sends a frame
 *                      on every refresh, busy or not: a benchmark of what the plugin adds to an
 *                      idle host slows it down); answers "refresh MHZ" or "refresh failed"
 *   quit
 */
#define _POSIX_C_SOURCE 200809L
#include "example.h"
#include <dlfcn.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_touch.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_switch.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/util/log.h>
#include <drm_fourcc.h>
#if ORIENT_WLR_HAS_IDLE_NOTIFIER
#include <wlr/types/wlr_idle_notify_v1.h>
#endif
#if ORIENT_WLR_HAS_EXT_IMAGE_COPY_CAPTURE
#include <wlr/types/wlr_ext_image_capture_source_v1.h>
#include <wlr/types/wlr_ext_image_copy_capture_v1.h>
#endif
#include <wlr/types/wlr_pointer.h>
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
#include <wlr/interfaces/wlr_pointer.h>
#include <wlr/interfaces/wlr_switch.h>
#else
#include <wlr/interfaces/wlr_input_device.h>
#endif

/* One committed frame, kept by "record". */
struct recorded_frame {
	double presented;   /* monotonic seconds */
	int transform;
	double orient_ms;   /* spent in the plugin's frame hook */
	double orient_cpu_ms; /* of it, on this thread's CPU time (not counting time preempted) */
	double renderer_cpu_ms; /* of that, in the renderer's calls (benchmarks/renderer_time.c; else 0) */
	int width, height;
	uint32_t *pixels;   /* NULL when only times are recorded */
};

#define RECORD_MAX 1000

/* What the harness keeps of an output (host_output.data). */
struct harness_output {
	struct host_output *host_output;
	struct wlr_output *output;
	struct wlr_buffer *last_frame; /* locked: the frame the panel shows */
	int last_transform;            /* of the last frame reported on stdout, -1 before any */
	bool report_next_frame;        /* a "next-frame" command is waiting */
	char *pending_dump;            /* a "dump" asked before any frame: answered at the first */
	double orient_ms;              /* the plugin's share of the frame being committed */
	double orient_cpu_ms;          /* the same, in this thread's CPU time */
	double renderer_cpu_ms;        /* of that, in the renderer's calls */
	double presented;              /* when the frame being committed was presented */
	double refresh_started;        /* when the refresh that commits it began (before the render) */
	bool refreshing;               /* within that refresh: a commit now is this host's own frame */
	int on_width, on_height, on_refresh; /* its mode the last time it was on */
	bool published_off;            /* output-management clients last saw it off */
	bool recording, record_pixels;
	struct recorded_frame *record; /* RECORD_MAX entries while recording */
	int recorded;
	double *idle;                  /* RECORD_MAX refreshes that committed nothing, while recording */
	int idle_count;
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
	struct wl_event_source *refresh; /* while recording: the refresh no frame event brings */
#endif
	struct wl_listener commit;
	struct wl_listener present;
};

/* A layer-shell surface (a panel, a bar, `wlr-orient daemon`'s shield over a turning panel): on its
 * output, in the tree of its layer, placed by its anchors and margins, and configured anew when
 * its output's box changes (a turn). */
struct harness_layer {
	struct wl_list link; /* harness.layers */
	struct wlr_layer_surface_v1 *layer_surface;
	struct wlr_scene_node *node;      /* its surface and subsurfaces */
	int configured_width, configured_height; /* the last size sent, 0 before any */
	struct wl_listener commit;
	struct wl_listener destroy;
};

static struct harness {
	struct host host;
	struct wlr_foreign_toplevel_manager_v1 *foreign_toplevels; /* NULL with --no-foreign-toplevel */
	struct wlr_layer_shell_v1 *layer_shell;
#if ORIENT_WLR_HAS_IDLE_NOTIFIER
	/* ext-idle-notify: told of each touch, as a compositor tells it of all input. */
	struct wlr_idle_notifier_v1 *idle_notifier;
#endif
	struct wl_list layers; /* harness_layer.link */
	struct wlr_input_device *touch;
	struct wlr_input_device *tablet_switch;
	struct wlr_input_device *pointer; /* --pointer */
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	/* Input devices of our own (0.16 dropped the headless backend's): a touchscreen, a switch, a mouse. */
	struct wlr_touch touch_device;
	struct wlr_switch switch_device;
	struct wlr_pointer pointer_device;
#endif
	bool refuse_configurations; /* "refuse-configurations on": every test and apply fails */
	bool layers_stay;           /* "layers-stay on": layer surfaces keep their size when an output
	                             * changes, as in a compositor that does not re-configure them */
	bool layers_resend;         /* "layers-resend on": before an output configuration is applied,
	                             * every layer surface is configured twice more with the size it
	                             * has (qtile does so) */
	bool done_before_succeeded; /* --done-before-succeeded */
	bool no_toplevel_outputs;   /* --no-toplevel-outputs: no foreign-toplevel handle is told its output */
	int bare_commits;           /* output commits that carried no frame (the plugin must make none) */
	/* The plugin's frame hooks, which the harness times. */
	void (*render_output)(struct wlr_orient *, struct wlr_output *);
	void (*render_output_state)(struct wlr_orient *, struct wlr_output *, struct wlr_output_state *);
	struct wl_listener new_layer_surface;
	struct wl_listener output_manager_apply;
	struct wl_listener output_manager_test;
	struct wl_listener touch_down;
	struct wl_listener touch_up;
	struct wl_listener cursor_motion_absolute;
	struct wl_listener cursor_button;
	struct wl_listener cursor_frame;
	struct wl_event_source *stdin_source;
} harness;

/* Toplevels' scene nodes hang from trees from 0.16, from nodes before; a layer surface may be
 * configured once it has been added (0.15: its initial commit) or initialized (0.18 on). */
#if ORIENT_WLR_HAS_SCENE_TREE
#define SCENE_PARENT(tree) (tree)
#define SUBSURFACE_TREE_NODE(parent, surface) (&wlr_scene_subsurface_tree_create((parent), (surface))->node)
#else
#define SCENE_PARENT(tree) (&(tree)->node)
#define SUBSURFACE_TREE_NODE(parent, surface) wlr_scene_subsurface_tree_create((parent), (surface))
#endif
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
#define LAYER_READY(layer_surface) ((layer_surface)->initialized)
#else
#define LAYER_READY(layer_surface) ((layer_surface)->added)
#endif

static bool dump_frame(const char *path);

/* The harness's record of the panel (the first output), NULL for none. */
static struct harness_output *first(void) {
	if (wl_list_empty(&harness.host.outputs)) {
		return NULL;
	}
	struct host_output *o = wl_container_of(harness.host.outputs.next, o, link);
	return o->data;
}

/* The harness's record of an output, NULL for none. */
static struct harness_output *harness_output_of(struct wlr_output *output) {
	struct host_output *o;
	wl_list_for_each(o, &harness.host.outputs, link) {
		if (o->output == output) {
			return o->data;
		}
	}
	return NULL;
}

static struct harness_output *output_named(const char *name) {
	struct host_output *o;
	wl_list_for_each(o, &harness.host.outputs, link) {
		if (strcmp(o->output->name, name) == 0) {
			return o->data;
		}
	}
	return NULL;
}

/* --- Layer-shell --- */

/* One edge's worth of placement: where a surface of `size` (0: the whole span between the
 * margins) goes along a span of `span` pixels, anchored to the start, the end, both or neither
 * (centred). */
static void place_along(int span, uint32_t size, bool start, bool end, int32_t margin_start, int32_t margin_end,
		int *offset, int *length) {
	*length = size > 0 ? (int)size : span - margin_start - margin_end;
	if (start && !end) {
		*offset = margin_start;
	} else if (end && !start) {
		*offset = span - *length - margin_end;
	} else {
		*offset = (span - *length) / 2;
	}
}

/* Places the layer surface on its output and sends a configure when its size changes. */
static void arrange_layer(struct harness_layer *layer) {
	struct wlr_layer_surface_v1 *layer_surface = layer->layer_surface;
	struct wlr_box box;
	if (!LAYER_READY(layer_surface) || !host_output_box(&harness.host, layer_surface->output, &box)) {
		return;
	}
	const struct wlr_layer_surface_v1_state *state = &layer_surface->current;
	uint32_t anchor = state->anchor;
	int x, y, width, height;
	place_along(box.width, state->desired_width, anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT,
		anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT, state->margin.left, state->margin.right, &x, &width);
	place_along(box.height, state->desired_height, anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP,
		anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM, state->margin.top, state->margin.bottom, &y, &height);
	if (width <= 0 || height <= 0) {
		return;
	}
	wlr_scene_node_set_position(layer->node, box.x + x, box.y + y);
	/* "layers-stay on": once configured, a layer surface keeps its size, whatever it commits. */
	bool stays = harness.layers_stay && layer->configured_width > 0;
	if (!stays && (width != layer->configured_width || height != layer->configured_height)) {
		layer->configured_width = width;
		layer->configured_height = height;
		wlr_layer_surface_v1_configure(layer_surface, width, height);
		printf("layer-surface %s configured %d %d\n", layer_surface->namespace, width, height);
		fflush(stdout);
	}
}

static void arrange_layers(struct host *host) {
	if (harness.layers_stay) {
		return;
	}
	struct harness_layer *layer;
	wl_list_for_each(layer, &harness.layers, link) {
		arrange_layer(layer);
	}
}

static void layer_handle_commit(struct wl_listener *listener, void *data) {
	struct harness_layer *layer = wl_container_of(listener, layer, commit);
	arrange_layer(layer);
}

static void layer_handle_destroy(struct wl_listener *listener, void *data) {
	struct harness_layer *layer = wl_container_of(listener, layer, destroy);
	printf("layer-surface %s destroyed\n", layer->layer_surface->namespace);
	fflush(stdout);
	wl_list_remove(&layer->commit.link);
	wl_list_remove(&layer->destroy.link);
	wl_list_remove(&layer->link);
	wlr_scene_node_destroy(layer->node);
	free(layer);
}

/* From 0.18 a new layer surface is announced when it is made, and configured at its initial
 * commit; in 0.15, at its initial commit, and configured then. Without an output of its own
 * it goes on the panel. */
static void handle_new_layer_surface(struct wl_listener *listener, void *data) {
	struct host *host = &harness.host;
	struct wlr_layer_surface_v1 *layer_surface = data;
	if (layer_surface->output == NULL) {
		layer_surface->output = host_first_output(host);
	}
	struct harness_layer *layer = calloc(1, sizeof(*layer));
	if (layer == NULL || layer_surface->output == NULL) {
		free(layer);
		wlr_layer_surface_v1_destroy(layer_surface);
		return;
	}
	layer->layer_surface = layer_surface;
	bool above = layer_surface->pending.layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP;
	layer->node = SUBSURFACE_TREE_NODE(SCENE_PARENT(above ? host->layers_above : host->layers_below),
		layer_surface->surface);
	layer->commit.notify = layer_handle_commit;
	wl_signal_add(&layer_surface->surface->events.commit, &layer->commit);
	layer->destroy.notify = layer_handle_destroy;
	wl_signal_add(&layer_surface->events.destroy, &layer->destroy);
	wl_list_insert(&harness.layers, &layer->link);
	printf("layer-surface %s new on %s\n", layer_surface->namespace, layer_surface->output->name);
	fflush(stdout);
	arrange_layer(layer);
}

/* Closes every layer surface on `output` (all of them for NULL), as a compositor does when an
 * output goes; answers how many. */
static int close_layers(struct wlr_output *output) {
	struct harness_layer *layer, *next;
	int closed = 0;
	wl_list_for_each_safe(layer, next, &harness.layers, link) {
		if (output == NULL || layer->layer_surface->output == output) {
			wlr_layer_surface_v1_destroy(layer->layer_surface);
			closed++;
		}
	}
	return closed;
}

/* --- Touches, passed on to the client under them --- */

/* The surface under a point of the layout, NULL for none. */
static struct wlr_surface *surface_at(struct host *host, double lx, double ly, double *sx, double *sy) {
#if ORIENT_WLR_HAS_SCENE_TREE
	struct wlr_scene_node *node = wlr_scene_node_at(&host->scene->tree.node, lx, ly, sx, sy);
	struct wlr_scene_surface *scene_surface = node != NULL && node->type == WLR_SCENE_NODE_BUFFER
		? wlr_scene_surface_try_from_buffer(wlr_scene_buffer_from_node(node)) : NULL;
	return scene_surface != NULL ? scene_surface->surface : NULL;
#else
	struct wlr_scene_node *node = wlr_scene_node_at(&host->scene->node, lx, ly, sx, sy);
	return node != NULL && node->type == WLR_SCENE_NODE_SURFACE ? wlr_scene_surface_from_node(node)->surface : NULL;
#endif
}

static void handle_touch_down(struct wl_listener *listener, void *data) {
	struct host *host = &harness.host;
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	struct wlr_touch_down_event *event = data;
	struct wlr_input_device *device = &event->touch->base;
#else
	struct wlr_event_touch_down *event = data;
	struct wlr_input_device *device = event->device;
#endif
	double lx, ly, sx, sy;
#if ORIENT_WLR_HAS_IDLE_NOTIFIER
	wlr_idle_notifier_v1_notify_activity(harness.idle_notifier, host->seat);
#endif
	wlr_cursor_absolute_to_layout_coords(host->cursor, device, event->x, event->y, &lx, &ly);
	struct wlr_surface *surface = surface_at(host, lx, ly, &sx, &sy);
	if (surface == NULL) {
		printf("touch-down nothing at %.1f %.1f\n", lx, ly);
		fflush(stdout);
		return;
	}
	wlr_seat_touch_notify_down(host->seat, surface, event->time_msec, event->touch_id, sx, sy);
	wlr_seat_touch_notify_frame(host->seat);
	printf("touch-down layout %.1f %.1f\n", lx, ly);
	fflush(stdout);
}

static void handle_touch_up(struct wl_listener *listener, void *data) {
	struct host *host = &harness.host;
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	struct wlr_touch_up_event *event = data;
#else
	struct wlr_event_touch_up *event = data;
#endif
#if ORIENT_WLR_HAS_IDLE_NOTIFIER
	wlr_idle_notifier_v1_notify_activity(harness.idle_notifier, host->seat);
#endif
	wlr_seat_touch_notify_up(host->seat, event->time_msec, event->touch_id);
	wlr_seat_touch_notify_frame(host->seat);
}

/* The pointer, as tinywl moves it: the cursor warped to the point, the seat's pointer focus on
 * the surface there; buttons and frames to the focused client. */
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
#define POINTER_MOTION_ABSOLUTE_EVENT struct wlr_pointer_motion_absolute_event
#define POINTER_BUTTON_EVENT struct wlr_pointer_button_event
#define POINTER_EVENT_DEVICE(event) (&(event)->pointer->base)
#else
#define POINTER_MOTION_ABSOLUTE_EVENT struct wlr_event_pointer_motion_absolute
#define POINTER_BUTTON_EVENT struct wlr_event_pointer_button
#define POINTER_EVENT_DEVICE(event) ((event)->device)
#endif

static void handle_cursor_motion_absolute(struct wl_listener *listener, void *data) {
	struct host *host = &harness.host;
	POINTER_MOTION_ABSOLUTE_EVENT *event = data;
#if ORIENT_WLR_HAS_IDLE_NOTIFIER
	wlr_idle_notifier_v1_notify_activity(harness.idle_notifier, host->seat);
#endif
	wlr_cursor_warp_absolute(host->cursor, POINTER_EVENT_DEVICE(event), event->x, event->y);
	double sx, sy;
	struct wlr_surface *surface = surface_at(host, host->cursor->x, host->cursor->y, &sx, &sy);
	if (surface == NULL) {
		wlr_seat_pointer_clear_focus(host->seat);
		return;
	}
	wlr_seat_pointer_notify_enter(host->seat, surface, sx, sy);
	wlr_seat_pointer_notify_motion(host->seat, event->time_msec, sx, sy);
}

static void handle_cursor_button(struct wl_listener *listener, void *data) {
	struct host *host = &harness.host;
	POINTER_BUTTON_EVENT *event = data;
#if ORIENT_WLR_HAS_IDLE_NOTIFIER
	wlr_idle_notifier_v1_notify_activity(harness.idle_notifier, host->seat);
#endif
	wlr_seat_pointer_notify_button(host->seat, event->time_msec, event->button, event->state);
}

static void handle_cursor_frame(struct wl_listener *listener, void *data) {
	wlr_seat_pointer_notify_frame(harness.host.seat);
}

/* The pointer's own signals, which the cursor relays (as a mouse's driver sends them). */
static struct wlr_pointer *harness_pointer(void) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	return &harness.pointer_device;
#else
	return harness.pointer->pointer;
#endif
}

/* Names the harness's pointer as an event's source, in the field this wlroots has for it. */
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
#define FROM_HARNESS_POINTER(event) ((event).pointer = &harness.pointer_device)
#else
#define FROM_HARNESS_POINTER(event) ((event).device = harness.pointer)
#endif

/* The pointer moved to normalized layout coordinates (0..1 each way), then a frame. */
static void pointer_move(double x, double y, uint32_t time_msec) {
	POINTER_MOTION_ABSOLUTE_EVENT event = { .time_msec = time_msec, .x = x, .y = y };
	FROM_HARNESS_POINTER(event);
	wl_signal_emit(&harness_pointer()->events.motion_absolute, &event);
	wl_signal_emit(&harness_pointer()->events.frame, harness_pointer());
}

/* The left button pressed (1) or released (0) where the pointer is, then a frame. */
static void pointer_button(int pressed, uint32_t time_msec) {
	POINTER_BUTTON_EVENT event = { .time_msec = time_msec, .button = 0x110 /* BTN_LEFT */, .state = pressed };
	FROM_HARNESS_POINTER(event);
	wl_signal_emit(&harness_pointer()->events.button, &event);
	wl_signal_emit(&harness_pointer()->events.frame, harness_pointer());
}

/* --- Timing the plugin's part of each frame --- */

static double clock_seconds(clockid_t clock) {
	struct timespec now;
	clock_gettime(clock, &now);
	return now.tv_sec + now.tv_nsec / 1e9;
}

static double monotonic_seconds(void) {
	return clock_seconds(CLOCK_MONOTONIC);
}

/* The renderer's share of the plugin's time, where benchmarks/renderer_time.c is preloaded to
 * count it; else 0. */
static double renderer_cpu_ms(void) {
	static double (*counter)(void);
	static bool looked;
	if (!looked) {
		looked = true;
		void *everything = dlopen(NULL, RTLD_NOW);
		counter = everything != NULL ? (double (*)(void))dlsym(everything, "orient_bench_renderer_cpu_ms") : NULL;
	}
	return counter != NULL ? counter() : 0;
}

struct timing {
	double wall, cpu, renderer;
};

static struct timing timing_start(void) {
	return (struct timing){ monotonic_seconds(), clock_seconds(CLOCK_THREAD_CPUTIME_ID), renderer_cpu_ms() };
}

static void timing_end(struct wlr_output *output, struct timing start) {
	struct harness_output *o = harness_output_of(output);
	if (o != NULL) {
		o->orient_ms = (monotonic_seconds() - start.wall) * 1000;
		o->orient_cpu_ms = (clock_seconds(CLOCK_THREAD_CPUTIME_ID) - start.cpu) * 1000;
		o->renderer_cpu_ms = renderer_cpu_ms() - start.renderer;
	}
}

/* The host calls these in place of the plugin's frame hooks (with or without a plugin). */
static void timed_render_output(struct wlr_orient *orient, struct wlr_output *output) {
	struct timing start = timing_start();
	if (harness.render_output != NULL) {
		harness.render_output(orient, output);
	}
	timing_end(output, start);
}

static void timed_render_output_state(struct wlr_orient *orient, struct wlr_output *output, struct wlr_output_state *state) {
	struct timing start = timing_start();
	if (harness.render_output_state != NULL) {
		harness.render_output_state(orient, output, state);
	}
	timing_end(output, start);
}

/* --- Refreshes and frames --- */

#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
static int refresh_period_ms(struct harness_output *o) {
	return o->output->refresh > 0 ? 1000000 / o->output->refresh : 16;
}

/* A refresh with no frame event: unless a frame is on its way (it comes as the event). */
static int handle_refresh_timer(void *data) {
	struct harness_output *o = data;
	if (o->recording && !o->output->frame_pending) {
		host_output_refresh(o->host_output);
	}
	return 0;
}
#endif

static void refresh_begin(struct host_output *host_output) {
	struct harness_output *o = host_output->data;
	o->refresh_started = monotonic_seconds();
	o->refreshing = true;
}

/* A refresh that commits nothing during a transition is one the animation missed. 0.15's headless
 * backend refreshes on a timer whether or not anything changed; from 0.18 it sends a frame only
 * after a commit or when asked for one, so while recording the host keeps the steady refresh of a
 * display with a timer of its own. */
static void refresh_end(struct host_output *host_output, bool committed) {
	struct harness_output *o = host_output->data;
	o->refreshing = false;
	if (!committed && o->recording && o->idle_count < RECORD_MAX) {
		o->idle[o->idle_count++] = monotonic_seconds();
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
		wl_event_source_timer_update(o->refresh, refresh_period_ms(o));
#endif
	}
	/* After the frame was committed: whatever clients sent before is on screen. */
	if (o->report_next_frame) {
		o->report_next_frame = false;
		printf("next-frame\n");
		fflush(stdout);
	}
}

static void record_frame(struct harness_output *o, struct wlr_buffer *buffer) {
	struct recorded_frame *r = &o->record[o->recorded++];
	*r = (struct recorded_frame){
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
		.presented = -1, /* the present event comes after the commit: filled in there */
#else
		.presented = o->presented,
#endif
		.transform = o->output->transform, .orient_ms = o->orient_ms,
		.orient_cpu_ms = o->orient_cpu_ms, .renderer_cpu_ms = o->renderer_cpu_ms,
		.width = buffer->width, .height = buffer->height,
	};
	void *data;
	uint32_t format;
	size_t stride;
	if (!o->record_pixels || !wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return;
	}
	if (format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888) {
		r->pixels = malloc((size_t)buffer->width * buffer->height * 4);
	}
	for (int y = 0; r->pixels != NULL && y < buffer->height; y++) {
		memcpy(r->pixels + (size_t)y * buffer->width, (const char *)data + y * stride, (size_t)buffer->width * 4);
	}
	wlr_buffer_end_data_ptr_access(buffer);
}

static void output_handle_present(struct wl_listener *listener, void *data) {
	struct harness_output *o = wl_container_of(listener, o, present);
	struct wlr_output_event_present *event = data;
#if ORIENT_WLR_HAS_PRESENT_TIMESPEC
	o->presented = event->when.tv_sec + event->when.tv_nsec / 1e9;
#else
	o->presented = event->when != NULL ? event->when->tv_sec + event->when->tv_nsec / 1e9 : monotonic_seconds();
#endif
	if (o->recording && o->recorded > 0 && o->record[o->recorded - 1].presented < 0) {
		o->record[o->recorded - 1].presented = o->presented;
	}
}

static void output_handle_commit(struct wl_listener *listener, void *data) {
	struct harness_output *o = wl_container_of(listener, o, commit);
	struct wlr_output_event_commit *event = data;
#if ORIENT_WLR_HAS_OUTPUT_STATE
	struct wlr_buffer *buffer = (event->state->committed & WLR_OUTPUT_STATE_BUFFER) ? event->state->buffer : NULL;
#else
	struct wlr_buffer *buffer = event->buffer;
#endif
	if (o->output->enabled && o->output->width > 0) {
		o->on_width = o->output->width, o->on_height = o->output->height, o->on_refresh = o->output->refresh;
	}
	if (buffer == NULL) {
		harness.bare_commits++;
		return;
	}
	if (o->last_frame != NULL) {
		wlr_buffer_unlock(o->last_frame);
	}
	o->last_frame = wlr_buffer_lock(buffer);
	if (o->pending_dump != NULL) {
		printf(dump_frame(o->pending_dump) ? "dumped %s\n" : "dump failed %s\n", o->pending_dump);
		fflush(stdout);
		free(o->pending_dump);
		o->pending_dump = NULL;
	}
	if (o->recording && o->recorded < RECORD_MAX) {
		record_frame(o, buffer);
	}
	/* Reported once per transform: the first frame that shows it. */
	if ((int)o->output->transform != o->last_transform) {
		o->last_transform = o->output->transform;
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* "rendered from": when the refresh began, so that a benchmark can tell the time to the
		 * frame from this host's own (pixman) drawing of it; "committed with the transform": the
		 * plugin's commit of the transform carried the frame (the first of a transition). */
		if (o->refreshing) {
			printf("frame %d %d transform %d at %.6f rendered from %.6f\n", buffer->width, buffer->height,
				o->output->transform, now.tv_sec + now.tv_nsec / 1e9, o->refresh_started);
		} else {
			printf("frame %d %d transform %d at %.6f committed with the transform\n", buffer->width,
				buffer->height, o->output->transform, now.tv_sec + now.tv_nsec / 1e9);
		}
		fflush(stdout);
	}
}

static void free_record(struct harness_output *o) {
	for (int i = 0; o->record != NULL && i < o->recorded; i++) {
		free(o->record[i].pixels);
	}
	free(o->record);
	o->record = NULL;
	o->recorded = 0;
	free(o->idle);
	o->idle = NULL;
	o->idle_count = 0;
	o->recording = false;
}

/* --- Outputs --- */

static void output_added(struct host_output *host_output) {
	struct wlr_output *output = host_output->output;
	struct harness_output *o = calloc(1, sizeof(*o));
	if (o == NULL) {
		abort();
	}
	host_output->data = o;
	o->host_output = host_output;
	o->output = output;
	o->last_transform = -1;
	o->on_width = output->width, o->on_height = output->height, o->on_refresh = output->refresh;
	o->commit.notify = output_handle_commit;
	wl_signal_add(&output->events.commit, &o->commit);
	o->present.notify = output_handle_present;
	wl_signal_add(&output->events.present, &o->present);
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
	o->refresh = wl_event_loop_add_timer(wl_display_get_event_loop(harness.host.display), handle_refresh_timer, o);
#endif
}

static void output_destroyed(struct host_output *host_output) {
	struct harness_output *o = host_output->data;
	close_layers(o->output);
	free(o->pending_dump);
	if (o->last_frame != NULL) {
		wlr_buffer_unlock(o->last_frame);
	}
	free_record(o);
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
	if (o->refresh != NULL) {
		wl_event_source_remove(o->refresh);
	}
#endif
	wl_list_remove(&o->commit.link);
	wl_list_remove(&o->present.link);
	free(o);
}

/* An output without modes that came back on since output-management clients last saw it. */
static bool back_on_without_modes(struct harness_output *o) {
	return o->published_off && o->output->enabled && wl_list_empty(&o->output->modes);
}

/* The outputs as output-management clients see them; `leaving_out_back_on`: without those
 * back_on_without_modes (see publish_outputs). */
static void publish_configuration(struct host *host, bool leaving_out_back_on) {
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	struct host_output *host_output;
	wl_list_for_each(host_output, &host->outputs, link) {
		struct harness_output *o = host_output->data;
		if (leaving_out_back_on && back_on_without_modes(o)) {
			continue;
		}
		struct wlr_output_configuration_head_v1 *head = wlr_output_configuration_head_v1_create(config, o->output);
		struct wlr_box box;
		if (head != NULL && host_output_box(host, o->output, &box)) {
			head->state.x = box.x;
			head->state.y = box.y;
		}
		if (!leaving_out_back_on) {
			o->published_off = !o->output->enabled;
		}
	}
	wlr_output_manager_v1_set_configuration(host->output_manager, config);
}

/* An output without modes (headless) is offered to clients as one mode of its size, only while it
 * is on; when it comes back on, wlroots 0.18 to 0.20 offer that mode only if no client has one yet.
 * A client that bound while it was off (wlr-randr --on) beside one that bound before (the daemon)
 * gets none, and wlroots aborts (head_send_state: Assertion `found'). So such an output, back on,
 * is announced anew: gone, then there, and every client gets its mode. */
static void publish_outputs(struct host *host) {
	struct host_output *host_output;
	wl_list_for_each(host_output, &host->outputs, link) {
		if (back_on_without_modes(host_output->data)) {
			publish_configuration(host, true);
			break;
		}
	}
	publish_configuration(host, false);
}

/* A client's output configuration (wlr-output-management: wlr-randr, `wlr-orient daemon`):
 * every head tested first, and only if all pass (and this is no test) committed. */
static bool configure_outputs(struct host *host, struct wlr_output_configuration_v1 *config, bool commit) {
	bool ok = !harness.refuse_configurations;
	struct wlr_output_configuration_head_v1 *head;
	/* Switched on in the one mode it offered while off (see publish_outputs): the size it had. */
	wl_list_for_each(head, &config->heads, link) {
		struct harness_output *o = harness_output_of(head->state.output);
		if (o != NULL && head->state.enabled && head->state.mode == NULL && head->state.custom_mode.width == 0) {
			head->state.custom_mode.width = o->on_width;
			head->state.custom_mode.height = o->on_height;
			head->state.custom_mode.refresh = o->on_refresh;
		}
	}
#if ORIENT_WLR_HAS_OUTPUT_STATE
	/* Each head's state, tested; committed only if all pass (and this is no test). */
	wl_list_for_each(head, &config->heads, link) {
		struct wlr_output_state state;
		wlr_output_state_init(&state);
		wlr_output_head_v1_state_apply(&head->state, &state);
		ok = ok && wlr_output_test_state(head->state.output, &state);
		wlr_output_state_finish(&state);
	}
	wl_list_for_each(head, &config->heads, link) {
		if (!ok || !commit) {
			continue;
		}
		struct wlr_output_state state;
		wlr_output_state_init(&state);
		wlr_output_head_v1_state_apply(&head->state, &state);
		bool committed = wlr_output_commit_state(head->state.output, &state);
		ok = committed && ok;
		wlr_output_state_finish(&state);
		struct harness_output *o = harness_output_of(head->state.output);
		if (committed && o != NULL && head->state.enabled) {
			host_output_enter_layout(o->host_output, false, head->state.x, head->state.y);
		} else if (committed && o != NULL) {
			host_output_leave_layout(o->host_output);
		}
	}
#else
	wl_list_for_each(head, &config->heads, link) {
		struct wlr_output *output = head->state.output;
		wlr_output_enable(output, head->state.enabled);
		if (head->state.enabled) {
			if (head->state.mode != NULL) {
				wlr_output_set_mode(output, head->state.mode);
			} else {
				wlr_output_set_custom_mode(output, head->state.custom_mode.width,
					head->state.custom_mode.height, head->state.custom_mode.refresh);
			}
			wlr_output_set_transform(output, head->state.transform);
			wlr_output_set_scale(output, head->state.scale);
		}
		ok = ok && wlr_output_test(output);
	}
	wl_list_for_each(head, &config->heads, link) {
		struct wlr_output *output = head->state.output;
		if (!ok || !commit) {
			wlr_output_rollback(output);
			continue;
		}
		bool committed = wlr_output_commit(output);
		ok = committed && ok;
		if (!committed) {
			wlr_output_rollback(output);
		}
		struct harness_output *o = harness_output_of(output);
		if (committed && o != NULL && head->state.enabled) {
			host_output_enter_layout(o->host_output, false, head->state.x, head->state.y);
		} else if (committed && o != NULL) {
			host_output_leave_layout(o->host_output);
		}
	}
#endif
	return ok;
}

/* The compositor's own output command (as a compositor's config or IPC would): a transform
 * (`transform` >= 0), or the output switched off or on (`enable` 0 or 1; on again at the size it
 * had). Published to output-management clients as any change is. */
static bool command_output(struct host *host, struct harness_output *o, int transform, int enable) {
	struct wlr_output *output = o->output;
#if ORIENT_WLR_HAS_OUTPUT_STATE
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	if (transform >= 0) {
		wlr_output_state_set_transform(&state, (enum wl_output_transform)transform);
	}
	if (enable >= 0) {
		wlr_output_state_set_enabled(&state, enable == 1);
		if (enable == 1) {
			wlr_output_state_set_custom_mode(&state, o->on_width, o->on_height, o->on_refresh);
		}
	}
	bool ok = wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
#else
	if (transform >= 0) {
		wlr_output_set_transform(output, (enum wl_output_transform)transform);
	}
	if (enable >= 0) {
		wlr_output_enable(output, enable == 1);
		if (enable == 1) {
			wlr_output_set_custom_mode(output, o->on_width, o->on_height, o->on_refresh);
		}
	}
	bool ok = wlr_output_commit(output);
	if (!ok) {
		wlr_output_rollback(output);
	}
#endif
	if (ok && enable == 0) {
		host_output_leave_layout(o->host_output);
	} else if (ok && enable == 1) {
		host_output_enter_layout(o->host_output, true, 0, 0);
	}
	if (ok) {
		publish_outputs(host);
		host_relayout(host);
	}
	return ok;
}

/* Every layer surface configured again with the size it has, twice (see "layers-resend"). */
static void resend_layer_sizes(void) {
	struct harness_layer *layer;
	wl_list_for_each(layer, &harness.layers, link) {
		if (layer->configured_width > 0 && layer->configured_height > 0) {
			for (int i = 0; i < 2; i++) {
				wlr_layer_surface_v1_configure(layer->layer_surface, layer->configured_width, layer->configured_height);
			}
			printf("layer-surface %s configured again %d %d\n", layer->layer_surface->namespace,
				layer->configured_width, layer->configured_height);
		}
	}
}

static void handle_output_manager_config(struct host *host, struct wlr_output_configuration_v1 *config, bool commit) {
	if (commit && harness.layers_resend) {
		resend_layer_sizes();
	}
	bool ok = configure_outputs(host, config, commit);
	printf("output configuration %s %s\n", commit ? "apply" : "test", ok ? "succeeded" : "failed");
	fflush(stdout);
	bool described = false;
	if (commit && ok && harness.done_before_succeeded) {
		publish_outputs(host); /* the new heads and `done` go out before the answer */
		described = true;
	}
	if (ok) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
	if (commit && ok) {
		if (!described) {
			publish_outputs(host);
		}
		host_relayout(host);
	}
}

static void handle_output_manager_apply(struct wl_listener *listener, void *data) {
	struct host *host = &harness.host;
	handle_output_manager_config(host, data, true);
}

static void handle_output_manager_test(struct wl_listener *listener, void *data) {
	struct host *host = &harness.host;
	handle_output_manager_config(host, data, false);
}

/* --- Foreign-toplevel management: each shown toplevel, "activated" while it has the focus --- */

static void toplevel_mapped(struct host_toplevel *toplevel) {
	struct host *host = toplevel->host;
	if (harness.foreign_toplevels == NULL) {
		return;
	}
	struct wlr_output *output = host_first_output(host);
	struct wlr_xdg_toplevel *xdg = toplevel->xdg_surface->toplevel;
	struct wlr_foreign_toplevel_handle_v1 *handle = wlr_foreign_toplevel_handle_v1_create(harness.foreign_toplevels);
	toplevel->data = handle;
	if (handle != NULL) {
		wlr_foreign_toplevel_handle_v1_set_app_id(handle, xdg->app_id != NULL ? xdg->app_id : "");
		wlr_foreign_toplevel_handle_v1_set_title(handle, xdg->title != NULL ? xdg->title : "");
		wlr_foreign_toplevel_handle_v1_set_maximized(handle, !host->tile);
		if (output != NULL && !harness.no_toplevel_outputs) {
			wlr_foreign_toplevel_handle_v1_output_enter(handle, output);
		}
	}
}

static void toplevel_unmapped(struct host_toplevel *toplevel) {
	if (toplevel->data != NULL) {
		wlr_foreign_toplevel_handle_v1_destroy(toplevel->data);
		toplevel->data = NULL;
	}
}

static void focused(struct host *host, struct host_toplevel *focused) {
	struct host_toplevel *toplevel;
	wl_list_for_each(toplevel, &host->toplevels, link) {
		if (toplevel->data != NULL) {
			wlr_foreign_toplevel_handle_v1_set_activated(toplevel->data, toplevel == focused);
		}
	}
}

/* XRGB8888 pixels as a binary PPM. */
static bool write_ppm(const char *path, const void *data, int width, int height, size_t stride) {
	FILE *f = fopen(path, "wb");
	if (f == NULL) {
		return false;
	}
	fprintf(f, "P6\n%d %d\n255\n", width, height);
	for (int y = 0; y < height; y++) {
		const uint32_t *row = (const uint32_t *)((const char *)data + y * stride);
		for (int x = 0; x < width; x++) {
			unsigned char rgb[3] = { (row[x] >> 16) & 0xff, (row[x] >> 8) & 0xff, row[x] & 0xff };
			fwrite(rgb, 1, 3, f);
		}
	}
	return fclose(f) == 0;
}

/* Writes the last committed frame exactly as the panel holds it. */
static bool dump_frame(const char *path) {
	struct harness_output *o = first();
	if (o == NULL || o->last_frame == NULL) {
		return false;
	}
	void *data;
	uint32_t format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(o->last_frame, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return false;
	}
	bool ok = (format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888) &&
		write_ppm(path, data, o->last_frame->width, o->last_frame->height, stride);
	wlr_buffer_end_data_ptr_access(o->last_frame);
	return ok;
}

static int compare_doubles(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The yardstick for the transitions' cost, measured where they run: copying three frames' worth
 * of bytes (one read, one write each). */
static void memcpy_bench(int runs) {
	struct wlr_output *output = host_first_output(&harness.host);
	if (output == NULL || runs < 1 || runs > 10000) {
		printf("memcpy-bench failed\n");
		return;
	}
	size_t size = (size_t)output->width * output->height * 4 * 3;
	char *from = malloc(size), *to = malloc(size);
	double *ms = calloc(runs, sizeof(double));
	if (from == NULL || to == NULL || ms == NULL) {
		printf("memcpy-bench failed\n");
	} else {
		memset(from, 0x5a, size);
		memset(to, 0, size);
		for (int i = 0; i < runs; i++) {
			double before = monotonic_seconds();
			memcpy(to, from, size);
			ms[i] = (monotonic_seconds() - before) * 1000;
			from[i % size] ^= to[(i * 7919) % size]; /* keeps the copies from being optimized away */
		}
		qsort(ms, runs, sizeof(double), compare_doubles);
		printf("memcpy-3-frames-ms %.4f %.4f\n", ms[runs / 2], ms[(runs * 99) / 100 < runs ? (runs * 99) / 100 : runs - 1]);
	}
	free(from);
	free(to);
	free(ms);
}

static bool write_record(struct harness_output *o, const char *dir) {
	char path[600];
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/frames.tsv", dir);
	FILE *index = fopen(path, "w");
	if (index == NULL) {
		return false;
	}
	fprintf(index, "index\tpresented\ttransform\torient_ms\torient_cpu_ms\trenderer_cpu_ms\tfile\n");
	for (int i = 0; i < o->recorded; i++) {
		struct recorded_frame *r = &o->record[i];
		char name[32] = "-";
		if (r->pixels != NULL) {
			snprintf(name, sizeof(name), "frame-%04d.ppm", i);
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			if (!write_ppm(path, r->pixels, r->width, r->height, (size_t)r->width * 4)) {
				fclose(index);
				return false;
			}
		}
		fprintf(index, "%d\t%.6f\t%d\t%.4f\t%.4f\t%.4f\t%s\n", i, r->presented, r->transform, r->orient_ms,
			r->orient_cpu_ms, r->renderer_cpu_ms, name);
	}
	fclose(index);
	snprintf(path, sizeof(path), "%s/idle.tsv", dir);
	FILE *idle = fopen(path, "w");
	if (idle == NULL) {
		return false;
	}
	fprintf(idle, "time\n");
	for (int i = 0; i < o->idle_count; i++) {
		fprintf(idle, "%.6f\n", o->idle[i]);
	}
	fclose(idle);
	return true;
}

static uint32_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* With --copied-environment, the environment as the program started, which its children get
 * instead of the live one: as a Python compositor's os.environ, copied before its first line
 * runs, which it hands to what it launches (with WAYLAND_DISPLAY added). NULL without. */
static char **copied_environment;

static void copy_environment(void) {
	extern char **environ;
	size_t n = 0;
	while (environ[n] != NULL) {
		n++;
	}
	copied_environment = calloc(n + 2, sizeof(char *)); /* room for WAYLAND_DISPLAY */
	for (size_t i = 0; copied_environment != NULL && i < n; i++) {
		copied_environment[i] = strdup(environ[i]);
	}
}

static void copied_environment_add(const char *name, const char *value) {
	size_t n = 0;
	while (copied_environment[n] != NULL) {
		n++;
	}
	char *entry = malloc(strlen(name) + strlen(value) + 2);
	if (entry != NULL) {
		sprintf(entry, "%s=%s", name, value);
		copied_environment[n] = entry;
	}
}

/* Runs /bin/sh -c COMMAND as the compositor's child; with the copied environment (if any) through
 * posix_spawn, or fork and execve, as a compositor may do either. Its pid, or -1. */
static pid_t start_shell(const char *command, bool spawn) {
	char *argv[] = { "/bin/sh", "-c", (char *)command, NULL };
	pid_t pid = -1;
	if (copied_environment != NULL && spawn) {
		return posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, copied_environment) == 0 ? pid : -1;
	}
	pid = fork();
	if (pid == 0) {
		if (copied_environment != NULL) {
			execve("/bin/sh", argv, copied_environment);
		} else {
			execv("/bin/sh", argv);
		}
		_exit(127);
	}
	return pid;
}

static int handle_stdin(int fd, uint32_t mask, void *data) {
	struct host *host = &harness.host;
	char line[512];
	/* Read before looking at HANGUP: the last command and the end of input arrive together. */
	if (fgets(line, sizeof(line), stdin) == NULL) {
		wl_event_source_remove(harness.stdin_source);
		harness.stdin_source = NULL;
		return 0;
	}
	double x, y;
	int count, width, height;
	char path[400], word[256];
	if (sscanf(line, "touch-down %lf %lf", &x, &y) == 2 && harness.touch != NULL) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_touch_down_event event = { .touch = &harness.touch_device, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&harness.touch_device.events.down, &event);
		struct wlr_touch_up_event up = { .touch = &harness.touch_device, .time_msec = now_ms(), .touch_id = 0 };
		wl_signal_emit(&harness.touch_device.events.up, &up);
		wl_signal_emit(&harness.touch_device.events.frame, NULL);
#else
		struct wlr_event_touch_down event = { .device = harness.touch, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&harness.touch->touch->events.down, &event);
		struct wlr_event_touch_up up = { .device = harness.touch, .time_msec = now_ms(), .touch_id = 0 };
		wl_signal_emit(&harness.touch->touch->events.up, &up);
		wl_signal_emit(&harness.touch->touch->events.frame, NULL);
#endif
	} else if (sscanf(line, "touch-press %lf %lf", &x, &y) == 2 && harness.touch != NULL) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_touch_down_event event = { .touch = &harness.touch_device, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&harness.touch_device.events.down, &event);
		wl_signal_emit(&harness.touch_device.events.frame, NULL);
#else
		struct wlr_event_touch_down event = { .device = harness.touch, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&harness.touch->touch->events.down, &event);
		wl_signal_emit(&harness.touch->touch->events.frame, NULL);
#endif
		printf("touch-pressed\n");
	} else if (sscanf(line, "touch-move %lf %lf", &x, &y) == 2 && harness.touch != NULL) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_touch_motion_event event = { .touch = &harness.touch_device, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&harness.touch_device.events.motion, &event);
		wl_signal_emit(&harness.touch_device.events.frame, NULL);
#else
		struct wlr_event_touch_motion event = { .device = harness.touch, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&harness.touch->touch->events.motion, &event);
		wl_signal_emit(&harness.touch->touch->events.frame, NULL);
#endif
		printf("touch-moved\n");
	} else if (strncmp(line, "touch-lift", 10) == 0 && harness.touch != NULL) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_touch_up_event up = { .touch = &harness.touch_device, .time_msec = now_ms(), .touch_id = 0 };
		wl_signal_emit(&harness.touch_device.events.up, &up);
		wl_signal_emit(&harness.touch_device.events.frame, NULL);
#else
		struct wlr_event_touch_up up = { .device = harness.touch, .time_msec = now_ms(), .touch_id = 0 };
		wl_signal_emit(&harness.touch->touch->events.up, &up);
		wl_signal_emit(&harness.touch->touch->events.frame, NULL);
#endif
		printf("touch-lifted\n");
	} else if (sscanf(line, "pointer-move %lf %lf", &x, &y) == 2 && harness.pointer != NULL) {
		pointer_move(x, y, now_ms());
		printf("pointer-moved %.1f %.1f\n", host->cursor->x, host->cursor->y);
	} else if (strncmp(line, "pointer-click", 13) == 0 && harness.pointer != NULL) {
		pointer_button(1, now_ms());
		pointer_button(0, now_ms());
		printf("pointer-clicked\n");
	} else if (strncmp(line, "pointer-press", 13) == 0 && harness.pointer != NULL) {
		pointer_button(1, now_ms());
		printf("pointer-pressed\n");
	} else if (strncmp(line, "pointer-release", 15) == 0 && harness.pointer != NULL) {
		pointer_button(0, now_ms());
		printf("pointer-released\n");
	} else if (strncmp(line, "touch-unplug", 12) == 0 && harness.touch != NULL) {
		/* Gone as a USB touchscreen goes: its destroy signal, no up for a finger still down. */
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		wlr_touch_finish(&harness.touch_device);
#else
		wlr_input_device_destroy(harness.touch);
#endif
		harness.touch = NULL;
		printf("touch-unplugged\n");
	} else if (sscanf(line, "focus %255s", word) == 1) {
		struct host_toplevel *toplevel, *found = NULL;
		wl_list_for_each(toplevel, &host->toplevels, link) {
			const char *app_id = toplevel->xdg_surface->toplevel->app_id;
			if (found == NULL && host_toplevel_mapped(toplevel) && app_id != NULL && strcmp(app_id, word) == 0) {
				found = toplevel;
			}
		}
		if (found != NULL) {
			host_focus(found);
		} else {
			printf("focus failed %s\n", word);
		}
	} else if (sscanf(line, "tablet-mode %255s", word) == 1 && harness.tablet_switch != NULL) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_switch_toggle_event event = {
			.time_msec = now_ms(), .switch_type = WLR_SWITCH_TYPE_TABLET_MODE,
			.switch_state = strcmp(word, "on") == 0 ? WLR_SWITCH_STATE_ON : WLR_SWITCH_STATE_OFF,
		};
		wl_signal_emit(&harness.switch_device.events.toggle, &event);
#else
		struct wlr_event_switch_toggle event = {
			.device = harness.tablet_switch, .time_msec = now_ms(), .switch_type = WLR_SWITCH_TYPE_TABLET_MODE,
			.switch_state = strcmp(word, "on") == 0 ? WLR_SWITCH_STATE_ON : WLR_SWITCH_STATE_OFF,
		};
		wl_signal_emit(&harness.tablet_switch->switch_device->events.toggle, &event);
#endif
		printf("tablet-mode %s\n", word);
	} else if (sscanf(line, "front %255s", word) == 1 && host->orient_set_front != NULL && host->orient != NULL) {
		struct host_toplevel *toplevel, *found = NULL;
		wl_list_for_each(toplevel, &host->toplevels, link) {
			const char *app_id = toplevel->xdg_surface->toplevel->app_id;
			if (found == NULL && app_id != NULL && strcmp(app_id, word) == 0) {
				found = toplevel;
			}
		}
		if (found == NULL && strcmp(word, "none") != 0) {
			printf("front failed %s\n", word);
		} else {
			host->orient_set_front(host->orient, host_first_output(host), found ? found->xdg_surface->toplevel : NULL);
			printf("front %s\n", word);
		}
	} else if (strncmp(line, "spawn ", 6) == 0) {
		line[strcspn(line, "\n")] = '\0';
		pid_t pid = start_shell(line + 6, false);
		printf(pid > 0 ? "spawned %d\n" : "spawn failed\n", (int)pid);
	} else if (sscanf(line, "dump %399s", path) == 1) {
		struct harness_output *o = first();
		if (o != NULL && o->last_frame == NULL) {
			/* Nothing shown yet (a scene commits its first frame at the next refresh): then. */
			free(o->pending_dump);
			o->pending_dump = strdup(path);
			wlr_output_schedule_frame(o->output);
			return 0;
		}
		printf(dump_frame(path) ? "dumped %s\n" : "dump failed %s\n", path);
	} else if (strncmp(line, "refresh ", 8) == 0 && first() != NULL) {
		struct harness_output *o = first();
		int mhz = atoi(line + 8);
		int width = o->output->width, height = o->output->height;
#if ORIENT_WLR_HAS_OUTPUT_STATE
		struct wlr_output_state state;
		wlr_output_state_init(&state);
		wlr_output_state_set_custom_mode(&state, width, height, mhz);
		bool set = mhz > 0 && wlr_output_commit_state(o->output, &state);
		wlr_output_state_finish(&state);
#else
		wlr_output_set_custom_mode(o->output, width, height, mhz);
		bool set = mhz > 0 && wlr_output_commit(o->output);
		if (!set) {
			wlr_output_rollback(o->output);
		}
#endif
		if (set) {
			printf("refresh %d\n", mhz);
		} else {
			printf("refresh failed\n");
		}
	} else if (strncmp(line, "bare-commits", 12) == 0) {
		printf("bare-commits %d\n", harness.bare_commits);
	} else if (strncmp(line, "next-frame", 10) == 0 && first() != NULL) {
		struct harness_output *o = first();
		o->report_next_frame = true;
		wlr_output_schedule_frame(o->output);
		return 0;
	} else if (strncmp(line, "record start", 12) == 0 && first() != NULL) {
		struct harness_output *o = first();
		free_record(o);
		o->record = calloc(RECORD_MAX, sizeof(*o->record));
		o->idle = calloc(RECORD_MAX, sizeof(*o->idle));
		o->recording = o->record != NULL && o->idle != NULL;
		o->record_pixels = strstr(line, "times") == NULL;
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
		wl_event_source_timer_update(o->refresh, refresh_period_ms(o));
#endif
		printf(o->recording ? "recording\n" : "record failed\n");
	} else if (sscanf(line, "record stop %399s", path) == 1 && first() != NULL) {
		struct harness_output *o = first();
		o->recording = false;
		int count = o->recorded;
		bool ok = write_record(o, path);
		free_record(o);
		if (ok) {
			printf("recorded %d %s\n", count, path);
		} else {
			printf("record failed %s\n", path);
		}
	} else if (sscanf(line, "transform %255s %d", word, &count) == 2) {
		struct harness_output *output = output_named(word);
		printf(output != NULL && command_output(host, output, count, -1) ? "transform %s %d\n" : "transform failed %s %d\n", word, count);
	} else if (sscanf(line, "output %255s %15s", word, path) == 2 && (strcmp(path, "on") == 0 || strcmp(path, "off") == 0)) {
		struct harness_output *output = output_named(word);
		bool on = strcmp(path, "on") == 0;
		printf(output != NULL && command_output(host, output, -1, on) ? "output %s %s\n" : "output failed %s %s\n", word, path);
	} else if (sscanf(line, "layers-stay %255s", word) == 1) {
		harness.layers_stay = strcmp(word, "on") == 0;
		printf("layers-stay %s\n", word);
	} else if (sscanf(line, "layers-resend %255s", word) == 1) {
		harness.layers_resend = strcmp(word, "on") == 0;
		printf("layers-resend %s\n", word);
	} else if (sscanf(line, "refuse-configurations %255s", word) == 1) {
		harness.refuse_configurations = strcmp(word, "on") == 0;
		printf("refuse-configurations %s\n", word);
	} else if (sscanf(line, "add-output %dx%d", &width, &height) == 2) {
		struct wlr_output *output = wlr_headless_add_output(host->backend, width, height);
		printf(output != NULL ? "added-output %s\n" : "add-output failed\n", output != NULL ? output->name : "");
	} else if (sscanf(line, "remove-output %255s", word) == 1) {
		struct host_output *o, *found = NULL;
		wl_list_for_each(o, &host->outputs, link) {
			if (strcmp(o->output->name, word) == 0) {
				found = o;
			}
		}
		if (found != NULL) {
			wlr_output_destroy(found->output);
			publish_outputs(host);
			printf("removed-output %s\n", word);
		} else {
			printf("remove-output failed %s\n", word);
		}
	} else if (strncmp(line, "close-layers", 12) == 0) {
		printf("closed-layers %d\n", close_layers(NULL));
	} else if (sscanf(line, "memcpy-bench %d", &count) == 1) {
		memcpy_bench(count);
	} else if (strncmp(line, "quit", 4) == 0) {
		wl_display_terminate(host->display);
	} else {
		printf("unknown command\n");
	}
	fflush(stdout);
	return 0;
}

/* After the plugin, before the clients go: the harness's own listeners and devices. */
static void finishing(struct host *host) {
	if (harness.stdin_source != NULL) {
		wl_event_source_remove(harness.stdin_source);
		harness.stdin_source = NULL;
	}
	wl_list_remove(&harness.output_manager_apply.link);
	wl_list_remove(&harness.output_manager_test.link);
	wl_list_remove(&harness.new_layer_surface.link);
	wl_list_remove(&harness.touch_down.link);
	wl_list_remove(&harness.touch_up.link);
	wl_list_remove(&harness.cursor_motion_absolute.link);
	wl_list_remove(&harness.cursor_button.link);
	wl_list_remove(&harness.cursor_frame.link);
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	if (harness.touch != NULL) {
		wlr_touch_finish(&harness.touch_device);
	}
	if (harness.pointer != NULL) {
		wlr_pointer_finish(&harness.pointer_device);
	}
	if (harness.tablet_switch != NULL) {
		wlr_switch_finish(&harness.switch_device);
	}
#endif
}

/* The protocols that copy an output (the daemon's shield takes its picture with one), as
 * --capture says; false for an unknown word. */
static bool offer_capture(struct host *host, const char *which) {
	bool screencopy = strcmp(which, "both") == 0 || strcmp(which, "screencopy") == 0;
	bool ext = strcmp(which, "both") == 0 || strcmp(which, "ext-image-copy") == 0;
	if (!screencopy && !ext && strcmp(which, "none") != 0) {
		return false;
	}
	if (screencopy) {
		wlr_screencopy_manager_v1_create(host->display);
	}
#if ORIENT_WLR_HAS_EXT_IMAGE_COPY_CAPTURE
	if (ext) {
		wlr_ext_image_copy_capture_manager_v1_create(host->display, 1);
		wlr_ext_output_image_capture_source_manager_v1_create(host->display, 1);
	}
#else
	ext = false;
#endif
	printf("capture: %s\n", screencopy && ext ? "both" : screencopy ? "screencopy" : ext ? "ext-image-copy" : "none");
	fflush(stdout);
	return true;
}

int main(int argc, char *argv[]) {
	const char *plugin = NULL, *command = NULL;
	int width = 1280, height = 800;
	int second_width = 0, second_height = 0;
	bool touch = false, tablet_switch = false, debug = false, plugin_last = false, tile = false, foreign = true;
	bool pointer = false;
	bool done_first = false;
	const char *capture = "both";
	static const struct option options[] = {
		{ "plugin", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 'g' },
		{ "touch", no_argument, NULL, 't' },
		{ "pointer", no_argument, NULL, 'P' },
		{ "switch", no_argument, NULL, 'w' },
		{ "tile", no_argument, NULL, 'T' },
		{ "second-output", required_argument, NULL, 'o' },
		{ "no-foreign-toplevel", no_argument, NULL, 'F' },
		{ "debug", no_argument, NULL, 'd' },
		{ "destroy-plugin-last", no_argument, NULL, 'l' },
		{ "done-before-succeeded", no_argument, NULL, 'D' },
		{ "copied-environment", no_argument, NULL, 'E' },
		{ "no-toplevel-outputs", no_argument, NULL, 'O' },
		{ "capture", required_argument, NULL, 'C' },
		{ 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "s:", options, NULL)) != -1) {
		switch (c) {
		case 'p': plugin = optarg; break;
		case 'g': sscanf(optarg, "%dx%d", &width, &height); break;
		case 't': touch = true; break;
		case 'P': pointer = true; break;
		case 'w': tablet_switch = true; break;
		case 'T': tile = true; break;
		case 'o': sscanf(optarg, "%dx%d", &second_width, &second_height); break;
		case 'F': foreign = false; break;
		case 'd': debug = true; break;
		case 'l': plugin_last = true; break;
		case 'D': done_first = true; break;
		case 'E': copy_environment(); break;
		case 'O': harness.no_toplevel_outputs = true; break;
		case 'C': capture = optarg; break;
		case 's': command = optarg; break;
		default:
			fprintf(stderr, "usage: %s [--plugin PATH] [--size WxH] [--touch] [--pointer] [--switch] [--tile] [--second-output WxH] [--no-foreign-toplevel] [--done-before-succeeded] [--copied-environment] [--no-toplevel-outputs] [--capture both|screencopy|ext-image-copy|none] [--debug] [-s COMMAND]\n", argv[0]);
			return 1;
		}
	}
	wlr_log_init(debug ? WLR_DEBUG : WLR_INFO, NULL);

	struct host *host = &harness.host;
	host->tile = tile;
	host->destroy_plugin_last = plugin_last;
	host->hooks = (struct host_hooks){
		.output_added = output_added,
		.output_destroyed = output_destroyed,
		.refresh_begin = refresh_begin,
		.refresh_end = refresh_end,
		.outputs_changed = publish_outputs,
		.relayout = arrange_layers,
		.toplevel_mapped = toplevel_mapped,
		.toplevel_unmapped = toplevel_unmapped,
		.toplevel_destroyed = toplevel_unmapped,
		.focused = focused,
		.finishing = finishing,
	};
	harness.done_before_succeeded = done_first;
	wl_list_init(&harness.layers);
	if (!host_create(host)) {
		return 1;
	}
	/* The daemon's shield draws its turning frames small and has them scaled up, as sway and labwc let it. */
	wlr_viewporter_create(host->display);
	if (!offer_capture(host, capture)) {
		fprintf(stderr, "wlr-orient-host: --capture is both, screencopy, ext-image-copy or none, not %s\n", capture);
		return 1;
	}
	harness.output_manager_apply.notify = handle_output_manager_apply;
	wl_signal_add(&host->output_manager->events.apply, &harness.output_manager_apply);
	harness.output_manager_test.notify = handle_output_manager_test;
	wl_signal_add(&host->output_manager->events.test, &harness.output_manager_test);
	if (foreign) {
		harness.foreign_toplevels = wlr_foreign_toplevel_manager_v1_create(host->display);
	}
#if ORIENT_WLR_HAS_VERSIONED_GLOBALS
	harness.layer_shell = wlr_layer_shell_v1_create(host->display, 4);
#else
	harness.layer_shell = wlr_layer_shell_v1_create(host->display);
#endif
#if ORIENT_WLR_HAS_IDLE_NOTIFIER
	harness.idle_notifier = wlr_idle_notifier_v1_create(host->display);
#endif
	harness.new_layer_surface.notify = handle_new_layer_surface;
	wl_signal_add(&harness.layer_shell->events.new_surface, &harness.new_layer_surface);
	harness.touch_down.notify = handle_touch_down;
	wl_signal_add(&host->cursor->events.touch_down, &harness.touch_down);
	harness.touch_up.notify = handle_touch_up;
	wl_signal_add(&host->cursor->events.touch_up, &harness.touch_up);
	harness.cursor_motion_absolute.notify = handle_cursor_motion_absolute;
	wl_signal_add(&host->cursor->events.motion_absolute, &harness.cursor_motion_absolute);
	harness.cursor_button.notify = handle_cursor_button;
	wl_signal_add(&host->cursor->events.button, &harness.cursor_button);
	harness.cursor_frame.notify = handle_cursor_frame;
	wl_signal_add(&host->cursor->events.frame, &harness.cursor_frame);

	/* The plugin comes after the host's own listeners and before the backend starts; its frame
	 * hooks are timed. */
	if (plugin != NULL) {
		host_load_plugin(host, plugin);
	}
	harness.render_output = host->orient_render_output;
	harness.render_output_state = host->orient_render_output_state;
	host->orient_render_output = timed_render_output;
	host->orient_render_output_state = timed_render_output_state;
	wlr_headless_add_output(host->backend, width, height);
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	/* Announced as the backend announces its own devices. */
	static const struct wlr_touch_impl touch_impl = { .name = "wlr-orient-host-touch" };
	static const struct wlr_switch_impl switch_impl = { .name = "wlr-orient-host-switch" };
	static const struct wlr_pointer_impl pointer_impl = { .name = "wlr-orient-host-pointer" };
	if (pointer) {
		wlr_pointer_init(&harness.pointer_device, &pointer_impl, "mouse");
		harness.pointer = &harness.pointer_device.base;
		wl_signal_emit(&host->backend->events.new_input, harness.pointer);
	}
	if (touch) {
		wlr_touch_init(&harness.touch_device, &touch_impl, "touchscreen");
		harness.touch = &harness.touch_device.base;
		wl_signal_emit(&host->backend->events.new_input, harness.touch);
	}
	if (tablet_switch) {
		wlr_switch_init(&harness.switch_device, &switch_impl, "tablet-mode switch");
		harness.tablet_switch = &harness.switch_device.base;
		wl_signal_emit(&host->backend->events.new_input, harness.tablet_switch);
	}
#else
	if (touch) {
		harness.touch = wlr_headless_add_input_device(host->backend, WLR_INPUT_DEVICE_TOUCH);
	}
	if (pointer) {
		harness.pointer = wlr_headless_add_input_device(host->backend, WLR_INPUT_DEVICE_POINTER);
	}
	if (tablet_switch) {
		harness.tablet_switch = wlr_headless_add_input_device(host->backend, WLR_INPUT_DEVICE_SWITCH);
	}
#endif

	const char *socket = host_start(host);
	if (socket == NULL) {
		return 1;
	}
	/* After the start, so that it comes second (the backend announces the outputs it had before
	 * starting newest first). */
	if (second_width > 0 && second_height > 0) {
		wlr_headless_add_output(host->backend, second_width, second_height);
	}
	setenv("WAYLAND_DISPLAY", socket, true);
	printf("WAYLAND_DISPLAY=%s\n", socket);
	fflush(stdout);
	harness.stdin_source = wl_event_loop_add_fd(wl_display_get_event_loop(host->display), STDIN_FILENO,
		WL_EVENT_READABLE, handle_stdin, NULL);
	if (copied_environment != NULL) {
		copied_environment_add("WAYLAND_DISPLAY", socket);
	}
	if (command != NULL) {
		start_shell(command, true);
	}
	wl_display_run(host->display);
	host_finish(host);
	return 0;
}

/*
 * wlr-orient-host: a minimal wlroots compositor (the releases of orient_wlr_features.h) that loads the wlr-orient plugin exactly
 * as a real compositor would (dlopen + the public header), for tests, demos and as an example
 * for compositor authors. Headless, pixman renderer, one output (the panel: HEADLESS-1; with
 * --second-output another, HEADLESS-2, beside it), every toplevel maximized on the panel.
 *
 *   wlr-orient-host [--plugin PATH] [--size WxH] [--touch] [--switch] [--tile] [--debug]
 *                   [--second-output WxH] [--no-foreign-toplevel] [--destroy-plugin-last]
 *                   [--done-before-succeeded] [-s COMMAND]
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
 * columns (not maximized, as a tiling compositor does). Each frame is rendered in the order a
 * wlroots 0.15 compositor on wlr_scene uses to give the plugin its transitions (see
 * output_handle_frame).
 *
 * Like tinywl and cage, it gives keyboard focus to each toplevel when it is mapped, and to the
 * most recent other one when the focused one goes, and prints "focused APP_ID" (once the
 * plugin has had the focus signal) and "unmapped APP_ID" (from its own handler, before the
 * plugin's; a client that asks anything afterwards, such as wlr-randr, sees the plugin's
 * reaction). On start it prints "WAYLAND_DISPLAY=<socket>". It reads commands on standard input, one per line, and answers each on standard output:
 *   touch-down X Y     a touch at normalized panel coordinates (0..1, the panel's own axes)
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
#define WLR_USE_UNSTABLE 1
#include <dlfcn.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/version.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_touch.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_switch.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <drm_fourcc.h>

/* What differs between the wlroots releases supported, by name: an #if on those names where the
 * calls differ. */
#include "orient_wlr_features.h"
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
#include <wlr/interfaces/wlr_switch.h>
#endif
#if ORIENT_WLR_HAS_SUBCOMPOSITOR
#include <wlr/types/wlr_subcompositor.h>
#endif
#if !ORIENT_WLR_HAS_SCENE_BUILD_STATE
#include <wlr/types/wlr_output_damage.h>
#endif

#include "wlr-orient.h"

struct host {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
#if ORIENT_WLR_HAS_SCENE_OUTPUT_LAYOUT
	struct wlr_scene_output_layout *scene_layout;
#endif
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	/* Input devices of our own (0.16 dropped the headless backend's): a touchscreen and a switch. */
	struct wlr_touch touch_device;
	struct wlr_switch switch_device;
#endif
	struct wlr_output_layout *output_layout;
	struct wlr_output_manager_v1 *output_manager;
	struct wlr_foreign_toplevel_manager_v1 *foreign_toplevels; /* NULL with --no-foreign-toplevel */
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_layer_shell_v1 *layer_shell;
	/* The scene, bottom to top: background and bottom layers, toplevels, top and overlay layers. */
	struct wlr_scene_tree *layers_below, *toplevel_tree, *layers_above;
	struct wlr_seat *seat;
	struct wlr_cursor *cursor;
	struct wlr_input_device *touch;
	struct wlr_input_device *tablet_switch;
	struct wl_list outputs;   /* struct host_output.link */
	struct wl_list toplevels; /* struct host_toplevel.link */
	struct wl_list layers;    /* struct host_layer.link */

	bool tile;
	bool refuse_configurations; /* "refuse-configurations on": every test and apply fails */
	bool layers_stay;           /* "layers-stay on": layer surfaces keep their size when an output
	                             * changes, as in a compositor that does not re-configure them */
	bool done_before_succeeded; /* --done-before-succeeded */

	void *plugin_handle;
	struct wlr_orient *orient;
	wlr_orient_destroy_func orient_destroy;
	void (*orient_render_output)(struct wlr_orient *, struct wlr_output *);
	void (*orient_render_output_state)(struct wlr_orient *, struct wlr_output *, struct wlr_output_state *);
	void (*orient_prepare_output_state)(struct wlr_orient *, struct wlr_output *, struct wlr_output_state *);
	int bare_commits;              /* output commits that carried no frame (the plugin must make none) */
	void (*orient_set_front)(struct wlr_orient *, struct wlr_output *, struct wlr_xdg_toplevel *);

	struct wl_listener new_output;
	struct wl_listener new_input;
	struct wl_listener new_xdg_surface;
	struct wl_listener new_layer_surface;
	struct wl_listener cursor_touch_down;
	struct wl_listener cursor_touch_up;
	struct wl_listener output_transformed;
	struct wl_listener output_manager_apply;
	struct wl_listener output_manager_test;
	struct wl_event_source *stdin_source;
};

/* One committed frame, kept by "record". */
struct recorded_frame {
	double presented;   /* monotonic seconds */
	int transform;
	double orient_ms;   /* spent in wlr_orient_render_output */
	double orient_cpu_ms; /* of it, on this thread's CPU time (not counting time preempted) */
	double renderer_cpu_ms; /* of that, in the renderer's calls (benchmarks/renderer_time.c; else 0) */
	int width, height;
	uint32_t *pixels;   /* NULL when only times are recorded */
};

#define RECORD_MAX 1000

struct host_output {
	struct wl_list link;
	struct host *host;
	struct wlr_output *output;
	struct wlr_scene_output *scene_output;
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
	struct wl_listener frame;
	struct wl_listener commit;
	struct wl_listener present;
	struct wl_listener destroy;
};

struct host_toplevel {
	struct wl_list link; /* newest first */
	struct host *host;
	struct wlr_xdg_surface *xdg_surface;
	struct wlr_scene_node *node;
	struct wlr_foreign_toplevel_handle_v1 *handle; /* while mapped, when foreign-toplevel is on */
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	struct wl_listener commit; /* its initial commit: the first configure is the host's to send */
#endif
};

/* A layer-shell surface (a panel, a bar, `wlr-orient daemon`'s shield over a turning panel): on its
 * output, in the tree of its layer, placed by its anchors and margins, and configured anew when
 * its output's box changes (a turn). */
struct host_layer {
	struct wl_list link; /* host.layers */
	struct host *host;
	struct wlr_layer_surface_v1 *layer_surface;
	struct wlr_scene_node *node;      /* its surface and subsurfaces */
	int configured_width, configured_height; /* the last size sent, 0 before any */
	struct wl_listener commit;
	struct wl_listener destroy;
};

/* What the toplevel calls take: the wlr_xdg_surface in 0.15, the wlr_xdg_toplevel from 0.16. */
#if ORIENT_WLR_HAS_XDG_TOPLEVEL_OBJECT
#define TOPLEVEL_ARG(t) ((t)->xdg_surface->toplevel)
#else
#define TOPLEVEL_ARG(t) ((t)->xdg_surface)
#endif
#if ORIENT_WLR_HAS_SURFACE_MAP
#define SURFACE_MAPPED(xdg) ((xdg)->surface->mapped)
#else
#define SURFACE_MAPPED(xdg) ((xdg)->mapped)
#endif

/* Scene parents are trees from 0.16, nodes before; a layer surface may be configured once it
 * has been added (0.15: its initial commit) or initialized (0.18 on). */
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

static bool dump_frame(struct host *host, const char *path);

/* Where `output` lies in the layout; false if it is not in it. */
static bool output_box(struct host *host, struct wlr_output *output, struct wlr_box *box) {
	if (output == NULL) {
		return false;
	}
#if ORIENT_WLR_HAS_LAYOUT_BOX_FILLED
	wlr_output_layout_get_box(host->output_layout, output, box);
	return !wlr_box_empty(box);
#else
	struct wlr_box *found = wlr_output_layout_get_box(host->output_layout, output);
	if (found != NULL) {
		*box = *found;
	}
	return found != NULL;
#endif
}

static struct wlr_output *first_output(struct host *host) {
	if (wl_list_empty(&host->outputs)) {
		return NULL;
	}
	struct host_output *o = wl_container_of(host->outputs.next, o, link);
	return o->output;
}

/* Every toplevel fills the output's box (or, with --tile, one column of it): sized to it, so
 * clients re-layout after a rotation. `only`: the one new toplevel, when the others keep their
 * place (not when tiling, where a new column narrows the others). */
static void arrange(struct host *host, struct host_toplevel *only) {
	struct wlr_box layout_box;
	if (!output_box(host, first_output(host), &layout_box)) {
		return;
	}
	struct wlr_box *box = &layout_box;
	int count = wl_list_length(&host->toplevels), i = 0;
	struct host_toplevel *toplevel;
	wl_list_for_each_reverse(toplevel, &host->toplevels, link) {
		if (only != NULL && toplevel != only && !host->tile) {
			i++;
			continue;
		}
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
		/* Nothing may be configured before its initial commit (0.19 asserts it). */
		if (!toplevel->xdg_surface->initialized) {
			i++;
			continue;
		}
#endif
		if (host->tile) {
			int x = box->width * i / count, next = box->width * (i + 1) / count;
			wlr_scene_node_set_position(toplevel->node, box->x + x, box->y);
			wlr_xdg_toplevel_set_size(TOPLEVEL_ARG(toplevel), next - x, box->height);
		} else {
			wlr_scene_node_set_position(toplevel->node, box->x, box->y);
			wlr_xdg_toplevel_set_maximized(TOPLEVEL_ARG(toplevel), true);
			wlr_xdg_toplevel_set_size(TOPLEVEL_ARG(toplevel), box->width, box->height);
		}
		i++;
	}
}

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
static void arrange_layer(struct host_layer *layer) {
	struct wlr_layer_surface_v1 *layer_surface = layer->layer_surface;
	struct wlr_box box;
	if (!LAYER_READY(layer_surface) || !output_box(layer->host, layer_surface->output, &box)) {
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
	if (width != layer->configured_width || height != layer->configured_height) {
		layer->configured_width = width;
		layer->configured_height = height;
		wlr_layer_surface_v1_configure(layer_surface, width, height);
		printf("layer-surface %s configured %d %d\n", layer_surface->namespace, width, height);
		fflush(stdout);
	}
}

static void arrange_layers(struct host *host) {
	struct host_layer *layer;
	wl_list_for_each(layer, &host->layers, link) {
		arrange_layer(layer);
	}
}

static void layer_handle_commit(struct wl_listener *listener, void *data) {
	struct host_layer *layer = wl_container_of(listener, layer, commit);
	arrange_layer(layer);
}

static void layer_handle_destroy(struct wl_listener *listener, void *data) {
	struct host_layer *layer = wl_container_of(listener, layer, destroy);
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
	struct host *host = wl_container_of(listener, host, new_layer_surface);
	struct wlr_layer_surface_v1 *layer_surface = data;
	if (layer_surface->output == NULL) {
		layer_surface->output = first_output(host);
	}
	struct host_layer *layer = calloc(1, sizeof(*layer));
	if (layer == NULL || layer_surface->output == NULL) {
		free(layer);
		wlr_layer_surface_v1_destroy(layer_surface);
		return;
	}
	layer->host = host;
	layer->layer_surface = layer_surface;
	bool above = layer_surface->pending.layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP;
	layer->node = SUBSURFACE_TREE_NODE(SCENE_PARENT(above ? host->layers_above : host->layers_below),
		layer_surface->surface);
	layer->commit.notify = layer_handle_commit;
	wl_signal_add(&layer_surface->surface->events.commit, &layer->commit);
	layer->destroy.notify = layer_handle_destroy;
	wl_signal_add(&layer_surface->events.destroy, &layer->destroy);
	wl_list_insert(&host->layers, &layer->link);
	printf("layer-surface %s new on %s\n", layer_surface->namespace, layer_surface->output->name);
	fflush(stdout);
	arrange_layer(layer);
}

/* Closes every layer surface on `output` (all of them for NULL), as a compositor does when an
 * output goes; answers how many. */
static int close_layers(struct host *host, struct wlr_output *output) {
	struct host_layer *layer, *next;
	int closed = 0;
	wl_list_for_each_safe(layer, next, &host->layers, link) {
		if (output == NULL || layer->layer_surface->output == output) {
			wlr_layer_surface_v1_destroy(layer->layer_surface);
			closed++;
		}
	}
	return closed;
}

/* A turned output has a new box: its toplevels and layer surfaces are laid out anew. */
static void relayout(struct host *host) {
	arrange(host, NULL);
	if (!host->layers_stay) {
		arrange_layers(host);
	}
}

static void handle_output_transformed(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, output_transformed);
	relayout(host);
}

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

#if ORIENT_WLR_HAS_SCENE_BUILD_STATE
/*
 * The frame path of a compositor on wlr_scene from wlroots 0.18 that gives the plugin its
 * transitions: wlr_orient_prepare_output_state (a turn waiting for a frame adds its transform),
 * build the scene's output state, wlr_orient_render_output_state (the plugin draws
 * the old frame of a rotation into its buffer), commit it. While a transition runs the plugin
 * damages the whole output each frame, so the scene builds every refresh.
 */
static bool scene_needs_frame(struct wlr_scene_output *scene_output) {
#if ORIENT_WLR_HAS_SCENE_NEEDS_FRAME
	return wlr_scene_output_needs_frame(scene_output);
#else
	return scene_output->output->needs_frame || pixman_region32_not_empty(&scene_output->pending_commit_damage);
#endif
}

static bool render_output(struct host_output *o) {
	struct host *host = o->host;
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	bool committed = false;
	if (host->orient_prepare_output_state != NULL) {
		host->orient_prepare_output_state(host->orient, o->output, &state);
	}
	if (scene_needs_frame(o->scene_output) && wlr_scene_output_build_state(o->scene_output, &state, NULL) &&
			(state.committed & WLR_OUTPUT_STATE_BUFFER)) {
		double before = monotonic_seconds(), cpu_before = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
		double renderer_before = renderer_cpu_ms();
		if (host->orient_render_output_state != NULL) {
			host->orient_render_output_state(host->orient, o->output, &state);
		}
		o->orient_ms = (monotonic_seconds() - before) * 1000;
		o->orient_cpu_ms = (clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_before) * 1000;
		o->renderer_cpu_ms = renderer_cpu_ms() - renderer_before;
		committed = wlr_output_commit_state(o->output, &state);
	}
	wlr_output_state_finish(&state);
	return committed;
}
#else
/*
 * The frame path of a wlroots 0.15 compositor on wlr_scene that gives the plugin its transitions:
 * attach a render buffer, begin, render the scene, wlr_orient_render_output, end, commit. The
 * plugin draws the old frame of a rotation over the new layout there, and asks for the next
 * frame while a transition runs (wlr_output_schedule_frame, which sets needs_frame).
 */
static bool render_output(struct host_output *o) {
	struct host *host = o->host;
	struct wlr_output *output = o->output;
	bool needs_frame = false;
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	if (!wlr_output_damage_attach_render(o->scene_output->damage, &needs_frame, &damage)) {
		pixman_region32_fini(&damage);
		return false;
	}
	pixman_region32_fini(&damage);
	if (!needs_frame) {
		wlr_output_rollback(output);
		return false;
	}
	wlr_renderer_begin(host->renderer, output->width, output->height);
	/* 0.15's wlr_scene_render_output draws the nodes and clears nothing (wlr_scene_output_commit
	 * clears before calling it): without this, a window that went away stays on screen. */
	wlr_renderer_clear(host->renderer, (float[4]){0, 0, 0, 1});
	/* The whole output each time: simple, and cheap enough headless. In 0.15 the scene takes
	 * this region in the output's transformed (layout-sized) coordinates; its own default for
	 * NULL is the untransformed size, which leaves part of a rotated output undrawn. */
	int width, height;
	wlr_output_transformed_resolution(output, &width, &height);
	pixman_region32_init_rect(&damage, 0, 0, width, height);
	wlr_scene_render_output(host->scene, output, o->scene_output->x, o->scene_output->y, &damage);
	pixman_region32_fini(&damage);
	double before = monotonic_seconds(), cpu_before = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
	double renderer_before = renderer_cpu_ms();
	if (host->orient_render_output != NULL) {
		host->orient_render_output(host->orient, output);
	}
	o->orient_ms = (monotonic_seconds() - before) * 1000;
	o->orient_cpu_ms = (clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_before) * 1000;
	o->renderer_cpu_ms = renderer_cpu_ms() - renderer_before;
	wlr_renderer_end(host->renderer);
	if (!wlr_output_commit(output)) {
		wlr_output_rollback(output);
		return false;
	}
	return true;
}
#endif

#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
static int refresh_period_ms(struct host_output *o) {
	return o->output->refresh > 0 ? 1000000 / o->output->refresh : 16;
}
#endif

/* A refresh of the panel: the scene's frame (with the plugin's part) if anything changed. */
static void output_refresh(struct host_output *o) {
	if (o->scene_output == NULL) {
		return; /* out of the layout (switched off): nothing of the scene to show */
	}
	/* A refresh that commits nothing during a transition is one the animation missed. 0.15's
	 * headless backend refreshes on a timer whether or not anything changed; from 0.18 it sends
	 * a frame only after a commit or when asked for one, so while recording the host keeps the
	 * steady refresh of a display with a timer of its own. */
	o->refresh_started = monotonic_seconds();
	o->refreshing = true;
	bool rendered = render_output(o);
	o->refreshing = false;
	if (!rendered && o->recording && o->idle_count < RECORD_MAX) {
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
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(o->scene_output, &now);
}

static void output_handle_frame(struct wl_listener *listener, void *data) {
	struct host_output *o = wl_container_of(listener, o, frame);
	output_refresh(o);
}

#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
/* A refresh with no frame event: unless a frame is on its way (it comes as the event). */
static int handle_refresh_timer(void *data) {
	struct host_output *o = data;
	if (o->recording && !o->output->frame_pending) {
		output_refresh(o);
	}
	return 0;
}
#endif

static void record_frame(struct host_output *o, struct wlr_buffer *buffer) {
	struct recorded_frame *r = &o->record[o->recorded++];
	*r = (struct recorded_frame){
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
		.presented = -1, /* from 0.18 the present event comes after the commit: filled in there */
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
	struct host_output *o = wl_container_of(listener, o, present);
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
	struct host_output *o = wl_container_of(listener, o, commit);
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
		o->host->bare_commits++;
		return;
	}
	if (o->last_frame != NULL) {
		wlr_buffer_unlock(o->last_frame);
	}
	o->last_frame = wlr_buffer_lock(buffer);
	if (o->pending_dump != NULL) {
		printf(dump_frame(o->host, o->pending_dump) ? "dumped %s\n" : "dump failed %s\n", o->pending_dump);
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

static void free_record(struct host_output *o) {
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

static void output_handle_destroy(struct wl_listener *listener, void *data) {
	struct host_output *o = wl_container_of(listener, o, destroy);
	close_layers(o->host, o->output);
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
	wl_list_remove(&o->frame.link);
	wl_list_remove(&o->commit.link);
	wl_list_remove(&o->present.link);
	wl_list_remove(&o->destroy.link);
	wl_list_remove(&o->link);
	free(o);
}

/* An output without modes that came back on since output-management clients last saw it. */
static bool back_on_without_modes(struct host_output *o) {
	return o->published_off && o->output->enabled && wl_list_empty(&o->output->modes);
}

/* The outputs as output-management clients see them; `leaving_out_back_on`: without those
 * back_on_without_modes (see publish_outputs). */
static void publish_configuration(struct host *host, bool leaving_out_back_on) {
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	struct host_output *o;
	wl_list_for_each(o, &host->outputs, link) {
		if (leaving_out_back_on && back_on_without_modes(o)) {
			continue;
		}
		struct wlr_output_configuration_head_v1 *head = wlr_output_configuration_head_v1_create(config, o->output);
		struct wlr_box box;
		if (head != NULL && output_box(host, o->output, &box)) {
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
	struct host_output *o;
	wl_list_for_each(o, &host->outputs, link) {
		if (back_on_without_modes(o)) {
			publish_configuration(host, true);
			break;
		}
	}
	publish_configuration(host, false);
}

/* The host's record of an output, NULL for none. */
static struct host_output *host_output_of(struct host *host, struct wlr_output *output) {
	struct host_output *o;
	wl_list_for_each(o, &host->outputs, link) {
		if (o->output == output) {
			return o;
		}
	}
	return NULL;
}

/* An output enters the layout (at x, y; anywhere free with `automatic`), with a scene output of
 * its own. Leaving the layout destroys its scene output (wlr_scene's layout helper): forgotten
 * then, and made again when it comes back, so that no frame renders through a freed one. */
static void output_enter_layout(struct host *host, struct host_output *o, bool automatic, int x, int y) {
#if ORIENT_WLR_HAS_SCENE_OUTPUT_LAYOUT
	struct wlr_output_layout_output *l_output = automatic ? wlr_output_layout_add_auto(host->output_layout, o->output)
		: wlr_output_layout_add(host->output_layout, o->output, x, y);
#else
	if (automatic) {
		wlr_output_layout_add_auto(host->output_layout, o->output);
	} else {
		wlr_output_layout_add(host->output_layout, o->output, x, y);
	}
#endif
	o->scene_output = wlr_scene_get_scene_output(host->scene, o->output);
	if (o->scene_output == NULL) {
		o->scene_output = wlr_scene_output_create(host->scene, o->output);
#if ORIENT_WLR_HAS_SCENE_OUTPUT_LAYOUT
		wlr_scene_output_layout_add_output(host->scene_layout, l_output, o->scene_output);
#endif
	}
}

static void output_leave_layout(struct host *host, struct host_output *o) {
	wlr_output_layout_remove(host->output_layout, o->output);
	o->scene_output = wlr_scene_get_scene_output(host->scene, o->output);
}

static void handle_new_output(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, new_output);
	struct wlr_output *output = data;
	wlr_output_init_render(output, host->allocator, host->renderer);
	/* Every frame is rendered, never a client's buffer scanned out directly: in wlroots 0.15 the
	 * commit event of a scanned-out buffer carries no buffer, and `dump` must see what is shown. */
	wlr_output_lock_attach_render(output, true);
#if ORIENT_WLR_HAS_OUTPUT_STATE
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_enabled(&state, true);
	bool enabled = wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
	if (!enabled) {
		return;
	}
#else
	wlr_output_enable(output, true);
	if (!wlr_output_commit(output)) {
		wlr_output_rollback(output);
		return;
	}
#endif
	struct host_output *o = calloc(1, sizeof(*o));
	o->host = host;
	o->output = output;
	o->last_transform = -1;
	o->on_width = output->width, o->on_height = output->height, o->on_refresh = output->refresh;
	o->frame.notify = output_handle_frame;
	wl_signal_add(&output->events.frame, &o->frame);
	o->commit.notify = output_handle_commit;
	wl_signal_add(&output->events.commit, &o->commit);
	o->present.notify = output_handle_present;
	wl_signal_add(&output->events.present, &o->present);
	o->destroy.notify = output_handle_destroy;
	wl_signal_add(&output->events.destroy, &o->destroy);
	wl_list_insert(host->outputs.prev, &o->link); /* in creation order: the first is the panel */
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
	o->refresh = wl_event_loop_add_timer(wl_display_get_event_loop(host->display), handle_refresh_timer, o);
#endif
	output_enter_layout(host, o, true, 0, 0);
	publish_outputs(host);
}

/* A client's output configuration (wlr-output-management: wlr-randr, `wlr-orient daemon`):
 * every head tested first, and only if all pass (and this is no test) committed. */
static bool configure_outputs(struct host *host, struct wlr_output_configuration_v1 *config, bool commit) {
	bool ok = !host->refuse_configurations;
	struct wlr_output_configuration_head_v1 *head;
	/* Switched on in the one mode it offered while off (see publish_outputs): the size it had. */
	wl_list_for_each(head, &config->heads, link) {
		struct host_output *o = host_output_of(host, head->state.output);
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
		struct host_output *o = host_output_of(host, head->state.output);
		if (committed && o != NULL && head->state.enabled) {
			output_enter_layout(host, o, false, head->state.x, head->state.y);
		} else if (committed && o != NULL) {
			output_leave_layout(host, o);
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
		struct host_output *o = host_output_of(host, output);
		if (committed && o != NULL && head->state.enabled) {
			output_enter_layout(host, o, false, head->state.x, head->state.y);
		} else if (committed && o != NULL) {
			output_leave_layout(host, o);
		}
	}
#endif
	return ok;
}

/* The compositor's own output command (as a compositor's config or IPC would): a transform
 * (`transform` >= 0), or the output switched off or on (`enable` 0 or 1; on again at the size it
 * had). Published to output-management clients as any change is. */
static bool command_output(struct host *host, struct host_output *o, int transform, int enable) {
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
		output_leave_layout(host, o);
	} else if (ok && enable == 1) {
		output_enter_layout(host, o, true, 0, 0);
	}
	if (ok) {
		publish_outputs(host);
		relayout(host);
	}
	return ok;
}

static struct host_output *output_named(struct host *host, const char *name) {
	struct host_output *o;
	wl_list_for_each(o, &host->outputs, link) {
		if (strcmp(o->output->name, name) == 0) {
			return o;
		}
	}
	return NULL;
}

static void handle_output_manager_config(struct host *host, struct wlr_output_configuration_v1 *config, bool commit) {
	bool ok = configure_outputs(host, config, commit);
	printf("output configuration %s %s\n", commit ? "apply" : "test", ok ? "succeeded" : "failed");
	fflush(stdout);
	bool described = false;
	if (commit && ok && host->done_before_succeeded) {
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
		relayout(host);
	}
}

static void handle_output_manager_apply(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, output_manager_apply);
	handle_output_manager_config(host, data, true);
}

static void handle_output_manager_test(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, output_manager_test);
	handle_output_manager_config(host, data, false);
}

/* Foreign-toplevel's "activated" follows keyboard focus (NULL: nothing focused). */
static void mark_activated(struct host *host, struct host_toplevel *focused) {
	struct host_toplevel *toplevel;
	wl_list_for_each(toplevel, &host->toplevels, link) {
		if (toplevel->handle != NULL) {
			wlr_foreign_toplevel_handle_v1_set_activated(toplevel->handle, toplevel == focused);
		}
	}
}

static void focus_toplevel(struct host_toplevel *toplevel) {
	wlr_seat_keyboard_notify_enter(toplevel->host->seat, toplevel->xdg_surface->surface, NULL, 0, NULL);
	mark_activated(toplevel->host, toplevel);
	printf("focused %s\n", toplevel->xdg_surface->toplevel->app_id ? toplevel->xdg_surface->toplevel->app_id : "");
	fflush(stdout);
}

static void toplevel_handle_map(struct wl_listener *listener, void *data) {
	struct host_toplevel *toplevel = wl_container_of(listener, toplevel, map);
	struct host *host = toplevel->host;
	struct wlr_output *output = first_output(host);
	if (host->foreign_toplevels != NULL) {
		struct wlr_xdg_toplevel *xdg = toplevel->xdg_surface->toplevel;
		toplevel->handle = wlr_foreign_toplevel_handle_v1_create(host->foreign_toplevels);
		if (toplevel->handle != NULL) {
			wlr_foreign_toplevel_handle_v1_set_app_id(toplevel->handle, xdg->app_id != NULL ? xdg->app_id : "");
			wlr_foreign_toplevel_handle_v1_set_title(toplevel->handle, xdg->title != NULL ? xdg->title : "");
			wlr_foreign_toplevel_handle_v1_set_maximized(toplevel->handle, !host->tile);
			if (output != NULL) {
				wlr_foreign_toplevel_handle_v1_output_enter(toplevel->handle, output);
			}
		}
	}
	focus_toplevel(toplevel);
}

/* The focused toplevel went: focus the newest other one that is shown, or nothing. */
static void toplevel_handle_unmap(struct wl_listener *listener, void *data) {
	struct host_toplevel *toplevel = wl_container_of(listener, toplevel, unmap);
	struct host *host = toplevel->host;
	const char *app_id = toplevel->xdg_surface->toplevel->app_id;
	printf("unmapped %s\n", app_id != NULL ? app_id : "");
	fflush(stdout);
	if (toplevel->handle != NULL) {
		wlr_foreign_toplevel_handle_v1_destroy(toplevel->handle);
		toplevel->handle = NULL;
	}
	if (host->seat->keyboard_state.focused_surface != toplevel->xdg_surface->surface) {
		return;
	}
	struct host_toplevel *other;
	wl_list_for_each(other, &host->toplevels, link) {
		if (other != toplevel && SURFACE_MAPPED(other->xdg_surface)) {
			focus_toplevel(other);
			return;
		}
	}
	wlr_seat_keyboard_notify_clear_focus(host->seat);
	mark_activated(host, NULL);
}

static void toplevel_handle_destroy(struct wl_listener *listener, void *data) {
	struct host_toplevel *toplevel = wl_container_of(listener, toplevel, destroy);
	if (toplevel->handle != NULL) {
		wlr_foreign_toplevel_handle_v1_destroy(toplevel->handle);
	}
	wl_list_remove(&toplevel->map.link);
	wl_list_remove(&toplevel->unmap.link);
	wl_list_remove(&toplevel->destroy.link);
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	wl_list_remove(&toplevel->commit.link);
#endif
	wl_list_remove(&toplevel->link);
	struct host *host = toplevel->host;
	free(toplevel);
	if (host->tile) {
		arrange(host, NULL);
	}
}

#if ORIENT_WLR_HAS_NEW_TOPLEVEL
/* From 0.18 the compositor sends the first configure itself, at the initial commit: the size set
 * here goes out in it (the plugin, hearing of the toplevel after us, may turn the output first,
 * and then arrange runs again on output_transformed). */
static void toplevel_handle_commit(struct wl_listener *listener, void *data) {
	struct host_toplevel *toplevel = wl_container_of(listener, toplevel, commit);
	if (toplevel->xdg_surface->initial_commit) {
		arrange(toplevel->host, toplevel);
	}
}

/* A toplevel announced before its first commit (its app_id may come later). */
static void handle_new_xdg_toplevel(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, new_xdg_surface);
	struct wlr_xdg_toplevel *xdg_toplevel = data;
	struct wlr_xdg_surface *xdg_surface = xdg_toplevel->base;
	struct host_toplevel *toplevel = calloc(1, sizeof(*toplevel));
	toplevel->host = host;
	toplevel->xdg_surface = xdg_surface;
	toplevel->map.notify = toplevel_handle_map;
	wl_signal_add(&xdg_surface->surface->events.map, &toplevel->map);
	toplevel->unmap.notify = toplevel_handle_unmap;
	wl_signal_add(&xdg_surface->surface->events.unmap, &toplevel->unmap);
	toplevel->commit.notify = toplevel_handle_commit;
	wl_signal_add(&xdg_surface->surface->events.commit, &toplevel->commit);
	toplevel->destroy.notify = toplevel_handle_destroy;
	wl_signal_add(&xdg_toplevel->events.destroy, &toplevel->destroy);
	wl_list_insert(&host->toplevels, &toplevel->link);
	toplevel->node = &wlr_scene_xdg_surface_create(host->toplevel_tree, xdg_surface)->node;
}
#else
/* In 0.15 this fires at the toplevel's initial commit: the size set here is in its first configure. */
static void handle_new_xdg_surface(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, new_xdg_surface);
	struct wlr_xdg_surface *xdg_surface = data;
	if (xdg_surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}
	struct host_toplevel *toplevel = calloc(1, sizeof(*toplevel));
	toplevel->host = host;
	toplevel->xdg_surface = xdg_surface;
	toplevel->map.notify = toplevel_handle_map;
	wl_signal_add(&xdg_surface->events.map, &toplevel->map);
	toplevel->unmap.notify = toplevel_handle_unmap;
	wl_signal_add(&xdg_surface->events.unmap, &toplevel->unmap);
	toplevel->destroy.notify = toplevel_handle_destroy;
	wl_signal_add(&xdg_surface->events.destroy, &toplevel->destroy);
	wl_list_insert(&host->toplevels, &toplevel->link);
	toplevel->node = wlr_scene_xdg_surface_create(&host->toplevel_tree->node, xdg_surface);
	arrange(host, toplevel);
}

#endif

static void handle_new_input(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, new_input);
	struct wlr_input_device *device = data;
	if (device->type == WLR_INPUT_DEVICE_TOUCH || device->type == ORIENT_WLR_INPUT_DEVICE_TABLET) {
		wlr_cursor_attach_input_device(host->cursor, device);
		wlr_seat_set_capabilities(host->seat, WL_SEAT_CAPABILITY_TOUCH);
	}
}

#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
static void handle_touch_down(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, cursor_touch_down);
	struct wlr_touch_down_event *event = data;
	double lx, ly, sx, sy;
	wlr_cursor_absolute_to_layout_coords(host->cursor, &event->touch->base, event->x, event->y, &lx, &ly);
	struct wlr_scene_node *node = wlr_scene_node_at(&host->scene->tree.node, lx, ly, &sx, &sy);
	struct wlr_scene_surface *scene_surface = node != NULL && node->type == WLR_SCENE_NODE_BUFFER
		? wlr_scene_surface_try_from_buffer(wlr_scene_buffer_from_node(node)) : NULL;
	if (scene_surface == NULL) {
		printf("touch-down nothing at %.1f %.1f\n", lx, ly);
		fflush(stdout);
		return;
	}
	wlr_seat_touch_notify_down(host->seat, scene_surface->surface, event->time_msec, event->touch_id, sx, sy);
	wlr_seat_touch_notify_frame(host->seat);
	printf("touch-down layout %.1f %.1f\n", lx, ly);
	fflush(stdout);
}

static void handle_touch_up(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, cursor_touch_up);
	struct wlr_touch_up_event *event = data;
	wlr_seat_touch_notify_up(host->seat, event->time_msec, event->touch_id);
	wlr_seat_touch_notify_frame(host->seat);
}
#else
static void handle_touch_down(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, cursor_touch_down);
	struct wlr_event_touch_down *event = data;
	double lx, ly, sx, sy;
	wlr_cursor_absolute_to_layout_coords(host->cursor, event->device, event->x, event->y, &lx, &ly);
	struct wlr_scene_node *node = wlr_scene_node_at(&host->scene->node, lx, ly, &sx, &sy);
	if (node == NULL || node->type != WLR_SCENE_NODE_SURFACE) {
		printf("touch-down nothing at %.1f %.1f\n", lx, ly);
		fflush(stdout);
		return;
	}
	struct wlr_surface *surface = wlr_scene_surface_from_node(node)->surface;
	wlr_seat_touch_notify_down(host->seat, surface, event->time_msec, event->touch_id, sx, sy);
	wlr_seat_touch_notify_frame(host->seat);
	printf("touch-down layout %.1f %.1f\n", lx, ly);
	fflush(stdout);
}

static void handle_touch_up(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, cursor_touch_up);
	struct wlr_event_touch_up *event = data;
	wlr_seat_touch_notify_up(host->seat, event->time_msec, event->touch_id);
	wlr_seat_touch_notify_frame(host->seat);
}

#endif

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
static bool dump_frame(struct host *host, const char *path) {
	struct host_output *o;
	if (wl_list_empty(&host->outputs)) {
		return false;
	}
	o = wl_container_of(host->outputs.next, o, link);
	if (o->last_frame == NULL) {
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
static void memcpy_bench(struct host *host, int runs) {
	struct wlr_output *output = first_output(host);
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

static bool write_record(struct host_output *o, const char *dir) {
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

static int handle_stdin(int fd, uint32_t mask, void *data) {
	struct host *host = data;
	char line[512];
	/* Read before looking at HANGUP: the last command and the end of input arrive together. */
	if (fgets(line, sizeof(line), stdin) == NULL) {
		wl_event_source_remove(host->stdin_source);
		host->stdin_source = NULL;
		return 0;
	}
	double x, y;
	int count, width, height;
	char path[400], word[256];
	if (sscanf(line, "touch-down %lf %lf", &x, &y) == 2 && host->touch != NULL) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_touch_down_event event = { .touch = &host->touch_device, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&host->touch_device.events.down, &event);
		struct wlr_touch_up_event up = { .touch = &host->touch_device, .time_msec = now_ms(), .touch_id = 0 };
		wl_signal_emit(&host->touch_device.events.up, &up);
		wl_signal_emit(&host->touch_device.events.frame, NULL);
#else
		struct wlr_event_touch_down event = { .device = host->touch, .time_msec = now_ms(), .touch_id = 0, .x = x, .y = y };
		wl_signal_emit(&host->touch->touch->events.down, &event);
		struct wlr_event_touch_up up = { .device = host->touch, .time_msec = now_ms(), .touch_id = 0 };
		wl_signal_emit(&host->touch->touch->events.up, &up);
		wl_signal_emit(&host->touch->touch->events.frame, NULL);
#endif
	} else if (sscanf(line, "focus %255s", word) == 1) {
		struct host_toplevel *toplevel, *found = NULL;
		wl_list_for_each(toplevel, &host->toplevels, link) {
			const char *app_id = toplevel->xdg_surface->toplevel->app_id;
			if (found == NULL && SURFACE_MAPPED(toplevel->xdg_surface) && app_id != NULL && strcmp(app_id, word) == 0) {
				found = toplevel;
			}
		}
		if (found != NULL) {
			focus_toplevel(found);
		} else {
			printf("focus failed %s\n", word);
		}
	} else if (sscanf(line, "tablet-mode %255s", word) == 1 && host->tablet_switch != NULL) {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_switch_toggle_event event = {
			.time_msec = now_ms(), .switch_type = WLR_SWITCH_TYPE_TABLET_MODE,
			.switch_state = strcmp(word, "on") == 0 ? WLR_SWITCH_STATE_ON : WLR_SWITCH_STATE_OFF,
		};
		wl_signal_emit(&host->switch_device.events.toggle, &event);
#else
		struct wlr_event_switch_toggle event = {
			.device = host->tablet_switch, .time_msec = now_ms(), .switch_type = WLR_SWITCH_TYPE_TABLET_MODE,
			.switch_state = strcmp(word, "on") == 0 ? WLR_SWITCH_STATE_ON : WLR_SWITCH_STATE_OFF,
		};
		wl_signal_emit(&host->tablet_switch->switch_device->events.toggle, &event);
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
			host->orient_set_front(host->orient, first_output(host), found ? found->xdg_surface->toplevel : NULL);
			printf("front %s\n", word);
		}
	} else if (strncmp(line, "spawn ", 6) == 0) {
		line[strcspn(line, "\n")] = '\0';
		pid_t pid = fork();
		if (pid == 0) {
			execl("/bin/sh", "/bin/sh", "-c", line + 6, (void *)NULL);
			_exit(127);
		}
		printf(pid > 0 ? "spawned %d\n" : "spawn failed\n", (int)pid);
	} else if (sscanf(line, "dump %399s", path) == 1) {
		struct host_output *first = wl_list_empty(&host->outputs) ? NULL : wl_container_of(host->outputs.next, first, link);
		if (first != NULL && first->last_frame == NULL) {
			/* Nothing shown yet (a scene commits its first frame at the next refresh): then. */
			free(first->pending_dump);
			first->pending_dump = strdup(path);
			wlr_output_schedule_frame(first->output);
			return 0;
		}
		printf(dump_frame(host, path) ? "dumped %s\n" : "dump failed %s\n", path);
	} else if (strncmp(line, "refresh ", 8) == 0 && !wl_list_empty(&host->outputs)) {
		struct host_output *o = wl_container_of(host->outputs.next, o, link);
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
		printf("bare-commits %d\n", host->bare_commits);
	} else if (strncmp(line, "next-frame", 10) == 0 && !wl_list_empty(&host->outputs)) {
		struct host_output *o = wl_container_of(host->outputs.next, o, link);
		o->report_next_frame = true;
		wlr_output_schedule_frame(o->output);
		return 0;
	} else if (strncmp(line, "record start", 12) == 0 && !wl_list_empty(&host->outputs)) {
		struct host_output *o = wl_container_of(host->outputs.next, o, link);
		free_record(o);
		o->record = calloc(RECORD_MAX, sizeof(*o->record));
		o->idle = calloc(RECORD_MAX, sizeof(*o->idle));
		o->recording = o->record != NULL && o->idle != NULL;
		o->record_pixels = strstr(line, "times") == NULL;
#if ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND
		wl_event_source_timer_update(o->refresh, refresh_period_ms(o));
#endif
		printf(o->recording ? "recording\n" : "record failed\n");
	} else if (sscanf(line, "record stop %399s", path) == 1 && !wl_list_empty(&host->outputs)) {
		struct host_output *o = wl_container_of(host->outputs.next, o, link);
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
		struct host_output *output = output_named(host, word);
		printf(output != NULL && command_output(host, output, count, -1) ? "transform %s %d\n" : "transform failed %s %d\n", word, count);
	} else if (sscanf(line, "output %255s %15s", word, path) == 2 && (strcmp(path, "on") == 0 || strcmp(path, "off") == 0)) {
		struct host_output *output = output_named(host, word);
		bool on = strcmp(path, "on") == 0;
		printf(output != NULL && command_output(host, output, -1, on) ? "output %s %s\n" : "output failed %s %s\n", word, path);
	} else if (sscanf(line, "layers-stay %255s", word) == 1) {
		host->layers_stay = strcmp(word, "on") == 0;
		printf("layers-stay %s\n", word);
	} else if (sscanf(line, "refuse-configurations %255s", word) == 1) {
		host->refuse_configurations = strcmp(word, "on") == 0;
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
		printf("closed-layers %d\n", close_layers(host, NULL));
	} else if (sscanf(line, "memcpy-bench %d", &count) == 1) {
		memcpy_bench(host, count);
	} else if (strncmp(line, "quit", 4) == 0) {
		wl_display_terminate(host->display);
	} else {
		printf("unknown command\n");
	}
	fflush(stdout);
	return 0;
}

/* Loads the plugin through its public header. A missing or broken file is logged; the host runs on. */
static void load_plugin(struct host *host, const char *path) {
	host->plugin_handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (host->plugin_handle == NULL) {
		wlr_log(WLR_ERROR, "cannot load the wlr-orient plugin %s: %s; running without it", path, dlerror());
		return;
	}
	wlr_orient_create_func create = (wlr_orient_create_func)dlsym(host->plugin_handle, "wlr_orient_create");
	host->orient_destroy = (wlr_orient_destroy_func)dlsym(host->plugin_handle, "wlr_orient_destroy");
	*(void **)&host->orient_set_front = dlsym(host->plugin_handle, "wlr_orient_set_front");
	*(void **)&host->orient_render_output = dlsym(host->plugin_handle, "wlr_orient_render_output");
	*(void **)&host->orient_render_output_state = dlsym(host->plugin_handle, "wlr_orient_render_output_state");
	*(void **)&host->orient_prepare_output_state = dlsym(host->plugin_handle, "wlr_orient_prepare_output_state");
	if (create == NULL || host->orient_destroy == NULL) {
		wlr_log(WLR_ERROR, "%s is not a wlr-orient plugin (no wlr_orient_create/destroy); running without it", path);
		dlclose(host->plugin_handle);
		host->plugin_handle = NULL;
		return;
	}
	struct wlr_orient_host description = {
		.display = host->display,
		.backend = host->backend,
		.renderer = host->renderer,
		.allocator = host->allocator,
		.output_layout = host->output_layout,
		.output_manager = host->output_manager,
		.seat = host->seat,
		.cursor = host->cursor,
		.xdg_shell = host->xdg_shell,
		.config_path = getenv("WLR_ORIENT_CONFIG"),
	};
	host->orient = create(&description);
	if (host->orient == NULL) {
		wlr_log(WLR_ERROR, "the wlr-orient plugin refused to start; running without it");
		return;
	}
	host->output_transformed.notify = handle_output_transformed;
	wl_signal_add(&host->orient->events.output_transformed, &host->output_transformed);
}

int main(int argc, char *argv[]) {
	const char *plugin = NULL, *command = NULL;
	int width = 1280, height = 800;
	int second_width = 0, second_height = 0;
	bool touch = false, tablet_switch = false, debug = false, plugin_last = false, tile = false, foreign = true;
	bool done_first = false;
	static const struct option options[] = {
		{ "plugin", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 'g' },
		{ "touch", no_argument, NULL, 't' },
		{ "switch", no_argument, NULL, 'w' },
		{ "tile", no_argument, NULL, 'T' },
		{ "second-output", required_argument, NULL, 'o' },
		{ "no-foreign-toplevel", no_argument, NULL, 'F' },
		{ "debug", no_argument, NULL, 'd' },
		{ "destroy-plugin-last", no_argument, NULL, 'l' },
		{ "done-before-succeeded", no_argument, NULL, 'D' },
		{ 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "s:", options, NULL)) != -1) {
		switch (c) {
		case 'p': plugin = optarg; break;
		case 'g': sscanf(optarg, "%dx%d", &width, &height); break;
		case 't': touch = true; break;
		case 'w': tablet_switch = true; break;
		case 'T': tile = true; break;
		case 'o': sscanf(optarg, "%dx%d", &second_width, &second_height); break;
		case 'F': foreign = false; break;
		case 'd': debug = true; break;
		case 'l': plugin_last = true; break;
		case 'D': done_first = true; break;
		case 's': command = optarg; break;
		default:
			fprintf(stderr, "usage: %s [--plugin PATH] [--size WxH] [--touch] [--switch] [--tile] [--second-output WxH] [--no-foreign-toplevel] [--done-before-succeeded] [--debug] [-s COMMAND]\n", argv[0]);
			return 1;
		}
	}
	wlr_log_init(debug ? WLR_DEBUG : WLR_INFO, NULL);

	struct host host = { .tile = tile, .done_before_succeeded = done_first };
	wl_list_init(&host.outputs);
	wl_list_init(&host.toplevels);
	wl_list_init(&host.layers);
	host.display = wl_display_create();
#if ORIENT_WLR_HAS_LOOP_BACKENDS
	host.backend = wlr_headless_backend_create(wl_display_get_event_loop(host.display));
#else
	host.backend = wlr_headless_backend_create(host.display);
#endif
	host.renderer = wlr_pixman_renderer_create();
	if (host.backend == NULL || host.renderer == NULL) {
		return 1;
	}
	wlr_renderer_init_wl_display(host.renderer, host.display);
	host.allocator = wlr_allocator_autocreate(host.backend, host.renderer);
#if ORIENT_WLR_HAS_VERSIONED_GLOBALS
	wlr_compositor_create(host.display, 6, host.renderer);
#else
	wlr_compositor_create(host.display, host.renderer);
#endif
#if ORIENT_WLR_HAS_SUBCOMPOSITOR
	wlr_subcompositor_create(host.display);
#endif
	wlr_data_device_manager_create(host.display);
#if ORIENT_WLR_HAS_LOOP_BACKENDS
	host.output_layout = wlr_output_layout_create(host.display);
#else
	host.output_layout = wlr_output_layout_create();
#endif
	wlr_xdg_output_manager_v1_create(host.display, host.output_layout);
	wlr_screencopy_manager_v1_create(host.display);
	/* The daemon's shield draws its turning frames small and has them scaled up, as sway and labwc let it. */
	wlr_viewporter_create(host.display);
	host.output_manager = wlr_output_manager_v1_create(host.display);
	host.output_manager_apply.notify = handle_output_manager_apply;
	wl_signal_add(&host.output_manager->events.apply, &host.output_manager_apply);
	host.output_manager_test.notify = handle_output_manager_test;
	wl_signal_add(&host.output_manager->events.test, &host.output_manager_test);
	if (foreign) {
		host.foreign_toplevels = wlr_foreign_toplevel_manager_v1_create(host.display);
	}
	host.scene = wlr_scene_create();
#if ORIENT_WLR_HAS_SCENE_OUTPUT_LAYOUT
	host.scene_layout = wlr_scene_attach_output_layout(host.scene, host.output_layout);
#else
	wlr_scene_attach_output_layout(host.scene, host.output_layout);
#endif
#if ORIENT_WLR_HAS_VERSIONED_GLOBALS
	host.xdg_shell = wlr_xdg_shell_create(host.display, 3);
	host.layer_shell = wlr_layer_shell_v1_create(host.display, 4);
#else
	host.xdg_shell = wlr_xdg_shell_create(host.display);
	host.layer_shell = wlr_layer_shell_v1_create(host.display);
#endif
#if ORIENT_WLR_HAS_SCENE_TREE
	struct wlr_scene_tree *root = &host.scene->tree;
#else
	struct wlr_scene_node *root = &host.scene->node;
#endif
	/* Made in this order, each above the last. */
	host.layers_below = wlr_scene_tree_create(root);
	host.toplevel_tree = wlr_scene_tree_create(root);
	host.layers_above = wlr_scene_tree_create(root);
	host.seat = wlr_seat_create(host.display, "seat0");
	host.cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(host.cursor, host.output_layout);

	host.new_output.notify = handle_new_output;
	wl_signal_add(&host.backend->events.new_output, &host.new_output);
	host.new_input.notify = handle_new_input;
	wl_signal_add(&host.backend->events.new_input, &host.new_input);
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	host.new_xdg_surface.notify = handle_new_xdg_toplevel;
	wl_signal_add(&host.xdg_shell->events.new_toplevel, &host.new_xdg_surface);
#else
	host.new_xdg_surface.notify = handle_new_xdg_surface;
	wl_signal_add(&host.xdg_shell->events.new_surface, &host.new_xdg_surface);
#endif
	host.new_layer_surface.notify = handle_new_layer_surface;
	wl_signal_add(&host.layer_shell->events.new_surface, &host.new_layer_surface);
	host.cursor_touch_down.notify = handle_touch_down;
	wl_signal_add(&host.cursor->events.touch_down, &host.cursor_touch_down);
	host.cursor_touch_up.notify = handle_touch_up;
	wl_signal_add(&host.cursor->events.touch_up, &host.cursor_touch_up);

	/* The plugin comes after the host's own listeners and before the backend starts. */
	if (plugin != NULL) {
		load_plugin(&host, plugin);
	}
	wlr_headless_add_output(host.backend, width, height);
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	/* Announced as the backend announces its own devices. */
	static const struct wlr_touch_impl touch_impl = { .name = "wlr-orient-host-touch" };
	static const struct wlr_switch_impl switch_impl = { .name = "wlr-orient-host-switch" };
	if (touch) {
		wlr_touch_init(&host.touch_device, &touch_impl, "touchscreen");
		host.touch = &host.touch_device.base;
		wl_signal_emit(&host.backend->events.new_input, host.touch);
	}
	if (tablet_switch) {
		wlr_switch_init(&host.switch_device, &switch_impl, "tablet-mode switch");
		host.tablet_switch = &host.switch_device.base;
		wl_signal_emit(&host.backend->events.new_input, host.tablet_switch);
	}
#else
	if (touch) {
		host.touch = wlr_headless_add_input_device(host.backend, WLR_INPUT_DEVICE_TOUCH);
	}
	if (tablet_switch) {
		host.tablet_switch = wlr_headless_add_input_device(host.backend, WLR_INPUT_DEVICE_SWITCH);
	}
#endif

	const char *socket = wl_display_add_socket_auto(host.display);
	if (socket == NULL || !wlr_backend_start(host.backend)) {
		return 1;
	}
	/* After the start, so that it comes second (the backend announces the outputs it had before
	 * starting newest first). */
	if (second_width > 0 && second_height > 0) {
		wlr_headless_add_output(host.backend, second_width, second_height);
	}
	setenv("WAYLAND_DISPLAY", socket, true);
	printf("WAYLAND_DISPLAY=%s\n", socket);
	fflush(stdout);
	host.stdin_source = wl_event_loop_add_fd(wl_display_get_event_loop(host.display), STDIN_FILENO,
		WL_EVENT_READABLE, handle_stdin, &host);
	if (command != NULL && fork() == 0) {
		execl("/bin/sh", "/bin/sh", "-c", command, (void *)NULL);
		_exit(127);
	}
	wl_display_run(host.display);

	/* The right order: the plugin first. --destroy-plugin-last tests that the plugin survives
	 * a compositor that destroys its display first. */
	if (host.orient != NULL) {
		wl_list_remove(&host.output_transformed.link);
		if (!plugin_last) {
			host.orient_destroy(host.orient);
			host.orient = NULL;
		}
	}
	if (host.stdin_source != NULL) {
		wl_event_source_remove(host.stdin_source);
	}
	/* Outputs go first (with the display and its backend), then the layout, then the scene
	 * that was following both: the reverse order leaves wlroots reading freed scene memory. */
	wl_list_remove(&host.output_manager_apply.link);
	wl_list_remove(&host.output_manager_test.link);
	wl_display_destroy_clients(host.display);
	wl_list_remove(&host.new_layer_surface.link);
#if ORIENT_WLR_HAS_LOOP_BACKENDS
	/* From 0.18 the backend is not the display's: it goes first, and its outputs with it; then
	 * the scene, the input devices, the cursor, the renderer; the display last (its globals, and
	 * the layout made with it). From 0.19 wlroots asserts that an object going has no listener
	 * left: ours go first. */
	wl_list_remove(&host.new_output.link);
	wl_list_remove(&host.new_input.link);
	wl_list_remove(&host.new_xdg_surface.link);
	wl_list_remove(&host.cursor_touch_down.link);
	wl_list_remove(&host.cursor_touch_up.link);
	wlr_backend_destroy(host.backend);
	wlr_scene_node_destroy(&host.scene->tree.node);
	if (host.touch != NULL) {
		wlr_touch_finish(&host.touch_device);
	}
	if (host.tablet_switch != NULL) {
		wlr_switch_finish(&host.switch_device);
	}
	wlr_cursor_destroy(host.cursor);
	wlr_allocator_destroy(host.allocator);
	wlr_renderer_destroy(host.renderer);
	wl_display_destroy(host.display);
#else
	wlr_cursor_destroy(host.cursor);
	wl_display_destroy(host.display);
	wlr_output_layout_destroy(host.output_layout);
	wlr_scene_node_destroy(&host.scene->node);
	wlr_allocator_destroy(host.allocator);
	wlr_renderer_destroy(host.renderer);
#endif
	if (host.orient != NULL) {
		host.orient_destroy(host.orient);
	}
	if (host.plugin_handle != NULL) {
		dlclose(host.plugin_handle);
	}
	return 0;
}

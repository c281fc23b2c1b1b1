/*
 * The example compositor of example.c: its state, one struct per object as in tinywl, and the
 * hooks through which the test harness (wlr-orient-host.c) adds to it without the example
 * knowing of tests.
 */
#ifndef ORIENT_HOST_EXAMPLE_H
#define ORIENT_HOST_EXAMPLE_H

#define WLR_USE_UNSTABLE 1
#include <stdbool.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include "orient_wlr_features.h"
#include "wlr-orient.h"

struct host;
struct host_output;
struct host_toplevel;

/* What the harness adds; each may be NULL. */
struct host_hooks {
	void (*output_added)(struct host_output *output);     /* its listeners set, before the layout */
	void (*output_destroyed)(struct host_output *output); /* before the host forgets it */
	void (*refresh_begin)(struct host_output *output);
	void (*refresh_end)(struct host_output *output, bool committed); /* before frame done */
	void (*outputs_changed)(struct host *host); /* tell output-management clients (else the host does) */
	void (*relayout)(struct host *host);        /* an output's box changed */
	void (*toplevel_mapped)(struct host_toplevel *toplevel);
	void (*toplevel_unmapped)(struct host_toplevel *toplevel);
	void (*toplevel_destroyed)(struct host_toplevel *toplevel);
	void (*focused)(struct host *host, struct host_toplevel *toplevel); /* NULL: nothing */
	void (*finishing)(struct host *host); /* after the plugin, before the clients go */
};

/* Calls a hook of `host`'s, if it has it. */
#define HOST_HOOK(host, name, ...) do { \
	if ((host)->hooks.name != NULL) { \
		(host)->hooks.name(__VA_ARGS__); \
	} \
} while (0)

struct host {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
#if ORIENT_WLR_HAS_SCENE_OUTPUT_LAYOUT
	struct wlr_scene_output_layout *scene_layout;
#endif
	/* The scene, bottom to top: layers below the toplevels, the toplevels, layers above. */
	struct wlr_scene_tree *layers_below, *toplevel_tree, *layers_above;
	struct wlr_output_layout *output_layout;
	struct wlr_output_manager_v1 *output_manager;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_seat *seat;
	struct wlr_cursor *cursor;
	struct wl_list outputs;   /* host_output.link, in creation order: the first is the panel */
	struct wl_list toplevels; /* host_toplevel.link, newest first */
	bool tile;                /* toplevels side by side in columns, not maximized */
	bool destroy_plugin_last; /* a test: the plugin outlives the display */
	struct host_hooks hooks;

	/* The plugin, through its public header (wlr-orient.h). */
	void *plugin_handle;
	struct wlr_orient *orient;
	wlr_orient_destroy_func orient_destroy;
	void (*orient_render_output)(struct wlr_orient *, struct wlr_output *);
	void (*orient_render_output_state)(struct wlr_orient *, struct wlr_output *, struct wlr_output_state *);
	void (*orient_prepare_output_state)(struct wlr_orient *, struct wlr_output *, struct wlr_output_state *);
	void (*orient_set_front)(struct wlr_orient *, struct wlr_output *, struct wlr_xdg_toplevel *);

	struct wl_listener new_output;
	struct wl_listener new_input;
	struct wl_listener new_toplevel;
	struct wl_listener output_transformed;
};

struct host_output {
	struct wl_list link;
	struct host *host;
	struct wlr_output *output;
	struct wlr_scene_output *scene_output; /* NULL while out of the layout (switched off) */
	void *data;                            /* the harness's */
	struct wl_listener frame;
	struct wl_listener destroy;
};

struct host_toplevel {
	struct wl_list link;
	struct host *host;
	struct wlr_xdg_surface *xdg_surface;
	struct wlr_scene_node *node;
	void *data; /* the harness's */
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	struct wl_listener commit; /* its initial commit: the first configure is the host's to send */
#endif
};

/* The compositor's objects and listeners, before the plugin: false if it cannot run. */
bool host_create(struct host *host);
/* Loads the plugin from `path` (dlopen, as a compositor would); a broken one is logged, and the
 * host runs on without it. */
void host_load_plugin(struct host *host, const char *path);
/* The socket clients connect to, with the backend started; NULL if not. */
const char *host_start(struct host *host);
/* Everything destroyed, the plugin first. */
void host_finish(struct host *host);

/* A refresh of an output: a new frame if anything changed, with the plugin's part. */
void host_output_refresh(struct host_output *output);
/* The panel (the first output), NULL for none. */
struct wlr_output *host_first_output(struct host *host);
/* Where `output` lies in the layout; false if it is not in it. */
bool host_output_box(struct host *host, struct wlr_output *output, struct wlr_box *box);
/* An output enters the layout (at x, y; anywhere free with `automatic`) or leaves it. */
void host_output_enter_layout(struct host_output *output, bool automatic, int x, int y);
void host_output_leave_layout(struct host_output *output);
/* Output-management clients told of the outputs as they are now. */
void host_outputs_changed(struct host *host);
/* Toplevels (and the harness's layers) laid out anew: an output's box changed. */
void host_relayout(struct host *host);
/* Keyboard focus to `toplevel`. */
void host_focus(struct host_toplevel *toplevel);
/* Whether the toplevel is shown. */
bool host_toplevel_mapped(struct host_toplevel *toplevel);

#endif

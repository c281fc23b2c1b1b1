/*
 * A minimal wlroots compositor that loads the wlr-orient plugin exactly as a real compositor
 * would (dlopen and the public header, wlr-orient.h): the example contrib/INTEGRATION.md walks
 * through. Headless, pixman renderer, wlr_scene; every toplevel maximized on the first output
 * (the panel), or side by side with `tile`. It builds for each wlroots release that
 * orient_wlr_features.h accepts: where the calls differ, an #if on a feature's name shows both.
 *
 * What the plugin asks of a compositor, here: host_load_plugin (wlr_orient_create with the
 * compositor's objects, after its own listeners and before the backend starts; in host_finish,
 * wlr_orient_destroy first); handle_output_transformed (an output turned: the clients laid out
 * anew); render_output (the frame path, where the plugin draws its transitions); handle_new_input
 * (touchscreens and pen tablets on the cursor, which the plugin maps to the panel; a mouse too).
 *
 * The test harness (wlr-orient-host.c) adds what only tests need through the hooks of example.h;
 * with none set, this is a compositor on its own.
 */
#define _POSIX_C_SOURCE 200809L
#include "example.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/backend/headless.h>
#include <wlr/render/pixman.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/util/log.h>
#if ORIENT_WLR_HAS_SUBCOMPOSITOR
#include <wlr/types/wlr_subcompositor.h>
#endif
#if !ORIENT_WLR_HAS_SCENE_BUILD_STATE
#include <wlr/types/wlr_output_damage.h>
#endif

/* What the toplevel calls take: the wlr_xdg_surface in 0.15, the wlr_xdg_toplevel from 0.16. */
#if ORIENT_WLR_HAS_XDG_TOPLEVEL_OBJECT
#define TOPLEVEL_ARG(t) ((t)->xdg_surface->toplevel)
#else
#define TOPLEVEL_ARG(t) ((t)->xdg_surface)
#endif

/* --- Layout --- */

bool host_output_box(struct host *host, struct wlr_output *output, struct wlr_box *box) {
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

struct wlr_output *host_first_output(struct host *host) {
	if (wl_list_empty(&host->outputs)) {
		return NULL;
	}
	struct host_output *o = wl_container_of(host->outputs.next, o, link);
	return o->output;
}

/* Every toplevel fills the panel's box (with `tile`, a column of it), so that clients lay out anew
 * after a rotation. `only`: the one new toplevel (tiled, a new column narrows the others). */
static void arrange(struct host *host, struct host_toplevel *only) {
	struct wlr_box box;
	if (!host_output_box(host, host_first_output(host), &box)) {
		return;
	}
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
			int x = box.width * i / count, next = box.width * (i + 1) / count;
			wlr_scene_node_set_position(toplevel->node, box.x + x, box.y);
			wlr_xdg_toplevel_set_size(TOPLEVEL_ARG(toplevel), next - x, box.height);
		} else {
			wlr_scene_node_set_position(toplevel->node, box.x, box.y);
			wlr_xdg_toplevel_set_maximized(TOPLEVEL_ARG(toplevel), true);
			wlr_xdg_toplevel_set_size(TOPLEVEL_ARG(toplevel), box.width, box.height);
		}
		i++;
	}
}

void host_relayout(struct host *host) {
	arrange(host, NULL);
	HOST_HOOK(host, relayout, host);
}

/* The plugin turned an output: its box is new. */
static void handle_output_transformed(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, output_transformed);
	host_relayout(host);
}

/* --- The frame path --- */

#if ORIENT_WLR_HAS_SCENE_BUILD_STATE
/*
 * From 0.18 a frame is an output state the scene builds: wlr_orient_prepare_output_state (a
 * turn waiting for a frame adds its transform), build the state, wlr_orient_render_output_state
 * (the plugin draws the old frame of a rotation into its buffer), commit it. While a transition
 * runs the plugin damages the whole output each frame, so the scene builds at every refresh.
 */
static bool render_output(struct host_output *o) {
	struct host *host = o->host;
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	bool committed = false;
	if (host->orient_prepare_output_state != NULL) {
		host->orient_prepare_output_state(host->orient, o->output, &state);
	}
#if ORIENT_WLR_HAS_SCENE_NEEDS_FRAME
	bool needs_frame = wlr_scene_output_needs_frame(o->scene_output);
#else
	bool needs_frame = o->output->needs_frame || pixman_region32_not_empty(&o->scene_output->pending_commit_damage);
#endif
	if (needs_frame && wlr_scene_output_build_state(o->scene_output, &state, NULL) &&
			(state.committed & WLR_OUTPUT_STATE_BUFFER)) {
		if (host->orient_render_output_state != NULL) {
			host->orient_render_output_state(host->orient, o->output, &state);
		}
		committed = wlr_output_commit_state(o->output, &state);
	}
	wlr_output_state_finish(&state);
	return committed;
}
#else
/*
 * In 0.15 the renderer draws into the output's attached buffer: attach, begin, render the scene,
 * wlr_orient_render_output (the plugin draws the old frame of a rotation over the new layout),
 * end, commit. While a transition runs the plugin asks for the next frame
 * (wlr_output_schedule_frame, which sets needs_frame).
 */
static bool render_output(struct host_output *o) {
	struct host *host = o->host;
	struct wlr_output *output = o->output;
	bool needs_frame = false;
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	bool attached = wlr_output_damage_attach_render(o->scene_output->damage, &needs_frame, &damage);
	pixman_region32_fini(&damage);
	if (!attached) {
		return false;
	}
	if (!needs_frame) {
		wlr_output_rollback(output);
		return false;
	}
	wlr_renderer_begin(host->renderer, output->width, output->height);
	/* 0.15's wlr_scene_render_output draws the nodes and clears nothing (wlr_scene_output_commit
	 * clears before calling it): without this, a window that went away stays on screen. */
	wlr_renderer_clear(host->renderer, (float[4]){0, 0, 0, 1});
	/* The whole output each time: simple, and cheap enough headless. The scene takes this region
	 * in the output's transformed (layout-sized) coordinates; its own default for NULL is the
	 * untransformed size, which leaves part of a rotated output undrawn. */
	int width, height;
	wlr_output_transformed_resolution(output, &width, &height);
	pixman_region32_init_rect(&damage, 0, 0, width, height);
	wlr_scene_render_output(host->scene, output, o->scene_output->x, o->scene_output->y, &damage);
	pixman_region32_fini(&damage);
	if (host->orient_render_output != NULL) {
		host->orient_render_output(host->orient, output);
	}
	wlr_renderer_end(host->renderer);
	if (!wlr_output_commit(output)) {
		wlr_output_rollback(output);
		return false;
	}
	return true;
}
#endif

void host_output_refresh(struct host_output *o) {
	if (o->scene_output == NULL) {
		return; /* out of the layout (switched off): nothing of the scene to show */
	}
	struct host *host = o->host;
	HOST_HOOK(host, refresh_begin, o);
	bool committed = render_output(o);
	HOST_HOOK(host, refresh_end, o, committed);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(o->scene_output, &now);
}

static void output_handle_frame(struct wl_listener *listener, void *data) {
	struct host_output *o = wl_container_of(listener, o, frame);
	host_output_refresh(o);
}

/* --- Outputs --- */

/* Leaving the layout destroys an output's scene output (wlr_scene's layout helper): forgotten
 * then, and made again when it comes back, so that no frame renders through a freed one. */
void host_output_enter_layout(struct host_output *o, bool automatic, int x, int y) {
	struct host *host = o->host;
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

void host_output_leave_layout(struct host_output *o) {
	wlr_output_layout_remove(o->host->output_layout, o->output);
	o->scene_output = wlr_scene_get_scene_output(o->host->scene, o->output);
}

void host_outputs_changed(struct host *host) {
	if (host->hooks.outputs_changed != NULL) {
		host->hooks.outputs_changed(host);
		return;
	}
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	struct host_output *o;
	wl_list_for_each(o, &host->outputs, link) {
		struct wlr_output_configuration_head_v1 *head = wlr_output_configuration_head_v1_create(config, o->output);
		struct wlr_box box;
		if (head != NULL && host_output_box(host, o->output, &box)) {
			head->state.x = box.x;
			head->state.y = box.y;
		}
	}
	wlr_output_manager_v1_set_configuration(host->output_manager, config);
}

static void output_handle_destroy(struct wl_listener *listener, void *data) {
	struct host_output *o = wl_container_of(listener, o, destroy);
	HOST_HOOK(o->host, output_destroyed, o);
	wl_list_remove(&o->frame.link);
	wl_list_remove(&o->destroy.link);
	wl_list_remove(&o->link);
	free(o);
}

static void handle_new_output(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, new_output);
	struct wlr_output *output = data;
	wlr_output_init_render(output, host->allocator, host->renderer);
	/* Every frame is rendered, never a client's buffer scanned out directly: in wlroots 0.15 the
	 * commit event of a scanned-out buffer carries no buffer, and the harness reads what is shown. */
	wlr_output_lock_attach_render(output, true);
#if ORIENT_WLR_HAS_OUTPUT_STATE
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_enabled(&state, true);
	bool enabled = wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
#else
	wlr_output_enable(output, true);
	bool enabled = wlr_output_commit(output);
	if (!enabled) {
		wlr_output_rollback(output);
	}
#endif
	struct host_output *o = enabled ? calloc(1, sizeof(*o)) : NULL;
	if (o == NULL) {
		return;
	}
	o->host = host;
	o->output = output;
	o->frame.notify = output_handle_frame;
	wl_signal_add(&output->events.frame, &o->frame);
	o->destroy.notify = output_handle_destroy;
	wl_signal_add(&output->events.destroy, &o->destroy);
	wl_list_insert(host->outputs.prev, &o->link);
	HOST_HOOK(host, output_added, o);
	host_output_enter_layout(o, true, 0, 0);
	host_outputs_changed(host);
}

/* --- Toplevels --- */

bool host_toplevel_mapped(struct host_toplevel *toplevel) {
#if ORIENT_WLR_HAS_SURFACE_MAP
	return toplevel->xdg_surface->surface->mapped;
#else
	return toplevel->xdg_surface->mapped;
#endif
}

void host_focus(struct host_toplevel *toplevel) {
	struct host *host = toplevel->host;
	wlr_seat_keyboard_notify_enter(host->seat, toplevel->xdg_surface->surface, NULL, 0, NULL);
	HOST_HOOK(host, focused, host, toplevel);
	const char *app_id = toplevel->xdg_surface->toplevel->app_id;
	printf("focused %s\n", app_id != NULL ? app_id : "");
	fflush(stdout);
}

/* Like tinywl and cage: focus to each toplevel as it is shown. */
static void toplevel_handle_map(struct wl_listener *listener, void *data) {
	struct host_toplevel *toplevel = wl_container_of(listener, toplevel, map);
	HOST_HOOK(toplevel->host, toplevel_mapped, toplevel);
	host_focus(toplevel);
}

/* The focused toplevel went: focus to the newest other one that is shown, or to nothing. */
static void toplevel_handle_unmap(struct wl_listener *listener, void *data) {
	struct host_toplevel *toplevel = wl_container_of(listener, toplevel, unmap);
	struct host *host = toplevel->host;
	const char *app_id = toplevel->xdg_surface->toplevel->app_id;
	printf("unmapped %s\n", app_id != NULL ? app_id : "");
	fflush(stdout);
	HOST_HOOK(host, toplevel_unmapped, toplevel);
	if (host->seat->keyboard_state.focused_surface != toplevel->xdg_surface->surface) {
		return;
	}
	struct host_toplevel *other;
	wl_list_for_each(other, &host->toplevels, link) {
		if (other != toplevel && host_toplevel_mapped(other)) {
			host_focus(other);
			return;
		}
	}
	wlr_seat_keyboard_notify_clear_focus(host->seat);
	HOST_HOOK(host, focused, host, NULL);
}

static void toplevel_handle_destroy(struct wl_listener *listener, void *data) {
	struct host_toplevel *toplevel = wl_container_of(listener, toplevel, destroy);
	struct host *host = toplevel->host;
	HOST_HOOK(host, toplevel_destroyed, toplevel);
	wl_list_remove(&toplevel->map.link);
	wl_list_remove(&toplevel->unmap.link);
	wl_list_remove(&toplevel->destroy.link);
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	wl_list_remove(&toplevel->commit.link);
#endif
	wl_list_remove(&toplevel->link);
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
#endif

/* From 0.18 a toplevel is announced when it is made, before its first commit (its app_id may
 * come later); in 0.15 xdg-shell's new_surface comes at its initial commit, so the size set here
 * goes out in its first configure. */
static void handle_new_toplevel(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, new_toplevel);
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	struct wlr_xdg_toplevel *xdg_toplevel = data;
	struct wlr_xdg_surface *xdg_surface = xdg_toplevel->base;
#else
	struct wlr_xdg_surface *xdg_surface = data;
	if (xdg_surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}
#endif
	struct host_toplevel *toplevel = calloc(1, sizeof(*toplevel));
	if (toplevel == NULL) {
		return;
	}
	toplevel->host = host;
	toplevel->xdg_surface = xdg_surface;
#if ORIENT_WLR_HAS_SURFACE_MAP
	struct wl_signal *map = &xdg_surface->surface->events.map, *unmap = &xdg_surface->surface->events.unmap;
#else
	struct wl_signal *map = &xdg_surface->events.map, *unmap = &xdg_surface->events.unmap;
#endif
	toplevel->map.notify = toplevel_handle_map;
	wl_signal_add(map, &toplevel->map);
	toplevel->unmap.notify = toplevel_handle_unmap;
	wl_signal_add(unmap, &toplevel->unmap);
	toplevel->destroy.notify = toplevel_handle_destroy;
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	wl_signal_add(&xdg_toplevel->events.destroy, &toplevel->destroy);
	toplevel->commit.notify = toplevel_handle_commit;
	wl_signal_add(&xdg_surface->surface->events.commit, &toplevel->commit);
#else
	wl_signal_add(&xdg_surface->events.destroy, &toplevel->destroy);
#endif
	wl_list_insert(&host->toplevels, &toplevel->link);
#if ORIENT_WLR_HAS_SCENE_TREE
	toplevel->node = &wlr_scene_xdg_surface_create(host->toplevel_tree, xdg_surface)->node;
#else
	toplevel->node = wlr_scene_xdg_surface_create(&host->toplevel_tree->node, xdg_surface);
#endif
#if !ORIENT_WLR_HAS_NEW_TOPLEVEL
	arrange(host, toplevel);
#endif
}

/* --- Input: touchscreens and pen tablets on the cursor, which the plugin maps to the panel --- */

static void handle_new_input(struct wl_listener *listener, void *data) {
	struct host *host = wl_container_of(listener, host, new_input);
	struct wlr_input_device *device = data;
	if (device->type == WLR_INPUT_DEVICE_TOUCH || device->type == ORIENT_WLR_INPUT_DEVICE_TABLET) {
		wlr_cursor_attach_input_device(host->cursor, device);
		wlr_seat_set_capabilities(host->seat, host->seat->capabilities | WL_SEAT_CAPABILITY_TOUCH);
	} else if (device->type == WLR_INPUT_DEVICE_POINTER) {
		wlr_cursor_attach_input_device(host->cursor, device);
		wlr_seat_set_capabilities(host->seat, host->seat->capabilities | WL_SEAT_CAPABILITY_POINTER);
	}
}

/* --- The plugin --- */

void host_load_plugin(struct host *host, const char *path) {
	host->plugin_handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (host->plugin_handle == NULL) {
		wlr_log(WLR_ERROR, "cannot load the wlr-orient plugin %s: %s; running without it", path, dlerror());
		return;
	}
	wlr_orient_create_func create = (wlr_orient_create_func)dlsym(host->plugin_handle, "wlr_orient_create");
	host->orient_destroy = (wlr_orient_destroy_func)dlsym(host->plugin_handle, "wlr_orient_destroy");
	/* The optional parts of the API, and each release's frame hook. */
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

/* --- Start and end --- */

bool host_create(struct host *host) {
	wl_list_init(&host->outputs);
	wl_list_init(&host->toplevels);
	host->display = wl_display_create();
#if ORIENT_WLR_HAS_LOOP_BACKENDS
	host->backend = wlr_headless_backend_create(wl_display_get_event_loop(host->display));
#else
	host->backend = wlr_headless_backend_create(host->display);
#endif
	host->renderer = wlr_pixman_renderer_create();
	if (host->backend == NULL || host->renderer == NULL) {
		return false;
	}
	wlr_renderer_init_wl_display(host->renderer, host->display);
	host->allocator = wlr_allocator_autocreate(host->backend, host->renderer);
#if ORIENT_WLR_HAS_VERSIONED_GLOBALS
	wlr_compositor_create(host->display, 6, host->renderer);
#else
	wlr_compositor_create(host->display, host->renderer);
#endif
#if ORIENT_WLR_HAS_SUBCOMPOSITOR
	wlr_subcompositor_create(host->display);
#endif
	wlr_data_device_manager_create(host->display);
#if ORIENT_WLR_HAS_LOOP_BACKENDS
	host->output_layout = wlr_output_layout_create(host->display);
#else
	host->output_layout = wlr_output_layout_create();
#endif
	wlr_xdg_output_manager_v1_create(host->display, host->output_layout);
	host->output_manager = wlr_output_manager_v1_create(host->display);
	host->scene = wlr_scene_create();
#if ORIENT_WLR_HAS_SCENE_OUTPUT_LAYOUT
	host->scene_layout = wlr_scene_attach_output_layout(host->scene, host->output_layout);
#else
	wlr_scene_attach_output_layout(host->scene, host->output_layout);
#endif
#if ORIENT_WLR_HAS_VERSIONED_GLOBALS
	host->xdg_shell = wlr_xdg_shell_create(host->display, 3);
#else
	host->xdg_shell = wlr_xdg_shell_create(host->display);
#endif
#if ORIENT_WLR_HAS_SCENE_TREE
	struct wlr_scene_tree *root = &host->scene->tree;
#else
	struct wlr_scene_node *root = &host->scene->node;
#endif
	/* Made in this order, each above the last. */
	host->layers_below = wlr_scene_tree_create(root);
	host->toplevel_tree = wlr_scene_tree_create(root);
	host->layers_above = wlr_scene_tree_create(root);
	host->seat = wlr_seat_create(host->display, "seat0");
	host->cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(host->cursor, host->output_layout);

	host->new_output.notify = handle_new_output;
	wl_signal_add(&host->backend->events.new_output, &host->new_output);
	host->new_input.notify = handle_new_input;
	wl_signal_add(&host->backend->events.new_input, &host->new_input);
	host->new_toplevel.notify = handle_new_toplevel;
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	wl_signal_add(&host->xdg_shell->events.new_toplevel, &host->new_toplevel);
#else
	wl_signal_add(&host->xdg_shell->events.new_surface, &host->new_toplevel);
#endif
	return true;
}

const char *host_start(struct host *host) {
	const char *socket = wl_display_add_socket_auto(host->display);
	return socket != NULL && wlr_backend_start(host->backend) ? socket : NULL;
}

void host_finish(struct host *host) {
	/* The plugin first (unless a test asks for the wrong order, which it survives). */
	if (host->orient != NULL) {
		wl_list_remove(&host->output_transformed.link);
		if (!host->destroy_plugin_last) {
			host->orient_destroy(host->orient);
			host->orient = NULL;
		}
	}
	HOST_HOOK(host, finishing, host);
	wl_display_destroy_clients(host->display);
	wl_list_remove(&host->new_output.link);
	wl_list_remove(&host->new_input.link);
	wl_list_remove(&host->new_toplevel.link);
#if ORIENT_WLR_HAS_LOOP_BACKENDS
	/* The backend is not the display's: it goes first, and its outputs with it; then the scene,
	 * the cursor, the renderer; the display last (its globals, and the layout made with it). From
	 * 0.19 wlroots asserts that an object going has no listener left: ours went first. */
	wlr_backend_destroy(host->backend);
	wlr_scene_node_destroy(&host->scene->tree.node);
	wlr_cursor_destroy(host->cursor);
	wlr_allocator_destroy(host->allocator);
	wlr_renderer_destroy(host->renderer);
	wl_display_destroy(host->display);
#else
	/* Outputs go first (with the display and its backend), then the layout, then the scene that
	 * was following both: the reverse order leaves wlroots reading freed scene memory. */
	wlr_cursor_destroy(host->cursor);
	wl_display_destroy(host->display);
	wlr_output_layout_destroy(host->output_layout);
	wlr_scene_node_destroy(&host->scene->node);
	wlr_allocator_destroy(host->allocator);
	wlr_renderer_destroy(host->renderer);
#endif
	if (host->orient != NULL) {
		host->orient_destroy(host->orient);
	}
	if (host->plugin_handle != NULL) {
		dlclose(host->plugin_handle);
	}
}

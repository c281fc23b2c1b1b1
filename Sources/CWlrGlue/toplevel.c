/*
 * Toplevels: when one appears (at its initial commit), what it is (app_id, fullscreen or
 * maximized, its configures), when it is shown, hidden, committed or gone; keyboard focus.
 * A toplevel is named by its wlr_xdg_surface in every release. From 0.17 map and unmap are the
 * wl_surface's; from 0.18 a toplevel is announced before its first commit, and the compositor
 * sends its first configure at that commit.
 */
#include <stdlib.h>
#include "internal.h"

/* --- Watching the xdg-shell for new toplevels --- */

#if ORIENT_WLR_HAS_NEW_TOPLEVEL
/* A toplevel announced and not committed yet: its initial commit is what the plugin reports. */
struct pending_toplevel {
	struct shell_watch *shell;
	struct wlr_xdg_toplevel *toplevel;
	struct wl_listener commit;
	struct wl_listener destroy;
	struct wl_list link; /* shell_watch.pending */
};
#endif

struct shell_watch {
	struct orient_wlr_watch base;
	struct wl_listener new_toplevel;
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	struct wl_list pending;
#endif
};

#if ORIENT_WLR_HAS_NEW_TOPLEVEL
static void pending_free(struct pending_toplevel *pending) {
	wl_list_remove(&pending->commit.link);
	wl_list_remove(&pending->destroy.link);
	wl_list_remove(&pending->link);
	free(pending);
}

static void pending_handle_commit(struct wl_listener *listener, void *data) {
	struct pending_toplevel *pending = wl_container_of(listener, pending, commit);
	struct wlr_xdg_surface *surface = pending->toplevel->base;
	if (!surface->initial_commit) {
		return;
	}
	struct orient_wlr_shell_events events = pending->shell->base.events.shell;
	pending_free(pending);
	events.new_toplevel(events.context, surface);
}

static void pending_handle_destroy(struct wl_listener *listener, void *data) {
	struct pending_toplevel *pending = wl_container_of(listener, pending, destroy);
	pending_free(pending);
}

/* The shell's watch releases the toplevels it still waits for with its listeners. */
static void shell_release_pending(struct orient_wlr_watch *base) {
	struct shell_watch *watch = wl_container_of(base, watch, base);
	struct pending_toplevel *pending, *tmp;
	wl_list_for_each_safe(pending, tmp, &watch->pending, link) {
		pending_free(pending);
	}
}
#endif

static void shell_handle_new_toplevel(struct wl_listener *listener, void *data) {
	struct shell_watch *watch = wl_container_of(listener, watch, new_toplevel);
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	struct wlr_xdg_toplevel *toplevel = data;
	struct pending_toplevel *pending = calloc(1, sizeof(*pending));
	if (pending == NULL) {
		return;
	}
	pending->shell = watch;
	pending->toplevel = toplevel;
	/* After the compositor's own commit listener (added in its new_toplevel handler, which ran
	 * before ours): what it scheduled for the first configure is known when we hear the commit. */
	orient_wlr_listen(&toplevel->base->surface->events.commit, &pending->commit, pending_handle_commit);
	orient_wlr_listen(&toplevel->events.destroy, &pending->destroy, pending_handle_destroy);
	wl_list_insert(&watch->pending, &pending->link);
#else
	/* new_surface, which 0.15 to 0.17 emit at the toplevel's initial commit. */
	struct wlr_xdg_surface *surface = data;
	if (surface->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		watch->base.events.shell.new_toplevel(watch->base.events.context, surface);
	}
#endif
}

struct orient_wlr_watch *orient_wlr_watch_shell(struct wlr_xdg_shell *shell, const struct orient_wlr_shell_events *events) {
	if (shell == NULL || events == NULL) {
		return NULL;
	}
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	struct wl_signal *new_toplevel = &shell->events.new_toplevel;
#else
	struct wl_signal *new_toplevel = &shell->events.new_surface;
#endif
	const struct orient_wlr_watch_listener listeners[] = {
		{ new_toplevel, offsetof(struct shell_watch, new_toplevel), shell_handle_new_toplevel },
	};
	struct orient_wlr_watch *base = orient_wlr_watch_create(sizeof(struct shell_watch), &shell->events.destroy,
		(union orient_wlr_watch_events){ .shell = *events }, NULL, listeners, ORIENT_WLR_LENGTH(listeners));
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	/* The toplevels it waits for, released with its listeners: set up before those can hear
	 * anything (signals are emitted from the event loop, not while this runs). */
	if (base != NULL) {
		struct shell_watch *watch = wl_container_of(base, watch, base);
		wl_list_init(&watch->pending);
		base->release = shell_release_pending;
	}
#endif
	return base;
}

/* --- Keyboard focus --- */

struct seat_watch {
	struct orient_wlr_watch base;
	struct wl_listener focus_change;
};

/* The toplevel whose surface `surface` is, if any. */
static struct wlr_xdg_surface *toplevel_of_surface(struct wlr_surface *surface) {
#if ORIENT_WLR_HAS_TRY_FROM
	struct wlr_xdg_surface *xdg = wlr_xdg_surface_try_from_wlr_surface(surface);
#else
	struct wlr_xdg_surface *xdg = wlr_surface_is_xdg_surface(surface) ? wlr_xdg_surface_from_wlr_surface(surface) : NULL;
#endif
	return xdg != NULL && xdg->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL ? xdg : NULL;
}

static void seat_handle_focus_change(struct wl_listener *listener, void *data) {
	struct seat_watch *watch = wl_container_of(listener, watch, focus_change);
	const struct wlr_seat_keyboard_focus_change_event *event = data;
	struct wlr_surface *surface = event != NULL ? event->new_surface : NULL;
	watch->base.events.seat.focus(watch->base.events.context, surface != NULL ? toplevel_of_surface(surface) : NULL,
		surface == NULL);
}

struct orient_wlr_watch *orient_wlr_watch_seat(struct wlr_seat *seat, const struct orient_wlr_seat_events *events) {
	if (seat == NULL || events == NULL) {
		return NULL;
	}
	const struct orient_wlr_watch_listener listeners[] = {
		{ &seat->keyboard_state.events.focus_change, offsetof(struct seat_watch, focus_change), seat_handle_focus_change },
	};
	return orient_wlr_watch_create(sizeof(struct seat_watch), &seat->events.destroy,
		(union orient_wlr_watch_events){ .seat = *events }, NULL, listeners, ORIENT_WLR_LENGTH(listeners));
}

/* --- Watching one toplevel --- */

struct toplevel_watch {
	struct orient_wlr_watch base;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener set_app_id;
	struct wl_listener commit;
};

static void toplevel_handle_map(struct wl_listener *listener, void *data) {
	struct toplevel_watch *watch = wl_container_of(listener, watch, map);
	watch->base.events.toplevel.mapped(watch->base.events.context, true);
}

static void toplevel_handle_unmap(struct wl_listener *listener, void *data) {
	struct toplevel_watch *watch = wl_container_of(listener, watch, unmap);
	watch->base.events.toplevel.mapped(watch->base.events.context, false);
}

static void toplevel_handle_set_app_id(struct wl_listener *listener, void *data) {
	struct toplevel_watch *watch = wl_container_of(listener, watch, set_app_id);
	watch->base.events.toplevel.app_id(watch->base.events.context);
}

static void toplevel_handle_commit(struct wl_listener *listener, void *data) {
	struct toplevel_watch *watch = wl_container_of(listener, watch, commit);
	watch->base.events.toplevel.committed(watch->base.events.context);
}

struct orient_wlr_watch *orient_wlr_watch_toplevel(struct wlr_xdg_surface *surface, const struct orient_wlr_toplevel_events *events) {
	if (surface == NULL || events == NULL || surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL || surface->toplevel == NULL) {
		return NULL;
	}
#if ORIENT_WLR_HAS_NEW_TOPLEVEL
	/* The role goes with the xdg_toplevel, which a client may destroy before its xdg_surface. */
	struct wl_signal *destroy = &surface->toplevel->events.destroy;
#else
	struct wl_signal *destroy = &surface->events.destroy;
#endif
	const struct orient_wlr_watch_listener listeners[] = {
#if ORIENT_WLR_HAS_SURFACE_MAP
		{ &surface->surface->events.map, offsetof(struct toplevel_watch, map), toplevel_handle_map },
		{ &surface->surface->events.unmap, offsetof(struct toplevel_watch, unmap), toplevel_handle_unmap },
#else
		{ &surface->events.map, offsetof(struct toplevel_watch, map), toplevel_handle_map },
		{ &surface->events.unmap, offsetof(struct toplevel_watch, unmap), toplevel_handle_unmap },
#endif
		{ &surface->toplevel->events.set_app_id, offsetof(struct toplevel_watch, set_app_id), toplevel_handle_set_app_id },
		{ &surface->surface->events.commit, offsetof(struct toplevel_watch, commit), toplevel_handle_commit },
	};
	return orient_wlr_watch_create(sizeof(struct toplevel_watch), destroy,
		(union orient_wlr_watch_events){ .toplevel = *events }, events->destroyed, listeners, ORIENT_WLR_LENGTH(listeners));
}

/* --- What a toplevel is --- */

const char *orient_wlr_toplevel_app_id(struct wlr_xdg_surface *surface) {
	if (surface == NULL || surface->toplevel == NULL || surface->toplevel->app_id == NULL) {
		return "";
	}
	return surface->toplevel->app_id;
}

bool orient_wlr_toplevel_will_cover(struct wlr_xdg_surface *surface) {
	if (surface == NULL || surface->toplevel == NULL) {
		return false;
	}
	struct wlr_xdg_toplevel *toplevel = surface->toplevel;
	return toplevel->scheduled.fullscreen || toplevel->scheduled.maximized ||
		toplevel->requested.fullscreen || toplevel->requested.maximized;
}

bool orient_wlr_toplevel_covers(struct wlr_xdg_surface *surface) {
	if (surface == NULL || surface->toplevel == NULL || !surface->configured) {
		return false;
	}
	return surface->toplevel->current.fullscreen || surface->toplevel->current.maximized;
}

bool orient_wlr_toplevel_configure_pending(struct wlr_xdg_surface *surface, uint32_t *serial) {
	if (surface == NULL || surface->configure_idle == NULL) {
		return false;
	}
	*serial = surface->scheduled_serial;
	return true;
}

void orient_wlr_toplevel_configure_facts(struct wlr_xdg_surface *surface, uint32_t *committed, bool *mapped, bool *configured) {
	*committed = surface != NULL ? surface->current.configure_serial : 0;
#if ORIENT_WLR_HAS_SURFACE_MAP
	*mapped = surface != NULL && surface->surface != NULL && surface->surface->mapped;
#else
	*mapped = surface != NULL && surface->mapped;
#endif
	*configured = surface != NULL && surface->configured;
}

struct wlr_xdg_surface *orient_wlr_toplevel_of(struct wlr_xdg_toplevel *toplevel) {
	return toplevel != NULL ? toplevel->base : NULL;
}

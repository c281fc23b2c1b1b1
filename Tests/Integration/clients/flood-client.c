/*
 * flood-client: one client holding many wlr_orient_toplevel_v1 objects, as a hostile or buggy
 * client would. It makes N toplevels (wl_surface, xdg_surface, xdg_toplevel), each
 * with its orientation object (none with --no-objects, for comparison in a compositor without our
 * protocol), never committed unless --commit, and then takes commands on stdin:
 *
 *   flood-client N [--commit] [--no-objects]
 *   requests K   K set_supported_orientations requests, spread over the objects (each changes
 *                what its object declares), then a round trip; answers
 *                {"requests": K, "seconds": S} with the time from the first request to the answer
 *   exit         ends the process at once, holding every object (the compositor releases them)
 *
 * It first answers {"created": N, "seconds": S} once the compositor has handled the creation.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "wlr-orient-v1-client-protocol.h"

static struct wl_compositor *compositor;
static struct xdg_wm_base *wm_base;
static struct wlr_orient_manager_v1 *orient_manager;

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
	xdg_wm_base_pong(base, serial);
}
static const struct xdg_wm_base_listener wm_base_listener = { .ping = wm_base_ping };

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
		uint32_t version) {
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);
	} else if (strcmp(interface, wlr_orient_manager_v1_interface.name) == 0) {
		orient_manager = wl_registry_bind(registry, name, &wlr_orient_manager_v1_interface, 1);
	}
}
static void registry_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { .global = registry_global, .global_remove = registry_remove };

/* Configures (with --commit) are acked; events to the objects are ignored. */
static void xdg_surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
	xdg_surface_ack_configure(surface, serial);
}
static const struct xdg_surface_listener xdg_surface_listener = { .configure = xdg_surface_configure };

int main(int argc, char *argv[]) {
	if (argc < 2) {
		fprintf(stderr, "usage: flood-client N [--commit]\n");
		return 2;
	}
	long count = strtol(argv[1], NULL, 10);
	int commit = 0, objects_too = 1;
	for (int i = 2; i < argc; i++) {
		commit |= strcmp(argv[i], "--commit") == 0;
		objects_too &= strcmp(argv[i], "--no-objects") != 0;
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "flood-client: cannot connect\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (compositor == NULL || wm_base == NULL || (objects_too && orient_manager == NULL)) {
		fprintf(stderr, "flood-client: the compositor lacks wl_compositor, xdg_wm_base or wlr_orient_manager_v1\n");
		return 1;
	}
	struct wlr_orient_toplevel_v1 **objects = calloc(count, sizeof(*objects));
	double start = now();
	for (long i = 0; i < count; i++) {
		struct wl_surface *surface = wl_compositor_create_surface(compositor);
		struct xdg_surface *xdg = xdg_wm_base_get_xdg_surface(wm_base, surface);
		xdg_surface_add_listener(xdg, &xdg_surface_listener, NULL);
		struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg);
		xdg_toplevel_set_app_id(toplevel, "flood");
		if (objects_too) {
			objects[i] = wlr_orient_manager_v1_get_toplevel_orientation(orient_manager, toplevel);
		}
		if (commit) {
			wl_surface_commit(surface);
		}
		if (i % 256 == 255) {
			/* Each object is told what its output shows: read those events as we go, or the
			 * compositor's buffer for this client fills and it disconnects us. */
			wl_display_roundtrip(display);
		}
	}
	if (wl_display_roundtrip(display) < 0) {
		fprintf(stderr, "flood-client: the compositor closed the connection\n");
		return 1;
	}
	printf("{\"created\": %ld, \"seconds\": %.6f}\n", count, now() - start);
	fflush(stdout);

	char line[128];
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strncmp(line, "requests ", 9) == 0) {
			long k = strtol(line + 9, NULL, 10);
			double begun = now();
			for (long i = 0; i < k && count > 0 && objects_too; i++) {
				/* portrait, landscape, portrait… on each object in turn: every request changes
				 * what its object declares, so none is dropped as a repeat. */
				uint32_t mask = (i / count) % 2 == 0 ? 1 : 2;
				wlr_orient_toplevel_v1_set_supported_orientations(objects[i % count], mask);
				if (i % 256 == 255) {
					wl_display_roundtrip(display);
				}
			}
			if (wl_display_roundtrip(display) < 0) {
				fprintf(stderr, "flood-client: the compositor closed the connection\n");
				return 1;
			}
			printf("{\"requests\": %ld, \"seconds\": %.6f}\n", k, now() - begun);
			fflush(stdout);
		} else if (strncmp(line, "exit", 4) == 0) {
			_exit(0); /* holding everything: the compositor releases it all */
		}
	}
	return 0;
}

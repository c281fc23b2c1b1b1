/*
 * fuzz-client: a client that makes random sequences of requests, for the fuzz campaign
 * (benchmarks/fuzz.py): toplevels made, committed, drawn, made fullscreen or maximized
 * and destroyed; our protocol's objects made (a second one for the same toplevel too), told any
 * mask and any mode, destroyed before or after their toplevel; managers destroyed; configures
 * acked or not; connections dropped in the middle. Whatever ends a connection (a protocol error,
 * its own choice) is followed by a new one.
 *
 *   fuzz-client SEED STEPS
 *
 * Prints {"steps": N, "connections": C, "protocol_errors": E} at the end (exit 0), or exits 1 if
 * it cannot connect at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "wlr-orient-v1-client-protocol.h"

#define MAX_WINDOWS 64

static uint64_t rng;

static uint32_t next_random(void) {
	/* xorshift64*: the same seed gives the same sequence, so a failure can be replayed. */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}

static uint32_t below(uint32_t n) {
	return n > 0 ? next_random() % n : 0;
}

struct window {
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wlr_orient_toplevel_v1 *object;
	uint32_t serial;   /* the last configure's, 0 before one */
};

static struct {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wlr_orient_manager_v1 *manager;
	uint32_t manager_name;
	struct wl_registry *registry;
	struct window windows[MAX_WINDOWS];
	struct wl_buffer *buffer;
} c;

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
	xdg_wm_base_pong(base, serial);
}
static const struct xdg_wm_base_listener wm_base_listener = { .ping = wm_base_ping };

static void xdg_surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
	struct window *w = data;
	w->serial = serial;
}
static const struct xdg_surface_listener xdg_surface_listener = { .configure = xdg_surface_configure };

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
		uint32_t version) {
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		c.compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		c.shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		c.wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c.wm_base, &wm_base_listener, NULL);
	} else if (strcmp(interface, wlr_orient_manager_v1_interface.name) == 0) {
		c.manager = wl_registry_bind(registry, name, &wlr_orient_manager_v1_interface, 1);
		c.manager_name = name;
	}
}
static void registry_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { .global = registry_global, .global_remove = registry_remove };

/* Events to our objects: heard, nothing to do. */
static void output_orientation(void *data, struct wlr_orient_toplevel_v1 *object, uint32_t orientation) {}
static void device_orientation(void *data, struct wlr_orient_toplevel_v1 *object, uint32_t orientation) {}
static const struct wlr_orient_toplevel_v1_listener object_listener = {
	.output_orientation = output_orientation,
	.device_orientation = device_orientation,
};

static void buffer_release(void *data, struct wl_buffer *buffer) {}
static const struct wl_buffer_listener buffer_listener = { .release = buffer_release };

/* One small buffer per connection, attached to any window: its size need not match. */
static struct wl_buffer *small_buffer(void) {
	if (c.buffer != NULL || c.shm == NULL) {
		return c.buffer;
	}
	int width = 32, height = 32, stride = width * 4, size = stride * height;
	int fd = memfd_create("fuzz-client", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, size) < 0) {
		return NULL;
	}
	void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels != MAP_FAILED) {
		memset(pixels, 0x80, size);
		munmap(pixels, size);
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(c.shm, fd, size);
	c.buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
	wl_buffer_add_listener(c.buffer, &buffer_listener, NULL);
	wl_shm_pool_destroy(pool);
	close(fd);
	return c.buffer;
}

static int connect_again(void) {
	if (c.display != NULL) {
		wl_display_disconnect(c.display); /* frees nothing of ours: the proxies go with it */
	}
	memset(&c, 0, sizeof(c));
	c.display = wl_display_connect(NULL);
	if (c.display == NULL) {
		return -1;
	}
	c.registry = wl_display_get_registry(c.display);
	wl_registry_add_listener(c.registry, &registry_listener, NULL);
	if (wl_display_roundtrip(c.display) < 0 || c.compositor == NULL || c.wm_base == NULL) {
		return -1;
	}
	return 0;
}

static const char *app_ids[] = { "foot", "org.example.Game", "org.example.Reader", "", "x\xff\xfe", "*",
	"a-very-long-app-id-that-no-rule-matches-but-that-is-still-fine-to-send-along-with-the-rest" };

static void step(void) {
	struct window *w = &c.windows[below(MAX_WINDOWS)];
	switch (below(16)) {
	case 0:
	case 1:
		if (w->surface == NULL) {
			w->surface = wl_compositor_create_surface(c.compositor);
			w->xdg_surface = xdg_wm_base_get_xdg_surface(c.wm_base, w->surface);
			xdg_surface_add_listener(w->xdg_surface, &xdg_surface_listener, w);
			w->toplevel = xdg_surface_get_toplevel(w->xdg_surface);
			xdg_toplevel_set_app_id(w->toplevel, app_ids[below(sizeof(app_ids) / sizeof(*app_ids))]);
			if (below(2) == 0) {
				wl_surface_commit(w->surface);
			}
		}
		break;
	case 2:
		/* An object for a toplevel, maybe a second one (a protocol error). */
		if (c.manager != NULL && w->toplevel != NULL && (w->object == NULL || below(8) == 0)) {
			w->object = wlr_orient_manager_v1_get_toplevel_orientation(c.manager, w->toplevel);
			wlr_orient_toplevel_v1_add_listener(w->object, &object_listener, NULL);
		}
		break;
	case 3:
	case 4:
		if (w->object != NULL) {
			wlr_orient_toplevel_v1_set_supported_orientations(w->object, below(4) == 0 ? next_random() : below(16));
		}
		break;
	case 5:
		if (w->object != NULL) {
			wlr_orient_toplevel_v1_set_mode(w->object, below(4) == 0 ? next_random() : below(2));
		}
		break;
	case 6:
		if (w->object != NULL) {
			wlr_orient_toplevel_v1_destroy(w->object);
			w->object = NULL;
		}
		break;
	case 7:
		/* The toplevel goes (its object, if any, stays and becomes inert). */
		if (w->toplevel != NULL) {
			xdg_toplevel_destroy(w->toplevel);
			xdg_surface_destroy(w->xdg_surface);
			wl_surface_destroy(w->surface);
			w->toplevel = NULL;
			w->xdg_surface = NULL;
			w->surface = NULL;
			w->serial = 0;
			if (w->object != NULL && below(2) == 0) {
				wlr_orient_toplevel_v1_destroy(w->object);
				w->object = NULL;
			}
		}
		break;
	case 8:
	case 9:
		/* Acked and drawn (or, now and then, drawn before any configure: a protocol error). */
		if (w->surface != NULL && (w->serial != 0 || below(16) == 0)) {
			if (w->serial != 0) {
				xdg_surface_ack_configure(w->xdg_surface, w->serial);
			}
			if (small_buffer() != NULL) {
				wl_surface_attach(w->surface, small_buffer(), 0, 0);
				wl_surface_damage(w->surface, 0, 0, INT32_MAX, INT32_MAX);
			}
			wl_surface_commit(w->surface);
		}
		break;
	case 10:
		if (w->toplevel != NULL) {
			switch (below(4)) {
			case 0: xdg_toplevel_set_fullscreen(w->toplevel, NULL); break;
			case 1: xdg_toplevel_unset_fullscreen(w->toplevel); break;
			case 2: xdg_toplevel_set_maximized(w->toplevel); break;
			default: xdg_toplevel_unset_maximized(w->toplevel); break;
			}
			if (w->surface != NULL && w->serial != 0) {
				wl_surface_commit(w->surface);
			}
		}
		break;
	case 11:
		if (w->toplevel != NULL) {
			xdg_toplevel_set_app_id(w->toplevel, app_ids[below(sizeof(app_ids) / sizeof(*app_ids))]);
		}
		break;
	case 12:
		/* The manager goes; now and then it is bound again. */
		if (c.manager != NULL && below(4) == 0) {
			wlr_orient_manager_v1_destroy(c.manager);
			c.manager = NULL;
		} else if (c.manager == NULL && c.manager_name != 0) {
			c.manager = wl_registry_bind(c.registry, c.manager_name, &wlr_orient_manager_v1_interface, 1);
		}
		break;
	case 13:
		wl_display_roundtrip(c.display);
		break;
	case 14:
		/* Gone in the middle of everything. */
		if (below(16) == 0) {
			connect_again();
		}
		break;
	default:
		/* Whatever the compositor sent, read without waiting. */
		wl_display_flush(c.display);
		if (wl_display_prepare_read(c.display) == 0) {
			struct pollfd ready = { .fd = wl_display_get_fd(c.display), .events = POLLIN };
			if (poll(&ready, 1, 0) > 0) {
				wl_display_read_events(c.display);
			} else {
				wl_display_cancel_read(c.display);
			}
		}
		wl_display_dispatch_pending(c.display);
		break;
	}
}

int main(int argc, char *argv[]) {
	if (argc < 3) {
		fprintf(stderr, "usage: fuzz-client SEED STEPS\n");
		return 2;
	}
	rng = strtoull(argv[1], NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
	long steps = strtol(argv[2], NULL, 10);
	long connections = 1, errors = 0;
	if (connect_again() < 0) {
		fprintf(stderr, "fuzz-client: cannot connect\n");
		return 1;
	}
	for (long i = 0; i < steps; i++) {
		step();
		if (c.display == NULL || wl_display_get_error(c.display) != 0 ||
				(wl_display_flush(c.display) < 0 && errno != EAGAIN) || wl_display_dispatch_pending(c.display) < 0) {
			errors += c.display != NULL && wl_display_get_error(c.display) == EPROTO;
			connections++;
			if (connect_again() < 0) {
				fprintf(stderr, "fuzz-client: cannot connect again\n");
				return 1;
			}
		}
	}
	wl_display_roundtrip(c.display);
	printf("{\"steps\": %ld, \"connections\": %ld, \"protocol_errors\": %ld}\n", steps, connections, errors);
	return 0;
}

/*
 * orient-client: a small xdg-shell client for the end-to-end tests. It logs each configure it
 * receives, each touch, each pointer button (where the pointer is) and each wlr-orient event as
 * JSON lines on stdout, and draws its buffer
 * white with a red band along its top edge, so that a test reading the panel's raw pixels can
 * tell where "up" is.
 *
 *   orient-client [--orientations MASK] [--input] [--no-commit] [--late MS] [--card] [APP_ID]
 *
 * --late MS answers (acks and redraws) every configure after the first MS milliseconds late, as a
 * slow client does; a negative MS never answers one. --card draws a test card instead: blue when
 * the buffer is portrait-shaped, green when it is landscape-shaped, with its top quarter red.
 *
 * --orientations and --input declare, over protocol/wlr-orient-v1.xml and before the initial
 * commit, the orientations the client supports and that it takes orientation as input.
 * --no-commit never makes the initial commit (it waits for commands, as a client that goes
 * before its first frame would). Commands
 * on stdin, one per line, for run-time changes and deliberate misbehaviour:
 *   orientations N     set_supported_orientations(N), whatever N is
 *   mode N             set_mode(N)
 *   destroy-object     destroys the wlr_orient_toplevel_v1
 *   destroy-manager    destroys the wlr_orient_manager_v1
 *   second-object      asks for a second object for the same toplevel
 *   destroy-toplevel   destroys the xdg_toplevel and xdg_surface (the object stays)
 *   roundtrip          answers {"roundtrip": "ok"} once the compositor has answered
 *   quit               disconnects and exits (status 0)
 * A protocol error ends it with {"protocol_error": [CODE, "INTERFACE"]} and exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "wlr-orient-v1-client-protocol.h"

#define BAND 40

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static struct wl_seat *seat;
static struct wl_surface *surface;
static struct xdg_surface *xdg_surface;
static struct xdg_toplevel *toplevel;
static struct wlr_orient_manager_v1 *orient_manager;
static struct wlr_orient_toplevel_v1 *orient_object;
static int pending_width, pending_height;
static long late_ms;            /* --late */
static bool card;               /* --card */
static bool answered_once;
static bool answer_due;         /* a configure waits for its late answer */
static uint32_t due_serial;
static struct timespec due_at;

static void buffer_release(void *data, struct wl_buffer *buffer) {
	wl_buffer_destroy(buffer);
}
static const struct wl_buffer_listener buffer_listener = { .release = buffer_release };

static void draw(int width, int height) {
	int stride = width * 4, size = stride * height;
	int fd = memfd_create("orient-client", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, size) < 0) {
		exit(1);
	}
	uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		exit(1);
	}
	uint32_t background = !card ? 0xFFFFFFFF : height > width ? 0xFF0000FF : 0xFF00FF00;
	int band = card ? height / 4 : BAND;
	for (int y = 0; y < height; y++) {
		for (int x = 0; x < width; x++) {
			pixels[y * width + x] = y < band ? 0xFFFF0000 : background;
		}
	}
	munmap(pixels, size);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_buffer_add_listener(buffer, &buffer_listener, NULL);
	wl_surface_attach(surface, buffer, 0, 0);
	wl_surface_damage(surface, 0, 0, width, height);
	wl_surface_commit(surface);
}

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height,
		struct wl_array *states) {
	pending_width = width;
	pending_height = height;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
	exit(0);
}
static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

static void answer(uint32_t serial) {
	answered_once = true;
	xdg_surface_ack_configure(xdg_surface, serial);
	printf("{\"configure\": [%d, %d]}\n", pending_width, pending_height);
	fflush(stdout);
	draw(pending_width > 0 ? pending_width : 320, pending_height > 0 ? pending_height : 240);
}

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	if (!answered_once || late_ms == 0) {
		answer(serial);
		return;
	}
	/* Late: the newest configure is answered when its time comes (never, if late_ms < 0). */
	if (!answer_due) {
		clock_gettime(CLOCK_MONOTONIC, &due_at);
		due_at.tv_sec += late_ms / 1000;
		due_at.tv_nsec += (late_ms % 1000) * 1000000L;
		if (due_at.tv_nsec >= 1000000000L) {
			due_at.tv_sec++;
			due_at.tv_nsec -= 1000000000L;
		}
	}
	answer_due = late_ms > 0;
	due_serial = serial;
}

/* Milliseconds until the late answer is due (0: now), or -1 with none waiting. */
static int until_due(void) {
	if (!answer_due) {
		return -1;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = (due_at.tv_sec - now.tv_sec) * 1000 + (due_at.tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? (int)ms : 0;
}
static const struct xdg_surface_listener xdg_surface_listener = { .configure = xdg_surface_configure };

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
	xdg_wm_base_pong(base, serial);
}
static const struct xdg_wm_base_listener wm_base_listener = { .ping = wm_base_ping };

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *s,
		int32_t id, wl_fixed_t x, wl_fixed_t y) {
	printf("{\"touch\": [%.1f, %.1f]}\n", wl_fixed_to_double(x), wl_fixed_to_double(y));
	fflush(stdout);
}
static void touch_up(void *d, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
	printf("{\"touch_up\": %d}\n", id);
	fflush(stdout);
}
static void touch_motion(void *d, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {}
static void touch_frame(void *d, struct wl_touch *t) {}
static void touch_cancel(void *d, struct wl_touch *t) {}
static const struct wl_touch_listener touch_listener = {
	.down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame, .cancel = touch_cancel,
};

/* Where the pointer is over the surface, for the button events that carry no point. */
static double pointer_x, pointer_y;
static void pointer_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s, wl_fixed_t x, wl_fixed_t y) {
	pointer_x = wl_fixed_to_double(x);
	pointer_y = wl_fixed_to_double(y);
}
static void pointer_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) {}
static void pointer_motion(void *d, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	pointer_x = wl_fixed_to_double(x);
	pointer_y = wl_fixed_to_double(y);
}
static void pointer_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
	printf("{\"button\": [%u, %u, %.1f, %.1f]}\n", button, state, pointer_x, pointer_y);
	fflush(stdout);
}
static void pointer_axis(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {}
static void pointer_frame(void *d, struct wl_pointer *p) {}
static void pointer_axis_source(void *d, struct wl_pointer *p, uint32_t source) {}
static void pointer_axis_stop(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis) {}
static void pointer_axis_discrete(void *d, struct wl_pointer *p, uint32_t axis, int32_t discrete) {}
static const struct wl_pointer_listener pointer_listener = {
	.enter = pointer_enter, .leave = pointer_leave, .motion = pointer_motion, .button = pointer_button,
	.axis = pointer_axis, .frame = pointer_frame, .axis_source = pointer_axis_source, .axis_stop = pointer_axis_stop,
	.axis_discrete = pointer_axis_discrete,
};

static void orient_output_orientation(void *data, struct wlr_orient_toplevel_v1 *object, uint32_t orientation) {
	printf("{\"output_orientation\": %u}\n", orientation);
	fflush(stdout);
}
static void orient_device_orientation(void *data, struct wlr_orient_toplevel_v1 *object, uint32_t orientation) {
	printf("{\"device_orientation\": %u}\n", orientation);
	fflush(stdout);
}
static const struct wlr_orient_toplevel_v1_listener orient_listener = {
	.output_orientation = orient_output_orientation,
	.device_orientation = orient_device_orientation,
};

static struct wlr_orient_toplevel_v1 *new_orient_object(void) {
	struct wlr_orient_toplevel_v1 *object = wlr_orient_manager_v1_get_toplevel_orientation(orient_manager, toplevel);
	wlr_orient_toplevel_v1_add_listener(object, &orient_listener, NULL);
	return object;
}

/* One command from stdin; see the comment at the top. */
static void run_command(struct wl_display *display, const char *line) {
	unsigned int n;
	if (sscanf(line, "orientations %u", &n) == 1 && orient_object != NULL) {
		wlr_orient_toplevel_v1_set_supported_orientations(orient_object, n);
	} else if (sscanf(line, "mode %u", &n) == 1 && orient_object != NULL) {
		wlr_orient_toplevel_v1_set_mode(orient_object, n);
	} else if (strncmp(line, "destroy-object", 14) == 0 && orient_object != NULL) {
		wlr_orient_toplevel_v1_destroy(orient_object);
		orient_object = NULL;
	} else if (strncmp(line, "destroy-manager", 15) == 0 && orient_manager != NULL) {
		wlr_orient_manager_v1_destroy(orient_manager);
		orient_manager = NULL;
	} else if (strncmp(line, "second-object", 13) == 0 && orient_manager != NULL) {
		new_orient_object();
	} else if (strncmp(line, "destroy-toplevel", 16) == 0 && toplevel != NULL) {
		xdg_toplevel_destroy(toplevel);
		xdg_surface_destroy(xdg_surface);
		toplevel = NULL;
		xdg_surface = NULL;
	} else if (strncmp(line, "quit", 4) == 0) {
		wl_display_disconnect(display);
		exit(0);
	} else if (strncmp(line, "roundtrip", 9) == 0) {
		if (wl_display_roundtrip(display) >= 0) {
			printf("{\"roundtrip\": \"ok\"}\n");
			fflush(stdout);
		}
	} else {
		printf("{\"unknown_command\": \"%.*s\"}\n", (int)strcspn(line, "\n"), line);
		fflush(stdout);
	}
	wl_display_flush(display);
}

static void seat_capabilities(void *data, struct wl_seat *s, uint32_t caps) {
	static struct wl_touch *touch;
	static struct wl_pointer *pointer;
	if ((caps & WL_SEAT_CAPABILITY_POINTER) && pointer == NULL) {
		pointer = wl_seat_get_pointer(s);
		wl_pointer_add_listener(pointer, &pointer_listener, NULL);
	}
	if ((caps & WL_SEAT_CAPABILITY_TOUCH) && touch == NULL) {
		touch = wl_seat_get_touch(s);
		wl_touch_add_listener(touch, &touch_listener, NULL);
	}
}
static void seat_name(void *data, struct wl_seat *s, const char *name) {}
static const struct wl_seat_listener seat_listener = { .capabilities = seat_capabilities, .name = seat_name };

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
		uint32_t version) {
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);
	} else if (strcmp(interface, wlr_orient_manager_v1_interface.name) == 0) {
		orient_manager = wl_registry_bind(registry, name, &wlr_orient_manager_v1_interface, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0) {
		seat = wl_registry_bind(registry, name, &wl_seat_interface, 5);
		wl_seat_add_listener(seat, &seat_listener, NULL);
	}
}
static void registry_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { .global = registry_global, .global_remove = registry_remove };

/* Ends the client, saying which protocol error the compositor sent, if any. */
static int finish(struct wl_display *display) {
	const struct wl_interface *interface = NULL;
	uint32_t id;
	int code = wl_display_get_protocol_error(display, &interface, &id);
	if (interface != NULL) {
		printf("{\"protocol_error\": [%d, \"%s\"]}\n", code, interface->name);
		fflush(stdout);
		return 1;
	}
	return wl_display_get_error(display) != 0;
}

int main(int argc, char *argv[]) {
	const char *app_id = "wlr-orient-test";
	long orientations = -1;
	bool input = false, commit = true;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--orientations") == 0 && i + 1 < argc) {
			orientations = strtol(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--input") == 0) {
			input = true;
		} else if (strcmp(argv[i], "--no-commit") == 0) {
			commit = false;
		} else if (strcmp(argv[i], "--late") == 0 && i + 1 < argc) {
			late_ms = strtol(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--card") == 0) {
			card = true;
		} else {
			app_id = argv[i];
		}
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "orient-client: cannot connect\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (compositor == NULL || shm == NULL || wm_base == NULL) {
		fprintf(stderr, "orient-client: missing globals\n");
		return 1;
	}
	surface = wl_compositor_create_surface(compositor);
	xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
	toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
	xdg_toplevel_set_app_id(toplevel, app_id);
	/* What it supports is said before the initial commit, so that its first configure fits. */
	if (orient_manager != NULL) {
		orient_object = new_orient_object();
		if (orientations >= 0) {
			wlr_orient_toplevel_v1_set_supported_orientations(orient_object, (uint32_t)orientations);
		}
		if (input) {
			wlr_orient_toplevel_v1_set_mode(orient_object, WLR_ORIENT_TOPLEVEL_V1_MODE_INPUT);
		}
	} else if (orientations >= 0 || input) {
		fprintf(stderr, "orient-client: the compositor offers no wlr_orient_manager_v1\n");
		return 1;
	}
	if (commit) {
		wl_surface_commit(surface);
	}

	/* Dispatch Wayland events and stdin commands until either ends. */
	char line[256];
	size_t used = 0;
	bool stdin_open = true;
	while (true) {
		while (wl_display_prepare_read(display) != 0) {
			if (wl_display_dispatch_pending(display) < 0) {
				return finish(display);
			}
		}
		if (wl_display_flush(display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(display);
			return finish(display);
		}
		struct pollfd fds[2] = {
			{ .fd = wl_display_get_fd(display), .events = POLLIN },
			{ .fd = stdin_open ? STDIN_FILENO : -1, .events = POLLIN },
		};
		if (poll(fds, 2, until_due()) < 0 && errno != EINTR) {
			wl_display_cancel_read(display);
			return 1;
		}
		if (until_due() == 0 && xdg_surface != NULL) {
			answer_due = false;
			answer(due_serial);
		}
		if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if (wl_display_read_events(display) < 0) {
				return finish(display);
			}
		} else {
			wl_display_cancel_read(display);
		}
		if (wl_display_dispatch_pending(display) < 0) {
			return finish(display);
		}
		if (fds[1].revents & (POLLIN | POLLHUP)) {
			ssize_t n = read(STDIN_FILENO, line + used, sizeof(line) - 1 - used);
			if (n <= 0) {
				stdin_open = false;
				continue;
			}
			used += (size_t)n;
			line[used] = '\0';
			char *newline;
			while ((newline = strchr(line, '\n')) != NULL) {
				*newline = '\0';
				run_command(display, line);
				if (wl_display_get_error(display) != 0) {
					return finish(display);
				}
				size_t rest = used - (size_t)(newline + 1 - line);
				memmove(line, newline + 1, rest + 1);
				used = rest;
			}
			if (used == sizeof(line) - 1) {
				used = 0; /* a line too long for a test: dropped */
			}
		}
	}
}

/*
 * late-wayland: the Wayland part of a compositor that uses libwayland-server and no wlroots,
 * built as a library for late-loader (a compositor written in another language, or not on
 * wlroots). late_wayland_main makes a display with a socket, runs its loop a few times, and
 * prints "ran" before it returns 0.
 */
#include <stdio.h>
#include <wayland-server-core.h>

int late_wayland_main(int argc, char *argv[]) {
	struct wl_display *display = wl_display_create();
	if (display == NULL) {
		fprintf(stderr, "late-wayland: no display\n");
		return 1;
	}
	const char *socket = wl_display_add_socket_auto(display);
	struct wl_event_loop *loop = wl_display_get_event_loop(display);
	for (int i = 0; i < 5; i++) {
		wl_event_loop_dispatch(loop, 10);
		wl_display_flush_clients(display);
	}
	printf("ran on %s\n", socket != NULL ? socket : "no socket");
	fflush(stdout);
	wl_display_destroy(display);
	return 0;
}

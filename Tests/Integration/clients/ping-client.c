/*
 * ping-client: measures how long the compositor takes to answer, as any client feels it. It makes
 * a round trip (wl_display.sync) every INTERVAL milliseconds and keeps the longest; a stalled
 * compositor loop shows as a long round trip.
 *
 *   ping-client [INTERVAL_MS]
 *   stdin: "report" answers {"pings": N, "max_ms": M, "mean_ms": A} for the round trips since the
 *          last report (a round trip still waiting counts with the time it has waited so far)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static struct wl_callback *pending;
static double sent_at;
static long pings;
static double longest, total;

static void done(void *data, struct wl_callback *callback, uint32_t serial) {
	double took = now() - sent_at;
	wl_callback_destroy(callback);
	pending = NULL;
	pings++;
	total += took;
	if (took > longest) {
		longest = took;
	}
}
static const struct wl_callback_listener callback_listener = { .done = done };

int main(int argc, char *argv[]) {
	int interval = argc > 1 ? atoi(argv[1]) : 5;
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "ping-client: cannot connect\n");
		return 1;
	}
	printf("{\"connected\": true}\n");
	fflush(stdout);
	double next = now();
	char line[64];
	size_t have = 0;
	for (;;) {
		if (pending == NULL && now() >= next) {
			pending = wl_display_sync(display);
			wl_callback_add_listener(pending, &callback_listener, NULL);
			sent_at = now();
			next = sent_at + interval / 1000.0;
			if (wl_display_flush(display) < 0) {
				fprintf(stderr, "ping-client: the compositor went away\n");
				return 1;
			}
		}
		struct pollfd fds[2] = {
			{ .fd = wl_display_get_fd(display), .events = POLLIN },
			{ .fd = 0, .events = POLLIN },
		};
		int wait = pending != NULL ? 1000 : (int)((next - now()) * 1000) + 1;
		if (poll(fds, 2, wait < 0 ? 0 : wait) < 0 && errno != EINTR) {
			return 1;
		}
		if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (wl_display_dispatch(display) < 0) {
				fprintf(stderr, "ping-client: the compositor went away\n");
				return 1;
			}
		}
		if (fds[1].revents & (POLLIN | POLLHUP)) {
			ssize_t n = read(0, line + have, sizeof(line) - 1 - have);
			if (n <= 0) {
				return 0;
			}
			have += (size_t)n;
			line[have] = '\0';
			char *end;
			while ((end = strchr(line, '\n')) != NULL) {
				*end = '\0';
				if (strcmp(line, "report") == 0) {
					double waiting = pending != NULL ? now() - sent_at : 0;
					double worst = waiting > longest ? waiting : longest;
					printf("{\"pings\": %ld, \"max_ms\": %.3f, \"mean_ms\": %.3f}\n", pings, worst * 1000,
						pings > 0 ? total / pings * 1000 : 0.0);
					fflush(stdout);
					pings = 0;
					longest = total = 0;
				}
				have -= (size_t)(end + 1 - line);
				memmove(line, end + 1, have + 1);
			}
			if (have >= sizeof(line) - 1) {
				have = 0; /* a line too long for any command */
			}
		}
	}
}

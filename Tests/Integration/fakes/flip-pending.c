/*
 * A panel whose page flips take time, as on DRM: after an output commit that carries a frame, the
 * output takes no other frame until its flip completes, and a commit with one fails ("a page-flip
 * is already pending", backend/drm/drm.c). The headless backend takes any frame at any time, so a
 * plugin's own frame never fails there. Preloaded into a wlroots 0.18+ host (its frames are output
 * states: wlr_output_commit_state), this refuses every commit that carries a frame within 14 ms of
 * the last one that did on that output; the host's own frames, one per 16.7 ms refresh, go through.
 * A commit without a frame is never refused: on DRM it is the one that waits for the vblank.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct wlr_output;
/* The first field of struct wlr_output_state, 0.17 to 0.20: which parts it sets; bit 0: a buffer. */
struct wlr_output_state;
#define STATE_BUFFER 1u

#define FLIP_MS 14.0
#define OUTPUTS 8

static struct {
	const struct wlr_output *output;
	double flipped_at;
} flips[OUTPUTS];

static double now_ms(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int slot_of(const struct wlr_output *output, bool add) {
	for (int i = 0; i < OUTPUTS; i++) {
		if (flips[i].output == output) {
			return i;
		}
	}
	for (int i = 0; add && i < OUTPUTS; i++) {
		if (flips[i].output == NULL) {
			flips[i].output = output;
			return i;
		}
	}
	return -1;
}

bool wlr_output_commit_state(struct wlr_output *output, const struct wlr_output_state *state) {
	static bool (*next)(struct wlr_output *, const struct wlr_output_state *);
	if (next == NULL) {
		*(void **)&next = dlsym(RTLD_NEXT, "wlr_output_commit_state");
	}
	bool frame = state != NULL && (*(const uint32_t *)state & STATE_BUFFER);
	double now = now_ms();
	int slot = slot_of(output, false);
	if (frame && slot >= 0 && now - flips[slot].flipped_at < FLIP_MS) {
		fprintf(stderr, "[flip-pending] refused a frame: a page-flip is already pending\n");
		return false;
	}
	bool committed = next != NULL && next(output, state);
	if (committed && frame && (slot = slot_of(output, true)) >= 0) {
		flips[slot].flipped_at = now;
	}
	return committed;
}

/* A seat touch grab that keeps the touches the plugin claimed (a tap on the suggestion's target)
 * from the client under them, and passes every other one on as the default grab would. Mechanism
 * only: which touch is claimed is the plugin's. */
#include <stdlib.h>
#include "internal.h"

struct glue_touch_shield {
	struct wlr_seat_touch_grab grab;
	struct orient_wlr_seat_shield base;
};

/* A claimed touch is kept from the client at its down, and that is all: wlroots drops a touch
 * point whose down a grab did not send, so no motion or lift of it comes. Its claim goes with it. */
static uint32_t shield_down(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	struct glue_touch_shield *shield = grab->data;
	if (orient_wlr_seat_shield_claims(&shield->base, point->touch_id)) {
		orient_wlr_seat_shield_claim(&shield->base, point->touch_id, false);
		return 0;
	}
	return wlr_seat_touch_send_down(grab->seat, point->surface, time_msec, point->touch_id, point->sx, point->sy);
}

#if ORIENT_WLR_TOUCH_GRAB_UP_HAS_SERIAL
static uint32_t shield_up(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	return wlr_seat_touch_send_up(grab->seat, time_msec, point->touch_id);
}
#else
static void shield_up(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	wlr_seat_touch_send_up(grab->seat, time_msec, point->touch_id);
}
#endif

static void shield_motion(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	wlr_seat_touch_send_motion(grab->seat, time_msec, point->touch_id, point->sx, point->sy);
}

static void shield_enter(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	/* As the default grab: a touch keeps the surface it began on. */
}

static void shield_frame(struct wlr_seat_touch_grab *grab) {
	wlr_seat_touch_send_frame(grab->seat);
}

static void shield_cancel(struct wlr_seat_touch_grab *grab) {
	/* Another grab took the seat's touches: ours is over. */
	struct glue_touch_shield *shield = grab->data;
	orient_wlr_seat_shield_cancelled(&shield->base);
}

#if ORIENT_WLR_TOUCH_GRAB_UP_HAS_SERIAL
static void shield_wl_cancel(struct wlr_seat_touch_grab *grab, struct wlr_seat_client *seat_client) {
	wlr_seat_touch_send_cancel(grab->seat, seat_client);
}
#else
static void shield_wl_cancel(struct wlr_seat_touch_grab *grab, struct wlr_surface *surface) {
	wlr_seat_touch_send_cancel(grab->seat, surface);
}
#endif

static const struct wlr_touch_grab_interface shield_interface = {
	.down = shield_down,
	.up = shield_up,
	.motion = shield_motion,
	.enter = shield_enter,
	.frame = shield_frame,
	.cancel = shield_cancel,
	.wl_cancel = shield_wl_cancel,
};

static const void *touch_grab_now(struct wlr_seat *seat) {
	return seat->touch_state.grab;
}

static void touch_grab_start(struct wlr_seat *seat, void *grab) {
	wlr_seat_touch_start_grab(seat, grab);
}

static const struct orient_wlr_seat_grab_kind touch_grab = {
	.current = touch_grab_now,
	.taken = wlr_seat_touch_has_grab,
	.start = touch_grab_start,
	.end = wlr_seat_touch_end_grab,
};

struct glue_touch_shield *glue_touch_shield_create(struct wlr_seat *seat) {
	if (seat == NULL) {
		return NULL;
	}
	struct glue_touch_shield *shield = calloc(1, sizeof(*shield));
	if (shield != NULL) {
		shield->grab.interface = &shield_interface;
		shield->grab.data = shield;
		orient_wlr_seat_shield_init(&shield->base, seat, &touch_grab, &shield->grab);
	}
	return shield;
}

bool glue_touch_shield_hold(struct glue_touch_shield *shield, bool hold) {
	/* A claimed touch is over at its down (above): nothing to wait for. */
	return shield != NULL && orient_wlr_seat_shield_hold(&shield->base, hold, 0);
}

void glue_touch_shield_claim(struct glue_touch_shield *shield, int32_t touch_id, bool claimed) {
	if (shield != NULL) {
		orient_wlr_seat_shield_claim(&shield->base, touch_id, claimed);
	}
}

void glue_touch_shield_destroy(struct glue_touch_shield *shield) {
	if (shield != NULL) {
		orient_wlr_seat_shield_finish(&shield->base);
		free(shield);
	}
}

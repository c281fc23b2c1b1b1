/* A seat touch grab that keeps the touches the plugin claimed (a tap on the suggestion's target)
 * from the client under them, and passes every other one on as the default grab would. Mechanism
 * only: which touch is claimed is the plugin's. */
#include <stdlib.h>
#include "internal.h"

#define SHIELD_CLAIMS 10

struct glue_touch_shield {
	struct wlr_seat_touch_grab grab;
	struct wlr_seat *seat; /* NULL once the seat is destroyed */
	struct wl_listener seat_destroy;
	bool holding;
	int32_t claimed[SHIELD_CLAIMS];
	size_t count;
};

static bool shield_claims(struct glue_touch_shield *shield, int32_t id) {
	for (size_t i = 0; i < shield->count; i++) {
		if (shield->claimed[i] == id) {
			return true;
		}
	}
	return false;
}

static uint32_t shield_down(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	struct glue_touch_shield *shield = grab->data;
	if (shield_claims(shield, point->touch_id)) {
		return 0;
	}
	return wlr_seat_touch_send_down(grab->seat, point->surface, time_msec, point->touch_id, point->sx, point->sy);
}

#if ORIENT_WLR_TOUCH_GRAB_UP_HAS_SERIAL
static uint32_t shield_up(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	struct glue_touch_shield *shield = grab->data;
	if (shield_claims(shield, point->touch_id)) {
		glue_touch_shield_claim(shield, point->touch_id, false);
		return 0;
	}
	return wlr_seat_touch_send_up(grab->seat, time_msec, point->touch_id);
}
#else
static void shield_up(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	struct glue_touch_shield *shield = grab->data;
	if (shield_claims(shield, point->touch_id)) {
		glue_touch_shield_claim(shield, point->touch_id, false);
		return;
	}
	wlr_seat_touch_send_up(grab->seat, time_msec, point->touch_id);
}
#endif

static void shield_motion(struct wlr_seat_touch_grab *grab, uint32_t time_msec, struct wlr_touch_point *point) {
	struct glue_touch_shield *shield = grab->data;
	if (!shield_claims(shield, point->touch_id)) {
		wlr_seat_touch_send_motion(grab->seat, time_msec, point->touch_id, point->sx, point->sy);
	}
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
	shield->holding = false;
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

static void shield_handle_seat_destroy(struct wl_listener *listener, void *data) {
	struct glue_touch_shield *shield = wl_container_of(listener, shield, seat_destroy);
	orient_wlr_unlisten(&shield->seat_destroy);
	shield->seat = NULL;
	shield->holding = false;
}

struct glue_touch_shield *glue_touch_shield_create(struct wlr_seat *seat) {
	if (seat == NULL) {
		return NULL;
	}
	struct glue_touch_shield *shield = calloc(1, sizeof(*shield));
	if (shield != NULL) {
		shield->seat = seat;
		shield->grab.interface = &shield_interface;
		shield->grab.data = shield;
		orient_wlr_listen(&seat->events.destroy, &shield->seat_destroy, shield_handle_seat_destroy);
	}
	return shield;
}

bool glue_touch_shield_hold(struct glue_touch_shield *shield, bool hold) {
	if (shield == NULL || shield->seat == NULL) {
		return false;
	}
	/* Another grab (a popup's) may have replaced ours without cancelling it. */
	shield->holding = shield->holding && shield->seat->touch_state.grab == &shield->grab;
	if (hold && !shield->holding) {
		/* Over another grab (a drag, a popup's) we would end it: leave the touches to it. */
		if (wlr_seat_touch_has_grab(shield->seat)) {
			return false;
		}
		wlr_seat_touch_start_grab(shield->seat, &shield->grab);
		shield->holding = true;
	} else if (!hold && shield->holding) {
		shield->holding = false;
		if (shield->seat->touch_state.grab == &shield->grab) {
			wlr_seat_touch_end_grab(shield->seat);
		}
	}
	return shield->holding;
}

void glue_touch_shield_claim(struct glue_touch_shield *shield, int32_t touch_id, bool claimed) {
	if (shield == NULL) {
		return;
	}
	for (size_t i = 0; i < shield->count; i++) {
		if (shield->claimed[i] == touch_id) {
			if (!claimed) {
				shield->claimed[i] = shield->claimed[--shield->count];
			}
			return;
		}
	}
	if (claimed && shield->count < SHIELD_CLAIMS) {
		shield->claimed[shield->count++] = touch_id;
	}
}

void glue_touch_shield_destroy(struct glue_touch_shield *shield) {
	if (shield != NULL) {
		glue_touch_shield_hold(shield, false);
		if (shield->seat != NULL) {
			orient_wlr_unlisten(&shield->seat_destroy);
		}
		free(shield);
	}
}

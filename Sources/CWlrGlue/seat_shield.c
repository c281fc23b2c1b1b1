/* What the touch and pointer shields share (internal.h): the seat and its destruction, holding a
 * grab without breaking another, and the claims. */
#include "internal.h"

static void shield_handle_seat_destroy(struct wl_listener *listener, void *data) {
	struct orient_wlr_seat_shield *shield = wl_container_of(listener, shield, seat_destroy);
	orient_wlr_unlisten(&shield->seat_destroy);
	shield->seat = NULL;
	shield->holding = false;
}

void orient_wlr_seat_shield_init(struct orient_wlr_seat_shield *shield, struct wlr_seat *seat) {
	shield->seat = seat;
	orient_wlr_listen(&seat->events.destroy, &shield->seat_destroy, shield_handle_seat_destroy);
}

bool orient_wlr_seat_shield_hold(struct orient_wlr_seat_shield *shield, const struct orient_wlr_seat_grab_kind *kind,
		void *grab, bool hold) {
	if (shield->seat == NULL) {
		return false;
	}
	/* Another grab (a popup's, a move) may have replaced ours without cancelling it. */
	shield->holding = shield->holding && kind->current(shield->seat) == grab;
	if (hold && !shield->holding) {
		if (kind->taken(shield->seat)) {
			return false;
		}
		kind->start(shield->seat, grab);
		shield->holding = true;
	} else if (!hold && shield->holding) {
		shield->holding = false;
		if (kind->current(shield->seat) == grab) {
			kind->end(shield->seat);
		}
	}
	return shield->holding;
}

bool orient_wlr_seat_shield_claims(const struct orient_wlr_seat_shield *shield, int64_t id) {
	for (size_t i = 0; i < shield->count; i++) {
		if (shield->claimed[i] == id) {
			return true;
		}
	}
	return false;
}

void orient_wlr_seat_shield_claim(struct orient_wlr_seat_shield *shield, int64_t id, bool claimed) {
	for (size_t i = 0; i < shield->count; i++) {
		if (shield->claimed[i] == id) {
			if (!claimed) {
				shield->claimed[i] = shield->claimed[--shield->count];
			}
			return;
		}
	}
	if (claimed && shield->count < ORIENT_WLR_SHIELD_CLAIMS) {
		shield->claimed[shield->count++] = id;
	}
}

void orient_wlr_seat_shield_finish(struct orient_wlr_seat_shield *shield, const struct orient_wlr_seat_grab_kind *kind,
		void *grab) {
	orient_wlr_seat_shield_hold(shield, kind, grab, false);
	if (shield->seat != NULL) {
		orient_wlr_unlisten(&shield->seat_destroy);
	}
}

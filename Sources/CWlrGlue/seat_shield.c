/* What the touch and pointer shields share (internal.h): the seat and its destruction, holding a
 * grab without breaking another, letting it go once the claimed presses have ended, and the
 * claims. */
#include "internal.h"

/* Lets go of the seat now; what was claimed goes with it (the plugin claims afresh at each press). */
static void shield_release(struct orient_wlr_seat_shield *shield) {
	shield->releasing = false;
	shield->count = 0;
	if (shield->release_timer != NULL) {
		wl_event_source_timer_update(shield->release_timer, 0);
	}
	if (!shield->holding) {
		return;
	}
	shield->holding = false;
	if (shield->seat != NULL && shield->kind->current(shield->seat) == shield->grab) {
		shield->kind->end(shield->seat);
	}
}

static int shield_handle_release_timer(void *data) {
	struct orient_wlr_seat_shield *shield = data;
	/* A claimed press that has not ended in time may never end, as far as the seat knows. One the
	 * seat still holds pressed will (a pointer's button: libinput releases those of a device that
	 * goes), and its end must not reach an app that never saw it begin: held on for it. */
	if (shield->kind->pressed != NULL && shield->seat != NULL) {
		size_t kept = 0;
		for (size_t i = 0; i < shield->count; i++) {
			if (shield->kind->pressed(shield->seat, shield->claimed[i])) {
				shield->claimed[kept++] = shield->claimed[i];
			}
		}
		shield->count = kept;
		if (kept > 0) {
			wl_event_source_timer_update(shield->release_timer, shield->release_ms);
			return 0;
		}
	}
	shield_release(shield);
	return 0;
}

static void shield_forget_timer(struct orient_wlr_seat_shield *shield) {
	if (shield->release_timer != NULL) {
		wl_event_source_remove(shield->release_timer);
		shield->release_timer = NULL;
	}
}

static void shield_handle_seat_destroy(struct wl_listener *listener, void *data) {
	struct orient_wlr_seat_shield *shield = wl_container_of(listener, shield, seat_destroy);
	orient_wlr_unlisten(&shield->seat_destroy);
	/* Now, while the display's loop is there: the seat goes with the display. */
	shield_forget_timer(shield);
	shield->seat = NULL;
	shield->holding = false;
	shield->releasing = false;
}

void orient_wlr_seat_shield_init(struct orient_wlr_seat_shield *shield, struct wlr_seat *seat,
		const struct orient_wlr_seat_grab_kind *kind, void *grab) {
	shield->kind = kind;
	shield->grab = grab;
	shield->seat = seat;
	shield->release_timer = wl_event_loop_add_timer(wl_display_get_event_loop(seat->display),
		shield_handle_release_timer, shield);
	orient_wlr_listen(&seat->events.destroy, &shield->seat_destroy, shield_handle_seat_destroy);
}

bool orient_wlr_seat_shield_hold(struct orient_wlr_seat_shield *shield, bool hold, int release_ms) {
	if (shield->seat == NULL) {
		return false;
	}
	/* Another grab (a popup's, a move) may have replaced ours without cancelling it. */
	if (shield->holding && shield->kind->current(shield->seat) != shield->grab) {
		orient_wlr_seat_shield_cancelled(shield);
	}
	if (hold) {
		if (shield->releasing) {
			shield->releasing = false;
			wl_event_source_timer_update(shield->release_timer, 0);
		}
		if (!shield->holding) {
			if (shield->kind->taken(shield->seat)) {
				return false;
			}
			shield->kind->start(shield->seat, shield->grab);
			shield->holding = true;
		}
	} else if (shield->holding && !shield->releasing) {
		if (shield->count == 0 || release_ms <= 0 || shield->release_timer == NULL) {
			shield_release(shield);
		} else {
			shield->releasing = true;
			shield->release_ms = release_ms;
			wl_event_source_timer_update(shield->release_timer, release_ms);
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
				if (shield->releasing && shield->count == 0) {
					shield_release(shield);
				}
			}
			return;
		}
	}
	if (claimed && shield->count < ORIENT_WLR_SHIELD_CLAIMS) {
		shield->claimed[shield->count++] = id;
	}
}

void orient_wlr_seat_shield_cancelled(struct orient_wlr_seat_shield *shield) {
	shield->holding = false;
	shield->releasing = false;
	shield->count = 0;
	if (shield->release_timer != NULL) {
		wl_event_source_timer_update(shield->release_timer, 0);
	}
}

void orient_wlr_seat_shield_finish(struct orient_wlr_seat_shield *shield) {
	shield_release(shield);
	shield_forget_timer(shield);
	if (shield->seat != NULL) {
		orient_wlr_unlisten(&shield->seat_destroy);
	}
}

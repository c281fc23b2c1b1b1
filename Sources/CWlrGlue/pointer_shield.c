/* A seat pointer grab that keeps the button presses the plugin claimed (a click on the suggestion's
 * target), and their releases, from the client under the pointer, and passes everything else on
 * as the default grab would. Mechanism only: which press is claimed is the plugin's. */
#include <stdlib.h>
#include "internal.h"

struct glue_pointer_shield {
	struct wlr_seat_pointer_grab grab;
	struct orient_wlr_seat_shield base;
};

static void shield_enter(struct wlr_seat_pointer_grab *grab, struct wlr_surface *surface, double sx, double sy) {
	wlr_seat_pointer_enter(grab->seat, surface, sx, sy);
}

static void shield_clear_focus(struct wlr_seat_pointer_grab *grab) {
	wlr_seat_pointer_clear_focus(grab->seat);
}

static void shield_motion(struct wlr_seat_pointer_grab *grab, uint32_t time_msec, double sx, double sy) {
	wlr_seat_pointer_send_motion(grab->seat, time_msec, sx, sy);
}

static uint32_t shield_button(struct wlr_seat_pointer_grab *grab, uint32_t time_msec, uint32_t button,
		ORIENT_WLR_BUTTON_STATE state) {
	struct glue_pointer_shield *shield = grab->data;
	if (orient_wlr_seat_shield_claims(&shield->base, button)) {
		/* Pressed is 1 in both releases' enums. */
		if ((int)state != 1) {
			glue_pointer_shield_claim(shield, button, false);
		}
		return 0;
	}
	return wlr_seat_pointer_send_button(grab->seat, time_msec, button, state);
}

#if ORIENT_WLR_HAS_WL_POINTER_ENUMS
static void shield_axis(struct wlr_seat_pointer_grab *grab, uint32_t time_msec, enum wl_pointer_axis orientation,
		double value, int32_t value_discrete, enum wl_pointer_axis_source source,
		enum wl_pointer_axis_relative_direction relative_direction) {
	wlr_seat_pointer_send_axis(grab->seat, time_msec, orientation, value, value_discrete, source, relative_direction);
}
#else
static void shield_axis(struct wlr_seat_pointer_grab *grab, uint32_t time_msec, enum wlr_axis_orientation orientation,
		double value, int32_t value_discrete, enum wlr_axis_source source) {
	wlr_seat_pointer_send_axis(grab->seat, time_msec, orientation, value, value_discrete, source);
}
#endif

static void shield_frame(struct wlr_seat_pointer_grab *grab) {
	wlr_seat_pointer_send_frame(grab->seat);
}

static void shield_cancel(struct wlr_seat_pointer_grab *grab) {
	/* Another grab took the seat's pointer: ours is over. */
	struct glue_pointer_shield *shield = grab->data;
	orient_wlr_seat_shield_cancelled(&shield->base);
}

static const struct wlr_pointer_grab_interface shield_interface = {
	.enter = shield_enter,
	.clear_focus = shield_clear_focus,
	.motion = shield_motion,
	.button = shield_button,
	.axis = shield_axis,
	.frame = shield_frame,
	.cancel = shield_cancel,
};

static const void *pointer_grab_now(struct wlr_seat *seat) {
	return seat->pointer_state.grab;
}

static void pointer_grab_start(struct wlr_seat *seat, void *grab) {
	wlr_seat_pointer_start_grab(seat, grab);
}

static bool pointer_button_pressed(struct wlr_seat *seat, int64_t button) {
	for (size_t i = 0; i < seat->pointer_state.button_count; i++) {
#if ORIENT_WLR_HAS_SEAT_POINTER_BUTTON
		if (seat->pointer_state.buttons[i].button == button) {
#else
		if (seat->pointer_state.buttons[i] == button) {
#endif
			return true;
		}
	}
	return false;
}

static const struct orient_wlr_seat_grab_kind pointer_grab = {
	.current = pointer_grab_now,
	.taken = wlr_seat_pointer_has_grab,
	.start = pointer_grab_start,
	.end = wlr_seat_pointer_end_grab,
	.pressed = pointer_button_pressed,
};

struct glue_pointer_shield *glue_pointer_shield_create(struct wlr_seat *seat) {
	if (seat == NULL) {
		return NULL;
	}
	struct glue_pointer_shield *shield = calloc(1, sizeof(*shield));
	if (shield != NULL) {
		shield->grab.interface = &shield_interface;
		shield->grab.data = shield;
		orient_wlr_seat_shield_init(&shield->base, seat, &pointer_grab, &shield->grab);
	}
	return shield;
}

bool glue_pointer_shield_hold(struct glue_pointer_shield *shield, bool hold, int release_ms) {
	return shield != NULL && orient_wlr_seat_shield_hold(&shield->base, hold, release_ms);
}

void glue_pointer_shield_claim(struct glue_pointer_shield *shield, uint32_t button, bool claimed) {
	if (shield != NULL) {
		orient_wlr_seat_shield_claim(&shield->base, button, claimed);
	}
}

void glue_pointer_shield_destroy(struct glue_pointer_shield *shield) {
	if (shield != NULL) {
		orient_wlr_seat_shield_finish(&shield->base);
		free(shield);
	}
}

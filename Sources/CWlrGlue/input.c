/*
 * The backend's new outputs and input devices; what kind an input device is; mapping a
 * touchscreen or pen tablet to an output; a switch's tablet-mode toggles. wlroots 0.16 replaced
 * the input device's union by wlr_switch_from_input_device() and renamed the toggle event;
 * 0.18 renamed the tablet device type.
 */
#include <math.h>
#include "internal.h"
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_tablet_tool.h>
#include <wlr/types/wlr_touch.h>
#if ORIENT_WLR_HAS_UTIL_TRANSFORM
#include <wlr/util/transform.h>
#endif

/* --- The backend --- */

struct backend_watch {
	struct orient_wlr_watch base;
	struct wl_listener new_output;
	struct wl_listener new_input;
};

static void backend_handle_new_output(struct wl_listener *listener, void *data) {
	struct backend_watch *watch = wl_container_of(listener, watch, new_output);
	struct wlr_output *output = data;
	watch->base.events.backend.new_output(watch->base.events.context, output);
}

static void backend_handle_new_input(struct wl_listener *listener, void *data) {
	struct backend_watch *watch = wl_container_of(listener, watch, new_input);
	struct wlr_input_device *device = data;
	watch->base.events.backend.new_input(watch->base.events.context, device);
}

struct orient_wlr_watch *orient_wlr_watch_backend(struct wlr_backend *backend, const struct orient_wlr_backend_events *events) {
	if (backend == NULL || events == NULL) {
		return NULL;
	}
	const struct orient_wlr_watch_listener listeners[] = {
		{ &backend->events.new_output, offsetof(struct backend_watch, new_output), backend_handle_new_output },
		{ &backend->events.new_input, offsetof(struct backend_watch, new_input), backend_handle_new_input },
	};
	return orient_wlr_watch_create(sizeof(struct backend_watch), &backend->events.destroy,
		(union orient_wlr_watch_events){ .backend = *events }, NULL, listeners, ORIENT_WLR_LENGTH(listeners));
}

/* --- Input devices --- */

enum orient_wlr_input_kind orient_wlr_input_kind(struct wlr_input_device *device) {
	if (device == NULL) {
		return ORIENT_WLR_INPUT_OTHER;
	}
	switch (device->type) {
	case WLR_INPUT_DEVICE_TOUCH:
	case ORIENT_WLR_INPUT_DEVICE_TABLET:
		return ORIENT_WLR_INPUT_POSITIONAL;
	case WLR_INPUT_DEVICE_SWITCH:
		return ORIENT_WLR_INPUT_SWITCH;
	case WLR_INPUT_DEVICE_POINTER:
		return ORIENT_WLR_INPUT_POINTER;
	default:
		return ORIENT_WLR_INPUT_OTHER;
	}
}

void orient_wlr_cursor_map_to_output(struct wlr_cursor *cursor, struct wlr_input_device *device, struct wlr_output *output) {
	if (cursor != NULL && device != NULL) {
		wlr_cursor_map_input_to_output(cursor, device, output);
	}
}

/* --- Contacts: touches, a pen's tip, a pointer's buttons --- */

struct input_watch {
	struct orient_wlr_watch base;
	struct wlr_input_device *device;
	struct wlr_cursor *cursor;
	struct wl_listener down, up, motion, cancel;
};

static void input_contact(struct input_watch *watch, enum orient_wlr_contact_source source, int32_t id,
		enum orient_wlr_contact what, double x, double y, bool absolute) {
	/* A touchscreen's or a pen tablet's point as it came: in the device's own axes, before the
	 * cursor turns it by the output's transform. */
	double px = absolute ? x : NAN, py = absolute ? y : NAN;
	if (source == ORIENT_WLR_CONTACT_BUTTON && watch->cursor != NULL) {
		px = watch->cursor->x;
		py = watch->cursor->y;
	}
	if (watch->base.events.input.contact != NULL) {
		watch->base.events.input.contact(watch->base.events.context, source, id, what, px, py);
	}
}

#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
#define TOUCH_DOWN_EVENT struct wlr_touch_down_event
#define TOUCH_UP_EVENT struct wlr_touch_up_event
#define TOUCH_MOTION_EVENT struct wlr_touch_motion_event
#define TOUCH_CANCEL_EVENT struct wlr_touch_cancel_event
#define TIP_EVENT struct wlr_tablet_tool_tip_event
#define BUTTON_EVENT struct wlr_pointer_button_event
#else
#define TOUCH_DOWN_EVENT struct wlr_event_touch_down
#define TOUCH_UP_EVENT struct wlr_event_touch_up
#define TOUCH_MOTION_EVENT struct wlr_event_touch_motion
#define TOUCH_CANCEL_EVENT struct wlr_event_touch_cancel
#define TIP_EVENT struct wlr_event_tablet_tool_tip
#define BUTTON_EVENT struct wlr_event_pointer_button
#endif

static void touch_handle_down(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, down);
	const TOUCH_DOWN_EVENT *event = data;
	input_contact(watch, ORIENT_WLR_CONTACT_FINGER, event->touch_id, ORIENT_WLR_CONTACT_DOWN, event->x, event->y, true);
}

static void touch_handle_motion(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, motion);
	const TOUCH_MOTION_EVENT *event = data;
	input_contact(watch, ORIENT_WLR_CONTACT_FINGER, event->touch_id, ORIENT_WLR_CONTACT_MOTION, event->x, event->y, true);
}

static void touch_handle_up(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, up);
	const TOUCH_UP_EVENT *event = data;
	input_contact(watch, ORIENT_WLR_CONTACT_FINGER, event->touch_id, ORIENT_WLR_CONTACT_UP, 0, 0, false);
}

static void touch_handle_cancel(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, cancel);
	const TOUCH_CANCEL_EVENT *event = data;
	input_contact(watch, ORIENT_WLR_CONTACT_FINGER, event->touch_id, ORIENT_WLR_CONTACT_CANCEL, 0, 0, false);
}

static void tablet_handle_tip(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, down);
	const TIP_EVENT *event = data;
	bool down = event->state == WLR_TABLET_TOOL_TIP_DOWN;
	input_contact(watch, ORIENT_WLR_CONTACT_PEN, 0, down ? ORIENT_WLR_CONTACT_DOWN : ORIENT_WLR_CONTACT_UP,
		event->x, event->y, true);
}

static void pointer_handle_button(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, down);
	const BUTTON_EVENT *event = data;
	/* Pressed is 1 in wlr_button_state (to 0.17) and wl_pointer_button_state (from 0.18) alike. */
	bool pressed = (int)event->state == 1;
	input_contact(watch, ORIENT_WLR_CONTACT_BUTTON, (int32_t)event->button,
		pressed ? ORIENT_WLR_CONTACT_DOWN : ORIENT_WLR_CONTACT_UP, 0, 0, false);
}

/* A pointer frame ends each of its moves: the compositor has moved the cursor by then (its motion
 * listener ran), so the point it reports is where the pointer now is (the hover on the target). */
static void pointer_handle_frame(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, motion);
	input_contact(watch, ORIENT_WLR_CONTACT_BUTTON, -1, ORIENT_WLR_CONTACT_MOTION, 0, 0, false);
}

struct orient_wlr_watch *orient_wlr_watch_input(struct wlr_input_device *device, struct wlr_cursor *cursor,
		const struct orient_wlr_input_events *events) {
	if (device == NULL || events == NULL) {
		return NULL;
	}
	struct orient_wlr_watch_listener listeners[4];
	size_t count = 0;
	switch (device->type) {
	case WLR_INPUT_DEVICE_TOUCH: {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_touch *touch = wlr_touch_from_input_device(device);
#else
		struct wlr_touch *touch = device->touch;
#endif
		listeners[count++] = (struct orient_wlr_watch_listener){ &touch->events.down, offsetof(struct input_watch, down), touch_handle_down };
		listeners[count++] = (struct orient_wlr_watch_listener){ &touch->events.up, offsetof(struct input_watch, up), touch_handle_up };
		listeners[count++] = (struct orient_wlr_watch_listener){ &touch->events.motion, offsetof(struct input_watch, motion), touch_handle_motion };
		listeners[count++] = (struct orient_wlr_watch_listener){ &touch->events.cancel, offsetof(struct input_watch, cancel), touch_handle_cancel };
		break;
	}
	case ORIENT_WLR_INPUT_DEVICE_TABLET: {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_tablet *tablet = wlr_tablet_from_input_device(device);
#else
		struct wlr_tablet *tablet = device->tablet;
#endif
		listeners[count++] = (struct orient_wlr_watch_listener){ &tablet->events.tip, offsetof(struct input_watch, down), tablet_handle_tip };
		break;
	}
	case WLR_INPUT_DEVICE_POINTER: {
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
		struct wlr_pointer *pointer = wlr_pointer_from_input_device(device);
#else
		struct wlr_pointer *pointer = device->pointer;
#endif
		listeners[count++] = (struct orient_wlr_watch_listener){ &pointer->events.button, offsetof(struct input_watch, down), pointer_handle_button };
		listeners[count++] = (struct orient_wlr_watch_listener){ &pointer->events.frame, offsetof(struct input_watch, motion), pointer_handle_frame };
		break;
	}
	default:
		break;
	}
	struct orient_wlr_watch *base = orient_wlr_watch_create(sizeof(struct input_watch), &device->events.destroy,
		(union orient_wlr_watch_events){ .input = *events }, events->destroyed, listeners, count);
	if (base != NULL) {
		struct input_watch *watch = wl_container_of(base, watch, base);
		watch->device = device;
		watch->cursor = cursor;
		/* First of each signal's listeners: the plugin hears a contact before the cursor relays it
		 * to the compositor (whose seat grab may then keep a tap on the target from the client). */
		for (size_t i = 0; i < count; i++) {
			struct wl_listener *listener = (struct wl_listener *)((char *)watch + listeners[i].offset);
			wl_list_remove(&listener->link);
			wl_list_insert(&listeners[i].signal->listener_list, &listener->link);
		}
	}
	return base;
}

bool orient_wlr_output_buffer_point(struct wlr_output_layout *layout, struct wlr_output *output, double lx, double ly,
		double *bx, double *by) {
	if (layout == NULL || output == NULL || !isfinite(lx) || !isfinite(ly) ||
			!wlr_output_layout_contains_point(layout, output, (int)lx, (int)ly)) {
		return false;
	}
	double ox = lx, oy = ly;
	wlr_output_layout_output_coords(layout, output, &ox, &oy);
	int width, height;
	wlr_output_transformed_resolution(output, &width, &height);
	/* Layout units to the transformed buffer's pixels, then as wlroots turns damage into the
	 * buffer's frame: by the inverse of the output's transform. */
	struct wlr_box point = { .x = (int)(ox * output->scale), .y = (int)(oy * output->scale), .width = 1, .height = 1 };
	struct wlr_box turned;
	wlr_box_transform(&turned, &point, wlr_output_transform_invert(output->transform), width, height);
	*bx = turned.x;
	*by = turned.y;
	return true;
}

/* --- Switches --- */

struct switch_watch {
	struct orient_wlr_watch base;
	struct wl_listener toggle;
};

static void switch_handle_toggle(struct wl_listener *listener, void *data) {
	struct switch_watch *watch = wl_container_of(listener, watch, toggle);
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	const struct wlr_switch_toggle_event *event = data;
#else
	const struct wlr_event_switch_toggle *event = data;
#endif
	if (event == NULL || event->switch_type != WLR_SWITCH_TYPE_TABLET_MODE) {
		return;
	}
	int state = event->switch_state == WLR_SWITCH_STATE_ON ? 1 : event->switch_state == WLR_SWITCH_STATE_OFF ? 0 : -1;
	watch->base.events.device_switch.tablet_mode(watch->base.events.context, state);
}

struct orient_wlr_watch *orient_wlr_watch_switch(struct wlr_input_device *device, const struct orient_wlr_switch_events *events) {
	if (device == NULL || events == NULL || device->type != WLR_INPUT_DEVICE_SWITCH) {
		return NULL;
	}
#if ORIENT_WLR_HAS_TYPED_INPUT_DEVICES
	struct wlr_switch *device_switch = wlr_switch_from_input_device(device);
#else
	struct wlr_switch *device_switch = device->switch_device;
#endif
	if (device_switch == NULL) {
		return NULL;
	}
	const struct orient_wlr_watch_listener listeners[] = {
		{ &device_switch->events.toggle, offsetof(struct switch_watch, toggle), switch_handle_toggle },
	};
	return orient_wlr_watch_create(sizeof(struct switch_watch), &device->events.destroy,
		(union orient_wlr_watch_events){ .device_switch = *events }, events->destroyed, listeners,
		ORIENT_WLR_LENGTH(listeners));
}

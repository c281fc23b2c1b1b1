/*
 * The backend's new outputs and input devices; what kind an input device is; mapping a
 * touchscreen or pen tablet to an output; a switch's tablet-mode toggles. wlroots 0.16 replaced
 * the input device's union by wlr_switch_from_input_device() and renamed the toggle event;
 * 0.18 renamed the tablet device type.
 */
#include "internal.h"

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
	default:
		return ORIENT_WLR_INPUT_OTHER;
	}
}

void orient_wlr_cursor_map_to_output(struct wlr_cursor *cursor, struct wlr_input_device *device, struct wlr_output *output) {
	if (cursor != NULL && device != NULL) {
		wlr_cursor_map_input_to_output(cursor, device, output);
	}
}

/* An input device's watch has its destroy listener alone. */
struct orient_wlr_watch *orient_wlr_watch_input(struct wlr_input_device *device, const struct orient_wlr_input_events *events) {
	if (device == NULL || events == NULL) {
		return NULL;
	}
	return orient_wlr_watch_create(sizeof(struct orient_wlr_watch), &device->events.destroy,
		(union orient_wlr_watch_events){ .input = *events }, events->destroyed, NULL, 0);
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

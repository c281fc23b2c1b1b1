/*
 * The backend's new outputs and input devices; what kind an input device is; mapping a
 * touchscreen or pen tablet to an output; a switch's tablet-mode toggles. wlroots 0.16 replaced
 * the input device's union by wlr_switch_from_input_device() and renamed the toggle event;
 * 0.18 renamed the tablet device type.
 */
#include <stdlib.h>
#include "internal.h"

/* --- The backend --- */

struct backend_watch {
	struct orient_wlr_watch base;
	struct orient_wlr_backend_events events;
	struct wl_listener new_output;
	struct wl_listener new_input;
	struct wl_listener destroy;
};

static void backend_watch_unhook(struct orient_wlr_watch *base) {
	struct backend_watch *watch = wl_container_of(base, watch, base);
	orient_wlr_unlisten(&watch->new_output);
	orient_wlr_unlisten(&watch->new_input);
	orient_wlr_unlisten(&watch->destroy);
}

static void backend_handle_new_output(struct wl_listener *listener, void *data) {
	struct backend_watch *watch = wl_container_of(listener, watch, new_output);
	watch->events.new_output(watch->events.context, data);
}

static void backend_handle_new_input(struct wl_listener *listener, void *data) {
	struct backend_watch *watch = wl_container_of(listener, watch, new_input);
	watch->events.new_input(watch->events.context, data);
}

static void backend_handle_destroy(struct wl_listener *listener, void *data) {
	struct backend_watch *watch = wl_container_of(listener, watch, destroy);
	backend_watch_unhook(&watch->base);
}

struct orient_wlr_watch *orient_wlr_watch_backend(struct wlr_backend *backend, const struct orient_wlr_backend_events *events) {
	if (backend == NULL || events == NULL) {
		return NULL;
	}
	struct backend_watch *watch = calloc(1, sizeof(*watch));
	if (watch == NULL) {
		return NULL;
	}
	watch->base.unhook = backend_watch_unhook;
	watch->events = *events;
	orient_wlr_listen(&backend->events.new_output, &watch->new_output, backend_handle_new_output);
	orient_wlr_listen(&backend->events.new_input, &watch->new_input, backend_handle_new_input);
	orient_wlr_listen(&backend->events.destroy, &watch->destroy, backend_handle_destroy);
	return &watch->base;
}

/* --- Input devices --- */

enum orient_wlr_input_kind orient_wlr_input_kind(struct wlr_input_device *device) {
	if (device == NULL) {
		return ORIENT_WLR_INPUT_OTHER;
	}
	switch (device->type) {
	case WLR_INPUT_DEVICE_TOUCH:
#if ORIENT_WLR_AT_LEAST(0, 18)
	case WLR_INPUT_DEVICE_TABLET:
#else
	case WLR_INPUT_DEVICE_TABLET_TOOL:
#endif
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

struct input_watch {
	struct orient_wlr_watch base;
	struct orient_wlr_input_events events;
	struct wl_listener destroy;
};

static void input_watch_unhook(struct orient_wlr_watch *base) {
	struct input_watch *watch = wl_container_of(base, watch, base);
	orient_wlr_unlisten(&watch->destroy);
}

static void input_handle_destroy(struct wl_listener *listener, void *data) {
	struct input_watch *watch = wl_container_of(listener, watch, destroy);
	struct orient_wlr_input_events events = watch->events;
	input_watch_unhook(&watch->base);
	events.destroyed(events.context);
}

struct orient_wlr_watch *orient_wlr_watch_input(struct wlr_input_device *device, const struct orient_wlr_input_events *events) {
	if (device == NULL || events == NULL) {
		return NULL;
	}
	struct input_watch *watch = calloc(1, sizeof(*watch));
	if (watch == NULL) {
		return NULL;
	}
	watch->base.unhook = input_watch_unhook;
	watch->events = *events;
	orient_wlr_listen(&device->events.destroy, &watch->destroy, input_handle_destroy);
	return &watch->base;
}

/* --- Switches --- */

struct switch_watch {
	struct orient_wlr_watch base;
	struct orient_wlr_switch_events events;
	struct wl_listener toggle;
	struct wl_listener destroy;
};

static void switch_watch_unhook(struct orient_wlr_watch *base) {
	struct switch_watch *watch = wl_container_of(base, watch, base);
	orient_wlr_unlisten(&watch->toggle);
	orient_wlr_unlisten(&watch->destroy);
}

static void switch_handle_toggle(struct wl_listener *listener, void *data) {
	struct switch_watch *watch = wl_container_of(listener, watch, toggle);
#if ORIENT_WLR_AT_LEAST(0, 16)
	const struct wlr_switch_toggle_event *event = data;
#else
	const struct wlr_event_switch_toggle *event = data;
#endif
	if (event == NULL || event->switch_type != WLR_SWITCH_TYPE_TABLET_MODE) {
		return;
	}
	int state = event->switch_state == WLR_SWITCH_STATE_ON ? 1 : event->switch_state == WLR_SWITCH_STATE_OFF ? 0 : -1;
	watch->events.tablet_mode(watch->events.context, state);
}

static void switch_handle_destroy(struct wl_listener *listener, void *data) {
	struct switch_watch *watch = wl_container_of(listener, watch, destroy);
	struct orient_wlr_switch_events events = watch->events;
	switch_watch_unhook(&watch->base);
	events.destroyed(events.context);
}

struct orient_wlr_watch *orient_wlr_watch_switch(struct wlr_input_device *device, const struct orient_wlr_switch_events *events) {
	if (device == NULL || events == NULL || device->type != WLR_INPUT_DEVICE_SWITCH) {
		return NULL;
	}
#if ORIENT_WLR_AT_LEAST(0, 16)
	struct wlr_switch *device_switch = wlr_switch_from_input_device(device);
#else
	struct wlr_switch *device_switch = device->switch_device;
#endif
	if (device_switch == NULL) {
		return NULL;
	}
	struct switch_watch *watch = calloc(1, sizeof(*watch));
	if (watch == NULL) {
		return NULL;
	}
	watch->base.unhook = switch_watch_unhook;
	watch->events = *events;
	orient_wlr_listen(&device_switch->events.toggle, &watch->toggle, switch_handle_toggle);
	orient_wlr_listen(&device->events.destroy, &watch->destroy, switch_handle_destroy);
	return &watch->base;
}

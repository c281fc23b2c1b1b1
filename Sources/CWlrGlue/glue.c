/*
 * What every watch does, the plugin object, the log, the display's destroy listener, the layout
 * and output management: the glue that is the same in every wlroots release but for a name or two.
 */
#include <stdlib.h>
#include "internal.h"

const char *orient_wlr_version(void) {
	return WLR_VERSION_STR;
}

/* --- Watches --- */

static void watch_listen(struct orient_wlr_watch *watch, struct wl_signal *signal, struct wl_listener *listener,
		wl_notify_func_t notify) {
	orient_wlr_listen(signal, listener, notify);
	watch->listeners[watch->count++] = listener;
}

/* Removes every listener the watch added and releases what goes with them; doing it again does
 * nothing. */
static void watch_unhook(struct orient_wlr_watch *watch) {
	if (watch->count == 0) {
		return; /* unhooked already (a hooked watch has its destroy listener at least) */
	}
	for (size_t i = 0; i < watch->count; i++) {
		orient_wlr_unlisten(watch->listeners[i]);
	}
	watch->count = 0;
	if (watch->release != NULL) {
		watch->release(watch);
	}
}

static void watch_handle_destroy(struct wl_listener *listener, void *data) {
	struct orient_wlr_watch *watch = wl_container_of(listener, watch, destroy);
	/* Unhooked before the last word: from 0.19 wlroots asserts that no listener is left. The owner
	 * may destroy the watch in `destroyed`: nothing of it is read after. */
	watch_unhook(watch);
	if (watch->destroyed != NULL) {
		watch->destroyed(watch->events.context);
	}
}

struct orient_wlr_watch *orient_wlr_watch_create(size_t size, struct wl_signal *destroy,
		union orient_wlr_watch_events events, void (*destroyed)(void *context),
		const struct orient_wlr_watch_listener *listeners, size_t count) {
	/* More listeners than a watch records is the glue's own mistake: no watch and a log line, not
	 * a crash (the tests would find the object unwatched). */
	if (count >= ORIENT_WLR_WATCH_LISTENERS) {
		wlr_log(WLR_ERROR, "wlr-orient: a watch asked for %zu listeners, more than the %d it records",
			count + 1, ORIENT_WLR_WATCH_LISTENERS);
		return NULL;
	}
	struct orient_wlr_watch *watch = calloc(1, size);
	if (watch == NULL) {
		return NULL;
	}
	watch->events = events;
	watch->destroyed = destroyed;
	watch_listen(watch, destroy, &watch->destroy, watch_handle_destroy);
	for (size_t i = 0; i < count; i++) {
		struct wl_listener *listener = (struct wl_listener *)((char *)watch + listeners[i].offset);
		watch_listen(watch, listeners[i].signal, listener, listeners[i].notify);
	}
	return watch;
}

void orient_wlr_watch_destroy(struct orient_wlr_watch *watch) {
	if (watch != NULL) {
		watch_unhook(watch);
		free(watch); /* the watch's own struct, which starts with it */
	}
}

/* --- The display's destroy listener (libwayland keeps the signal private) --- */

struct glue_listener {
	struct wl_listener listener;
	void *context;
	void (*callback)(void *context);
};

static void glue_notify(struct wl_listener *listener, void *data) {
	struct glue_listener *glue = wl_container_of(listener, glue, listener);
	glue->callback(glue->context);
}

struct glue_listener *glue_listener_create_display_destroy(struct wl_display *display, void *context,
		void (*callback)(void *context)) {
	if (display == NULL || callback == NULL) {
		return NULL;
	}
	struct glue_listener *glue = calloc(1, sizeof(*glue));
	if (glue == NULL) {
		return NULL;
	}
	glue->context = context;
	glue->callback = callback;
	glue->listener.notify = glue_notify;
	wl_display_add_destroy_listener(display, &glue->listener);
	return glue;
}

void glue_listener_destroy(struct glue_listener *glue) {
	if (glue == NULL) {
		return;
	}
	wl_list_remove(&glue->listener.link);
	free(glue);
}

/* --- The plugin object --- */

struct glue_orient {
	struct wlr_orient orient;
	void *impl;
};

struct wlr_orient *glue_orient_alloc(void *impl) {
	struct glue_orient *glue = calloc(1, sizeof(*glue));
	if (glue == NULL) {
		return NULL;
	}
	glue->impl = impl;
	wl_signal_init(&glue->orient.events.output_transformed);
	wl_signal_init(&glue->orient.events.destroy);
	return &glue->orient;
}

void *glue_orient_impl(struct wlr_orient *orient) {
	struct glue_orient *glue = wl_container_of(orient, glue, orient);
	return glue->impl;
}

void glue_orient_set_impl(struct wlr_orient *orient, void *impl) {
	struct glue_orient *glue = wl_container_of(orient, glue, orient);
	glue->impl = impl;
}

void glue_orient_free(struct wlr_orient *orient) {
	struct glue_orient *glue = wl_container_of(orient, glue, orient);
	free(glue);
}

void glue_orient_emit_output_transformed(struct wlr_orient *orient, struct wlr_output *output) {
	wl_signal_emit(&orient->events.output_transformed, output);
}

void glue_orient_emit_destroy(struct wlr_orient *orient) {
	wl_signal_emit(&orient->events.destroy, orient);
}

/* --- The log --- */

void glue_log(enum orient_wlr_log_level level, const char *message) {
	enum wlr_log_importance importance = level == ORIENT_WLR_LOG_DEBUG ? WLR_DEBUG
		: level == ORIENT_WLR_LOG_INFO ? WLR_INFO : WLR_ERROR;
	wlr_log(importance, "[wlr-orient] %s", message);
}

/* --- The layout and output management --- */

void orient_wlr_layout_for_each(struct wlr_output_layout *layout, void *context,
		void (*callback)(void *context, struct wlr_output *output)) {
	if (layout == NULL) {
		return;
	}
	struct wlr_output_layout_output *l_output, *tmp;
	wl_list_for_each_safe(l_output, tmp, &layout->outputs, link) {
		callback(context, l_output->output);
	}
}

void orient_wlr_publish_output_configuration(struct wlr_output_manager_v1 *manager, struct wlr_output_layout *layout) {
	if (manager == NULL || layout == NULL) {
		return;
	}
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	if (config == NULL) {
		return;
	}
	struct wlr_output_layout_output *l_output;
	wl_list_for_each(l_output, &layout->outputs, link) {
		struct wlr_output_configuration_head_v1 *head =
			wlr_output_configuration_head_v1_create(config, l_output->output);
		if (head == NULL) {
			continue;
		}
		head->state.x = l_output->x;
		head->state.y = l_output->y;
	}
	wlr_output_manager_v1_set_configuration(manager, config);
}

/* --- Watching wlr-output-management --- */

struct output_manager_watch {
	struct orient_wlr_watch base;
	struct wl_listener apply;
};

static void output_manager_handle_apply(struct wl_listener *listener, void *data) {
	struct output_manager_watch *watch = wl_container_of(listener, watch, apply);
	struct wlr_output_configuration_v1 *config = data;
	pid_t pid = 0;
	if (config->resource != NULL) {
		wl_client_get_credentials(wl_resource_get_client(config->resource), &pid, NULL, NULL);
	}
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		if (head->state.enabled && head->state.output != NULL) {
			watch->base.events.output_manager.applying(watch->base.events.context, head->state.output,
				(int)head->state.transform, (int)pid);
		}
	}
}

struct orient_wlr_watch *orient_wlr_watch_output_manager(struct wlr_output_manager_v1 *manager,
		const struct orient_wlr_output_manager_events *events) {
	if (manager == NULL || events == NULL) {
		return NULL;
	}
	const struct orient_wlr_watch_listener listeners[] = {
		{ &manager->events.apply, offsetof(struct output_manager_watch, apply), output_manager_handle_apply },
	};
	struct orient_wlr_watch *base = orient_wlr_watch_create(sizeof(struct output_manager_watch), &manager->events.destroy,
		(union orient_wlr_watch_events){ .output_manager = *events }, NULL, listeners, ORIENT_WLR_LENGTH(listeners));
	if (base != NULL) {
		/* First of the apply's listeners: the plugin hears whose the transform is before the
		 * compositor's handler commits it. */
		struct output_manager_watch *watch = wl_container_of(base, watch, base);
		wl_list_remove(&watch->apply.link);
		wl_list_insert(&manager->events.apply.listener_list, &watch->apply.link);
	}
	return base;
}

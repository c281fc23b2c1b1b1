/*
 * The plugin object, the log, the display's destroy listener, the layout and output management:
 * the glue that is the same in every wlroots release but for a name or two.
 */
#include <stdlib.h>
#include "internal.h"

const char *orient_wlr_version(void) {
	return WLR_VERSION_STR;
}

void orient_wlr_watch_destroy(struct orient_wlr_watch *watch) {
	if (watch != NULL) {
		watch->unhook(watch);
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

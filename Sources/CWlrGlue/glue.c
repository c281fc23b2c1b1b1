#include <stdlib.h>
#include "wlr_orient_glue.h"

struct glue_listener {
	struct wl_listener listener;
	void *context;
	glue_callback callback;
};

static void glue_notify(struct wl_listener *listener, void *data) {
	struct glue_listener *glue = wl_container_of(listener, glue, listener);
	glue->callback(glue->context, data);
}

static struct glue_listener *glue_listener_alloc(void *context, glue_callback callback) {
	struct glue_listener *glue = calloc(1, sizeof(*glue));
	if (glue != NULL) {
		glue->context = context;
		glue->callback = callback;
		glue->listener.notify = glue_notify;
	}
	return glue;
}

struct glue_listener *glue_listener_create(struct wl_signal *signal, void *context, glue_callback callback) {
	struct glue_listener *glue = glue_listener_alloc(context, callback);
	if (glue != NULL) {
		wl_signal_add(signal, &glue->listener);
	}
	return glue;
}

struct glue_listener *glue_listener_create_display_destroy(struct wl_display *display, void *context,
		glue_callback callback) {
	struct glue_listener *glue = glue_listener_alloc(context, callback);
	if (glue != NULL) {
		wl_display_add_destroy_listener(display, &glue->listener);
	}
	return glue;
}

void glue_listener_destroy(struct glue_listener *glue) {
	if (glue == NULL) {
		return;
	}
	wl_list_remove(&glue->listener.link);
	free(glue);
}

/* The public struct, and behind it the plugin object it belongs to. */
struct glue_orient {
	struct wlr_orient base;
	void *impl;
};

struct wlr_orient *glue_orient_alloc(void *impl) {
	struct glue_orient *orient = calloc(1, sizeof(*orient));
	if (orient == NULL) {
		return NULL;
	}
	wl_signal_init(&orient->base.events.output_transformed);
	wl_signal_init(&orient->base.events.destroy);
	orient->impl = impl;
	return &orient->base;
}

void *glue_orient_impl(struct wlr_orient *orient) {
	struct glue_orient *glue = wl_container_of(orient, glue, base);
	return glue->impl;
}

void glue_orient_set_impl(struct wlr_orient *orient, void *impl) {
	struct glue_orient *glue = wl_container_of(orient, glue, base);
	glue->impl = impl;
}

void glue_orient_free(struct wlr_orient *orient) {
	struct glue_orient *glue = wl_container_of(orient, glue, base);
	free(glue);
}

void glue_signal_emit(struct wl_signal *signal, void *data) {
	wl_signal_emit(signal, data);
}

void glue_log(enum wlr_log_importance importance, const char *message) {
	wlr_log(importance, "[wlr-orient] %s", message);
}

void glue_output_layout_for_each(struct wlr_output_layout *layout, void *context,
		void (*callback)(void *context, struct wlr_output *output)) {
	struct wlr_output_layout_output *l_output, *tmp;
	wl_list_for_each_safe(l_output, tmp, &layout->outputs, link) {
		callback(context, l_output->output);
	}
}

void glue_publish_output_configuration(struct wlr_output_manager_v1 *manager, struct wlr_output_layout *layout) {
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

#include "event_loop_glue.h"

struct wl_event_source *glue_add_fd(struct wl_event_loop *loop, int fd, void *context,
		int (*callback)(int fd, uint32_t mask, void *context)) {
	return wl_event_loop_add_fd(loop, fd, WL_EVENT_READABLE, callback, context);
}

struct wl_event_source *glue_add_timer(struct wl_event_loop *loop, void *context, int (*callback)(void *context)) {
	return wl_event_loop_add_timer(loop, callback, context);
}

struct wl_event_source *glue_add_idle(struct wl_event_loop *loop, void *context, void (*callback)(void *context)) {
	return wl_event_loop_add_idle(loop, callback, context);
}

struct wl_event_source *glue_add_signal(struct wl_event_loop *loop, int signal, void *context,
		int (*callback)(int signal, void *context)) {
	return wl_event_loop_add_signal(loop, signal, callback, context);
}

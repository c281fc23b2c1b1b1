/*
 * The C calls that the plugin and the daemon make on a libwayland event loop (with a context
 * pointer, which Swift's closures cannot be). Mechanism only; no wlroots here, so the daemon runs
 * beside any compositor. The calls on processes and sockets are CSystem's: no Wayland there.
 */
#ifndef WLR_ORIENT_EVENT_LOOP_GLUE_H
#define WLR_ORIENT_EVENT_LOOP_GLUE_H

#include <stdint.h>
#include <wayland-server-core.h>

/* Event-loop sources with a context pointer (a readable fd, a timer, an idle call). */
struct wl_event_source *glue_add_fd(struct wl_event_loop *loop, int fd, void *context,
	int (*callback)(int fd, uint32_t mask, void *context));
struct wl_event_source *glue_add_timer(struct wl_event_loop *loop, void *context, int (*callback)(void *context));
/* Runs once, when the loop is next idle (the plugin starts its control socket there: the host has
 * named its display socket by then). */
struct wl_event_source *glue_add_idle(struct wl_event_loop *loop, void *context, void (*callback)(void *context));
/* A signal's number, read on the loop (signalfd): the daemon ends cleanly on SIGTERM and SIGINT. */
struct wl_event_source *glue_add_signal(struct wl_event_loop *loop, int signal, void *context,
	int (*callback)(int signal, void *context));

#endif

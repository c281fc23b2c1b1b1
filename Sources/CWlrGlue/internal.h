/*
 * What the glue's C files share and Swift never sees: wlroots' own headers, and what differs
 * between the wlroots releases supported (orient_wlr_features.h: each difference named once, and
 * asked for by that name with an #if where it is used).
 */
#ifndef ORIENT_WLR_INTERNAL_H
#define ORIENT_WLR_INTERNAL_H

#define WLR_USE_UNSTABLE 1

#include <stddef.h>
#include <pixman.h>
#include <wayland-server-core.h>
#include "orient_wlr_features.h"
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_switch.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>

#include "orient_wlr.h"

#if ORIENT_WLR_HAS_BUFFER_INTERFACE
#include <wlr/interfaces/wlr_buffer.h>
#endif
#if ORIENT_WLR_HAS_OUTPUT_STATE
#include <wlr/interfaces/wlr_output.h> /* wlr_output_send_request_state */
#include <wlr/render/pass.h>
#include <wlr/types/wlr_compositor.h>
#endif

/* The owner's callbacks, of whichever kind the watch is (orient_wlr.h). Each kind's struct begins
 * with the context they are called with: `context` reads it whatever the kind. */
union orient_wlr_watch_events {
	void *context;
	struct orient_wlr_backend_events backend;
	struct orient_wlr_shell_events shell;
	struct orient_wlr_seat_events seat;
	struct orient_wlr_output_manager_events output_manager;
	struct orient_wlr_output_events output;
	struct orient_wlr_toplevel_events toplevel;
	struct orient_wlr_input_events input;
	struct orient_wlr_switch_events device_switch;
};

/* The most listeners one watch adds, its destroy listener included: a toplevel's map, unmap,
 * set_app_id, commit and destroy. A watch asked for more is not made (and says so in the log). */
#define ORIENT_WLR_WATCH_LISTENERS 5

/* What every watch starts with (as its first member: orient_wlr_watch_destroy frees it): the
 * owner's callbacks, and the listeners it added, so that one call removes them all and none can be
 * forgotten (from 0.19 wlroots asserts that no listener is left on an object it destroys). Every
 * watch listens to its object's destroy signal: when its object goes it removes its listeners,
 * then says so (`destroyed`, for the kinds that have it), and it is freed only by
 * orient_wlr_watch_destroy, so that its owner never holds a freed pointer. */
struct orient_wlr_watch {
	struct wl_listener destroy;
	union orient_wlr_watch_events events;
	void (*destroyed)(void *context); /* NULL: the owner is not told */
	struct wl_listener *listeners[ORIENT_WLR_WATCH_LISTENERS];
	size_t count;
	/* What goes with the listeners (NULL: nothing), released when they are removed. */
	void (*release)(struct orient_wlr_watch *watch);
};

/* One of a watch's listeners besides its destroy listener, as its create function names it: the
 * signal, where the listener is in the watch's own struct (offsetof), its handler. */
struct orient_wlr_watch_listener {
	struct wl_signal *signal;
	size_t offset;
	wl_notify_func_t notify;
};

/* How many elements an array has. */
#define ORIENT_WLR_LENGTH(array) (sizeof(array) / sizeof((array)[0]))

/* A new watch, its own struct `size` bytes long (zeroed but for the base it starts with), with the
 * owner's `events` and `destroyed` (NULL: not told), on its object's `destroy` signal and the
 * `count` `listeners`. NULL without memory. */
struct orient_wlr_watch *orient_wlr_watch_create(size_t size, struct wl_signal *destroy,
	union orient_wlr_watch_events events, void (*destroyed)(void *context),
	const struct orient_wlr_watch_listener *listeners, size_t count);

/* Adds `listener` with `notify` to `signal`. */
static inline void orient_wlr_listen(struct wl_signal *signal, struct wl_listener *listener, wl_notify_func_t notify) {
	listener->notify = notify;
	wl_signal_add(signal, listener);
}

/* Removes `listener` from its signal; removing it again does nothing. */
static inline void orient_wlr_unlisten(struct wl_listener *listener) {
	wl_list_remove(&listener->link);
	wl_list_init(&listener->link);
}

/* What both seat shields (touch_shield.c, pointer_shield.c) share: the seat their grab is on,
 * forgotten when it goes; whether their grab holds the seat now; and what the plugin claimed (a
 * touch's id, a pointer button), kept from the client. Let go while a claimed press is still down,
 * a shield can keep the seat until it ends, for the time its owner gives: its release would
 * otherwise reach the client, which never had the press; and one that never ends (kept by the
 * compositor, its device gone) must not keep the seat for good. Mechanism only. */
#define ORIENT_WLR_SHIELD_CLAIMS 10

/* The seat's grab calls of one kind (touch or pointer). */
struct orient_wlr_seat_grab_kind {
	const void *(*current)(struct wlr_seat *seat); /* the seat's grab of this kind now */
	bool (*taken)(struct wlr_seat *seat);          /* a grab other than the default holds it */
	void (*start)(struct wlr_seat *seat, void *grab);
	void (*end)(struct wlr_seat *seat);
	/* Whether the seat holds `id` pressed now; NULL: it cannot tell (a lost touch-up leaves a point
	 * the seat keeps), and the grab lets go after `release_ms` whatever it holds. */
	bool (*pressed)(struct wlr_seat *seat, int64_t id);
};

struct orient_wlr_seat_shield {
	const struct orient_wlr_seat_grab_kind *kind;
	void *grab;
	struct wlr_seat *seat; /* NULL once the seat is destroyed */
	struct wl_listener seat_destroy;
	struct wl_event_source *release_timer; /* NULL: none could be made (then it lets go at once) */
	bool holding;
	bool releasing; /* let go of, holding on until the claimed presses end */
	int release_ms;
	int64_t claimed[ORIENT_WLR_SHIELD_CLAIMS];
	size_t count;
};

void orient_wlr_seat_shield_init(struct orient_wlr_seat_shield *shield, struct wlr_seat *seat,
	const struct orient_wlr_seat_grab_kind *kind, void *grab);
/* Starts or lets go of the grab; whether it holds the seat now. Never over another grab (a drag's,
 * a popup's, a move): ending it would break what the person is doing. Let go while a claimed press
 * is down, it holds on until that press ends: `release_ms` at most (0: lets go at once), unless the
 * seat still holds it pressed (the kind's `pressed`), then until it ends. */
bool orient_wlr_seat_shield_hold(struct orient_wlr_seat_shield *shield, bool hold, int release_ms);
bool orient_wlr_seat_shield_claims(const struct orient_wlr_seat_shield *shield, int64_t id);
/* Claims or frees `id`; the last claimed one freed while letting go ends the grab. */
void orient_wlr_seat_shield_claim(struct orient_wlr_seat_shield *shield, int64_t id, bool claimed);
/* The grab was ended by another (its interface's cancel). */
void orient_wlr_seat_shield_cancelled(struct orient_wlr_seat_shield *shield);
/* Ends the grab, removes the timer and the seat's listener. */
void orient_wlr_seat_shield_finish(struct orient_wlr_seat_shield *shield);

#endif

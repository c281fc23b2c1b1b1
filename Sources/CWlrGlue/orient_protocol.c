/*
 * The server side of protocol/wlr-orient-v1.xml: the global, one object per toplevel, their
 * lifetimes. No decisions: requests go to the plugin's callbacks, which check the values (and may
 * post a protocol error through glue_orient_object_post_error) and decide what they mean.
 */
#include <stdlib.h>
#include "internal.h"
#include "wlr-orient-v1-protocol.h"

struct glue_protocol {
	struct wl_global *global;
	void *context;
	struct glue_protocol_callbacks callbacks;
	struct wl_list clients;  /* glue_protocol_client.link: those holding live objects */
	struct wl_list managers; /* wl_resource_get_link() of bound managers */
};

/* A client holding live objects. When it goes, libwayland says so before it destroys the
 * client's resources one by one: all its objects are reported gone then, in one call, so that a
 * client leaving with thousands of objects costs the plugin one decision, not thousands. */
struct glue_protocol_client {
	struct wl_listener destroy;      /* the wl_client's destroy signal */
	struct wl_client *client;
	struct glue_protocol *protocol;
	struct wl_list objects;          /* glue_orient_object.link */
	struct wl_list link;             /* glue_protocol.clients */
};

/* The resources whose destruction ends a toplevel in wlroots 0.15: the xdg_toplevel (its role is
 * reset), the xdg_surface, the wl_surface and the client's xdg_wm_base (each frees the
 * wlr_xdg_surface). The xdg_surface's own `destroy` signal is not enough: 0.15 emits it only for
 * a surface that has had its initial commit, and a client may make its object, then go, before. */
enum { WATCHED_COUNT = 4 };

/* A destroy listener on one of those resources, knowing its object. */
struct glue_orient_watch {
	struct wl_listener listener;
	struct glue_orient_object *object;
};

struct glue_orient_object {
	struct wl_resource *resource;
	struct glue_protocol *protocol;  /* NULL once the plugin is gone */
	struct wlr_xdg_surface *surface; /* NULL once inert (its toplevel was destroyed) */
	struct glue_orient_watch gone[WATCHED_COUNT];
	struct wl_list link;             /* glue_protocol_client.objects while live, else empty */
};

static const struct wlr_orient_toplevel_v1_interface object_impl;

static struct glue_orient_object *object_from_resource(struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

/* The object no longer speaks for a toplevel: unhooked from everything; returns the toplevel it
 * spoke for (NULL if it was inert already). The caller tells the plugin. */
static struct wlr_xdg_surface *object_unhook(struct glue_orient_object *object) {
	struct wlr_xdg_surface *surface = object->surface;
	if (surface == NULL) {
		return NULL;
	}
	object->surface = NULL;
	/* A resource that was destroyed already has unhooked its listener (libwayland's final emit
	 * leaves the link initialised): removing every one is safe. */
	for (int i = 0; i < WATCHED_COUNT; i++) {
		orient_wlr_unlisten(&object->gone[i].listener);
	}
	wl_list_remove(&object->link);
	wl_list_init(&object->link);
	return surface;
}

/* The object no longer speaks for a toplevel: unhook it and tell the plugin (once). */
static void object_make_inert(struct glue_orient_object *object) {
	struct wlr_xdg_surface *surface = object_unhook(object);
	if (surface != NULL && object->protocol != NULL) {
		object->protocol->callbacks.gone(object->protocol->context, surface);
	}
}

static void object_handle_watched_gone(struct wl_listener *listener, void *data) {
	struct glue_orient_watch *watch = wl_container_of(listener, watch, listener);
	object_make_inert(watch->object);
}

static void object_handle_resource_destroy(struct wl_resource *resource) {
	struct glue_orient_object *object = object_from_resource(resource);
	object_make_inert(object);
	free(object);
}

/* The live object that speaks for `surface`, if any: the one whose listener is on the
 * xdg_surface's resource (a toplevel has one live object at most). Found among that resource's
 * few listeners, not among every object of every client. */
static struct glue_orient_object *object_for(struct wlr_xdg_surface *surface) {
	if (surface == NULL || surface->resource == NULL) {
		return NULL;
	}
	struct wl_listener *listener = wl_resource_get_destroy_listener(surface->resource, object_handle_watched_gone);
	if (listener == NULL) {
		return NULL;
	}
	struct glue_orient_watch *watch = wl_container_of(listener, watch, listener);
	return watch->object;
}

static void client_free(struct glue_protocol_client *owner) {
	wl_list_remove(&owner->destroy.link);
	wl_list_remove(&owner->link);
	free(owner);
}

/* A client is going, before libwayland destroys its resources: its live objects go together. */
static void client_handle_destroy(struct wl_listener *listener, void *data) {
	struct glue_protocol_client *owner = wl_container_of(listener, owner, destroy);
	struct glue_protocol *protocol = owner->protocol;
	size_t count = (size_t)wl_list_length(&owner->objects);
	struct wlr_xdg_surface **surfaces = calloc(count > 0 ? count : 1, sizeof(*surfaces));
	size_t n = 0;
	struct glue_orient_object *object, *tmp;
	wl_list_for_each_safe(object, tmp, &owner->objects, link) {
		if (surfaces != NULL) {
			surfaces[n++] = object_unhook(object);
		} else {
			object_make_inert(object); /* no memory for the list: one by one */
		}
	}
	if (n > 0) {
		protocol->callbacks.all_gone(protocol->context, surfaces, n);
	}
	free(surfaces);
	client_free(owner);
}

/* The record of a client holding objects, made with its first one. NULL without memory. */
static struct glue_protocol_client *client_for(struct glue_protocol *protocol, struct wl_client *client) {
	struct glue_protocol_client *owner;
	wl_list_for_each(owner, &protocol->clients, link) {
		if (owner->client == client) {
			return owner;
		}
	}
	owner = calloc(1, sizeof(*owner));
	if (owner == NULL) {
		return NULL;
	}
	owner->client = client;
	owner->protocol = protocol;
	wl_list_init(&owner->objects);
	owner->destroy.notify = client_handle_destroy;
	wl_client_add_destroy_listener(client, &owner->destroy);
	wl_list_insert(&protocol->clients, &owner->link);
	return owner;
}

static void object_handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void object_handle_set_supported_orientations(struct wl_client *client, struct wl_resource *resource,
		uint32_t orientations) {
	struct glue_orient_object *object = object_from_resource(resource);
	if (object->surface != NULL && object->protocol != NULL) {
		object->protocol->callbacks.orientations(object->protocol->context, object, object->surface, orientations);
	}
}

static void object_handle_set_mode(struct wl_client *client, struct wl_resource *resource, uint32_t mode) {
	struct glue_orient_object *object = object_from_resource(resource);
	if (object->surface != NULL && object->protocol != NULL) {
		object->protocol->callbacks.mode(object->protocol->context, object, object->surface, mode);
	}
}

static const struct wlr_orient_toplevel_v1_interface object_impl = {
	.destroy = object_handle_destroy,
	.set_supported_orientations = object_handle_set_supported_orientations,
	.set_mode = object_handle_set_mode,
};

static void manager_handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void manager_handle_resource_destroy(struct wl_resource *resource) {
	wl_list_remove(wl_resource_get_link(resource));
}

static void manager_handle_get_toplevel_orientation(struct wl_client *client, struct wl_resource *manager,
		uint32_t id, struct wl_resource *toplevel_resource) {
	struct glue_protocol *protocol = wl_resource_get_user_data(manager);
	/* libwayland has checked that it is an xdg_toplevel. Its user data is the wlr_xdg_surface in
	 * wlroots 0.15 and the wlr_xdg_toplevel from 0.16; NULL once it is inert. */
#if ORIENT_WLR_HAS_XDG_TOPLEVEL_OBJECT
	struct wlr_xdg_toplevel *toplevel = wlr_xdg_toplevel_from_resource(toplevel_resource);
	struct wlr_xdg_surface *surface = toplevel != NULL ? toplevel->base : NULL;
#else
	struct wlr_xdg_surface *surface = wl_resource_get_user_data(toplevel_resource);
#endif
	if (surface != NULL && surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		surface = NULL;
	}
	if (protocol != NULL && surface != NULL && object_for(surface) != NULL) {
		wl_resource_post_error(manager, WLR_ORIENT_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED,
			"this xdg_toplevel already has a wlr_orient_toplevel_v1");
		return;
	}
	struct glue_protocol_client *owner = protocol != NULL && surface != NULL ? client_for(protocol, client) : NULL;
	if (protocol != NULL && surface != NULL && owner == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	struct glue_orient_object *object = calloc(1, sizeof(*object));
	if (object == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	object->resource = wl_resource_create(client, &wlr_orient_toplevel_v1_interface,
		wl_resource_get_version(manager), id);
	if (object->resource == NULL) {
		free(object);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(object->resource, &object_impl, object, object_handle_resource_destroy);
	wl_list_init(&object->link);
	for (int i = 0; i < WATCHED_COUNT; i++) {
		object->gone[i].object = object;
		object->gone[i].listener.notify = object_handle_watched_gone;
		wl_list_init(&object->gone[i].listener.link);
	}
	/* A manager whose plugin is gone, or a toplevel that is already gone: an inert object. */
	if (protocol == NULL || surface == NULL) {
		return;
	}
	object->protocol = protocol;
	wl_list_insert(&owner->objects, &object->link);
	object->surface = surface;
	struct wl_resource *watched[WATCHED_COUNT] = {
		toplevel_resource,
		surface->resource,
		surface->surface != NULL ? surface->surface->resource : NULL,
		surface->client != NULL ? surface->client->resource : NULL,
	};
	for (int i = 0; i < WATCHED_COUNT; i++) {
		if (watched[i] != NULL) {
			wl_resource_add_destroy_listener(watched[i], &object->gone[i].listener);
		}
	}
	protocol->callbacks.created(protocol->context, surface);
}

static const struct wlr_orient_manager_v1_interface manager_impl = {
	.destroy = manager_handle_destroy,
	.get_toplevel_orientation = manager_handle_get_toplevel_orientation,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(client, &wlr_orient_manager_v1_interface, version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	struct glue_protocol *protocol = data;
	wl_resource_set_implementation(resource, &manager_impl, protocol, manager_handle_resource_destroy);
	wl_list_insert(&protocol->managers, wl_resource_get_link(resource));
}

struct glue_protocol *glue_protocol_create(struct wl_display *display, void *context,
		const struct glue_protocol_callbacks *callbacks) {
	struct glue_protocol *protocol = calloc(1, sizeof(*protocol));
	if (protocol == NULL) {
		return NULL;
	}
	protocol->context = context;
	protocol->callbacks = *callbacks;
	wl_list_init(&protocol->clients);
	wl_list_init(&protocol->managers);
	protocol->global = wl_global_create(display, &wlr_orient_manager_v1_interface, 1, protocol, manager_bind);
	if (protocol->global == NULL) {
		free(protocol);
		return NULL;
	}
	return protocol;
}

void glue_protocol_destroy(struct glue_protocol *protocol) {
	if (protocol == NULL) {
		return;
	}
	/* Clients may keep their objects and managers: they become inert, and say nothing more. */
	wl_global_destroy(protocol->global);
	struct wl_resource *manager, *next;
	wl_resource_for_each_safe(manager, next, &protocol->managers) {
		wl_resource_set_user_data(manager, NULL);
		wl_list_remove(wl_resource_get_link(manager));
		wl_list_init(wl_resource_get_link(manager));
	}
	struct glue_protocol_client *owner, *next_owner;
	wl_list_for_each_safe(owner, next_owner, &protocol->clients, link) {
		struct glue_orient_object *object, *tmp;
		wl_list_for_each_safe(object, tmp, &owner->objects, link) {
			object->protocol = NULL;
			object_unhook(object);
		}
		client_free(owner);
	}
	free(protocol);
}

/* Sends `orientation` with `send` (one of the event's generated senders) to the object of
 * `surface`; false if it has none. */
static bool send_orientation(struct glue_protocol *protocol, struct wlr_xdg_surface *surface, uint32_t orientation,
		void (*send)(struct wl_resource *resource, uint32_t orientation)) {
	struct glue_orient_object *object = protocol != NULL ? object_for(surface) : NULL;
	if (object != NULL) {
		send(object->resource, orientation);
	}
	return object != NULL;
}

bool glue_protocol_send_output_orientation(struct glue_protocol *protocol, struct wlr_xdg_surface *surface,
		uint32_t orientation) {
	return send_orientation(protocol, surface, orientation, wlr_orient_toplevel_v1_send_output_orientation);
}

bool glue_protocol_send_device_orientation(struct glue_protocol *protocol, struct wlr_xdg_surface *surface,
		uint32_t orientation) {
	return send_orientation(protocol, surface, orientation, wlr_orient_toplevel_v1_send_device_orientation);
}

void glue_orient_object_post_error(struct glue_orient_object *object, uint32_t code, const char *message) {
	wl_resource_post_error(object->resource, code, "%s", message);
}

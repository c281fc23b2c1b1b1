#include "wayland_client_glue.h"

/* The interface descriptions wl_registry_bind needs, as pointers (Swift imports the extern
 * structs as values and cannot take their address). */
const struct wl_interface *glue_output_manager_interface(void) {
	return &zwlr_output_manager_v1_interface;
}

const struct wl_interface *glue_foreign_toplevel_manager_interface(void) {
	return &zwlr_foreign_toplevel_manager_v1_interface;
}

const struct wl_interface *glue_output_interface(void) {
	return &wl_output_interface;
}

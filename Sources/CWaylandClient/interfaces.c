#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "wayland_client_glue.h"

/* The interface descriptions wl_registry_bind needs, as pointers (Swift imports the extern
 * structs as values and cannot take their address): an accessor for each, named as the header
 * declares it. */
#define GLUE_INTERFACE(accessor, interface) \
	const struct wl_interface *accessor(void) { \
		return &interface; \
	}

GLUE_INTERFACE(glue_output_manager_interface, zwlr_output_manager_v1_interface)
GLUE_INTERFACE(glue_foreign_toplevel_manager_interface, zwlr_foreign_toplevel_manager_v1_interface)
GLUE_INTERFACE(glue_output_interface, wl_output_interface)
GLUE_INTERFACE(glue_compositor_interface, wl_compositor_interface)
GLUE_INTERFACE(glue_shm_interface, wl_shm_interface)
GLUE_INTERFACE(glue_layer_shell_interface, zwlr_layer_shell_v1_interface)
GLUE_INTERFACE(glue_screencopy_manager_interface, zwlr_screencopy_manager_v1_interface)
GLUE_INTERFACE(glue_image_copy_capture_manager_interface, ext_image_copy_capture_manager_v1_interface)
GLUE_INTERFACE(glue_output_capture_source_manager_interface, ext_output_image_capture_source_manager_v1_interface)
GLUE_INTERFACE(glue_viewporter_interface, wp_viewporter_interface)
GLUE_INTERFACE(glue_idle_notifier_interface, ext_idle_notifier_v1_interface)
GLUE_INTERFACE(glue_seat_interface, wl_seat_interface)

int glue_shm_file(size_t size) {
	int fd = memfd_create("wlr-orient-shield", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		return -1;
	}
	if (ftruncate(fd, (off_t)size) < 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

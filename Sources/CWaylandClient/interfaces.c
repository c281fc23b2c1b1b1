#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
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

const struct wl_interface *glue_compositor_interface(void) {
	return &wl_compositor_interface;
}

const struct wl_interface *glue_shm_interface(void) {
	return &wl_shm_interface;
}

const struct wl_interface *glue_layer_shell_interface(void) {
	return &zwlr_layer_shell_v1_interface;
}

const struct wl_interface *glue_screencopy_manager_interface(void) {
	return &zwlr_screencopy_manager_v1_interface;
}

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

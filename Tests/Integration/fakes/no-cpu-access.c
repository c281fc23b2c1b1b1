/*
 * The GPU renderers' buffers, for the plugin: GLES2 and Vulkan render into GBM buffers, which
 * offer no data pointer in any wlroots release (render/allocator/gbm.c), so the CPU cannot read
 * them. Preloaded into a compositor that renders with pixman, this refuses
 * wlr_buffer_begin_data_ptr_access to callers inside the plugin (libwlr-orient*), and passes every
 * other call on: wlroots itself still reads its buffers, the plugin must go through the renderer.
 * With $WLR_ORIENT_FAKE_NO_READ_BACK set, wlr_texture_read_pixels (0.18+) refuses the plugin too,
 * as GLES2 does for a texture imported external-only: then nothing of the frame can be had.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct wlr_buffer;
struct wlr_texture;
struct wlr_texture_read_pixels_options;

/* Whether the caller of the function that calls this is the plugin. */
static bool called_by_plugin(void *address) {
	Dl_info caller;
	return dladdr(address, &caller) != 0 && caller.dli_fname != NULL && strstr(caller.dli_fname, "libwlr-orient") != NULL;
}

bool wlr_texture_read_pixels(struct wlr_texture *texture, const struct wlr_texture_read_pixels_options *options) {
	static bool (*next)(struct wlr_texture *, const struct wlr_texture_read_pixels_options *);
	if (next == NULL) {
		next = (bool (*)(struct wlr_texture *, const struct wlr_texture_read_pixels_options *))dlsym(RTLD_NEXT,
			"wlr_texture_read_pixels");
	}
	if (getenv("WLR_ORIENT_FAKE_NO_READ_BACK") != NULL && called_by_plugin(__builtin_return_address(0))) {
		return false;
	}
	return next != NULL && next(texture, options);
}

bool wlr_buffer_begin_data_ptr_access(struct wlr_buffer *buffer, uint32_t flags, void **data, uint32_t *format,
		size_t *stride) {
	static bool (*next)(struct wlr_buffer *, uint32_t, void **, uint32_t *, size_t *);
	if (next == NULL) {
		next = (bool (*)(struct wlr_buffer *, uint32_t, void **, uint32_t *, size_t *))dlsym(RTLD_NEXT,
			"wlr_buffer_begin_data_ptr_access");
	}
	if (called_by_plugin(__builtin_return_address(0))) {
		return false;
	}
	return next != NULL && next(buffer, flags, data, format, stride);
}

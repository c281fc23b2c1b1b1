/* The scaled-down old frame of a rotation (see glue_half_size_texture). Mechanism only. */
#define WLR_USE_UNSTABLE 1
#include <drm_fourcc.h>
#include <stdint.h>
#include <stdlib.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include "wlr_orient_glue.h"

struct wlr_texture *glue_half_size_texture(struct wlr_renderer *renderer, struct wlr_buffer *buffer) {
	void *data;
	uint32_t format;
	size_t stride;
	if (renderer == NULL || buffer == NULL ||
			!wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return NULL;
	}
	int width = buffer->width / 2, height = buffer->height / 2;
	uint32_t *half = NULL;
	if ((format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888) && width > 0 && height > 0) {
		half = malloc((size_t)width * height * 4);
	}
	for (int y = 0; half != NULL && y < height; y++) {
		const uint32_t *a = (const uint32_t *)((const char *)data + (size_t)(2 * y) * stride);
		const uint32_t *b = (const uint32_t *)((const char *)data + (size_t)(2 * y + 1) * stride);
		for (int x = 0; x < width; x++) {
			uint32_t p[4] = { a[2 * x], a[2 * x + 1], b[2 * x], b[2 * x + 1] };
			uint32_t out = 0xff000000;
			for (int shift = 0; shift < 24; shift += 8) {
				uint32_t sum = 0;
				for (int i = 0; i < 4; i++) {
					sum += (p[i] >> shift) & 0xff;
				}
				out |= ((sum + 2) / 4) << shift;
			}
			half[(size_t)y * width + x] = out;
		}
	}
	wlr_buffer_end_data_ptr_access(buffer);
	if (half == NULL) {
		return NULL;
	}
	struct wlr_texture *texture = wlr_texture_from_pixels(renderer, DRM_FORMAT_XRGB8888, width * 4, width, height, half);
	free(half);
	return texture;
}

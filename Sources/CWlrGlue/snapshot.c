/* The scaled-down old frame of a rotation (see glue_scaled_down_texture). Mechanism only. */
#define WLR_USE_UNSTABLE 1
#include <drm_fourcc.h>
#include <stdint.h>
#include <stdlib.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include "wlr_orient_glue.h"

/* The mean of a factor × factor block of 32-bit pixels, channel by channel (opaque). */
static uint32_t block_mean(const char *data, size_t stride, int x0, int y0, int factor) {
	uint32_t sums[3] = {0, 0, 0};
	for (int y = y0; y < y0 + factor; y++) {
		const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
		for (int x = x0; x < x0 + factor; x++) {
			for (int c = 0; c < 3; c++) {
				sums[c] += (row[x] >> (8 * c)) & 0xff;
			}
		}
	}
	uint32_t n = (uint32_t)(factor * factor), out = 0xff000000;
	for (int c = 0; c < 3; c++) {
		out |= ((sums[c] + n / 2) / n) << (8 * c);
	}
	return out;
}

struct wlr_texture *glue_scaled_down_texture(struct wlr_renderer *renderer, struct wlr_buffer *buffer, int factor) {
	void *data;
	uint32_t format;
	size_t stride;
	if (renderer == NULL || buffer == NULL || factor < 1 ||
			!wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return NULL;
	}
	int width = buffer->width / factor, height = buffer->height / factor;
	uint32_t *small = NULL;
	if ((format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888) && width > 0 && height > 0) {
		small = malloc((size_t)width * height * 4);
	}
	for (int y = 0; small != NULL && y < height; y++) {
		for (int x = 0; x < width; x++) {
			small[(size_t)y * width + x] = block_mean(data, stride, x * factor, y * factor, factor);
		}
	}
	wlr_buffer_end_data_ptr_access(buffer);
	if (small == NULL) {
		return NULL;
	}
	struct wlr_texture *texture = wlr_texture_from_pixels(renderer, DRM_FORMAT_XRGB8888, width * 4, width, height, small);
	free(small);
	return texture;
}

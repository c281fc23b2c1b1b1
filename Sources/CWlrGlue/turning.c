/* The turning old frame of a rotation, drawn on the CPU (see glue_picture and glue_canvas in
 * orient_wlr.h). Mechanism only: where the picture goes is the core's. */
#include <drm_fourcc.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Row `y` of the picture: each pixel the mean of a factor × factor block of the frame, channel by
 * channel (opaque). Red and blue are summed in one word, 16 bits apart: with factor <= 16 a
 * sum stays under 255 × 256. `sums`: 2 × the frame's width of scratch words. */
static void mean_row(const char *data, size_t stride, int factor, int y, uint32_t *sums, struct glue_picture *picture) {
	int span = picture->width * factor;
	uint32_t *red_blue = sums, *green = sums + span;
	memset(sums, 0, (size_t)span * 2 * sizeof(*sums));
	for (int k = 0; k < factor; k++) {
		const uint32_t *row = (const uint32_t *)(data + (size_t)(y * factor + k) * stride);
		for (int x = 0; x < span; x++) {
			red_blue[x] += row[x] & 0x00ff00ff;
			green[x] += (row[x] >> 8) & 0xff;
		}
	}
	uint32_t n = (uint32_t)(factor * factor);
	uint32_t *out = picture->pixels + (size_t)y * picture->width;
	for (int x = 0; x < picture->width; x++) {
		uint32_t rb = 0, g = 0;
		for (int k = 0; k < factor; k++) {
			rb += red_blue[x * factor + k];
			g += green[x * factor + k];
		}
		out[x] = 0xff000000 | ((rb >> 16) + n / 2) / n << 16 | (g + n / 2) / n << 8 | ((rb & 0xffff) + n / 2) / n;
	}
}

struct glue_picture *glue_picture_scaled_down(struct wlr_buffer *buffer, int factor) {
	void *data;
	uint32_t format;
	size_t stride;
	if (buffer == NULL || factor < 1 || factor > 16 ||
			!wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return NULL;
	}
	struct glue_picture *picture = calloc(1, sizeof(*picture));
	int width = buffer->width / factor, height = buffer->height / factor;
	uint32_t *sums = NULL;
	if (picture != NULL && (format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888) && width > 0 && height > 0) {
		picture->pixels = malloc((size_t)width * height * 4);
		sums = malloc((size_t)width * factor * 2 * sizeof(*sums));
	}
	if (picture != NULL && picture->pixels != NULL && sums != NULL) {
		picture->width = width;
		picture->height = height;
		for (int y = 0; y < height; y++) {
			mean_row(data, stride, factor, y, sums, picture);
		}
	}
	wlr_buffer_end_data_ptr_access(buffer);
	free(sums);
	if (picture != NULL && (picture->pixels == NULL || picture->width == 0)) {
		free(picture->pixels);
		free(picture);
		picture = NULL;
	}
	return picture;
}

void glue_picture_destroy(struct glue_picture *picture) {
	if (picture != NULL) {
		free(picture->pixels);
		free(picture);
	}
}

/* The canvas is a wlr_buffer over memory of our own, so that any renderer can make a texture of
 * it (pixman's reads the memory each time it draws; others copy, and are updated after each
 * drawing: wlr_texture_write_pixels in 0.15, wlr_texture_update_from_buffer from 0.16). */
struct glue_canvas {
	struct wlr_buffer base;
	uint32_t *pixels; /* premultiplied ARGB, rows of base.width */
	struct wlr_texture *texture;
};

static void canvas_buffer_destroy(struct wlr_buffer *buffer) {
	struct glue_canvas *canvas = wl_container_of(buffer, canvas, base);
	free(canvas->pixels);
	free(canvas);
}

static bool canvas_begin_data_ptr_access(struct wlr_buffer *buffer, uint32_t flags, void **data,
		uint32_t *format, size_t *stride) {
	struct glue_canvas *canvas = wl_container_of(buffer, canvas, base);
	*data = canvas->pixels;
	*format = DRM_FORMAT_ARGB8888;
	*stride = (size_t)buffer->width * 4;
	return true;
}

static void canvas_end_data_ptr_access(struct wlr_buffer *buffer) {
}

static const struct wlr_buffer_impl canvas_buffer_impl = {
	.destroy = canvas_buffer_destroy,
	.begin_data_ptr_access = canvas_begin_data_ptr_access,
	.end_data_ptr_access = canvas_end_data_ptr_access,
};

struct glue_canvas *glue_canvas_create(struct wlr_renderer *renderer, int width, int height) {
	if (renderer == NULL || width <= 0 || height <= 0) {
		return NULL;
	}
	struct glue_canvas *canvas = calloc(1, sizeof(*canvas));
	if (canvas == NULL) {
		return NULL;
	}
	canvas->pixels = malloc((size_t)width * height * 4);
	if (canvas->pixels == NULL) {
		free(canvas);
		return NULL;
	}
	/* Written now, not left to calloc: a large calloc maps pages it has not touched, and the
	 * first frames of the turn would fault them in (measured: up to 2 ms on a frame). */
	memset(canvas->pixels, 0, (size_t)width * height * 4);
	wlr_buffer_init(&canvas->base, &canvas_buffer_impl, width, height);
	canvas->texture = wlr_texture_from_buffer(renderer, &canvas->base);
	if (canvas->texture == NULL) {
		wlr_buffer_drop(&canvas->base);
		return NULL;
	}
	return canvas;
}

void glue_canvas_destroy(struct glue_canvas *canvas) {
	if (canvas == NULL) {
		return;
	}
	/* The texture may hold a lock on the buffer: the buffer goes when both have let go. */
	wlr_texture_destroy(canvas->texture);
	wlr_buffer_drop(&canvas->base);
}

struct wlr_texture *glue_canvas_texture(struct glue_canvas *canvas) {
	return canvas != NULL ? canvas->texture : NULL;
}

bool glue_canvas_draw_turned(struct glue_canvas *canvas, const struct glue_picture *picture,
		int width, int height, const struct glue_span *rows, const double map[6]) {
	if (canvas == NULL || picture == NULL || rows == NULL || width <= 0 || height <= 0 ||
			width > canvas->base.width || height > canvas->base.height) {
		return false;
	}
	for (int y = 0; y < height; y++) {
		if (rows[y].start < 0 || rows[y].end > width) {
			return false;
		}
	}
	for (int i = 0; i < 6; i++) {
		/* 16.16 fixed point below: the map must keep the picture's coordinates in range. */
		if (!isfinite(map[i]) || fabs(map[i]) > 16384) {
			return false;
		}
	}
	const uint32_t pw = (uint32_t)picture->width, ph = (uint32_t)picture->height;
	const int64_t dx = llround(map[0] * 65536), dy = llround(map[3] * 65536);
	for (int y = 0; y < height; y++) {
		uint32_t *row = canvas->pixels + (size_t)y * canvas->base.width;
		/* The picture's point under the centre of the span's first pixel, then a step a pixel. */
		double x0 = rows[y].start + 0.5;
		int64_t u = llround((map[0] * x0 + map[1] * (y + 0.5) + map[2]) * 65536);
		int64_t v = llround((map[3] * x0 + map[4] * (y + 0.5) + map[5]) * 65536);
		for (int x = rows[y].start; x < rows[y].end; x++, u += dx, v += dy) {
			/* Floor, then one unsigned compare each way (negative ones wrap to large). */
			uint32_t px = (uint32_t)(u >> 16), py = (uint32_t)(v >> 16);
			row[x] = (px < pw && py < ph && u >= 0 && v >= 0) ? picture->pixels[(size_t)py * pw + px] : 0;
		}
	}
	/* Renderers that copied the pixels into a texture of their own need them again; pixman's
	 * texture reads the buffer itself, and cannot be updated (false then is fine). */
#if ORIENT_WLR_AT_LEAST(0, 16)
	pixman_region32_t damage;
	pixman_region32_init_rect(&damage, 0, 0, (unsigned)width, (unsigned)height);
	wlr_texture_update_from_buffer(canvas->texture, &canvas->base, &damage);
	pixman_region32_fini(&damage);
#else
	wlr_texture_write_pixels(canvas->texture, (uint32_t)canvas->base.width * 4, (uint32_t)width, (uint32_t)height,
		0, 0, 0, 0, canvas->pixels);
#endif
	return true;
}

/* The turning old frame of a rotation, drawn on the CPU: the wlroots side (reading a wlr_buffer,
 * the canvas's texture; see glue_canvas in orient_wlr.h) of what CPixels draws. Mechanism only:
 * where the picture goes is the core's. */
#include <drm_fourcc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "pixels.h"

/* Red and blue swapped in place: XBGR8888 (what GLES2 may prefer to read) as XRGB8888. */
static void swap_red_and_blue(uint32_t *pixels, size_t count) {
	for (size_t i = 0; i < count; i++) {
		uint32_t p = pixels[i];
		pixels[i] = (p & 0xff00ff00u) | ((p & 0xffu) << 16) | ((p >> 16) & 0xffu);
	}
}

#if ORIENT_WLR_HAS_TEXTURE_READ_PIXELS
/* The frame through the renderer: a texture of the buffer (an import, no copy on the GPU), its
 * pixels read back in the renderer's preferred 32-bit order, or in ours. */
static struct pixels_picture *read_back(struct wlr_renderer *renderer, struct wlr_buffer *buffer, int factor) {
	struct wlr_texture *texture = renderer != NULL ? wlr_texture_from_buffer(renderer, buffer) : NULL;
	if (texture == NULL) {
		return NULL;
	}
	int width = buffer->width, height = buffer->height;
	size_t stride = (size_t)width * 4;
	uint32_t *pixels = malloc(stride * (size_t)height);
	struct pixels_picture *picture = NULL;
	uint32_t preferred = wlr_texture_preferred_read_format(texture);
	bool swapped = preferred == DRM_FORMAT_XBGR8888 || preferred == DRM_FORMAT_ABGR8888;
	uint32_t formats[2] = { swapped ? preferred : DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB8888 };
	for (int i = 0; pixels != NULL && picture == NULL && i < (swapped ? 2 : 1); i++) {
		struct wlr_texture_read_pixels_options options = {
			.data = pixels, .format = formats[i], .stride = (uint32_t)stride,
			.src_box = { .x = 0, .y = 0, .width = width, .height = height },
		};
		if (!wlr_texture_read_pixels(texture, &options)) {
			continue;
		}
		if (formats[i] != DRM_FORMAT_XRGB8888) {
			swap_red_and_blue(pixels, (size_t)width * (size_t)height);
		}
		picture = pixels_picture_scaled_down(pixels, stride, width, height, factor);
	}
	free(pixels);
	wlr_texture_destroy(texture);
	return picture;
}
#endif

struct pixels_picture *glue_picture_scaled_down(struct wlr_renderer *renderer, struct wlr_buffer *buffer, int factor,
		enum glue_frame_read *how) {
	*how = GLUE_FRAME_UNREAD;
	if (buffer == NULL) {
		return NULL;
	}
	void *data;
	uint32_t format;
	size_t stride;
	if (wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		struct pixels_picture *picture = NULL;
		if (format == DRM_FORMAT_XRGB8888 || format == DRM_FORMAT_ARGB8888) {
			picture = pixels_picture_scaled_down(data, stride, buffer->width, buffer->height, factor);
		}
		wlr_buffer_end_data_ptr_access(buffer);
		if (picture != NULL) {
			*how = GLUE_FRAME_READ_MAPPED;
			return picture;
		}
	}
#if ORIENT_WLR_HAS_TEXTURE_READ_PIXELS
	struct pixels_picture *picture = read_back(renderer, buffer, factor);
	if (picture != NULL) {
		*how = GLUE_FRAME_READ_BY_RENDERER;
	}
	return picture;
#else
	(void)renderer;
	(void)swap_red_and_blue;
	return NULL;
#endif
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
	if (canvas != NULL) {
		/* The texture may hold a lock on the buffer: the buffer goes when both have let go. */
		wlr_texture_destroy(canvas->texture);
		wlr_buffer_drop(&canvas->base);
	}
}

struct wlr_texture *glue_canvas_texture(struct glue_canvas *canvas) {
	return canvas != NULL ? canvas->texture : NULL;
}

/* Renderers that copied the pixels into a texture of their own need them again; pixman's texture
 * reads the buffer itself, and cannot be updated (false then is fine). */
static void canvas_update_texture(struct glue_canvas *canvas, int width, int height) {
#if ORIENT_WLR_HAS_TEXTURE_UPDATE
	pixman_region32_t damage;
	pixman_region32_init_rect(&damage, 0, 0, (unsigned)width, (unsigned)height);
	wlr_texture_update_from_buffer(canvas->texture, &canvas->base, &damage);
	pixman_region32_fini(&damage);
#else
	wlr_texture_write_pixels(canvas->texture, (uint32_t)canvas->base.width * 4, (uint32_t)width, (uint32_t)height,
		0, 0, 0, 0, canvas->pixels);
#endif
}

bool glue_canvas_write(struct glue_canvas *canvas, const uint32_t *pixels, int width, int height) {
	if (canvas == NULL || pixels == NULL || width <= 0 || height <= 0 || width > canvas->base.width ||
			height > canvas->base.height) {
		return false;
	}
	for (int y = 0; y < height; y++) {
		memcpy(canvas->pixels + (size_t)y * canvas->base.width, pixels + (size_t)y * width, (size_t)width * 4);
	}
	canvas_update_texture(canvas, width, height);
	return true;
}

bool glue_canvas_draw_turned(struct glue_canvas *canvas, const struct pixels_picture *picture,
		int width, int height, const struct pixels_span *rows, const double map[6]) {
	if (canvas == NULL || !pixels_draw_turned(canvas->pixels, canvas->base.width, canvas->base.height, 0, 0,
			picture, width, height, rows, map, 255)) {
		return false;
	}
	canvas_update_texture(canvas, width, height);
	return true;
}

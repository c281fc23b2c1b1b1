/* Pixels on the CPU (include/pixels.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pixels.h"

/* Row `y` of the picture: each pixel the mean of a factor × factor block of the frame, channel by
 * channel (opaque). Red and blue are summed in one word, 16 bits apart: with factor <= 16 a
 * sum stays under 255 × 256. `sums`: 2 × the picture's width × factor of scratch words. */
static void mean_row(const char *data, size_t stride, int factor, int y, uint32_t *sums, struct pixels_picture *picture) {
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

struct pixels_picture *pixels_picture_scaled_down(const void *data, size_t stride, int width, int height, int factor) {
	if (data == NULL || factor < 1 || factor > 16 || width / factor <= 0 || height / factor <= 0 ||
			stride < (size_t)width * 4) {
		return NULL;
	}
	struct pixels_picture *picture = calloc(1, sizeof(*picture));
	if (picture == NULL) {
		return NULL;
	}
	picture->width = width / factor;
	picture->height = height / factor;
	picture->pixels = malloc((size_t)picture->width * picture->height * 4);
	uint32_t *sums = malloc((size_t)picture->width * factor * 2 * sizeof(*sums));
	if (picture->pixels == NULL || sums == NULL) {
		free(sums);
		pixels_picture_destroy(picture);
		return NULL;
	}
	for (int y = 0; y < picture->height; y++) {
		mean_row(data, stride, factor, y, sums, picture);
	}
	free(sums);
	return picture;
}

void pixels_picture_destroy(struct pixels_picture *picture) {
	if (picture != NULL) {
		free(picture->pixels);
		free(picture);
	}
}

/* A pixel at `alpha` (0 to 255), premultiplied: red and blue in one multiply, 16 bits apart. */
static inline uint32_t faded(uint32_t pixel, uint32_t alpha) {
	uint32_t rb = (pixel & 0x00ff00ff) * alpha + 0x00800080;
	uint32_t ag = (((pixel >> 8) & 0x000000ff) | 0x00ff0000) * alpha + 0x00800080;
	rb = ((rb + ((rb >> 8) & 0x00ff00ff)) >> 8) & 0x00ff00ff;
	ag = ((ag + ((ag >> 8) & 0x00ff00ff)) >> 8) & 0x00ff00ff;
	return ag << 8 | rb;
}

/* floor(a / b) for b > 0. */
static int64_t floor_div(int64_t a, int64_t b) {
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Narrows first..last to the steps k at which start + k * step lies within low...high. */
static void steps_within(int64_t start, int64_t step, int64_t low, int64_t high, int64_t *first, int64_t *last) {
	if (step == 0) {
		if (start < low || start > high) {
			*last = *first - 1;
		}
		return;
	}
	int64_t from, to;
	if (step > 0) {
		from = -floor_div(start - low, step);          /* ceil((low - start) / step) */
		to = floor_div(high - start, step);
	} else {
		from = -floor_div(high - start, -step);        /* ceil((start - high) / -step) */
		to = floor_div(start - low, -step);
	}
	if (from > *first) {
		*first = from;
	}
	if (to < *last) {
		*last = to;
	}
}

bool pixels_draw_turned(uint32_t *canvas, int canvas_width, int canvas_height, int left, int top,
		const struct pixels_picture *picture, int width, int height, const struct pixels_span *rows,
		const double map[6], uint32_t alpha) {
	if (canvas == NULL || picture == NULL || rows == NULL || width <= 0 || height <= 0 || left < 0 || top < 0 ||
			left + width > canvas_width || top + height > canvas_height || alpha > 255) {
		return false;
	}
	for (int y = 0; y < height; y++) {
		if (rows[y].start < 0 || rows[y].start > rows[y].end || rows[y].end > width) {
			return false;
		}
	}
	for (int i = 0; i < 6; i++) {
		/* 16.16 fixed point below: the map must keep the picture's coordinates in range. */
		if (!isfinite(map[i]) || fabs(map[i]) > 16384) {
			return false;
		}
	}
	const int64_t pw = picture->width, ph = picture->height;
	const int64_t dx = llround(map[0] * 65536), dy = llround(map[3] * 65536);
	for (int y = 0; y < height; y++) {
		uint32_t *row = canvas + (size_t)(top + y) * canvas_width + left;
		/* The picture's point under the centre of the span's first pixel, then a step a pixel
		 * (16.16 fixed point). */
		int start = rows[y].start, count = rows[y].end - rows[y].start;
		double x0 = start + 0.5;
		int64_t u = llround((map[0] * x0 + map[1] * (y + 0.5) + map[2]) * 65536);
		int64_t v = llround((map[3] * x0 + map[4] * (y + 0.5) + map[5]) * 65536);
		/* The pixels whose point falls on the picture, worked out once a row, so that the loop
		 * over them tests nothing; the rest are transparent. */
		int64_t first = 0, last = count - 1;
		steps_within(u, dx, 0, pw * 65536 - 1, &first, &last);
		steps_within(v, dy, 0, ph * 65536 - 1, &first, &last);
		if (first > last) {
			memset(row + start, 0, (size_t)count * 4);
			continue;
		}
		memset(row + start, 0, (size_t)first * 4);
		memset(row + start + last + 1, 0, (size_t)(count - 1 - last) * 4);
		u += first * dx;
		v += first * dy;
		uint32_t *out = row + start + first, *end = row + start + last + 1;
		const uint32_t *pixels = picture->pixels;
		if (alpha == 255) {
			for (; out < end; out++, u += dx, v += dy) {
				*out = pixels[(size_t)(v >> 16) * (size_t)pw + (size_t)(u >> 16)];
			}
		} else {
			for (; out < end; out++, u += dx, v += dy) {
				*out = faded(pixels[(size_t)(v >> 16) * (size_t)pw + (size_t)(u >> 16)], alpha);
			}
		}
	}
	return true;
}

void pixels_fade(uint32_t *target, const uint32_t *source, size_t count, uint32_t alpha) {
	if (alpha > 255) {
		alpha = 255;
	}
	for (size_t i = 0; i < count; i++) {
		target[i] = faded(source[i], alpha);
	}
}

void pixels_make_opaque(void *data, size_t stride, int width, int height) {
	for (int y = 0; data != NULL && y < height; y++) {
		uint32_t *row = (uint32_t *)((char *)data + (size_t)y * stride);
		for (int x = 0; x < width; x++) {
			row[x] |= 0xff000000;
		}
	}
}

void pixels_flip_rows(void *data, size_t stride, int height) {
	char *rows = data, *scratch = malloc(stride);
	if (rows == NULL || scratch == NULL) {
		free(scratch);
		return;
	}
	for (int y = 0; y < height / 2; y++) {
		char *a = rows + (size_t)y * stride, *b = rows + (size_t)(height - 1 - y) * stride;
		memcpy(scratch, a, stride);
		memcpy(a, b, stride);
		memcpy(b, scratch, stride);
	}
	free(scratch);
}

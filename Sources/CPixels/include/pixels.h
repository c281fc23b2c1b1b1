/*
 * Pixels on the CPU, with no window system: what the plugin (inside a compositor) and the daemon
 * (drawing its shield as a client) both do to the old frame of a transition. Mechanism only:
 * where a picture goes and how opaque it is are the core's (OldFramePlacement).
 * Pixels are 32-bit words, 0xAARRGGBB in memory order of the host (XRGB8888 / ARGB8888).
 */
#ifndef WLR_ORIENT_PIXELS_H
#define WLR_ORIENT_PIXELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pixels_picture {
	uint32_t *pixels; /* opaque XRGB, rows of `width` */
	int width, height;
};

/* A copy of the `width` × `height` XRGB/ARGB pixels at `data` (rows `stride` bytes apart)
 * `factor` times smaller each way (each pixel the mean of a factor × factor block; factor 1 to
 * 16). NULL when out of memory or for a size or factor out of range. */
struct pixels_picture *pixels_picture_scaled_down(const void *data, size_t stride, int width, int height, int factor);
/* NULL is fine. */
void pixels_picture_destroy(struct pixels_picture *picture);

/* Columns start..<end of one canvas row. */
struct pixels_span {
	int start, end;
};

/* Fills row y of the canvas's `width` × `height` pixels from (x, y) = (left, top) over rows[y]
 * (`height` of them, columns relative to `left`): each pixel takes the picture's pixel nearest
 * to `map` applied to its centre (map: row-major 2 × 3, from the canvas's pixels relative to
 * (left, top) to the picture's), or transparent where that falls outside the picture; `alpha`
 * (0 to 255) multiplies it (premultiplied ARGB). False (and nothing drawn) for a size or a span
 * beyond the canvas or a map far out of range. `canvas`: rows of `canvas_width`. */
bool pixels_draw_turned(uint32_t *canvas, int canvas_width, int canvas_height, int left, int top,
	const struct pixels_picture *picture, int width, int height, const struct pixels_span *rows,
	const double map[6], uint32_t alpha);

/* `count` pixels of `source` (opaque) at `alpha` (0 to 255) into `target`, premultiplied ARGB. */
void pixels_fade(uint32_t *target, const uint32_t *source, size_t count, uint32_t alpha);

/* Sets the alpha byte of every pixel of the `width` x `height` ARGB8888 pixels at `data` to
 * opaque (in place): an XRGB8888 picture whose padding byte is undefined, made a valid ARGB one. */
void pixels_make_opaque(void *data, size_t stride, int width, int height);

/* Turns the `height` rows at `data`, `stride` bytes each, upside down (in place). */
void pixels_flip_rows(void *data, size_t stride, int height);

#endif

/* Preloaded into the reference host by benchmarks/transition_cost.py: the thread CPU time spent in
 * the renderer's own calls (drawing, passes, texture uploads), so that what a transition frame
 * costs the plugin itself can be told from what the renderer costs (a GPU does that part, pixman
 * does it on the CPU). The host reads the running total through orient_bench_renderer_cpu_ms
 * around each wlr_orient_render_output. Calls that do not exist in a wlroots release are never
 * made; a call made from inside another counts once. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

static __thread int depth;
static __thread double total_ms;

static double thread_ms(void) {
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double orient_bench_renderer_cpu_ms(void) {
	return total_ms;
}

/* The real function, timed: REAL is its pointer, looked up once. */
#define TIMED(type, name, params, args) \
	type name params { \
		static type (*real) params; \
		if (real == NULL) { \
			real = (type (*) params)dlsym(RTLD_NEXT, #name); \
		} \
		double started = depth++ == 0 ? thread_ms() : 0; \
		type result = real args; \
		if (--depth == 0) { \
			total_ms += thread_ms() - started; \
		} \
		return result; \
	}

#define TIMED_VOID(name, params, args) \
	void name params { \
		static void (*real) params; \
		if (real == NULL) { \
			real = (void (*) params)dlsym(RTLD_NEXT, #name); \
		} \
		double started = depth++ == 0 ? thread_ms() : 0; \
		real args; \
		if (--depth == 0) { \
			total_ms += thread_ms() - started; \
		} \
	}

/* wlroots 0.17 on: render passes. */
TIMED(void *, wlr_renderer_begin_buffer_pass, (void *renderer, void *buffer, const void *options), (renderer, buffer, options))
TIMED_VOID(wlr_render_pass_add_texture, (void *pass, const void *options), (pass, options))
TIMED(bool, wlr_render_pass_submit, (void *pass), (pass))
TIMED(bool, wlr_texture_update_from_buffer, (void *texture, void *buffer, const void *damage), (texture, buffer, damage))
/* wlroots 0.15: drawing between wlr_renderer_begin and _end. */
TIMED(bool, wlr_render_texture_with_matrix, (void *renderer, void *texture, const float matrix[9], float alpha),
	(renderer, texture, matrix, alpha))
TIMED_VOID(wlr_renderer_scissor, (void *renderer, void *box), (renderer, box))
TIMED(bool, wlr_texture_write_pixels, (void *texture, uint32_t stride, uint32_t width, uint32_t height, uint32_t src_x,
	uint32_t src_y, uint32_t dst_x, uint32_t dst_y, const void *data),
	(texture, stride, width, height, src_x, src_y, dst_x, dst_y, data))

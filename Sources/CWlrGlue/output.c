/*
 * Outputs: their commits and destruction, their name, size and transform; setting a transform;
 * asking for a whole new frame; the buffers they show; drawing into the frame being made.
 * wlroots 0.15 and 0.16 set a transform on the output's pending state (0.16 also has output
 * states, which 0.17 requires), 0.17 on commit output states and draw with render passes; from
 * 0.18 the pending state and the old renderer calls are gone.
 */
#include <math.h>
#include <stdlib.h>
#include "internal.h"

/* --- Watching an output --- */

struct output_watch {
	struct orient_wlr_watch base;
	struct wl_listener commit;
	struct wl_listener frame;
};

/* The frame a commit showed, NULL if it carried none. */
static struct wlr_buffer *committed_buffer(const struct wlr_output_event_commit *event) {
#if ORIENT_WLR_HAS_OUTPUT_STATE
	return event->state != NULL && (event->state->committed & WLR_OUTPUT_STATE_BUFFER) ? event->state->buffer : NULL;
#else
	return event->buffer;
#endif
}

static void output_handle_commit(struct wl_listener *listener, void *data) {
	struct output_watch *watch = wl_container_of(listener, watch, commit);
	watch->base.events.output.committed(watch->base.events.context, committed_buffer(data));
}

static void output_handle_frame(struct wl_listener *listener, void *data) {
	struct output_watch *watch = wl_container_of(listener, watch, frame);
	watch->base.events.output.frame(watch->base.events.context);
}

struct orient_wlr_watch *orient_wlr_watch_output(struct wlr_output *output, const struct orient_wlr_output_events *events) {
	if (output == NULL || events == NULL) {
		return NULL;
	}
	const struct orient_wlr_watch_listener listeners[] = {
		{ &output->events.commit, offsetof(struct output_watch, commit), output_handle_commit },
		{ &output->events.frame, offsetof(struct output_watch, frame), output_handle_frame },
	};
	struct orient_wlr_watch *base = orient_wlr_watch_create(sizeof(struct output_watch), &output->events.destroy,
		(union orient_wlr_watch_events){ .output = *events }, events->destroyed, listeners, ORIENT_WLR_LENGTH(listeners));
	if (base != NULL) {
		/* First of the frame's listeners: a frame the plugin commits then goes before the host's
		 * own frame handler renders and takes the output's one pending frame. */
		struct output_watch *watch = wl_container_of(base, watch, base);
		wl_list_remove(&watch->frame.link);
		wl_list_insert(&output->events.frame.listener_list, &watch->frame.link);
	}
	return base;
}

/* --- What it is --- */

const char *orient_wlr_output_name(struct wlr_output *output) {
	return output != NULL && output->name != NULL ? output->name : "";
}

void orient_wlr_output_size(struct wlr_output *output, int *width, int *height) {
	*width = output != NULL ? output->width : 0;
	*height = output != NULL ? output->height : 0;
}

int orient_wlr_output_transform(struct wlr_output *output) {
	return output != NULL ? (int)output->transform : 0;
}

/* --- Changing it --- */

static bool commit_transform(struct wlr_output *output, int transform) {
#if ORIENT_WLR_HAS_OUTPUT_STATE
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_transform(&state, (enum wl_output_transform)transform);
	bool ok = wlr_output_test_state(output, &state) && wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
	return ok;
#else
	/* A failed test or commit is rolled back, or its pending state leaks into the next commit. */
	wlr_output_set_transform(output, (enum wl_output_transform)transform);
	if (!wlr_output_test(output) || !wlr_output_commit(output)) {
		wlr_output_rollback(output);
		return false;
	}
	return true;
#endif
}

/* The transform with a frame of the output's own in which `shown` (a texture of the output's
 * size) is drawn unmoved: the panel's pixels stay as they were, now under the new transform. */
static bool commit_transform_showing(struct wlr_output *output, int transform, struct wlr_texture *shown) {
#if ORIENT_WLR_HAS_RENDER_PASS
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_transform(&state, (enum wl_output_transform)transform);
	struct wlr_render_pass *pass = ORIENT_WLR_OUTPUT_BEGIN_RENDER_PASS(output, &state, NULL);
	bool ok = pass != NULL && state.buffer != NULL;
	if (pass != NULL) {
		struct wlr_render_texture_options options = { .texture = shown };
		if (state.buffer != NULL) {
			options.dst_box = (struct wlr_box){ .width = state.buffer->width, .height = state.buffer->height };
		}
#if ORIENT_WLR_HAS_BLEND_MODE
		options.blend_mode = WLR_RENDER_BLEND_MODE_NONE;
#endif
		wlr_render_pass_add_texture(pass, &options);
		ok = wlr_render_pass_submit(pass) && ok && wlr_output_test_state(output, &state) &&
			wlr_output_commit_state(output, &state);
	}
	wlr_output_state_finish(&state);
	return ok;
#else
	if (output->renderer == NULL || !wlr_output_attach_render(output, NULL)) {
		wlr_output_rollback(output);
		return false;
	}
	wlr_renderer_begin(output->renderer, output->width, output->height);
	const float unmoved[9] = { (float)output->width, 0, 0, 0, (float)output->height, 0, 0, 0, 1 };
	bool drawn = wlr_render_texture_with_matrix(output->renderer, shown, unmoved, 1.0f);
	wlr_renderer_end(output->renderer);
	wlr_output_set_transform(output, (enum wl_output_transform)transform);
	if (!drawn || !wlr_output_test(output) || !wlr_output_commit(output)) {
		wlr_output_rollback(output);
		return false;
	}
	return true;
#endif
}

#if ORIENT_WLR_TRANSFORM_WAITS_FOR_FRAME
/* Whether the output would take `transform` (with no frame). */
static bool transform_acceptable(struct wlr_output *output, int transform) {
#if ORIENT_WLR_HAS_OUTPUT_STATE
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_transform(&state, (enum wl_output_transform)transform);
	bool ok = wlr_output_test_state(output, &state);
	wlr_output_state_finish(&state);
	return ok;
#else
	wlr_output_set_transform(output, (enum wl_output_transform)transform);
	bool ok = wlr_output_test(output);
	wlr_output_rollback(output);
	return ok;
#endif
}
#endif

enum orient_wlr_transform_commit orient_wlr_output_set_transform(struct wlr_output *output, int transform,
		struct wlr_texture *shown) {
	if (output == NULL || transform < 0 || transform > 7) {
		return ORIENT_WLR_TRANSFORM_REFUSED;
	}
	if (shown != NULL && commit_transform_showing(output, transform, shown)) {
		return ORIENT_WLR_TRANSFORM_COMMITTED;
	}
#if ORIENT_WLR_TRANSFORM_WAITS_FOR_FRAME
	if (shown != NULL && output->enabled) {
		return transform_acceptable(output, transform) ? ORIENT_WLR_TRANSFORM_LATER : ORIENT_WLR_TRANSFORM_REFUSED;
	}
#endif
	return commit_transform(output, transform) ? ORIENT_WLR_TRANSFORM_COMMITTED : ORIENT_WLR_TRANSFORM_REFUSED;
}

bool orient_wlr_transform_rides_frames(void) {
	return ORIENT_WLR_HAS_OUTPUT_STATE;
}

void orient_wlr_output_state_set_transform(struct wlr_output_state *state, int transform) {
#if ORIENT_WLR_HAS_OUTPUT_STATE
	if (state != NULL && transform >= 0 && transform <= 7) {
		wlr_output_state_set_transform(state, (enum wl_output_transform)transform);
	}
#else
	(void)state;
	(void)transform;
#endif
}

bool orient_wlr_output_request_transform(struct wlr_output *output, int transform) {
#if ORIENT_WLR_HAS_REQUEST_STATE
	if (output == NULL || transform < 0 || transform > 7) {
		return false;
	}
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_transform(&state, (enum wl_output_transform)transform);
	wlr_output_send_request_state(output, &state);
	wlr_output_state_finish(&state);
	return true;
#else
	(void)output;
	(void)transform;
	return false;
#endif
}

int orient_wlr_output_state_transform(struct wlr_output_state *state) {
#if ORIENT_WLR_HAS_OUTPUT_STATE
	return state != NULL && (state->committed & WLR_OUTPUT_STATE_TRANSFORM) ? (int)state->transform : -1;
#else
	(void)state;
	return -1;
#endif
}

bool orient_wlr_output_state_disables(struct wlr_output_state *state) {
#if ORIENT_WLR_HAS_OUTPUT_STATE
	return state != NULL && (state->committed & WLR_OUTPUT_STATE_ENABLED) && !state->enabled;
#else
	(void)state;
	return false;
#endif
}

bool orient_wlr_output_enabled(struct wlr_output *output) {
	return output != NULL && output->enabled;
}

void orient_wlr_output_schedule_frame(struct wlr_output *output) {
	if (output != NULL) {
		wlr_output_schedule_frame(output);
	}
}

void orient_wlr_output_hold_composited(struct wlr_output *output, bool hold) {
	if (output != NULL) {
		wlr_output_lock_attach_render(output, hold);
	}
}

void orient_wlr_output_damage_whole(struct wlr_output *output) {
	if (output == NULL) {
		return;
	}
	/* The damage event's region is read in the output's transformed coordinates by 0.15 to 0.18
	 * (wlr_output_damage clips it to the transformed resolution; a compositor repaints it in
	 * layout coordinates) and in the buffer's from 0.19: a square as large as the longer side
	 * covers all of it either way, and each reader clips it to what it has. */
	int width, height;
	wlr_output_transformed_resolution(output, &width, &height);
	int side = width > height ? width : height;
	pixman_region32_t region;
	pixman_region32_init_rect(&region, 0, 0, side, side);
	struct wlr_output_event_damage event = { .output = output, .damage = &region };
	wl_signal_emit(&output->events.damage, &event);
	pixman_region32_fini(&region);
	wlr_output_schedule_frame(output);
}

/* --- Buffers and textures --- */

struct wlr_buffer *orient_wlr_buffer_lock(struct wlr_buffer *buffer) {
	return buffer != NULL ? wlr_buffer_lock(buffer) : NULL;
}

void orient_wlr_buffer_unlock(struct wlr_buffer *buffer) {
	if (buffer != NULL) {
		wlr_buffer_unlock(buffer);
	}
}

void orient_wlr_buffer_size(struct wlr_buffer *buffer, int *width, int *height) {
	*width = buffer != NULL ? buffer->width : 0;
	*height = buffer != NULL ? buffer->height : 0;
}

struct wlr_texture *orient_wlr_texture_from_buffer(struct wlr_renderer *renderer, struct wlr_buffer *buffer) {
	return renderer != NULL && buffer != NULL ? wlr_texture_from_buffer(renderer, buffer) : NULL;
}

void orient_wlr_texture_destroy(struct wlr_texture *texture) {
	if (texture != NULL) {
		wlr_texture_destroy(texture);
	}
}

void orient_wlr_texture_size(struct wlr_texture *texture, int *width, int *height) {
	*width = texture != NULL ? (int)texture->width : 0;
	*height = texture != NULL ? (int)texture->height : 0;
}

/* --- Drawing into the frame being made --- */

struct orient_wlr_frame {
	struct wlr_renderer *renderer;
	int width, height;
#if ORIENT_WLR_HAS_RENDER_PASS
	/* Our own pass over an output state's buffer; NULL where the host is rendering (0.17). */
	struct wlr_render_pass *pass;
#endif
};

struct orient_wlr_frame *orient_wlr_frame_rendering(struct wlr_renderer *renderer, struct wlr_output *output) {
#if !ORIENT_WLR_HAS_RENDERER_BEGIN
	(void)renderer;
	(void)output;
	return NULL; /* no renderer is ever "between begin and end" from 0.18 */
#else
	if (renderer == NULL || output == NULL) {
		return NULL;
	}
	struct orient_wlr_frame *frame = calloc(1, sizeof(*frame));
	if (frame != NULL) {
		frame->renderer = renderer;
		frame->width = output->width;
		frame->height = output->height;
	}
	return frame;
#endif
}

struct orient_wlr_frame *orient_wlr_frame_of_state(struct wlr_renderer *renderer, struct wlr_output *output,
		struct wlr_output_state *state) {
#if ORIENT_WLR_HAS_RENDER_PASS
	if (renderer == NULL || output == NULL || state == NULL || !(state->committed & WLR_OUTPUT_STATE_BUFFER) ||
			state->buffer == NULL) {
		return NULL;
	}
	struct orient_wlr_frame *frame = calloc(1, sizeof(*frame));
	if (frame == NULL) {
		return NULL;
	}
	frame->renderer = renderer;
	frame->width = state->buffer->width;
	frame->height = state->buffer->height;
	frame->pass = wlr_renderer_begin_buffer_pass(renderer, state->buffer, NULL);
	if (frame->pass == NULL) {
		free(frame);
		return NULL;
	}
	/* All of it is new: a backend that shows only the damaged part would leave ours out. */
	pixman_region32_t whole;
	pixman_region32_init_rect(&whole, 0, 0, frame->width, frame->height);
	wlr_output_state_set_damage(state, &whole);
	pixman_region32_fini(&whole);
	return frame;
#else
	(void)renderer;
	(void)output;
	(void)state;
	return NULL;
#endif
}

void orient_wlr_frame_size(struct orient_wlr_frame *frame, int *width, int *height) {
	*width = frame != NULL ? frame->width : 0;
	*height = frame != NULL ? frame->height : 0;
}

bool orient_wlr_frame_draw(struct orient_wlr_frame *frame, struct wlr_texture *texture, const float matrix[9],
		float alpha, const struct orient_wlr_box *clips, size_t count) {
	if (frame == NULL || texture == NULL || matrix == NULL || (count > 0 && clips == NULL)) {
		return false;
	}
#if ORIENT_WLR_HAS_RENDER_PASS
	if (frame->pass != NULL) {
		/* A render pass places a texture in an unturned box: a matrix that turns cannot be drawn. */
		if (matrix[1] != 0 || matrix[3] != 0 || !(matrix[0] > 0) || !(matrix[4] > 0) ||
				!isfinite(matrix[2]) || !isfinite(matrix[5]) || fabsf(matrix[0]) > 1e6f || fabsf(matrix[4]) > 1e6f) {
			return false;
		}
		pixman_region32_t clip;
		pixman_region32_init(&clip);
		for (size_t i = 0; i < count; i++) {
			pixman_region32_union_rect(&clip, &clip, clips[i].x, clips[i].y, (unsigned)clips[i].width, (unsigned)clips[i].height);
		}
		wlr_render_pass_add_texture(frame->pass, &(struct wlr_render_texture_options){
			.texture = texture,
			.dst_box = {
				.x = (int)lroundf(matrix[2]), .y = (int)lroundf(matrix[5]),
				.width = (int)lroundf(matrix[0]), .height = (int)lroundf(matrix[4]),
			},
			.alpha = &alpha,
			.clip = &clip,
		});
		pixman_region32_fini(&clip);
		return true;
	}
#endif
#if ORIENT_WLR_HAS_RENDERER_BEGIN
	bool drawn = true;
	for (size_t i = 0; i < count; i++) {
		struct wlr_box scissor = { .x = clips[i].x, .y = clips[i].y, .width = clips[i].width, .height = clips[i].height };
		wlr_renderer_scissor(frame->renderer, &scissor);
		drawn = wlr_render_texture_with_matrix(frame->renderer, texture, matrix, alpha) && drawn;
	}
	wlr_renderer_scissor(frame->renderer, NULL);
	return drawn;
#else
	return false;
#endif
}

void orient_wlr_frame_end(struct orient_wlr_frame *frame) {
	if (frame == NULL) {
		return;
	}
#if ORIENT_WLR_HAS_RENDER_PASS
	if (frame->pass != NULL) {
		wlr_render_pass_submit(frame->pass);
	}
#endif
	free(frame);
}

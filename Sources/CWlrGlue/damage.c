/* Asking a compositor for a whole new frame (see glue_output_damage_whole). Mechanism only. */
#define WLR_USE_UNSTABLE 1
#include <pixman.h>
#include <wlr/types/wlr_output.h>
#include "wlr_orient_glue.h"

void glue_output_damage_whole(struct wlr_output *output) {
	if (output == NULL) {
		return;
	}
	pixman_region32_t region;
	pixman_region32_init_rect(&region, 0, 0, output->width, output->height);
	struct wlr_output_event_damage event = { .output = output, .damage = &region };
	wl_signal_emit(&output->events.damage, &event);
	pixman_region32_fini(&region);
	wlr_output_schedule_frame(output);
}

/* Asking a compositor for a whole new frame (see glue_output_damage_whole). Mechanism only. */
#define WLR_USE_UNSTABLE 1
#include <pixman.h>
#include <wlr/types/wlr_output.h>
#include "wlr_orient_glue.h"

void glue_output_damage_whole(struct wlr_output *output) {
	if (output == NULL) {
		return;
	}
	/* Despite its comment, 0.15's damage event is read in the output's transformed coordinates:
	 * wlr_output_damage clips it to the transformed resolution, and a compositor repaints it in
	 * layout coordinates. The buffer's own size would leave part of a turned output stale. */
	int width, height;
	wlr_output_transformed_resolution(output, &width, &height);
	pixman_region32_t region;
	pixman_region32_init_rect(&region, 0, 0, width, height);
	struct wlr_output_event_damage event = { .output = output, .damage = &region };
	wl_signal_emit(&output->events.damage, &event);
	pixman_region32_fini(&region);
	wlr_output_schedule_frame(output);
}

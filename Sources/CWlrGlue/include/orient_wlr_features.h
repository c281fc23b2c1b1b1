/*
 * The wlroots releases wlr-orient is built for, and what differs between them, each said once: the
 * plugin's glue (Sources/CWlrGlue), the reference host (contrib/host) and the preload
 * (contrib/preload) all include this, and nothing else in the tree compares WLR_VERSION_NUM.
 * Code asks for a feature by name (#if ORIENT_WLR_HAS_OUTPUT_STATE), never for a release.
 *
 * The range is what Debian ships and the tests build and run: the releases of support-matrix.toml
 * (0.15, and 0.18 to 0.20), which the scripts read. Debian never had 0.16 or 0.17 and nothing here
 * is tested on them, so they are refused rather than half supported. A new release is added there
 * and here (the range, and any feature it brings); Tests/Integration/test_support_matrix.py fails
 * while the two disagree.
 *
 * Each feature is on from the release that brought it. Several came in 0.16 or 0.17, which the
 * range leaves out; they are named at the release they came with, as far as is known.
 * C only, macros only: it reads no wlroots header but <wlr/version.h>.
 */
#ifndef ORIENT_WLR_FEATURES_H
#define ORIENT_WLR_FEATURES_H

#include <wlr/version.h>

/* wlroots 0.MINOR, as WLR_VERSION_NUM counts. */
#define ORIENT_WLR_RELEASE(minor) ((0 << 16) | ((minor) << 8))

#if WLR_VERSION_NUM < ORIENT_WLR_RELEASE(15) || WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(21) || \
	(WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16) && WLR_VERSION_NUM < ORIENT_WLR_RELEASE(18))
#error "wlr-orient is built for wlroots 0.15 and 0.18 to 0.20, the releases it is tested on (see orient_wlr_features.h)"
#endif

/* --- 0.16 --- */

/* A touchscreen, a switch… is a struct of its own with its wlr_input_device as `base`
 * (wlr_switch_from_input_device, wlr_touch_init); their events are wlr_touch_down_event,
 * wlr_switch_toggle_event… and name the device (0.15: wlr_event_touch_down…, device->switch_device);
 * the headless backend makes no input devices. */
#define ORIENT_WLR_HAS_TYPED_INPUT_DEVICES (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* The xdg_toplevel is an object of its own: the toplevel calls take a wlr_xdg_toplevel, and so is
 * its resource's user data (0.15: the wlr_xdg_surface). */
#define ORIENT_WLR_HAS_XDG_TOPLEVEL_OBJECT (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* The scene's nodes hang from trees (scene->tree; a subsurface tree is a wlr_scene_tree), and a
 * surface in it is a buffer node (0.15: scene->node, surface nodes). */
#define ORIENT_WLR_HAS_SCENE_TREE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* The wl_subcompositor is a global of its own (0.15: part of wlr_compositor). */
#define ORIENT_WLR_HAS_SUBCOMPOSITOR (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* wlr_output_layout_get_box fills the caller's box (0.15: returns a pointer, NULL if not there). */
#define ORIENT_WLR_HAS_LAYOUT_BOX_FILLED (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* A buffer's implementation (wlr_buffer_init) is in <wlr/interfaces/wlr_buffer.h>. */
#define ORIENT_WLR_HAS_BUFFER_INTERFACE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* wlr_texture_update_from_buffer (0.15: wlr_texture_write_pixels). */
#define ORIENT_WLR_HAS_TEXTURE_UPDATE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* The plugin lets a transform wait for an output's next frame rather than commit it alone (on DRM
 * a lone transform blocks the compositor's thread until the next vblank); 0.15 commits it alone. */
#define ORIENT_WLR_TRANSFORM_WAITS_FOR_FRAME (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))

/* --- 0.17 --- */

/* A frame is a wlr_output_state: wlr_output_commit_state, _test_state, and commit events that
 * carry the state (0.15: the output's pending state, wlr_output_commit and _rollback). */
#define ORIENT_WLR_HAS_OUTPUT_STATE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(17))
/* Drawing is a wlr_render_pass (wlr_output_begin_render_pass, wlr_renderer_begin_buffer_pass). */
#define ORIENT_WLR_HAS_RENDER_PASS (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(17))
/* map, unmap and `mapped` are the wl_surface's (0.15: the xdg_surface's). */
#define ORIENT_WLR_HAS_SURFACE_MAP (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(17))
/* The lookups that may fail are named _try_from_ (wlr_xdg_surface_try_from_wlr_surface,
 * wlr_scene_surface_try_from_buffer; 0.15: wlr_surface_is_xdg_surface, then _from_). */
#define ORIENT_WLR_HAS_TRY_FROM (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(17))
/* wlr_scene_attach_output_layout answers a wlr_scene_output_layout, to which each scene output is
 * added (wlr_output_layout_add answers its layout output); 0.15 follows the layout by itself. */
#define ORIENT_WLR_HAS_SCENE_OUTPUT_LAYOUT (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(17))
/* The compositor's, xdg-shell's and layer-shell's globals are made with the version offered. */
#define ORIENT_WLR_HAS_VERSIONED_GLOBALS (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(17))

/* --- 0.18 --- */

/* wlr_renderer_begin/_end, wlr_render_texture_with_matrix and the scissor: the renderer drawing
 * into the output's attached buffer, as 0.15 compositors render (gone from 0.18). */
#define ORIENT_WLR_HAS_RENDERER_BEGIN (WLR_VERSION_NUM < ORIENT_WLR_RELEASE(18))
/* xdg-shell announces a toplevel when it is made (new_toplevel), before its first commit, and the
 * compositor sends its first configure at that commit (initial_commit; layer surfaces likewise,
 * `initialized`); the toplevel has a destroy signal of its own (0.15: new_surface at the initial
 * commit, layer surfaces `added`). */
#define ORIENT_WLR_HAS_NEW_TOPLEVEL (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* wlr_scene_output_build_state: a compositor on wlr_scene builds each frame as an output state and
 * commits it (0.15: wlr_scene_output_commit, or wlr_scene_render_output between begin and end). */
#define ORIENT_WLR_HAS_SCENE_BUILD_STATE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* wlr_texture_read_pixels: a texture's pixels read back, whatever its buffer. */
#define ORIENT_WLR_HAS_TEXTURE_READ_PIXELS (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* A render pass's texture options take a blend mode. */
#define ORIENT_WLR_HAS_BLEND_MODE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* Backends are made on the event loop and are the compositor's to destroy; the output layout is
 * made with the display (0.15: the backend takes the display and goes with it). */
#define ORIENT_WLR_HAS_LOOP_BACKENDS (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* Asking the compositor for an output state (wlr_output_send_request_state) is how the plugin
 * hands it a transform to apply as its own. The call exists from 0.17, but sway 1.9 on 0.17
 * commits a requested state as it is: asked from 0.18. */
#define ORIENT_WLR_HAS_REQUEST_STATE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* The headless backend sends a frame event only after a commit or when one is scheduled (0.15: on
 * a timer, whether or not anything changed), and the present event follows the commit event. */
#define ORIENT_WLR_HAS_HEADLESS_FRAMES_ON_DEMAND (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* Pointer events and grabs speak Wayland's own enums (wl_pointer_button_state, wl_pointer_axis…,
 * and an axis event carries its relative direction); 0.15: wlr_button_state, wlr_axis_orientation,
 * wlr_axis_source. */
#define ORIENT_WLR_HAS_WL_POINTER_ENUMS (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
#if ORIENT_WLR_HAS_WL_POINTER_ENUMS
#define ORIENT_WLR_BUTTON_STATE enum wl_pointer_button_state
#else
#define ORIENT_WLR_BUTTON_STATE enum wlr_button_state
#endif
/* The touch and tablet input devices' type: renamed from WLR_INPUT_DEVICE_TABLET_TOOL in 0.18. */
#if WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18)
#define ORIENT_WLR_INPUT_DEVICE_TABLET WLR_INPUT_DEVICE_TABLET
#else
#define ORIENT_WLR_INPUT_DEVICE_TABLET WLR_INPUT_DEVICE_TABLET_TOOL
#endif

/* --- 0.19 --- */

/* wlr_scene_output_needs_frame (0.18: output->needs_frame, or the scene's pending damage). */
/* ext-idle-notify-v1's global (wlr_idle_notifier_v1; the reference host offers it). */
#define ORIENT_WLR_HAS_IDLE_NOTIFIER (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(16))
/* wlr_output_transform_invert lives in wlr/util/transform.h (before: wlr/types/wlr_output.h). */
#define ORIENT_WLR_HAS_UTIL_TRANSFORM (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
/* A touch grab's up returns a serial, and its wl_cancel names a seat client, not a surface (as in
 * 0.18; 0.16 and 0.17 are not built here). */
#define ORIENT_WLR_TOUCH_GRAB_UP_HAS_SERIAL (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(18))
#define ORIENT_WLR_HAS_SCENE_NEEDS_FRAME (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(19))
/* The present event's `when` is a struct timespec (before: a pointer to one, maybe NULL). */
#define ORIENT_WLR_HAS_PRESENT_TIMESPEC (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(19))
/* The seat's pressed pointer buttons are struct wlr_seat_pointer_button (the code and how many
 * devices hold it down); before: the codes alone. */
#define ORIENT_WLR_HAS_SEAT_POINTER_BUTTON (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(19))
/* wlr_output_begin_render_pass(output, state, options): 0.17 and 0.18 also took the buffer's age. */
#if WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(19)
#define ORIENT_WLR_OUTPUT_BEGIN_RENDER_PASS(output, state, options) wlr_output_begin_render_pass(output, state, options)
#else
#define ORIENT_WLR_OUTPUT_BEGIN_RENDER_PASS(output, state, options) wlr_output_begin_render_pass(output, state, NULL, options)
#endif
/* ext-image-copy-capture-v1 and its output sources (wlr_ext_image_copy_capture_manager_v1,
 * wlr_ext_output_image_capture_source_manager_v1): the standard capture beside wlr-screencopy. */
#define ORIENT_WLR_HAS_EXT_IMAGE_COPY_CAPTURE (WLR_VERSION_NUM >= ORIENT_WLR_RELEASE(19))

#endif

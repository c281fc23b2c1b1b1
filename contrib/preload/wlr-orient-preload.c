/*
 * libwlr-orient-preload.so: starts the wlr-orient plugin inside a wlroots 0.15 compositor that
 * was not built to load it (`wlr-orient run COMPOSITOR`). Mechanism only, no policy: it sees
 * the objects the compositor creates through wlroots' exported functions (preloaded, it comes
 * before wlroots in the dynamic linker's search, so its functions of the same names run, and
 * call the real ones through dlsym(RTLD_NEXT)), hands them to the plugin's C API just before
 * the compositor starts its backend, and calls wlr_orient_render_output in the compositor's
 * frame path, just before it ends rendering an output. docs/compositors.md says why these calls.
 *
 * It reads $WLR_ORIENT_PLUGIN (the plugin's path), $WLR_ORIENT_CONFIG (a config file instead of
 * the XDG one) and $WLR_ORIENT_TRACE_FRAMES, and takes those and its own LD_PRELOAD entry out of
 * the environment as it loads, so the compositor's children never load it. In a process that
 * never starts a wlroots backend it starts nothing (its wrappers only pass calls on). When it
 * cannot start the plugin it says so in one line on stderr and the compositor runs on without
 * rotation. Built for wlroots 0.15: the functions it wraps have other signatures in later ones.
 */
#define _GNU_SOURCE
#define WLR_USE_UNSTABLE 1
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_output.h>
#include "wlr-orient.h"

/*
 * This library links neither wlroots nor libwayland (a program that is not a compositor loads
 * nothing through it): the few functions it calls are looked up in the process when needed.
 */

/* What the compositor created, and the plugin once started. One compositor per process. */
static struct {
	char *plugin_path;                 /* from $WLR_ORIENT_PLUGIN, read at load */
	void (*destroy)(struct wlr_orient *);
	struct wlr_orient_host host;
	struct wlr_backend *top_backend;   /* the one the compositor asked for (not a sub-backend) */
	int creating_backend;              /* depth of backend creation calls (autocreate nests) */
	bool started;                      /* the plugin was started, or could not be */
	struct wlr_orient *orient;
	void (*render_output)(struct wlr_orient *, struct wlr_output *);
	struct wlr_output *rendering;      /* attached for rendering, not committed or rolled back */
	int committing;                    /* inside wlr_output_commit/_test */
	bool trace_frames;                 /* $WLR_ORIENT_TRACE_FRAMES: log each frame committed */
	struct wl_listener display_destroy;
} preload;

/* The real `function` (the next definition after ours), looked up once: some run every frame. */
#define REAL(function) ({ \
	static __typeof__(&function) real; \
	if (real == NULL) { \
		real = (__typeof__(&function))dlsym(RTLD_NEXT, #function); \
	} \
	real; \
})
/* A function of the process (wlroots, libwayland) we call without defining it, looked up once. */
#define CALL(function) ({ \
	static __typeof__(&function) found; \
	if (found == NULL) { \
		found = (__typeof__(&function))dlsym(RTLD_DEFAULT, #function); \
	} \
	found; \
})

/* The first `field` the compositor creates is the one it uses, and the plugin gets a copy of them
 * all when it starts: nothing seen after that can reach it. */
#define REMEMBER(field, value) do { \
	if (!preload.started && preload.host.field == NULL) { \
		preload.host.field = (value); \
	} \
} while (0)

static void say(const char *line) {
	fprintf(stderr, "[wlr-orient preload] %s\n", line);
}

/* Whether an LD_PRELOAD entry names this library. */
static bool is_us(const char *entry, size_t length) {
	static const char name[] = "libwlr-orient-preload.so";
	size_t n = sizeof(name) - 1;
	return length >= n && memcmp(entry + length - n, name, n) == 0 && (length == n || entry[length - n - 1] == '/');
}

/* Out of the environment before anything runs: no child of the compositor loads us (other
 * preloaded libraries stay). */
__attribute__((constructor)) static void preload_init(void) {
	const char *plugin = getenv("WLR_ORIENT_PLUGIN"), *config = getenv("WLR_ORIENT_CONFIG");
	preload.plugin_path = plugin != NULL && plugin[0] != '\0' ? strdup(plugin) : NULL;
	preload.host.config_path = config != NULL && config[0] != '\0' ? strdup(config) : NULL;
	preload.trace_frames = getenv("WLR_ORIENT_TRACE_FRAMES") != NULL;
	unsetenv("WLR_ORIENT_PLUGIN");
	unsetenv("WLR_ORIENT_CONFIG");
	unsetenv("WLR_ORIENT_TRACE_FRAMES");
	const char *list = getenv("LD_PRELOAD");
	char *kept = list != NULL ? calloc(strlen(list) + 1, 1) : NULL;
	if (kept == NULL) {
		return;
	}
	for (const char *p = list; *p != '\0';) {
		size_t length = strcspn(p, ": ");
		if (length > 0 && !is_us(p, length)) {
			if (kept[0] != '\0') {
				strcat(kept, ":");
			}
			strncat(kept, p, length);
		}
		p += length + (p[length] != '\0');
	}
	if (kept[0] != '\0') {
		setenv("LD_PRELOAD", kept, 1);
	} else {
		unsetenv("LD_PRELOAD");
	}
	free(kept);
}

static void handle_display_destroy(struct wl_listener *listener, void *data) {
	(void)listener;
	(void)data;
	/* The plugin unhooks itself from a display going away; only free it. */
	CALL(wl_list_remove)(&preload.display_destroy.link);
	if (preload.destroy != NULL) {
		preload.destroy(preload.orient);
	}
	preload.orient = NULL;
	preload.render_output = NULL;
}

static void start_plugin(void) {
	preload.started = true;
	if (preload.plugin_path == NULL) {
		say("no plugin named ($WLR_ORIENT_PLUGIN is empty): running without rotation");
		return;
	}
	if (preload.host.display == NULL || preload.host.backend == NULL || preload.host.output_layout == NULL) {
		say("this compositor created no display, backend or output layout we could see: running without rotation");
		return;
	}
	void *handle = dlopen(preload.plugin_path, RTLD_NOW | RTLD_GLOBAL);
	if (handle == NULL) {
		char line[600];
		snprintf(line, sizeof(line), "cannot load the plugin (%s): running without rotation", dlerror());
		say(line);
		return;
	}
	wlr_orient_create_func create = (wlr_orient_create_func)dlsym(handle, "wlr_orient_create");
	*(void **)&preload.render_output = dlsym(handle, "wlr_orient_render_output");
	*(void **)&preload.destroy = dlsym(handle, "wlr_orient_destroy");
	preload.orient = create != NULL ? create(&preload.host) : NULL;
	if (preload.orient == NULL) {
		say("the plugin did not start (see its log above): running without rotation");
		preload.render_output = NULL;
		return;
	}
	preload.display_destroy.notify = handle_display_destroy;
	CALL(wl_display_add_destroy_listener)(preload.host.display, &preload.display_destroy);
}

/* --- What the compositor creates --- */

struct wl_display *wl_display_create(void) {
	struct wl_display *display = REAL(wl_display_create)();
	REMEMBER(display, display);
	return display;
}

/* The backend the compositor asked for: the outermost creation call's result. */
static struct wlr_backend *created_backend(struct wlr_backend *backend) {
	if (preload.creating_backend == 0 && preload.top_backend == NULL && backend != NULL) {
		preload.top_backend = backend;
		preload.host.backend = backend;
	}
	return backend;
}

struct wlr_backend *wlr_backend_autocreate(struct wl_display *display) {
	preload.creating_backend++;
	struct wlr_backend *backend = REAL(wlr_backend_autocreate)(display);
	preload.creating_backend--;
	return created_backend(backend);
}

struct wlr_backend *wlr_headless_backend_create(struct wl_display *display) {
	preload.creating_backend++;
	struct wlr_backend *backend = REAL(wlr_headless_backend_create)(display);
	preload.creating_backend--;
	return created_backend(backend);
}

/* The compositor's renderer, not one wlroots makes for itself while creating a backend (on a
 * machine with two GPUs, a copy renderer for the second). */
static void compositors_renderer(struct wlr_renderer *renderer) {
	if (preload.creating_backend == 0) {
		REMEMBER(renderer, renderer);
	}
}

struct wlr_renderer *wlr_renderer_autocreate(struct wlr_backend *backend) {
	struct wlr_renderer *renderer = REAL(wlr_renderer_autocreate)(backend);
	compositors_renderer(renderer);
	return renderer;
}

/* The renderers compositors make by hand: the reference host's pixman one, wayfire's GLES2. */
struct wlr_renderer *wlr_pixman_renderer_create(void);
struct wlr_renderer *wlr_gles2_renderer_create_with_drm_fd(int drm_fd);

struct wlr_renderer *wlr_pixman_renderer_create(void) {
	struct wlr_renderer *renderer = REAL(wlr_pixman_renderer_create)();
	compositors_renderer(renderer);
	return renderer;
}

struct wlr_renderer *wlr_gles2_renderer_create_with_drm_fd(int drm_fd) {
	struct wlr_renderer *renderer = REAL(wlr_gles2_renderer_create_with_drm_fd)(drm_fd);
	compositors_renderer(renderer);
	return renderer;
}

struct wlr_allocator *wlr_allocator_autocreate(struct wlr_backend *backend, struct wlr_renderer *renderer) {
	struct wlr_allocator *allocator = REAL(wlr_allocator_autocreate)(backend, renderer);
	REMEMBER(allocator, allocator);
	return allocator;
}

struct wlr_output_layout *wlr_output_layout_create(void) {
	struct wlr_output_layout *layout = REAL(wlr_output_layout_create)();
	REMEMBER(output_layout, layout);
	return layout;
}

struct wlr_output_manager_v1 *wlr_output_manager_v1_create(struct wl_display *display) {
	struct wlr_output_manager_v1 *manager = REAL(wlr_output_manager_v1_create)(display);
	REMEMBER(output_manager, manager);
	return manager;
}

struct wlr_seat *wlr_seat_create(struct wl_display *display, const char *name) {
	struct wlr_seat *seat = REAL(wlr_seat_create)(display, name);
	REMEMBER(seat, seat);
	return seat;
}

struct wlr_cursor *wlr_cursor_create(void) {
	struct wlr_cursor *cursor = REAL(wlr_cursor_create)();
	REMEMBER(cursor, cursor);
	return cursor;
}

struct wlr_xdg_shell *wlr_xdg_shell_create(struct wl_display *display) {
	struct wlr_xdg_shell *shell = REAL(wlr_xdg_shell_create)(display);
	REMEMBER(xdg_shell, shell);
	return shell;
}

/* Just before the compositor's own backend starts: the panel turns before its first frame. */
bool wlr_backend_start(struct wlr_backend *backend) {
	if (!preload.started && backend != NULL && backend == preload.top_backend) {
		start_plugin();
	}
	return REAL(wlr_backend_start)(backend);
}

/* --- The frame path --- */

bool wlr_output_attach_render(struct wlr_output *output, int *buffer_age) {
	bool attached = REAL(wlr_output_attach_render)(output, buffer_age);
	if (attached && preload.committing == 0) {
		preload.rendering = output;
	}
	return attached;
}

bool wlr_output_commit(struct wlr_output *output) {
	if (output == preload.rendering) {
		preload.rendering = NULL;
	}
	bool frame = output != NULL && (output->pending.committed & WLR_OUTPUT_STATE_BUFFER);
	preload.committing++;
	bool committed = REAL(wlr_output_commit)(output);
	preload.committing--;
	if (committed && frame && preload.trace_frames) {
		/* For benchmarks ($WLR_ORIENT_TRACE_FRAMES): when each frame reached the output. */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		fprintf(stderr, "[wlr-orient preload] frame %s transform %d at %.6f\n", output->name, (int)output->transform,
			now.tv_sec + now.tv_nsec / 1e9);
	}
	return committed;
}

bool wlr_output_test(struct wlr_output *output) {
	preload.committing++;
	bool ok = REAL(wlr_output_test)(output);
	preload.committing--;
	return ok;
}

void wlr_output_rollback(struct wlr_output *output) {
	if (output == preload.rendering) {
		preload.rendering = NULL;
	}
	REAL(wlr_output_rollback)(output);
}

/* The compositor has drawn the output and is about to end: the plugin draws its part. Not for
 * renders into other buffers (screencopy, cursors: begin_with_buffer) or wlroots' own. */
void wlr_renderer_end(struct wlr_renderer *renderer) {
	struct wlr_output *output = preload.rendering;
	if (preload.render_output != NULL && output != NULL && preload.committing == 0 && renderer != NULL &&
			renderer == preload.host.renderer && renderer->rendering && !renderer->rendering_with_buffer &&
			output->back_buffer != NULL && output->renderer == renderer) {
		CALL(wlr_renderer_scissor)(renderer, NULL);
		preload.render_output(preload.orient, output);
	}
	REAL(wlr_renderer_end)(renderer);
}

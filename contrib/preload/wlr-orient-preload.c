/*
 * libwlr-orient-preload.so: starts the wlr-orient plugin inside a wlroots compositor (the releases
 * of orient_wlr_features.h) that was not built to load it (`wlr-orient run COMPOSITOR`).
 * Mechanism only, no policy: it sees the objects the compositor creates through wlroots' exported
 * functions (preloaded, it comes before wlroots in the dynamic linker's search, so its functions
 * of the same names run, and call the real ones through dlsym(RTLD_NEXT)), hands them to the
 * plugin's C API just before the compositor starts its backend, and calls the plugin in the
 * compositor's frame path, just before it ends rendering an output (0.15) or as it builds and
 * commits a frame (0.18 on). docs/compositors.md says why these calls.
 *
 * It reads $WLR_ORIENT_PLUGIN (the plugin's path), $WLR_ORIENT_CONFIG (a config file instead of
 * the XDG one) and $WLR_ORIENT_TRACE_FRAMES as it loads, and takes those and its own LD_PRELOAD
 * entry out of the environment in the first process that creates a Wayland display (or calls
 * another wrapper): the compositor, however many wrappers started it (dbus-run-session, env, a
 * login script), so that those pass it on and the compositor's children never load it. In a process that
 * never starts a wlroots backend it starts nothing (its wrappers only pass calls on). When it
 * cannot start the plugin it says so in one line on stderr and the compositor runs on without
 * rotation.
 *
 * Built for one wlroots (WLROOTS_SONAME, the library it was compiled against); which one the
 * process uses is found when the first wrapper runs, not from the program's file: a compositor
 * may load libwayland and wlroots itself, late and with RTLD_LOCAL, as Python loads an extension
 * module. In any process whose wlroots is another one, or none, the preload stays inert, says so
 * in one line, and every wrapper only passes its call on, with all its arguments (the functions
 * whose arguments changed between wlroots releases are declared here with the arguments of each).
 */
#define _GNU_SOURCE
#define WLR_USE_UNSTABLE 1
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-server-core.h>
/* wlr_backend_autocreate is declared below with the arguments of every release (see there). */
#define wlr_backend_autocreate wlr_backend_autocreate_as_this_release_declares_it
#include <wlr/backend.h>
#undef wlr_backend_autocreate
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_output.h>
#include "orient_wlr_features.h" /* the wlroots releases supported, and what differs between them */
#if ORIENT_WLR_HAS_SCENE_BUILD_STATE
#include <wlr/types/wlr_scene.h>
#endif
#include "wlr-orient.h"

#ifndef WLROOTS_SONAME
#error "build with -DWLROOTS_SONAME=\"libwlroots.so.N\" (the wlroots the preload is compiled against)"
#endif

/*
 * This library links neither wlroots nor libwayland (a program that is not a compositor loads
 * nothing through it): the few functions it calls are looked up in the process when needed.
 */

/* Whether this process's wlroots is the one the preload was built for: decided once, when the
 * first wrapper runs. */
enum verdict { UNDECIDED, ACTIVE, INERT };

/* What the compositor created, and the plugin once started. One compositor per process. */
static struct {
	enum verdict verdict;
	char *plugin_path;                 /* from $WLR_ORIENT_PLUGIN, read at load */
	void (*destroy)(struct wlr_orient *);
	struct wlr_orient_host host;
	struct wlr_backend *top_backend;   /* the one the compositor asked for (not a sub-backend) */
	int creating_backend;              /* depth of backend creation calls (autocreate nests) */
	bool started;                      /* the plugin was started, or could not be */
	struct wlr_orient *orient;
	void (*render_output)(struct wlr_orient *, struct wlr_output *);
	void (*render_output_state)(struct wlr_orient *, struct wlr_output *, struct wlr_output_state *);
	void (*prepare_output_state)(struct wlr_orient *, struct wlr_output *, struct wlr_output_state *);
	bool scene_builds;                 /* the compositor builds its frames with wlr_scene (0.18+) */
	struct wlr_output *rendering;      /* attached for rendering, not committed or rolled back */
	int committing;                    /* inside wlr_output_commit/_test */
	bool trace_frames;                 /* $WLR_ORIENT_TRACE_FRAMES: log each frame committed */
	struct wl_listener display_destroy;
	struct wl_event_source *no_start;  /* until the plugin starts: the line if it never does */
} preload;

/* The real calls, found as the library loads (never between a fork and an exec). */
static struct {
	int (*execve)(const char *, char *const[], char *const[]);
	int (*execvpe)(const char *, char *const[], char *const[]);
	int (*fexecve)(int, char *const[], char *const[]);
	int (*posix_spawn)(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
		char *const[], char *const[]);
	int (*posix_spawnp)(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
		char *const[], char *const[]);
} starts;

static void say(const char *line);

/* Where this library is loaded: a definition found there is our own wrapper, never the real one. */
static void *own_base(void) {
	static void *base;
	Dl_info info;
	if (base == NULL && dladdr((void *)own_base, &info) != 0) {
		base = info.dli_fbase;
	}
	return base;
}

/* The names of the loaded objects (but the program itself and the vDSO), for find_real: collected
 * first, and searched after, outside dl_iterate_phdr's lock. */
struct loaded {
	char *names[512];
	int count;
};

static int collect_loaded(struct dl_phdr_info *info, size_t size, void *data) {
	struct loaded *loaded = data;
	if (info->dlpi_name != NULL && info->dlpi_name[0] != '\0' && loaded->count < 512) {
		loaded->names[loaded->count] = strdup(info->dlpi_name);
		loaded->count += loaded->names[loaded->count] != NULL;
	}
	return 0;
}

/* The real `name`: the next definition after ours (RTLD_NEXT), else a definition in any object
 * loaded so far, through that object's own scope: a library a compositor loaded with RTLD_LOCAL
 * is in no global scope that RTLD_NEXT searches. NULL if none is loaded. */
static void *find_real(const char *name) {
	void *found = dlsym(RTLD_NEXT, name);
	if (found != NULL) {
		return found;
	}
	struct loaded loaded = { .count = 0 };
	dl_iterate_phdr(collect_loaded, &loaded);
	for (int i = 0; i < loaded.count; i++) {
		void *handle = found == NULL ? dlopen(loaded.names[i], RTLD_NOLOAD | RTLD_LAZY) : NULL;
		if (handle != NULL) {
			void *symbol = dlsym(handle, name);
			Dl_info info;
			if (symbol != NULL && dladdr(symbol, &info) != 0 && info.dli_fbase != own_base()) {
				found = symbol;
			}
			dlclose(handle);
		}
		free(loaded.names[i]);
	}
	return found;
}

/* The real `function`, looked up once it is there (some run every frame). NULL, said once, when
 * no loaded object defines it: the wrapper then returns failure rather than call nothing. */
#define REAL(function) ({ \
	static __typeof__(&function) real; \
	static bool missing_said; \
	if (real == NULL) { \
		real = (__typeof__(&function))find_real(#function); \
		if (real == NULL && !missing_said) { \
			missing_said = true; \
			say("no loaded library defines " #function ", which this program calls: it fails"); \
		} \
	} \
	real; \
})
/* A function of the process (wlroots, libwayland) we call without defining it, looked up once. */
#define CALL(function) ({ \
	static __typeof__(&function) found; \
	if (found == NULL) { \
		found = (__typeof__(&function))find_real(#function); \
	} \
	found; \
})

/* The loaded library whose file name starts with `prefix`, for a message ("" if none). */
static void loaded_named(const char *prefix, char *out, size_t size) {
	struct loaded loaded = { .count = 0 };
	dl_iterate_phdr(collect_loaded, &loaded);
	out[0] = '\0';
	for (int i = 0; i < loaded.count; i++) {
		const char *slash = strrchr(loaded.names[i], '/');
		const char *base = slash != NULL ? slash + 1 : loaded.names[i];
		if (out[0] == '\0' && strncmp(base, prefix, strlen(prefix)) == 0) {
			snprintf(out, size, "%s", base);
		}
		free(loaded.names[i]);
	}
}

/* Decided at the first wrapper's call: active if the wlroots this process calls is the one we
 * were built for (the library of that soname is loaded and defines the wlr_backend_start it
 * calls), else inert, with one line saying why. */
static void leave_the_environment(void);

static enum verdict verdict(void) {
	if (preload.verdict != UNDECIDED) {
		return preload.verdict;
	}
	/* This is the compositor (or what stands for it): nothing it starts carries us on. */
	leave_the_environment();
	void *ours = dlopen(WLROOTS_SONAME, RTLD_NOLOAD | RTLD_LAZY);
	void *there = ours != NULL ? dlsym(ours, "wlr_backend_start") : NULL;
	if (ours != NULL) {
		dlclose(ours);
	}
	if (there != NULL && there == find_real("wlr_backend_start")) {
		preload.verdict = ACTIVE;
		return ACTIVE;
	}
	preload.verdict = INERT;
	char other[256], line[512];
	loaded_named("libwlroots", other, sizeof(other));
	if (other[0] != '\0') {
		snprintf(line, sizeof(line), "this compositor uses %s, not the wlroots the preload is built for (%s): running without "
			"rotation; `wlr-orient daemon` run beside it turns the screen from outside if it offers wlr-output-management",
			other, WLROOTS_SONAME);
	} else {
		snprintf(line, sizeof(line), "this program uses no wlroots (%s is not loaded): running without rotation", WLROOTS_SONAME);
	}
	say(line);
	return INERT;
}

/* The first `field` the compositor creates is the one it uses, and the plugin gets a copy of them
 * all when it starts: nothing seen after that can reach it. Only where the preload is active. */
#define REMEMBER(field, value) do { \
	if (preload.verdict == ACTIVE && !preload.started && preload.host.field == NULL) { \
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

/* What `wlr-orient run` said, read as the library loads (a wrapper on the way passes it on). */
__attribute__((constructor)) static void preload_init(void) {
	const char *plugin = getenv("WLR_ORIENT_PLUGIN"), *config = getenv("WLR_ORIENT_CONFIG");
	preload.plugin_path = plugin != NULL && plugin[0] != '\0' ? strdup(plugin) : NULL;
	preload.host.config_path = config != NULL && config[0] != '\0' ? strdup(config) : NULL;
	preload.trace_frames = getenv("WLR_ORIENT_TRACE_FRAMES") != NULL;
	starts.execve = dlsym(RTLD_NEXT, "execve");
	starts.execvpe = dlsym(RTLD_NEXT, "execvpe");
	starts.fexecve = dlsym(RTLD_NEXT, "fexecve");
	starts.posix_spawn = dlsym(RTLD_NEXT, "posix_spawn");
	starts.posix_spawnp = dlsym(RTLD_NEXT, "posix_spawnp");
}

/* An LD_PRELOAD list without this library: written into `kept` (room for strlen(list) + 1). */
static void without_us(const char *list, char *kept) {
	kept[0] = '\0';
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
}

/* What `wlr-orient run` puts in the environment for us, by name. */
static const char *const our_variables[] = { "WLR_ORIENT_PLUGIN", "WLR_ORIENT_CONFIG", "WLR_ORIENT_TRACE_FRAMES" };
#define OUR_VARIABLES (sizeof(our_variables) / sizeof(our_variables[0]))

/* Whether an environment entry (NAME=value) sets variable `name`. */
static bool sets(const char *entry, const char *name) {
	size_t n = strlen(name);
	return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

/* Whether an environment entry sets one of our variables. */
static bool is_our_variable(const char *entry) {
	for (size_t k = 0; k < OUR_VARIABLES; k++) {
		if (sets(entry, our_variables[k])) {
			return true;
		}
	}
	return false;
}

/* Whether an LD_PRELOAD list has an entry naming this library. */
static bool lists_us(const char *list) {
	for (const char *p = list; *p != '\0';) {
		size_t length = strcspn(p, ": ");
		if (length > 0 && is_us(p, length)) {
			return true;
		}
		p += length + (p[length] != '\0');
	}
	return false;
}

/* Out of the compositor's environment, before it starts anything: no child of it loads us
 * (other preloaded libraries stay). */
static void leave_the_environment(void) {
	for (size_t k = 0; k < OUR_VARIABLES; k++) {
		unsetenv(our_variables[k]);
	}
	const char *list = getenv("LD_PRELOAD");
	char *kept = list != NULL ? calloc(strlen(list) + 1, 1) : NULL;
	if (kept == NULL) {
		return;
	}
	without_us(list, kept);
	if (kept[0] != '\0') {
		setenv("LD_PRELOAD", kept, 1);
	} else {
		unsetenv("LD_PRELOAD");
	}
	free(kept);
}

/*
 * Nor through a copy. A compositor may copy its environment as it starts, before it shows itself
 * to be one (a Python compositor's os.environ is made before its first line runs), and give that
 * copy to what it launches: every call that starts a program with an environment of its own is
 * passed on here without our variables, once this process is the compositor. In a wrapper (not
 * yet decided) they pass unchanged. No allocation and no lookup: it may run between fork and exec.
 */
/* Whether `envp` is to be passed on without us: this process is the compositor and `envp` holds
 * one of our variables or names this library in LD_PRELOAD. */
static bool carries_us(char *const envp[]) {
	if (preload.verdict == UNDECIDED || envp == NULL) {
		return false;
	}
	for (size_t i = 0; envp[i] != NULL; i++) {
		if (is_our_variable(envp[i]) || (sets(envp[i], "LD_PRELOAD") && lists_us(envp[i] + strlen("LD_PRELOAD=")))) {
			return true;
		}
	}
	return false;
}

static size_t entries(char *const envp[]) {
	size_t n = 0;
	while (envp[n] != NULL) {
		n++;
	}
	return n;
}

static size_t preload_length(char *const envp[]) {
	for (size_t i = 0; envp[i] != NULL; i++) {
		if (sets(envp[i], "LD_PRELOAD")) {
			return strlen(envp[i]);
		}
	}
	return 0;
}

/* `envp` without us, into `out` (room for entries(envp) + 1) and `preload_entry` (room for
 * preload_length(envp) + 1, the new LD_PRELOAD= entry, left out if nothing else is preloaded). */
static char *const *scrubbed(char *const envp[], char **out, char *preload_entry) {
	size_t n = 0;
	for (size_t i = 0; envp[i] != NULL; i++) {
		if (is_our_variable(envp[i])) {
			continue;
		}
		if (sets(envp[i], "LD_PRELOAD")) {
			strcpy(preload_entry, "LD_PRELOAD=");
			without_us(envp[i] + strlen("LD_PRELOAD="), preload_entry + strlen("LD_PRELOAD="));
			if (preload_entry[strlen("LD_PRELOAD=")] != '\0') {
				out[n++] = preload_entry;
			}
			continue;
		}
		out[n++] = envp[i];
	}
	out[n] = NULL;
	return out;
}


/* Calls `call` with `envp`, or with it scrubbed when it carries us (on this stack frame). */
#define WITHOUT_US(envp, call) do { \
	if (!carries_us(envp)) { \
		char *const *passed = (envp); \
		return call; \
	} \
	char *kept[entries(envp) + 1]; \
	char preload_entry[preload_length(envp) + 1]; \
	char *const *passed = scrubbed((envp), kept, preload_entry); \
	return call; \
} while (0)

int execve(const char *path, char *const argv[], char *const envp[]) {
	if (starts.execve == NULL) {
		errno = ENOSYS;
		return -1;
	}
	WITHOUT_US(envp, starts.execve(path, argv, passed));
}

int execvpe(const char *file, char *const argv[], char *const envp[]) {
	if (starts.execvpe == NULL) {
		errno = ENOSYS;
		return -1;
	}
	WITHOUT_US(envp, starts.execvpe(file, argv, passed));
}

int fexecve(int fd, char *const argv[], char *const envp[]) {
	if (starts.fexecve == NULL) {
		errno = ENOSYS;
		return -1;
	}
	WITHOUT_US(envp, starts.fexecve(fd, argv, passed));
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attributes,
		char *const argv[], char *const envp[]) {
	if (starts.posix_spawn == NULL) {
		return ENOSYS;
	}
	WITHOUT_US(envp, starts.posix_spawn(pid, path, actions, attributes, argv, passed));
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attributes,
		char *const argv[], char *const envp[]) {
	if (starts.posix_spawnp == NULL) {
		return ENOSYS;
	}
	WITHOUT_US(envp, starts.posix_spawnp(pid, file, actions, attributes, argv, passed));
}

static void handle_display_destroy(struct wl_listener *listener, void *data) {
	(void)listener;
	(void)data;
	/* The plugin unhooks itself from a display going away; only free it. */
	if (CALL(wl_list_remove) != NULL) {
		CALL(wl_list_remove)(&preload.display_destroy.link);
	}
	if (preload.destroy != NULL) {
		preload.destroy(preload.orient);
	}
	preload.orient = NULL;
	preload.render_output = NULL;
	preload.render_output_state = NULL;
	preload.prepare_output_state = NULL;
}

static void start_plugin(void) {
	preload.started = true;
	if (preload.no_start != NULL && CALL(wl_event_source_remove) != NULL) {
		CALL(wl_event_source_remove)(preload.no_start);
	}
	preload.no_start = NULL;
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
	*(void **)&preload.render_output_state = dlsym(handle, "wlr_orient_render_output_state");
	*(void **)&preload.prepare_output_state = dlsym(handle, "wlr_orient_prepare_output_state");
	*(void **)&preload.destroy = dlsym(handle, "wlr_orient_destroy");
	preload.orient = create != NULL ? create(&preload.host) : NULL;
	if (preload.orient == NULL) {
		say("the plugin did not start (see its log above): running without rotation");
		preload.render_output = NULL;
		preload.render_output_state = NULL;
		preload.prepare_output_state = NULL;
		return;
	}
	preload.display_destroy.notify = handle_display_destroy;
	if (CALL(wl_display_add_destroy_listener) != NULL) {
		CALL(wl_display_add_destroy_listener)(preload.host.display, &preload.display_destroy);
	}
}

/* --- What the compositor creates --- */

/* How long after making its display a compositor may take to start its backend, with the plugin. */
#define NO_START_WAIT_MS 5000

/* Said once: the compositor made a display and, seconds later, has started no backend we saw. */
static int handle_no_start(void *data) {
	(void)data;
	if (!preload.started) {
		say("this compositor made its Wayland display 5 s ago and has started no wlroots backend we could see: "
			"no plugin started, running without rotation");
	}
	if (preload.no_start != NULL && CALL(wl_event_source_remove) != NULL) {
		CALL(wl_event_source_remove)(preload.no_start);
	}
	preload.no_start = NULL;
	return 0;
}

struct wl_display *wl_display_create(void) {
	verdict();
	struct wl_display *display = REAL(wl_display_create) != NULL ? REAL(wl_display_create)() : NULL;
	REMEMBER(display, display);
	if (preload.verdict == ACTIVE && display != NULL && display == preload.host.display && preload.no_start == NULL
			&& CALL(wl_display_get_event_loop) != NULL && CALL(wl_event_loop_add_timer) != NULL
			&& CALL(wl_event_source_timer_update) != NULL) {
		preload.no_start = CALL(wl_event_loop_add_timer)(CALL(wl_display_get_event_loop)(display), handle_no_start, NULL);
		if (preload.no_start != NULL) {
			CALL(wl_event_source_timer_update)(preload.no_start, NO_START_WAIT_MS);
		}
	}
	return display;
}

/* The backend the compositor asked for: the outermost creation call's result. */
static struct wlr_backend *created_backend(struct wlr_backend *backend) {
	if (preload.verdict == ACTIVE && preload.creating_backend == 0 && preload.top_backend == NULL && backend != NULL) {
		preload.top_backend = backend;
		preload.host.backend = backend;
	}
	return backend;
}

/* wlroots 0.15 to 0.17 take the display; 0.18 on take the event loop and where to put the
 * session. Both are passed on, whichever this process's wlroots is: under the System V calling
 * conventions a function that takes fewer arguments ignores the rest. */
struct wlr_backend *wlr_backend_autocreate(void *display_or_loop, void *session_out);

struct wlr_backend *wlr_backend_autocreate(void *display_or_loop, void *session_out) {
	verdict();
	if (REAL(wlr_backend_autocreate) == NULL) {
		return NULL;
	}
	preload.creating_backend++;
	struct wlr_backend *backend = REAL(wlr_backend_autocreate)(display_or_loop, session_out);
	preload.creating_backend--;
	return created_backend(backend);
}

/* 0.15 to 0.17 take the display, 0.18 on the event loop: a pointer either way. */
struct wlr_backend *wlr_headless_backend_create(void *display_or_loop);

struct wlr_backend *wlr_headless_backend_create(void *display_or_loop) {
	verdict();
	if (REAL(wlr_headless_backend_create) == NULL) {
		return NULL;
	}
	preload.creating_backend++;
	struct wlr_backend *backend = REAL(wlr_headless_backend_create)(display_or_loop);
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
	verdict();
	struct wlr_renderer *renderer = REAL(wlr_renderer_autocreate) != NULL ? REAL(wlr_renderer_autocreate)(backend) : NULL;
	compositors_renderer(renderer);
	return renderer;
}

/* The renderers compositors make by hand: the reference host's pixman one, wayfire's GLES2. */
struct wlr_renderer *wlr_pixman_renderer_create(void);
struct wlr_renderer *wlr_gles2_renderer_create_with_drm_fd(int drm_fd);

struct wlr_renderer *wlr_pixman_renderer_create(void) {
	verdict();
	struct wlr_renderer *renderer = REAL(wlr_pixman_renderer_create) != NULL ? REAL(wlr_pixman_renderer_create)() : NULL;
	compositors_renderer(renderer);
	return renderer;
}

struct wlr_renderer *wlr_gles2_renderer_create_with_drm_fd(int drm_fd) {
	verdict();
	struct wlr_renderer *renderer = REAL(wlr_gles2_renderer_create_with_drm_fd) != NULL
		? REAL(wlr_gles2_renderer_create_with_drm_fd)(drm_fd) : NULL;
	compositors_renderer(renderer);
	return renderer;
}

struct wlr_allocator *wlr_allocator_autocreate(struct wlr_backend *backend, struct wlr_renderer *renderer) {
	verdict();
	struct wlr_allocator *allocator = REAL(wlr_allocator_autocreate) != NULL
		? REAL(wlr_allocator_autocreate)(backend, renderer) : NULL;
	REMEMBER(allocator, allocator);
	return allocator;
}

/* 0.15 to 0.17 take nothing, 0.18 on the display: passed on either way. */
struct wlr_output_layout *wlr_output_layout_create(void *display);

struct wlr_output_layout *wlr_output_layout_create(void *display) {
	verdict();
	struct wlr_output_layout *layout = REAL(wlr_output_layout_create) != NULL ? REAL(wlr_output_layout_create)(display) : NULL;
	REMEMBER(output_layout, layout);
	return layout;
}

struct wlr_output_manager_v1 *wlr_output_manager_v1_create(struct wl_display *display) {
	verdict();
	struct wlr_output_manager_v1 *manager = REAL(wlr_output_manager_v1_create) != NULL
		? REAL(wlr_output_manager_v1_create)(display) : NULL;
	REMEMBER(output_manager, manager);
	return manager;
}

struct wlr_seat *wlr_seat_create(struct wl_display *display, const char *name) {
	verdict();
	struct wlr_seat *seat = REAL(wlr_seat_create) != NULL ? REAL(wlr_seat_create)(display, name) : NULL;
	REMEMBER(seat, seat);
	return seat;
}

struct wlr_cursor *wlr_cursor_create(void) {
	verdict();
	struct wlr_cursor *cursor = REAL(wlr_cursor_create) != NULL ? REAL(wlr_cursor_create)() : NULL;
	REMEMBER(cursor, cursor);
	return cursor;
}

/* 0.15 takes the display, 0.16 on the display and the xdg_wm_base version. */
struct wlr_xdg_shell *wlr_xdg_shell_create(struct wl_display *display, uint32_t version);

struct wlr_xdg_shell *wlr_xdg_shell_create(struct wl_display *display, uint32_t version) {
	verdict();
	struct wlr_xdg_shell *shell = REAL(wlr_xdg_shell_create) != NULL ? REAL(wlr_xdg_shell_create)(display, version) : NULL;
	REMEMBER(xdg_shell, shell);
	return shell;
}

/* Just before the compositor's own backend starts: the panel turns before its first frame. */
bool wlr_backend_start(struct wlr_backend *backend) {
	if (verdict() == ACTIVE && !preload.started && backend != NULL && backend == preload.top_backend) {
		start_plugin();
	}
	return REAL(wlr_backend_start) != NULL && REAL(wlr_backend_start)(backend);
}

#if ORIENT_WLR_HAS_SCENE_BUILD_STATE

/* --- The frame path, wlroots 0.18 on: a frame is an output state ---
 * Compositors on wlr_scene build it with wlr_scene_output_build_state (sway, labwc; cage through
 * wlr_scene_output_commit, which calls it through the PLT like every call between wlroots'
 * exported functions), then commit it. The plugin draws into the built state's buffer. Others
 * (wayfire) render on their own and commit: for them it draws just before the commit. */

bool wlr_scene_output_build_state(struct wlr_scene_output *scene_output, struct wlr_output_state *state,
		const struct wlr_scene_output_state_options *options) {
	if (REAL(wlr_scene_output_build_state) == NULL) {
		return false;
	}
	/* A turn waiting for a frame adds its transform first: the scene renders under it. */
	if (verdict() == ACTIVE && preload.prepare_output_state != NULL && scene_output != NULL && state != NULL) {
		preload.prepare_output_state(preload.orient, scene_output->output, state);
	}
	bool built = REAL(wlr_scene_output_build_state)(scene_output, state, options);
	if (verdict() == ACTIVE) {
		preload.scene_builds = true;
		if (built && preload.render_output_state != NULL && scene_output != NULL && state != NULL) {
			preload.render_output_state(preload.orient, scene_output->output, state);
		}
	}
	return built;
}

bool wlr_output_commit_state(struct wlr_output *output, const struct wlr_output_state *state) {
	if (REAL(wlr_output_commit_state) == NULL) {
		return false;
	}
	if (verdict() == ACTIVE && !preload.scene_builds && preload.render_output_state != NULL && output != NULL &&
			state != NULL && (state->committed & WLR_OUTPUT_STATE_BUFFER)) {
		/* The compositor's own state, which it passes as const only to say that wlroots keeps
		 * nothing of it: the plugin draws into its buffer and widens its damage. */
		preload.render_output_state(preload.orient, output, (struct wlr_output_state *)state);
	}
	bool committed = REAL(wlr_output_commit_state)(output, state);
	if (committed && preload.trace_frames && output != NULL && state != NULL && (state->committed & WLR_OUTPUT_STATE_BUFFER)) {
		/* For benchmarks ($WLR_ORIENT_TRACE_FRAMES): when each frame reached the output. */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		fprintf(stderr, "[wlr-orient preload] frame %s transform %d at %.6f\n", output->name, (int)output->transform,
			now.tv_sec + now.tv_nsec / 1e9);
	}
	return committed;
}

#else

/* --- The frame path, wlroots 0.15: the renderer between begin and end on the output's buffer --- */

bool wlr_output_attach_render(struct wlr_output *output, int *buffer_age) {
	bool attached = REAL(wlr_output_attach_render) != NULL && REAL(wlr_output_attach_render)(output, buffer_age);
	if (verdict() == ACTIVE && attached && preload.committing == 0) {
		preload.rendering = output;
	}
	return attached;
}

bool wlr_output_commit(struct wlr_output *output) {
	if (REAL(wlr_output_commit) == NULL) {
		return false;
	}
	if (verdict() != ACTIVE) {
		return REAL(wlr_output_commit)(output);
	}
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
	if (REAL(wlr_output_test) == NULL) {
		return false;
	}
	preload.committing++;
	bool ok = REAL(wlr_output_test)(output);
	preload.committing--;
	return ok;
}

void wlr_output_rollback(struct wlr_output *output) {
	if (verdict() == ACTIVE && output == preload.rendering) {
		preload.rendering = NULL;
	}
	if (REAL(wlr_output_rollback) != NULL) {
		REAL(wlr_output_rollback)(output);
	}
}

/* The compositor has drawn the output and is about to end: the plugin draws its part. Not for
 * renders into other buffers (screencopy, cursors: begin_with_buffer) or wlroots' own. */
void wlr_renderer_end(struct wlr_renderer *renderer) {
	struct wlr_output *output = preload.rendering;
	if (verdict() == ACTIVE && preload.render_output != NULL && output != NULL && preload.committing == 0 &&
			renderer != NULL && renderer == preload.host.renderer && renderer->rendering &&
			!renderer->rendering_with_buffer && output->back_buffer != NULL && output->renderer == renderer &&
			CALL(wlr_renderer_scissor) != NULL) {
		CALL(wlr_renderer_scissor)(renderer, NULL);
		preload.render_output(preload.orient, output);
	}
	if (REAL(wlr_renderer_end) != NULL) {
		REAL(wlr_renderer_end)(renderer);
	}
}

#endif

#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "event_loop_glue.h"

struct wl_event_source *glue_add_fd(struct wl_event_loop *loop, int fd, void *context,
		int (*callback)(int fd, uint32_t mask, void *context)) {
	return wl_event_loop_add_fd(loop, fd, WL_EVENT_READABLE, callback, context);
}

struct wl_event_source *glue_add_timer(struct wl_event_loop *loop, void *context, int (*callback)(void *context)) {
	return wl_event_loop_add_timer(loop, callback, context);
}

const char *glue_library_path(void) {
	Dl_info info;
	if (dladdr((void *)glue_library_path, &info) == 0) {
		return NULL;
	}
	return info.dli_fname;
}

int glue_pipe_cloexec(int fds[2]) {
	return pipe2(fds, O_CLOEXEC);
}

int glue_peer_uid(int fd, uid_t *uid) {
	struct ucred cred;
	socklen_t length = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) {
		return -1;
	}
	*uid = cred.uid;
	return 0;
}

struct wl_event_source *glue_add_idle(struct wl_event_loop *loop, void *context, void (*callback)(void *context)) {
	return wl_event_loop_add_idle(loop, callback, context);
}

int glue_accept(int fd) {
	return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

struct wl_event_source *glue_add_signal(struct wl_event_loop *loop, int signal, void *context,
		int (*callback)(int signal, void *context)) {
	return wl_event_loop_add_signal(loop, signal, callback, context);
}

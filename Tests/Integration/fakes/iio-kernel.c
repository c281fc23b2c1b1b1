/*
 * The kernel's rules for an IIO device's node that umockdev does not keep, for the programs a
 * test runs under umockdev (preloaded before libumockdev-preload):
 *  - /dev/iio:deviceN opens for one process at a time: a second open gets EBUSY
 *    (iio_chrdev_open's busy bit);
 *  - its event fd (IIO_GET_EVENT_FD_IOCTL) is had by one at a time: a second gets EBUSY
 *    (iio_event_getfd).
 * Across processes, each is an flock on a file in $UMOCKDEV_DIR/kernel-locks/, held for as long
 * as the node (or the event fd) is open in the process that won it. umockdev's node is a PTY,
 * which any number of processes may open; this makes it as strict as the real one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IIO_GET_EVENT_FD_IOCTL 0x80046990UL
#define TRACKED 4096

/* For each of this process's descriptors: the lock it holds (-1: none) and, for a node, its
 * device's number. */
static int lock_of[TRACKED];
static int device_of[TRACKED];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static void init(void) {
	for (int i = 0; i < TRACKED; i++) {
		lock_of[i] = -1;
		device_of[i] = -1;
	}
}

static int (*next_close)(int);

static int real_close(int fd) {
	if (!next_close) {
		next_close = dlsym(RTLD_NEXT, "close");
	}
	return next_close(fd);
}

/* The device number of "/dev/iio:deviceN", or -1. */
static int node_number(const char *path) {
	static const char prefix[] = "/dev/iio:device";
	if (!path || strncmp(path, prefix, sizeof(prefix) - 1) != 0) {
		return -1;
	}
	char *end;
	long n = strtol(path + sizeof(prefix) - 1, &end, 10);
	return *end == '\0' && end != path + sizeof(prefix) - 1 ? (int)n : -1;
}

/* Takes the lock `kind` of device `n` without waiting: its fd, or -1 with errno EBUSY. */
static int take(int n, const char *kind) {
	const char *root = getenv("UMOCKDEV_DIR");
	if (!root) {
		return -2;   /* not under a testbed: no rule to keep */
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/kernel-locks/iio:device%d.%s", root, n, kind);
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		return -2;   /* the test made no locks for it */
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		real_close(fd);
		errno = EBUSY;
		return -1;
	}
	return fd;
}

static void track(int fd, int lock, int n) {
	if (fd >= 0 && fd < TRACKED) {
		pthread_mutex_lock(&mutex);
		lock_of[fd] = lock;
		device_of[fd] = n;
		pthread_mutex_unlock(&mutex);
	} else if (lock >= 0) {
		real_close(lock);
	}
}

static void untrack(int fd) {
	if (fd < 0 || fd >= TRACKED) {
		return;
	}
	pthread_mutex_lock(&mutex);
	int lock = lock_of[fd];
	lock_of[fd] = -1;
	device_of[fd] = -1;
	pthread_mutex_unlock(&mutex);
	if (lock >= 0) {
		real_close(lock);
	}
}

/* An open of a node: the open itself first (umockdev's, next in line: a user who may not open
 * it gets EACCES, as from the kernel), then the lock (EBUSY when another process holds it). */
#define OPEN_WRAPPER(name, params, call)                                                        \
	int name params {                                                                       \
		pthread_once(&once, init);                                                      \
		static int (*next) params;                                                      \
		if (!next) {                                                                    \
			next = dlsym(RTLD_NEXT, #name);                                         \
		}                                                                               \
		mode_t mode = 0;                                                                \
		if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {                    \
			va_list args;                                                           \
			va_start(args, flags);                                                  \
			mode = va_arg(args, mode_t);                                            \
			va_end(args);                                                           \
		}                                                                               \
		int n = node_number(path);                                                      \
		int fd = call;                                                                  \
		if (fd < 0 || n < 0) {                                                          \
			return fd;                                                              \
		}                                                                               \
		int lock = take(n, "node");                                                     \
		if (lock == -1) {                                                               \
			real_close(fd);                                                         \
			errno = EBUSY;                                                          \
			return -1;                                                              \
		}                                                                               \
		if (lock >= 0) {                                                                \
			track(fd, lock, n);                                                     \
		}                                                                               \
		return fd;                                                                      \
	}

OPEN_WRAPPER(open, (const char *path, int flags, ...), next(path, flags, mode))
OPEN_WRAPPER(open64, (const char *path, int flags, ...), next(path, flags, mode))
OPEN_WRAPPER(openat, (int dir, const char *path, int flags, ...), next(dir, path, flags, mode))
OPEN_WRAPPER(openat64, (int dir, const char *path, int flags, ...), next(dir, path, flags, mode))

int close(int fd) {
	pthread_once(&once, init);
	untrack(fd);
	return real_close(fd);
}

int ioctl(int fd, unsigned long request, ...) {
	pthread_once(&once, init);
	static int (*next)(int, unsigned long, ...);
	if (!next) {
		next = dlsym(RTLD_NEXT, "ioctl");
	}
	va_list args;
	va_start(args, request);
	void *arg = va_arg(args, void *);
	va_end(args);
	int n = -1;
	if (request == IIO_GET_EVENT_FD_IOCTL && fd >= 0 && fd < TRACKED) {
		pthread_mutex_lock(&mutex);
		n = device_of[fd];
		pthread_mutex_unlock(&mutex);
	}
	if (n < 0) {
		return next(fd, request, arg);
	}
	int lock = take(n, "events");
	if (lock == -1) {
		return -1;
	}
	int r = next(fd, request, arg);
	if (r < 0 || !arg) {
		if (lock >= 0) {
			real_close(lock);
		}
		return r;
	}
	if (lock >= 0) {
		track(*(int *)arg, lock, -1);
	}
	return r;
}

/*
 * What reading an accelerometer's raw values costs on real hardware, for a program preloaded with
 * this (the sensor helper, `wlr-orient sensor`), on the attribute files whose names end in _raw:
 *  - a HID sensor hub answers each read synchronously, powering the sensor up, and the kernel
 *    waits up to 5 s for it (sensor_hub_input_attr_get_raw_value): with
 *    $WLR_ORIENT_FAKE_RAW_DELAY_MS, each read takes that much longer. A signal the reader handles
 *    cuts that wait short, and the read answers 0 (the driver ignores why its wait ended);
 *  - most other drivers (bmc150...) refuse raw reads with EBUSY while another reader's buffer is
 *    on (iio_device_claim_direct_mode): while the file $WLR_ORIENT_FAKE_RAW_BUSY names exists,
 *    each read fails so;
 *  - a wedged driver (a stuck I2C bus, a hub that stopped answering) does not end the read at
 *    all: while the file $WLR_ORIENT_FAKE_RAW_HANG names exists, each read waits (it ends once
 *    the file is gone, as such a read may when the bus recovers).
 * The program reads them with pread (umockdev's preload does not wrap it), which is what this wraps.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Whether fd is open on an attribute whose name ends in _raw. */
static bool is_raw(int fd) {
	char link[64], path[4096];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n < 4) {
		return false;
	}
	path[n] = '\0';
	return strcmp(path + n - 4, "_raw") == 0;
}

enum answer { READ, REFUSED, CUT_SHORT };

/* Delays or refuses a raw read as the hardware would. */
static enum answer as_the_hardware_would(int fd) {
	const char *busy = getenv("WLR_ORIENT_FAKE_RAW_BUSY");
	const char *delay = getenv("WLR_ORIENT_FAKE_RAW_DELAY_MS");
	const char *hang = getenv("WLR_ORIENT_FAKE_RAW_HANG");
	if ((busy == NULL && delay == NULL && hang == NULL) || !is_raw(fd)) {
		return READ;
	}
	while (hang != NULL && access(hang, F_OK) == 0) {
		struct timespec wait = { .tv_sec = 0, .tv_nsec = 10 * 1000000L };
		nanosleep(&wait, NULL);
	}
	if (busy != NULL && access(busy, F_OK) == 0) {
		errno = EBUSY;
		return REFUSED;
	}
	if (delay != NULL) {
		long ms = strtol(delay, NULL, 10);
		struct timespec wait = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
		if (nanosleep(&wait, &wait) != 0 && errno == EINTR) {
			return CUT_SHORT;
		}
	}
	return READ;
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset) {
	static ssize_t (*next)(int, void *, size_t, off_t);
	if (next == NULL) {
		next = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	}
	switch (as_the_hardware_would(fd)) {
	case REFUSED:
		return -1;
	case CUT_SHORT:
		if (offset != 0 || count < 2) {
			return 0;
		}
		memcpy(buffer, "0\n", 2);
		return 2;
	case READ:
		break;
	}
	return next(fd, buffer, count, offset);
}

ssize_t pread64(int fd, void *buffer, size_t count, off_t offset) {
	return pread(fd, buffer, count, offset);
}

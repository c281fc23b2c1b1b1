#include <errno.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "evdev_glue.h"

/* Bit arrays of unsigned longs, sized as libevdev sizes them (so that recorded ioctls match). */
#define LONG_BITS (sizeof(unsigned long) * 8)
#define LONGS(bits) (((bits) + LONG_BITS - 1) / LONG_BITS)

static bool bit(const unsigned long *array, unsigned int n) {
	return array[n / LONG_BITS] & (1UL << (n % LONG_BITS));
}

bool glue_evdev_has_tablet_mode(int fd) {
	unsigned long types[LONGS(EV_CNT)], switches[LONGS(SW_CNT)];
	memset(types, 0, sizeof(types));
	memset(switches, 0, sizeof(switches));
	if (ioctl(fd, EVIOCGBIT(0, sizeof(types)), types) < 0 || !bit(types, EV_SW)) {
		return false;
	}
	if (ioctl(fd, EVIOCGBIT(EV_SW, sizeof(switches)), switches) < 0) {
		return false;
	}
	return bit(switches, SW_TABLET_MODE);
}

int glue_evdev_tablet_mode(int fd) {
	unsigned long state[LONGS(SW_CNT)];
	memset(state, 0, sizeof(state));
	if (ioctl(fd, EVIOCGSW(sizeof(state)), state) < 0) {
		return -1;
	}
	return bit(state, SW_TABLET_MODE) ? 1 : 0;
}

int glue_evdev_read_tablet_mode(int fd, void *context, void (*changed)(void *context, bool on)) {
	struct input_event events[16];
	for (;;) {
		ssize_t n = read(fd, events, sizeof(events));
		if (n < 0) {
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		}
		if (n == 0) {
			errno = ENODEV;
			return -1;
		}
		for (size_t i = 0; i < (size_t)n / sizeof(events[0]); i++) {
			if (events[i].type == EV_SW && events[i].code == SW_TABLET_MODE) {
				changed(context, events[i].value != 0);
			}
		}
	}
}

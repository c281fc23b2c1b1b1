/*
 * The evdev ioctls the daemon needs to follow a tablet-mode switch (read only): macros in
 * <linux/input.h> that Swift cannot call. Mechanism only.
 */
#ifndef WLR_ORIENT_EVDEV_GLUE_H
#define WLR_ORIENT_EVDEV_GLUE_H

#include <stdbool.h>
#include <stdint.h>

/* Whether the input device open at `fd` has a tablet-mode switch (EVIOCGBIT(EV_SW)). */
bool glue_evdev_has_tablet_mode(int fd);

/* The switch's state now (EVIOCGSW): 1 tablet, 0 laptop, -1 unknown (the ioctl failed). */
int glue_evdev_tablet_mode(int fd);

/* Reads the events waiting at `fd` (non-blocking); for each change of the tablet-mode switch
 * calls `changed(context, on)`. Returns 0, or -1 with errno set when the device cannot be read
 * (ENODEV: it went away); EAGAIN is not an error. */
int glue_evdev_read_tablet_mode(int fd, void *context, void (*changed)(void *context, bool on));

#endif

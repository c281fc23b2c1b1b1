/* libudev from Debian (libudev-dev); nothing else. */
#include <libudev.h>

/* libiio from Debian (libiio-dev); nothing else. */
#include <iio.h>

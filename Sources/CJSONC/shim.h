/* json-c from Debian (libjson-c-dev): the control socket's requests are read with it. */
#include <json-c/json.h>

/* GLib from Debian (libglib2.0-dev), for its key-file parser: the CLI reads .desktop files with it. */
#include <glib.h>

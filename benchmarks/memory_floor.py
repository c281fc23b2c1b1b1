#!/usr/bin/python3
"""The floor under what the plugin adds to a compositor's memory: the same
measurement as benchmarks/rotation_latency.py (the idle reference host with and without a
library loaded as its plugin, smaps_rollup, the median of three hosts) for the least a plugin of
this stack can be, each built here with the release plugin's link (scripts/build-plugin.sh):

    /usr/bin/python3 benchmarks/memory_floor.py [--plugin SO]

  c_libiio          a C plugin that opens the accelerometer through libiio, as our sensor helper
                    does (a local context, a channel's attribute read): libiio and what Debian's
                    libiio loads with it (libxml2, ICU, libstdc++, libusb, avahi, dbus), our code
                    nil: what reading the sensor in the compositor would cost at least;
  swift             a Swift plugin with the standard library linked in that keeps a dictionary
                    and prints it: the Swift runtime and the parts of the standard library that
                    any Swift code touches at start;
  swift_libiio      both;
  plugin            the release plugin itself (--plugin, default build/release/libwlr-orient.so).

Each exports wlr_orient_create (returning NULL after its work: the host runs on without it) and
wlr_orient_destroy. Prints named numbers: <name>_added_{rss,pss,private,private_dirty}_kb.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
sys.path.insert(0, HERE)
from rotation_latency import idle_memory  # noqa: E402

IIO_C = r"""
#include <iio.h>
#include <stdbool.h>
int floor_iio(void) {
	struct iio_context *ctx = iio_create_local_context();
	if (ctx == NULL) return -1;
	int n = 0;
	for (unsigned i = 0; i < iio_context_get_devices_count(ctx); i++) {
		struct iio_channel *ch = iio_device_find_channel(iio_context_get_device(ctx, i), "accel_x", false);
		char buf[64];
		if (ch != NULL && iio_channel_attr_read(ch, "raw", buf, sizeof(buf)) > 0) n++;
	}
	return n; /* the context stays open, as a plugin's would */
}
"""
C_PLUGIN = r"""
#include <stddef.h>
int floor_iio(void);
void *wlr_orient_create(const void *host) { (void)host; floor_iio(); return NULL; }
void wlr_orient_destroy(void *orient) { (void)orient; }
"""
SWIFT_PLUGIN = r"""
%s
var kept: [String: [Double]] = [:]
@_cdecl("wlr_orient_create") public func create(_ host: UnsafeRawPointer?) -> UnsafeMutableRawPointer? {
    let devices = %s
    kept["devices \(devices)"] = [Double(devices), 1.5]
    print("floor: \(kept)")
    return nil
}
@_cdecl("wlr_orient_destroy") public func destroy(_ orient: UnsafeMutableRawPointer?) {}
"""
# The release plugin's link, as scripts/build-plugin.sh gives it (less the symbol order, which
# names our functions; libstdc++'s archive is added in build()).
SWIFT_FLAGS = ["-O", "-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
               "-Xlinker", "--gc-sections", "-Xlinker", "-z", "-Xlinker", "nodelete",
               "-Xfrontend", "-disable-implicit-string-processing-module-import", "-Xfrontend", "-function-sections"]


def build(scratch):
    """The three floor plugins; returns {name: path}."""
    def write(name, text):
        path = os.path.join(scratch, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    # Only the C API exported, as scripts/plugin-exports.map does for the plugin.
    exports = write("exports.map", "{ global: wlr_orient_create; wlr_orient_destroy; local: *; };\n")
    iio_o = os.path.join(scratch, "iio.o")
    subprocess.run(["cc", "-O2", "-fPIC", "-c", write("iio.c", IIO_C), "-o", iio_o], check=True)
    made = {"c_libiio": os.path.join(scratch, "libc-libiio.so"),
            "swift": os.path.join(scratch, "libswift.so"),
            "swift_libiio": os.path.join(scratch, "libswift-libiio.so")}
    subprocess.run(["cc", "-shared", "-O2", "-fPIC", write("plugin.c", C_PLUGIN), iio_o, "-liio", "-o", made["c_libiio"]],
                   check=True)
    bare = write("bare.swift", SWIFT_PLUGIN % ("", "kept.count"))
    # libstdc++ linked in as the release plugin links it: a directory searched first holding
    # only the archive.
    archive = subprocess.run(["cc", "-print-file-name=libstdc++.a"], capture_output=True, text=True, check=True).stdout.strip()
    os.symlink(archive, os.path.join(scratch, "libstdc++.a"))
    swift = ["swiftc", "-emit-library"] + SWIFT_FLAGS + ["-Xlinker", "--version-script=" + exports, "-L" + scratch]
    subprocess.run(swift + [bare, "-o", made["swift"]], check=True)
    with_iio = write("iio.swift", SWIFT_PLUGIN % ('@_silgen_name("floor_iio") func floorIIO() -> Int32', "floorIIO()"))
    subprocess.run(swift + [with_iio, iio_o, "-liio", "-o", made["swift_libiio"]], check=True)
    for path in made.values():
        subprocess.run(["strip", path], check=True)
    return made


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "release", "libwlr-orient.so"))
    ap.add_argument("--size", default="1280x800")
    a = ap.parse_args()
    # On the disk, as an installed plugin is: a library on tmpfs (where TMPDIR may point) is
    # shared memory, whose pages all count as dirty.
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="memory-floor-", dir=os.path.join(ROOT, "build"))
    try:
        libraries = dict(build(scratch), plugin=a.plugin)
        def median(plugin):
            samples = [idle_memory(plugin, a.size) for _ in range(3)]
            return {kind: statistics.median(s[kind] for s in samples) for kind in samples[0]}
        without = median("/nonexistent/libwlr-orient.so")
        for name, path in libraries.items():
            kb = median(path)
            for kind in ("rss", "pss", "private", "private_dirty"):
                print("memory_floor_%s_added_%s_kb=%d" % (name, kind, kb[kind] - without[kind]))
            sys.stdout.flush()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

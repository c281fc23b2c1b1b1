#!/usr/bin/python3
"""Writes the release plugin's symbol order (scripts/plugin-order.txt): the functions that a
compositor with the plugin runs, which the release link places side by side (lld's
--symbol-ordering-file), so that the pages the plugin touches in a compositor hold what it runs
and not the rest of the Swift runtime and standard library linked into it.

    /usr/bin/python3 tools/plugin-order.py [--plugin SO] [--out FILE]

Runs the reference host (build/wlr-orient-host) with the plugin built with its symbols
(.build-static/release/libwlr-orient-plugin.so, as scripts/build-plugin.sh release leaves it)
under valgrind's callgrind, on a fake accelerometer under umockdev, through what a session does:
start-up, turns with each transition, a client declaring orientations over our protocol and one
maximized, a lock, unlock, status and a reload over the control socket, a tablet left alone.
Every function of the plugin's image that ran is listed, by its mangled name, sorted (so that the
file changes only when what runs does). Run it after a change to what the plugin runs, and
commit the file; a symbol no longer in the plugin is ignored by the linker, and a function that
is not listed is only placed among the cold ones (benchmarks/rotation_latency.py measures what
the plugin adds to the compositor's memory).
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
import harness.compositor as compositor  # noqa: E402
from harness.compositor import Client, Compositor, build_client  # noqa: E402
from harness.fakeiio import BIN, G_COUNTS as G, FakeIIO  # noqa: E402

POSES = [((G, 0, 0), 1), ((0, G, 0), 2), ((-G, 0, 0), 3), ((0, -G, 0), 0)]


def session(plugin, helper, kind, out_file, scratch):
    """Runs the host with `plugin` under callgrind through a session whose transitions are
    `kind`, its sensor helper (`helper`) under callgrind as well; returns callgrind's output file
    and the helper's (one per helper started: %p in the name)."""
    compositor.PLUGIN = plugin
    fake = FakeIIO()
    dev = fake.add_accel()
    wrapper = ["valgrind", "--tool=callgrind", "--demangle=no", "--compress-strings=no", "--dump-instr=no",
               "--dump-line=no", "--callgrind-out-file=" + out_file]
    # The plugin's helpers are looked for beside it, and this copy has none there.
    helper_out = out_file + ".helper.%p"
    sensor_feed = os.path.join(scratch, "sensor-feed-%s" % kind)
    with open(sensor_feed, "w") as f:
        f.write("#!/bin/sh\nexec %s --callgrind-out-file=%s %s \"$@\"\n" % (" ".join(wrapper[:-1]), helper_out, helper))
    os.chmod(sensor_feed, 0o755)
    host = Compositor(fake, wrapper=wrapper, config='[transition]\nkind = "%s"\n' % kind,
                      extra_env={"WLR_ORIENT_HELPER": BIN, "WLR_ORIENT_SENSOR_FEED": sensor_feed})
    try:
        host.wait_frame(0, timeout=120)
        env = host.client_env
        client = Client(build_client(scratch), env, app_id="org.example.Reader", orientations=15)
        client.roundtrip(timeout=60)
        for raw, transform in POSES:
            fake.set(dev, *raw)
            host.wait_frame(transform, timeout=120)
            time.sleep(2)   # the transition plays out
        for args in (["lock", "portrait"], ["status", "--json"], ["unlock"], ["reload"], ["status"]):
            subprocess.run([BIN] + args, env=env, capture_output=True, timeout=120)
        client.stop()
        time.sleep(5)   # left alone: what the idle plugin runs
    finally:
        host.stop()
    return out_file, glob.glob(out_file + ".helper.*")


def executed(callgrind_out, image):
    """The functions of `image` that callgrind saw run."""
    names = set()
    current_object = None
    with open(callgrind_out, errors="replace") as f:
        for line in f:
            if line.startswith("ob="):
                current_object = line[3:].strip()
            elif line.startswith("fn=") and current_object and os.path.basename(current_object) == image:
                names.add(line[3:].strip())
    # Callgrind marks a function's recursive calls with 'N, and names the code before main itself.
    names = {re.sub(r"'\d+$", "", n) for n in names}
    return {n for n in names if n and not n.startswith("0x") and n != "(below main)"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", default=os.path.join(ROOT, ".build-static", "release", "libwlr-orient-plugin.so"))
    ap.add_argument("--helper", default=os.path.join(ROOT, ".build-static", "release", "wlr-orient-sensor-feed"))
    ap.add_argument("--out", default=os.path.join(ROOT, "scripts", "plugin-order.txt"))
    ap.add_argument("--helper-out", default=os.path.join(ROOT, "scripts", "sensor-feed-order.txt"))
    a = ap.parse_args()
    names, helper_names = set(), set()
    with tempfile.TemporaryDirectory() as scratch:
        # Their symbols, not their DWARF (which valgrind 3.19 cannot read).
        plugin = os.path.join(scratch, os.path.basename(a.plugin))
        helper = os.path.join(scratch, os.path.basename(a.helper))
        subprocess.run(["strip", "--strip-debug", "-o", plugin, a.plugin], check=True)
        subprocess.run(["strip", "--strip-debug", "-o", helper, a.helper], check=True)
        for kind in ("rotate", "crossfade", "none"):
            out, helper_outs = session(plugin, helper, kind, os.path.join(scratch, "callgrind-%s.out" % kind), scratch)
            names.update(executed(out, os.path.basename(plugin)))
            for helper_out in helper_outs:
                helper_names.update(executed(helper_out, os.path.basename(helper)))
    for image, listed, path in ((a.plugin, names, a.out), (a.helper, helper_names, a.helper_out)):
        if len(listed) < 100:
            sys.exit("plugin-order.py: only %d functions of %s ran: was it built with its symbols?" % (len(listed), image))
        with open(path, "w") as f:
            f.write("".join(n + "\n" for n in sorted(listed)))
        print("plugin-order.py: %d functions -> %s" % (len(listed), path))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Rotation latency and memory of the plugin in the reference host.

    /usr/bin/python3 benchmarks/rotation_latency.py [--rotations N]

Drives the fake accelerometer through N rotations and measures, for each, the time from the
sensor sample that completed the decision (the plugin logs its monotonic time) to the first
frame committed with the new transform (the host prints its monotonic time). With a transition,
that frame is the old one held still, and the plugin's commit of the transform carries it
(drawn unmoved into a frame of the output's own); counted as `first_frames_carried`. Where
the host draws it instead (a cut, or a frame still pending on the output), the time up to the
start of that refresh is reported too (the rest is the host's own pixman drawing, which grows
with the panel's size: --size). Then the memory of the idle host with and
without the plugin, from /proc/PID/smaps: resident (RSS), proportional (PSS) and
private (clean + dirty) sizes, and of the private part the dirty pages (what cannot be dropped
and read again from the files); and the same sizes of the sensor side: the plugin's sensor
helper (wlr-orient-sensor-feed, the process that reads the accelerometer for it) and the
daemon's (`wlr-orient daemon` beside the host without the plugin; its helper is the daemon's
own program by the helper's name). Prints named numbers.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
import harness.compositor as compositor  # noqa: E402
from harness.compositor import Compositor, sensor_helper_pids  # noqa: E402
from harness.fakeiio import BIN, G_COUNTS as G, FakeIIO  # noqa: E402

POSES = [((G, 0, 0), 1), ((0, G, 0), 2), ((-G, 0, 0), 3), ((0, -G, 0), 0)]


def memory_kb(pid):
    """RSS, PSS, private and private dirty kB of a process, less the host's render buffers: the
    shared memory wlroots names wlroots-*, 4 MB each at 1280x800, of which an idle host keeps two or
    three from one run to the next, the plugin loaded or not."""
    fields = {"Rss": 0, "Pss": 0, "Private_Clean": 0, "Private_Dirty": 0}
    counted = True
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                if counted and parts[0].rstrip(":") in fields:
                    fields[parts[0].rstrip(":")] += int(parts[1])
            elif "-" in parts[0] and len(parts) >= 5:   # a mapping's first line
                counted = not (len(parts) > 5 and os.path.basename(parts[5]).startswith("wlroots-"))
    private = fields["Private_Clean"] + fields["Private_Dirty"]
    return {"rss": fields["Rss"], "pss": fields["Pss"], "private": private, "private_dirty": fields["Private_Dirty"]}


def idle_memory(plugin, size):
    saved = compositor.PLUGIN
    compositor.PLUGIN = plugin
    try:
        fake = FakeIIO()
        fake.add_accel()
        host = Compositor(fake, size=size)
        host.wait_frame(0)
        time.sleep(3)  # idle: what stays resident, not the start-up peak
        kb = memory_kb(host.p.pid)
        # The plugin's sensor helper, a process of its own: counted apart, not hidden.
        helpers = [memory_kb(pid) for pid in host.sensor_helper_pids()]
        for kind in list(kb):
            kb["helper_" + kind] = sum(h[kind] for h in helpers)
        host.stop()
        return kb
    finally:
        compositor.PLUGIN = saved


def daemon_helper_memory(size):
    """The daemon's sensor helper, idle, beside the host without the plugin."""
    fake = FakeIIO()
    fake.add_accel()
    host = Compositor(fake, plugin="", size=size, outputs='["HEADLESS-1"]')
    env = dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"])
    daemon = subprocess.Popen([BIN, "daemon", "--config", host.config_path], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        host.events.wait("sensor-opened", timeout=30)
        time.sleep(3)  # idle, as the plugin's
        helpers = [memory_kb(pid) for pid in sensor_helper_pids(daemon.pid)]
        assert helpers, "the daemon started no sensor helper"
        return {kind: sum(h[kind] for h in helpers) for kind in helpers[0]}
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        host.stop()


def median_memory(plugin, size, runs=3):
    samples = [idle_memory(plugin, size) for _ in range(runs)]
    return {kind: statistics.median(sample[kind] for sample in samples) for kind in samples[0]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rotations", type=int, default=100)
    ap.add_argument("--size", default="1280x800", help="the panel's mode (the host draws each frame with pixman)")
    a = ap.parse_args()
    fake = FakeIIO()
    dev = fake.add_accel()
    host = Compositor(fake, size=a.size, extra_args=["--debug"])
    to_frame, to_refresh, carried = [], [], 0
    try:
        host.wait_frame(0)
        for i in range(a.rotations):
            raw, transform = POSES[i % len(POSES)]
            fake.set(dev, *raw)
            sample = host.events.wait("decision")["sample_at"] / 1e6
            m = host.out.wait(r"^frame \d+ \d+ transform %d at ([\d.]+) (?:rendered from ([\d.]+)|committed with the transform)"
                              % transform)
            to_frame.append((float(m.group(1)) - sample) * 1000)
            if m.group(2) is None:
                carried += 1
            else:
                to_refresh.append((float(m.group(2)) - sample) * 1000)
    finally:
        host.stop()
    print("rotations=%d" % len(to_frame))
    print("panel=%s" % a.size)
    print("first_frames_carried=%d" % carried)
    for name, values in (("sample_to_frame", to_frame), ("sample_to_refresh_start", to_refresh)):
        if not values:
            continue
        values.sort()
        print("%s_median_ms=%.2f" % (name, statistics.median(values)))
        print("%s_p95_ms=%.2f" % (name, values[int(0.95 * (len(values) - 1))]))
        print("%s_max_ms=%.2f" % (name, values[-1]))
    print("refresh_period_60hz_ms=16.67")
    # Each the median of three hosts: a host's own resident set varies by a few hundred kB.
    without = median_memory("/nonexistent/libwlr-orient.so", a.size)
    with_plugin = median_memory(compositor.PLUGIN, a.size)
    print("idle_host_rss_without_plugin_kb=%d" % without["rss"])  # medians of three
    print("idle_host_rss_with_plugin_kb=%d" % with_plugin["rss"])
    for kind in ("rss", "pss", "private", "private_dirty"):
        print("plugin_added_%s_kb=%d" % (kind, with_plugin[kind] - without[kind]))
    for kind in ("rss", "pss", "private", "private_dirty"):
        print("sensor_helper_%s_kb=%d" % (kind, with_plugin["helper_" + kind]))
    daemons = [daemon_helper_memory(a.size) for _ in range(3)]
    for kind in ("rss", "pss", "private", "private_dirty"):
        print("daemon_sensor_helper_%s_kb=%d" % (kind, statistics.median(d[kind] for d in daemons)))


if __name__ == "__main__":
    main()

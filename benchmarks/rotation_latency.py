#!/usr/bin/python3
"""Rotation latency and memory of the plugin in the reference host (issue #5, point 4).

    /usr/bin/python3 benchmarks/rotation_latency.py [--rotations N]

Drives the fake accelerometer through N rotations and measures, for each, the time from the
sensor sample that completed the decision (the plugin logs its monotonic time) to the first
frame the host commits with the new transform (the host prints its monotonic time). Then the
resident memory of the idle host with and without the plugin. Prints named numbers.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
import compositor  # noqa: E402
from compositor import Compositor  # noqa: E402
from fakeiio import G_COUNTS as G, FakeIIO  # noqa: E402

POSES = [((G, 0, 0), 1), ((0, G, 0), 2), ((-G, 0, 0), 3), ((0, -G, 0), 0)]


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def idle_rss(plugin):
    saved = compositor.PLUGIN
    compositor.PLUGIN = plugin
    try:
        fake = FakeIIO()
        fake.add_accel()
        host = Compositor(fake)
        host.wait_frame(0)
        time.sleep(3)  # idle: what stays resident, not the start-up peak
        kb = rss_kb(host.p.pid)
        host.stop()
        return kb
    finally:
        compositor.PLUGIN = saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rotations", type=int, default=100)
    a = ap.parse_args()
    fake = FakeIIO()
    dev = fake.add_accel()
    host = Compositor(fake, extra_args=["--debug"])
    latencies = []
    try:
        host.wait_frame(0)
        for i in range(a.rotations):
            raw, transform = POSES[i % len(POSES)]
            fake.set(dev, *raw)
            sample = float(host.log.wait(r"decision \S+ from the sample read at ([\d.]+) s").group(1))
            frame = float(host.out.wait(r"^frame \d+ \d+ transform %d at ([\d.]+)" % transform).group(1))
            latencies.append((frame - sample) * 1000)
    finally:
        host.stop()
    latencies.sort()
    print("rotations=%d" % len(latencies))
    print("sample_to_frame_median_ms=%.2f" % statistics.median(latencies))
    print("sample_to_frame_p95_ms=%.2f" % latencies[int(0.95 * (len(latencies) - 1))])
    print("sample_to_frame_max_ms=%.2f" % latencies[-1])
    print("refresh_period_60hz_ms=16.67")
    without = idle_rss("/nonexistent/libwlr-orient.so")
    with_plugin = idle_rss(compositor.PLUGIN)
    print("idle_host_rss_without_plugin_kb=%d" % without)
    print("idle_host_rss_with_plugin_kb=%d" % with_plugin)
    print("plugin_added_rss_kb=%d" % (with_plugin - without))


if __name__ == "__main__":
    main()

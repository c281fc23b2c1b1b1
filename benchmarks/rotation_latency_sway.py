#!/usr/bin/python3
"""Rotation latency in Debian's sway 1.7 under `wlr-orient run`.

    /usr/bin/python3 benchmarks/rotation_latency_sway.py [--rotations N]

The same measure as rotation_latency.py in the reference host: for each of N rotations of the
fake accelerometer, the time from the sensor sample that completed the decision (the plugin's
debug line, in monotonic time) to the first frame committed with the new transform (the
preload's frame trace, $WLR_ORIENT_TRACE_FRAMES, in monotonic time), twice: with the default
transition, whose first frame the plugin's commit of the transform carries (`sway_`), and with a
cut (`kind = "none"`), whose first frame is sway's own next one (`sway_cut_`). sway runs
headless with pixman, as nobody (it refuses root), with `-d` so that the plugin's debug lines
are printed. Prints named numbers; the bar is one refresh at 60 Hz.
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from harness.compositor import build_client  # noqa: E402
from harness.debian_compositors import Session, configure, sway  # noqa: E402
from harness.fakeiio import G_COUNTS as G  # noqa: E402
from stats import percentile  # noqa: E402

POSES = [((G, 0, 0), 1), ((0, G, 0), 2), ((-G, 0, 0), 3), ((0, -G, 0), 0)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rotations", type=int, default=40)
    a = ap.parse_args()
    scratch = os.path.join("/tmp", "wlr-orient-latency-sway")
    os.makedirs(scratch, exist_ok=True)
    client = build_client(scratch)
    for name, config in (("sway", ""), ("sway_cut", '[transition]\nkind = "none"\n')):
        latencies = measure(client, config, a.rotations)
        print("%s_rotations=%d" % (name, len(latencies)))
        print("%s_sample_to_frame_median_ms=%.2f" % (name, statistics.median(latencies)))
        print("%s_sample_to_frame_p95_ms=%.2f" % (name, percentile(latencies, 95)))
        print("%s_sample_to_frame_max_ms=%.2f" % (name, max(latencies)))
        sys.stdout.flush()
    print("refresh_period_60hz_ms=16.67")


def measure(client, config, rotations):
    s = Session(lambda app, where: sway(app, where) + ["-d"], config, client, extra_env={"WLR_ORIENT_TRACE_FRAMES": "1"})
    latencies = []
    try:
        configure(s.out, timeout=30)
        for i in range(rotations):
            raw, transform = POSES[i % len(POSES)]
            s.fake.set(s.dev, *raw)
            # The decision is the plugin's event; the frame, the preload's trace line on sway's
            # standard error (the preload traces every frame sway commits).
            sample = s.events.wait("decision", timeout=15)["sample_at"] / 1e6
            frame = float(s.log.wait(r"\[wlr-orient preload\] frame \S+ transform %d at ([\d.]+)" % transform,
                                     timeout=15).group(1))
            latencies.append((frame - sample) * 1000)
    finally:
        s.stop()
    return latencies


if __name__ == "__main__":
    main()

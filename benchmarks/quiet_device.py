#!/usr/bin/python3
"""Devices that say when they move, under umockdev, read by the plugin in
the reference host and by the daemon beside it: a HID sensor hub with hysteresis (silent while
still), and a SoC part with motion events (bmc150's any-motion; read only while it moves).

    /usr/bin/python3 benchmarks/quiet_device.py [--steps N] [--idle-seconds S] [--seed S]
                                                [--device hysteresis|motion-events]... [--as root]

The compositor and the daemon run as the seat's user to whom wlr-orient's udev rule gave the
device, against files with the kernel's owners and modes (fakeiio.as_the_kernel_makes_it); with
--as root, as root (what the figures before the rule measured).

For each rotator: the device is turned N times, each after being held still for 1.5-3 s (the
case the idle schedule of a polled device pays for); a step's latency runs from the moment
the fake hub has the new reading to send (it sends within its 20 ms report interval, as a real
one does), or from the motion event with the new values in place to the compositor's first frame committed with the new transform (the host stamps
it with CLOCK_MONOTONIC, the clock this script uses). Then the device lies still for S seconds:
the rotator's wakeups per second (the context switches of every thread of its process, as
benchmarks/wakeups.py and daemon_vs_polling.py count them; for the plugin, the host's with it
less the host's without it, measured in the same run with the host's frame clock slowed to 1 Hz
for both, so that the difference is not lost in its 62 wakeups a second, plus those of the
plugin's sensor helper, printed apart too), and how many reports (scans, events) the device sent.
Prints named numbers.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
sys.path.insert(0, HERE)
from stats import percentile, step_latencies  # noqa: E402
from harness.compositor import Compositor  # noqa: E402
from harness.fakeiio import AS_SEAT_USER, BIN, G_COUNTS as G, NOBODY, FakeIIO  # noqa: E402
from daemon_vs_polling import POSES, TRANSFORM, frames, stop  # noqa: E402
from sensor_vs_iio_sensor_proxy import usage  # noqa: E402


# Who runs the rotators: the seat's user (--as seat) or root (--as root).
USER = {"seat": AS_SEAT_USER, "root": ()}


def device(kind, user):
    fake = FakeIIO()
    if kind == "hysteresis":
        node = fake.add_buffered_accel(hysteresis=True)
        made = fake, fake.quiet_stream(node, scan=POSES["normal"])
    else:
        made = fake, fake.add_moving_accel()
    fake.as_the_kernel_makes_it(seat_user=NOBODY if user else None)
    return made


def run(kind, rotator, steps, idle_seconds, rng, user):
    fake, stream = device(kind, user)
    daemon = None
    if rotator == "plugin":
        host = Compositor(fake, touch=False, user=user)
        pid = host.p.pid
    else:
        host = Compositor(fake, plugin="", touch=False, outputs='["HEADLESS-1"]', user=user)
        env = dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"])
        daemon = subprocess.Popen(list(user) + [BIN, "daemon", "--config", host.config_path], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=fake.pass_fds)
        pid = daemon.pid
    try:
        current = "left-up"
        stream.scan = POSES[current]
        host.wait_frame(TRANSFORM[current], timeout=30)
        made = []
        for _ in range(steps):
            time.sleep(rng.uniform(1.5, 3.0))
            current = rng.choice([o for o in POSES if o != current])
            made.append((time.monotonic(), TRANSFORM[current]))
            stream.scan = POSES[current]
        time.sleep(1.0)
        latencies, missed = step_latencies(made, frames(host))
        time.sleep(1.0)  # the last turn's held readings and transition are over
        if rotator == "plugin":
            slow_frame_clock(host)
        helpers = host.sensor_helper_pids() if rotator == "plugin" else []
        assert rotator != "plugin" or helpers, "the plugin's sensor helper is not running"
        sent, before, helpers_before = stream.sent, usage(pid), usage(*helpers)
        time.sleep(idle_seconds)
        wakeups = (usage(pid)[1] - before[1]) / idle_seconds
        helper_wakeups = (usage(*helpers)[1] - helpers_before[1]) / idle_seconds
        return latencies, missed, wakeups, helper_wakeups, stream.sent - sent
    finally:
        stream.stop()
        if daemon:
            stop([daemon])
        host.stop()


def slow_frame_clock(host):
    """wlroots 0.15's headless output wakes its compositor on every refresh, whether anything
    changed or not (62 times a second here): at 1 Hz, what the plugin adds stands out from it."""
    host.command("refresh 1000", r"^refresh 1000$")


def host_wakeups(idle_seconds):
    """The reference host's own wakeups, without the plugin (its headless output keeps a frame
    clock, slowed to 1 Hz as for the plugin's run): what the plugin's figure is measured against."""
    fake = FakeIIO()
    fake.add_buffered_accel(hysteresis=True)
    host = Compositor(fake, plugin="", touch=False)
    try:
        host.wait_frame(0, timeout=30)
        slow_frame_clock(host)
        time.sleep(2.0)
        before = usage(host.p.pid)
        time.sleep(idle_seconds)
        return (usage(host.p.pid)[1] - before[1]) / idle_seconds
    finally:
        host.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--idle-seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", action="append", choices=["hysteresis", "motion-events"])
    ap.add_argument("--as", dest="user", choices=list(USER), default="seat")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print("quiet_device_steps=%d" % a.steps)
    print("quiet_device_idle_seconds=%.0f" % a.idle_seconds)
    print("quiet_device_as=%s" % a.user)
    baseline = host_wakeups(a.idle_seconds)
    print("quiet_device_host_alone_idle_wakeups_per_s=%.2f" % baseline)
    for kind in a.device or ["hysteresis", "motion-events"]:
        for rotator in ("plugin", "daemon"):
            report("quiet_device_%s_%s" % (kind.replace("-", "_"), rotator), rotator == "plugin", baseline,
                   *run(kind, rotator, a.steps, a.idle_seconds, rng, USER[a.user]))


def report(name, on_host_thread, baseline, lat, missed, wakeups, helper_wakeups, sent):
    if on_host_thread:
        # The plugin runs on the host's thread: what it adds is the difference, and its helper's.
        print("%s_host_idle_wakeups_per_s=%.2f" % (name, wakeups))
        print("%s_sensor_helper_idle_wakeups_per_s=%.2f" % (name, helper_wakeups))
        wakeups = max(0.0, wakeups - baseline) + helper_wakeups
    print("%s_latency_median_ms=%.1f" % (name, statistics.median(lat) if lat else float("nan")))
    print("%s_latency_p95_ms=%.1f" % (name, percentile(lat, 95) if lat else float("nan")))
    print("%s_missed_steps=%d" % (name, missed))
    print("%s_idle_wakeups_per_s=%.2f" % (name, wakeups))
    print("%s_idle_reports_sent=%d" % (name, sent))

if __name__ == "__main__":
    main()

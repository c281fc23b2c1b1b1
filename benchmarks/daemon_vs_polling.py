#!/usr/bin/python3
"""`wlr-orient daemon` beside the two ways Linux rotation tools work today, on one fake
accelerometer and one compositor. Prints named numbers.

    /usr/bin/python3 benchmarks/daemon_vs_polling.py [--steps N] [--idle-seconds S] [--seed S]

The compositor is the reference host without its plugin (wlr-output-management, headless). Three
rotators take turns on it, each given the same kind of steps (the device turned to a new
orientation every 1.5-3 s, drawn at random):
  wlr_orient_daemon   `wlr-orient daemon`;
  rot8_model          rot8's way: read the accelerometer's sysfs files every 500 ms, take the
                      axis gravity pulls along, and run `wlr-randr --transform` on a change;
  iio_sensor_proxy    iio-sensor-proxy (Debian's, polling the same device) and its D-Bus client
                      monitor-sensor, whose orientation changes run `wlr-randr --transform`, as
                      iio-sway and iio-hyprland do with their compositor's IPC (700 ms: its
                      polling rate here).
Latency: from the write of a step's values to the compositor's first frame committed with the new
transform (the host stamps it with CLOCK_MONOTONIC, the clock this script uses). Then the device
lies still: wakeups per second of each rotator's processes (for iio-sensor-proxy: it, its client,
its bus) over the --idle-seconds right after the last turn (`idle`: the still minute, as
benchmarks/quiet_device.py counts it; our sampling plan reads 3 times a second for the first
5 s of it, then once), of which the first 5 s alone (`just_turned`), and over the --idle-seconds
after that (`left_alone`: a device on a desk). Memory: resident set size of the daemon, and of
iio-sensor-proxy + its bus (+ client).
"""
import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from stats import percentile, step_latencies  # noqa: E402
from harness.compositor import Compositor  # noqa: E402
from harness.fakeiio import BIN, G_COUNTS as G, FakeIIO  # noqa: E402
from sensor_vs_iio_sensor_proxy import usage  # noqa: E402

POSES = {"normal": (0, -G, 0), "left-up": (G, 0, 0), "bottom-up": (0, G, 0), "right-up": (-G, 0, 0)}
TRANSFORM = {"normal": 0, "left-up": 1, "bottom-up": 2, "right-up": 3}
RANDR = {"normal": "normal", "left-up": "90", "bottom-up": "180", "right-up": "270"}

# rot8's model, as a process of its own (so that its wakeups are its own): poll, decide, apply.
ROT8_MODEL = r"""
import subprocess, sys, time
directory, period = sys.argv[1], float(sys.argv[2])
randr = {"normal": "normal", "left-up": "90", "bottom-up": "180", "right-up": "270"}
def read(axis):
    with open("%s/in_accel_%s_raw" % (directory, axis)) as f:
        return int(f.read())
current = None
while True:
    x, y = read("x"), read("y")
    if abs(x) > abs(y):
        o = "left-up" if x > 0 else "right-up"
    else:
        o = "bottom-up" if y > 0 else "normal"
    if o != current:
        subprocess.run(["wlr-randr", "--output", "HEADLESS-1", "--transform", randr[o]])
        current = o
    time.sleep(period)
"""

# iio-sensor-proxy's client side, as iio-sway does it: each change monitor-sensor prints is applied.
PROXY_CLIENT = r"""
import re, subprocess, sys
randr = {"normal": "normal", "left-up": "90", "bottom-up": "180", "right-up": "270"}
for line in sys.stdin:
    m = re.search(r"orientation(?: changed)?: ([a-z-]+)", line)
    if m and m.group(1) in randr:
        subprocess.run(["wlr-randr", "--output", "HEADLESS-1", "--transform", randr[m.group(1)]])
"""


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))


def frames(host):
    """(monotonic time, transform) of every frame the host reported so far."""
    out = []
    for line in host.out.available():
        m = re.match(r"^frame \d+ \d+ transform (\d) at ([\d.]+)", line)
        if m:
            out.append((float(m.group(2)), int(m.group(1))))
    return out


def turn(host, fake, dev, rng, steps, current):
    """Turns the device `steps` times; returns the step latencies (ms) and how many were missed."""
    made = []
    for _ in range(steps):
        time.sleep(rng.uniform(1.5, 3.0))
        target = rng.choice([o for o in POSES if o != current])
        t = time.monotonic()
        fake.set(dev, *POSES[target])
        made.append((t, TRANSFORM[target]))
        current = target
    time.sleep(2.0)
    latencies, missed = step_latencies(made, frames(host))
    return latencies, missed, current


JUST_TURNED_S = 5.0


def idle(pids, seconds):
    """Wakeups per second over `seconds` right after the last turn, over the first 5 s of them,
    and over `seconds` more (the device left alone)."""
    start = usage(*pids)
    time.sleep(JUST_TURNED_S)
    first = usage(*pids)
    time.sleep(seconds - JUST_TURNED_S)
    minute = usage(*pids)
    time.sleep(seconds)
    alone = usage(*pids)
    return ((minute[1] - start[1]) / seconds, (first[1] - start[1]) / JUST_TURNED_S,
            (alone[1] - minute[1]) / seconds)


def settle(host, fake, dev, pose, what):
    """Puts the device in `pose` and waits until the rotator has shown it."""
    fake.set(dev, *POSES[pose])
    deadline = time.monotonic() + 15
    while not any(tr == TRANSFORM[pose] for _, tr in frames(host)[-3:]):
        if time.monotonic() > deadline:
            sys.exit("benchmark: %s never showed %s" % (what, pose))
        time.sleep(0.1)


def stop(procs):
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=15)
    ap.add_argument("--idle-seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    missing = [tool for tool in ("iio-sensor-proxy", "monitor-sensor", "dbus-daemon", "stdbuf", "wlr-randr")
               if shutil.which(tool) is None]
    if missing:
        sys.exit("daemon_vs_polling.py: %s not installed (scripts/install-deps.sh bench)" % ", ".join(missing))

    fake = FakeIIO()
    dev = fake.add_accel(udev={"IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"})
    host = Compositor(fake, plugin="", outputs='["HEADLESS-1"]')
    env = dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"])
    results = {}
    try:
        # 1. The daemon.
        daemon = subprocess.Popen([BIN, "daemon", "--config", host.config_path], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            settle(host, fake, dev, "left-up", "the daemon")
            lat, missed, pose = turn(host, fake, dev, rng, a.steps, "left-up")
            results["wlr_orient_daemon"] = (lat, missed, idle([daemon.pid], a.idle_seconds))
            daemon_rss = rss_kib(daemon.pid)
        finally:
            stop([daemon])

        # 2. rot8's model.
        directory = fake.tb.get_root_dir() + dev
        rot8 = subprocess.Popen([sys.executable, "-c", ROT8_MODEL, directory, "0.5"], env=host.client_env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            settle(host, fake, dev, "normal", "rot8's model")
            lat, missed, pose = turn(host, fake, dev, rng, a.steps, "normal")
            results["rot8_model"] = (lat, missed, idle([rot8.pid], a.idle_seconds))
        finally:
            stop([rot8])

        # 3. iio-sensor-proxy, on a bus of its own, with its client applying what it reports.
        bus = subprocess.Popen(["dbus-daemon", "--session", "--print-address", "--nofork"], stdout=subprocess.PIPE, text=True)
        address = bus.stdout.readline().strip()
        penv = fake.env(DBUS_SYSTEM_BUS_ADDRESS=address)
        procs = [bus]
        try:
            proxy = subprocess.Popen(["iio-sensor-proxy"], env=penv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            procs.append(proxy)
            time.sleep(1.0)  # it claims its bus name before the client asks
            monitor = subprocess.Popen(["stdbuf", "-oL", "monitor-sensor"], env=penv, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, text=True)
            client = subprocess.Popen([sys.executable, "-c", PROXY_CLIENT], env=host.client_env, stdin=monitor.stdout,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            procs += [monitor, client]
            settle(host, fake, dev, "right-up", "iio-sensor-proxy")
            lat, missed, pose = turn(host, fake, dev, rng, a.steps, "right-up")
            results["iio_sensor_proxy"] = (lat, missed, idle([proxy.pid, monitor.pid, bus.pid], a.idle_seconds))
            proxy_rss = rss_kib(proxy.pid) + rss_kib(bus.pid)
            monitor_rss = rss_kib(monitor.pid)
        finally:
            stop(procs)
    finally:
        host.stop()

    print("steps=%d" % a.steps)
    for name, (lat, missed, wakeups) in results.items():
        print("%s_latency_median_ms=%.0f" % (name, statistics.median(lat) if lat else float("nan")))
        print("%s_latency_p95_ms=%.0f" % (name, percentile(lat, 95) if lat else float("nan")))
        print("%s_missed_steps=%d" % (name, missed))
        print("%s_idle_wakeups_per_s=%.2f" % (name, wakeups[0]))
        print("%s_just_turned_wakeups_per_s=%.2f" % (name, wakeups[1]))
        print("%s_left_alone_wakeups_per_s=%.2f" % (name, wakeups[2]))
    print("wlr_orient_daemon_rss_kib=%d" % daemon_rss)
    print("iio_sensor_proxy_and_bus_rss_kib=%d" % proxy_rss)
    print("iio_sensor_proxy_client_monitor_sensor_rss_kib=%d" % monitor_rss)


if __name__ == "__main__":
    main()

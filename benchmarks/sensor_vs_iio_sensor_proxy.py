#!/usr/bin/python3
"""Step changes on one fake accelerometer, read at once by wlr-orient and by Debian's
iio-sensor-proxy + monitor-sensor. Prints named numbers.

    /usr/bin/python3 benchmarks/sensor_vs_iio_sensor_proxy.py [--steps N] [--seed S] [--writer W]

Both read the same umockdev device through their own stacks (libiio for us; GUdev/sysfs
polling for iio-sensor-proxy, with IIO_SENSOR_PROXY_TYPE=iio-poll-accel). Latency is from
the first attribute write of a step to the line that reports the new orientation, both
stamped by this script on arrival. CPU is the time on CPU of every thread (/proc/PID/task/*/schedstat)
over the stepping phase; wakeups are the times those threads were put on a CPU (ours: one per
reading), which with the CPU time gives the cost of one wakeup. The steps come every 1.5-3 s,
far more often than anyone turns a tablet; the idle figures that follow are for the device
lying still afterwards, which is most of a real session.

A step writes the new values in place, as sysfs presents them (--writer in-place, the default).
--writer umockdev uses umockdev's own writer instead, which puts a new file in place of the old
one: real sysfs never does that, and it costs only a reader that holds its files open (ours;
iio-sensor-proxy opens each file anew on every poll).
"""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
from stats import percentile, step_latencies  # noqa: E402
from harness.fakeiio import BIN, G_COUNTS as G, FakeIIO  # noqa: E402

POSES = {"normal": (0, -G, 0), "left-up": (G, 0, 0), "bottom-up": (0, G, 0), "right-up": (-G, 0, 0)}


def cpu_and_wakeups(pid):
    """CPU time of all the process's threads (schedstat, ns precision) as seconds, and how many
    times they were put on a CPU (its count of time slices: for a process that sleeps between
    readings, its wakeups)."""
    seconds, slices = 0.0, 0
    for task in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
            fields = f.read().split()
        seconds += int(fields[0]) / 1e9
        slices += int(fields[2])
    return seconds, slices


def usage(*pids):
    """CPU seconds and wakeups of some processes together."""
    pairs = [cpu_and_wakeups(p) for p in pids]
    return sum(c for c, _ in pairs), sum(w for _, w in pairs)


def reader(stream, pattern, sink):
    for line in stream:
        m = re.search(pattern, line)
        if m:
            sink.append((time.monotonic(), m.group(1)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--writer", choices=["in-place", "umockdev"], default="in-place",
                    help="how a step writes the values (see above)")
    ap.add_argument("--idle-seconds", type=float, default=30,
                    help="after the steps, how long the device lies still for the idle figures")
    a = ap.parse_args()
    rng = random.Random(a.seed)

    fake = FakeIIO()
    write = fake.set if a.writer == "in-place" else fake.replace
    dev = fake.add_accel(udev={"IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"})
    bus = subprocess.Popen(["dbus-daemon", "--session", "--print-address", "--nofork"], stdout=subprocess.PIPE, text=True)
    address = bus.stdout.readline().strip()
    env = fake.env(DBUS_SYSTEM_BUS_ADDRESS=address)
    procs = []
    try:
        proxy = subprocess.Popen(["iio-sensor-proxy"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(proxy)
        time.sleep(1.0)  # let it claim its bus name before the client asks
        monitor = subprocess.Popen(["stdbuf", "-oL", "monitor-sensor"], env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True)
        ours = subprocess.Popen([BIN, "sensor", "--json", "--no-samples"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        procs += [monitor, ours]
        peer_events, our_events = [], []
        threading.Thread(target=reader, args=(monitor.stdout, r"orientation(?: changed)?: ([a-z-]+)", peer_events),
                         daemon=True).start()
        threading.Thread(target=reader, args=(ours.stdout, r'"event": "orientation".*"orientation": "([a-z-]+)"',
                                              our_events), daemon=True).start()
        deadline = time.monotonic() + 15
        while not (peer_events and our_events):
            if time.monotonic() > deadline:
                sys.exit("benchmark: a detector never reported (peer %s, ours %s)" % (peer_events, our_events))
            time.sleep(0.05)
        time.sleep(2.0)

        groups = {"ours": [ours.pid], "peer": [proxy.pid, monitor.pid], "bus": [bus.pid]}
        before = {k: usage(*pids) for k, pids in groups.items()}
        t_start = time.monotonic()
        current = "normal"
        steps = []
        for _ in range(a.steps):
            time.sleep(rng.uniform(1.5, 3.0))  # the step's time: the stimulus, drawn at random
            target = rng.choice([o for o in POSES if o != current])
            t = time.monotonic()
            write(dev, *POSES[target])
            steps.append((t, target))
            current = target
        time.sleep(2.0)
        duration = time.monotonic() - t_start
        after = {k: usage(*pids) for k, pids in groups.items()}
        cpu = {k: after[k][0] - before[k][0] for k in groups}
        wakeups = {k: after[k][1] - before[k][1] for k in groups}
        # Then the device lies still, as it does most of a real session.
        time.sleep(a.idle_seconds)
        still = {k: usage(*pids) for k, pids in groups.items()}
        idle_cpu = {k: still[k][0] - after[k][0] for k in groups}
        idle_wakeups = {k: still[k][1] - after[k][1] for k in groups}
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        bus.terminate()

    print("steps=%d" % len(steps))
    print("writer=%s" % a.writer)
    print("duration_s=%.1f" % duration)
    for name, events in (("wlr_orient", our_events), ("iio_sensor_proxy", peer_events)):
        lat, missed = step_latencies(steps, events)
        key = "ours" if name == "wlr_orient" else "peer"
        print("%s_latency_median_ms=%.0f" % (name, statistics.median(lat) if lat else float("nan")))
        print("%s_latency_p95_ms=%.0f" % (name, percentile(lat, 95) if lat else float("nan")))
        print("%s_latency_max_ms=%.0f" % (name, max(lat) if lat else float("nan")))
        print("%s_missed_steps=%d" % (name, missed))
        print("%s_cpu_ms_per_min=%.1f" % (name, cpu[key] * 1000 * 60 / duration))
        print("%s_wakeups_per_min=%.0f" % (name, wakeups[key] * 60 / duration))
        print("%s_cpu_us_per_wakeup=%.0f" % (name, cpu[key] * 1e6 / max(1, wakeups[key])))
    print("iio_sensor_proxy_bus_cpu_ms_per_min=%.1f" % (cpu["bus"] * 1000 * 60 / duration))
    print("iio_sensor_proxy_bus_wakeups_per_min=%.0f" % (wakeups["bus"] * 60 / duration))
    print("idle_s=%.0f" % a.idle_seconds)
    for name, key in (("wlr_orient", "ours"), ("iio_sensor_proxy", "peer"), ("iio_sensor_proxy_bus", "bus")):
        print("%s_idle_cpu_ms_per_min=%.1f" % (name, idle_cpu[key] * 1000 * 60 / a.idle_seconds))
        print("%s_idle_wakeups_per_min=%.0f" % (name, idle_wakeups[key] * 60 / a.idle_seconds))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""A device that refuses its raw values while another program streams it (EBUSY: bmc150 and most
non-HID drivers beside iio-sensor-proxy), read by the plugin in the reference host, its sensor
helper preloaded with Tests/Integration/fakes/raw-reads.c.

    /usr/bin/python3 benchmarks/busy_device.py [--rounds N] [--busy-seconds S]

Each round: the device refuses for S seconds, held as it was; what the plugin said meanwhile (log lines
and sensor events, from the first refusal on) and the CPU time its sensor helpers took are counted. Then the other
program's stream ends and the device is held left-up (or back to normal) at the same moment: the
time to the plugin's `turned` event. Prints named numbers.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from harness.compositor import Compositor  # noqa: E402
from harness.events import wait_transition  # noqa: E402
from harness.fakeiio import LEFT_UP, NORMAL, FakeIIO, fake_library  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except OSError:
        return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--busy-seconds", type=float, default=20)
    a = ap.parse_args()
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    busy = os.path.join(fake.tb.get_root_dir(), "streaming")
    preload = "%s %s" % (fake_library("raw-reads"), fake.env()["LD_PRELOAD"])
    host = Compositor(fake, extra_env={"LD_PRELOAD": preload, "WLR_ORIENT_FAKE_RAW_BUSY": busy})
    said, cpu, recovery = [], [], []
    try:
        host.events.wait("sensor-opened", timeout=30)
        host.events.wait("decision", timeout=30)
        for i in range(a.rounds):
            pose, name = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
            mark = len(host.events.arrived())
            open(busy, "w").close()
            host.events.wait("sensor-lost", timeout=30)
            helpers = host.sensor_helper_pids()
            before = sum(cpu_seconds(p) for p in helpers)
            time.sleep(a.busy_seconds)   # the stimulus: refused this long
            cpu.append(sum(cpu_seconds(p) for p in host.sensor_helper_pids()) - before)
            refused = [e for e in host.events.arrived()[mark:] if e["event"] in ("log", "sensor-lost", "sensor-opened")]
            fake.set(dev, *pose)
            ended = time.monotonic()
            os.unlink(busy)
            host.events.wait_turned(name, timeout=30)
            recovery.append((time.monotonic() - ended) * 1000)
            wait_transition(host.events)   # what the turn says is said before the next round
            said.append(len(refused))
    finally:
        host.stop()
    print("busy_seconds=%.0f" % a.busy_seconds)
    print("busy_rounds=%d" % a.rounds)
    print("busy_lines_max=%d" % max(said))
    print("busy_helper_cpu_percent_max=%.2f" % (100 * max(cpu) / a.busy_seconds))
    print("busy_first_turn_after_ms_median=%.0f" % statistics.median(recovery))
    print("busy_first_turn_after_ms_max=%.0f" % max(recovery))


if __name__ == "__main__":
    main()

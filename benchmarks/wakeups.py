#!/usr/bin/python3
"""Wakeups per second of an idle session at default settings.

    /usr/bin/python3 benchmarks/wakeups.py [SECONDS] [--device polled|hysteresis]

Starts sensor-bench (release build) against a still fake accelerometer under umockdev
and prints its named numbers: wakeups while sampling idle, and after stop(). The device is a
polled one (the default), or a buffered HID sensor hub with hysteresis, which sends nothing
while still; the numbers of the second are prefixed `hysteresis_`.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
from harness.fakeiio import ROOT, FakeIIO  # noqa: E402

bench = os.environ.get("SENSOR_BENCH_BIN", os.path.join(ROOT, ".build", "release", "sensor-bench"))
args = sys.argv[1:]
device = "polled"
if "--device" in args:
    i = args.index("--device")
    device = args[i + 1]
    del args[i:i + 2]
fake = FakeIIO()
if device == "hysteresis":
    fake.add_buffered_accel(hysteresis=True)
else:
    fake.add_accel()
r = subprocess.run([bench] + args, env=fake.env(), capture_output=True, text=True)
prefix = "" if device == "polled" else device + "_"
sys.stdout.write("".join(prefix + line + "\n" for line in r.stdout.splitlines()))
if r.returncode != 0:
    sys.exit("wakeups.py: sensor-bench failed: %s" % r.stderr.strip()[-300:])

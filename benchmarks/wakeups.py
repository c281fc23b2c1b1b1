#!/usr/bin/python3
"""Wakeups per second of an idle session at default settings (issue #4, point 5).

    /usr/bin/python3 benchmarks/wakeups.py [SECONDS]

Starts sensor-bench (release build) against a still fake accelerometer under umockdev
and prints its named numbers: wakeups while sampling idle, and after stop().
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
from fakeiio import ROOT, FakeIIO  # noqa: E402

bench = os.environ.get("SENSOR_BENCH_BIN", os.path.join(ROOT, ".build", "release", "sensor-bench"))
fake = FakeIIO()
fake.add_accel()
r = subprocess.run([bench] + sys.argv[1:], env=fake.env(), capture_output=True, text=True)
sys.stdout.write(r.stdout)
if r.returncode != 0:
    sys.exit("wakeups.py: sensor-bench failed: %s" % r.stderr.strip()[-300:])

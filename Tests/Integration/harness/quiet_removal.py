"""Run by test_sensor.py under libumockdev-preload (the testbed sends uevents only from a preloaded
process): a device with hysteresis that goes away is said to be lost when udev announces its
removal, though it had fallen silent long before, and the next one is opened. Exits 0 if all held."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.fakeiio import G_COUNTS as G, FakeIIO, Program  # noqa: E402

fake = FakeIIO()
fake.add_buffered_accel(hysteresis=True)
# The program under test is preloaded as always; this script's own preload only lets it send uevents.
p = Program(["sensor", "--json"], fake.env())
try:
    assert p.wait_event("opened")["mode"] == "hysteresis"
    p.wait_event("orientation", orientation="normal")
    # umockdev builds the announcement from sysfs, so it goes first; the device follows at once
    # (before the sensor's first quick look again, 0.1 s later).
    fake.tb.uevent("/sys/devices/iio:device0", "remove")
    gone = time.monotonic()
    fake.remove("/sys/devices/iio:device0")
    fake.remove("/sys/devices/trigger0")
    lost = p.wait_event("lost", timeout=5)
    assert "udev announced the removal" in lost["reason"], lost
    print("lost_after_s=%.3f" % (time.monotonic() - gone))
    fake.add_buffered_accel("iio:device1", hysteresis=True, raw=(G, 0, 0))
    fake.tb.uevent("/sys/devices/iio:device1", "add")
    opened = p.wait_event("opened", timeout=5)
    assert opened["id"] == "iio:device1" and opened["mode"] == "hysteresis", opened
    p.wait_event("orientation", orientation="left-up")
finally:
    p.stop()
assert p.p.returncode in (0, -15), p.p.returncode
print("ok")

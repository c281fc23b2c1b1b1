"""Run by test_udev.py under libumockdev-preload (the testbed sends uevents only from a preloaded
process): a compositor started without an accelerometer waits for udev, not for a rescan, and
opens the accelerometer as soon as udev announces it. Prints what it measured; exits 0 if all held."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.compositor import Compositor  # noqa: E402
from harness.fakeiio import G_COUNTS as G, FakeIIO  # noqa: E402

fake = FakeIIO()
host = Compositor(fake, touch=False)
try:
    # The quick looks are over; from now on only udev, or a look every 5 s (Backoff.watchedDelay).
    host.events.wait("sensor-awaits-udev", timeout=10)
    added = time.monotonic()
    device = fake.add_accel(raw=(G, 0, 0))
    fake.tb.uevent(device, "add")
    host.events.wait("sensor-opened", device="iio:device0", timeout=10)
    print("found_after_s=%.3f" % (time.monotonic() - added))
    host.wait_frame(1)
finally:
    assert host.stop() == 0
print("ok")

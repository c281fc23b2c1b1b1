"""Accelerometers that are slow or refuse their raw values, as real ones do (fakes/raw-reads.c):
a HID sensor hub answers each raw read synchronously (up to 5 s, the kernel's wait), and most
other drivers refuse raw reads with EBUSY while another program streams them. The plugin in the
reference host, its sensor helper preloaded with the fake."""
import os
import select
import time

import pytest

from harness.compositor import Compositor
from harness.fakeiio import LEFT_UP, NORMAL, FakeIIO, fake_library


def session(fake, **env):
    preload = "%s %s" % (fake_library("raw-reads"), fake.env()["LD_PRELOAD"])
    return Compositor(fake, extra_env=dict(env, LD_PRELOAD=preload))


@pytest.mark.slow
@pytest.mark.parametrize("delay_ms", [600, 2500])
def test_a_slow_hub_held_in_a_new_orientation_turns_the_panel_and_is_named_slow(delay_ms):
    """Each raw read 0.6 or 2.5 s late: a reading (x, y and z) every 1.8 or 7.5 s, the second
    longer than the silence the host takes for a hang (the helper says the reading goes on)."""
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = session(fake, WLR_ORIENT_FAKE_RAW_DELAY_MS=str(delay_ms))
    try:
        status = host.events.wait_status(lambda s: s["sensor_state"]["slow_reading_ms"] is not None, timeout=60,
                                         what="the device named slow")
        assert status["sensor_state"]["slow_reading_ms"] >= 3 * delay_ms - 100, status["sensor_state"]
        helpers = host.sensor_helper_pids()
        fake.set(dev, *LEFT_UP)
        host.events.wait_turned("left-up", timeout=60)
        assert host.sensor_helper_pids() == helpers, "a helper whose reads were making progress was replaced"
        assert "it is slow" in host.cli("status").stdout
    finally:
        assert host.stop() == 0


def test_raw_values_refused_while_another_program_streams_cost_two_lines_and_a_second():
    """The busy fallback's own case (bmc150 and most non-HID drivers, beside iio-sensor-proxy):
    the loss is said once, the device tried again every second, and it is read again within
    about a second of the other program's stream ending."""
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    busy = os.path.join(fake.tb.get_root_dir(), "streaming")
    open(busy, "w").close()
    host = session(fake, WLR_ORIENT_FAKE_RAW_BUSY=busy)
    try:
        lost = host.events.wait("sensor-lost", timeout=30)
        assert "refuses its raw values while another program streams it" in lost["why"], lost
        mark = len(host.events.arrived())
        # Five seconds of refusals, counted in the host's refreshes (60 Hz).
        for _ in range(300):
            host.command("next-frame", r"^next-frame$")
        during = host.events.arrived()[mark:]
        said = [e for e in during if e["event"] in ("log", "sensor-lost", "sensor-opened")]
        assert len(said) <= 2, "%d lines while refused: %s" % (len(said), said[:6])
        os.unlink(busy)
        fake.set(dev, *LEFT_UP)
        host.events.wait("sensor-opened", timeout=5)
        host.events.wait_turned("left-up", timeout=10)
    finally:
        assert host.stop() == 0


@pytest.mark.slow
def test_a_helper_in_a_slow_read_ends_within_a_moment_of_its_killed_compositor():
    """Each raw read of a HID hub 2.5 s late, and the compositor killed: the helper's own signal
    (SIGTERM, as its parent dies) cuts the read in progress short, as the kernel does, and the
    rest of that reading (two more reads, 5 s) is not begun. It ends well within its 2 s grace,
    whose alarm would otherwise end it before it released the device."""
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = session(fake, WLR_ORIENT_FAKE_RAW_DELAY_MS="2500")
    try:
        host.events.wait("sensor-opened", timeout=60)   # its first reading took 7.5 s; the next has begun
        (helper,) = host.sensor_helper_pids()
        ends = os.pidfd_open(helper)
        host.p.kill()
        host.p.wait()
        killed = time.monotonic()
        ended = select.select([ends], [], [], 10)[0]
        took = time.monotonic() - killed
        os.close(ends)
        assert ended and took < 1.5, "the helper ended %.1f s after its compositor" % took
    finally:
        host.stop()

"""Beside Debian's iio-sensor-proxy, in both start orders, on one HID sensor hub: it runs as root
on a system bus of its own with monitor-sensor claiming the accelerometer, the compositor as the
seat's user whom the udev rule gave the device. iio-sensor-proxy switches the hub's buffer on when
it starts and opens the node every 700 ms to read it; a node held by another gets it EBUSY, and it
never switches a buffer on again."""
import re
import subprocess

import pytest

from harness.compositor import Compositor
from harness.fakeiio import AS_SEAT_USER, G_COUNTS as G, NOBODY, FakeIIO, Lines
from test_sensor_session import held, sensor_state, stop


@pytest.fixture(autouse=True)
def iio_sensor_proxy_is_installed():
    """Fails (never skips) where it is missing; checked when a test runs, not when the module is
    read, so that a run selecting other tests (a Debian root's) does not need it."""
    if subprocess.run(["sh", "-c", "command -v iio-sensor-proxy"], capture_output=True).returncode != 0:
        pytest.fail("iio-sensor-proxy is missing: bash scripts/install-deps.sh test installs it")


class Proxy:
    """iio-sensor-proxy on a private system bus, and monitor-sensor claiming the accelerometer."""

    def __init__(self, fake):
        self.monitor = self.proxy = None
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--print-address", "--nofork"],
                                    stdout=subprocess.PIPE, text=True)
        try:
            self._start(fake)
        except BaseException:
            self.stop()
            raise

    def _start(self, fake):
        env = fake.env(DBUS_SYSTEM_BUS_ADDRESS=self.bus.stdout.readline().strip())
        self.proxy = subprocess.Popen(["iio-sensor-proxy"], env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True)
        self.log = Lines(self.proxy.stderr)
        self.monitor = subprocess.Popen(["stdbuf", "-oL", "monitor-sensor"], env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.out = Lines(self.monitor.stdout, context=lambda: "; iio-sensor-proxy said %s" % self.log.available()[-5:])
        # Its bus name taken and its driver open (the hub's buffer switched on): it says it has one.
        self.out.wait(r"=== Has accelerometer", timeout=15)

    def wait_orientation(self, orientation, timeout=10):
        self.out.wait(r"orientation(?: changed)?: %s\b" % re.escape(orientation), timeout)

    def stop(self):
        for p in (self.monitor, self.proxy, self.bus):
            if p is None:
                continue
            if p.poll() is None:
                p.terminate()
            p.wait(timeout=10)


def hub():
    fake = FakeIIO()
    node = fake.add_buffered_accel(hysteresis=True)
    # What its udev rules (80-iio-sensor-proxy.rules) tag a device with scan elements.
    fake.tb.set_property("/sys/devices/iio:device0", "IIO_SENSOR_PROXY_TYPE", "iio-buffer-accel")
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    return fake, node


@pytest.fixture
def device():
    fake, node = hub()
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    fake.set("/sys/devices/iio:device0", 0, -G, 0)
    yield fake, node, stream
    stream.stop()


def test_started_before_us_it_keeps_reporting_and_we_turn(device):
    fake, node, stream = device
    proxy = Proxy(fake)
    host = None
    try:
        proxy.wait_orientation("normal")
        host = Compositor(fake, touch=False, user=AS_SEAT_USER)
        host.wait_frame(0, timeout=30)
        state = sensor_state(host, lambda s: s["state"] == "reading", "reading")
        assert state["mode"] == "polled" and state["limit"] == "busy", state
        held(fake, stream, (G, 0, 0))
        host.wait_frame(1)
        proxy.wait_orientation("left-up")
        held(fake, stream, (0, G, 0))
        host.wait_frame(2)
        proxy.wait_orientation("bottom-up")
    finally:
        if host:
            assert stop(host) == 0
        proxy.stop()
    assert not [line for line in proxy.log.drain() if "Failed to open" in line], "we took its device"


def test_started_after_us_it_reports_again_as_soon_as_we_end(device):
    fake, node, stream = device
    host = Compositor(fake, touch=False, user=AS_SEAT_USER)
    proxy = None
    try:
        host.wait_frame(0, timeout=30)
        assert sensor_state(host, lambda s: s["state"] == "reading", "reading")["mode"] == "hysteresis"
        proxy = Proxy(fake)
        held(fake, stream, (G, 0, 0))
        host.wait_frame(1)
        assert stop(host) == 0
        # Ours ended: the buffer it set up is left on for iio-sensor-proxy, which reads it again
        # (through the buffer alone: the raw values stay as they were).
        stream.scan = (0, G, 0)
        proxy.wait_orientation("bottom-up", timeout=10)
        stream.scan = (-G, 0, 0)
        proxy.wait_orientation("right-up", timeout=10)
    finally:
        if host.p.poll() is None:
            stop(host)
        if proxy:
            proxy.stop()

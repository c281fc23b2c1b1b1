"""Devices that say when they move turn the panel from the plugin in the reference host
and from the daemon beside it: a HID sensor hub with hysteresis, quiet when still, and a SoC part
with motion events (bmc150's any-motion), read only while it moves. Each rotator says how it reads
the device, and a turn is taken (the latency and the idle wakeups are figures of
benchmarks/quiet_device.py)."""
import os
import re
import subprocess
import time

import pytest

from harness.compositor import Compositor
from harness.fakeiio import BIN, G_COUNTS as G, FakeIIO, Lines

KINDS = {
    "hysteresis": r"read: hysteresis \(the device reports only a change",
    "motion-events": r"read: motion-events \(the device says when it moves \(roc events\)",
}


def device(kind):
    fake = FakeIIO()
    if kind == "hysteresis":
        node = fake.add_buffered_accel(hysteresis=True)
        return fake, fake.quiet_stream(node, scan=(0, -G, 0))
    return fake, fake.add_moving_accel()


def turn(host, moving):
    host.wait_frame(0, timeout=30)
    moving.scan = (G, 0, 0)
    host.wait_frame(1)
    moving.scan = (0, G, 0)
    host.wait_frame(2)
    if hasattr(moving, "wait_ticks"):
        # Still now: the hub sends nothing more.
        sent = moving.sent
        moving.wait_ticks(10)
        assert moving.sent == sent, "a still hub with hysteresis kept sending"


@pytest.mark.parametrize("kind", KINDS)
def test_the_plugin_turns_with_a_device_that_says_when_it_moves(kind):
    fake, moving = device(kind)
    host = Compositor(fake, touch=False)
    try:
        host.events.wait_for("sensor-opened", lambda e: re.search(KINDS[kind], e["description"]), what=KINDS[kind])
        turn(host, moving)
    finally:
        moving.stop()
        assert host.stop() == 0


@pytest.mark.parametrize("kind", KINDS)
def test_the_daemon_turns_with_a_device_that_says_when_it_moves(kind):
    fake, moving = device(kind)
    host = Compositor(fake, plugin="", touch=False, outputs='["HEADLESS-1"]')
    env = dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"])
    daemon = subprocess.Popen([BIN, "daemon", "--config", host.config_path], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, pass_fds=fake.pass_fds)
    Lines(daemon.stderr)  # read, so that the daemon never blocks on a full pipe
    try:
        host.events.wait_for("sensor-opened", lambda e: re.search(KINDS[kind], e["description"]), what=KINDS[kind])
        turn(host, moving)
        assert daemon.poll() is None
    finally:
        moving.stop()
        daemon.terminate()
        assert daemon.wait(timeout=10) == 0
        assert host.stop() == 0


def test_the_plugins_helper_switches_the_motion_events_off_when_the_compositor_ends():
    # The helper sees the end of its socket and releases the device: a part left with its
    # events on would go on waking the system after the session.
    fake, moving = device("motion-events")
    host = Compositor(fake, touch=False)
    try:
        host.events.wait_for("sensor-opened", lambda e: re.search(KINDS["motion-events"], e["description"]), what=KINDS["motion-events"])
        helpers = host.sensor_helper_pids()
        assert len(helpers) == 1 and moving.enabled()
    finally:
        moving.stop()
        assert host.stop() == 0
    deadline = time.monotonic() + 10
    while os.path.exists("/proc/%d" % helpers[0]) and time.monotonic() < deadline:
        time.sleep(0.02)   # the helper is no child of this process: nothing to wait on but its /proc entry
    assert not moving.enabled(), "the helper ended without switching the motion events off"

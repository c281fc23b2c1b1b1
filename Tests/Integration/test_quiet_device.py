"""A HID sensor hub with hysteresis, quiet when still (issue #26), turns the panel from the plugin
in the reference host and from the daemon beside it: each says how it reads the device, and a
turn reported by the hub's single scan is taken (the latency and the idle wakeups are figures of
benchmarks/quiet_device.py)."""
import subprocess

from compositor import Compositor
from fakeiio import BIN, G_COUNTS as G, FakeIIO, Lines


def turn_and_back(host, stream):
    host.wait_frame(0, timeout=30)
    stream.scan = (G, 0, 0)
    host.wait_frame(1)
    stream.scan = (0, G, 0)
    host.wait_frame(2)
    # Still now: the hub sends nothing more.
    sent = stream.sent
    stream.wait_ticks(10)
    assert stream.sent == sent, "a still hub with hysteresis kept sending"


def test_the_plugin_turns_with_a_device_quiet_when_still():
    fake = FakeIIO()
    node = fake.add_buffered_accel(hysteresis=True)
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    host = Compositor(fake, touch=False)
    try:
        host.log.wait(r"accelerometer: iio:device0 .*read: hysteresis \(the device reports only a change")
        turn_and_back(host, stream)
    finally:
        stream.stop()
        assert host.stop() == 0


def test_the_daemon_turns_with_a_device_quiet_when_still():
    fake = FakeIIO()
    node = fake.add_buffered_accel(hysteresis=True)
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    host = Compositor(fake, plugin="", touch=False, outputs='["HEADLESS-1"]')
    env = dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"])
    daemon = subprocess.Popen([BIN, "daemon", "--config", host.config_path], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = Lines(daemon.stderr)
    try:
        log.wait(r"accelerometer: iio:device0 .*read: hysteresis \(the device reports only a change")
        turn_and_back(host, stream)
        assert daemon.poll() is None
    finally:
        stream.stop()
        daemon.terminate()
        assert daemon.wait(timeout=10) == 0
        assert host.stop() == 0

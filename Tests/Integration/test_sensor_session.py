"""The plugin's sensor in a session as people run it: the compositor runs as the user who logged in
(not root), against fake devices given the kernel's owners, modes and one-opener rules
(fakeiio.as_the_kernel_makes_it, fakes/iio-kernel.c), beside other readers of the same device, and
its sensor helper never outlives it."""
import contextlib
import fcntl
import json
import os
import re
import select
import signal
import subprocess
import time

from harness.compositor import Compositor
from harness.fakeiio import AS_NOBODY, AS_SEAT_USER, BIN, G_COUNTS as G, NOBODY, FakeIIO, Lines

HUB = "/sys/devices/iio:device0"


def hub(grant):
    """A HID sensor hub with hysteresis, as the kernel makes it, with the udev rule's grant or
    without."""
    fake = FakeIIO()
    node = fake.add_buffered_accel(hysteresis=True)
    fake.as_the_kernel_makes_it(seat_user=NOBODY if grant else None)
    return fake, node


def held(fake, stream, scan):
    """The device held another way: what its buffer sends and its raw values say alike."""
    if stream:
        stream.scan = scan
    fake.set(HUB, *scan)


def sensor_state(host, predicate, what, timeout=15):
    """Waits for the plugin's status to show the sensor so (`wlr-orient watch --json` prints the
    status now and on each change); its sensor_state."""
    if not hasattr(host, "watch"):
        env = dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"], LD_PRELOAD="")
        host.watch = subprocess.Popen(list(host.user) + [BIN, "watch", "--json"], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        host.watched = Lines(host.watch.stdout)
    line = host.watched.next(lambda l: predicate(json.loads(l)["sensor_state"]), timeout, what)
    return json.loads(line)["sensor_state"]


def stop(host):
    """Stops the host and what watches it; its exit status."""
    if hasattr(host, "watch"):
        host.watch.terminate()
        host.watch.wait(timeout=10)
    return host.stop()


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def ended(pid, timeout):
    """Waits until a process that is not ours has ended (its pidfd becomes readable)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    finally:
        os.close(fd)


def test_without_the_udev_rule_a_session_turns_a_hub_from_its_raw_values_and_says_why():
    fake, _ = hub(grant=False)
    host = Compositor(fake, touch=False, user=AS_NOBODY)
    try:
        host.wait_frame(0, timeout=30)
        state = sensor_state(host, lambda s: s["state"] == "reading", "reading")
        assert state["mode"] == "polled" and state["limit"] == "denied" and "udev rule" in state["why"], state
        age = host.status()["sensor_state"]["last_report_ms"]
        assert age is not None and age < 5000, age
        held(fake, None, (G, 0, 0))
        host.wait_frame(1)
        assert "read from its raw values" in host.cli("status").stdout
    finally:
        assert stop(host) == 0


def attributes(fake):
    """Every attribute of the hub, by its path, as it reads now (the raw values aside: the device
    moves)."""
    device = fake.tb.get_root_dir() + "/sys/devices/iio:device0"
    found = {}
    for d, _, names in os.walk(device):
        for name in names:
            path = os.path.join(d, name)
            if not name.endswith("_raw") and not os.path.islink(path):
                with open(path, "rb") as f:   # as sysfs shows a value: its line end aside
                    found[os.path.relpath(path, device)] = f.read().rstrip(b"\n\0")
    return found


def test_with_the_udev_rule_a_session_reads_the_hub_quietly_and_leaves_it_as_it_was():
    fake, node = hub(grant=True)
    before = attributes(fake)
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    host = Compositor(fake, touch=False, user=AS_SEAT_USER)
    helpers = []
    try:
        host.wait_frame(0, timeout=30)
        state = sensor_state(host, lambda s: s["state"] == "reading", "reading")
        assert state["mode"] == "hysteresis" and state["limit"] is None, state
        held(fake, stream, (G, 0, 0))
        host.wait_frame(1)
        helpers = host.sensor_helper_pids()
    finally:
        stream.stop()
        assert stop(host) == 0
    # The helper switches the buffer off as it ends, which may be after its compositor has.
    for pid in helpers:
        assert ended(pid, timeout=10), "a helper outlived its compositor"
    assert fake.buffer_enabled(node) is False, "the buffer was left on"
    after = attributes(fake)
    changed = {name: (before[name], after.get(name)) for name in before if after.get(name) != before[name]}
    assert changed == {}, "the session left these changed (before, after): %s" % changed


def test_the_clis_sensor_and_record_beside_a_session_leave_it_turning():
    """They read the raw values (the session holds the buffer) and write nothing: libiio's buffer
    set-up would have switched the session's stream off for good."""
    fake, node = hub(grant=True)
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    host = Compositor(fake, touch=False, user=AS_SEAT_USER)
    try:
        host.wait_frame(0, timeout=30)
        sensor_state(host, lambda s: s["mode"] == "hysteresis", "hysteresis")
        sensed = subprocess.run(list(AS_SEAT_USER) + [BIN, "sensor", "--json", "--no-samples", "--seconds", "1.5"],
                                env=fake.env(), capture_output=True, text=True, timeout=30)
        assert sensed.returncode == 0, sensed.stderr
        assert '"mode": "polled"' in sensed.stdout and '"limit": "busy"' in sensed.stdout, sensed.stdout
        trace = os.path.join(fake.tb.get_root_dir(), "recorded.csv")
        recorded = subprocess.run(list(AS_SEAT_USER) + [BIN, "record", "--seconds", "1.5", "-o", trace],
                                  env=fake.env(), capture_output=True, text=True, timeout=30)
        assert recorded.returncode == 0 and os.path.getsize(trace) > 0, recorded.stderr
        assert fake.buffer_enabled(node), "a reader beside the session switched its buffer off"
        held(fake, stream, (G, 0, 0))
        host.wait_frame(1)
        held(fake, stream, (0, G, 0))
        host.wait_frame(2)
    finally:
        stream.stop()
        assert stop(host) == 0


@contextlib.contextmanager
def two_sessions():
    """Two sessions of the seat's user on one hub: the first reads it with hysteresis, the second
    polled, the buffer being the first's. (fake, stream, first, second); each stopped after."""
    fake, node = hub(grant=True)
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    first = Compositor(fake, touch=False, user=AS_SEAT_USER)
    second = None
    try:
        first.wait_frame(0, timeout=30)
        sensor_state(first, lambda s: s["mode"] == "hysteresis", "the first session with the buffer")
        second = Compositor(fake, touch=False, user=AS_SEAT_USER)
        second.wait_frame(0, timeout=30)
        state = sensor_state(second, lambda s: s["state"] == "reading", "the second session reading")
        assert state["mode"] == "polled" and state["limit"] == "busy", state
        yield fake, stream, first, second
    finally:
        stream.stop()
        if second:
            assert stop(second) == 0
        if first.p.poll() is None:
            assert stop(first) == 0


def test_two_sessions_of_one_user_on_one_hub_both_turn():
    with two_sessions() as (fake, stream, first, second):
        held(fake, stream, (G, 0, 0))
        first.wait_frame(1)
        second.wait_frame(1)
        held(fake, stream, (-G, 0, 0))
        first.wait_frame(3)
        second.wait_frame(3)


def test_when_the_session_with_the_buffer_ends_the_other_reads_it_quietly():
    with two_sessions() as (fake, stream, first, second):
        assert stop(first) == 0
        state = sensor_state(second, lambda s: s["state"] == "reading" and s["limit"] is None,
                             "the second session reading without a limit")
        assert state["mode"] == "hysteresis", state
        held(fake, stream, (G, 0, 0))
        second.wait_frame(1)


def test_a_node_held_without_a_stream_is_read_polled_and_its_buffer_taken_once_let_go():
    """Another reader holds the node with the buffer off (a reader of its events; or a session
    that has not switched its buffer on yet, or whose helper is still going away): the session
    reads it polled, looks again now and then, and takes the buffer once the node is free."""
    fake, node = hub(grant=True)
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    holder = open(os.path.join(fake.locks, "iio:device0.node"))
    fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)   # as fakes/iio-kernel.c holds an open node
    host = Compositor(fake, touch=False, user=AS_SEAT_USER)
    try:
        host.wait_frame(0, timeout=30)
        state = sensor_state(host, lambda s: s["state"] == "reading", "reading")
        assert state["mode"] == "polled" and state["limit"] == "busy", state
        holder.close()
        sensor_state(host, lambda s: s["mode"] == "hysteresis" and s["limit"] is None, "the buffer taken")
        held(fake, stream, (G, 0, 0))
        host.wait_frame(1)
    finally:
        holder.close()
        stream.stop()
        assert stop(host) == 0


def test_a_helper_that_hangs_is_replaced_within_its_promise_and_said_once():
    """Stopped (it reads nothing and SIGTERM waits), the helper of a polled device misses the
    reading its pace promised: the plugin kills it after the margin and starts another."""
    fake = FakeIIO()
    fake.add_accel(raw=(0, -G, 0))
    fake.as_the_kernel_makes_it()
    host = Compositor(fake, touch=False, user=AS_NOBODY)
    try:
        host.wait_frame(0, timeout=30)
        sensor_state(host, lambda s: s["state"] == "reading", "reading")
        (helper,) = host.sensor_helper_pids()
        os.kill(helper, signal.SIGSTOP)
        stopped = time.monotonic()
        lost = host.events.wait("sensor-lost", timeout=15)
        noticed = time.monotonic() - stopped
        assert noticed < 6.0 + 1.0 + 2.0, "noticed after %.1f s" % noticed   # margin + the slowest pace + slack
        assert re.search(r"stopped answering \(nothing in \d+ s, where its reading promised a report\): killed", lost["why"]), lost
        lost = sensor_state(host, lambda s: s["state"] == "lost", "lost")
        assert "stopped answering" in lost["why"], lost
        sensor_state(host, lambda s: s["state"] == "reading", "reading again")
        assert not alive(helper)
        held(fake, None, (G, 0, 0))
        host.wait_frame(1)
    finally:
        assert stop(host) == 0
    said = [line for line in host.log.drain() if "stopped answering" in line]
    assert len(said) == 1, said


def test_no_helper_outlives_a_killed_compositor_and_the_next_session_gets_the_device():
    fake, node = hub(grant=True)
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    host = Compositor(fake, touch=False, user=AS_SEAT_USER)
    try:
        host.wait_frame(0, timeout=30)
        sensor_state(host, lambda s: s["mode"] == "hysteresis", "hysteresis")
        helpers = host.sensor_helper_pids()
        assert helpers
        host.p.kill()
        host.p.wait()
        host.watch.terminate()
        for pid in helpers:
            assert ended(pid, timeout=5), "a helper outlived its compositor"
        assert not fake.buffer_enabled(node), "the helper did not release the device"
        again = Compositor(fake, touch=False, user=AS_SEAT_USER)
        try:
            again.wait_frame(0, timeout=30)
            state = sensor_state(again, lambda s: s["state"] == "reading", "reading")
            assert state["mode"] == "hysteresis" and state["limit"] is None, state
            held(fake, stream, (G, 0, 0))
            again.wait_frame(1)
        finally:
            assert stop(again) == 0
    finally:
        stream.stop()
        if host.p.poll() is None:
            host.p.kill()


def test_the_daemon_as_the_user_turns_a_hub_it_may_not_open_and_says_why():
    """`wlr-orient daemon` reads the sensor in its own process: the same choice, as nobody."""
    fake, _ = hub(grant=False)
    host = Compositor(fake, plugin="", touch=False, outputs='["HEADLESS-1"]', user=AS_NOBODY)
    env = dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"])
    daemon = subprocess.Popen(list(AS_NOBODY) + [BIN, "daemon", "--config", host.config_path], env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    Lines(daemon.stderr)  # read, so that the daemon never blocks on a full pipe
    try:
        opened = host.events.wait("sensor-opened", device="iio:device0", timeout=30)
        assert re.search(r"read: polled \(this user may not open the device's node", opened["description"]), opened
        state = sensor_state(host, lambda s: s["state"] == "reading", "reading")
        assert state["limit"] == "denied", state
        held(fake, None, (G, 0, 0))
        host.wait_frame(1, timeout=15)
        assert daemon.poll() is None
    finally:
        daemon.terminate()
        assert daemon.wait(timeout=10) == 0
        assert stop(host) == 0

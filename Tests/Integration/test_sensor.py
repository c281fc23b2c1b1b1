"""The sensor layer against fake accelerometers under umockdev."""
import os
import subprocess
import time

import pytest

from harness.fakeiio import BIN, G_COUNTS, ROOT, WITHOUT_INOTIFY, FakeIIO, Program, play, read_trace

G = G_COUNTS


@pytest.fixture
def fake():
    return FakeIIO()


def sensor(fake, *extra, env=None, prefix=()):
    return Program(["sensor", "--json"] + list(extra), env or fake.env(), prefix=prefix)


def test_polled_device_is_read_and_judged(fake):
    dev = fake.add_accel()
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["id"] == "iio:device0" and opened["buffered"] is False
        assert opened["matrix_source"] == "identity"
        p.wait_event("orientation", orientation="normal")
        fake.set(dev, G, 0, 0)  # the left edge is up
        p.wait_event("orientation", orientation="left-up")
        s = p.wait_event("sample")
        assert abs(s["ms2"][0] - 9.807) < 0.05
    finally:
        p.stop()


def test_mount_matrix_from_sysfs_is_applied(fake):
    # M·(G, 0, 0) = (0, -G, 0): upright for this device, though its raw x axis points up.
    fake.add_accel(raw=(G, 0, 0), sysfs_matrix="0, 1, 0; -1, 0, 0; 0, 0, 1")
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["matrix_source"] == "sysfs"
        assert opened["matrix"] == "0, 1, 0; -1, 0, 0; 0, 0, 1"
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()


def test_udev_mount_matrix_wins_over_sysfs(fake):
    fake.add_accel(raw=(0, G, 0), sysfs_matrix="0, 1, 0; -1, 0, 0; 0, 0, 1",
                   udev={"ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, -1, 0; 0, 0, 1"})
    p = sensor(fake)
    try:
        assert p.wait_event("opened")["matrix_source"] == "udev"
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()


def test_config_mount_matrix_wins_over_udev(fake):
    fake.add_accel(raw=(0, -G, 0), udev={"ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, -1, 0; 0, 0, 1"})
    config = os.path.join(fake.tb.get_root_dir(), "c.toml")
    with open(config, "w") as f:
        f.write('[device]\nmount-matrix = "0, -1, 0; 1, 0, 0; 0, 0, 1"\n')
    p = sensor(fake, "--config", config)
    try:
        assert p.wait_event("opened")["matrix_source"] == "config"
        # M·(0, -G, 0) = (G, 0, 0): left-up.
        p.wait_event("orientation", orientation="left-up")
    finally:
        p.stop()


def test_an_unparsable_matrix_is_reported_with_its_source_and_ignored(fake):
    fake.add_accel(raw=(G, 0, 0), sysfs_matrix="0, 1, 0; -1, 0, 0; 0, 0, 1",
                   udev={"ACCEL_MOUNT_MATRIX": "1, 0; banana"})
    p = sensor(fake)
    try:
        log = p.wait_event("log")
        assert "udev ACCEL_MOUNT_MATRIX" in log["message"] and "banana" in log["message"]
        assert p.wait_event("opened")["matrix_source"] == "sysfs"
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()


@pytest.mark.parametrize("how", ["label", "udev-location", "sysfs-location"])
def test_of_two_accelerometers_the_display_one_is_chosen(fake, how):
    base = {"label": {"label": "accel-base"}, "udev-location": {"udev": {"ACCEL_LOCATION": "base"}},
            "sysfs-location": {"location": "base"}}[how]
    lid = {"label": {"label": "accel-display"}, "udev-location": {"udev": {"ACCEL_LOCATION": "display"}},
           "sysfs-location": {"location": "lid"}}[how]
    # The base lies flat on the table; the display stands on its right edge... left edge up.
    fake.add_accel("iio:device0", raw=(0, 0, -G), **base)
    fake.add_accel("iio:device1", raw=(G, 0, 0), **lid)
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["id"] == "iio:device1", opened
        p.wait_event("orientation", orientation="left-up")
    finally:
        p.stop()


def test_of_two_display_accelerometers_the_first_is_read_and_the_reason_names_both(fake):
    # A dual-screen device: one accelerometer in each half, udev placing both in the display,
    # beside one in the keyboard base.
    fake.add_accel("iio:device0", raw=(0, 0, -G), udev={"ACCEL_LOCATION": "base"})
    fake.add_accel("iio:device1", raw=(G, 0, 0), udev={"ACCEL_LOCATION": "display"})
    fake.add_accel("iio:device2", raw=(0, -G, 0), udev={"ACCEL_LOCATION": "display"})
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["id"] == "iio:device1", opened
        assert opened["reason"] == ("the first of 2 in the display (iio:device1, iio:device2): one drives every panel;"
                                    " name another as [device] sensor to use it"), opened
    finally:
        p.stop()


def test_a_wrong_scale_is_reported(fake):
    fake.add_accel(scale="0.02")  # twice the real one: readings of 2 g at rest
    p = sensor(fake)
    try:
        log = p.wait_event("log")
        assert "readings average 2.04 g" in log["message"] and "in_accel_scale" in log["message"], log
    finally:
        p.stop()


def test_the_config_can_name_the_sensor(fake):
    fake.add_accel("iio:device0", raw=(0, -G, 0), label="accel-base")
    fake.add_accel("iio:device1", raw=(G, 0, 0), label="accel-display")
    config = os.path.join(fake.tb.get_root_dir(), "c.toml")
    with open(config, "w") as f:
        f.write('[device]\nsensor = "accel-base"\n')
    p = sensor(fake, "--config", config)
    try:
        opened = p.wait_event("opened")
        assert opened["id"] == "iio:device0" and opened["reason"] == "named in the config"
    finally:
        p.stop()


@pytest.mark.parametrize("text,problem", [
    ("abc\n", "not a number"), ("\n", "an empty value"), ("nan\n", "not finite"),
    ("-inf\n", "not finite"), ("40000\n", "at the sensor's limit"),
])
def test_a_garbage_value_is_dropped_with_a_log_line(fake, text, problem):
    dev = fake.add_accel(raw=(-G, 0, 0))
    p = sensor(fake)
    try:
        p.wait_event("orientation", orientation="right-up")
        fake.set_text(dev, "x", text)
        log = p.wait_for(lambda e: e.get("event") == "log", what="a log line")
        assert "dropping a reading" in log["message"] and problem in log["message"], log
        fake.set_text(dev, "x", "%d\n" % -G)
        p.wait_for(lambda e: e.get("event") == "sample" and e["raw"][0] == -G, what="good samples again")
    finally:
        p.stop()
    assert not [e for e in p.events if e.get("event") == "orientation" and e["orientation"] != "right-up"]
    assert not [e for e in p.events if e.get("event") == "lost"]


def test_garbage_for_a_while_is_logged_a_few_times_not_per_reading(fake):
    dev = fake.add_accel(raw=(-G, 0, 0))
    p = sensor(fake)
    try:
        p.wait_event("orientation", orientation="right-up")
        fake.set_text(dev, "y", "???\n")
        time.sleep(1.5)  # the fault lasting a while is the stimulus here, not a synchronisation
        fake.set_text(dev, "y", "0\n")
        p.wait_for(lambda e: e.get("event") == "sample" and e["raw"][1] == 0, what="recovery")
    finally:
        p.stop()
    logs = [e for e in p.events if e.get("event") == "log"]
    assert len(logs) == 3, logs  # the burst, then quiet (at 8-50 Hz that stretch had 12-75 bad readings)
    assert p.p.returncode == 0 or p.p.returncode == -15


@pytest.mark.parametrize("watch", ["inotify", "without inotify"])
def test_an_attribute_file_replaced_under_the_reader_is_read_anew(fake, watch):
    # The sensor holds the raw files open. umockdev writes a value by putting a new file in the
    # old one's place: the reader must notice (by inotify, else by the old file's link count).
    dev = fake.add_accel()
    p = sensor(fake, prefix=WITHOUT_INOTIFY if watch == "without inotify" else ())
    try:
        p.wait_event("orientation", orientation="normal")
        fake.replace(dev, G, 0, 0)
        p.wait_event("orientation", orientation="left-up")
        fake.replace(dev, 0, G, 0)
        p.wait_event("orientation", orientation="bottom-up")
        fake.set(dev, -G, 0, 0)  # and in place again, on the files opened anew
        p.wait_event("orientation", orientation="right-up")
    finally:
        p.stop()


@pytest.mark.parametrize("watch", ["inotify", "without inotify"])
def test_unplug_and_replug(fake, watch):
    dev = fake.add_accel(raw=(0, G, 0))  # bottom-up
    p = sensor(fake, prefix=WITHOUT_INOTIFY if watch == "without inotify" else ())
    try:
        p.wait_event("orientation", orientation="bottom-up")
        p.wait_event("sample")
        fake.remove(dev)
        lost = p.wait_event("lost")
        assert "vanished" in lost["reason"]
        time.sleep(1.5)  # it stays away a while (stimulus)
        assert p.p.poll() is None, "wlr-orient died when the device vanished"
        fake.add_accel(raw=(0, G, 0))
        back = time.monotonic()
        p.wait_event("opened", timeout=5)
        p.wait_event("sample", timeout=5)
        resumed = time.monotonic() - back
        assert resumed < 2.0, "sampling resumed %.2f s after the device returned" % resumed
        # The orientation was kept: no second report of the same, nothing else.
        time.sleep(0.3)
    finally:
        p.stop()
    lost = [e for e in p.events if e.get("event") == "lost"]
    assert len(lost) == 1, "a loss is reported once, not per retry: %s" % lost
    orientations = [e["orientation"] for e in p.events if e.get("event") == "orientation"]
    assert orientations in (["bottom-up"], ["bottom-up", "bottom-up"]), orientations


def test_a_recording_replays_to_the_live_decisions(fake, tmp_path):
    trace = os.path.join(ROOT, "Tests", "Fixtures", "traces", "edge", "trace_000.csv")  # slow 180° turns
    scale, matrix, samples = read_trace(trace)
    dev = fake.add_accel(raw=samples[0][1:], scale=scale, sysfs_matrix=matrix)
    out = str(tmp_path / "recorded.csv")
    duration = min(samples[-1][0], 12.0)
    rec = Program(["record", "--seconds", str(duration + 0.5), "-o", out], fake.env())
    try:
        # Recording starts when the device is opened; then the trace plays in real time.
        rec.err.wait(r"^recording ")
        play(fake, dev, samples, t_to=duration)
        assert rec.p.wait(timeout=30) == 0
    finally:
        rec.stop()
    live = [line for line in rec.err.seen if line.startswith('{"t":')]
    assert len(live) >= 3, rec.err.seen  # normal, bottom-up, normal
    replay = subprocess.run([BIN, "detect", out], capture_output=True, text=True)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.splitlines() == live
    orientations = [line.split('"orientation": "')[1].rstrip('"}') for line in live]
    assert orientations[:3] == ["normal", "bottom-up", "normal"], orientations


def test_a_buffered_device_streams_through_its_buffer(fake):
    node = fake.add_buffered_accel()
    p = sensor(fake)
    stream = None
    try:
        opened = p.wait_event("opened")
        assert opened["buffered"] is True, opened
        # Scans arrive only through the buffer: the attributes keep saying "normal".
        stream = fake.stream(node, scan=(G, 0, 0))
        p.wait_event("orientation", orientation="left-up")
        stream.scan = (0, G, 0)
        p.wait_event("orientation", orientation="bottom-up")
        stream.scan = None
        fake.push(node, (32767, 0, 0))  # an axis on its rail
        log = p.wait_event("log")
        assert "saturated" in log["message"], log
    finally:
        if stream:
            stream.stop()
        p.stop()
    samples = [e for e in p.events if e.get("event") == "sample"]
    assert len(samples) > 10 and all(abs(s["raw"][0]) < 32767 for s in samples)
    orientations = [e["orientation"] for e in p.events if e.get("event") == "orientation"]
    assert orientations == ["left-up", "bottom-up"], orientations


def test_a_device_with_hysteresis_is_told_to_keep_quiet_and_its_silence_means_held(fake):
    """A HID sensor hub with in_accel_hysteresis: the sensor sets the hysteresis,
    says why it reads the device that way, takes how it is held from its attributes, and
    decides a turn reported by a single scan. Still, the device sends nothing more."""
    node = fake.add_buffered_accel(hysteresis=True)
    p = sensor(fake)
    stream = None
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "hysteresis" and opened["buffered"] is True, opened
        assert "only a change" in opened["mode_reason"], opened
        # 0.5 m/s², written in the hub's unit (its scale is 1 mg): 0.051 g.
        with open(fake.tb.get_root_dir() + "/sys/devices/iio:device0/in_accel_hysteresis") as f:
            assert abs(float(f.read().rstrip("\x00\n")) - 0.5 / 9.80665) < 1e-4
        p.wait_event("orientation", orientation="normal")   # from the attributes: no scan yet
        stream = fake.quiet_stream(node, scan=(0, -G, 0))
        stream.scan = (G, 0, 0)
        p.wait_event("orientation", orientation="left-up")
        # Noise below the hysteresis is not sent; the device stays quiet while held.
        before = stream.sent
        stream.scan = (G + 20, 5, -10)
        stream.wait_ticks(5)
        assert stream.sent == before, "noise below the hysteresis was sent"
        stream.scan = (0, G, 0)
        p.wait_event("orientation", orientation="bottom-up")
        sent = stream.sent
        assert sent <= 3, "a still device with hysteresis sent %d scans" % sent
    finally:
        if stream:
            stream.stop()
        p.stop()
    samples = [e for e in p.events if e.get("event") == "sample"]
    assert len(samples) == 1 + sent, "each reported scan (and the first reading) is one sample: %d" % len(samples)
    orientations = [e["orientation"] for e in p.events if e.get("event") == "orientation"]
    assert orientations == ["normal", "left-up", "bottom-up"], orientations


def test_a_device_with_motion_events_is_read_only_while_it_moves(fake):
    """A polled part with motion events (bmc150's any-motion): the sensor enables
    them, reads the device when one comes until the turn is decided, and not while it is
    still: a change too small to raise an event, made while it lies still, is never read."""
    dev = fake.add_moving_accel()
    p = Program(["sensor", "--json", "--all"], fake.env(), pass_fds=fake.pass_fds)
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "motion-events" and opened["buffered"] is False, opened
        assert "roc events" in opened["mode_reason"], opened
        assert dev.enabled(), "the motion events were not enabled"
        p.wait_event("orientation", orientation="normal")
        dev.scan = (G, 0, 0)
        p.wait_event("orientation", orientation="left-up")
        # The stimulus, not a wait for a result: the device lies still for a while, then
        # shifts by less than the part's threshold.
        time.sleep(1.0)
        dev.scan = (G + 50, 0, 0)
        time.sleep(0.5)
        dev.scan = (0, G, 0)
        p.wait_event("orientation", orientation="bottom-up")
    finally:
        p.stop()
    assert dev.sent == 2, dev.sent
    samples = [e for e in p.events if e.get("event") == "sample"]
    assert not [s for s in samples if s["raw"][0] == G + 50], "the device was read while it lay still"
    orientations = [e["orientation"] for e in p.events if e.get("event") == "orientation"]
    assert orientations == ["normal", "left-up", "bottom-up"], orientations


def test_a_silent_device_with_hysteresis_is_lost_when_udev_says_it_went():
    """Its silence hides nothing: udev's removal is watched beside its buffer (a preloaded
    scenario, as only such a process makes the testbed send uevents)."""
    env = dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0")
    r = subprocess.run(["/usr/bin/python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness", "quiet_removal.py")],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr[-3000:]
    lost = float(r.stdout.split("lost_after_s=")[1].split()[0])
    # Unwatched, a silent device would never be lost; how soon is a figure, not this test's.
    assert lost < 4.0, "the removal was noticed after %.3f s" % lost


def test_a_buffered_device_that_vanishes_is_found_again(fake):
    node = fake.add_buffered_accel()
    p = sensor(fake)
    stream = None
    try:
        assert p.wait_event("opened")["buffered"] is True
        stream = fake.stream(node, scan=(G, 0, 0))
        p.wait_event("orientation", orientation="left-up")
        stream.stop()
        stream = None
        fake.remove("/sys/devices/iio:device0")
        fake.remove("/sys/devices/trigger0")
        p.wait_event("lost", timeout=5)
        assert p.p.poll() is None, "wlr-orient died when the device vanished"
        node = fake.add_buffered_accel("iio:device1")
        opened = p.wait_event("opened", timeout=5)
        assert opened["buffered"] is True and opened["id"] == "iio:device1"
        stream = fake.stream(node, scan=(G, 0, 0))
        p.wait_event("sample", timeout=5)
    finally:
        if stream:
            stream.stop()
        p.stop()
    assert len([e for e in p.events if e.get("event") == "lost"]) == 1

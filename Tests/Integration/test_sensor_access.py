"""The accelerometer as the user who logs in has it: the kernel's owners and modes on the device's
files, one opener of its node at a time, other readers beside us, the kernel's own mount matrix,
the keyboard half of a laptop, and channels wider than 16 bits. `wlr-orient sensor` runs as
nobody here, as a session's programs do."""
import os
import re
import shutil
import signal
import subprocess
import tempfile

import pytest

from harness.fakeiio import AS_NOBODY, AS_SEAT_USER, BIN, G_COUNTS, NOBODY, ROOT, VIDEO_GID, FakeIIO, Program

G = G_COUNTS
HUB = "/sys/devices/iio:device0"


@pytest.fixture
def fake():
    return FakeIIO()


def sensor(fake, *extra, who=AS_NOBODY):
    return Program(["sensor", "--json"] + list(extra), fake.env(), prefix=who, pass_fds=fake.pass_fds)


def attribute(fake, name, device="iio:device0"):
    with open("%s/sys/devices/%s/%s" % (fake.tb.get_root_dir(), device, name)) as f:
        return f.read().replace("\x00", "").strip()


def test_a_hub_the_user_may_not_open_is_read_from_its_raw_values_and_says_why(fake):
    """The kernel's modes, no udev rule: the node is root's, the buffer's attributes too. The
    screen turns all the same (polled), the reason names the rule, and nothing is written."""
    fake.add_buffered_accel(hysteresis=True)
    fake.as_the_kernel_makes_it()
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "polled" and opened["limit"] == "denied", opened
        assert "udev rule" in opened["mode_reason"] and "root's" in opened["mode_reason"], opened
        assert opened["access"] == {"node": "denied", "buffer_attributes": False, "hysteresis": False, "events": False}
        p.wait_event("orientation", orientation="normal")
        fake.set(HUB, G, 0, 0)
        p.wait_event("orientation", orientation="left-up")
    finally:
        p.stop()
    assert not [e for e in p.events if e.get("event") == "lost"], p.events
    assert attribute(fake, "buffer/enable") == "0" and attribute(fake, "in_accel_hysteresis") == "0"


def test_with_the_udev_rules_grant_the_hub_is_quiet_as_for_root(fake):
    node = fake.add_buffered_accel(hysteresis=True)
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    p = sensor(fake, who=AS_SEAT_USER)
    stream = None
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "hysteresis" and opened["limit"] is None, opened
        assert opened["access"]["node"] == "free" and opened["access"]["buffer_attributes"], opened
        p.wait_event("orientation", orientation="normal")
        stream = fake.quiet_stream(node, scan=(0, -G, 0))
        stream.scan = (G, 0, 0)
        p.wait_event("orientation", orientation="left-up")
    finally:
        if stream:
            stream.stop()
        p.stop()
    # Left as it was found: the buffer off, the hysteresis the firmware's.
    assert attribute(fake, "buffer/enable") == "0"
    assert float(attribute(fake, "in_accel_hysteresis")) == 0


def test_a_second_reader_reads_the_raw_values_and_the_first_keeps_its_stream(fake):
    """The session holds the buffer; `wlr-orient sensor` (or a second session) started beside
    it reads polled and says why; when it has gone, the session still turns."""
    node = fake.add_buffered_accel()
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    first = sensor(fake, who=AS_SEAT_USER)
    stream = None
    try:
        assert first.wait_event("opened")["mode"] == "buffer"
        stream = fake.stream(node, scan=(G, 0, 0))
        first.wait_event("orientation", orientation="left-up")
        fake.set(HUB, G, 0, 0)   # the raw values say the same as the stream
        second = sensor(fake, who=AS_SEAT_USER)
        try:
            opened = second.wait_event("opened")
            assert opened["mode"] == "polled" and opened["limit"] == "busy", opened
            assert "another program holds the device" in opened["mode_reason"], opened
            second.wait_event("orientation", orientation="left-up")
            stream.scan = (0, G, 0)
            fake.set(HUB, 0, G, 0)
            first.wait_event("orientation", orientation="bottom-up")
            second.wait_event("orientation", orientation="bottom-up")
        finally:
            second.stop()
        stream.scan = (-G, 0, 0)
        first.wait_event("orientation", orientation="right-up")
        assert fake.buffer_enabled(node)
    finally:
        if stream:
            stream.stop()
        first.stop()
    assert attribute(fake, "buffer/enable") == "0"


def test_a_buffer_someone_else_switched_on_is_left_to_them(fake):
    """iio-sensor-proxy switches a hub's buffer on when it starts and opens the node only to
    read it: a free node with its buffer on belongs to another program."""
    fake.add_buffered_accel()
    with open("%s%s/buffer/enable" % (fake.tb.get_root_dir(), HUB), "w") as f:
        f.write("1\n")
    p = sensor(fake, who=())
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "polled" and opened["limit"] == "busy", opened
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()
    assert attribute(fake, "buffer/enable") == "1"


def test_motion_events_held_by_a_session_stay_on_for_it(fake):
    """A part whose event fd the session holds: a second reader cannot have it (the kernel
    gives one), reads polled, and leaves the events on."""
    moving = fake.add_moving_accel()
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    first = Program(["sensor", "--json", "--all"], fake.env(), prefix=AS_SEAT_USER, pass_fds=fake.pass_fds)
    try:
        assert first.wait_event("opened")["mode"] == "motion-events"
        first.wait_event("orientation", orientation="normal")
        assert moving.enabled()
        second = sensor(fake, who=AS_SEAT_USER)
        try:
            opened = second.wait_for(lambda e: e.get("event") == "opened")
            assert opened["mode"] == "polled" and opened["limit"] == "busy", opened
        finally:
            second.stop()
        assert moving.enabled(), "the second reader switched the session's motion events off"
        moving.scan = (G, 0, 0)
        first.wait_event("orientation", orientation="left-up")
    finally:
        first.stop()
    assert not moving.enabled()


def test_motion_events_the_user_may_not_enable_leave_the_part_polled(fake):
    fake.add_moving_accel()
    fake.as_the_kernel_makes_it()
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "polled" and opened["limit"] == "denied", opened
        assert "motion events" in opened["mode_reason"], opened
    finally:
        p.stop()


def test_the_kernels_in_mount_matrix_is_read_and_applied(fake):
    # bmc150 and its kin share one matrix for every channel of a direction: in_mount_matrix.
    fake.add_accel(name="bmc150_accel", raw=(G, 0, 0), extra_attrs={"in_mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1\n"})
    fake.as_the_kernel_makes_it()
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["matrix_source"] == "sysfs" and opened["matrix"] == "0, 1, 0; -1, 0, 0; 0, 0, 1", opened
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()


@pytest.mark.parametrize("matrix,problem", [
    ("1, 0, 0; 0, 1, 0; 0, 0, 0", "row 3 is all zeros"),
    ("0, 0, 1; 0, 0, 1; 1, 0, 0", "column 2 is all zeros"),
    ("1, 1, 0; 1, 1, 0; 0, 0, 1", "singular"),
])
def test_a_matrix_that_cannot_be_a_mount_is_refused_by_name(fake, matrix, problem):
    fake.add_accel(raw=(0, -G, 0), udev={"ACCEL_MOUNT_MATRIX": matrix})
    p = sensor(fake)
    try:
        log = p.wait_event("log")
        assert "udev ACCEL_MOUNT_MATRIX" in log["message"] and problem in log["message"], log
        assert p.wait_event("opened")["matrix_source"] == "identity"
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()


@pytest.mark.wording   # the repair is named in the log, with both matrices
@pytest.mark.parametrize("hwdb, repaired, upright, left_up", [
    # BUSH's Windows tablet: its third row repeats its first.
    ("1, 0, 0; 0, -1, 0; 1, 0, 0", "1, 0, 0; 0, -1, 0; 0, 0, -1", (0, G, 0), (G, 0, 0)),
    # Insyde's i101c: its third row is its second, negated.
    ("0, 1, 0; -1, 0, 0; -1, 0, 0", "0, 1, 0; -1, 0, 0; 0, 0, 1", (G, 0, 0), (0, G, 0)),
])
def test_a_hwdb_matrix_singular_in_its_third_row_only_uses_its_first_two(fake, hwdb, repaired, upright, left_up):
    """Two entries of systemd's own hwdb are singular in their third row only: refused, they left
    those tablets on the identity (the BUSH one read bottom-up when held upright). Their first two
    rows are kept with a third made from them, said once; held upright and left-up, each reads
    right."""
    fake.add_accel(raw=upright, udev={"ACCEL_MOUNT_MATRIX": hwdb})
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["matrix_source"] == "udev" and opened["matrix"] == repaired, opened
        p.wait_event("orientation", orientation="normal")
        fake.set("/sys/devices/iio:device0", *left_up)
        p.wait_event("orientation", orientation="left-up")
    finally:
        p.stop()
    repairs = [e["message"] for e in p.events if e.get("event") == "log" and "for its third row only" in e["message"]]
    assert len(repairs) == 1 and hwdb in repairs[0] and repaired in repairs[0], repairs


def test_a_trailing_semicolon_is_read_as_meant(fake):
    fake.add_accel(raw=(0, G, 0), udev={"ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, -1, 0; 0, 0, 1;"})
    p = sensor(fake)
    try:
        opened = p.wait_event("opened")
        assert opened["matrix_source"] == "udev" and opened["matrix"] == "-1, 0, 0; 0, -1, 0; 0, 0, 1", opened
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()


def test_a_lone_accelerometer_in_the_base_turns_nothing_and_says_so(fake):
    fake.add_accel(raw=(G, 0, 0), udev={"ACCEL_LOCATION": "base"})
    r = subprocess.run(list(AS_NOBODY) + [BIN, "sensor", "--seconds", "5"], env=fake.env(), capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 1, r
    assert "is in the keyboard base" in r.stderr and "nothing turns" in r.stderr, r.stderr


def test_a_32_bit_channels_reading_is_no_saturation(fake):
    """A HID hub's channels are 32 bits wide: 256 000 000 counts at a scale that makes it 1 g
    is a reading, where a 16-bit rail would drop it."""
    fake.add_buffered_accel(bits=32, scale="%.6e" % (9.80665 / 256e6), raw=(0, -256000000, 0))
    fake.as_the_kernel_makes_it()
    p = sensor(fake)
    try:
        assert p.wait_event("opened")["mode"] == "polled"
        p.wait_event("orientation", orientation="normal")
        fake.set(HUB, 256000000, 0, 0)
        p.wait_event("orientation", orientation="left-up")
    finally:
        p.stop()
    assert not [e for e in p.events if e.get("event") == "log" and "saturated" in e["message"]]


RULE = os.path.join(ROOT, "contrib", "udev", "70-wlr-orient.rules")


def test_the_udev_rule_grants_what_setting_up_a_buffer_writes_and_nothing_more(fake):
    """The rule's own command (as_the_kernel_makes_it applies it) on a hub as the kernel makes it:
    group video may write each attribute libiio writes as it opens a buffer (buffer/enable and
    length, every scan element's `en`, the soft timestamp's among them), the hub's hysteresis and
    its sampling rate; nothing else of the device. Its node goes to the seat's user through uaccess (a tag, which
    logind turns into an ACL)."""
    fake.add_buffered_accel(hysteresis=True)
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    lines = [l for l in open(RULE).read().splitlines() if l and not l.startswith("#")]
    assert any('TAG+="uaccess"' in l and 'SUBSYSTEM=="iio"' in l and 'TEST=="in_accel_x_raw"' in l for l in lines), lines
    device = "%s/sys/devices/iio:device0" % fake.tb.get_root_dir()
    files = sorted(os.path.relpath(os.path.join(d, f), device) for d, _, names in os.walk(device) for f in names)
    granted = [f for f in files if os.stat(os.path.join(device, f)).st_gid == VIDEO_GID
               and os.stat(os.path.join(device, f)).st_mode & 0o020]
    buffer_set_up = ["buffer/enable", "buffer/length", "buffer/watermark"] + [f for f in files if re.match(r"scan_elements/\w+_en$", f)]
    assert "scan_elements/in_timestamp_en" in buffer_set_up, files
    assert granted == sorted(buffer_set_up + ["in_accel_hysteresis", "sampling_frequency"]), granted


def test_a_scan_element_the_user_may_not_write_is_named_and_the_hub_polled(fake):
    """A rule that grants the axes' scan elements but not the soft timestamp's (the rule before
    it granted them all): libiio would fail to open the buffer. The access check sees it first
    and names the file."""
    fake.add_buffered_accel(hysteresis=True)
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    timestamp = "%s/sys/devices/iio:device0/scan_elements/in_timestamp_en" % fake.tb.get_root_dir()
    os.chown(timestamp, 0, 0)
    os.chmod(timestamp, 0o644)
    p = sensor(fake, who=AS_SEAT_USER)
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "polled" and opened["limit"] == "denied", opened
        assert "scan_elements/in_timestamp_en" in opened["mode_reason"] and "node" not in opened["mode_reason"], opened
    finally:
        p.stop()


def test_a_polled_device_slower_than_read_is_raised_where_the_rule_lets_and_set_back(fake):
    """A HID hub's default rate is low (1 Hz here), and each raw read waits for a fresh sample: as
    iio-sensor-proxy does, it is raised to the rate read at while read, and put back after."""
    fake.add_accel(raw=(0, -G, 0))
    with open("%s/sys/devices/iio:device0/sampling_frequency" % fake.tb.get_root_dir(), "w") as f:
        f.write("1\n")
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    p = sensor(fake, who=AS_SEAT_USER)
    try:
        assert p.wait_event("opened")["mode"] == "polled"
        p.wait_event("orientation", orientation="normal")
        assert float(attribute(fake, "sampling_frequency")) >= 10
    finally:
        p.stop()
    assert attribute(fake, "sampling_frequency") == "1"


def test_the_config_can_keep_wlr_orient_off_every_buffer(fake):
    """For a program that opens the device after wlr-orient: `[device] buffered = false`."""
    fake.add_buffered_accel(hysteresis=True)
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    config = os.path.join(fake.tb.get_root_dir(), "config.toml")
    with open(config, "w") as f:
        f.write("[device]\nbuffered = false\n")
    os.chmod(config, 0o644)
    p = sensor(fake, "--config", config, who=AS_SEAT_USER)
    try:
        opened = p.wait_event("opened")
        assert opened["mode"] == "polled" and "buffered = false" in opened["mode_reason"], opened
        p.wait_event("orientation", orientation="normal")
    finally:
        p.stop()
    assert attribute(fake, "buffer/enable") == "0" and attribute(fake, "in_accel_hysteresis") == "0"


def test_a_reader_killed_holding_the_hub_leaves_it_to_the_next_to_write_back(fake):
    """Any of our processes can be killed at any moment (our own liveness check does it with
    SIGKILL, so do the OOM killer and a power cut). What a reader changed on a hub — its rate, its
    hysteresis, its buffer's set-up — is kept in a journal in the user's runtime directory: the
    next reader writes it back before it takes the hub's values for the hub's own, and when that
    one ends the hub is as it was before the first ever touched it."""
    node = fake.add_buffered_accel(hysteresis=True)
    with open("%s%s/sampling_frequency" % (fake.tb.get_root_dir(), HUB), "w") as f:
        f.write("1\n")
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    runtime = tempfile.mkdtemp(prefix="wlr-orient-runtime-")
    os.chown(runtime, NOBODY, NOBODY)
    os.chmod(runtime, 0o700)
    device = "%s%s" % (fake.tb.get_root_dir(), HUB)
    names = ["sampling_frequency", "in_accel_hysteresis", "buffer/length", "buffer/enable"] + sorted(
        "scan_elements/" + f for f in os.listdir(device + "/scan_elements") if f.endswith("_en"))
    found = {n: attribute(fake, n) for n in names}
    env = fake.env(XDG_RUNTIME_DIR=runtime)
    stream = None
    try:
        first = Program(["sensor", "--json"], env, prefix=AS_SEAT_USER, pass_fds=fake.pass_fds)
        assert first.wait_event("opened")["mode"] == "hysteresis"
        first.wait_event("orientation", orientation="normal")
        stream = fake.quiet_stream(node, scan=(0, -G, 0))
        changed = {n: attribute(fake, n) for n in names}
        assert changed["buffer/enable"] == "1" and changed != found, changed
        os.kill(first.p.pid, signal.SIGKILL)
        first.p.wait()
        stream.stop()
        stream = None
        assert {n: attribute(fake, n) for n in names if n != "buffer/enable"} != \
            {n: v for n, v in found.items() if n != "buffer/enable"}, "the kill left the hub changed"
        second = Program(["sensor", "--json"], env, prefix=AS_SEAT_USER, pass_fds=fake.pass_fds)
        try:
            assert second.wait_event("opened")["mode"] == "hysteresis"
            second.wait_event("orientation", orientation="normal")
        finally:
            second.stop()
        said = [e["message"] for e in second.events if e.get("event") == "log" and "wrote back" in e.get("message", "")]
        assert said and "sampling_frequency" in said[0] and "in_accel_hysteresis" in said[0], second.events
        assert "(not:" not in said[0], said
        assert {n: attribute(fake, n) for n in names} == found
        assert os.listdir(runtime) == [], "the journal and the buffer's mark went with the reader"
    finally:
        if stream:
            stream.stop()
        shutil.rmtree(runtime)

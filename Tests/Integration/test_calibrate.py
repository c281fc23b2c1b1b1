"""`wlr-orient calibrate`: a person holds a wrongly mounted tablet the way they read it, then with
its left edge up, trembling as a real hand does (the tremor of a held stretch of a labelled
trace), under umockdev with the kernel's owners and modes, as the user who logged in, with
standard input closed. The matrix it finds must make `detect` read a four-orientation trace of
that device right."""
import json
import math
import os
import pathlib
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time

import pytest

from harness.fakeiio import AS_NOBODY, AS_SEAT_USER, BIN, NOBODY, FakeIIO, Program, read_trace
from harness.filewatch import IN_CLOSE_WRITE, DirectoryWatch
from harness.udevstandin import UdevStandIn, private_udev

pytestmark = pytest.mark.slow

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "Fixtures", "traces", "public")
DEVICE = "/sys/devices/iio:device0"
HUB = "/sys/devices/iio:device0"   # add_buffered_accel's
SCALE = 0.009807
G = 9.80665

# The eight proper axis-aligned mounts that keep the screen's normal on an axis: the four turns
# in the plane and the four half turns about an axis in it (display = M · sensor).
MOUNTS = ["1, 0, 0; 0, 1, 0; 0, 0, 1", "0, -1, 0; 1, 0, 0; 0, 0, 1", "-1, 0, 0; 0, -1, 0; 0, 0, 1",
          "0, 1, 0; -1, 0, 0; 0, 0, 1", "1, 0, 0; 0, -1, 0; 0, 0, -1", "-1, 0, 0; 0, 1, 0; 0, 0, -1",
          "0, 1, 0; 1, 0, 0; 0, 0, -1", "0, -1, 0; -1, 0, 0; 0, 0, -1"]
UPRIGHT, LEFT_UP, BOTTOM_UP, RIGHT_UP, FACE_UP = (0, -1, 0), (1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, 0, -1)
UPRIGHT_COUNTS = (0, -1000, 0)   # the hub's raw counts held upright, at SCALE


def matrix(text):
    return [[float(v) for v in row.split(",")] for row in text.split(";")]


def text(m):
    def f(v):
        return str(int(v)) if v == int(v) else repr(round(v, 4))
    return "; ".join(", ".join(f(v) for v in row) for row in m)


def turned(m, degrees):
    """`m` then a turn in the screen's plane: a sensor a little off its axes."""
    a = math.radians(degrees)
    r = [[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]]
    return [[sum(r[i][k] * m[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def sensed(m, d):
    """What a sensor mounted by `m` reads when the display feels `d` (m is a rotation: Mᵀ)."""
    return tuple(sum(m[k][i] * d[k] for k in range(3)) for i in range(3))


def tremor():
    """A held hand's deviations from its mean (display frame, m/s²), 25 Hz: trace_003 between
    its first two turns."""
    scale, mtext, samples = read_trace(os.path.join(TRACES, "trace_003.csv"))
    with open(os.path.join(TRACES, "trace_003.labels.json")) as f:
        settles = json.load(f)["settles"]
    m, scale = matrix(mtext) if mtext else matrix(MOUNTS[0]), float(scale)
    held = [s for s in samples if settles[0]["t_motion_end"] + 0.5 <= s[0] <= settles[1]["t_motion_start"] - 0.2]
    felt = [tuple(scale * sum(m[i][k] * s[1 + k] for k in range(3)) for i in range(3)) for s in held]
    mean = [sum(v[i] for v in felt) / len(felt) for i in range(3)]
    assert len(felt) > 25, "a held stretch of at least a second"
    return [tuple(v[i] - mean[i] for i in range(3)) for v in felt]


TREMOR = tremor()


class Person(threading.Thread):
    """Holds the device in a pose (display frame, in g) with the tremor, turning to the next pose
    over 0.6 s when told; writes the raw values the mount makes of it, 25 times a second."""

    def __init__(self, fake, mount, pose=UPRIGHT, device=DEVICE):
        super().__init__(daemon=True)
        self.fake, self.mount, self.device = fake, mount, device
        self.pose, self.target, self.started = pose, pose, None
        self.stopped = threading.Event()
        self.start()

    def turn_to(self, pose):
        self.pose, self.target, self.started = self.now(), pose, time.monotonic()

    def now(self):
        if self.started is None:
            return self.target
        f = min(1.0, (time.monotonic() - self.started) / 0.6)
        v = [a * (1 - f) + b * f for a, b in zip(self.pose, self.target)]
        n = math.sqrt(sum(x * x for x in v)) or 1
        return tuple(x / n for x in v)

    def run(self):
        i = 0
        next_t = time.monotonic()
        while not self.stopped.is_set():
            d = [G * g + t for g, t in zip(self.now(), TREMOR[i % len(TREMOR)])]
            self.fake.set(self.device, *(round(v / SCALE) for v in sensed(self.mount, d)))
            i += 1
            next_t += 0.04
            self.stopped.wait(max(0.0, next_t - time.monotonic()))   # the stimulus's pace

    def stop(self):
        self.stopped.set()
        self.join(timeout=5)


def upright_counts(mount):
    """The raw counts of a device mounted by `mount` held upright."""
    return tuple(round(v / SCALE) for v in sensed(mount, [G * g for g in UPRIGHT]))


def take_poses(p, person, face_up=False):
    """The person through calibrate's asks after the first pose: the left edge up, then (when
    asked) face up; calibrate's result."""
    p.wait_event("hold", pose="left-up", timeout=20)
    person.turn_to(LEFT_UP)
    if face_up:
        p.wait_event("hold", pose="face-up", timeout=20)
        person.turn_to(FACE_UP)
    return p.wait_event("result", timeout=20)


def finished(p, timeout=20):
    """Its exit status once it has ended by itself, as calibrate does after its result (a signal
    then would end it as it ends any program); what is left of its output read."""
    try:
        p.p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pass   # stop() ends it, and the status says how
    return p.stop()


def calibrate(fake, *extra):
    return Program(["calibrate", "--json"] + list(extra), fake.env(), prefix=AS_NOBODY, pass_fds=fake.pass_fds)


def calibrated(mount, *extra):
    """Runs calibrate with a person holding a device mounted by `mount`: its events."""
    fake = FakeIIO()
    fake.add_accel(raw=upright_counts(mount), scale=str(SCALE))
    fake.as_the_kernel_makes_it()
    person = Person(fake, mount)
    p = calibrate(fake, *extra)
    try:
        p.wait_event("hold", pose="normal")
        result = take_poses(p, person)
    finally:
        person.stop()
        status = finished(p)
    return result, status, p


def detect_four_orientations(mount, found):
    """`detect` on a trace of this device held normal, left-up, bottom-up, right-up (3 s each,
    trembling, 0.6 s turns), its header carrying the matrix `calibrate` found: the orientations."""
    lines = ["# wlr-orient-trace v1", "# scale: %s" % SCALE, "# mount-matrix: %s" % found, "t,x,y,z"]
    t, i = 0.0, 0
    poses = [UPRIGHT, LEFT_UP, BOTTOM_UP, RIGHT_UP]
    for k, pose in enumerate(poses):
        before = poses[k - 1] if k else pose
        for step in range(int(3.6 / 0.04)):
            f = min(1.0, step * 0.04 / 0.6)
            v = [a * (1 - f) + b * f for a, b in zip(before, pose)]
            n = math.sqrt(sum(x * x for x in v)) or 1
            d = [G * x / n + e for x, e in zip(v, TREMOR[i % len(TREMOR)])]
            lines.append("%.3f,%d,%d,%d" % ((t,) + tuple(round(x / SCALE) for x in sensed(mount, d))))
            t, i = t + 0.04, i + 1
    out = subprocess.run([BIN, "detect", "-"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return [json.loads(l)["orientation"] for l in out.stdout.splitlines() if l.startswith("{")]


@pytest.mark.parametrize("index", range(len(MOUNTS)))
def test_two_poses_held_still_give_the_matrix_that_reads_the_device_right(index):
    mount = matrix(MOUNTS[index])
    result, status, p = calibrated(mount)
    assert status == 0, p.err.available()
    assert result["matrix"] == MOUNTS[index] and result["snapped"], result
    assert result["source"] == "identity" and result["in_use"] == MOUNTS[0], result
    assert [e["event"] for e in p.events if e["event"] in ("hold", "held")] == ["hold", "held", "hold", "held"], p.events
    assert not [e for e in p.events if e["event"] == "problem"], p.events
    assert detect_four_orientations(mount, result["matrix"]) == ["normal", "left-up", "bottom-up", "right-up"]
    if index == 0:
        assert result["changes"] == [] and "nothing to change" in result["change"], result
    else:
        # What the identity made of it is wrong somewhere, and the sentence says where.
        assert result["changes"], result
        first = result["changes"][0]
        assert result["change"].startswith("the screen will turn the right way when held %s" % first["held"]), result
        assert detect_four_orientations(mount, MOUNTS[0]) != ["normal", "left-up", "bottom-up", "right-up"]


def test_a_sensor_twelve_degrees_off_its_axes_gets_its_own_matrix():
    mount = turned(matrix(MOUNTS[3]), 12)
    result, status, p = calibrated(mount)
    assert status == 0, p.err.available()
    assert not result["snapped"], result
    found = matrix(result["matrix"])
    assert all(abs(a - b) < 0.03 for ra, rb in zip(found, mount) for a, b in zip(ra, rb)), (result["matrix"], text(mount))
    assert detect_four_orientations(mount, result["matrix"]) == ["normal", "left-up", "bottom-up", "right-up"]


@pytest.fixture
def home():
    """A directory nobody may write in (pytest's own are root's alone)."""
    path = tempfile.mkdtemp(prefix="wlr-orient-calibrate-")
    os.chmod(path, 0o777)
    yield pathlib.Path(path)
    shutil.rmtree(path)


def test_a_half_turn_is_said_and_asked_again_and_a_mirrored_sensor_is_never_written(home):
    fake = FakeIIO()
    mount = matrix(MOUNTS[1])
    fake.add_accel(raw=upright_counts(mount), scale=str(SCALE))
    fake.as_the_kernel_makes_it()
    person = Person(fake, mount)
    p = calibrate(fake)
    try:
        p.wait_event("hold", pose="left-up", timeout=20)
        person.turn_to(BOTTOM_UP)
        problem = p.wait_event("problem", timeout=20)
        assert problem["problem"] == "not-a-quarter-turn" and problem["degrees"] > 160, problem
        person.turn_to(LEFT_UP)
        assert p.wait_event("result", timeout=20)["matrix"] == MOUNTS[1]
    finally:
        person.stop()
        assert finished(p) == 0

    # x and y swapped: a mirror. Lying face up tells it; nothing is written, and it exits 1.
    config = home / "config.toml"
    config.write_text("# mine\n")
    os.chmod(config, 0o666)
    fake = FakeIIO()
    mirror = matrix("0, 1, 0; 1, 0, 0; 0, 0, 1")
    fake.add_accel(raw=tuple(round(v / SCALE) for v in [G * g for g in sensed(mirror, UPRIGHT)]), scale=str(SCALE))
    fake.as_the_kernel_makes_it()
    person = Person(fake, mirror)
    p = calibrate(fake, "--face-up", "--write", "--config", str(config))
    try:
        result = take_poses(p, person, face_up=True)
    finally:
        person.stop()
        status = finished(p)
    assert result["face_up"] == "mirrored", result
    assert status == 1
    assert config.read_text() == "# mine\n"


def shown_on(host, orientation, what):
    """The panel shows `orientation` in the host's watched status: in the last line read already
    (the wait before may have taken the line that says so, when the turn came with it), or in a
    line still to come."""
    def shows(line):
        panels = json.loads(line)["panels"]
        return bool(panels) and panels[0]["shown"] == orientation
    if not (host.watched.seen and shows(host.watched.seen[-1])):
        host.watched.next(shows, 15, what)


def test_written_into_a_running_sessions_config_the_next_turn_is_right():
    """The plugin in a running reference host reads a device mounted a quarter turn off, with
    no matrix: held upright, the screen shows right-up. `calibrate --write` into that session's
    config: the plugin takes the matrix at once (status names the config as its source), and the
    screen shows how the device is held."""
    from harness.compositor import Compositor
    from test_sensor_session import sensor_state, stop
    mount = matrix(MOUNTS[1])
    fake = FakeIIO()
    fake.add_accel(raw=upright_counts(mount), scale=str(SCALE))
    fake.as_the_kernel_makes_it()
    host = Compositor(fake, touch=False, user=AS_NOBODY)
    person = None
    try:
        host.wait_frame(0, timeout=30)
        sensor_state(host, lambda s: s["matrix_source"] == "identity", "read with the identity")
        watched = lambda: json.loads(host.watched.seen[-1])
        shown_on(host, "right-up", "the wrong turn")
        with open(host.config_path) as f:
            before = f.read()
        person = Person(fake, mount)
        p = Program(["calibrate", "--json", "--write", "--config", host.config_path], fake.env(), pass_fds=fake.pass_fds)
        try:
            result = take_poses(p, person, face_up=True)
            assert result["matrix"] == MOUNTS[1] and result["face_up"] == "confirmed", result
            written = p.wait_event("written", timeout=10)
            person.turn_to(LEFT_UP)
        finally:
            assert finished(p) == 0
        assert written["file"] == host.config_path and written["copied_from"] is None, written
        with open(host.config_path) as f:
            after = f.read()
        lines = after.splitlines()
        assert lines[0] == "[device]" and lines[:1] + lines[2:] == before.splitlines(), "one line added, under [device]"
        assert after.splitlines()[1] == 'mount-matrix = "%s"' % MOUNTS[1], after
        state = sensor_state(host, lambda s: s["matrix_source"] == "config", "the config's matrix")
        assert state["matrix"] == MOUNTS[1], state
        shown_on(host, "left-up", "held left-up, shown left-up")
        person.turn_to(UPRIGHT)
        shown_on(host, "normal", "held upright, shown normal")
        assert watched()["sensor_state"]["matrix_source"] == "config"
    finally:
        if person:
            person.stop()
        assert stop(host) == 0


# The BUSH tablet's DMI as the kernel's modalias gives it (spaces dropped), trimmed.
BUSH_DMI = "dmi:bvnAmericanMegatrendsInc.:bvr5.6.5:bd07/25/2014:br5.6:svnBUSH:pnBUSHWINDOWSTABLET:pvrDefaultstring:rvnBUSH:rnBUSHWINDOWSTABLET:rvrDefaultstring:cvnBUSH:ct3:cvrDefaultstring:"


def hwdb_lookup(root, key):
    """What systemd-hwdb, over the files under `root`, says of the key udev's 60-sensor.rules looks up."""
    compiled = subprocess.run(["systemd-hwdb", "--strict", "--root", root, "update"], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    found = subprocess.run(["systemd-hwdb", "--root", root, "query", key], capture_output=True, text=True)
    assert found.returncode == 0, found.stderr
    return found.stdout.splitlines()


@pytest.mark.parametrize("bus", [("i2c", "i2c-BOSC0200:00", "acpi:BOSC0200:BOSC0200:"),
                                 ("platform", "HID-SENSOR-200073.3.auto", "platform:HID-SENSOR-200073")])
def test_the_hwdb_entry_is_found_by_systemds_own_lookup_for_this_model_only(home, bus):
    """The entry printed for everyone with the model: compiled by systemd-hwdb (strict), it is
    what udev's 60-sensor.rules finds for this device on this machine (`sensor:modalias:` its bus
    device's modalias, `:`, the DMI modalias), and not for another model."""
    assert os.path.exists("/usr/bin/systemd-hwdb"), "systemd-hwdb (Debian's udev) is installed by scripts/install-deps.sh test"
    mount = matrix(MOUNTS[1])
    fake = FakeIIO()
    device = fake.add_accel(raw=upright_counts(mount),
                            scale=str(SCALE), bus=bus)
    fake.add_machine(BUSH_DMI, "BUSH", "BUSH WINDOWS TABLET")
    fake.as_the_kernel_makes_it()
    person = Person(fake, mount, device=device)
    p = calibrate(fake)
    try:
        result = take_poses(p, person)
    finally:
        person.stop()
        assert finished(p) == 0
    entry = result["hwdb"]
    assert entry is not None, result
    lines = entry.split("\n")
    assert lines[0] == "# BUSH BUSH WINDOWS TABLET" and lines[2] == " ACCEL_MOUNT_MATRIX=" + MOUNTS[1], entry
    local = home / "etc" / "udev" / "hwdb.d"
    local.mkdir(parents=True)
    (local / "61-sensor-local.hwdb").write_text(entry + "\n")
    key = "sensor:modalias:%s:%s" % (bus[2], BUSH_DMI)
    assert hwdb_lookup(str(home), key) == ["ACCEL_MOUNT_MATRIX=" + MOUNTS[1]]
    assert hwdb_lookup(str(home), key.replace("pnBUSHWINDOWSTABLET", "pnANOTHER")) == []


def test_hwdb_as_a_user_says_it_needs_root_before_anything_is_held():
    fake = FakeIIO()
    fake.add_accel(bus=("i2c", "i2c-BOSC0200:00", "acpi:BOSC0200:BOSC0200:"))
    fake.add_machine(BUSH_DMI, "BUSH", "BUSH WINDOWS TABLET")
    fake.as_the_kernel_makes_it()
    p = Program(["calibrate", "--hwdb"], fake.env(), prefix=AS_NOBODY, pass_fds=fake.pass_fds)
    try:
        assert p.p.wait(timeout=20) == 1
    finally:
        p.stop()
    assert not [l for l in p.out.seen if l.startswith("Hold the device")], p.out.seen
    said = p.err.drain()
    assert any("only root may" in l and "nothing was written" in l for l in said), said


def hwdb_calibrate(scratch, local_files=()):
    """`calibrate --json --hwdb` started as root over a device mounted by MOUNTS[1], held upright,
    in a mount namespace whose /etc/udev is a copy under `scratch` (with `local_files`, (name,
    text), added to its hwdb.d): the testbed, the device, the person, the program."""
    for tool in ("systemd-hwdb", "udevadm", "unshare", "nsenter"):
        assert shutil.which(tool), "%s is installed by scripts/install-deps.sh test (udev, util-linux)" % tool
    version = int(subprocess.run(["udevadm", "--version"], capture_output=True, text=True).stdout.split()[0])
    assert version < 257, "udevadm %d refuses umockdev's /sys (harness/udevstandin.py): run this on Debian 12's udev" % version
    mount = matrix(MOUNTS[1])
    fake = FakeIIO()
    device = fake.add_accel(raw=upright_counts(mount), scale=str(SCALE),
                            bus=("i2c", "i2c-BOSC0200:00", "acpi:BOSC0200:BOSC0200:"))
    fake.add_machine(BUSH_DMI, "BUSH", "BUSH WINDOWS TABLET")
    fake.as_the_kernel_makes_it()
    prefix = private_udev(str(scratch))
    for name, content in local_files:
        (scratch / "etc-udev" / "hwdb.d").mkdir(exist_ok=True)
        (scratch / "etc-udev" / "hwdb.d" / name).write_text(content)
    person = Person(fake, mount, device=device)
    return fake, device, person, Program(["calibrate", "--json", "--hwdb"], fake.env(), prefix=prefix, pass_fds=fake.pass_fds)


def hwdb_as_root(scratch, local_files=()):
    """`hwdb_calibrate` with udev's part played as harness/udevstandin.py says: its exit status,
    its result, the stand-in, the device."""
    fake, device, person, p = hwdb_calibrate(scratch, local_files)
    udev = None
    try:
        udev = UdevStandIn(fake, device, p.p.pid)
        result = take_poses(p, person, face_up=True)
        status = p.p.wait(timeout=90)
    finally:
        person.stop()
        if udev:
            udev.stop()
        p.stop()
    assert udev.problems == [], udev.problems
    return status, result, p, udev, fake, device


def test_hwdb_as_root_udev_reports_the_new_matrix_for_the_device(tmp_path):
    """`calibrate --hwdb` as root, with udev's own tools over a scratch /etc/udev: the entry goes
    into the local hwdb file, `systemd-hwdb update` compiles it, `udevadm trigger` has udev run its
    installed rules over the device again, and `udevadm info` reports the new matrix. udevd cannot
    run here (no kernel IIO device): the rules run through `udevadm test` and their result is kept
    in umockdev's udev database (harness/udevstandin.py)."""
    machines = os.path.exists("/etc/udev/hwdb.d/61-sensor-local.hwdb")
    status, result, p, udev, fake, device = hwdb_as_root(tmp_path)
    assert status == 0, p.err.available()[-5:]
    assert result["face_up"] == "confirmed" and result["hwdb"].endswith(" ACCEL_MOUNT_MATRIX=" + MOUNTS[1]), result
    written = (tmp_path / "etc-udev" / "hwdb.d" / "61-sensor-local.hwdb").read_text()
    assert written == result["hwdb"] + "\n", written
    assert (tmp_path / "etc-udev" / "hwdb.bin").exists(), "systemd-hwdb update compiled it"
    # One trigger, for this device, with the UUID `--settle` waits for; the rules, run for it,
    # found the entry through 60-sensor.rules' own key.
    assert len(udev.triggers) == 1 and re.fullmatch(r"change [0-9a-f-]{36}", udev.triggers[0]), udev.triggers
    assert udev.rules_runs[0].get("ACCEL_MOUNT_MATRIX") == MOUNTS[1], udev.rules_runs
    installed = [e for e in p.events if e.get("event") == "log"]
    assert any("ACCEL_MOUNT_MATRIX=" + MOUNTS[1] in e["message"] for e in installed), installed
    # What udev keeps: its own database where the rules' run wrote it (`udevadm test` in 252
    # writes it as udevd does), and umockdev's, which udevadm reads through its preload.
    database = tmp_path / "run-udev" / "data" / "+iio:iio:device0"
    assert "E:ACCEL_MOUNT_MATRIX=" + MOUNTS[1] in database.read_text().splitlines()
    info = subprocess.run(["udevadm", "info", "--query=property", device], env=fake.env(),
                          capture_output=True, text=True, timeout=20)
    assert "ACCEL_MOUNT_MATRIX=" + MOUNTS[1] in info.stdout.splitlines(), info.stdout
    assert os.path.exists("/etc/udev/hwdb.d/61-sensor-local.hwdb") == machines, "the machine's /etc is untouched"


def test_hwdb_as_root_an_entry_that_udev_does_not_take_is_said(tmp_path):
    """A later hwdb file with the same match (a vendor's, or an old fix) overrides ours: udev
    reports its matrix, and calibrate says so and fails rather than claim the fix holds."""
    rival = "sensor:modalias:acpi:BOSC0200*:dmi:*:svnBUSH:pnBUSHWINDOWSTABLET:*\n ACCEL_MOUNT_MATRIX=" + MOUNTS[2] + "\n"
    status, result, p, udev, fake, device = hwdb_as_root(tmp_path, [("90-vendor.hwdb", rival)])
    assert status == 1
    assert udev.rules_runs and udev.rules_runs[0].get("ACCEL_MOUNT_MATRIX") == MOUNTS[2], udev.rules_runs
    said = p.err.drain()
    assert any("udev does not report the new matrix" in l and MOUNTS[2] in l for l in said), said


def children_of(pid):
    """The processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid):
            found.append(int(entry))
    return found


def ends_within(pid, seconds):
    """Whether the process ends (a zombie, or reaped) within `seconds`: a kill signal is delivered
    a moment after its sender is gone, so this waits on a pidfd, which is readable once it ends."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], seconds)[0])
    finally:
        os.close(fd)


def test_hwdb_as_root_stopped_while_udev_does_not_answer_ends_at_once_with_its_udevadm(tmp_path):
    """No udevd answers the trigger (as on a machine where it does not run: `--settle` would wait
    for good): SIGTERM, as a person's Ctrl-C, ends calibrate at once, and the udevadm it waits
    for with it, rather than after its minute's limit."""
    fake, device, person, p = hwdb_calibrate(tmp_path)
    watch = DirectoryWatch(fake.tb.get_root_dir() + device, IN_CLOSE_WRITE)
    try:
        take_poses(p, person, face_up=True)
        # The trigger's write to the device's uevent file: calibrate waits for udev from now on.
        deadline = time.monotonic() + 60
        while "uevent" not in watch.names(deadline - time.monotonic()):
            assert time.monotonic() < deadline, "no trigger within 60 s"
        waiting = children_of(p.p.pid)
        assert waiting, "calibrate waits for no udevadm"
        p.p.send_signal(signal.SIGTERM)
        assert p.p.wait(timeout=5) == -signal.SIGTERM
        assert all(ends_within(pid, 5) for pid in waiting), "udevadm outlived calibrate: %s" % waiting
    finally:
        watch.close()
        person.stop()
        if p.p.poll() is None:
            p.p.kill()   # one that ignored SIGTERM: its udevadm dies with it (parent-death signal)
        p.stop()


def test_written_into_the_daemons_config_the_next_turn_is_right():
    """The same beside a compositor without the plugin: the daemon reads the config calibrate
    wrote at once, status names it, and the panel's transform follows how the device is held."""
    from test_daemon import Session
    mount = matrix(MOUNTS[3])
    s = Session(pose=upright_counts(mount))
    person = None
    try:
        s.events.wait_status(lambda st: st["panels"] and st["panels"][0]["shown"] == "left-up",
                             what="held upright, read with the identity as left-up")
        assert s.status()["sensor_state"]["matrix_source"] == "identity"
        person = Person(s.fake, mount, device=s.dev)
        p = Program(["calibrate", "--json", "--write", "--config", s.host.config_path], s.fake.env(),
                    pass_fds=s.fake.pass_fds)
        try:
            result = take_poses(p, person, face_up=True)
            assert result["matrix"] == MOUNTS[3] and result["face_up"] == "confirmed", p.events
            p.wait_event("written", timeout=10)
            person.turn_to(LEFT_UP)
        finally:
            assert finished(p) == 0
        st = s.events.wait_status(lambda st: st["sensor_state"]["matrix_source"] == "config"
                                  and st["panels"][0]["shown"] == "left-up", what="the config's matrix, held left-up")
        assert st["sensor_state"]["matrix"] == MOUNTS[3], st
        s.events.wait_turned("left-up")
        assert s.transform() == "90"
        person.turn_to(UPRIGHT)
        s.events.wait_turned("normal")
        assert s.transform() == "normal"
    finally:
        if person:
            person.stop()
        s.stop()


def test_on_a_tablet_whose_hwdb_matrix_was_mended_the_entry_to_propose_is_printed():
    """BUSH's tablet, whose entry in systemd's hwdb repeats its first row as its third: read with
    it mended, the screen turns right (nothing to change), and calibrate prints the entry with a
    sound third row, to propose in its place."""
    mended = "1, 0, 0; 0, -1, 0; 0, 0, -1"
    mount = matrix(mended)
    fake = FakeIIO()
    device = fake.add_accel(raw=upright_counts(mount), scale=str(SCALE),
                            udev={"ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, -1, 0; 1, 0, 0"},
                            bus=("i2c", "i2c-BOSC0200:00", "acpi:BOSC0200:BOSC0200:"))
    fake.add_machine(BUSH_DMI, "BUSH", "BUSH WINDOWS TABLET")
    fake.as_the_kernel_makes_it()
    person = Person(fake, mount, device=device)
    p = calibrate(fake)
    try:
        result = take_poses(p, person)
    finally:
        person.stop()
        assert finished(p) == 0
    assert result["source"] == "udev" and result["in_use"] == mended and result["changes"] == [], result
    assert result["udev_repaired"] and result["udev_matrix"] == "1, 0, 0; 0, -1, 0; 1, 0, 0", result
    assert result["hwdb"].endswith("\n ACCEL_MOUNT_MATRIX=" + mended), result


def test_a_hub_that_reports_only_a_change_is_read_on_the_schedule_while_calibrating():
    """A HID hub the user may stream (the udev rule's grant) reports only a change, and says
    nothing while the device is still, which is when a pose is taken: calibrate reads its raw
    values on the schedule instead, and finishes."""
    mount = matrix(MOUNTS[2])
    fake = FakeIIO()
    fake.add_buffered_accel(hysteresis=True, raw=upright_counts(mount),
                                     scale=str(SCALE))
    fake.as_the_kernel_makes_it(seat_user=NOBODY)
    person = Person(fake, mount, device=HUB)
    p = Program(["calibrate", "--json"], fake.env(), prefix=AS_SEAT_USER, pass_fds=fake.pass_fds)
    try:
        assert p.wait_event("device")["mode"] == "polled"
        assert take_poses(p, person)["matrix"] == MOUNTS[2]
    finally:
        person.stop()
        assert finished(p) == 0


def test_beside_a_session_that_holds_the_hubs_buffer_it_reads_polled_and_the_session_keeps_turning():
    """A session streams a HID hub (the udev rule's grant); calibrate, run by the same user
    beside it, reads the raw values (busy), and the session keeps its buffer and turns."""
    from test_sensor_session import held, hub, sensor_state, stop
    from harness.compositor import Compositor
    fake, node = hub(grant=True)
    stream = fake.quiet_stream(node, scan=UPRIGHT_COUNTS)
    session = Compositor(fake, touch=False, user=AS_SEAT_USER)
    person = None
    try:
        session.wait_frame(0, timeout=30)
        sensor_state(session, lambda s: s["mode"] == "hysteresis", "the session with the buffer")
        person = Person(fake, matrix(MOUNTS[0]), device=HUB)
        p = Program(["calibrate", "--json"], fake.env(), prefix=AS_SEAT_USER, pass_fds=fake.pass_fds)
        try:
            assert take_poses(p, person)["matrix"] == MOUNTS[0]
        finally:
            assert finished(p) == 0
        device = [e for e in p.events if e["event"] == "device"][0]
        assert device["mode"] == "polled", device
        person.stop()
        person = None
        held(fake, stream, (1000, 0, 0))
        session.wait_frame(1)
        assert sensor_state(session, lambda s: s["state"] == "reading", "still reading")["mode"] == "hysteresis"
    finally:
        if person:
            person.stop()
        stream.stop()
        assert stop(session) == 0


def test_a_read_only_config_is_not_replaced_and_the_line_is_given(home):
    """A config its owner made read-only (0444) in a directory they may write: renaming over it
    would replace it all the same. `--write` refuses, says why, and gives the line to add."""
    config = home / "config.toml"
    config.write_text("# mine, read-only on purpose\n")
    os.chown(config, NOBODY, NOBODY)
    os.chmod(config, 0o444)
    mount = matrix(MOUNTS[1])
    fake = FakeIIO()
    fake.add_accel(raw=upright_counts(mount), scale=str(SCALE))
    fake.as_the_kernel_makes_it()
    person = Person(fake, mount)
    p = calibrate(fake, "--write", "--config", str(config))
    try:
        result = take_poses(p, person, face_up=True)
    finally:
        person.stop()
        status = finished(p)
    assert result["matrix"] == MOUNTS[1], result
    assert status == 1
    err = "\n".join(p.err.available())
    assert "is read-only (mode 444): not replacing it" in err and "mount-matrix" in err, err
    assert config.read_text() == "# mine, read-only on purpose\n"
    assert oct(os.stat(config).st_mode & 0o777) == "0o444"


@pytest.mark.parametrize("fault", ["reads-nothing", "gone"])
def test_a_sensor_that_reads_nothing_or_goes_mid_pose_ends_it_with_why(fault):
    """A sensor that reads (0, 0, 0) while still is not a person moving, and a device unplugged
    after the first pose leaves nothing to calibrate: each ends calibrate with the reason, long
    before --seconds (120)."""
    mount = matrix(MOUNTS[1])
    fake = FakeIIO()
    fake.add_accel(raw=(0, 0, 0) if fault == "reads-nothing" else upright_counts(mount), scale=str(SCALE))
    fake.as_the_kernel_makes_it()
    person = None if fault == "reads-nothing" else Person(fake, mount)
    p = calibrate(fake)
    try:
        p.wait_event("hold", pose="normal")
        if person:
            p.wait_event("hold", pose="left-up", timeout=20)
            person.stop()
            fake.remove(DEVICE)
        failed = p.wait_event("failed", fault=fault, timeout=20)
    finally:
        if person:
            person.stop()
        status = finished(p)
    assert status == 1
    assert failed["message"].startswith("no matrix: ") and "moving" not in failed["message"], failed
    assert not [e for e in p.events if e.get("event") == "problem"], p.events

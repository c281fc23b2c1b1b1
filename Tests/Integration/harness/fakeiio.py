"""Fake IIO accelerometers under umockdev, and a runner for wlr-orient against them.

The program under test runs with libumockdev-preload, so libiio's local backend and libudev
read the testbed's sysfs and udev database for real; nothing of libiio is mocked. Waits are
on the program's own output (JSON lines), never on sleeps.
"""
import json
import os
import queue
import re
import shlex
import struct
import subprocess
import threading
import time

# Real sysfs lives in memory, and so does this fake one: umockdev puts its testbed in $TMPDIR,
# and where that is a disk file system (ext4 mounted with discard, here) every attribute write
# leaves a replaced file behind whose last reader pays for freeing it on disk, a cost no sysfs
# reader has. GLib reads $TMPDIR once, so this comes before it is imported.
if "TMPDIR" not in os.environ and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    os.environ["TMPDIR"] = "/dev/shm"

import gi  # noqa: E402

gi.require_version("UMockdev", "1.0")
from gi.repository import GLib, UMockdev  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BIN = os.environ.get("WLR_ORIENT_BIN", os.path.join(ROOT, ".build", "debug", "wlr-orient"))
# What scripts/build-plugin.sh built: the plugin, the host, the preload (another build: in a root).
BUILD = os.environ.get("WLR_ORIENT_BUILD", os.path.join(ROOT, "build"))
# The kernel's one-opener rules for a device's node and its event fd, which umockdev does not keep
# (fakes/iio-kernel.c), built once into this directory.
FAKES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fakes")
NOBODY = 65534
# The group that wlr-orient's udev rule (contrib/udev) gives an accelerometer's attributes to.
VIDEO_GID = 44
AS_NOBODY = ("setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups")
# A seat user to whom the udev rule gave the device: the node is theirs (uaccess) and they are in
# the group the attributes were given to.
AS_SEAT_USER = ("setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--groups=%d" % VIDEO_GID)
G_COUNTS = 1000  # raw counts per g with the default scale below
# The raw readings of a device held upright in each orientation (iio-sensor-proxy's convention).
NORMAL, LEFT_UP, BOTTOM_UP, RIGHT_UP = (0, -G_COUNTS, 0), (G_COUNTS, 0, 0), (0, G_COUNTS, 0), (-G_COUNTS, 0, 0)
DEFAULT_SCALE = "0.009807"


def kernel_preload():
    """fakes/iio-kernel.c as a preload library."""
    return fake_library("iio-kernel")


def fake_library(name):
    """fakes/NAME.c as a preload library, built if it is missing or older than its source."""
    source = os.path.join(FAKES, name + ".c")
    directory = os.path.join(BUILD, "test-fakes")
    library = os.path.join(directory, name + ".so")
    if not os.path.exists(library) or os.path.getmtime(library) < os.path.getmtime(source):
        os.makedirs(directory, exist_ok=True)
        built = library + ".%d" % os.getpid()
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", built, source, "-ldl", "-lpthread"],
                       check=True)
        os.chmod(built, 0o755)
        os.replace(built, library)
    return library


# Attributes the kernel lets root alone write (0644); every other one is 0444.
WRITABLE = re.compile(r"(^|/)(buffer/\w+|scan_elements/\w+_en|trigger/current_trigger|events/\w+_(en|value)"
                      r"|in_accel_hysteresis|sampling_frequency|in_accel_\w*calibbias|uevent)$")


# wlr-orient's udev rule, whose own command the fake applies (as_the_kernel_makes_it).
UDEV_RULE = os.path.join(ROOT, "contrib", "udev", "70-wlr-orient.rules")


def udev_rule_command():
    """The shell command of the rule's RUN+= (udev's %p, the device's path under /sys, left in;
    `$$` made `$` as udev does)."""
    with open(UDEV_RULE) as f:
        for line in f:
            m = re.search(r'RUN\+="/bin/sh -c \'(.*)\'"\s*$', line)
            if m:
                return m.group(1).replace("$$", "$")
    raise AssertionError("no RUN+=\"/bin/sh -c '...'\" in %s" % UDEV_RULE)


class FakeIIO:
    """A umockdev testbed holding IIO accelerometers, with the kernel's one-opener rules for
    their nodes (fakes/iio-kernel.c) and, after as_the_kernel_makes_it(), its owners and modes."""

    def __init__(self):
        self.tb = UMockdev.Testbed.new()
        # umockdev makes it its creator's alone; its preload binds the sockets that stand for
        # udev's netlink there, for any user of a program under test (plumbing, not the kernel).
        os.chmod(self.tb.get_root_dir(), 0o1777)
        self.locks = os.path.join(self.tb.get_root_dir(), "kernel-locks")
        os.mkdir(self.locks)
        os.chmod(self.locks, 0o777)
        # fds a program under test must inherit (Program and Compositor pass them): the read
        # ends of the motion-event pipes of add_moving_accel().
        self.pass_fds = []
        self._event_fifos = []
        self._ioctl = []
        self._glib = None

    def add_accel(self, ident="iio:device0", name="accel_3d", raw=(0, -G_COUNTS, 0), scale=DEFAULT_SCALE,
                  label=None, sysfs_matrix=None, udev=None, location=None, extra_attrs=None, bus=None):
        """`bus`: (subsystem, name, modalias) of the device it sits on, as an ACPI i2c sensor sits
        on `("i2c", "i2c-BOSC0200:00", "acpi:BOSC0200:BOSC0200:")`; else it sits on nothing."""
        attrs = ["name", name + "\n", "in_accel_scale", scale + "\n", "sampling_frequency", "50\n"]
        for axis, v in zip("xyz", raw):
            attrs += ["in_accel_%s_raw" % axis, "%d\n" % v]
        if label:
            attrs += ["label", label + "\n"]
        if location:
            attrs += ["location", location + "\n"]
        if sysfs_matrix:
            attrs += ["in_accel_mount_matrix", sysfs_matrix + "\n"]
        for k, v in (extra_attrs or {}).items():
            attrs += [k, v]
        props = []
        for k, v in (udev or {}).items():
            props += [k, v]
        if bus:
            # A parent is described with its child, as umockdev-record writes them (its
            # add_device cannot name a parent that only the testbed has).
            kind, parent, modalias = bus
            path = "/devices/platform/%s/%s" % (parent, ident)
            lines = ["P: " + path, "E: SUBSYSTEM=iio"]
            lines += ["E: %s=%s" % (props[i], props[i + 1]) for i in range(0, len(props), 2)]
            lines += ["A: %s=%s" % (attrs[i], attrs[i + 1].rstrip("\n")) for i in range(0, len(attrs), 2)]
            lines += ["", "P: /devices/platform/" + parent, "E: SUBSYSTEM=" + kind, "A: modalias=" + modalias,
                      "", "P: /devices/platform", "E: SUBSYSTEM=platform", ""]
            self.tb.add_from_string("\n".join(lines))
            return "/sys" + path
        return self.tb.add_device("iio", ident, None, attrs, props)

    def add_machine(self, modalias, vendor, product):
        """The machine's DMI data (/sys/class/dmi/id), as the kernel gives it."""
        return self.tb.add_device("dmi", "id", None, ["modalias", modalias + "\n", "sys_vendor", vendor + "\n",
                                                      "product_name", product + "\n"], [])

    def add_buffered_accel(self, ident="iio:device0", scale=DEFAULT_SCALE, raw=(0, -G_COUNTS, 0), hysteresis=False,
                           bits=16):
        """An accelerometer with a trigger and scan elements: libiio streams it through
        /dev/<ident>, which umockdev backs with a PTY that push() writes scans to. With
        `hysteresis`, it has a HID sensor hub's in_accel_hysteresis (in g, as a hub whose
        scale is a power of ten of g takes it), which a quiet_stream() honours. `bits`: the
        width its scan elements declare (a HID hub's are 32; push() writes 16-bit scans). Like the
        kernel's, it has a soft timestamp channel beside x, y and z, off."""
        lines = ["P: /devices/%s" % ident, "N: %s" % ident, "E: SUBSYSTEM=iio", "E: DEVNAME=/dev/%s" % ident,
                 "A: name=accel_3d", "A: in_accel_scale=%s" % scale, "A: sampling_frequency=50",
                 "A: buffer/enable=0", "A: buffer/length=0", "A: buffer/watermark=1",
                 "A: trigger/current_trigger=accel_3d-dev%s" % ident.rsplit("device", 1)[-1]]
        if hysteresis:
            lines += ["A: in_accel_hysteresis=0"]
        for i, (axis, v) in enumerate(zip("xyz", raw)):
            lines += ["A: in_accel_%s_raw=%7d" % (axis, v), "A: scan_elements/in_accel_%s_en=0" % axis,
                      "A: scan_elements/in_accel_%s_index=%d" % (axis, i),
                      "A: scan_elements/in_accel_%s_type=le:s%d/%d>>0" % (axis, bits, bits)]
        # The soft timestamp channel every buffered accelerometer has (IIO_CHAN_SOFT_TIMESTAMP in
        # hid-sensor-accel-3d, bmc150...), off: libiio writes its `en` as it opens the buffer.
        lines += ["A: scan_elements/in_timestamp_en=0", "A: scan_elements/in_timestamp_index=3",
                  "A: scan_elements/in_timestamp_type=le:s64/64>>0"]
        # Re-adding a removed node is not possible in umockdev (its /dev symlink stays behind):
        # a device that comes back comes back under a new index, as it often does for real.
        index = ident.rsplit("device", 1)[-1]
        trigger = ["P: /devices/trigger%s" % index, "E: SUBSYSTEM=iio", "A: name=accel_3d-dev%s" % index]
        # libiio drops an attribute's last byte (it expects sysfs' newline): write one.
        text = "\n".join(l + ("\\n" if l.startswith("A: ") else "") for l in lines + [""] + trigger) + "\n"
        self.tb.add_from_string(text)
        self._lockable(ident)
        return "/dev/" + ident

    def _lockable(self, ident):
        for kind in ("node", "events"):
            path = os.path.join(self.locks, "%s.%s" % (ident, kind))
            open(path, "a").close()
            os.chmod(path, 0o666)

    def as_the_kernel_makes_it(self, seat_user=None):
        """Gives the testbed's files the kernel's owners and modes: every attribute root's,
        writable by root alone where the kernel lets anyone write it (WRITABLE) and read-only
        otherwise, each device node root's and 0600. With `seat_user` (a uid), what
        wlr-orient's udev rule grants as well: the nodes that user's (uaccess), and what the
        rule's own command does to each accelerometer's attributes. A program run as root sees
        no change."""
        root = self.tb.get_root_dir()
        sys_root = os.path.join(root, "sys")
        for directory, dirs, files in os.walk(sys_root):
            for d in dirs:
                path = os.path.join(directory, d)
                if not os.path.islink(path):
                    os.chown(path, 0, 0)
                    os.chmod(path, 0o755)
            for f in files:
                path = os.path.join(directory, f)
                if os.path.islink(path):
                    continue
                relative = os.path.relpath(path, sys_root)
                os.chown(path, 0, 0)
                os.chmod(path, 0o644 if WRITABLE.search(relative) else 0o444)
        if seat_user is not None:
            # The rule's own command, run as udev runs it (root), in each accelerometer's directory.
            command = udev_rule_command()
            devices = os.path.join(sys_root, "devices")
            for name in sorted(os.listdir(devices)) if os.path.isdir(devices) else []:
                if os.path.exists(os.path.join(devices, name, "in_accel_x_raw")):
                    subprocess.run(["/bin/sh", "-c", command.replace("/sys%p", os.path.join(devices, name))], check=True)
        # umockdev's own plumbing (the sockets its preload reaches the testbed's ioctl handlers
        # through) is no part of the kernel: open to all.
        for directory, _, files in os.walk(os.path.join(root, "ioctl")):
            for f in files:
                os.chmod(os.path.join(directory, f), 0o777)
        dev = os.path.join(root, "dev")
        for name in os.listdir(dev) if os.path.isdir(dev) else []:
            node = os.path.realpath(os.path.join(dev, name))
            os.chown(node, seat_user if seat_user is not None else 0, 0)
            os.chmod(node, 0o600)

    # <linux/iio/events.h> and <linux/iio/types.h>: the request, and an event's id fields.
    IIO_GET_EVENT_FD_IOCTL = 0x80046990
    IIO_ACCEL, IIO_MOD_X, IIO_EV_DIR_EITHER = 3, 1, 0
    EVENT_TYPES = {"roc": 2, "mag_rising": 1, "thresh_either": 0}

    def add_moving_accel(self, ident="iio:device0", kind="roc", raw=(0, -G_COUNTS, 0), scale=DEFAULT_SCALE,
                         threshold=100):
        """A polled accelerometer with motion events, as bmc150 (`roc`, any-motion), mma8452
        (`mag_rising`) or kxcjk-1013 (`thresh_either`) offers them: events/in_accel_{x,y,z}_<kind>_en,
        and a /dev node whose IIO_GET_EVENT_FD_IOCTL is answered here. umockdev cannot create an
        fd in the program under test, so the answer is a FIFO's fd that the program holds at the
        same number: inherited (self.pass_fds) by a program the test starts, opened by a wrapper
        (sensor_feed_wrapper) for the sensor helper, which the compositor or the daemon starts with
        none of its descriptors. move() writes a 16-byte iio_event_data to it when the reading
        changed by more than `threshold` counts on an axis and the program has enabled the events,
        as the part would. The values change in place (set())."""
        lines = ["P: /devices/%s" % ident, "N: %s" % ident, "E: SUBSYSTEM=iio", "E: DEVNAME=/dev/%s" % ident,
                 "A: name=bmc150_accel", "A: in_accel_scale=%s" % scale, "A: sampling_frequency=50",
                 "A: events/in_accel_%s_value=%d" % (kind, threshold)]
        for axis, v in zip("xyz", raw):
            lines += ["A: in_accel_%s_raw=%7d" % (axis, v), "A: events/in_accel_%s_%s_en=0" % (axis, kind)]
        self.tb.add_from_string("\n".join(l + ("\\n" if l.startswith("A: ") else "") for l in lines) + "\n")
        self._lockable(ident)
        syspath = "/sys/devices/" + ident
        fifo = os.path.join(self.tb.get_root_dir(), "events-" + ident.replace(":", "-"))
        os.mkfifo(fifo)
        os.chmod(fifo, 0o666)   # the test's plumbing, for a program under test run as any user
        r = w = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)   # read and write: opening never blocks
        self.pass_fds.append(r)
        self._event_fifos.append((r, fifo))

        def handle_ioctl(handler, client):
            if client.get_request() != self.IIO_GET_EVENT_FD_IOCTL:
                return False
            client.get_arg().resolve(0, 4).update(0, struct.pack("i", r))
            client.complete(0, 0)
            return True

        handler = UMockdev.IoctlBase()
        handler.connect("handle-ioctl", handle_ioctl)
        self.tb.attach_ioctl("/dev/" + ident, handler)
        self._ioctl.append(handler)   # kept alive with the testbed
        self._serve_glib()
        return MovingAccel(self, syspath, kind, raw, threshold, w)

    def _serve_glib(self):
        """The ioctl handlers answer on GLib's default main context: iterate it on a thread."""
        if self._glib:
            return
        context = GLib.MainContext.default()

        def serve():
            while True:
                context.iteration(True)

        self._glib = threading.Thread(target=serve, daemon=True)
        self._glib.start()

    def buffer_enabled(self, devnode):
        path = "%s/sys/devices/%s/buffer/enable" % (self.tb.get_root_dir(), devnode.rsplit("/", 1)[-1])
        try:
            with open(path) as f:
                return f.read().replace("\x00", "").strip() == "1"   # libiio writes the NUL too
        except OSError:
            return False

    def push(self, devnode, *scans):
        """Writes scans (x, y, z raw counts, little-endian s16) to a buffered device."""
        fd = self.tb.get_dev_fd(devnode)
        os.write(fd, b"".join(struct.pack("<hhh", *(int(v) for v in scan)) for scan in scans))

    def stream(self, devnode, rate=50.0, scan=(0, -G_COUNTS, 0)):
        """Starts a thread that pushes the current scan at `rate` Hz, as the hardware would,
        beginning with `scan`; returns a Stream whose .scan the test sets (None pauses it) and
        .stop() ends."""
        return Stream(self, devnode, rate, scan)

    def quiet_stream(self, devnode, rate=50.0, scan=(0, -G_COUNTS, 0), scale=float(DEFAULT_SCALE)):
        """A HID sensor hub honouring its hysteresis: at `rate` Hz it sends the current scan
        only when an axis moved by more than the hysteresis written to it since the last one
        sent (everything, while none is written); still, it sends nothing. Counts the scans
        it sent in .sent."""
        return Stream(self, devnode, rate, scan, hysteresis=lambda: self._hysteresis_counts(devnode, scale))

    def _hysteresis_counts(self, devnode, scale):
        path = "%s/sys/devices/%s/in_accel_hysteresis" % (self.tb.get_root_dir(), devnode.rsplit("/", 1)[-1])
        try:
            with open(path) as f:
                g = float(f.read().replace("\x00", "").strip() or 0)  # libiio writes the NUL too
        except (OSError, ValueError):
            return 0.0
        return g * 9.80665 / scale

    def set(self, syspath, x, y, z):
        """A new reading, given the way sysfs gives one: the same files with new contents. Each
        value is written in place at a fixed width, so no reader ever sees a shortened file."""
        for axis, v in zip("xyz", (x, y, z)):
            path = "%s%s/in_accel_%s_raw" % (self.tb.get_root_dir(), syspath, axis)
            data = b"%7d\n" % int(round(v))
            fd = os.open(path, os.O_WRONLY)
            try:
                os.pwrite(fd, data, 0)
                if os.fstat(fd).st_size > len(data):  # after set_text()
                    os.ftruncate(fd, len(data))
            finally:
                os.close(fd)

    def replace(self, syspath, x, y, z):
        """The same through umockdev's own writer, which puts a new file in place of the old one
        (real sysfs never does): a reader holding the old file open must notice."""
        for axis, v in zip("xyz", (x, y, z)):
            self.tb.set_attribute(syspath, "in_accel_%s_raw" % axis, "%d\n" % int(round(v)))

    def set_text(self, syspath, axis, text):
        self.tb.set_attribute(syspath, "in_accel_%s_raw" % axis, text)

    def remove(self, syspath):
        self.tb.remove_device(syspath)

    def env(self, **extra):
        e = dict(os.environ, UMOCKDEV_DIR=self.tb.get_root_dir(),
                 LD_PRELOAD="%s libumockdev-preload.so.0" % kernel_preload())
        # Keep the user's config out of the test unless a test passes one.
        e["XDG_CONFIG_HOME"] = self.tb.get_root_dir() + "/config"
        e["XDG_CONFIG_DIRS"] = self.tb.get_root_dir() + "/config-dirs"
        if self._event_fifos:
            e["WLR_ORIENT_SENSOR_FEED"] = self.sensor_feed_wrapper()
        e.update(extra)
        return e

    def sensor_feed_wrapper(self):
        """The sensor helper (the plugin's and the daemon's) behind a wrapper that opens each motion-event FIFO at the
        number the ioctl handler answers (see add_moving_accel)."""
        path = os.path.join(self.tb.get_root_dir(), "sensor-feed-wrapper")
        with open(path, "w") as f:
            f.write("#!/bin/bash\n")
            for fd, fifo in self._event_fifos:
                f.write("exec %d<>%s\n" % (fd, shlex.quote(fifo)))
            f.write('exec %s "$@"\n' % shlex.quote(os.path.join(BUILD, "wlr-orient-sensor-feed")))
        os.chmod(path, 0o755)
        return path


class MovingAccel:
    """A polled accelerometer with motion events (FakeIIO.add_moving_accel). Setting .scan
    moves it, as Stream's .scan does for a buffered one; .sent counts the events it sent."""

    def __init__(self, fake, syspath, kind, raw, threshold, event_fd):
        self.fake, self.syspath, self.kind, self.threshold, self._w = fake, syspath, kind, threshold, event_fd
        self._scan = tuple(raw)
        self.sent = 0

    def enabled(self):
        path = "%s%s/events/in_accel_x_%s_en" % (self.fake.tb.get_root_dir(), self.syspath, self.kind)
        with open(path) as f:
            return f.read().replace("\x00", "").strip() == "1"

    @property
    def scan(self):
        return self._scan

    @scan.setter
    def scan(self, values):
        moved = max(abs(a - b) for a, b in zip(values, self._scan)) > self.threshold
        self.fake.set(self.syspath, *values)
        self._scan = tuple(values)
        if moved and self.enabled():
            code = (self.fake.EVENT_TYPES[self.kind] << 56) | (self.fake.IIO_EV_DIR_EITHER << 48) \
                | (self.fake.IIO_MOD_X << 40) | (self.fake.IIO_ACCEL << 32)
            os.write(self._w, struct.pack("<Qq", code, time.monotonic_ns()))
            self.sent += 1

    def stop(self):
        pass


class Stream:
    def __init__(self, fake, devnode, rate, scan, hysteresis=None):
        self.scan = scan   # set before the thread starts: its first push is already this
        self.sent = 0
        self._ticks = 0
        self._ticked = threading.Condition()
        self._hysteresis = hysteresis
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(fake, devnode, 1.0 / rate), daemon=True)
        self._thread.start()

    def _run(self, fake, devnode, period):
        next_t = time.monotonic()
        last = None
        while not self._stop.is_set():
            scan = self.scan
            hysteresis = self._hysteresis() if self._hysteresis and last is not None and scan is not None else 0
            quiet = hysteresis > 0 and max(abs(a - b) for a, b in zip(scan, last)) <= hysteresis
            # As the hardware: scans only while the buffer is on (a reader that switched it off,
            # or another's libiio that did, gets none).
            if scan is not None and not quiet and fake.buffer_enabled(devnode):
                fake.push(devnode, scan)
                self.sent += 1
                last = scan
            with self._ticked:
                self._ticks += 1
                self._ticked.notify_all()
            next_t += period
            self._stop.wait(max(0.0, next_t - time.monotonic()))

    def wait_ticks(self, n, timeout=5.0):
        """Waits until the device has had `n` more chances to send."""
        with self._ticked:
            target = self._ticks + n
            assert self._ticked.wait_for(lambda: self._ticks >= target, timeout), "the stream stalled"

    def stop(self):
        self._stop.set()
        self._thread.join()


class Lines:
    """A child's output lines, arriving on a queue; waits match them as they come."""

    def __init__(self, stream, context=lambda: ""):
        self.q = queue.Queue()
        self.seen = []
        self.stamps = []  # when each line of `seen` arrived (time.monotonic())
        self.context = context  # more to say when a wait fails (e.g. the other stream's tail)
        self.ended = threading.Event()  # the stream has ended (and the thread reading it with it)
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        try:
            for line in stream:
                self.q.put((time.monotonic(), line.rstrip("\n")))
            self.q.put(None)
        finally:
            self.ended.set()

    def _keep(self, item):
        stamp, line = item
        self.seen.append(line)
        self.stamps.append(stamp)
        return line

    def next(self, predicate, timeout=10.0, what="a line"):
        """The first new line for which predicate(line) is true."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("timed out waiting for %s; last lines: %s%s"
                                     % (what, self.seen[-8:], self.context()))
            try:
                item = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if item is None:
                raise AssertionError("the process ended while waiting for %s; last lines: %s%s"
                                     % (what, self.seen[-8:], self.context()))
            line = self._keep(item)
            if predicate(line):
                return line

    def wait(self, pattern, timeout=10.0):
        """The match of the first new line matching `pattern`."""
        return re.search(pattern, self.next(lambda line: re.search(pattern, line), timeout, repr(pattern)))

    def wait_all(self, patterns, timeout=10.0):
        """Waits until each of `patterns` has matched a new line, in whatever order they come
        (for events of two sources, such as a focus change and a frame)."""
        left = list(patterns)
        deadline = time.monotonic() + timeout
        while left:
            line = self.next(lambda line: any(re.search(p, line) for p in left),
                             max(0.0, deadline - time.monotonic()), " and ".join(map(repr, left)))
            left = [p for p in left if not re.search(p, line)]

    def available(self):
        """Every line that has arrived so far, without waiting."""
        while True:
            try:
                item = self.q.get_nowait()
            except queue.Empty:
                return self.seen
            if item is None:
                return self.seen
            self._keep(item)

    def drain(self, timeout=5.0):
        """After the process ended: every line it printed, consumed or not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = self.q.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if item is None:
                break
            self._keep(item)
        return self.seen


# Runs a command where inotify cannot be had (its instance limit is 0 in a user namespace of its
# own), as on a desktop that has used up its per-user inotify instances.
WITHOUT_INOTIFY = ("unshare", "--user", "--map-root-user", "sh", "-c",
                   'echo 0 > /proc/sys/user/max_inotify_instances && exec "$0" "$@"')


class Program:
    """wlr-orient running under the testbed; stdout carries JSON events, stderr log lines."""

    def __init__(self, args, env, prefix=(), pass_fds=()):
        self.p = subprocess.Popen(list(prefix) + [BIN] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, text=True, bufsize=1, pass_fds=pass_fds)
        self.err = Lines(self.p.stderr)
        self.out = Lines(self.p.stdout, context=lambda: "; stderr: %s" % self.err.available()[-5:])
        self.events = []

    def _event(self, line):
        """Parses (and records) one stdout line; None if it is not JSON."""
        try:
            event = json.loads(line)
        except ValueError:
            return None
        self.events.append(event)
        return event

    def wait_for(self, predicate, timeout=10.0, what="an event"):
        """Returns the first JSON event on stdout for which predicate(event) is true."""
        found = []

        def matches(line):
            event = self._event(line)
            if event is not None and predicate(event):
                found.append(event)
                return True
            return False
        self.out.next(matches, timeout, what)
        return found[0]

    def wait_event(self, kind, timeout=10.0, **fields):
        return self.wait_for(lambda e: e.get("event") == kind and all(e.get(k) == v for k, v in fields.items()),
                             timeout, "%s %s" % (kind, fields or ""))

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
        status = self.p.wait(timeout=10)
        # Read what is left, for assertions over the whole run.
        before = len(self.out.seen)
        for line in self.out.drain()[before:]:
            self._event(line)
        self.err.drain()
        return status


def read_trace(path):
    """-> (scale, mount matrix text or None, [(t, x, y, z)])"""
    scale, matrix, samples = None, None, []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("#"):
                body = s[1:].strip()
                if body.startswith("scale:"):
                    scale = body.split(":", 1)[1].strip()
                elif body.startswith("mount-matrix:"):
                    matrix = body.split(":", 1)[1].strip()
                continue
            if not s or s == "t,x,y,z":
                continue
            t, x, y, z = s.split(",")
            samples.append((float(t), float(x), float(y), float(z)))
    return scale, matrix, samples


def play(fake, syspath, samples, t_from=0.0, t_to=None):
    """Writes the samples' raw values to the device at their times (the stimulus timeline)."""
    start = time.monotonic()
    for t, x, y, z in samples:
        if t < t_from:
            continue
        if t_to is not None and t > t_to:
            break
        delay = (t - t_from) - (time.monotonic() - start)
        if delay > 0:
            time.sleep(delay)
        fake.set(syspath, x, y, z)

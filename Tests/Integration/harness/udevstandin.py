"""udev where udevd cannot run: a test of `calibrate --hwdb` as root needs udev to read a device
again when `udevadm trigger` asks, and this machine has no kernel IIO device and no udevd.

Everything but the daemon is udev's own: `systemd-hwdb update` compiles the hwdb, `udevadm test`
runs the installed rules (60-sensor.rules and its hwdb lookup) over the device, and `udevadm info`
reads the result. The stand-in does what the kernel and udevd would between the two: it sees the
write `udevadm trigger` makes to the device's `uevent` file, runs the rules, keeps the properties
they give in umockdev's udev database (the device's `uevent` file in the testbed, which umockdev's
preload hands to libudev and udevadm), and sends the uevent the trigger waits for.

`private_udev()` gives the program under test and the stand-in a mount namespace of their own
whose /etc/udev and /run/udev are scratch copies: a root-run test writes the hwdb there, never
into the machine's (or the Debian root's) own /etc.

It serves Debian 12's udev (252). udevadm from systemd 257 on (trixie, sid) refuses a /sys that is
not the kernel's sysfs and walks it through directory fds that umockdev's preload does not
redirect ("Failed to chase symlinks"), so there only a kernel IIO device would do."""
import glob
import os
import re
import shutil
import socket
import struct
import subprocess
import threading

from harness.filewatch import IN_CLOSE_WRITE, DirectoryWatch

# What the rules' run prints that a device's database does not keep (the event's own fields).
EVENT_ONLY = {"ACTION", "DEVPATH", "SEQNUM", "SYNTH_UUID", "USEC_INITIALIZED"}
PROPERTY = re.compile(r"^\s*([A-Z][A-Z0-9_]*)=(.*)$")


def private_udev(scratch):
    """A command prefix: the program runs as root in a mount namespace of its own where
    /etc/udev is a copy of the machine's (under `scratch`) and /run/udev is empty."""
    etc = os.path.join(scratch, "etc-udev")
    run = os.path.join(scratch, "run-udev")
    shutil.copytree("/etc/udev", etc, symlinks=True)
    # What systemd-hwdb compiles, made anew by the program under test or not at all.
    if os.path.lexists(os.path.join(etc, "hwdb.bin")):
        os.remove(os.path.join(etc, "hwdb.bin"))
    os.makedirs(run)
    script = ('mount --bind "$1" /etc/udev && mkdir -p /run/udev && mount --bind "$2" /run/udev'
              ' && shift 2 && exec "$@"')
    # Private, so that nothing mounted there reaches the machine's namespace. In a chroot whose /
    # is no mount point unshare cannot make it so, and fails: better than mounts left outside.
    return ("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "private-udev", etc, run)


def murmur2(data):
    """MurmurHash2 with seed 0: the hash libudev puts in a message's header for its subsystem,
    which a listener's socket filter compares."""
    m, h = 0x5BD1E995, len(data)
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little") * m & 0xFFFFFFFF
        k = (k ^ (k >> 24)) * m & 0xFFFFFFFF
        h = (h * m & 0xFFFFFFFF) ^ k
    rest = data[whole:]
    if rest:
        for i in reversed(range(len(rest))):
            h ^= rest[i] << (8 * i)
        h = h * m & 0xFFFFFFFF
    h = (h ^ (h >> 13)) * m & 0xFFFFFFFF
    return h ^ (h >> 15)


def send_uevent(root, syspath, action, properties):
    """The message udevd sends its listeners after it has handled an event, as libudev frames it
    ("libudev", its magic, the offsets, the subsystem's hash, then KEY=VALUE each ended by NUL),
    to every listener umockdev's preload has bound in the testbed (`event<fd>` sockets): what
    umockdev's own sender does, which works only from a process under its preload."""
    fields = dict(line.split("=", 1) for line in properties if "=" in line)
    subsystem = fields["SUBSYSTEM"]
    head = ["ACTION=" + action, "DEVPATH=" + syspath[len("/sys"):], "SUBSYSTEM=" + subsystem, "SEQNUM=1"]
    body = b"".join(line.encode() + b"\0" for line in head + [l for l in properties if not l.startswith("SUBSYSTEM=")])
    devtype = fields.get("DEVTYPE")
    header = struct.pack("=8sIIIIIIII", b"libudev\0", socket.htonl(0xFEEDCAFE), 40, 40, len(body),
                         socket.htonl(murmur2(subsystem.encode())),
                         socket.htonl(murmur2(devtype.encode())) if devtype else 0, 0, 0)
    for path in glob.glob(os.path.join(root, "event[0-9]*")):
        with socket.socket(socket.AF_UNIX, socket.SOCK_RAW) as s:
            try:
                s.connect(path)
                s.sendmsg([header, body])
            except (ConnectionRefusedError, FileNotFoundError):
                pass   # a listener that closed its monitor (or whose socket went after the glob)


class UdevStandIn(threading.Thread):
    """Answers `udevadm trigger` for one device of a FakeIIO testbed, running udev's rules in the
    mount namespace of the process `pid` (see private_udev)."""

    def __init__(self, fake, syspath, pid):
        super().__init__(daemon=True)
        self.fake, self.syspath, self.pid = fake, syspath, pid
        self.uevent = fake.tb.get_root_dir() + syspath + "/uevent"
        with open(self.uevent) as f:
            self.database = f.read()
        self.triggers = []      # what each trigger wrote
        self.rules_runs = []    # the properties each run of the rules gave
        self.problems = []
        self.stopped = threading.Event()
        self.watch = DirectoryWatch(os.path.dirname(self.uevent), IN_CLOSE_WRITE)
        self.start()

    def run(self):
        try:
            while not self.stopped.is_set():
                if "uevent" in self.watch.names(0.2):
                    self._maybe_triggered()
        except Exception as e:  # said by the test through .problems, never lost with the thread
            self.problems.append(repr(e))

    def _maybe_triggered(self):
        with open(self.uevent) as f:
            written = f.read()
        words = written.split("\n", 1)[0].split()
        # The kernel's grammar for a write to `uevent`: an action, then an optional UUID.
        if not words or words[0] not in ("add", "remove", "change", "move", "online", "offline", "bind", "unbind"):
            return
        self.triggers.append(written.split("\n", 1)[0])
        self._put(self.database)   # a write to `uevent` never changes what the kernel holds
        found = self._rules(words[0])
        self.rules_runs.append(found)
        kept = [line for line in self.database.splitlines() if line.split("=", 1)[0] not in found]
        kept += ["%s=%s" % kv for kv in found.items() if kv[0] not in EVENT_ONLY]
        self.database = "\n".join(kept) + "\n"
        synth = ["SYNTH_UUID=" + words[1]] if len(words) > 1 else []
        self._put("\n".join(kept + synth) + "\n")
        send_uevent(self.fake.tb.get_root_dir(), self.syspath, words[0], kept + synth)
        self._put(self.database)

    def _rules(self, action):
        """The properties udev's installed rules give the device, as `udevadm test` runs them."""
        env = self.fake.env()
        done = subprocess.run(["nsenter", "--target", str(self.pid), "--mount", "--",
                               "udevadm", "test", "--action=" + action, self.syspath],
                              env=env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise AssertionError("udevadm test failed (%d): %s" % (done.returncode, done.stderr[-600:]))
        found = {}
        for line in done.stdout.splitlines():
            m = PROPERTY.match(line)
            if m:
                found[m.group(1)] = m.group(2)
        return found

    def _put(self, text):
        temporary = self.uevent + ".standin"
        with open(temporary, "w") as f:
            f.write(text)
        os.rename(temporary, self.uevent)

    def stop(self):
        self.stopped.set()
        # The rules' run it may be in ends within its own 60 s.
        self.join(timeout=90)
        assert not self.is_alive(), "the udev stand-in did not stop"
        self.watch.close()

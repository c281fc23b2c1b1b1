"""The events channel the tests wait on (harness/events.py, OrientService's Events), end to end in
the reference host: a reader that stops reading while the plugin sends thousands of events gets
every one of them, in order, once it reads again; the compositor meanwhile answers as before."""
import os
import shutil
import socket
import tempfile
import time

import pytest

from harness.compositor import Compositor
from harness.fakeiio import NORMAL, FakeIIO
from test_control import Raw, socket_path

pytestmark = pytest.mark.quick


def test_a_reader_that_stops_for_two_seconds_gets_every_event_in_order():
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    client = None
    try:
        client = Raw(socket_path(host))
        host.events.wait_panel("HEADLESS-1")
        mark = len(host.events.arrived())
        locks = []
        with host.events.held():
            # Each lock changes the status (an event, with the log's lines): over 3,000 events,
            # about 4 MB of them (what the plugin keeps for a reader, beside what the kernel
            # holds, is bounded: see the test below), none read for two seconds.
            started = time.monotonic()
            while len(locks) < 1500:
                lock = "landscape" if len(locks) % 2 else "portrait"
                assert client.ask({"command": "lock", "orientations": lock})["ok"]
                locks.append(lock)
            assert client.ask({"command": "unlock"})["ok"]
            time.sleep(max(0.0, 2.0 - (time.monotonic() - started)))   # the reader's pause itself
            held_for = time.monotonic() - started
        # Read again: the last status comes, after every one before it (a loss would fail the
        # wait at once, saying how many were lost).
        host.events.wait_status(lambda s: s["lock"] is None, timeout=60, what="the unlock's status")
        after = host.events.arrived()[mark:]
        said = [None]   # each change of the lock, as the statuses say it (other parts change too)
        for e in after:
            if e["event"] == "status" and e["status"]["lock"] != said[-1]:
                said.append(e["status"]["lock"])
        assert said[1:] == locks + [None], "%d changes of the lock for %d locks" % (len(said) - 1, len(locks))
        assert len(after) >= 3000 and held_for >= 2.0, (len(after), held_for)
        # The compositor went on meanwhile, and goes on.
        assert host.p.poll() is None
        assert client.ask({"command": "status"})["ok"]
    finally:
        if client:
            client.close()
        assert host.stop() == 0


def _rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


@pytest.mark.parametrize("reader", ["never-accepts", "never-reads"])
def test_a_reader_that_stops_costs_the_compositor_8_mb_at_most(reader):
    """An events reader that never reads (or never even accepts) while the plugin sends tens of
    thousands of events: what waits for it is bounded, the rest counted as lost, and the
    compositor's memory stays within 8 MB of its start, then and once the reader has gone."""
    directory = tempfile.mkdtemp(prefix="wlr-orient-events-")
    os.chmod(directory, 0o777)
    path = os.path.join(directory, "events.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    os.chmod(path, 0o666)
    listener.listen(4)
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake, extra_env={"WLR_ORIENT_EVENTS": path})
    connection = None
    client = None
    try:
        host.wait_frame(0)
        client = Raw(os.path.join(host.runtime, "wlr-orient.%s.sock" % host.client_env["WAYLAND_DISPLAY"]))
        if reader == "never-reads":
            connection, _ = listener.accept()
        # The first requests bring the code that answers them into memory: measured from after them.
        for n in range(300):
            assert client.ask({"command": "lock", "orientations": "landscape" if n % 2 else "portrait"})["ok"]
        start = _rss_kb(host.p.pid)
        for n in range(6000):
            assert client.ask({"command": "lock", "orientations": "landscape" if n % 2 else "portrait"})["ok"]
        grown = _rss_kb(host.p.pid) - start
        assert grown <= 8 * 1024, "the compositor grew by %d kB while the reader read nothing" % grown
        # The reader goes: the channel ends, and what waited is given back.
        if connection:
            connection.close()
        listener.close()
        for n in range(200):
            assert client.ask({"command": "lock", "orientations": "landscape" if n % 2 else "portrait"})["ok"]
        after = _rss_kb(host.p.pid) - start
        assert after <= 8 * 1024, "the compositor kept %d kB after the reader had gone" % after
        assert host.p.poll() is None
    finally:
        if client:
            client.close()
        if connection:
            connection.close()
        listener.close()
        assert host.stop() == 0
        shutil.rmtree(directory)

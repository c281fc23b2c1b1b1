"""The events channel the tests wait on (harness/events.py, OrientService's Events), end to end in
the reference host: a reader that stops reading while the plugin sends thousands of events gets
every one of them, in order, once it reads again; the compositor meanwhile answers as before."""
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
            # Each lock changes the status (an event, with the log's lines): at least 10,000
            # events over at least two seconds, none read.
            started = time.monotonic()
            while len(locks) < 5000 or time.monotonic() - started < 2.0:
                lock = "landscape" if len(locks) % 2 else "portrait"
                assert client.ask({"command": "lock", "orientations": lock})["ok"]
                locks.append(lock)
            assert client.ask({"command": "unlock"})["ok"]
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
        assert len(after) >= 10000 and held_for >= 2.0, (len(after), held_for)
        # The compositor went on meanwhile, and goes on.
        assert host.p.poll() is None
        assert client.ask({"command": "status"})["ok"]
    finally:
        if client:
            client.close()
        assert host.stop() == 0

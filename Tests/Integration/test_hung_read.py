"""A raw read that hangs, under the plugin and under the daemon: the fake accelerometer's raw
reads do not end while a file exists (fakes/raw-reads.c, as a wedged driver's read never ends
and a HID hub's takes up to 5 s). The sensor is read by a helper process in both hosts, so their
loops go on: the control socket answers throughout, the hang is reported once (its helper killed
and replaced, and the replacement, hung as well, replaced without a word), and the panel turns
again once the reads return."""
import json
import os
import socket
import statistics
import time

import pytest

from harness.compositor import Compositor
from harness.fakeiio import LEFT_UP, NORMAL, FakeIIO, fake_library
from test_daemon import Session

HANG_S = 10


def ask_status(path):
    """One `status` on a connection of its own; (seconds to the answer, the status)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    try:
        s.connect(path)
        started = time.monotonic()
        s.sendall(b'{"command": "status"}\n')
        answer = s.makefile("rb").readline()
        return time.monotonic() - started, json.loads(answer)["status"]
    finally:
        s.close()


def hanging(fake):
    """The environment that makes raw reads hang while the file it names exists; the file."""
    flag = os.path.join(fake.tb.get_root_dir(), "hang")
    preload = "%s %s" % (fake_library("raw-reads"), fake.env()["LD_PRELOAD"])
    return dict(LD_PRELOAD=preload, WLR_ORIENT_FAKE_RAW_HANG=flag), flag


def hang_and_recover(fake, dev, flag, events, path):
    """Hangs the reads for HANG_S seconds while asking for the status ten times a second; then
    lets them return and turns the device. The answers' times in seconds, and the statuses."""
    events.wait_status(lambda st: st["sensor"] == "running", what="reading")
    mark = len(events.arrived())
    times, statuses = [], []
    open(flag, "w").close()
    try:
        ends = time.monotonic() + HANG_S
        while time.monotonic() < ends:
            took, status = ask_status(path)
            times.append(took)
            statuses.append(status)
            time.sleep(0.1)  # the pace of the asking, not a wait for anything
    finally:
        os.unlink(flag)
    during = events.arrived()[mark:]
    lost = [e for e in during if e["event"] == "sensor-lost"]
    assert len(lost) == 1, "the hang reported once: %s" % lost
    assert "stopped answering" in lost[0]["why"], lost
    # The status said so while it lasted.
    assert statuses[-1]["sensor"] == "looking", statuses[-1]
    fake.set(dev, *LEFT_UP)
    events.wait_turned("left-up", timeout=30)
    return times


def check_answers(times):
    assert len(times) >= HANG_S * 5, "asked throughout: %d answers" % len(times)
    # The loop never waited on the read: each answer came at once (a loop stuck in the read
    # would answer after seconds, or never).
    slow = [t for t in times if t >= 0.05]
    assert not slow, "answers that took 50 ms or more: %s (median %.1f ms)" % (
        ["%.0f ms" % (t * 1000) for t in slow], statistics.median(times) * 1000)


@pytest.mark.slow
def test_the_plugin_answers_throughout_a_hung_read_and_turns_when_reads_return():
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    env, flag = hanging(fake)
    host = Compositor(fake, extra_env=env)
    try:
        path = host.events.wait("control-socket")["path"]
        check_answers(hang_and_recover(fake, dev, flag, host.events, path))
    finally:
        assert host.stop() == 0


@pytest.mark.slow
def test_the_daemon_answers_throughout_a_hung_read_and_turns_when_reads_return():
    fake = FakeIIO()
    env, flag = hanging(fake)
    s = Session(extra_env=env, fake=fake)
    try:
        path = s.events.seen("control-socket")[0]["path"]   # the session waited for it
        check_answers(hang_and_recover(s.fake, s.dev, flag, s.events, path))
    finally:
        s.stop()

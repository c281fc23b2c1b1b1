#!/usr/bin/python3
"""What a reader of the events channel that stops reading costs the compositor. The reference host
runs the plugin, its panel refreshing at 60 Hz; a control client makes the plugin send events
(each lock changes the status: a status event and the log's lines) as fast as the control socket
answers, for two seconds, once while the tests' reader reads the events and once while it reads
nothing (harness/events.py `held`); meanwhile the host records every refresh. Prints named
numbers:

    events_backpressure_{reading,stalled}_events            events the plugin sent in those seconds
    events_backpressure_{reading,stalled}_refresh_ms_{p50,p99,max}   time from one refresh to the next
    events_backpressure_{reading,stalled}_answer_ms_{p50,p99}        a control request's round trip
    events_backpressure_stalled_lost                        events the reader was told were lost

    /usr/bin/python3 benchmarks/events_backpressure.py [--seconds S]
"""
import argparse
import contextlib
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
sys.dont_write_bytecode = True
from harness.compositor import Compositor  # noqa: E402
from harness.events import EventsLost  # noqa: E402
from harness.fakeiio import NORMAL, FakeIIO  # noqa: E402
from stats import percentile  # noqa: E402
from test_control import Raw, socket_path  # noqa: E402


def phase(host, client, seconds, stalled, directory):
    """Locks as fast as answered for `seconds`, the reader held or not; (events, refresh gaps
    in ms, answers in ms, lost)."""
    mark = len(host.events.arrived())
    host.command("record start times", r"^recording$")
    answers, locks = [], 0
    with host.events.held() if stalled else contextlib.nullcontext():
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            asked = time.monotonic()
            assert client.ask({"command": "lock", "orientations": "landscape" if locks % 2 else "portrait"})["ok"]
            answers.append((time.monotonic() - asked) * 1000)
            locks += 1
        assert client.ask({"command": "unlock"})["ok"]
    refreshes = sorted([p for p, _, _ in host.record_stop(directory)] + Compositor.idle_refreshes(directory))
    lost = 0
    try:
        host.events.wait_status(lambda s: s["lock"] is None, timeout=120, what="the unlock's status")
    except EventsLost as e:
        lost = int(str(e).split()[4])
    events = len(host.events.arrived()) - mark
    gaps = [(b - a) * 1000 for a, b in zip(refreshes, refreshes[1:])]
    return events, gaps, answers, lost


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args()
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    client = None
    try:
        client = Raw(socket_path(host))
        host.events.wait_panel("HEADLESS-1")
        for name, stalled in (("reading", False), ("stalled", True)):
            events, gaps, answers, lost = phase(host, client, a.seconds, stalled, tempfile.mkdtemp(dir=host.dir))
            prefix = "events_backpressure_%s_" % name
            print("%sevents %d" % (prefix, events))
            for p in (50, 99):
                print("%srefresh_ms_p%d %.2f" % (prefix, p, percentile(gaps, p)))
            print("%srefresh_ms_max %.2f" % (prefix, max(gaps)))
            for p in (50, 99):
                print("%sanswer_ms_p%d %.3f" % (prefix, p, percentile(answers, p)))
            if stalled:
                print("%slost %d" % (prefix, lost))
    finally:
        if client:
            client.close()
        host.stop()


if __name__ == "__main__":
    main()

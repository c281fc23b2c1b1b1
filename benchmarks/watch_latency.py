#!/usr/bin/python3
"""How soon `wlr-orient watch --json` prints a change (within 50 ms).

    /usr/bin/python3 benchmarks/watch_latency.py [--changes N] [--turns N]

Runs the reference host with the plugin and a fake accelerometer, and `wlr-orient watch --json`
as a status bar would. Two kinds of change, each timed on CLOCK_MONOTONIC up to the moment the
watch line reaches this script's end of its pipe:
  lock: from a lock command sent on the control socket (alternating landscape and portrait);
  turn: from the sensor sample that completed a decision (the plugin logs its time) to the line
        that reports the new orientation.
Prints named numbers.
"""
import argparse
import json
import os
import queue
import socket
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
from harness.compositor import ROOT, Compositor  # noqa: E402
from harness.fakeiio import BOTTOM_UP, LEFT_UP, NORMAL, RIGHT_UP, FakeIIO  # noqa: E402

POSES = [(LEFT_UP, "left-up"), (BOTTOM_UP, "bottom-up"), (RIGHT_UP, "right-up"), (NORMAL, "normal")]


def summary(name, values):
    values = sorted(values)
    print("%s_count=%d" % (name, len(values)))
    print("%s_median_ms=%.2f" % (name, statistics.median(values)))
    print("%s_p95_ms=%.2f" % (name, values[int(0.95 * (len(values) - 1))]))
    print("%s_max_ms=%.2f" % (name, values[-1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--changes", type=int, default=200)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "wlr-orient"))
    a = ap.parse_args()
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = Compositor(fake, extra_args=["--debug"])
    watch = None
    try:
        host.wait_frame(0)
        path = host.events.wait("control-socket")["path"]
        watch = subprocess.Popen([a.cli, "watch", "--json"], env=host.client_env, stdout=subprocess.PIPE, text=True)
        lines = queue.Queue()

        def pump():
            for line in watch.stdout:
                lines.put((time.monotonic(), json.loads(line)))
        threading.Thread(target=pump, daemon=True).start()

        def until(predicate):
            while True:
                at, status = lines.get(timeout=10)
                if predicate(status):
                    return at
        until(lambda s: True)

        control = socket.socket(socket.AF_UNIX)
        control.connect(path)
        replies = control.makefile("rb")
        locks = []
        for i in range(a.changes):
            want = "landscape" if i % 2 == 0 else "portrait"
            sent = time.monotonic()
            control.sendall(json.dumps({"command": "lock", "orientations": want}).encode() + b"\n")
            replies.readline()
            locks.append((until(lambda s: s["lock"] == want) - sent) * 1000)
        control.sendall(b'{"command": "unlock"}\n')
        replies.readline()
        until(lambda s: s["lock"] is None)

        turns = []
        for i in range(a.turns):
            raw, name = POSES[i % len(POSES)]
            fake.set(dev, *raw)
            sample = host.events.wait("decision", orientation=name)["sample_at"] / 1e6
            turns.append((until(lambda s: s["felt"] == name and s["panels"][0]["shown"] == name) - sample) * 1000)
    finally:
        if watch:
            watch.terminate()
            watch.wait()
        host.stop()
    summary("watch_lock", locks)
    summary("watch_turn", turns)
    print("watch_limit_ms=50")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Whether `wlr-orient daemon` ever shows a frame that is neither the old picture nor the new
layout, at a tablet's panel size: the reference host without its plugin, the daemon beside it,
the card client in front, a cross-fade (its old picture held, then blended; a broken frame — the
old-size overlay cut off beside the turned layout — is neither). Every frame the host commits
during each quarter turn is recorded raw and read; the recording goes once it is read.

    /usr/bin/python3 benchmarks/daemon_frames.py [--turns 100] [--size 2560x1600]

Runs the turns twice: the daemon on time, and the daemon stopped (SIGSTOP) for 30 ms as soon as
the host has applied the turn, so that it answers the compositor late. Prints named numbers:
  daemon_frames_SIZE_{on_time,late_30ms}_turns   quarter turns made
  daemon_frames_SIZE_{on_time,late_30ms}_frames  frames recorded and read
  daemon_frames_SIZE_{on_time,late_30ms}_broken  frames that were neither old, new nor a blend
A frame is read at every 997th byte (about 12,000 samples at 2560x1600): a cut-off overlay
beside another layout differs over a whole region, which that finds.
"""
import argparse
import os
import shutil
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from harness.compositor import Client, build_client  # noqa: E402
from harness.fakeiio import LEFT_UP, NORMAL  # noqa: E402
from test_daemon import Session  # noqa: E402
from test_transitions import read_ppm  # noqa: E402

STRIDE = 997


def neither(old, new, rgb):
    """Whether `rgb` is neither `old`, `new` nor one blend of the two (read at every STRIDE-th byte)."""
    if rgb == old or rgb == new:
        return False
    samples = range(0, len(old), STRIDE)
    i = max(samples, key=lambda i: abs(old[i] - new[i]))
    if old[i] == new[i]:
        return True
    a = (rgb[i] - old[i]) / (new[i] - old[i])
    return max(abs(rgb[i] - (old[i] + a * (new[i] - old[i]))) for i in samples) > 6


def run(client, size, turns, late):
    s = Session(config='[transition]\nkind = "crossfade"\nduration-ms = 100\ntimeout-ms = 100\ncurve = "linear"\n',
                size=size)
    card = None
    frames = broken = 0
    try:
        s.events.wait("sensor-opened", device="iio:device0")
        card = Client(client, s.host.client_env, app_id="card0", card=True)
        s.host.out.wait(r"^focused card0$")
        for _ in range(2):
            s.host.command("next-frame", r"^next-frame$")
        for i in range(turns):
            pose, shown = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
            old = s.host.raw_panel()[2]
            s.host.command("record start", r"^recording$")
            s.fake.set(s.dev, *pose)
            if late:
                s.host.out.wait(r"^output configuration apply succeeded$", timeout=15)
                os.kill(s.daemon.pid, signal.SIGSTOP)
                time.sleep(0.03)
                os.kill(s.daemon.pid, signal.SIGCONT)
            s.events.wait_turned(shown, timeout=15)
            s.events.wait("shield-gone", panel="HEADLESS-1", timeout=15)
            for _ in range(2):
                s.host.command("next-frame", r"^next-frame$")
            directory = os.path.join(s.host.dir, "turn")
            recorded = s.host.record_stop(directory)
            new = s.host.raw_panel()[2]
            for _, _, path in recorded:
                frames += 1
                broken += neither(old, new, read_ppm(path)[2])
            shutil.rmtree(directory, ignore_errors=True)
    finally:
        if card:
            card.stop()
        s.stop()
    return frames, broken


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--size", default="2560x1600")
    args = parser.parse_args()
    client = build_client("/tmp")
    for name, late in (("on_time", False), ("late_30ms", True)):
        frames, broken = run(client, args.size, args.turns, late)
        prefix = "daemon_frames_%s_%s" % (args.size, name)
        print("%s_turns %d" % (prefix, args.turns))
        print("%s_frames %d" % (prefix, frames))
        print("%s_broken %d" % (prefix, broken))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

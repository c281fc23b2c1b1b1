#!/usr/bin/python3
"""The daemon's transitions from outside the compositor beside today's cut (issue #24, point 4),
in one run on one compositor (Debian's phoc 0.24: layer-shell and screencopy, no plugin; headless
with pixman, its panel 1920x1200) and one fake accelerometer. Prints named numbers.

    /usr/bin/python3 benchmarks/daemon_shield.py [--turns N]

For `kind = "none"` (the cut) and `"rotate"` and `"crossfade"` (the shield) in turn, the device
turns N times between normal and left-up; for each turn:
  applied_ms   from the write of the step's values to the daemon's line saying the compositor
               applied the transform (its stderr, stamped as it arrives; the same for every kind).
               With a shield, the capture and the overlay's first commit come first.
  cover_ms     what the shield adds before the apply: from the daemon's decision to lay it to
               the commit that shows the picture under the old transform, when the apply goes (its --debug
               log; the detector's own latency, the same for every kind, is not in it);
  frame_cpu_ms the daemon's CPU time drawing each transition frame (its --debug log);
  missed       frames the transition skipped: a gap between two of its frames longer than 1.5
               refresh periods (60 Hz) counts each period beyond the first.
"""
import argparse
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from stats import percentile  # noqa: E402
from compositor import build_client  # noqa: E402
from debian_compositors import PHOC_ENV, Session  # noqa: E402
from fakeiio import LEFT_UP, NORMAL  # noqa: E402

PANEL = "HEADLESS-2"
REFRESH_MS = 1000 / 60


def phoc_1920x1200(app, where):
    """phoc with the panel at 1920x1200 (a custom mode on the headless output)."""
    ini = os.path.join(where, "phoc.ini")
    with open(ini, "w") as f:
        f.write("[core]\nxwayland=false\n[output:%s]\nmode = 1920x1200\n" % PANEL)
    os.chmod(ini, 0o644)
    return ["phoc", "-C", ini, "-E", app]


def run(kind, turns, client):
    transition = '[transition]\nkind = "%s"\n' % kind
    s = Session(phoc_1920x1200, transition, client, run=False, outputs='["%s"]' % PANEL,
                extra_env=dict(PHOC_ENV, WLR_HEADLESS_OUTPUTS="2"))
    applied, cover, cpu, missed, size = [], [], [], 0, None
    try:
        s.app_configure(timeout=30)
        s.start_daemon("--debug")
        s.follow()
        s.wait_shown("normal")
        for i in range(turns):
            pose, name = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
            laid = sum(1 for l in s.daemon_log.seen if "shield covered after" in l)
            written = time.monotonic()
            s.fake.set(s.dev, *pose)
            s.daemon_log.wait(r"%s: %s \(transform " % (PANEL, name), timeout=15)
            applied.append((s.daemon_log.stamps[-1] - written) * 1000)
            if kind != "none":
                covered = [l for l in s.daemon_log.seen if "shield covered after" in l]
                assert len(covered) == laid + 1, "no shield was laid for this %s" % kind
                cover.append(int(re.search(r"covered after (\d+) us", covered[-1]).group(1)) / 1000)
            frames = []
            if kind != "none":
                while True:
                    line = s.daemon_log.next(lambda l: "shield frame at" in l or "the shield is gone" in l,
                                             15, "the transition's frames")
                    if "the shield is gone" in line:
                        break
                    m = re.search(r"shield frame at (\d+) us, cpu (\d+) us, (\d+)x(\d+)", line)
                    frames.append(int(m.group(1)) / 1000)
                    cpu.append(int(m.group(2)) / 1000)
                    size = (int(m.group(3)), int(m.group(4)))
            for a, b in zip(frames, frames[1:]):
                if b - a > 1.5 * REFRESH_MS:
                    missed += round((b - a) / REFRESH_MS) - 1
            # The next turn 1.5 s after this one's step, whatever the kind: the detector then
            # starts every turn from the same rest.
            time.sleep(max(0.0, written + 1.5 - time.monotonic()))
    finally:
        s.stop()
    return applied, cover, cpu, missed, size


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    client = build_client("/tmp")
    for kind in ("none", "rotate", "crossfade"):
        applied, cover, cpu, missed, size = run(kind, args.turns, client)
        print("daemon_shield_%s_applied_ms_median %.2f" % (kind, percentile(applied, 50)))
        print("daemon_shield_%s_applied_ms_p95 %.2f" % (kind, percentile(applied, 95)))
        if kind != "none":
            print("daemon_shield_%s_cover_ms_median %.2f" % (kind, percentile(cover, 50)))
            print("daemon_shield_%s_cover_ms_p95 %.2f" % (kind, percentile(cover, 95)))
            print("daemon_shield_%s_frame_cpu_ms_median %.2f" % (kind, percentile(cpu, 50)))
            print("daemon_shield_%s_frame_cpu_ms_p99 %.2f" % (kind, percentile(cpu, 99)))
            print("daemon_shield_%s_frames %d" % (kind, len(cpu)))
            print("daemon_shield_%s_frames_missed %d" % (kind, missed))
            print("daemon_shield_%s_panel %dx%d" % (kind, *(size or (0, 0))))


if __name__ == "__main__":
    main()

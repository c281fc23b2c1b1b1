#!/usr/bin/python3
"""The daemon's transitions from outside the compositor beside the cut, on one compositor (Debian's
phoc 0.24: layer-shell, screencopy and wp_viewporter, no plugin; headless with pixman) and one fake
accelerometer, at each panel size (1920x1200 and 2560x1600); then, at 1920x1200, with the daemon
limited to a quarter of one core (a cgroup CPU quota: a phone-class share of a core). Prints named
numbers.

    /usr/bin/python3 benchmarks/daemon_shield.py [--turns N] [--sizes 1920x1200,2560x1600]

For `kind = "none"` (the cut) and `"rotate"` and `"crossfade"` (the shield) in turn, the device
turns N times between normal and left-up; for each turn:
  applied_ms   from the write of the step's values to the daemon's event saying the compositor
               applied the transform (`turned`, stamped as it arrives; the same for every kind).
               With a shield, the capture and the overlay's first commit come first.
  cover_ms     what the shield adds before the apply: from the daemon's decision to lay it to
               the commit that shows the picture under the old transform, when the apply goes (its
               `shield-covered` event; the detector's own latency, the same for every kind, is not in it);
  frame_cpu_ms the daemon's CPU time drawing each transition frame (its `shield-frame` events): median, p95
               and p99;
  answer_ms    from the frame event (the compositor asking for the next frame) to the commit of
               the frame that answers it: median, p95 and max;
  missed       frames the transition skipped: a gap between two of its frames longer than 1.5
               refresh periods (60 Hz) counts each period beyond the first; then apart, whose they
               were: the daemon's (an answer later than one refresh period: the compositor's next
               frame went without it; each whole period is one) and the compositor's (its frame
               events further apart than 1.5 periods: headless pixman scaling the small canvas up
               and blending it over the whole panel takes it 20-26 ms a frame at 1920x1200 here,
               a GPU's work on a tablet).
"""
import argparse
import contextlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from stats import percentile  # noqa: E402
from harness.compositor import build_client  # noqa: E402
from harness.debian_compositors import PHOC_ENV, Session  # noqa: E402
from harness.fakeiio import LEFT_UP, NORMAL  # noqa: E402

PANEL = "HEADLESS-2"
REFRESH_MS = 1000 / 60


def phoc_with_panel(mode):
    """phoc with the panel at `mode` (a custom mode on the headless output)."""
    def command(app, where):
        ini = os.path.join(where, "phoc.ini")
        with open(ini, "w") as f:
            f.write("[core]\nxwayland=false\n[output:%s]\nmode = %s\n" % (PANEL, mode))
        os.chmod(ini, 0o644)
        return ["phoc", "-C", ini, "-E", app]
    return command


@contextlib.contextmanager
def quarter_of_a_core(pid):
    """The process `pid` in a cgroup of its own whose CPU quota is 25 ms in every 100 ms (cgroup v1's
    cpu controller, or v2's cpu.max); the cgroup goes once the process has."""
    v1 = "/sys/fs/cgroup/cpu"
    group = os.path.join(v1 if os.path.isdir(v1) else "/sys/fs/cgroup", "wlr-orient-bench-%d" % os.getpid())
    os.mkdir(group)
    try:
        if os.path.exists(os.path.join(group, "cpu.max")):
            limits = {"cpu.max": "25000 100000"}
        else:
            limits = {"cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": "25000"}
        for name, value in limits.items():
            with open(os.path.join(group, name), "w") as f:
                f.write(value)
        with open(os.path.join(group, "cgroup.procs"), "w") as f:
            f.write(str(pid))
        yield
    finally:
        # Its processes, if any are left, back to the root before the group goes.
        with open(os.path.join(group, "cgroup.procs")) as f:
            left = f.read().split()
        for p in left:
            with contextlib.suppress(OSError), open(os.path.join(os.path.dirname(group), "cgroup.procs"), "w") as f:
                f.write(p)
        os.rmdir(group)


def run(kind, turns, client, mode="1920x1200", quarter_core=False):
    transition = '[transition]\nkind = "%s"\n' % kind
    s = Session(phoc_with_panel(mode), transition, client, run=False, outputs='["%s"]' % PANEL,
                extra_env=dict(PHOC_ENV, WLR_HEADLESS_OUTPUTS="2"))
    applied, cover, cpu, size, canvas = [], [], [], None, 0
    missed = dict(all=0, daemon=0, compositor=0, answers=[])
    limit = contextlib.ExitStack()
    try:
        s.app_configure(timeout=30)
        s.start_daemon()
        if quarter_core:
            limit.enter_context(quarter_of_a_core(s.daemon.pid))
        s.follow()
        s.wait_shown("normal")
        for i in range(turns):
            pose, name = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
            start = len(s.events.arrived())
            written = time.monotonic()
            s.fake.set(s.dev, *pose)
            s.events.wait_turned(name, panel=PANEL, timeout=15)
            applied.append((s.events.lines.stamps[-1] - written) * 1000)
            if kind != "none":
                covered = [e for e in s.events.arrived()[start:] if e["event"] == "shield-covered"]
                assert len(covered) == 1, "no shield was laid for this %s" % kind
                cover.append(covered[-1]["after_us"] / 1000)
            frames = []
            if kind != "none":
                # Every frame the shield drew for this turn, up to its going.
                s.events.wait("shield-gone", panel=PANEL, timeout=15)
                for e in s.events.arrived()[start:]:
                    if e["event"] != "shield-frame":
                        continue
                    frames.append((e["at"] / 1000, e["asked_at"] / 1000 if e["asked_at"] is not None else None))
                    cpu.append(e["cpu_us"] / 1000)
                    size = (e["width"], e["height"])
                    canvas += e["divisor"] > 1
            for (a, _), (b, _) in zip(frames, frames[1:]):
                if b - a > 1.5 * REFRESH_MS:
                    missed["all"] += round((b - a) / REFRESH_MS) - 1
            for at, asked in frames:
                if asked is not None:
                    missed["answers"].append(at - asked)
                    missed["daemon"] += int((at - asked) // REFRESH_MS)
            asks = [asked for _, asked in frames if asked is not None]
            for a, b in zip(asks, asks[1:]):
                if b - a > 1.5 * REFRESH_MS:
                    missed["compositor"] += round((b - a) / REFRESH_MS) - 1
            # The next turn 1.5 s after this one's step, whatever the kind: the detector then
            # starts every turn from the same rest.
            time.sleep(max(0.0, written + 1.5 - time.monotonic()))
    finally:
        s.stop()
        limit.close()
    return applied, cover, cpu, missed, size, canvas


def print_missed(name, missed):
    answers = missed["answers"] or [0]
    print("%s_answer_ms_median %.2f" % (name, percentile(answers, 50)))
    print("%s_answer_ms_p95 %.2f" % (name, percentile(answers, 95)))
    print("%s_answer_ms_max %.2f" % (name, max(answers)))
    print("%s_frames_missed %d" % (name, missed["all"]))
    print("%s_frames_missed_by_daemon %d" % (name, missed["daemon"]))
    print("%s_frames_missed_by_compositor %d" % (name, missed["compositor"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--sizes", default="1920x1200,2560x1600")
    args = parser.parse_args()
    client = build_client("/tmp")
    for mode in args.sizes.split(","):
        for kind in ("none", "rotate", "crossfade"):
            applied, cover, cpu, missed, size, canvas = run(kind, args.turns, client, mode)
            name = "daemon_shield_%s_%s" % (kind, mode)
            print("%s_applied_ms_median %.2f" % (name, percentile(applied, 50)))
            print("%s_applied_ms_p95 %.2f" % (name, percentile(applied, 95)))
            if kind != "none":
                print("%s_cover_ms_median %.2f" % (name, percentile(cover, 50)))
                print("%s_cover_ms_p95 %.2f" % (name, percentile(cover, 95)))
                print("%s_frame_cpu_ms_median %.2f" % (name, percentile(cpu, 50)))
                print("%s_frame_cpu_ms_p95 %.2f" % (name, percentile(cpu, 95)))
                print("%s_frame_cpu_ms_p99 %.2f" % (name, percentile(cpu, 99)))
                print("%s_frames %d" % (name, len(cpu)))
                print("%s_frames_on_canvas %d" % (name, canvas))
                print_missed(name, missed)
                print("%s_panel %dx%d" % (name, *(size or (0, 0))))
            sys.stdout.flush()
    # A phone-class share of a core: the daemon alone is limited (the compositor is not).
    for kind in ("rotate", "crossfade"):
        _, _, cpu, missed, _, _ = run(kind, args.turns, client, "1920x1200", quarter_core=True)
        name = "daemon_shield_quarter_core_%s_1920x1200" % kind
        print("%s_frames %d" % (name, len(cpu)))
        print_missed(name, missed)
        print("%s_frame_cpu_ms_median %.2f" % (name, percentile(cpu, 50)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

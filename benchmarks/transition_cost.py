#!/usr/bin/python3
"""What a transition costs each frame on pixman.

    /usr/bin/python3 benchmarks/transition_cost.py [--turns N] [--plugin PATH]

For each panel size (1920x1200, 2560x1600) and each kind (rotate, crossfade), runs the reference
host (headless, pixman, release plugin) with the test card client, turns the fake accelerometer
N times between normal and left-up, and reads the time the host spent in wlr_orient_render_output
for every frame committed during a transition (its "record start times"; the transitions' spans
from the plugin's events), in wall time (what a frame waits) and in the host thread's CPU time (the
work alone, without the time the thread was preempted on a loaded machine), and of that CPU time
the renderer's share (its calls, timed by benchmarks/renderer_time.c preloaded into the host: a
GPU renderer does that part) and the plugin's own (the rest: deciding, turning the small copy on
the CPU). Beside it, from the
same host run, the time memcpy takes to copy three frames' worth of bytes; and the time taken
once per transition to take the old frame (outside the frames, when the device turns). Prints named numbers (name=value).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from harness.compositor import Client, Compositor, build_client  # noqa: E402
from harness.fakeiio import LEFT_UP, NORMAL, ROOT, FakeIIO  # noqa: E402
from harness.events import wait_transition  # noqa: E402
from stats import percentile  # noqa: E402



def renderer_timer(scratch):
    """benchmarks/renderer_time.c, built."""
    out = os.path.join(scratch, "renderer_time.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", out, os.path.join(HERE, "renderer_time.c"), "-ldl"], check=True)
    os.chmod(scratch, 0o755)
    return out


def measure(client, plugin, size, kind, turns, scratch, curve=None):
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    preload = "%s %s" % (renderer_timer(scratch), fake.env()["LD_PRELOAD"])
    host = Compositor(fake, size=size, plugin=plugin, config='[transition]\nkind = "%s"\n' % kind
                      + ('curve = "%s"\n' % curve if curve else ""), extra_env={"LD_PRELOAD": preload})
    card = None
    try:
        host.wait_frame(0)
        card = Client(client, host.client_env, app_id="card", card=True)
        card.out.wait(r"configure")
        host.out.wait(r"^focused card$")
        memcpy = host.command("memcpy-bench 200", r"^memcpy-3-frames-ms (\S+) (\S+)")
        host.command("record start times", r"^recording$")
        spans, set_ups, copies = [], [], []
        for i in range(turns):
            fake.set(dev, *(LEFT_UP if i % 2 == 0 else NORMAL))
            t = wait_transition(host.events)
            spans.append((t.began, t.ended))
            set_ups.append(t.set_up_ms)
            if t.turning_copy_ms is not None:
                copies.append(t.turning_copy_ms)
        out = os.path.join(scratch, "%s-%s" % (kind, size))
        host.command("record stop " + out, r"^recorded ")
        wall, cpu, renderer, presented = [], [], [], []
        with open(os.path.join(out, "frames.tsv")) as f:
            columns = next(f).rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(columns, line.rstrip("\n").split("\t")))
                t = float(row["presented"])
                # The frames that drew the old frame: after the turn, up to the one that ended it.
                if any(begin <= t + 0.0005 and t < end - 0.0005 for begin, end in spans):
                    wall.append(float(row["orient_ms"]))
                    cpu.append(float(row["orient_cpu_ms"]))
                    renderer.append(float(row["renderer_cpu_ms"]))
                    presented.append(t)
        # Time between frames presented within one transition: a frame each refresh is ~16.7 ms.
        gaps = [(b - a) * 1000 for a, b in zip(presented, presented[1:])
                if not any(a < end - 0.0005 <= b for _, end in spans)]
        return wall, cpu, renderer, float(memcpy.group(1)), set_ups, copies, gaps
    finally:
        if card:
            card.stop()
        host.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "release", "libwlr-orient.so"))
    a = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="wlr-orient-transition-cost-")
    try:
        client = build_client(scratch)
        for size in ("1920x1200", "2560x1600"):
            for kind in ("rotate", "crossfade"):
                wall, cpu, renderer, memcpy, set_ups, copies, gaps = measure(client, a.plugin, size, kind, a.turns, scratch)
                own = [c - r for c, r in zip(cpu, renderer)]
                name = "transition_%s_%s" % (kind, size)
                print("%s_frames=%d" % (name, len(wall)))
                print("%s_median_ms=%.3f" % (name, statistics.median(wall)))
                print("%s_p99_ms=%.3f" % (name, percentile(wall, 99)))
                print("%s_cpu_median_ms=%.3f" % (name, statistics.median(cpu)))
                print("%s_cpu_p99_ms=%.3f" % (name, percentile(cpu, 99)))
                # Of that CPU time: the plugin's own, and the renderer's (which a GPU takes over).
                print("%s_own_cpu_median_ms=%.3f" % (name, statistics.median(own)))
                print("%s_own_cpu_p95_ms=%.3f" % (name, percentile(own, 95)))
                print("%s_renderer_cpu_median_ms=%.3f" % (name, statistics.median(renderer)))
                print("%s_renderer_cpu_p95_ms=%.3f" % (name, percentile(renderer, 95)))
                print("%s_frame_gap_median_ms=%.3f" % (name, statistics.median(gaps)))
                print("%s_frame_gap_p99_ms=%.3f" % (name, percentile(gaps, 99)))
                print("%s_memcpy_3_frames_ms=%.3f" % (name, memcpy))
                print("%s_p99_over_memcpy=%.2f" % (name, percentile(wall, 99) / memcpy))
                # Taking the old frame, once per transition, in the sensor's event (not in a frame).
                print("%s_set_up_median_ms=%.3f" % (name, statistics.median(set_ups)))
                print("%s_set_up_max_ms=%.3f" % (name, max(set_ups)))
                if copies:
                    # A rotation's smaller copy of the old frame, on an idle after its first frame.
                    print("%s_turning_copy_median_ms=%.3f" % (name, statistics.median(copies)))
                    print("%s_turning_copy_max_ms=%.3f" % (name, max(copies)))
                sys.stdout.flush()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

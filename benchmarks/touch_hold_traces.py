#!/usr/bin/python3
"""The touch hold scored on the public traces: each trace replayed by `wlr-orient detect` alone,
and with the touches of a person using the screen meanwhile (`--touches`, the side file of
docs/man/wlr-orient.1.scd's detect): how many of the screen's turns a touch held back, how much
later they came, and how many it dropped (the device was turned back before the hold ended).
Two people: one scrolling (a 0.3 s touch every 1.5 s, from 0.7 s on), one resting a finger on
the panel through the second quarter of each trace. Prints named numbers:

    touch_hold_turns                                    the screen's turns without touches
    touch_hold_{scrolling,resting}_held                 turns that came later for a touch
    touch_hold_{scrolling,resting}_dropped              turns that never came (undone under the finger)
    touch_hold_{scrolling,resting}_delay_ms_{p50,max}   how much later a held turn came

    /usr/bin/python3 benchmarks/touch_hold_traces.py [--traces DIR]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from stats import percentile  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("WLR_ORIENT_BIN", os.path.join(ROOT, ".build", "debug", "wlr-orient"))


def detect(trace, touches=None):
    args = [BIN, "detect", trace] + (["--touches", touches] if touches else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def duration(trace):
    times = [float(line.split(",")[0]) for line in open(trace) if line[:1].isdigit()]
    return times[-1] - times[0], times[0]


def scrolling(length, start):
    t, spans = start + 0.7, []
    while t + 0.3 < start + length:
        spans.append((t, t + 0.3))
        t += 1.5
    return spans


def resting(length, start):
    return [(start + length * 0.25, start + length * 0.5)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--traces", default=os.path.join(ROOT, "Tests", "Fixtures", "traces", "public"))
    a = ap.parse_args()
    traces = sorted(glob.glob(os.path.join(a.traces, "*.csv")))
    scratch = tempfile.mkdtemp()
    plain = {t: detect(t) for t in traces}
    print("touch_hold_traces %d" % len(traces))
    print("touch_hold_turns %d" % sum(len(v) for v in plain.values()))
    for name, pattern in (("scrolling", scrolling), ("resting", resting)):
        held, dropped, delays = 0, 0, []
        for trace in traces:
            length, start = duration(trace)
            path = os.path.join(scratch, os.path.basename(trace) + "." + name)
            with open(path, "w") as f:
                f.write("# wlr-orient-touches v1\nstart,end\n")
                f.writelines("%.3f,%.3f\n" % span for span in pattern(length, start))
            turns = detect(trace, path)
            held += sum(1 for t in turns if "held_ms" in t)
            delays += [t["held_ms"] for t in turns if "held_ms" in t]
            dropped += max(0, len(plain[trace]) - len(turns))
        print("touch_hold_%s_held %d" % (name, held))
        print("touch_hold_%s_dropped %d" % (name, dropped))
        print("touch_hold_%s_delay_ms_p50 %.0f" % (name, percentile(delays, 50) if delays else 0))
        print("touch_hold_%s_delay_ms_max %.0f" % (name, max(delays) if delays else 0))


if __name__ == "__main__":
    main()

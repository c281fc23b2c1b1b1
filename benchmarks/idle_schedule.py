#!/usr/bin/python3
"""How a polled device's idle schedule trades latency for wakeups (issue #26, point 2): the data
the sampling plan's defaults (`SamplingPlan`: idle-hz for a while after the device was last
busy, then still-hz) were chosen from.

    /usr/bin/python3 benchmarks/idle_schedule.py [--traces DIR]...

For each plan, `wlr-orient detect --sampling live` replays the labelled traces as a polled
sensor following that plan would have read them (tools/score.py scores it), and counts the
readings: readings per second over the corpus (people using the device), and the rate of a
device left alone (the plan's last stage: what an idle tablet on a desk costs, before the
measured overhead of a wakeup). The live comparison beside iio-sensor-proxy, for the chosen
default, is benchmarks/daemon_vs_polling.py. Prints named numbers per plan.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.environ.get("WLR_ORIENT_BIN", os.path.join(ROOT, ".build", "release", "wlr-orient"))

# name: (idle-hz, still-hz, still-after s). "flat_*" read at one rate whenever quiet. Nothing
# slower than 1 Hz: the detector restarts after a 1.5 s gap (Detector.maxGap).
PLANS = {
    "flat_3hz": (3, 3, 0),            # the schedule before issue #26
    "flat_2hz": (2, 2, 0),
    "flat_1_4hz": (1.4, 1.4, 0),      # iio-sensor-proxy's 700 ms polling, as a flat plan
    "flat_1hz": (1, 1, 0),
    "3hz_then_1hz_after_10s": (3, 1, 10),
    "3hz_then_1hz_after_30s": (3, 1, 30),
    "3hz_then_1hz_after_60s": (3, 1, 60),
    "2hz_then_1hz_after_30s": (2, 1, 30),
}


def plan_args(idle, still, after):
    return ["--idle-hz", str(idle), "--still-hz", str(still), "--still-after", str(after)]


def score(traces, args):
    detector = " ".join([BIN, "detect", "--sampling", "live"] + args)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "score.py"), "--detector", detector,
                        "--traces", traces, "--summary-only"], capture_output=True, text=True, check=True)
    line = r.stdout.strip().splitlines()[-1]
    return dict(kv.split("=", 1) for kv in line.split() if "=" in kv)


def readings_per_second(traces, args):
    readings = seconds = 0.0
    for trace in sorted(glob.glob(os.path.join(traces, "*.csv"))):
        r = subprocess.run([BIN, "detect", "--sampling", "live", "--count-readings"] + args + [trace],
                           capture_output=True, text=True, check=True)
        for line in r.stderr.splitlines():
            if line.startswith("{\"readings\""):
                counted = json.loads(line)
                readings += counted["readings"]
                seconds += counted["seconds"]
    return readings / seconds if seconds else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--traces", action="append")
    a = ap.parse_args()
    corpora = a.traces or [os.path.join(ROOT, "Tests", "Fixtures", "traces", "public")]
    for name, (idle, still, after) in PLANS.items():
        args = plan_args(idle, still, after)
        for traces in corpora:
            corpus = os.path.basename(os.path.normpath(traces))
            s = score(traces, args)
            prefix = "idle_schedule_%s_%s" % (name, corpus)
            print("%s_median_latency_ms=%s" % (prefix, s["median_latency_ms"]))
            print("%s_p95_latency_ms=%s" % (prefix, s["p95_latency_ms"]))
            print("%s_max_latency_ms=%s" % (prefix, s["max_latency_ms"]))
            print("%s_spurious=%s" % (prefix, s["spurious"]))
            print("%s_accuracy_pct=%s" % (prefix, s["accuracy"].rstrip("%")))
            print("%s_readings_per_s=%.2f" % (prefix, readings_per_second(traces, args)))
        print("idle_schedule_%s_left_alone_readings_per_s=%.2f" % (name, still))


if __name__ == "__main__":
    main()

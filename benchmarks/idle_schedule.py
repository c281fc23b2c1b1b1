#!/usr/bin/python3
"""How a polled device's sampling plan trades latency for wakeups: the data
the plan's defaults (`SamplingPlan`: held-hz while the device is held, alone-hz once nothing
moved it for alone-after-s, a hand being a reading further than alone-tolerance from the one
before) were chosen from.

    /usr/bin/python3 benchmarks/idle_schedule.py [--traces DIR]...

For each plan (a config's [detection] section), `wlr-orient detect --sampling live` replays the
labelled traces as a polled sensor following that plan would have read them (tools/score.py
scores it), and counts the readings: readings per second over the corpus (people using the
device), and over a minute in which the device, just turned, is then left still on a desk (a
generated trace: a quarter turn, then 60 s with a resting sensor's noise). That minute is what
benchmarks/daemon_vs_polling.py measures live beside iio-sensor-proxy as idle wakeups (its
still minute), where each reading is one wakeup. Prints named numbers per plan.
"""
import argparse
import glob
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.environ.get("WLR_ORIENT_BIN", os.path.join(ROOT, ".build", "release", "wlr-orient"))

# name: (held-hz, alone-hz, alone-after-s, alone-tolerance m/s²). A tolerance of 10 m/s² sees no
# hand in any reading: such a plan slows down once the detector has been quiet for alone-after-s,
# as the plan before this benchmark's second version did. Nothing slower than 1 Hz: the detector
# restarts after a 1.5 s gap (Detector.maxGap).
PLANS = {
    "flat_3hz": (3, 3, 0, 10),                       # the schedule before the quiet-device work
    "flat_2hz": (2, 2, 0, 10),
    "flat_1_4hz": (1.4, 1.4, 0, 10),                 # iio-sensor-proxy's 700 ms polling, as a plan
    "flat_1hz": (1, 1, 0, 10),
    "3hz_1hz_after_60s_quiet": (3, 1, 60, 10),       # the default before the hand stage
    "3hz_1hz_after_10s_quiet": (3, 1, 10, 10),
    "3hz_1hz_after_2s_alone": (3, 1, 2, 0.2),
    "3hz_1hz_after_3s_alone": (3, 1, 3, 0.2),
    "3hz_1hz_after_5s_alone": (3, 1, 5, 0.2),        # the default
    "3hz_1hz_after_10s_alone": (3, 1, 10, 0.2),
    "3hz_1hz_after_5s_alone_0_1": (3, 1, 5, 0.1),
    "3hz_1hz_after_5s_alone_0_4": (3, 1, 5, 0.4),
    "3hz_1hz_after_5s_alone_1_0": (3, 1, 5, 1.0),
    "2hz_1hz_after_5s_alone": (2, 1, 5, 0.2),
}


def plan_config(directory, name, plan):
    held, alone, after, tolerance = plan
    path = os.path.join(directory, name + ".toml")
    with open(path, "w") as f:
        f.write("[detection]\nheld-hz = %s\nalone-hz = %s\nalone-after-s = %s\nalone-tolerance = %s\n"
                % (held, alone, after, tolerance))
    return path


def still_minute_trace(directory):
    """A device turned from normal to left-up in half a second, then left on a desk for 60 s:
    100 Hz, a resting sensor's noise (0.02 m/s² per axis), 1 mg counts."""
    rng = random.Random(7)
    path = os.path.join(directory, "still-minute.csv")
    scale = 0.00981
    with open(path, "w") as f:
        f.write("# wlr-orient-trace v1\n# device: a quarter turn, then a minute on a desk\n# scale: %f\nt,x,y,z\n" % scale)
        for i in range(6150):
            t = i / 100
            turned = min(1.0, max(0.0, (t - 1.0) / 0.5))
            a = turned * math.pi / 2
            x, y, z = 9.81 * math.sin(a) * 0.97, -9.81 * math.cos(a) * 0.97, -9.81 * 0.24
            f.write("%.3f,%d,%d,%d\n" % (t, *(round((v + rng.gauss(0, 0.02)) / scale) for v in (x, y, z))))
    return path


def score(traces, config):
    detector = " ".join([BIN, "detect", "--sampling", "live", "--config", config])
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "score.py"), "--detector", detector,
                        "--traces", traces, "--summary-only"], capture_output=True, text=True, check=True)
    line = r.stdout.strip().splitlines()[-1]
    return dict(kv.split("=", 1) for kv in line.split() if "=" in kv)


def readings_per_second(traces, config):
    readings = seconds = 0.0
    for trace in traces:
        r = subprocess.run([BIN, "detect", "--sampling", "live", "--count-readings", "--config", config, trace],
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
    with tempfile.TemporaryDirectory() as scratch:
        minute = still_minute_trace(scratch)
        for name, plan in PLANS.items():
            config = plan_config(scratch, name, plan)
            for traces in corpora:
                corpus = os.path.basename(os.path.normpath(traces))
                s = score(traces, config)
                prefix = "idle_schedule_%s_%s" % (name, corpus)
                print("%s_median_latency_ms=%s" % (prefix, s["median_latency_ms"]))
                print("%s_p95_latency_ms=%s" % (prefix, s["p95_latency_ms"]))
                print("%s_max_latency_ms=%s" % (prefix, s["max_latency_ms"]))
                print("%s_spurious=%s" % (prefix, s["spurious"]))
                print("%s_accuracy_pct=%s" % (prefix, s["accuracy"].rstrip("%")))
                csvs = sorted(glob.glob(os.path.join(traces, "*.csv")))
                print("%s_readings_per_s=%.2f" % (prefix, readings_per_second(csvs, config)))
            print("idle_schedule_%s_still_minute_readings_per_s=%.2f" % (name, readings_per_second([minute], config)))
            print("idle_schedule_%s_left_alone_readings_per_s=%.2f" % (name, plan[1]))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

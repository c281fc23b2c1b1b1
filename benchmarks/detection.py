#!/usr/bin/env python3
"""The detector beside the peers, on every corpus: false turns, latency, accuracy, misses, and its
CPU per sample. Each peer is our reimplementation from its source (tools/baselines/: Android's
AccelSensorJudge, iio-sensor-proxy's orientation_calc with its 700 ms polling), scored by
tools/score.py on the same traces in the same run. Prints a table per corpus and named numbers:

    detect_<corpus>_<detector>_false_turns     turns the labels do not need (score.py's spurious)
    detect_<corpus>_<detector>_p50_ms, _p95_ms, _max_ms   latency of the settles that turn
    detect_<corpus>_<detector>_accuracy        per cent of settles right 1 s after the motion
    detect_<corpus>_<detector>_misses          settles not reached within 3 s
    detector_ns_per_sample[_p95]               wlr-orient's detector, median (p95) pass, all corpora

<corpus>: public (the shared synthetic set), real_sweeps, real_walk, handheld (a model on real poses;
Tests/Fixtures/traces/REAL-MOTION.md), edge, validation (tools/synth-traces.py --seed 3 --count 20, made afresh); <detector>: wlr_orient,
android, iio_sensor_proxy.

    python3 benchmarks/detection.py [--bin WLR-ORIENT] [--bench ORIENT-BENCH] [--json FILE]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TRACES = os.path.join(ROOT, "Tests", "Fixtures", "traces")
CORPORA = [("public", os.path.join(TRACES, "public")),
           ("real_sweeps", os.path.join(TRACES, "real-sweeps")),
           ("real_walk", os.path.join(TRACES, "real-walk")),
           ("handheld", os.path.join(TRACES, "handheld")),
           ("edge", os.path.join(TRACES, "edge"))]


def detectors(binary):
    py = sys.executable
    return [("wlr_orient", "%s detect" % binary),
            ("android", "%s %s" % (py, os.path.join(ROOT, "tools", "baselines", "android.py"))),
            ("iio_sensor_proxy", "%s %s" % (py, os.path.join(ROOT, "tools", "baselines", "iio_sensor_proxy.py")))]


def score(detector, traces, out):
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "score.py"), "--detector", detector,
                    "--traces", traces, "--json-out", out, "--summary-only"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        r = json.load(f)
    L = r["latency_ms"]
    return {"false_turns": r["spurious"], "p50_ms": L["median"], "p95_ms": L["p95"], "max_ms": L["max"],
            "accuracy": r["accuracy"], "misses": L["misses"], "settles": r["settles"],
            "turns": L["change_settles"], "traces": r["traces"]}


def show(v):
    return "na" if v is None else v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.environ.get("WLR_ORIENT_BIN", os.path.join(ROOT, ".build", "release", "wlr-orient")))
    ap.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "orient-bench"))
    ap.add_argument("--json", help="also write every figure to this file")
    a = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        validation = os.path.join(tmp, "validation")
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "synth-traces.py"), "--out", validation,
                        "--seed", "3", "--count", "20"], check=True, stdout=subprocess.DEVNULL)
        for corpus, path in CORPORA + [("validation", validation)]:
            rows = {}
            for name, cmd in detectors(a.bin):
                rows[name] = score(cmd, path, os.path.join(tmp, "%s-%s.json" % (corpus, name)))
                for key, value in rows[name].items():
                    if key not in ("settles", "turns", "traces"):
                        print("detect_%s_%s_%s=%s" % (corpus, name, key, show(value)))
            results[corpus] = rows
            first = next(iter(rows.values()))
            print("%s: %d traces, %d settles, %d of them turns" % (corpus, first["traces"], first["settles"], first["turns"]))
            print("  %-18s %11s %7s %7s %7s %9s %7s" % ("detector", "false turns", "p50 ms", "p95 ms", "max ms",
                                                      "accuracy", "misses"))
            for name, r in rows.items():
                print("  %-18s %11s %7s %7s %7s %8s%% %7s" % (name, r["false_turns"], show(r["p50_ms"]), show(r["p95_ms"]),
                                                            show(r["max_ms"]), show(r["accuracy"]), r["misses"]))
    if os.path.exists(a.bench):
        dirs = [path for _, path in CORPORA]
        out = subprocess.run([a.bench] + dirs, check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("detector_ns_per_sample"):
                print(line)
                key, value = line.split("=")
                results[key] = float(value)
    else:
        print("detection.py: %s not built; no CPU figure" % a.bench, file=sys.stderr)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()

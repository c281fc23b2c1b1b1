#!/usr/bin/env python3
"""Baseline: Android's accelerometer rotation judge (AccelSensorJudge).

    python3 android.py TRACE.csv
        -> JSON lines {"t": <s>, "orientation": "..."}, one per change

Follows AOSP frameworks/base WindowOrientationListener.AccelSensorJudge,
onSensorChanged() and the helpers it calls, as read in the GitHub mirror
aosp-mirror/platform_frameworks_base:
services/core/java/com/android/server/policy/WindowOrientationListener.java
at 0172a23b1af4735bcca3580bc53e37f57a639c7a; the judge is unchanged in the
later services/core/java/com/android/server/wm/WindowOrientationListener.java
(04d7cddfde6390e6132235fc33c0eb3c07ca3593).  Tilt tolerances are the
core/res/res/values/config.xml defaults of config_autoRotationTiltTolerance
(0017dde79b9796706ff7b5de93410bca50e69778), equal to the in-code defaults.

Every trace sample is one SensorEvent (timestamp = t in ns).  Android's
accelerometer gives the "up" vector (+9.81 on the axis pointing to the sky;
linear acceleration enters with a + sign); the trace gives the gravity
direction (linear acceleration with a - sign), so the event values are
-(scale * M . raw).  Java float (32-bit) arithmetic is reproduced where the
source uses float (filter state, alpha, magnitude, constants); angles are
computed in double and rounded with Math.round (floor(v + 0.5)); asin of a
ratio > 1 gives NaN and Math.round(NaN) = 0, as in Java.

What the judge does per event (constants from the source):
  * reset (filter, flat/swing/acceleration times, overhead, prediction, tilt
    history, and the proposal -> -1) when the event is older than the last,
    more than MAX_FILTER_DELTA_TIME 1000 ms after it, or exactly (0, 0, 0);
    the event that resets only seeds the filter;
  * low pass: alpha = dt_ms / (200 + dt_ms) (FILTER_TIME_CONSTANT_MS 200);
  * |v| < NEAR_ZERO_MAGNITUDE 1 m/s^2: no prediction;
  * accelerating (timestamp noted) when |v| is outside 9.80665 +- 4;
  * tilt = round(asin(z / |v|)) in degrees, kept in a 200-slot ring
    (TILT_HISTORY_SIZE); flat when every tilt >= FLAT_ANGLE 80 back to one
    at least FLAT_TIME 1000 ms old; swinging when some tilt within
    SWING_TIME 300 ms is at least SWING_AWAY_ANGLE_DELTA 20 below the
    current one;
  * overhead latch: entered at tilt <= -40, left at tilt >= -15; no
    prediction while overhead or |tilt| > MAX_TILT 80;
  * orientation angle = round(-atan2(-x, y)) in [0, 360); nearest rotation
    (angle + 45) / 90 (4 -> 0); predicted only if the tilt lies inside that
    rotation's tolerance (0: [-25, 70], 90: [-25, 65], 180: [-25, 60],
    270: [-25, 65]) and the angle is outside the dead zone of
    ADJACENT_ORIENTATION_ANGLE_GAP / 2 = 22 degrees past each 45-degree
    boundary of the current rotation (isOrientationAngleAcceptableLocked);
  * the prediction becomes the proposal once it is PROPOSAL_SETTLE_TIME
    40 ms old and the last flat / swing / acceleration sample is at least
    500 / 300 / 500 ms old; a cleared prediction clears the proposal at once.

Glue that is not in the judge: the proposal is applied at once (on a
tablet with config_allowAllRotations, all four rotations) and becomes the
listener's mCurrentRotation; that starts at -1 (the field's initial value:
no dead zone until the first rotation is shown).  A line is printed when
the shown rotation changes.  Rotation names: ROTATION_0 normal, 90 (right
edge up) right-up, 180 bottom-up, 270 left-up.

Left out: touch gating (PROPOSAL_MIN_TIME_SINCE_TOUCH_END 500 ms; no
touches in traces), the sensor rate (SENSOR_DELAY_UI asks ~15 Hz; every
trace sample is fed), the 100 ms batching latency, WindowManager's rotation
policy (app orientation requests, allowAllRotations = false on phones, the
camera rotation resolver of newer releases) and the animation time.
Standard library only.
"""
import importlib.util
import math
import os
import struct
import sys

sys.dont_write_bytecode = True


def _load_trace_module():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trace.py")
    spec = importlib.util.spec_from_file_location("wlr_orient_baseline_trace", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


trace = _load_trace_module()

_F = struct.Struct("<f")


def f32(v):
    """Round a Python float to Java float (IEEE binary32, round to nearest)."""
    try:
        return _F.unpack(_F.pack(v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


LONG_MIN = -(2 ** 63)
NANOS_PER_MS = 1000000


def java_round(v):
    """Math.round(double) -> long."""
    if math.isnan(v):
        return 0
    return math.floor(v + 0.5)


# --- constants of AccelSensorJudge -----------------------------------------
RADIANS_TO_DEGREES = f32(180 / math.pi)
PROPOSAL_SETTLE_TIME_NANOS = 40 * NANOS_PER_MS
PROPOSAL_MIN_TIME_SINCE_FLAT_ENDED_NANOS = 500 * NANOS_PER_MS
PROPOSAL_MIN_TIME_SINCE_SWING_ENDED_NANOS = 300 * NANOS_PER_MS
PROPOSAL_MIN_TIME_SINCE_ACCELERATION_ENDED_NANOS = 500 * NANOS_PER_MS
PROPOSAL_MIN_TIME_SINCE_TOUCH_END_NANOS = 500 * NANOS_PER_MS
FLAT_ANGLE = f32(80)
FLAT_TIME_NANOS = 1000 * NANOS_PER_MS
SWING_AWAY_ANGLE_DELTA = f32(20)
SWING_TIME_NANOS = 300 * NANOS_PER_MS
MAX_FILTER_DELTA_TIME_NANOS = 1000 * NANOS_PER_MS
FILTER_TIME_CONSTANT_MS = f32(200.0)
STANDARD_GRAVITY = f32(9.80665)  # SensorManager.STANDARD_GRAVITY (float)
NEAR_ZERO_MAGNITUDE = f32(1)
ACCELERATION_TOLERANCE = f32(4)
MIN_ACCELERATION_MAGNITUDE = f32(STANDARD_GRAVITY - ACCELERATION_TOLERANCE)
MAX_ACCELERATION_MAGNITUDE = f32(STANDARD_GRAVITY + ACCELERATION_TOLERANCE)
MAX_TILT = 80
TILT_OVERHEAD_ENTER = -40
TILT_OVERHEAD_EXIT = -15
ADJACENT_ORIENTATION_ANGLE_GAP = 45
TILT_TOLERANCE = ((-25, 70), (-25, 65), (-25, 60), (-25, 65))  # config.xml defaults
TILT_HISTORY_SIZE = 200
MS_PER_NANO = f32(0.000001)

ROTATION_NAMES = ("normal", "right-up", "bottom-up", "left-up")


class AccelSensorJudge:
    def __init__(self):
        # WindowOrientationListener.mCurrentRotation (set by the window manager)
        self.current_rotation = -1
        self.tilt_tolerance = TILT_TOLERANCE
        self.last_filtered_ts = LONG_MIN
        self.last_x = self.last_y = self.last_z = f32(0.0)
        self.proposed_rotation = -1
        self.predicted_rotation = -1
        self.predicted_rotation_ts = LONG_MIN
        self.flat_ts = LONG_MIN
        self.flat = False
        self.swing_ts = LONG_MIN
        self.swinging = False
        self.acceleration_ts = LONG_MIN
        self.accelerating = False
        self.touch_ended_ts = LONG_MIN
        self.touched = False
        self.overhead = False
        self.tilt_history = [f32(0.0)] * TILT_HISTORY_SIZE
        self.tilt_history_ts = [0] * TILT_HISTORY_SIZE
        self.tilt_history_index = 0
        # WindowOrientationListener.enable() -> resetLocked(true)
        self.reset(True)

    # -- resetLocked ---------------------------------------------------------
    def reset(self, clear_current_rotation):
        self.last_filtered_ts = LONG_MIN
        if clear_current_rotation:
            self.proposed_rotation = -1
        self.flat_ts = LONG_MIN
        self.flat = False
        self.swing_ts = LONG_MIN
        self.swinging = False
        self.acceleration_ts = LONG_MIN
        self.accelerating = False
        self.overhead = False
        self.clear_predicted_rotation()
        self.clear_tilt_history()

    # -- onSensorChanged -----------------------------------------------------
    def on_sensor_changed(self, now, x, y, z):
        """now: event.timestamp (ns); x, y, z: event.values (Android frame,
        already float).  Returns the new proposal when the listener would be
        told (onProposedRotationChanged), else None."""
        then = self.last_filtered_ts
        if (now < then or now > then + MAX_FILTER_DELTA_TIME_NANOS
                or (x == 0 and y == 0 and z == 0)):
            self.reset(True)
            skip_sample = True
        else:
            time_delta_ms = f32(f32(float(now - then)) * MS_PER_NANO)
            alpha = f32(time_delta_ms / f32(FILTER_TIME_CONSTANT_MS + time_delta_ms))
            x = f32(f32(alpha * f32(x - self.last_x)) + self.last_x)
            y = f32(f32(alpha * f32(y - self.last_y)) + self.last_y)
            z = f32(f32(alpha * f32(z - self.last_z)) + self.last_z)
            skip_sample = False
        self.last_filtered_ts = now
        self.last_x, self.last_y, self.last_z = x, y, z

        is_accelerating = False
        is_flat = False
        is_swinging = False
        if not skip_sample:
            sq = f32(f32(f32(x * x) + f32(y * y)) + f32(z * z))
            magnitude = f32(math.sqrt(sq))
            if magnitude < NEAR_ZERO_MAGNITUDE:
                self.clear_predicted_rotation()
            else:
                if self.is_accelerating(magnitude):
                    is_accelerating = True
                    self.acceleration_ts = now

                ratio = f32(z / magnitude)
                asin = math.asin(ratio) if -1.0 <= ratio <= 1.0 else math.nan
                tilt_angle = java_round(asin * RADIANS_TO_DEGREES)
                self.add_tilt_history_entry(now, f32(float(tilt_angle)))

                if self.is_flat(now):
                    is_flat = True
                    self.flat_ts = now
                if self.is_swinging(now, f32(float(tilt_angle))):
                    is_swinging = True
                    self.swing_ts = now

                if tilt_angle <= TILT_OVERHEAD_ENTER:
                    self.overhead = True
                elif tilt_angle >= TILT_OVERHEAD_EXIT:
                    self.overhead = False
                if self.overhead:
                    self.clear_predicted_rotation()
                elif abs(tilt_angle) > MAX_TILT:
                    self.clear_predicted_rotation()
                else:
                    orientation_angle = java_round(-math.atan2(-x, y) * RADIANS_TO_DEGREES)
                    if orientation_angle < 0:
                        orientation_angle += 360
                    nearest_rotation = (orientation_angle + 45) // 90
                    if nearest_rotation == 4:
                        nearest_rotation = 0
                    if (self.is_tilt_angle_acceptable(nearest_rotation, tilt_angle)
                            and self.is_orientation_angle_acceptable(nearest_rotation,
                                                                     orientation_angle)):
                        self.update_predicted_rotation(now, nearest_rotation)
                    else:
                        self.clear_predicted_rotation()
        self.flat = is_flat
        self.swinging = is_swinging
        self.accelerating = is_accelerating

        old_proposed_rotation = self.proposed_rotation
        if self.predicted_rotation < 0 or self.is_predicted_rotation_acceptable(now):
            self.proposed_rotation = self.predicted_rotation
        proposed_rotation = self.proposed_rotation

        if proposed_rotation != old_proposed_rotation and proposed_rotation >= 0:
            return proposed_rotation
        return None

    # -- helpers -------------------------------------------------------------
    def is_tilt_angle_acceptable(self, rotation, tilt_angle):
        lo, hi = self.tilt_tolerance[rotation]
        return lo <= tilt_angle <= hi

    def is_orientation_angle_acceptable(self, rotation, orientation_angle):
        current_rotation = self.current_rotation
        if current_rotation >= 0:
            if rotation == current_rotation or rotation == (current_rotation + 1) % 4:
                lower_bound = rotation * 90 - 45 + ADJACENT_ORIENTATION_ANGLE_GAP // 2
                if rotation == 0:
                    if orientation_angle >= 315 and orientation_angle < lower_bound + 360:
                        return False
                else:
                    if orientation_angle < lower_bound:
                        return False
            if rotation == current_rotation or rotation == (current_rotation + 3) % 4:
                upper_bound = rotation * 90 + 45 - ADJACENT_ORIENTATION_ANGLE_GAP // 2
                if rotation == 0:
                    if orientation_angle <= 45 and orientation_angle > upper_bound:
                        return False
                else:
                    if orientation_angle > upper_bound:
                        return False
        return True

    def is_predicted_rotation_acceptable(self, now):
        if now < self.predicted_rotation_ts + PROPOSAL_SETTLE_TIME_NANOS:
            return False
        if now < self.flat_ts + PROPOSAL_MIN_TIME_SINCE_FLAT_ENDED_NANOS:
            return False
        if now < self.swing_ts + PROPOSAL_MIN_TIME_SINCE_SWING_ENDED_NANOS:
            return False
        if now < self.acceleration_ts + PROPOSAL_MIN_TIME_SINCE_ACCELERATION_ENDED_NANOS:
            return False
        if self.touched or now < self.touch_ended_ts + PROPOSAL_MIN_TIME_SINCE_TOUCH_END_NANOS:
            return False
        return True

    def clear_predicted_rotation(self):
        self.predicted_rotation = -1
        self.predicted_rotation_ts = LONG_MIN

    def update_predicted_rotation(self, now, rotation):
        if self.predicted_rotation != rotation:
            self.predicted_rotation = rotation
            self.predicted_rotation_ts = now

    @staticmethod
    def is_accelerating(magnitude):
        return (magnitude < MIN_ACCELERATION_MAGNITUDE
                or magnitude > MAX_ACCELERATION_MAGNITUDE)

    def clear_tilt_history(self):
        self.tilt_history_ts[0] = LONG_MIN
        self.tilt_history_index = 1

    def add_tilt_history_entry(self, now, tilt):
        i = self.tilt_history_index
        self.tilt_history[i] = tilt
        self.tilt_history_ts[i] = now
        self.tilt_history_index = (i + 1) % TILT_HISTORY_SIZE
        self.tilt_history_ts[self.tilt_history_index] = LONG_MIN

    def _next_tilt_history_index(self, index):
        index = (TILT_HISTORY_SIZE if index == 0 else index) - 1
        return index if self.tilt_history_ts[index] != LONG_MIN else -1

    def is_flat(self, now):
        i = self._next_tilt_history_index(self.tilt_history_index)
        while i >= 0:
            if self.tilt_history[i] < FLAT_ANGLE:
                break
            if self.tilt_history_ts[i] + FLAT_TIME_NANOS <= now:
                return True
            i = self._next_tilt_history_index(i)
        return False

    def is_swinging(self, now, tilt):
        i = self._next_tilt_history_index(self.tilt_history_index)
        while i >= 0:
            if self.tilt_history_ts[i] + SWING_TIME_NANOS < now:
                break
            if f32(self.tilt_history[i] + SWING_AWAY_ANGLE_DELTA) <= tilt:
                return True
            i = self._next_tilt_history_index(i)
        return False


def run(tr, out):
    judge = AccelSensorJudge()
    shown = -1
    s = tr.scale
    for t, rx, ry, rz in tr.samples:
        gx, gy, gz = trace.mount(tr.matrix, rx, ry, rz)
        # SensorEvent.values: the up vector, i.e. minus the IIO reading
        x, y, z = f32(-s * gx), f32(-s * gy), f32(-s * gz)
        now = int(round(t * 1e9))
        proposal = judge.on_sensor_changed(now, x, y, z)
        if proposal is not None and proposal != shown:
            shown = proposal
            judge.current_rotation = proposal  # DisplayRotation -> setCurrentRotation
            trace.emit(out, t, ROTATION_NAMES[proposal])


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0].startswith("-"):
        sys.exit("usage: android.py TRACE.csv")
    run(trace.read(argv[0]), sys.stdout)


if __name__ == "__main__":
    main()

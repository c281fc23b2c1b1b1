/// The detector's tunables (`[detection]` in the config). The defaults need no tuning;
/// they are exposed for unusual hardware and for experiments with `wlr-orient detect`. Their
/// keys, bounds and documentation are rows of `ConfigKey.all`.
public struct DetectionConfig: Sendable, Hashable {
    /// The sampling rate asked of the sensor while the device moves, in Hz (slower once it is held: `heldHz`, `aloneHz`, and `SamplingPlan`).
    public var rateHz: Double = 25
    /// A polled sensor's rate once the device is held still, in Hz (`SamplingPlan.heldHz`).
    public var heldHz: Double = 3
    /// A polled sensor's rate once the device has been left alone for `aloneAfterS`, in Hz.
    public var aloneHz: Double = 1
    /// How long a device must be left alone before it is read at `aloneHz`, in seconds.
    public var aloneAfterS: Double = 5
    /// How far (m/s²) a reading may lie from the one before it for the device still to count
    /// as left alone (beyond it, a hand moved it).
    public var aloneTolerance: Double = 0.2
    /// Time constant of the low-pass filter on the gravity vector, in ms.
    public var filterMs: Double = 30
    /// How far past a 45° boundary the device must turn before the orientation changes, in degrees.
    public var hysteresisDeg: Double = 15
    /// Tilt away from upright beyond which the device counts as lying flat, in degrees.
    public var flatTiltDeg: Double = 75
    /// How long a new orientation must be held still before it is taken, in ms.
    public var settleMs: Double = 50
    /// Turning faster than this (degrees per second) counts as moving, not holding.
    public var stillDegPerS: Double = 90
    /// After the device is picked up from flat, wait this long before deciding, in ms.
    public var pickupHoldoffMs: Double = 200
    /// A reading whose magnitude differs by more than this (m/s²) from what the sensor reads at rest
    /// (1 g when its scale is right; learned while the device rests) is acceleration, not gravity.
    public var accelToleranceMs2: Double = 1.5
    /// After external acceleration ends, wait this long before deciding, in ms.
    public var accelHoldoffMs: Double = 150
    /// No change is made while a finger or pen touches the panel, nor this long after it lifts,
    /// in ms (the page must not turn away under a finger).
    public var touchHoldMs: Double = 500
    /// A touch that has not lifted after this long (ms) holds no turn any more: a touchscreen that
    /// lost its "up" event, or a thumb resting on the glass, must not keep the screen wrong.
    public var touchHoldMaxMs: Double = 10_000

    /// `touchHoldMs` and `touchHoldMaxMs` in seconds, as the controller's clock counts.
    var touchHoldSeconds: Double { touchHoldMs / 1000 }
    var touchHoldMaxSeconds: Double { touchHoldMaxMs / 1000 }

    public init() {}

    /// Whether `other` reads and perceives alike: only what the controller applies afterwards (the
    /// touch hold) may differ, which needs no new sensor or detector.
    public func readsAlike(_ other: DetectionConfig) -> Bool {
        var same = other
        same.touchHoldMs = touchHoldMs
        same.touchHoldMaxMs = touchHoldMaxMs
        return same == self
    }
}

/// The detector's tunables (`[detection]` in the config). The defaults need no tuning;
/// they are exposed for unusual hardware and for experiments with `wlr-orient detect`.
public struct DetectionConfig: Sendable, Hashable {
    /// The sampling rate asked of the sensor while the device moves, in Hz (3 Hz once it is still, 1 Hz once left alone for a minute: see `SamplingPlan`).
    public var rateHz: Double = 25
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
    /// A reading whose magnitude differs from 1 g by more than this (m/s²) is acceleration, not gravity.
    public var accelToleranceMs2: Double = 3.0
    /// After external acceleration ends, wait this long before deciding, in ms.
    public var accelHoldoffMs: Double = 150

    public init() {}

    /// Key, description, range and storage of each tunable: the loader and the example
    /// config are both driven by this one table.
    public static let tunables: [Tunable] = [
        Tunable("rate-hz", \.rateHz, 1...1000, "sampling rate asked of the sensor (Hz)"),
        Tunable("filter-ms", \.filterMs, 0...1000, "low-pass time constant (ms)"),
        Tunable("hysteresis-deg", \.hysteresisDeg, 0...40, "degrees past the 45° boundary before a change"),
        Tunable("flat-tilt-deg", \.flatTiltDeg, 30...89, "tilt beyond which the device lies flat (degrees)"),
        Tunable("settle-ms", \.settleMs, 0...5000, "how long a new orientation must be held (ms)"),
        Tunable("still-deg-per-s", \.stillDegPerS, 1...1000, "turn rate below which the device is held still"),
        Tunable("pickup-holdoff-ms", \.pickupHoldoffMs, 0...5000, "wait after picking up from flat (ms)"),
        Tunable("accel-tolerance", \.accelToleranceMs2, 0.1...20, "deviation from 1 g that counts as acceleration (m/s²)"),
        Tunable("accel-holdoff-ms", \.accelHoldoffMs, 0...5000, "wait after external acceleration (ms)"),
    ]

    public struct Tunable: Sendable {
        public let key: String
        public let keyPath: WritableKeyPath<DetectionConfig, Double> & Sendable
        public let range: ClosedRange<Double>
        public let help: String

        init(_ key: String, _ keyPath: WritableKeyPath<DetectionConfig, Double> & Sendable,
             _ range: ClosedRange<Double>, _ help: String) {
            self.key = key
            self.keyPath = keyPath
            self.range = range
            self.help = help
        }
    }
}

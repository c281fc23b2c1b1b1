/// How often to read a polled sensor: fast while anything is in flux, slowly once the device is
/// held, and more slowly still once nobody has moved it for a while.
///
/// A device that is held still, with nothing pending (no turn, no acceleration, no change
/// waiting to be decided), is read at `heldHz`: every wakeup costs a polled device about as much
/// CPU as its whole reading. The reading that decides a change is already a still one, so the
/// sensor slows down with it rather than watching a held device at the active rate. The first
/// reading that shows motion switches to the active rate; a person's turn lasts longer than
/// the held period, so its start is seen and decisions come as fast as at a constant rate (the
/// corpus tests replay the traces through this schedule). A turn that happened entirely between
/// two slow readings is confirmed by two readings at the active rate (see `Detector`'s
/// unobserved-turn restart).
///
/// A device in a person's hand is never quite still: from one reading to the next its gravity
/// vector wanders by more than `aloneTolerance` (hand tremor and drift; 0.3 to 1 m/s² a second
/// over the held stretches of the trace corpus). One that lies on a desk or stands in a dock
/// shows only the sensor's own noise. So a device is *left alone* once, for `aloneAfter`
/// seconds, the detector has been quiet and no reading has moved further than that from the one
/// before; then it is read at `aloneHz`, where a wakeup buys nothing. It is picked up and it
/// is read at `heldHz` again. A very noisy sensor never looks alone, and is read as a held one: no worse than a
/// plan without this stage.
///
/// The defaults were chosen by measurement (`benchmarks/idle_schedule.py` over the trace corpus,
/// and `benchmarks/daemon_vs_polling.py` beside iio-sensor-proxy; the curve is in the README).
public struct SamplingPlan: Sendable, Hashable {
    public var activeHz: Double
    public var heldHz: Double
    public var aloneHz: Double
    public var aloneAfter: Double
    public var aloneTolerance: Double

    public init(activeHz: Double, heldHz: Double = 3, aloneHz: Double = 1, aloneAfter: Double = 5,
                aloneTolerance: Double = 0.2) {
        self.activeHz = max(activeHz, 0.1)
        self.heldHz = min(max(heldHz, 0.1), self.activeHz)
        // Never slower than the detector's gap limit allows: a longer gap would make every
        // reading of a device left alone a restart, and so a busy one.
        self.aloneHz = min(max(aloneHz, 1 / Detector.maxGap + 0.01), self.heldHz)
        self.aloneAfter = max(aloneAfter, 0)
        self.aloneTolerance = max(aloneTolerance, 0)
    }

    /// The plan `[detection]` asks for.
    public init(_ detection: DetectionConfig) {
        self.init(activeHz: detection.rateHz, heldHz: detection.heldHz, aloneHz: detection.aloneHz,
                  aloneAfter: detection.aloneAfterS, aloneTolerance: detection.aloneTolerance)
    }

    /// The rate for a detector that was last busy `quietFor` seconds ago (0: busy now), on a
    /// device last moved by a hand `handledFor` seconds ago.
    public func rate(quietFor: Double, handledFor: Double = .infinity) -> Double {
        quietFor <= 0 ? activeHz : min(quietFor, handledFor) < aloneAfter ? heldHz : aloneHz
    }
}

/// The timetable of a polled sensor that follows a `SamplingPlan`: when the next reading is
/// due, and the rate it is read at. The live sensor and `wlr-orient detect --sampling live`
/// both keep it, so that a replay sees the readings the device would have delivered.
public struct PolledSchedule: Sendable {
    public let plan: SamplingPlan
    public private(set) var rateHz: Double
    private var lastReading: Vector3?
    /// When a reading last moved further than the plan's tolerance from the one before.
    private var handledAt = -Double.infinity

    public init(plan: SamplingPlan) {
        self.plan = plan
        self.rateHz = plan.activeHz
    }

    /// Back to the active rate (a device just opened).
    public mutating func reset() {
        rateHz = plan.activeHz
        lastReading = nil
        handledAt = -Double.infinity
    }

    /// After a reading `v` (m/s²) taken at `t`: follows the rate that the detector's quiet time,
    /// and how long ago the device was last moved, ask for.
    public mutating func update(reading v: Vector3, at t: Double, quietFor: Double) {
        if let lastReading, (v - lastReading).length > plan.aloneTolerance { handledAt = t }
        lastReading = v
        rateHz = plan.rate(quietFor: quietFor, handledFor: t - handledAt)
    }

    /// The next due time after a reading that was due at `due` and taken at `now`: the
    /// cadence is kept; a loop that fell behind continues from now.
    public func next(after due: Double, now: Double) -> Double {
        let next = due + 1 / rateHz
        return next > now ? next : now + 1 / rateHz
    }
}

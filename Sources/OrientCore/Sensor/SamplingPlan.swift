/// How often to sample: fast while anything is in flux, slowly as soon as the device is held,
/// and more slowly still once it has been left alone for a while.
///
/// A device that is held still, with nothing pending (no motion, no acceleration, no change
/// waiting to be decided), is read at `idleHz`: every wakeup costs a polled device about as much
/// CPU as its whole reading. The reading that decides a change is already a still one, so the
/// sensor slows down with it rather than watching a held device at the active rate. The first
/// reading that shows motion switches to the configured rate; a person's turn lasts longer than
/// the idle period, so its start is seen and decisions come as fast as at a constant rate (the
/// corpus tests replay the traces through this schedule). A turn that happened entirely between
/// two idle readings is confirmed by two readings at the active rate (see `Detector`'s
/// unobserved-turn restart).
///
/// A device just turned is often turned again soon (a person settling on how to hold it), and
/// one left alone for `stillAfter` seconds lies on a desk or in a bag, where a wakeup buys
/// nothing: after that it is read at `stillHz`. The two were chosen by measurement
/// (`benchmarks/idle_schedule.py` over the trace corpus and beside iio-sensor-proxy; the curve is
/// in the README): once left alone, fewer wakeups than iio-sensor-proxy's; step latency below
/// its; in the minute after a turn, still three wakeups a second.
public struct SamplingPlan: Sendable, Hashable {
    public var activeHz: Double
    public var idleHz: Double
    public var stillHz: Double
    public var stillAfter: Double

    public init(activeHz: Double, idleHz: Double = 3, stillHz: Double = 1, stillAfter: Double = 60) {
        self.activeHz = max(activeHz, 0.1)
        self.idleHz = min(max(idleHz, 0.1), self.activeHz)
        // Never slower than the detector's gap limit allows: a longer gap would make every
        // reading of a device left alone a restart, and so a busy one.
        self.stillHz = min(max(stillHz, 1 / Detector.maxGap + 0.01), self.idleHz)
        self.stillAfter = max(stillAfter, 0)
    }

    /// The plan `[detection]` asks for.
    public init(_ detection: DetectionConfig) {
        self.init(activeHz: detection.rateHz, idleHz: detection.heldHz, stillHz: detection.aloneHz,
                  stillAfter: detection.aloneAfterS)
    }

    /// The rate for a detector that was last busy `quietFor` seconds ago (0: busy now).
    public func rate(quietFor: Double) -> Double {
        quietFor <= 0 ? activeHz : quietFor < stillAfter ? idleHz : stillHz
    }
}

/// The timetable of a polled sensor that follows a `SamplingPlan`: when the next reading is
/// due, and the rate it is read at. The live sensor and `wlr-orient detect --sampling live`
/// both keep it, so that a replay sees the readings the device would have delivered.
public struct PolledSchedule: Sendable {
    public let plan: SamplingPlan
    public private(set) var rateHz: Double

    public init(plan: SamplingPlan) {
        self.plan = plan
        self.rateHz = plan.activeHz
    }

    /// Back to the active rate (a device just opened).
    public mutating func reset() {
        rateHz = plan.activeHz
    }

    /// After a reading: follows the rate that the detector's quiet time asks for.
    public mutating func update(quietFor: Double) {
        rateHz = plan.rate(quietFor: quietFor)
    }

    /// The next due time after a reading that was due at `due` and taken at `now`: the
    /// cadence is kept; a loop that fell behind continues from now.
    public func next(after due: Double, now: Double) -> Double {
        let next = due + 1 / rateHz
        return next > now ? next : now + 1 / rateHz
    }
}

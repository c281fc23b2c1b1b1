/// When the sensor's reader must have spoken, as the way it reads promises; past that, its
/// silence means it hangs (a read the kernel does not end, a helper stopped) and it is replaced.
///
/// Promised: an answer (a device opened, or none found) soon after a start; once a device is
/// open, the next reading within the pace the controller gave, while it gave one. Nothing is
/// promised while no device can be found (the reader looks again, silently) or while the device
/// is still (one that says when it moves: silence is its answer), so a still device wakes nobody.
/// Each part of a reading read (`stillReading`) counts as speaking: a slow device's reading may
/// take longer than the margin, but no single read of it does.
public struct SensorLiveness: Sendable, Hashable {
    /// Beyond a reading's own period: a HID sensor hub answers a read within 5 s.
    public static let margin = 6.0
    /// The same in whole seconds, for an alarm.
    public static let marginSeconds = UInt32(margin)

    public private(set) var running = false
    /// A device was opened, or none found, since the start (a log line is no answer).
    private var answered = false
    private var open = false
    /// The pace: the next reading this long after the last; nil: when the device speaks;
    /// not said yet (.none): as soon as it can.
    private var period: Double??
    /// The last time the reader spoke or was given a pace.
    private var since = 0.0

    public init() {}

    /// The reader was started (or asked to read again) at `t`.
    public mutating func start(at t: Double) {
        running = true
        answered = false
        since = t
    }

    /// Asked to stop: silence is what it promises.
    public mutating func stop() {
        running = false
    }

    /// A new reader: nothing is known of it.
    public mutating func reset() {
        self = SensorLiveness()
    }

    public mutating func pace(_ period: Double?, at t: Double) {
        self.period = .some(period)
        since = t
    }

    public mutating func heard(_ report: SensorReport, at t: Double) {
        since = t
        switch report {
        case .opened:
            answered = true
            open = true
            period = .none   // a device opened anew: its first reading as soon as it can
        case .lost:
            answered = true
            open = false
        case .sample, .log, .stillReading, .awaitingUdev: break
        }
    }

    /// How long its silence may last now; nil when none is promised.
    public var promise: Double? {
        guard running else { return nil }
        guard answered else { return Self.margin }
        guard open else { return nil }
        switch period {
        case .none: return Self.margin
        case .some(nil): return nil
        case .some(let p?): return p + Self.margin
        }
    }

    /// When its silence means it hangs; nil when none is promised.
    public var deadline: Double? { promise.map { since + $0 } }
}

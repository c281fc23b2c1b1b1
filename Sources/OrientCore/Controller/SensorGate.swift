/// The accelerometer as the controller runs it (rule 12): whether it runs, what it said last
/// (opened, and how it reads; lost, and why), the pace it was last given, and whether its readings
/// come far later than asked. What the readings mean is `Perception`'s.
struct SensorGate: Sendable {
    /// How much later than asked a reading may come before it counts as slow.
    static let slowBeyond = 1.0

    private(set) var running = false
    /// What the sensor said last: opened (how it reads), lost (why); nil since a start.
    private(set) var said: SensorStatus?
    /// When the sensor last reported (monotonic seconds, as it timed the report).
    private(set) var lastReport: Double?
    /// The pace the sensor was last given; nil until the first reading judged since it opened.
    private var pace: Double??
    /// Readings in a row that came far later than asked.
    private var slowReadings = 0

    /// What `status` says of it.
    var status: SensorStatus { running ? said ?? SensorStatus(state: .looking) : .released }

    /// Runs or not; true when that changed (what it says after a start is news).
    mutating func run(_ needed: Bool) -> Bool {
        guard needed != running else { return false }
        running = needed
        said = nil
        return true
    }

    mutating func opened(_ device: Perception.Device, at t: Double) {
        pace = nil
        slowReadings = 0
        lastReport = t
        said = SensorStatus(state: .reading, device: device.id, mode: device.mode, limit: device.limit,
                            why: device.why.isEmpty ? nil : device.why,
                            matrix: device.calibration.mountMatrix, matrixSource: device.matrixSource)
    }

    mutating func lost(_ why: String) {
        said = SensorStatus(state: .lost, why: why)
    }

    /// A new perception (the detector configured anew): the next reading's pace is sent again.
    mutating func forgetPace() {
        pace = nil
    }

    /// A reading at `t` (`held`: repeated by the sensor, not sent by the device), before it is
    /// judged, with the pace the judge wants now. A device whose readings come far later than
    /// the pace asked of them, twice in a row (a HID hub answers each raw read synchronously, and
    /// may take seconds), is named slow, and no longer once a reading keeps up again; true when
    /// that changed.
    mutating func reading(at t: Double, held: Bool, wanted: Double?) -> Bool {
        defer { lastReport = t }
        // Only a polled device is read on a pace; one that speaks when it moves is silent at will.
        guard !held, let last = lastReport, var now = said, now.state == .reading, now.mode == .polled else { return false }
        let interval = t - last
        let asked = (pace ?? nil) ?? wanted ?? 1
        slowReadings = interval > asked + Self.slowBeyond ? slowReadings + 1 : 0
        let slow = slowReadings >= 2 ? (interval * 10).rounded() / 10 : nil
        guard (slow == nil) != (now.slowReading == nil) else { return false }
        now.slowReading = slow
        said = now
        return true
    }

    /// The pace the judge wants after a reading; true when it is not the one last given.
    mutating func paced(_ period: Double?) -> Bool {
        guard pace != .some(period) else { return false }
        pace = .some(period)
        return true
    }
}

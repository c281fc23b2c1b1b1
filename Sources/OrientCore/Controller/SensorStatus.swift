/// What the accelerometer is doing, as `status` tells it: read (how, and why that way), released,
/// looked for, or lost (and why: none found, refused, a helper that hung).
public struct SensorStatus: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// A device is open and read.
        case reading
        /// Not wanted now (nothing can rotate).
        case released
        /// Wanted, and no device open yet.
        case looking
        /// Wanted, and the device vanished or none can be used (`why`).
        case lost
    }

    public var state: State
    /// The device's id while reading.
    public var device: String?
    public var mode: ReadingMode?
    public var limit: ReadingLimit?
    /// Why it is read that way (reading), or why it cannot be (lost).
    public var why: String?
    /// Seconds since the sensor last reported, where the one telling has a clock (the control
    /// socket's answer); nil otherwise, and never part of a change watchers hear of.
    public var lastReportAge: Double?
    /// Seconds from one reading to the next, where the device is much slower than the readings
    /// asked of it (a HID sensor hub answering each raw read late); nil where it keeps up.
    public var slowReading: Double?
    /// The mount matrix the readings are turned by, and where it came from, while reading.
    public var matrix: MountMatrix?
    public var matrixSource: MountMatrixSource?

    public init(state: State, device: String? = nil, mode: ReadingMode? = nil, limit: ReadingLimit? = nil,
                why: String? = nil, lastReportAge: Double? = nil, slowReading: Double? = nil,
                matrix: MountMatrix? = nil, matrixSource: MountMatrixSource? = nil) {
        self.matrix = matrix
        self.matrixSource = matrixSource
        self.state = state
        self.device = device
        self.mode = mode
        self.limit = limit
        self.why = why
        self.lastReportAge = lastReportAge
        self.slowReading = slowReading
    }

    public static let released = SensorStatus(state: .released)

    /// As `status` sends it.
    public var json: JSON {
        .object([
            ("state", .string(state.rawValue)),
            ("device", device.map(JSON.string) ?? .null),
            ("mode", mode.map { .string($0.rawValue) } ?? .null),
            ("limit", limit.map { .string($0.rawValue) } ?? .null),
            ("why", why.map(JSON.string) ?? .null),
            ("last_report_ms", lastReportAge.map { .int(Int(($0 * 1000).rounded())) } ?? .null),
            ("slow_reading_ms", slowReading.map { .int(Int(($0 * 1000).rounded())) } ?? .null),
            ("matrix", matrix.map { .string($0.description) } ?? .null),
            ("matrix_source", matrixSource.map { .string($0.rawValue) } ?? .null),
        ])
    }
}

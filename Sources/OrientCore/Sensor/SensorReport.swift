/// What the accelerometer reports, from the sensor to the decision: made by `OrientationSensor`,
/// in the sensor helper (`wlr-orient-sensor-feed`, the process that reads it for the plugin and
/// the daemon) or in the CLI, and judged by the core. Its times are monotonic seconds from the
/// start, which every process shares: a reading's time is the same number at the sensor, on the
/// wire and at the decision. Between the helper and its host it travels as one JSON object per
/// line (`json`, `init?(json:)`), as the control socket's messages and the events do.
public enum SensorReport: Sendable, Hashable {
    /// An accelerometer was opened (at start, or again after it vanished), at `t`; `description`
    /// is its log line.
    case opened(Perception.Device, description: String, at: Double)
    /// One reading in raw counts; `held`: repeated by the sensor, not sent by the device (see
    /// `Perception.judge`).
    case sample(RawSample, held: Bool)
    /// The accelerometer vanished, or none could be found.
    case lost(String)
    /// Something worth a log line.
    case log(String)
    /// A reading is under way and part of it was read: a slow device, not a hung one.
    case stillReading
    /// None was found, and udev's announcements are watched for one.
    case awaitingUdev

    /// The report as one JSON object: `{"report": KIND, ...}`, with `at` its time where it has one.
    public var json: JSON {
        switch self {
        case .opened(let device, let description, let t):
            return .object([("report", .string("opened")), ("at", .double(t)), ("device", .string(device.id)),
                            ("mode", .string(device.mode.rawValue)), ("limit", device.limit.map { .string($0.rawValue) } ?? .null),
                            ("scale", .double(device.calibration.scale)),
                            ("matrix", .array(device.calibration.mountMatrix.m.map(JSON.double))),
                            ("matrix_source", .string(device.matrixSource.rawValue)), ("why", .string(device.why)),
                            ("description", .string(description))])
        case .sample(let raw, let held):
            return .object([("report", .string("sample")), ("at", .double(raw.t)),
                            ("counts", .array([.double(raw.x), .double(raw.y), .double(raw.z)])), ("held", .bool(held))])
        case .lost(let why):
            return .object([("report", .string("lost")), ("why", .string(why))])
        case .log(let text):
            return .object([("report", .string("log")), ("text", .string(text))])
        case .stillReading:
            return .object([("report", .string("reading"))])
        case .awaitingUdev:
            return .object([("report", .string("awaiting-udev"))])
        }
    }

    /// A report read from its JSON; nil for anything else (an unknown kind, a missing or
    /// non-finite number, a scale not above 0, an invalid mount matrix). Members it does not know
    /// are left alone, and a matrix source it does not know reads as the identity's: a newer
    /// helper's report is not wrong for that.
    public init?(json: JSON) {
        func finite(_ value: JSON?) -> Double? { value?.number.flatMap { $0.isFinite ? $0 : nil } }
        func finite(_ key: String) -> Double? { finite(json[key]) }
        /// An array of exactly `count` finite numbers.
        func numbers(_ key: String, _ count: Int) -> [Double]? {
            guard case .array(let items)? = json[key], items.count == count else { return nil }
            let numbers = items.compactMap(finite)
            return numbers.count == count ? numbers : nil
        }
        switch json["report"]?.string {
        case "opened":
            guard let t = finite("at"), let id = json["device"]?.string, !id.isEmpty,
                  let mode = json["mode"]?.string.flatMap(ReadingMode.init(rawValue:)),
                  let scale = finite("scale"), scale > 0,
                  let numbers = numbers("matrix", 9), let matrix = MountMatrix(numbers) else { return nil }
            var limit: ReadingLimit?
            switch json["limit"] {
            case nil, .null?: limit = nil
            case .string(let word)?:
                guard let known = ReadingLimit(rawValue: word) else { return nil }
                limit = known
            default: return nil
            }
            let source = json["matrix_source"]?.string.flatMap(MountMatrixSource.init(rawValue:)) ?? .identity
            let device = Perception.Device(id: id, calibration: Calibration(scale: scale, mountMatrix: matrix), mode: mode,
                                           why: json["why"]?.string ?? "", limit: limit, matrixSource: source)
            self = .opened(device, description: json["description"]?.string ?? "", at: t)
        case "sample":
            guard let t = finite("at"), let counts = numbers("counts", 3), case .bool(let held)? = json["held"] else { return nil }
            self = .sample(RawSample(t: t, x: counts[0], y: counts[1], z: counts[2]), held: held)
        case "lost":
            guard let why = json["why"]?.string else { return nil }
            self = .lost(why)
        case "log":
            guard let text = json["text"]?.string else { return nil }
            self = .log(text)
        case "reading":
            self = .stillReading
        case "awaiting-udev":
            self = .awaitingUdev
        default:
            return nil
        }
    }
}

/// What the host asks of `wlr-orient-sensor-feed`, one JSON object per line:
/// `{"request": "start"}`, `{"request": "stop"}`, `{"request": "pace", "seconds": S}` (S null:
/// not until the device speaks; see `OrientationSensor`'s methods of the same names).
public enum SensorRequest: Sendable, Hashable {
    case start
    case stop
    /// Read again this many seconds after the last reading; nil: not until the device speaks.
    case pace(Double?)

    public var json: JSON {
        switch self {
        case .start: .object([("request", .string("start"))])
        case .stop: .object([("request", .string("stop"))])
        case .pace(let period): .object([("request", .string("pace")), ("seconds", period.map(JSON.double) ?? .null)])
        }
    }

    /// A request read from its JSON; nil for anything else (a negative or non-finite pace too).
    public init?(json: JSON) {
        switch json["request"]?.string {
        case "start": self = .start
        case "stop": self = .stop
        case "pace":
            switch json["seconds"] {
            case .null?: self = .pace(nil)
            case let value?:
                guard let period = value.number, period.isFinite, period >= 0 else { return nil }
                self = .pace(period)
            case nil: return nil
            }
        default: return nil
        }
    }
}

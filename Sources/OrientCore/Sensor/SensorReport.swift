/// What the accelerometer reports to the controller's host: in the daemon straight from the
/// sensor, in the plugin from `wlr-orient-sensor-feed`, a helper process that reads it (libiio and
/// the sysfs reads stay out of the compositor: a sensor hub can take seconds to answer a read).
/// Between the two it travels as one line of text each (`line`, `init?(line:)`), with its times
/// in monotonic seconds, which both processes share.
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

    /// The same report with its time moved by `offset` seconds: from one time line to another
    /// (the sensor's seconds since it started, monotonic seconds, the host's).
    public func shifted(by offset: Double) -> SensorReport {
        func moved(_ t: Double) -> Double { t + offset }
        switch self {
        case .opened(let device, let description, let t):
            return .opened(device, description: description, at: moved(t))
        case .sample(var raw, let held):
            raw.t = moved(raw.t)
            return .sample(raw, held: held)
        case .lost, .log, .stillReading, .awaitingUdev:
            return self
        }
    }

    /// One line, without its newline:
    ///
    ///     opened T ID MODE LIMIT SCALE M11 M12 M13 M21 M22 M23 M31 M32 M33 WHY<tab>DESCRIPTION<tab>SOURCE
    ///     sample T X Y Z held|fresh
    ///     lost TEXT
    ///     log TEXT
    ///     reading
    ///     awaiting-udev
    ///
    /// LIMIT is `busy`, `denied` or `-`; SOURCE where the matrix came from (`config`, `udev`, ...),
    /// last and optional: a plugin still running after an upgrade starts the new helper, and
    /// must read its lines (it takes the rest for the description), as the new must an old one's. Numbers as Swift writes a Double (read back exactly); a
    /// text's line breaks and tabs become spaces.
    public var line: String {
        switch self {
        case .opened(let device, let description, let t):
            let numbers = [t, device.calibration.scale] + device.calibration.mountMatrix.m
            let fields = [String(numbers[0]), Self.word(device.id), device.mode.rawValue, device.limit?.rawValue ?? "-"]
                + numbers.dropFirst().map { String($0) }
            return "opened " + fields.joined(separator: " ") + " " + Self.oneLine(device.why) + "\t" + Self.oneLine(description)
                + "\t" + device.matrixSource.rawValue
        case .sample(let raw, let held):
            return "sample \(raw.t) \(raw.x) \(raw.y) \(raw.z) \(held ? "held" : "fresh")"
        case .lost(let why):
            return "lost " + Self.oneLine(why)
        case .log(let text):
            return "log " + Self.oneLine(text)
        case .stillReading:
            return "reading"
        case .awaitingUdev:
            return "awaiting-udev"
        }
    }

    /// A report read from its line; nil for anything else (a wrong word, a missing or
    /// non-finite number, a scale not above 0, an invalid mount matrix).
    public init?(line: Substring) {
        let kind = line.prefix { $0 != " " }
        let rest = line.dropFirst(kind.count + (kind.count < line.count ? 1 : 0))
        switch kind {
        case "opened":
            let fields = rest.split(separator: " ", maxSplits: 14, omittingEmptySubsequences: false)
            guard fields.count >= 14, let mode = ReadingMode(rawValue: String(fields[2])) else { return nil }
            let limit = ReadingLimit(rawValue: String(fields[3]))
            guard limit != nil || fields[3] == "-" else { return nil }
            var numbers: [Double] = []
            for field in [fields[0], fields[4]] + fields[5..<14] {
                guard let value = Double(field), value.isFinite else { return nil }
                numbers.append(value)
            }
            guard !fields[1].isEmpty, numbers[1] > 0, let matrix = MountMatrix(Array(numbers[2...])) else { return nil }
            let texts = fields.count > 14 ? fields[14].split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false) : []
            // A source this version does not know (a newer helper's) is not the line's fault.
            let source = texts.count > 2 ? MountMatrixSource(rawValue: String(texts[2])) ?? .identity : .identity
            let device = Perception.Device(id: String(fields[1]), calibration: Calibration(scale: numbers[1], mountMatrix: matrix),
                                           mode: mode, why: texts.first.map(String.init) ?? "", limit: limit, matrixSource: source)
            self = .opened(device, description: texts.count > 1 ? String(texts[1]) : "", at: numbers[0])
        case "sample":
            let fields = rest.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 5, fields[4] == "held" || fields[4] == "fresh" else { return nil }
            var numbers: [Double] = []
            for field in fields[0..<4] {
                guard let value = Double(field), value.isFinite else { return nil }
                numbers.append(value)
            }
            self = .sample(RawSample(t: numbers[0], x: numbers[1], y: numbers[2], z: numbers[3]), held: fields[4] == "held")
        case "lost":
            self = .lost(String(rest))
        case "log":
            self = .log(String(rest))
        case "reading" where line == "reading":
            self = .stillReading
        case "awaiting-udev" where line == "awaiting-udev":
            self = .awaitingUdev
        default:
            return nil
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" ? " " : $0 })
    }

    /// An id has no spaces in sysfs; one that had would shift every field after it.
    private static func word(_ text: String) -> String {
        String(text.map { $0 == " " || $0 == "\n" || $0 == "\r" ? "_" : $0 })
    }
}

/// What the host asks of `wlr-orient-sensor-feed`, one line each: `start`, `stop`,
/// `pace SECONDS` or `pace none` (see `OrientationSensor`'s methods of the same names).
public enum SensorRequest: Sendable, Hashable {
    case start
    case stop
    /// Read again this many seconds after the last reading; nil: not until the device speaks.
    case pace(Double?)

    public var line: String {
        switch self {
        case .start: "start"
        case .stop: "stop"
        case .pace(let period): "pace " + (period.map { String($0) } ?? "none")
        }
    }

    /// A request read from its line; nil for anything else (a negative or non-finite pace too).
    public init?(line: Substring) {
        switch line {
        case "start": self = .start
        case "stop": self = .stop
        case "pace none": self = .pace(nil)
        default:
            guard line.hasPrefix("pace "), let period = Double(line.dropFirst(5)), period.isFinite, period >= 0 else { return nil }
            self = .pace(period)
        }
    }
}

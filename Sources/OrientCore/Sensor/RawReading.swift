/// Checks one raw value as a sensor gave it (a sysfs attribute's text).
public enum RawReading {
    public enum Problem: String, Error, Sendable, Hashable {
        case empty = "an empty value"
        case notANumber = "not a number"
        case notFinite = "not finite"
        case saturated = "at the sensor's limit"
    }

    /// The largest magnitude a raw count may have before it counts as saturated (a 16-bit rail).
    public static let rail = 32767.0

    public static func parse(_ text: String) -> Result<Double, Problem> {
        let t = text.trimmingWhitespace()
        if t.isEmpty { return .failure(.empty) }
        guard let v = Double(t) else { return .failure(.notANumber) }
        guard v.isFinite else { return .failure(.notFinite) }
        if abs(v) >= rail { return .failure(.saturated) }
        return .success(v)
    }
}

/// Lets the first few of a kind of log line through, then one every `window` seconds with a count
/// of what was held back: a sensor spewing garbage at 50 Hz must not flood the compositor's log.
public struct RateLimitedLog: Sendable {
    public let burst: Int
    public let window: Double
    private var windowStart = -Double.infinity
    private var inWindow = 0
    private var suppressed = 0

    public init(burst: Int = 3, window: Double = 10) {
        self.burst = burst
        self.window = window
    }

    /// The line to print now (with a count of suppressed ones), or nil to stay quiet.
    public mutating func admit(_ line: String, at t: Double) -> String? {
        if t - windowStart >= window {
            windowStart = t
            inWindow = 0
        }
        inWindow += 1
        guard inWindow <= burst else {
            suppressed += 1
            return nil
        }
        defer { suppressed = 0 }
        return suppressed > 0 ? "\(line) (\(suppressed) similar lines suppressed)" : line
    }
}

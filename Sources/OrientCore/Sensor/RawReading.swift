/// Checks one raw value as a sensor gave it (a sysfs attribute's text).
public enum RawReading {
    public enum Problem: String, Error, Sendable, Hashable {
        case empty = "an empty value"
        case notANumber = "not a number"
        case notFinite = "not finite"
        case saturated = "at the sensor's limit"
    }

    /// The largest magnitude a raw count may have before it counts as saturated, for a channel
    /// of `bits` significant bits (`scan_elements/in_accel_x_type`: `le:s16/16>>0` is 16, signed;
    /// a HID sensor hub's `le:s32/32>>0` is 32). Where a device declares none, a 16-bit part's.
    public static func rail(bits: Int? = nil, signed: Bool = true) -> Double {
        let bits = min(max(bits ?? 16, 2), 63)
        return Double((Int64(1) << Int64(bits - (signed ? 1 : 0))) - 1)
    }

    /// A number from a sysfs attribute; with `rail`, a raw count, which at or beyond it is
    /// saturated (`rail(bits:signed:)`).
    public static func parse(_ text: String, rail: Double? = nil) -> Result<Double, Problem> {
        var text = text
        return text.withUTF8 { parse(bytes: $0, rail: rail) }
    }

    /// The same from the bytes a read returned; sysfs values are ASCII, so this avoids
    /// building a String for every reading.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>, rail: Double? = nil) -> Result<Double, Problem> {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) || b == 0 }
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        if start == end { return .failure(.empty) }
        // Plain integers (what every accelerometer driver writes) without Double(String).
        var value = 0.0, i = start, negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { negative = bytes[i] == UInt8(ascii: "-"); i += 1 }
        var digits = 0
        while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9"), digits < 15 {
            value = value * 10 + Double(bytes[i] - UInt8(ascii: "0"))
            i += 1
            digits += 1
        }
        if i != end || digits == 0 {
            // Anything else (decimals, exponents, nan, words) goes through the full parser.
            guard let v = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) else {
                return .failure(.notANumber)
            }
            value = v
            negative = false
        }
        if negative { value = -value }
        guard value.isFinite else { return .failure(.notFinite) }
        if let rail, abs(value) >= rail { return .failure(.saturated) }
        return .success(value)
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

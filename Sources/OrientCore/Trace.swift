/// A recorded accelerometer trace (`# wlr-orient-trace v1`): what `wlr-orient record`
/// writes and `wlr-orient detect` reads. See shared/traces/README.md for the format.
public struct Trace: Sendable, Hashable {
    public var device: String?
    public var calibration: Calibration
    public var samples: [RawSample]

    public init(device: String? = nil, calibration: Calibration, samples: [RawSample] = []) {
        self.device = device
        self.calibration = calibration
        self.samples = samples
    }

    public static let magic = "# wlr-orient-trace v1"
}

/// One reading as the sensor gave it: raw counts, before mount matrix and scale.
public struct RawSample: Sendable, Hashable {
    /// Seconds on the trace's (or the live clock's) time line.
    public var t: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(t: Double, x: Double, y: Double, z: Double) {
        self.t = t; self.x = x; self.y = y; self.z = z
    }
}

/// Turns raw counts into m/s² in the display's frame: `scale * (M · raw)`.
public struct Calibration: Sendable, Hashable {
    public var scale: Double
    public var mountMatrix: MountMatrix

    public init(scale: Double, mountMatrix: MountMatrix = .identity) {
        self.scale = scale
        self.mountMatrix = mountMatrix
    }

    @inline(__always)
    public func apply(_ s: RawSample) -> Vector3 {
        let (x, y, z) = mountMatrix.apply(s.x, s.y, s.z)
        return Vector3(x * scale, y * scale, z * scale)
    }
}

/// A problem in a trace file: `FILE:LINE: message`.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }
}

public enum TraceReader {
    /// Parses a whole trace; the first problem found is returned with its line.
    public static func parse(_ text: String, file: String) -> Result<Trace, TraceError> {
        var trace = Trace(calibration: Calibration(scale: 1))
        var sawScale = false
        var lastT = -Double.infinity
        var lineNumber = 0
        func fail(_ message: String) -> Result<Trace, TraceError> {
            .failure(TraceError(file: file, line: lineNumber, message: message))
        }
        // "\r\n" is one Character in Swift: lines end at either (a trace saved on Windows).
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let s = line.hasSuffix("\r") ? line.dropLast() : line[...]
            if lineNumber == 1 {
                guard s.trimmingWhitespace() == Trace.magic else {
                    return fail("not a wlr-orient trace: the first line must be '\(Trace.magic)'")
                }
                continue
            }
            let body = s.trimmingWhitespace()
            if body.isEmpty { continue }
            if body.hasPrefix("#") {
                let comment = body.dropFirst().trimmingWhitespace()
                guard let colon = comment.firstIndex(of: ":") else { continue }
                let key = comment[..<colon].trimmingWhitespace().lowercased()
                let value = comment[comment.index(after: colon)...].trimmingWhitespace()
                switch key {
                case "scale":
                    guard let v = Double(value), v.isFinite, v > 0 else {
                        return fail("scale must be a positive number, got '\(value)'")
                    }
                    trace.calibration.scale = v
                    sawScale = true
                case "mount-matrix":
                    switch MountMatrix.parse(String(value)) {
                    case .success(let m): trace.calibration.mountMatrix = m
                    case .failure(.shape):
                        return fail("mount-matrix must be three rows of three numbers ('a, b, c; d, e, f; g, h, i'), got '\(value)'")
                    case .failure(let problem):
                        return fail("mount-matrix '\(value)' cannot be a mount matrix: \(problem)")
                    }
                case "device":
                    trace.device = String(value)
                default:
                    break
                }
                continue
            }
            if body == "t,x,y,z" { continue }
            let fields = body.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 4 else {
                return fail("expected 't,x,y,z' (4 fields), got \(fields.count)")
            }
            guard let t = Double(fields[0].trimmingWhitespace()), t.isFinite else {
                return fail("t is not a number: '\(fields[0])'")
            }
            guard t >= lastT else {
                return fail("time goes backwards: \(t) after \(lastT)")
            }
            var v = [0.0, 0.0, 0.0]
            for i in 0..<3 {
                guard let n = Double(fields[i + 1].trimmingWhitespace()), n.isFinite else {
                    return fail("\(["x", "y", "z"][i]) is not a number: '\(fields[i + 1])'")
                }
                v[i] = n
            }
            lastT = t
            trace.samples.append(RawSample(t: t, x: v[0], y: v[1], z: v[2]))
        }
        if lineNumber == 0 || (lineNumber == 1 && text.isEmpty) {
            lineNumber = 1
            return fail("empty file: the first line must be '\(Trace.magic)'")
        }
        if !sawScale {
            lineNumber = 1
            return fail("missing '# scale: N' header line")
        }
        return .success(trace)
    }
}

public enum TraceWriter {
    public static func header(device: String?, calibration: Calibration) -> String {
        var s = Trace.magic + "\n"
        if let device { s += "# device: \(device)\n" }
        s += "# scale: \(calibration.scale)\n"
        s += "# mount-matrix: \(calibration.mountMatrix)\n"
        s += "t,x,y,z\n"
        return s
    }

    /// One sample line; raw counts are written as integers when they are whole.
    public static func line(_ s: RawSample) -> String {
        func count(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        }
        return "\(formatSeconds(s.t)),\(count(s.x)),\(count(s.y)),\(count(s.z))\n"
    }
}

/// Seconds with exactly three decimals ("1.234"), as traces and `detect` print them.
public func formatSeconds(_ t: Double) -> String {
    guard t.isFinite else { return "0.000" }
    guard abs(t) < 1e12 else { return String(t) }  // beyond any clock; Int(t * 1000) would trap
    let ms = Int((t * 1000).rounded())
    let sign = ms < 0 ? "-" : ""
    let a = abs(ms)
    let frac = String(a % 1000)
    return "\(sign)\(a / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
}

extension StringProtocol {
    func trimmingWhitespace() -> SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[first...last]
    }
}

/// Notices a sensor whose readings cannot be gravity at rest: a wrong scale or units make every
/// reading look like a jolt, and the detector (rightly) never rotates. One warning says why.
public struct ScaleCheck: Sendable {
    public static let samples = 25
    /// Readings whose average magnitude lies outside this band of 1 g are suspicious.
    public static let band = 0.7...1.3

    private var sum = 0.0
    private var count = 0
    private var done = false

    public init() {}

    /// Feeds one reading's magnitude (m/s²); returns a warning once, after `samples` readings,
    /// if their average is far from 1 g.
    public mutating func add(magnitude: Double) -> String? {
        guard !done, magnitude.isFinite else { return nil }
        sum += magnitude
        count += 1
        guard count >= Self.samples else { return nil }
        done = true
        let g = sum / Double(count) / standardGravity
        guard !Self.band.contains(g) else { return nil }
        let shown = (g * 100).rounded() / 100
        return "readings average \(shown) g where 1 g is expected at rest: the scale is probably wrong"
            + " (check in_accel_scale); orientation changes will be ignored"
    }
}

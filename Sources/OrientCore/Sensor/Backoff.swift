/// When to look for a vanished sensor again: quickly at first, then at most once a second,
/// so that a device that comes back is sampling again within about a second.
public struct Backoff: Sendable, Hashable {
    public static let delays: [Double] = [0.1, 0.2, 0.4, 0.8, 1.0]
    public private(set) var attempts = 0

    public init() {}

    /// The delay before the next attempt, and counts it.
    public mutating func next() -> Double {
        defer { attempts += 1 }
        return Self.delays[min(attempts, Self.delays.count - 1)]
    }

    public mutating func reset() { attempts = 0 }
}

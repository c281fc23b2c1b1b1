/// The easing of a transition: progress in time (0…1) to progress on screen (0…1).
public enum TransitionCurve: String, Sendable, CaseIterable {
    case linear
    /// Cubic in, cubic out: KWin's rotation (InOutCubic).
    case easeInOut = "ease-in-out"
    /// Material's standard curve, cubic-bezier(0.4, 0, 0.2, 1): Android's rotation.
    case fastOutSlowIn = "fast-out-slow-in"
    /// Quadratic ease-out: Android's cross-fade exit.
    case decelerate

    /// Clamped to 0…1 on both sides; NaN counts as the start.
    public func value(at time: Double) -> Double {
        let t = time.isNaN ? 0 : min(max(time, 0), 1)
        switch self {
        case .linear:
            return t
        case .easeInOut:
            return t < 0.5 ? 4 * t * t * t : 1 - pow3(2 - 2 * t) / 2
        case .fastOutSlowIn:
            return t == 0 || t == 1 ? t : Self.bezier(x1: 0.4, y1: 0, x2: 0.2, y2: 1, at: t)
        case .decelerate:
            return 1 - (1 - t) * (1 - t)
        }
    }

    private func pow3(_ x: Double) -> Double { x * x * x }

    /// A CSS cubic-bezier from (0,0) to (1,1): finds the curve parameter whose x is `x` by
    /// bisection (x is monotonic in it for control points within 0…1), returns its y.
    static func bezier(x1: Double, y1: Double, x2: Double, y2: Double, at x: Double) -> Double {
        func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
        }
        var low = 0.0, high = 1.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if coordinate(x1, x2, mid) < x { low = mid } else { high = mid }
        }
        return coordinate(y1, y2, (low + high) / 2)
    }
}

import Glibc  // acos only

/// The angle between two unit vectors, in degrees (0...180).
@inline(__always)
func degreesBetween(_ a: Vector3, _ b: Vector3) -> Double {
    acos(min(1, max(-1, a.dot(b)))) * 180 / .pi
}

/// The smallest difference between two angles in degrees (0...180).
@inline(__always)
func angularDistance(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return d > 180 ? 360 - d : d
}

/// A fixed ring of recent filtered directions, for the turn rate. No allocation per sample.
struct DirectionHistory: Sendable {
    struct Entry: Sendable {
        var t: Double
        var direction: Vector3
        var angle: Double
    }
    private static let capacity = 64
    private var entries = [Entry](repeating: Entry(t: -.infinity, direction: .zero, angle: 0), count: capacity)
    private var next = 0
    private var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(t: Double, direction: Vector3, angle: Double) {
        entries[next] = Entry(t: t, direction: direction, angle: angle)
        next = (next + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }

    /// The time of the oldest entry of the newest run that lies within the cone (`cosine`, of its
    /// half-angle) around `direction`; `now` when none does.
    func withinCone(of direction: Vector3, cosine: Double, since now: Double) -> Double {
        var since = now
        for k in 0..<count {
            let e = entries[(next - 1 - k + Self.capacity) % Self.capacity]
            guard e.direction.dot(direction) >= cosine else { break }
            since = e.t
        }
        return since
    }

    /// The newest entry taken at or before `cutoff`; failing that (a slow sensor, or a young
    /// history), the oldest one if it is at least `minimumAge` old.
    func sample(before cutoff: Double, minimumAge: Double, now: Double) -> Entry? {
        var oldest: Entry?
        for k in 0..<count {
            let i = (next - 1 - k + Self.capacity) % Self.capacity
            let e = entries[i]
            if e.t <= cutoff { return e }
            oldest = e
        }
        if let o = oldest, now - o.t >= minimumAge { return o }
        return nil
    }
}


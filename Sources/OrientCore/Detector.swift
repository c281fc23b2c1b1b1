import Foundation  // for the libm functions (atan2, asin) only

/// Decides the felt orientation from accelerometer samples: pure, deterministic, and on the
/// clock of the samples it is given (live or recorded — the same code either way).
///
/// The judge, in the spirit of Android's WindowOrientationListener but faster:
/// 1. Readings that cannot be gravity (NaN, all-zero) are dropped; ones far from 1 g
///    (bumps, saturation, torn reads) mark *external acceleration* and leave the filter alone.
/// 2. A low-pass filter (`filter-ms`) smooths the gravity vector; a gap longer than
///    `maxGap` restarts it instead of smoothing across stale data.
/// 3. Tilt away from upright beyond `flat-tilt-deg` is *flat* (face up or down): nothing is
///    decided and the felt orientation persists; after pick-up, `pickup-holdoff-ms` passes first.
/// 4. The in-plane angle picks the nearest orientation, but leaving the current one needs
///    `hysteresis-deg` past the 45° boundary (no flapping at the boundary).
/// 5. A change is taken only once the device is *held*: turning slower than `still-deg-per-s`
///    (measured over `speedWindow`, which averages hand tremor and noise out) and showing the
///    same candidate for `settle-ms`, with no external acceleration for `accel-holdoff-ms`.
///    Because a 180° turn is fast at its midpoint, no in-between orientation is ever shown.
public struct Detector: Sendable {
    public struct Change: Sendable, Hashable {
        public var t: Double
        public var orientation: Orientation
    }

    public let config: DetectionConfig

    /// The felt orientation: the last one the person really held the device in. May be a saved
    /// one (see `init(config:savedFelt:)`) until the sensor confirms one.
    public private(set) var felt: Orientation?
    /// Whether `felt` came from this sensor (true) or from a saved state (false).
    public private(set) var confirmed = false
    public private(set) var posture: Posture = .upright
    /// The smoothed gravity vector (m/s²) and its derived angles, for diagnostics.
    public private(set) var gravity = Vector3.zero
    public private(set) var tiltDeg = 0.0
    public private(set) var angleDeg = 0.0
    /// Samples dropped as unusable (NaN, zero), for diagnostics.
    public private(set) var droppedSamples = 0

    /// Readings further apart than this restart the filter.
    public static let maxGap = 0.5
    /// The turn rate is measured between the filtered vector now and this long ago.
    public static let speedWindow = 0.1
    /// Readings beyond this share of 1 g from it are not filtered in at all.
    static let rejectDeviation = 0.5

    private var lastT = -Double.infinity
    private var filterStart = -Double.infinity
    private var candidate: Orientation?
    private var candidateSince = -Double.infinity
    private var lastMoving = -Double.infinity
    private var lastAccel = -Double.infinity
    private var lastFlat = -Double.infinity
    private var rejectedSince: Double?
    private var history = DirectionHistory()

    public init(config: DetectionConfig = DetectionConfig(), savedFelt: Orientation? = nil) {
        self.config = config
        self.felt = savedFelt
    }

    /// Feeds one calibrated reading (m/s², display frame) taken at `t` seconds.
    /// Returns the new felt orientation when it changes (or is first confirmed).
    public mutating func add(_ v: Vector3, at t: Double) -> Change? {
        guard v.isFinite, t.isFinite else { droppedSamples &+= 1; return nil }
        let magnitude = v.length
        guard magnitude > 0.05 * standardGravity else { droppedSamples &+= 1; return nil }

        if t < lastT || t - lastT > Self.maxGap {
            restart(at: t)
        }
        let deviation = abs(magnitude - standardGravity)
        if deviation > config.accelToleranceMs2 { lastAccel = t }

        // Far from 1 g this is not gravity: keep the filter on the last good estimate, unless
        // it lasts so long that it must be the sensor's own calibration (then accept it).
        if deviation > Self.rejectDeviation * standardGravity, filterStart.isFinite {
            let since = rejectedSince ?? t
            rejectedSince = since
            if t - since < 0.5 { lastT = t; return decide(at: t) }
        } else {
            rejectedSince = nil
        }

        if !filterStart.isFinite {
            gravity = v
            filterStart = t
        } else {
            let dt = t - lastT
            let alpha = config.filterMs <= 0 ? 1 : dt / (config.filterMs / 1000 + dt)
            gravity = gravity + (v - gravity) * alpha
        }
        lastT = t
        updateAngles(at: t)
        return decide(at: t)
    }

    /// Forgets the motion state (not the felt orientation): after a gap, or when the sensor
    /// restarts. The next reading starts the filter afresh.
    public mutating func restart(at t: Double) {
        filterStart = -Double.infinity
        history = DirectionHistory()
        candidate = nil
        candidateSince = t
        lastMoving = t
        rejectedSince = nil
        lastT = t
    }

    private mutating func updateAngles(at t: Double) {
        let g = gravity
        let length = g.length
        guard length > 0 else { return }
        tiltDeg = asin(min(1, abs(g.z) / length)) * 180 / .pi
        // 0° normal, 90° left-up, 180° bottom-up, 270° right-up (clockwise quarter turns).
        var angle = atan2(g.x, -g.y) * 180 / .pi
        if angle < 0 { angle += 360 }
        angleDeg = angle

        let unit = g * (1 / length)
        if let past = history.sample(before: t - Self.speedWindow, minimumAge: Self.speedWindow * 0.4, now: t) {
            let cosine = min(1, max(-1, unit.dot(past.direction)))
            let speed = acos(cosine) * 180 / .pi / (t - past.t)
            if speed > config.stillDegPerS { lastMoving = t }
        } else {
            lastMoving = t  // no history yet: not known to be still
        }
        history.append(t: t, direction: unit)

        let flatEnter = config.flatTiltDeg
        let flatLeave = config.flatTiltDeg - 5
        if posture == .upright ? tiltDeg > flatEnter : tiltDeg > flatLeave {
            posture = g.z < 0 ? .faceUp : .faceDown
            lastFlat = t
        } else {
            posture = .upright
        }
    }

    private mutating func decide(at t: Double) -> Change? {
        guard posture == .upright, filterStart.isFinite else {
            candidate = nil
            return nil
        }
        let proposed = proposal()
        if proposed != candidate {
            candidate = proposed
            candidateSince = t
        }
        guard proposed != felt || !confirmed else { return nil }
        let settle = config.settleMs / 1000
        guard t - max(candidateSince, lastMoving) >= settle,
              t - lastAccel >= config.accelHoldoffMs / 1000,
              t - lastFlat >= config.pickupHoldoffMs / 1000
        else { return nil }
        felt = proposed
        confirmed = true
        return Change(t: t, orientation: proposed)
    }

    /// The orientation the current angle argues for, with hysteresis around the felt one.
    private func proposal() -> Orientation {
        let nearest = Orientation(clockwiseQuarterTurns: Int((angleDeg / 90).rounded()))
        guard confirmed, let felt, nearest != felt else { return nearest }
        let fromFelt = angularDistance(angleDeg, Double(felt.clockwiseQuarterTurns) * 90)
        return fromFelt >= 45 + config.hysteresisDeg ? nearest : felt
    }
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
    }
    private static let capacity = 64
    private var entries = [Entry](repeating: Entry(t: -.infinity, direction: .zero), count: capacity)
    private var next = 0
    private var count = 0

    mutating func append(t: Double, direction: Vector3) {
        entries[next] = Entry(t: t, direction: direction)
        next = (next + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
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

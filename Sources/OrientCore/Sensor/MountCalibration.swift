import Glibc  // for the libm functions (acos, asin, cos) only
/// `wlr-orient calibrate` without the sensor: which pose to ask for next, when the device has
/// been still long enough to take one, what is wrong with a pose, and the matrix at the end. The
/// command feeds it readings in the sensor's own axes (m/s², before any matrix) and says each
/// step; it decides nothing itself.
///
/// The person holds the device the way they read it, then turns it so that its left edge is up;
/// optionally lays it face up, which tells a mirrored sensor from a turned one. Each pose is
/// taken once the device has been still for `stillSeconds`: no key to press.
public struct MountCalibration: Sendable {
    public enum Pose: String, Sendable, Hashable, CaseIterable {
        case normal
        case leftUp = "left-up"
        case faceUp = "face-up"
    }

    /// How the sensor is read while calibrating: at the full rate throughout (a pose is the mean
    /// of a second's readings, and the slower rates a still device is read at otherwise leave a
    /// hand's tremor in it, a few degrees), and on that schedule, never from a buffer that reports
    /// only a change or from motion events: both say nothing while the device is still, which is
    /// when a pose is taken.
    public static func reading(_ config: Config) -> Config {
        var config = config
        config.detection.heldHz = config.detection.rateHz
        config.detection.aloneHz = config.detection.rateHz
        config.device.buffered = false
        return config
    }

    public enum Problem: Sendable, Hashable {
        /// Not still for `movingAfter` seconds.
        case moving
        /// It lies nearer flat than upright (as the matrix in use reads it).
        case flat
        /// The two poses are not a quarter turn apart: their angle, in degrees.
        case notAQuarterTurn(Double)
        /// Leaned back so far that the screen's plane cannot be told: degrees.
        case tooReclined(Double)
        /// Asked to lie face up, it does not lie flat.
        case notFlat
    }

    /// What no way of holding the device can mend: calibration ends, with why.
    public enum Fault: Sendable, Hashable {
        /// Still, it reads (nearly) zero on every axis: it is not measuring.
        case readsNothing
        /// Still, it reads this many m/s², not gravity's 9.8: a wrong scale, or a saturated sensor.
        case notGravity(Double)
        /// Its readings are not numbers (NaN or infinite).
        case notANumber
        /// The device went away (unplugged, its driver reloaded): why.
        case gone(String)
    }

    public enum Step: Sendable, Hashable {
        /// Ask the person to hold the device so.
        case hold(Pose)
        /// The pose is taken: the sensor read this (its own axes, m/s²).
        case held(Pose, Vector3)
        /// The pose cannot be taken, and why: it is asked for again.
        case problem(Pose, Problem)
        /// Done: the matrix, and what lying face up said of it (nil: not asked).
        case solved(MountSolver.Solution, faceUp: MountSolver.FaceUp?)
        /// Ended without a matrix: the sensor cannot be calibrated as it reads.
        case failed(Fault)
    }

    /// Still this long (every reading within `stillDegrees` of their mean) to take a pose.
    public static let stillSeconds = 1.0
    public static let stillDegrees = 5.0
    /// A pose is the mean of at least this many readings (a hand's tremor averaged out).
    public static let fewestReadings = 10
    /// Not still for this long: the person hears why nothing happens. A sensor that reads steadily
    /// but not gravity, or no numbers, for this long is at fault.
    public static let movingAfter = 5.0
    /// A still reading below this share of gravity is no reading at all.
    static let nothingShare = 0.05
    /// Gravity alone reads about g: a mean far from it is the hand moving steadily (loose: a
    /// sensor's scale may be a fifth off, and only the direction counts here).
    static let gravityShare = 0.5...1.5
    /// Refused as lying flat by the matrix in use, and held so this long: that matrix may be what
    /// is wrong (it can put the screen's normal on the sensor's axis the person holds up).
    static let flatTrustedAfter = 5.0
    /// A pose refused is judged again once the device has turned this far from it; a second pose
    /// this near the first is the person not having turned yet.
    static let movedDegrees = 20.0

    private let inUse: MountMatrix
    private let asksFaceUp: Bool
    /// The pose asked for; nil once solved.
    private var pose: Pose? = .normal
    private var window: [(t: Double, v: Vector3)] = []
    private var normal: Vector3?
    private var solution: MountSolver.Solution?
    /// When the pose was asked for, or last said to be moving.
    private var since: Double?
    /// A still pose that was refused: not judged again until the device turns from it.
    private var refused: Vector3?
    /// When the pose in `refused` was refused as lying flat.
    private var refusedFlatAt: Double?
    /// The pose last taken: the next is not taken there.
    private var taken: Vector3?
    /// Since when the sensor has read steadily but not gravity, or not numbers.
    private var faultSince: Double?
    /// When a reading last was not a number.
    private var lastNotANumber: Double?

    /// `inUse`: the matrix the sensor has now (to tell flat from upright before the new one is
    /// known); `faceUp`: ask for the third pose.
    public init(inUse: MountMatrix, faceUp: Bool = false) {
        self.inUse = inUse
        self.asksFaceUp = faceUp
    }

    /// Solved, or ended by a fault.
    public var isDone: Bool { pose == nil }

    public func start() -> [Step] { [.hold(.normal)] }

    /// One reading at `t` seconds.
    public mutating func feed(t: Double, _ v: Vector3) -> [Step] {
        guard let pose else { return [] }
        if since == nil { since = t }
        guard v.isFinite else {
            lastNotANumber = t
            return fault(.notANumber, at: t)
        }
        window.append((t, v))
        while window.count > 1, window[1].t <= t - Self.stillSeconds { window.removeFirst() }
        let still: Vector3
        switch steadiness(at: t) {
        case .unsettled:
            // Too few numbers among the readings to tell: not the person moving.
            if window.count < Self.fewestReadings, let at = lastNotANumber, t - at < Self.stillSeconds {
                return fault(.notANumber, at: t)
            }
            faultSince = nil
            guard let since, t - since >= Self.movingAfter else { return [] }
            self.since = t
            return [.problem(pose, .moving)]
        case .notGravity(let magnitude):
            return fault(magnitude < Self.nothingShare * standardGravity ? .readsNothing : .notGravity(magnitude), at: t)
        case .gravity(let mean):
            faultSince = nil
            still = mean
        }
        var flatTrusted = false
        if let refused, Self.degrees(between: still, refused) < Self.movedDegrees {
            guard let at = refusedFlatAt, t - at >= Self.flatTrustedAfter else { return [] }
            flatTrusted = true
        }
        refused = nil
        refusedFlatAt = nil
        if let taken, Self.degrees(between: still, taken) < Self.movedDegrees {
            since = t   // still where the last pose was taken: waiting for the turn, not moving
            return []
        }
        return judge(still, as: pose, at: t, flatTrusted: flatTrusted)
    }

    private enum Steadiness {
        case unsettled
        /// Steady, and gravity's: the mean.
        case gravity(Vector3)
        /// Steady, but its magnitude (m/s²) is not gravity's.
        case notGravity(Double)
    }

    /// Whether the last `stillSeconds` hold steady (every reading near their mean), and if the
    /// mean is gravity's.
    private func steadiness(at t: Double) -> Steadiness {
        guard let first = window.first, t - first.t >= Self.stillSeconds * 0.95, window.count >= Self.fewestReadings else { return .unsettled }
        let mean = window.reduce(Vector3.zero) { $0 + $1.v } * (1 / Double(window.count))
        // No direction to compare where there is (nearly) nothing: steady if all of it is so.
        let nothing = Self.nothingShare * standardGravity
        if mean.length < nothing { return window.allSatisfy({ $0.v.length < nothing }) ? .notGravity(mean.length) : .unsettled }
        guard window.allSatisfy({ Self.degrees(between: $0.v, mean) <= Self.stillDegrees
                                  && abs($0.v.length - mean.length) <= 0.15 * mean.length }) else { return .unsettled }
        return Self.gravityShare.contains(mean.length / standardGravity) ? .gravity(mean) : .notGravity(mean.length)
    }

    /// The sensor at fault since `faultSince`: once for `movingAfter`, calibration ends.
    private mutating func fault(_ fault: Fault, at t: Double) -> [Step] {
        guard let since = faultSince else {
            faultSince = t
            return []
        }
        guard t - since >= Self.movingAfter else { return [] }
        return end(fault)
    }

    /// The device went away: what was taken from it says nothing of the one that may come back.
    public mutating func deviceGone(_ why: String) -> [Step] {
        guard pose != nil else { return [] }
        return end(.gone(why))
    }

    private mutating func end(_ fault: Fault) -> [Step] {
        pose = nil
        return [.failed(fault)]
    }

    private mutating func judge(_ v: Vector3, as pose: Pose, at t: Double, flatTrusted: Bool) -> [Step] {
        switch pose {
        case .normal:
            // The new matrix is not known yet: flat as the matrix in use reads it, unless held
            // so long that the person must mean it.
            let (x, y, z) = inUse.apply(v.x, v.y, v.z)
            guard flatTrusted || MountSolver.orientation(of: Vector3(x, y, z)) != nil else {
                refusedFlatAt = t
                return refuse(v, pose, .flat, at: t)
            }
            normal = v
            return take(v, pose, next: .leftUp, at: t)
        case .leftUp:
            // How it leans is the solver's to judge, in the frame of the two poses.
            guard let normal else { return [] }
            switch MountSolver.solve(normal: normal, leftUp: v) {
            case .failure(.notAQuarterTurn(let d)): return refuse(v, pose, .notAQuarterTurn(d), at: t)
            case .failure(.tooReclined(let d)): return refuse(v, pose, .tooReclined(d), at: t)
            case .success(let solution):
                self.solution = solution
                if asksFaceUp { return take(v, pose, next: .faceUp, at: t) }
                self.pose = nil
                return [.held(pose, v), .solved(solution, faceUp: nil)]
            }
        case .faceUp:
            guard let solution else { return [] }
            let said = MountSolver.check(faceUp: v, with: solution.matrix)
            guard said != .unclear else { return refuse(v, pose, .notFlat, at: t) }
            self.pose = nil
            return [.held(pose, v), .solved(solution, faceUp: said)]
        }
    }

    private mutating func take(_ v: Vector3, _ pose: Pose, next: Pose, at t: Double) -> [Step] {
        self.pose = next
        taken = v
        window = []
        since = t
        return [.held(pose, v), .hold(next)]
    }

    private mutating func refuse(_ v: Vector3, _ pose: Pose, _ problem: Problem, at t: Double) -> [Step] {
        refused = v
        since = t
        return [.problem(pose, problem)]
    }

    static func degrees(between a: Vector3, _ b: Vector3) -> Double {
        let c = a.unit.dot(b.unit)
        return MountSolver.degrees(acos(max(-1, min(1, c))))
    }
}

import Glibc  // for the libm functions (acos, asin, cos) only
/// The mount matrix that makes two poses the person held read as what they are: the device held
/// the way they read it (`normal`), then turned so that its left edge is up (`left-up`). The
/// readings are the sensor's own axes (before any matrix); the matrix is a proper rotation that
/// turns them into the display's frame (`normal` reads (0, −g, 0), `left-up` (+g, 0, 0)).
///
/// A person holds a tablet reclined (reading in bed), and about as reclined in both poses: only
/// the direction in the screen's plane is the person's meaning. The screen's normal is worked out
/// so that both poses lean the same from it and their directions in the plane are a quarter turn
/// apart; each is then projected into that plane.
public enum MountSolver {
    /// Within this of an axis on every entry, the matrix is snapped to 0 and ±1 (as nearly every
    /// hwdb entry is written).
    public static let snapDegrees = 10.0
    /// The two poses' directions must be this far apart and no farther (a quarter turn, as a
    /// hand makes it, reclined as much as `mostRecline`).
    public static let quarterTurn = 55.0...120.0
    /// How far from upright a pose may lean back (a tablet read in bed).
    public static let mostRecline = 50.0
    /// Leaning back less than this is taken for upright (sin² of 10°).
    static let uprightShare = 0.0302

    public struct Solution: Sendable, Hashable {
        public var matrix: MountMatrix
        /// Every entry was within `snapDegrees` of 0 or ±1 and is now exactly that.
        public var snapped: Bool
        /// How far the poses leaned back from upright, in degrees.
        public var reclineDegrees: Double
    }

    public enum Problem: Error, Sendable, Hashable {
        /// The two poses are not a quarter turn apart: their angle, in degrees.
        case notAQuarterTurn(Double)
        /// Both leaned back so far that the screen's plane cannot be told: degrees.
        case tooReclined(Double)
    }

    public static func solve(normal s1: Vector3, leftUp s2: Vector3) -> Result<Solution, Problem> {
        let a = s1.unit, b = s2.unit
        let cosine = max(-1, min(1, a.dot(b)))
        let apart = degrees(acos(cosine))
        guard quarterTurn.contains(apart) else { return .failure(.notAQuarterTurn(apart)) }
        // Both lean back by t from the screen's plane, their in-plane directions at right angles:
        // a·b = sin²t. (Apart more than a right angle: upright, and the hand's error.)
        // Below `uprightDegrees` the hand's error alone makes a·b small but its root large
        // (0.001 reads as 1.8°): held upright.
        let sinT = cosine < Self.uprightShare ? 0 : cosine.squareRoot()
        let recline = degrees(asin(min(1, sinT)))
        guard recline <= mostRecline else { return .failure(.tooReclined(recline)) }
        // The normal n lies at right angles to a − b, between a × b (upright) and −(a + b)
        // (leaning back, the screen faces up: gravity's share along n, a·n, is −sin t). Both are
        // at right angles to a − b and to each other; a·(a × b) = 0 and a·−(a + b)/|a + b| =
        // −√((1 + sin²t)/2), so n's share of −(a + b) is sin t·√(2/(1 + sin²t)).
        let across = a.cross(b).unit
        let back = (a + b).unit * -1
        let sinPhi = min(1, sinT * (2 / (1 + sinT * sinT)).squareRoot())
        let n = (across * (1 - sinPhi * sinPhi).squareRoot() + back * sinPhi).unit
        let p1 = (a - n * a.dot(n)).unit
        let p2 = (b - n * b.dot(n)).unit
        // Rows: the display's x, y and z axes in the sensor's frame. normal reads −y, left-up +x;
        // the in-plane directions made exactly square to each other.
        let y = p1 * -1
        let x = (p2 - y * p2.dot(y)).unit
        let z = x.cross(y)
        // To four decimals: a tenth of a milliradian is far below what a hand holds still.
        let exact = [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z].map { ($0 * 10_000).rounded() / 10_000 + 0 }
        let snapped = snap(exact)
        guard let matrix = MountMatrix(snapped ?? exact) else { return .failure(.notAQuarterTurn(apart)) }
        return .success(Solution(matrix: matrix, snapped: snapped != nil, reclineDegrees: recline))
    }

    /// What a third pose, lying face up, says of a matrix from `solve`: the screen's normal points
    /// up (a mount), down (the sensor is mirrored: no rotation makes it right), or cannot be told.
    public enum FaceUp: String, Sendable, Hashable {
        case confirmed, mirrored, unclear
    }

    public static func check(faceUp s3: Vector3, with matrix: MountMatrix) -> FaceUp {
        let (_, _, z) = matrix.apply(s3.x, s3.y, s3.z)
        let share = z / max(s3.length, .leastNonzeroMagnitude)
        if share < -0.8 { return .confirmed }
        if share > 0.8 { return .mirrored }
        return .unclear
    }

    /// Each entry made 0 or ±1, if every one is within `snapDegrees` of that (a row's largest within
    /// the angle of its axis); nil otherwise.
    static func snap(_ m: [Double]) -> [Double]? {
        let near = cos(snapDegrees * .pi / 180)
        var out = [Double](repeating: 0, count: 9)
        var columns = Set<Int>()
        for r in 0..<3 {
            let row = Array(m[(r * 3)..<(r * 3 + 3)])
            guard let c = row.indices.max(by: { abs(row[$0]) < abs(row[$1]) }), abs(row[c]) >= near,
                  columns.insert(c).inserted else { return nil }
            out[r * 3 + c] = row[c] > 0 ? 1 : -1
        }
        return out
    }

    /// Which way a display-frame reading is held, if it is held upright enough to say
    /// (within 45° of the screen's plane); nil when it lies nearer flat.
    public static func orientation(of v: Vector3) -> Orientation? {
        guard abs(v.z) < (v.x * v.x + v.y * v.y).squareRoot() else { return nil }
        if abs(v.x) > abs(v.y) { return v.x > 0 ? .leftUp : .rightUp }
        return v.y < 0 ? .normal : .bottomUp
    }

    /// For each way the device can be held, what a matrix in use shows instead, where the new
    /// matrix is right: in `Orientation.allCases` order, only those that differ.
    public static func changes(from inUse: MountMatrix, to right: MountMatrix) -> [(held: Orientation, today: Orientation?)] {
        Orientation.allCases.compactMap { held in
            let e: Vector3 = switch held {
            case .normal: Vector3(0, -1, 0)
            case .leftUp: Vector3(1, 0, 0)
            case .bottomUp: Vector3(0, 1, 0)
            case .rightUp: Vector3(-1, 0, 0)
            }
            // The sensor's reading held so: the right matrix is a rotation, its inverse its transpose.
            let m = right.m
            let s = Vector3(m[0] * e.x + m[3] * e.y + m[6] * e.z, m[1] * e.x + m[4] * e.y + m[7] * e.z,
                            m[2] * e.x + m[5] * e.y + m[8] * e.z)
            let (x, y, z) = inUse.apply(s.x, s.y, s.z)
            let today = orientation(of: Vector3(x, y, z))
            return today == held ? nil : (held, today)
        }
    }

    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}

extension Vector3 {
    @inline(__always)
    func cross(_ b: Vector3) -> Vector3 { Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }

    /// Of length 1 (zero stays zero).
    var unit: Vector3 {
        let l = length
        return l > 0 ? self * (1 / l) : self
    }
}

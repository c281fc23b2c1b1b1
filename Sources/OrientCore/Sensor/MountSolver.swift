import Glibc  // for the libm functions (acos, asin, atan2, cos, sin) only
/// The mount matrix that makes two poses the person held read as what they are: the device held
/// the way they read it (`normal`), then turned so that its left edge is up (`left-up`). The
/// readings are the sensor's own axes (before any matrix); the matrix is a proper rotation that
/// turns them into the display's frame (`normal` reads (0, −g, 0), `left-up` (+g, 0, 0)).
///
/// A hand is not exact: it holds a tablet leaning back (reading in bed), not always as much in
/// both poses, and turns it 80° or 100°. Nearly every sensor is mounted along the display's
/// axes, so the frame is first taken from the sensor axes nearest to each pose (the one gravity
/// leans on most), and each pose is then looked at in that frame's screen plane: leaning back
/// (out of the plane) does not matter; in the plane, both poses off their axes by the same angle
/// is a sensor mounted off its axes by it, and off by different angles is the hand's turn.
public enum MountSolver {
    /// Within this of an axis, a sensor is taken for mounted along it (0 and ±1, as nearly every
    /// hwdb entry is written).
    public static let snapDegrees = 10.0
    /// How far the turn between the poses, in the screen's plane, may be from a quarter turn.
    public static let turnSlack = 25.0
    /// How far from upright a pose may lean back (a tablet read in bed).
    public static let mostRecline = 50.0
    /// Both poses off their axes in the plane by angles this close: the sensor is mounted so.
    static let sameOffset = 6.0

    public struct Solution: Sendable, Hashable {
        public var matrix: MountMatrix
        /// Along the axes: every entry exactly 0 or ±1.
        public var snapped: Bool
        /// How far the poses leaned back from upright, the more reclined of the two, in degrees.
        public var reclineDegrees: Double
    }

    public enum Problem: Error, Sendable, Hashable {
        /// The two poses are not a quarter turn apart in the screen's plane: the turn, in degrees.
        case notAQuarterTurn(Double)
        /// A pose leaned back so far that the screen's plane cannot be told: degrees.
        case tooReclined(Double)
    }

    public static func solve(normal s1: Vector3, leftUp s2: Vector3) -> Result<Solution, Problem> {
        let a = s1.unit, b = s2.unit
        // The nearest axes: normal reads −y, left-up +x. Gravity leaning on one axis in both is
        // two poses lying back beyond the point where the plane can be told (or not turned).
        let (ya, yi) = nearestAxis(a), (xb, xi) = nearestAxis(b)
        guard yi != xi else {
            let apart = degrees(acos(max(-1, min(1, a.dot(b)))))
            guard (45.0...135.0).contains(apart) else { return .failure(.notAQuarterTurn(apart)) }
            return .failure(.tooReclined(max(recline(a, ya), recline(b, xb))))
        }
        let y = ya * -1, x = xb, z = x.cross(y)
        // Each pose in the screen's plane (its lean back dropped), and how far it leans.
        let leans = [degrees(asin(min(1, abs(a.dot(z))))), degrees(asin(min(1, abs(b.dot(z)))))]
        guard leans.allSatisfy({ $0 <= mostRecline }) else { return .failure(.tooReclined(leans.max() ?? 90)) }
        let pa = (a - z * a.dot(z)).unit, pb = (b - z * b.dot(z)).unit
        // Signed angles about z from where each would be on the axes.
        let offA = signedDegrees(from: y * -1, to: pa, about: z), offB = signedDegrees(from: x, to: pb, about: z)
        let turn = 90 + offB - offA
        guard abs(turn - 90) <= turnSlack else { return .failure(.notAQuarterTurn(abs(turn))) }
        let recline = leans.max() ?? 0
        // Off by the same angle (beyond the snap): the sensor is turned so in its plane.
        let offset = (offA + offB) / 2
        guard abs(offA - offB) <= sameOffset, abs(offset) > snapDegrees else {
            return .success(Solution(matrix: matrix(x, y, z), snapped: true, reclineDegrees: recline))
        }
        let r = offset * .pi / 180
        let tx = (x * cos(r) + y * sin(r)).unit, ty = (y * cos(r) - x * sin(r)).unit
        return .success(Solution(matrix: matrix(tx, ty, z, decimals: 4), snapped: false, reclineDegrees: recline))
    }

    /// The rows, rounded (a tenth of a milliradian is far below what a hand holds still).
    static func matrix(_ x: Vector3, _ y: Vector3, _ z: Vector3, decimals: Int = 0) -> MountMatrix {
        let scale = decimals == 0 ? 1.0 : 10_000.0
        return MountMatrix([x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z].map { ($0 * scale).rounded() / scale + 0 })!
    }

    /// The sensor axis (as a unit vector, with its sign) a reading leans on most, and which.
    static func nearestAxis(_ v: Vector3) -> (Vector3, Int) {
        let parts = [v.x, v.y, v.z]
        let i = parts.indices.max { abs(parts[$0]) < abs(parts[$1]) } ?? 0
        let sign: Double = parts[i] < 0 ? -1 : 1
        return ([Vector3(sign, 0, 0), Vector3(0, sign, 0), Vector3(0, 0, sign)][i], i)
    }

    static func recline(_ v: Vector3, _ axis: Vector3) -> Double { degrees(acos(max(-1, min(1, v.dot(axis))))) }

    static func signedDegrees(from u: Vector3, to v: Vector3, about n: Vector3) -> Double {
        degrees(atan2(u.cross(v).dot(n), u.dot(v)))
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

    /// How far apart two matrices' entries may be and still read alike: a few degrees, what a
    /// hand held still cannot tell.
    public static let handTolerance = 0.07

    /// The matrix in use is not the one found by more than a hand can tell, whether or not it
    /// turns the screen wrong.
    public static func differs(inUse: MountMatrix, found: MountMatrix) -> Bool {
        zip(inUse.m, found.m).contains { abs($0 - $1) > handTolerance }
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

/// The 3×3 matrix that turns the sensor's axes into the display's, as in sysfs
/// `mount_matrix` and udev's `ACCEL_MOUNT_MATRIX`: rows separated by `;`,
/// values by `,` — `"0, -1, 0; -1, 0, 0; 0, 0, 1"`.
public struct MountMatrix: Sendable, Hashable, CustomStringConvertible {
    /// Row-major: `m[0...2]` is the first row.
    public var m: [Double]

    public static let identity = MountMatrix(unchecked: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    private init(unchecked m: [Double]) { self.m = m }

    /// Nil unless there are exactly nine finite numbers, row-major.
    public init?(_ values: [Double]) {
        guard values.count == 9, values.allSatisfy(\.isFinite) else { return nil }
        self.m = values
    }

    /// Nil unless `parse` takes the text.
    public init?(parsing text: String) {
        guard case .success(let m) = Self.parse(text) else { return nil }
        self = m
    }

    /// Three rows of three finite numbers (a `;` after the last row is read as meant, as
    /// iio-sensor-proxy reads it), that can be a mount: no row or column all zeros, not singular
    /// (as systemd's hwdb checker and iio-sensor-proxy refuse them). Such a matrix would make
    /// every reading lie in a plane or on a line, and no orientation would ever come.
    public static func parse(_ text: String) -> Result<MountMatrix, Problem> {
        var rows = text.split(separator: ";", omittingEmptySubsequences: false)
        if rows.count == 4, rows[3].allSatisfy(\.isWhitespace) { rows.removeLast() }
        guard rows.count == 3 else { return .failure(.shape) }
        var values: [Double] = []
        for row in rows {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else { return .failure(.shape) }
            for cell in cells {
                guard let v = Double(String(cell.filter { !$0.isWhitespace })), v.isFinite else { return .failure(.shape) }
                values.append(v)
            }
        }
        let m = MountMatrix(unchecked: values)
        if let problem = m.problem { return .failure(problem) }
        return .success(m)
    }

    /// A matrix `parse` refused only because its third row repeats what the first two say (it is
    /// singular, or a column is all zeros, and no row is), read as it is: for a repair.
    public static func refusedForItsThirdRow(_ text: String) -> MountMatrix? {
        switch parse(text) {
        case .failure(.singular), .failure(.zeroColumn): break
        default: return nil
        }
        let numbers = text.split(whereSeparator: { $0 == ";" || $0 == "," }).compactMap { Double(String($0.filter { !$0.isWhitespace })) }
        guard numbers.count == 9, numbers[6..<9].contains(where: { $0 != 0 }) else { return nil }
        return MountMatrix(unchecked: numbers)
    }

    /// What `MountMatrixChoice` uses in place of a matrix refused only for its third row: its
    /// first two rows with a third made from them; nil for any other matrix.
    public static func repairedForItsThirdRow(_ text: String) -> MountMatrix? {
        refusedForItsThirdRow(text)?.withThirdRowFromTheFirstTwo
    }

    /// Why a matrix cannot be a mount.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        case shape
        /// Row `n` (from 1) is all zeros.
        case zeroRow(Int)
        case zeroColumn(Int)
        case singular

        public var description: String {
            switch self {
            case .shape: "not three rows of three numbers"
            case .zeroRow(let n): "row \(n) is all zeros"
            case .zeroColumn(let n): "column \(n) is all zeros"
            case .singular: "it is singular (its rows lie in one plane): it cannot be a mount"
            }
        }
    }

    /// Why this matrix cannot be a mount; nil when it can.
    public var problem: Problem? {
        for r in 0..<3 where (0..<3).allSatisfy({ m[r * 3 + $0] == 0 }) { return .zeroRow(r + 1) }
        for c in 0..<3 where (0..<3).allSatisfy({ m[$0 * 3 + c] == 0 }) { return .zeroColumn(c + 1) }
        let minors: [Double] = [m[4] * m[8] - m[5] * m[7], m[3] * m[8] - m[5] * m[6], m[3] * m[7] - m[4] * m[6]]
        let det: Double = m[0] * minors[0] - m[1] * minors[1] + m[2] * minors[2]
        // Measured against the largest a determinant of these rows can be (their norms' product).
        var bound = 1.0
        for r in 0..<3 {
            let row = m[(r * 3)..<(r * 3 + 3)]
            bound *= row.map { $0 * $0 }.reduce(0, +).squareRoot()
        }
        return abs(det) <= 1e-6 * bound ? .singular : nil
    }

    /// The same first two rows with a third made from them (their cross product), where only the
    /// third row keeps the matrix from being a mount: systemd's own hwdb carries two such (BUSH's Windows
    /// tablet, `1, 0, 0; 0, -1, 0; 1, 0, 0`, and Insyde's i101c), written when only the first
    /// two rows mattered. How the device is held in its plane comes from those two alone, as
    /// iio-sensor-proxy reads it; the third tells face up from face down. Nil when the first two
    /// rows are no mount either.
    public var withThirdRowFromTheFirstTwo: MountMatrix? {
        let a = Array(m[0..<3]), b = Array(m[3..<6])
        let cross = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        func norm(_ v: [Double]) -> Double { v.map { $0 * $0 }.reduce(0, +).squareRoot() }
        let lengths = norm(a) * norm(b)
        // The two rows independent of each other (as a mount's are).
        guard lengths > 0, norm(cross) > 1e-6 * lengths else { return nil }
        // Of the rows' own length (their geometric mean), so that every axis keeps its scale.
        let third = cross.map { $0 / norm(cross) * lengths.squareRoot() }
        let made = MountMatrix(unchecked: a + b + third)
        return made.problem == nil ? made : nil
    }

    /// `M · v`.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
        (m[0] * x + m[1] * y + m[2] * z,
         m[3] * x + m[4] * y + m[5] * z,
         m[6] * x + m[7] * y + m[8] * z)
    }

    public var description: String {
        func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v) }
        return stride(from: 0, to: 9, by: 3).map { r in
            (0..<3).map { f(m[r + $0]) }.joined(separator: ", ")
        }.joined(separator: "; ")
    }
}

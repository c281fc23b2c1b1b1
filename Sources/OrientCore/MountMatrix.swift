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

    /// Nil unless there are exactly three rows of three finite numbers.
    public init?(parsing text: String) {
        let rows = text.split(separator: ";", omittingEmptySubsequences: false)
        guard rows.count == 3 else { return nil }
        var values: [Double] = []
        for row in rows {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else { return nil }
            for cell in cells {
                guard let v = Double(String(cell.filter { !$0.isWhitespace })) else { return nil }
                values.append(v)
            }
        }
        self.init(values)
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

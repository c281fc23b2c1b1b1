/// A reading in m/s², in the display's frame (IIO convention: the gravity direction;
/// upright `normal` ≈ (0, −g, 0), lying face up ≈ (0, 0, −g)).
public struct Vector3: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inline(__always)
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x; self.y = y; self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    @inline(__always) public var length: Double { (x * x + y * y + z * z).squareRoot() }
    @inline(__always) public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    @inline(__always)
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inline(__always)
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inline(__always)
    public static func * (a: Vector3, k: Double) -> Vector3 { Vector3(a.x * k, a.y * k, a.z * k) }
    @inline(__always)
    public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }
}

/// Standard gravity, m/s².
public let standardGravity = 9.80665

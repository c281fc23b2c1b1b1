import Foundation
import TestSupport
@testable import OrientCore

/// Builds accelerometer readings for detector tests: a pose (in-plane angle, recline) over
/// time plus optional linear acceleration, sampled at a fixed rate with seeded noise.
/// Angles: 0 normal, 90 left-up, 180 bottom-up, 270 right-up; recline 0 upright, 90 face up,
/// -90 face down.
struct MotionScript {
    private(set) var samples: [(t: Double, v: Vector3)] = []
    var rate = 50.0
    var noise = 0.05
    private(set) var t = 0.0
    private(set) var angle: Double
    private(set) var recline: Double
    private var rng: SplitMix64

    init(angle: Double = 0, recline: Double = 15, seed: UInt64 = 1) {
        self.angle = angle
        self.recline = recline
        self.rng = SplitMix64(seed: seed)
    }

    static func reading(angle: Double, recline: Double) -> Vector3 {
        let a = angle * .pi / 180, r = recline * .pi / 180
        return Vector3(standardGravity * sin(a) * cos(r), -standardGravity * cos(a) * cos(r), -standardGravity * sin(r))
    }

    /// Appends samples for `seconds`; `pose(s)` gives (angle, recline, acceleration) at progress s in 0...1.
    mutating func add(_ seconds: Double, _ pose: (Double) -> (Double, Double, Vector3)) {
        let end = t + seconds
        let start = t
        while t < end {
            let (a, r, acc) = pose((t - start) / seconds)
            let g = Self.reading(angle: a, recline: r) - acc
            samples.append((t, g + Vector3(rng.gaussian() * noise, rng.gaussian() * noise, rng.gaussian() * noise)))
            t += 1 / rate
        }
        let (a, r, _) = pose(1)
        angle = a
        recline = r
    }

    mutating func hold(_ seconds: Double) {
        let (a, r) = (angle, recline)
        add(seconds) { _ in (a, r, .zero) }
    }

    /// Turns by `degrees` (clockwise positive) in `seconds`, with a minimum-jerk profile.
    mutating func turn(_ degrees: Double, in seconds: Double, reclineTo: Double? = nil) {
        let (a0, r0) = (angle, recline)
        let r1 = reclineTo ?? r0
        add(seconds) { s in
            let p = minimumJerk(s)
            return (a0 + degrees * p, r0 + (r1 - r0) * p, .zero)
        }
    }

    mutating func reclineTo(_ target: Double, in seconds: Double) {
        let (a0, r0) = (angle, recline)
        add(seconds) { s in (a0, r0 + (target - r0) * minimumJerk(s), .zero) }
    }

    /// A time without samples (a stalled sensor).
    mutating func gap(_ seconds: Double) { t += seconds }

    mutating func append(_ v: Vector3) {
        samples.append((t, v))
        t += 1 / rate
    }

    /// Runs a fresh detector over the samples and returns its changes.
    func run(_ config: DetectionConfig = DetectionConfig(), savedFelt: Orientation? = nil) -> [Detector.Change] {
        var d = Detector(config: config, savedFelt: savedFelt)
        return samples.compactMap { d.add($0.v, at: $0.t) }
    }

    func detector(_ config: DetectionConfig = DetectionConfig()) -> Detector {
        var d = Detector(config: config)
        for s in samples { _ = d.add(s.v, at: s.t) }
        return d
    }
}

func minimumJerk(_ s: Double) -> Double {
    let x = min(1, max(0, s))
    return x * x * x * (10 - 15 * x + 6 * x * x)
}

/// A small seeded generator, so that every test run sees the same noise.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func gaussian() -> Double {
        let u1 = max(Double.leastNonzeroMagnitude, Double.random(in: 0..<1, using: &self))
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

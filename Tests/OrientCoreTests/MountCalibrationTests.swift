import Glibc  // for the libm functions (acos, asin, cos) only
import Testing
@testable import OrientCore

/// `calibrate`'s decisions without a sensor: a person holding a wrongly mounted device in two
/// poses (with a hand's tremor, the turn between them, sometimes reclined), and what it makes of
/// them; `MountCalibrationTests.Hand` plays the person.
struct MountCalibrationTests {
    /// Every proper axis-aligned mount that keeps the screen's normal on an axis of its own: the
    /// four turns in the plane and the four half turns about an axis in it (each a rotation).
    static let mounts: [MountMatrix] = [
        "1, 0, 0; 0, 1, 0; 0, 0, 1", "0, -1, 0; 1, 0, 0; 0, 0, 1", "-1, 0, 0; 0, -1, 0; 0, 0, 1",
        "0, 1, 0; -1, 0, 0; 0, 0, 1", "1, 0, 0; 0, -1, 0; 0, 0, -1", "-1, 0, 0; 0, 1, 0; 0, 0, -1",
        "0, 1, 0; 1, 0, 0; 0, 0, -1", "0, -1, 0; -1, 0, 0; 0, 0, -1",
    ].map { MountMatrix(parsing: $0)! }

    /// A turn in the screen's plane by `degrees`, after `mount`: a sensor a little off its axes.
    static func tilted(_ mount: MountMatrix, by degrees: Double) -> MountMatrix {
        let a = degrees * .pi / 180
        let r = [cos(a), -sin(a), 0, sin(a), cos(a), 0, 0, 0, 1]
        var m = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { m[i * 3 + j] = (0..<3).map { r[i * 3 + $0] * mount.m[$0 * 3 + j] }.reduce(0, +) } }
        return MountMatrix(m)!
    }

    /// What a sensor mounted so reads when the display feels `d` (the mount's transpose: its inverse).
    static func sensor(_ d: Vector3, mount: MountMatrix) -> Vector3 {
        let m = mount.m
        return Vector3(m[0] * d.x + m[3] * d.y + m[6] * d.z, m[1] * d.x + m[4] * d.y + m[7] * d.z,
                       m[2] * d.x + m[5] * d.y + m[8] * d.z)
    }

    /// The person: holds, turns, trembles (a few tenths of m/s², seeded), at 50 Hz.
    struct Hand {
        var calibration: MountCalibration
        let mount: MountMatrix
        var t = 0.0
        var seed: UInt64 = 7
        var steps: [MountCalibration.Step] = []

        init(mount: MountMatrix, inUse: MountMatrix = .identity, faceUp: Bool = false) {
            self.mount = mount
            calibration = MountCalibration(inUse: inUse, faceUp: faceUp)
            steps = calibration.start()
        }

        mutating func noise(_ amplitude: Double) -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 11) / Double(1 << 53) * 2 - 1) * amplitude
        }

        /// Holds the display so that it feels `d` (in g) for `seconds`, trembling by `tremor` m/s².
        mutating func hold(_ d: Vector3, seconds: Double, tremor: Double = 0.25) {
            let end = t + seconds
            while t < end && !calibration.isDone {
                let felt = d * standardGravity + Vector3(noise(tremor), noise(tremor), noise(tremor))
                steps += calibration.feed(t: t, MountCalibrationTests.sensor(felt, mount: mount))
                t += 0.02
            }
        }

        /// Turns from `a` to `b` over `seconds` (through the angle between them).
        mutating func turn(from a: Vector3, to b: Vector3, seconds: Double = 0.6) {
            let n = Int(seconds / 0.02)
            for i in 0..<n where !calibration.isDone {
                let f = Double(i) / Double(n)
                let d = (a * (1 - f) + b * f).unit
                steps += calibration.feed(t: t, MountCalibrationTests.sensor(d * standardGravity + Vector3(noise(1.5), noise(1.5), 0), mount: mount))
                t += 0.02
            }
        }

        var solved: (MountCalibration.Step, MountSolver.Solution?) {
            for step in steps { if case .solved(let s, _) = step { return (step, s) } }
            return (.hold(.normal), nil)
        }

        var problems: [MountCalibration.Problem] {
            steps.compactMap { if case .problem(_, let p) = $0 { return p } else { return nil } }
        }
    }

    static let upright = Vector3(0, -1, 0), leftUp = Vector3(1, 0, 0), bottomUp = Vector3(0, 1, 0), flat = Vector3(0, 0, -1)

    static func close(_ a: MountMatrix, _ b: MountMatrix, within: Double = 0.02) -> Bool {
        zip(a.m, b.m).allSatisfy { abs($0 - $1) <= within }
    }

    @Test(arguments: mounts.indices)
    func twoPosesGiveTheMountExactly(_ i: Int) {
        var hand = Hand(mount: Self.mounts[i])
        hand.hold(Self.upright, seconds: 2)
        hand.turn(from: Self.upright, to: Self.leftUp)
        hand.hold(Self.leftUp, seconds: 2)
        let solution = hand.solved.1
        #expect(solution?.matrix == Self.mounts[i], "\(hand.steps)")
        #expect(solution?.snapped == true)
        #expect(hand.problems.isEmpty, "\(hand.problems)")
        #expect(hand.t < 6, "took \(hand.t) s")
    }

    @Test func aSensorTwelveDegreesOffItsAxesIsNotSnapped() {
        let mount = Self.tilted(Self.mounts[1], by: 12)
        var hand = Hand(mount: mount)
        hand.hold(Self.upright, seconds: 2, tremor: 0.1)
        hand.turn(from: Self.upright, to: Self.leftUp)
        hand.hold(Self.leftUp, seconds: 2, tremor: 0.1)
        let solution = hand.solved.1
        #expect(solution?.snapped == false)
        #expect(solution.map { Self.close($0.matrix, mount) } == true, "\(String(describing: solution)) for \(mount)")
    }

    @Test func aTabletReadInBedGivesTheSameMountAsOneHeldUpright() {
        // Leaning back 35° in both poses: the screen faces up, gravity has a share along its normal.
        let s = sin(35 * Double.pi / 180), c = cos(35 * Double.pi / 180)
        let reclinedUpright = Vector3(0, -c, -s), reclinedLeftUp = Vector3(c, 0, -s)
        var hand = Hand(mount: Self.mounts[3])
        hand.hold(reclinedUpright, seconds: 2)
        hand.turn(from: reclinedUpright, to: reclinedLeftUp)
        hand.hold(reclinedLeftUp, seconds: 2)
        #expect(hand.solved.1?.matrix == Self.mounts[3])
        #expect(abs((hand.solved.1?.reclineDegrees ?? 0) - 35) < 3)
    }

    @Test func movingFlatAndAHalfTurnAreSaidAndNeverGiveAMatrix() {
        var moving = Hand(mount: Self.mounts[2])
        moving.hold(Self.upright, seconds: 6, tremor: 3)
        #expect(moving.problems == [.moving])
        #expect(moving.solved.1 == nil)

        var flat = Hand(mount: Self.mounts[2])
        flat.hold(Self.flat, seconds: 3)
        #expect(flat.problems == [.flat], "said once while it lies there")
        // Picked up and held as read: taken.
        flat.turn(from: Self.flat, to: Self.upright)
        flat.hold(Self.upright, seconds: 2)
        #expect(flat.steps.contains(.hold(.leftUp)))

        var half = Hand(mount: Self.mounts[2])
        half.hold(Self.upright, seconds: 2)
        half.turn(from: Self.upright, to: Self.leftUp, seconds: 0.3)
        half.turn(from: Self.leftUp, to: Self.bottomUp, seconds: 0.3)
        half.hold(Self.bottomUp, seconds: 3)
        guard case .notAQuarterTurn(let degrees)? = half.problems.first else {
            Issue.record("\(half.steps)")
            return
        }
        #expect(degrees > 170)
        #expect(half.solved.1 == nil)
        // The retry: turned back to left-up, it is taken.
        half.turn(from: Self.bottomUp, to: Self.leftUp)
        half.hold(Self.leftUp, seconds: 2)
        #expect(half.solved.1?.matrix == Self.mounts[2])
    }

    @Test func aPoseIsTheMeanOfEnoughReadingsNotOfThreeASecond() {
        // Read three times a second (a still device's pace), the tremor stays in the mean.
        var calibration = MountCalibration(inUse: .identity)
        var steps: [MountCalibration.Step] = []
        for i in 0..<12 { steps += calibration.feed(t: Double(i) / 3, Vector3(0, -standardGravity, 0)) }
        #expect(!steps.contains { if case .held = $0 { return true } else { return false } }, "\(steps)")
    }

    @Test(arguments: [(78.0, 0.0, 30.0), (100.0, 20.0, 0.0), (84.0, 10.0, 40.0)])
    func aHandsShortOrLongTurnAndUnequalLeaningGiveTheMountExactly(_ turn: Double, _ leanFirst: Double, _ leanSecond: Double) {
        // Turned by `turn` degrees (not 90), leaning back by different amounts in each pose.
        func held(_ degrees: Double, leaning: Double) -> Vector3 {
            let r = degrees * .pi / 180, back = leaning * .pi / 180
            return Vector3(sin(r) * cos(back), -cos(r) * cos(back), -sin(back))
        }
        let first = held(0, leaning: leanFirst), second = held(turn, leaning: leanSecond)
        for mount in [Self.mounts[1], Self.mounts[6]] {
            var hand = Hand(mount: mount)
            hand.hold(first, seconds: 2)
            hand.turn(from: first, to: second)
            hand.hold(second, seconds: 2)
            #expect(hand.solved.1?.matrix == mount, "turned \(turn)°, leaning \(leanFirst)° then \(leanSecond)°: \(hand.steps)")
        }
    }

    @Test func turnedRightEdgeUpInsteadLyingFaceUpTellsIt() {
        var hand = Hand(mount: Self.mounts[1], faceUp: true)
        hand.hold(Self.upright, seconds: 2)
        hand.turn(from: Self.upright, to: Vector3(-1, 0, 0))
        hand.hold(Vector3(-1, 0, 0), seconds: 2)
        hand.turn(from: Vector3(-1, 0, 0), to: Self.flat)
        hand.hold(Self.flat, seconds: 2)
        guard case .solved(_, faceUp: .mirrored)? = hand.steps.last else {
            Issue.record("a right-edge-up turn went unnoticed: \(hand.steps)")
            return
        }
    }

    @Test func aPoseTheMatrixInUseReadsFlatIsTakenWhenHeldSoLong() {
        // A wrong config puts the sensor's y on the display's z: upright reads flat with it.
        let wrong = MountMatrix(parsing: "1, 0, 0; 0, 0, 1; 0, 1, 0")!
        var hand = Hand(mount: .identity, inUse: wrong)
        hand.hold(Self.upright, seconds: 8)
        #expect(hand.problems == [.flat], "said once")
        #expect(hand.steps.contains(.hold(.leftUp)), "then taken: \(hand.steps)")
    }

    @Test func waitingAtTheFirstPoseIsNotMovingNorASecondPose() {
        var hand = Hand(mount: Self.mounts[1])
        hand.hold(Self.upright, seconds: 12)
        #expect(hand.problems.isEmpty)
        #expect(hand.steps.filter { if case .held = $0 { return true } else { return false } }.count == 1)
    }

    @Test func lyingFaceUpConfirmsAMountAndTellsAMirroredSensor() {
        var proper = Hand(mount: Self.mounts[5], faceUp: true)
        proper.hold(Self.upright, seconds: 2)
        proper.turn(from: Self.upright, to: Self.leftUp)
        proper.hold(Self.leftUp, seconds: 2)
        #expect(proper.steps.contains(.hold(.faceUp)))
        proper.turn(from: Self.leftUp, to: Self.flat)
        proper.hold(Self.flat, seconds: 2)
        #expect(proper.solved.0 == .solved(proper.solved.1!, faceUp: .confirmed))

        // x and y swapped: a mirror, which no rotation makes right.
        let mirror = MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1")!
        var mirrored = Hand(mount: mirror, faceUp: true)
        mirrored.hold(Self.upright, seconds: 2)
        mirrored.turn(from: Self.upright, to: Self.leftUp)
        mirrored.hold(Self.leftUp, seconds: 2)
        mirrored.turn(from: Self.leftUp, to: Self.flat)
        mirrored.hold(Self.flat, seconds: 2)
        guard case .solved(_, faceUp: .mirrored)? = mirrored.steps.last else {
            Issue.record("\(mirrored.steps)")
            return
        }
    }

    @Test func whatThePersonWillSeeChangeIsWorkedOutPerOrientation() {
        // The sensor turned a quarter: held left-up, today's identity shows right-up.
        let right = Self.mounts[1]
        let changes = MountSolver.changes(from: .identity, to: right)
        #expect(changes.count == 4)
        #expect(changes.first { $0.held == .leftUp }?.today == MountSolver.orientation(of: Self.sensor(Self.leftUp, mount: right)))
        #expect(MountSolver.changes(from: right, to: right).isEmpty)
        // Half turned about the long axis: left and right swapped, upright right.
        let flipped = MountSolver.changes(from: .identity, to: Self.mounts[5])
        #expect(flipped.map(\.held) == [.leftUp, .rightUp])
    }

    @Test func itReadsAtTheFullRateOnTheScheduleNeverFromABuffer() {
        var config = Config()
        config.detection.heldHz = 5
        config.detection.aloneHz = 1
        config.device.buffered = true
        let reading = MountCalibration.reading(config)
        #expect(reading.detection.heldHz == config.detection.rateHz && reading.detection.aloneHz == config.detection.rateHz)
        #expect(reading.device.buffered == false)
        #expect(SamplingPlan(reading.detection).aloneHz == config.detection.rateHz)
    }

    @Test func aMatrixAFewDegreesTruerDiffersButAHandsNoiseDoesNot() {
        let right = Self.mounts[1]
        #expect(!MountSolver.differs(inUse: right, found: right))
        #expect(MountSolver.differs(inUse: .identity, found: right))
        // Turned 2° (entries 0.035 apart): what a still hand cannot tell. 6° (0.105): truer.
        func turned(_ degrees: Double) -> MountMatrix {
            let c = cos(degrees * .pi / 180), s = sin(degrees * .pi / 180)
            return MountMatrix([c, -s, 0, s, c, 0, 0, 0, 1])!
        }
        #expect(!MountSolver.differs(inUse: .identity, found: turned(2)))
        #expect(MountSolver.differs(inUse: .identity, found: turned(6)))
    }

    /// A sensor that reads `reading(i)` for the i-th sample, at 50 Hz for `seconds`: the steps.
    static func sensor(reading: (Int) -> Vector3, seconds: Double) -> [MountCalibration.Step] {
        var calibration = MountCalibration(inUse: .identity)
        var steps = calibration.start()
        for i in 0..<Int(seconds * 50) where !calibration.isDone {
            steps += calibration.feed(t: Double(i) * 0.02, reading(i))
        }
        return steps
    }

    static func problems(_ steps: [MountCalibration.Step]) -> [MountCalibration.Problem] {
        steps.compactMap { if case .problem(_, let p) = $0 { return p } else { return nil } }
    }

    @Test func aSensorThatReadsNothingEndsItWithWhyNotAsMoving() {
        // (0, 0, 0), or a few counts of noise about it: no direction to hold still.
        let steps = Self.sensor(reading: { i in Vector3(0, i % 2 == 0 ? 0.01 : 0, 0) }, seconds: 10)
        #expect(Self.problems(steps).isEmpty, "\(steps)")
        #expect(steps.last == .failed(.readsNothing))
        #expect(Self.sensor(reading: { _ in .zero }, seconds: 5.5).last == .hold(.normal), "a moment of nothing is not yet a fault")
    }

    @Test func aSensorThatReadsSteadilyNotGravityEndsItWithWhatItReads() {
        // Saturated on two axes (or a scale three times too large): 3 g, held still.
        let steps = Self.sensor(reading: { _ in Vector3(0, -3 * standardGravity, 0.5) }, seconds: 10)
        #expect(Self.problems(steps).isEmpty, "\(steps)")
        guard case .failed(.notGravity(let magnitude))? = steps.last else {
            Issue.record("\(steps)")
            return
        }
        #expect(abs(magnitude - 29.43) < 0.1)
    }

    @Test func readingsThatAreNotNumbersEndItButAStrayOneIsDropped() {
        let nan = Vector3(.nan, 0, 0)
        #expect(Self.sensor(reading: { _ in nan }, seconds: 10).last == .failed(.notANumber))
        // Mostly NaN, a number now and then: too few to say the person moves.
        let mostly = Self.sensor(reading: { i in i % 10 == 0 ? Vector3(0, -standardGravity, 0) : nan }, seconds: 10)
        #expect(Self.problems(mostly).isEmpty && mostly.last == .failed(.notANumber), "\(mostly)")
        // One in fifty: the pose is taken from the rest.
        let stray = Self.sensor(reading: { i in i % 50 == 7 ? nan : Vector3(0.1, -standardGravity, 0.3) }, seconds: 3)
        #expect(stray.contains(.hold(.leftUp)), "\(stray)")
    }

    @Test func aDeviceThatGoesMidPoseEndsItAtOnce() {
        var hand = Hand(mount: Self.mounts[1])
        hand.hold(Self.upright, seconds: 2)
        #expect(hand.steps.contains(.hold(.leftUp)))
        #expect(hand.calibration.deviceGone("it was unplugged") == [.failed(.gone("it was unplugged"))])
        #expect(hand.calibration.isDone && hand.solved.1 == nil)
        #expect(hand.calibration.deviceGone("again") == [], "said once")
    }

    @Test func aPersonMovingForLongIsNeverTakenForAFault() {
        var moving = Hand(mount: Self.mounts[0])
        moving.hold(Self.upright, seconds: 30, tremor: 4)
        #expect(!moving.steps.contains { if case .failed = $0 { return true } else { return false } })
        #expect(moving.problems.allSatisfy { $0 == .moving } && moving.problems.count >= 5)
    }
}

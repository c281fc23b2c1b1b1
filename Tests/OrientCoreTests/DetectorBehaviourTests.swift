import Foundation
import Testing
@testable import OrientCore

/// Each behaviour the detector promises, one test each.
@Suite struct DetectorBehaviourTests {
    func orientations(_ changes: [Detector.Change]) -> [Orientation] { changes.map(\.orientation) }

    @Test func anUprightStartIsReportedWithin300ms() throws {
        var m = MotionScript(angle: 90)
        m.hold(2)
        let changes = m.run()
        #expect(orientations(changes) == [.leftUp])
        #expect(try #require(changes.first).t < 0.3)
    }

    @Test func flatHoldKeepsTheFeltOrientationAndReportsNothing() {
        var m = MotionScript(angle: 270)
        m.hold(1)
        m.reclineTo(90, in: 0.8)
        m.hold(6)
        #expect(orientations(m.run()) == [.rightUp])
        #expect(m.detector().posture == .faceUp)
        #expect(m.detector().felt == .rightUp)
    }

    @Test func aFlatStartReportsNothingUntilPickUpThenWaitsTheHoldOff() throws {
        var m = MotionScript(angle: 0, recline: 90)
        m.hold(3)
        #expect(m.run().isEmpty)
        m.turn(90, in: 0.8, reclineTo: 20)   // picked up into left-up
        let pickedUp = m.t
        m.hold(2)
        let changes = m.run()
        #expect(orientations(changes) == [.leftUp])
        let config = DetectionConfig()
        // Not before the hold-off after the tilt left the flat zone (which is during the pick-up).
        #expect(try #require(changes.first).t > pickedUp - 0.8 + config.pickupHoldoffMs / 1000)
    }

    @Test func aSavedOrientationIsUsedAtOnceAndTheFirstRealOneTakesOver() {
        var m = MotionScript(angle: 0, recline: 90)
        m.hold(2)
        var d = Detector(savedFelt: .leftUp)
        #expect(d.felt == .leftUp && !d.confirmed)
        for s in m.samples { #expect(d.add(s.v, at: s.t) == nil) }
        #expect(d.felt == .leftUp)
        m.reclineTo(20, in: 0.6)
        m.hold(1)
        #expect(orientations(m.run(savedFelt: .leftUp)) == [.normal])
    }

    @Test func faceDownKeepsTheOrientation() {
        var m = MotionScript(angle: 180)
        m.hold(1)
        m.reclineTo(-90, in: 0.8)
        m.hold(5)
        #expect(orientations(m.run()) == [.bottomUp])
        #expect(m.detector().posture == .faceDown)
    }

    @Test func aSwingOutAndBackDoesNotRotate() {
        var m = MotionScript(angle: 0)
        m.hold(1)
        m.add(0.4) { s in (70 * sin(.pi * s), 15, .zero) }   // swung 70° out and straight back
        m.hold(2)
        #expect(orientations(m.run()) == [.normal])
    }

    @Test func aBumpDoesNotRotate() {
        var m = MotionScript(angle: 90)
        m.hold(1)
        // 15 m/s² sideways for 150 ms: the reading points towards another edge for a moment.
        m.add(0.15) { s in (90, 15, Vector3(0, 15 * sin(.pi * s), 0)) }
        m.hold(2)
        #expect(orientations(m.run()) == [.leftUp])
    }

    @Test func walkingDoesNotRotate() {
        var m = MotionScript(angle: 0, recline: 20)
        m.hold(1)
        m.add(15) { s in
            let t = s * 15
            let bounce = 3 * sin(2 * .pi * 2.0 * t)          // 3 m/s² at 2 Hz, along gravity
            let g = MotionScript.reading(angle: 4 * sin(.pi * 2.0 * t), recline: 20)
            return (4 * sin(.pi * 2.0 * t), 20, g * (bounce / standardGravity))
        }
        m.hold(1)
        #expect(orientations(m.run()) == [.normal])
    }

    /// A pose held still a few degrees past a boundary takes the nearer orientation; once taken,
    /// coming back a little does not undo it (the hysteresis of a held pose serves once per motion).
    @Test func aHeldPosePastTheBoundaryTakesTheNearerOrientationOnce() throws {
        let config = DetectionConfig()
        var m = MotionScript(angle: 0)
        m.hold(1)
        m.turn(45 + config.hysteresisDeg - 5, in: 0.5)     // 55°: past 45°, not past the hysteresis
        let stopped = m.t
        m.hold(1.5)
        var changes = m.run()
        #expect(orientations(changes) == [.normal, .leftUp])
        #expect(try #require(changes.last).t - stopped < 0.4)
        m.turn(-12, in: 0.4)                             // 43°: 2° on normal's side, the same motion
        m.hold(2)
        changes = m.run()
        #expect(orientations(changes) == [.normal, .leftUp])
    }

    /// A hand wavering across a boundary, never far past it, turns the screen at most once.
    @Test func aHandWaveringAcrossTheBoundaryTurnsAtMostOnce() {
        var m = MotionScript(angle: 0)
        m.hold(1)
        m.turn(45, in: 0.5)
        m.add(6) { s in (45 + 9 * sin(2 * .pi * 9 * s), 15, .zero) }   // ±9° at 1.5 Hz for 6 s
        m.hold(1)
        let turns = orientations(m.run())
        #expect(turns.first == .normal)
        #expect(turns.count <= 2)
    }

    /// Handling — the device waved about, out and back — shows each swing's far end for a moment
    /// in another orientation: no turn there. A hold after it turns within 0.4 s.
    @Test func aSwingsFarEndDuringHandlingDoesNotTurnButAHoldAfterItDoes() throws {
        var m = MotionScript(angle: 0)
        m.hold(1)
        m.turn(-30, in: 0.3)                             // a first swing the other way
        for _ in 0..<4 {
            m.turn(120, in: 0.45)                        // out to 90°, left-up's centre, and back
            m.turn(-120, in: 0.45)
        }
        m.turn(120, in: 0.45)
        let held = m.t
        m.hold(2)                                        // and now held at left-up
        let changes = m.run()
        #expect(orientations(changes) == [.normal, .leftUp])
        #expect(try #require(changes.last).t - held < 0.4)
    }

    /// One deliberate turn from a hold is taken as it comes to rest, not after a dwell.
    @Test func aDeliberateTurnIsTakenAsItComesToRest() throws {
        var m = MotionScript(angle: 0)
        m.hold(1)
        m.turn(90, in: 0.6)
        let ended = m.t
        m.hold(1)
        let changes = m.run()
        #expect(orientations(changes) == [.normal, .leftUp])
        #expect(try #require(changes.last).t - ended < 0.15)
    }

    /// A sensor whose scale is a fifth off reads 1.2 g at rest: what it reads at rest is learned,
    /// so that it does not look accelerated for ever, and it still turns.
    @Test func aSensorAFifthOffScaleStillDecides() throws {
        var m = MotionScript(angle: 0)
        m.hold(2)
        m.turn(-90, in: 0.6)
        m.hold(2)
        let scaled = m.samples.map { (t: $0.t, v: $0.v * 1.2) }
        var d = Detector()
        let changes = scaled.compactMap { d.add($0.v, at: $0.t) }
        #expect(orientations(changes) == [.normal, .rightUp])
        #expect(try #require(changes.first).t < 1.5)
    }

    @Test func readingReclinedAt60DegreesStillRotates() {
        var m = MotionScript(angle: 0, recline: 60)
        m.hold(1)
        m.turn(-90, in: 0.8)
        m.hold(2)
        #expect(orientations(m.run()) == [.normal, .rightUp])
    }

    @Test(arguments: [0.6, 1.0, 1.5])
    func a180DegreeTurnShowsNoInBetweenOrientation(seconds: Double) {
        var m = MotionScript(angle: 0)
        m.hold(1)
        m.turn(180, in: seconds)
        m.hold(2)
        m.turn(-180, in: seconds)
        m.hold(2)
        #expect(orientations(m.run()) == [.normal, .bottomUp, .normal])
    }

    @Test func aTornReadIsIgnored() {
        var m = MotionScript(angle: 0)
        m.hold(1)
        // x from a left-up reading, y and z from the normal one: one impossible sample.
        m.append(Vector3(standardGravity, -standardGravity, 0))
        m.append(Vector3(standardGravity, 0, 0))
        m.hold(2)
        #expect(orientations(m.run()) == [.normal])
    }

    @Test func nanZeroAndSaturatedSamplesAreDroppedWithoutHarm() {
        var m = MotionScript(angle: 270)
        m.hold(1)
        m.append(Vector3(.nan, 0, 0))
        m.append(Vector3(.infinity, -.infinity, 1))
        m.append(.zero)
        for _ in 0..<5 { m.append(Vector3(19.6, 19.6, 19.6)) }   // every axis on the ±2 g rail
        m.hold(2)
        let d = m.detector()
        #expect(orientations(m.run()) == [.rightUp])
        #expect(d.droppedSamples == 3)
        #expect(d.felt == .rightUp)
    }

    @Test func aGapOf1_5SecondsKeepsTheOrientationAndResumesQuickly() throws {
        var m = MotionScript(angle: 0)
        m.hold(1)
        m.gap(1.5)                          // the device was turned while the sensor was silent
        m = { var n = m; n.turn(90, in: 0.001); return n }()
        let resumed = m.t
        m.hold(1)
        let changes = m.run()
        #expect(orientations(changes) == [.normal, .leftUp])
        #expect(try #require(changes.last).t - resumed < 0.3)
    }

    /// A still device is read slowly (`SamplingPlan`); a turn that happens between two slow
    /// readings is taken as soon as two readings at the active rate confirm it, not smoothed from
    /// the stale direction first, and the sensor slows down again with the deciding reading.
    @Test func aTurnBetweenTwoSlowReadingsIsDecidedTwoActiveReadingsLater() throws {
        let plan = SamplingPlan(activeHz: 25)
        var d = Detector()
        var t = 0.0
        while t < 2 {
            _ = d.add(MotionScript.reading(angle: 0, recline: 10), at: t)
            t += 1 / plan.rate(quietFor: d.quietFor(at: t))
        }
        #expect(d.felt == .normal)
        #expect(plan.rate(quietFor: d.quietFor(at: t)) == plan.heldHz)
        let turned = t
        var changes: [Detector.Change] = []
        var rates: [Double] = []
        for k in 0..<3 {
            let at = turned + Double(k) / plan.activeHz
            if let c = d.add(MotionScript.reading(angle: 90, recline: 10), at: at) {
                changes.append(c)
            }
            rates.append(plan.rate(quietFor: d.quietFor(at: at)))
        }
        #expect(orientations(changes) == [.leftUp])
        #expect(abs(try #require(changes.first).t - (turned + 2 / plan.activeHz)) < 1e-9)
        #expect(rates == [plan.activeHz, plan.activeHz, plan.heldHz])
    }

    /// A HID sensor hub that answers each raw read late (0.6 s to 1.5 s: a polled reading of three
    /// is 1.8 s to 4.5 s): every reading is further from the last than `maxGap`, and none is a
    /// pause. Held in a new orientation, it is decided within a few readings.
    @Test(arguments: [1.8, 3.0, 4.5])
    func aDeviceSlowAtEveryReadingStillDecides(every seconds: Double) throws {
        var d = Detector()
        var t = 0.0
        var changes: [Detector.Change] = []
        for _ in 0..<6 {
            if let c = d.add(MotionScript.reading(angle: 0, recline: 10), at: t) { changes.append(c) }
            t += seconds
        }
        #expect(orientations(changes) == [.normal])
        let turned = t
        for _ in 0..<5 {
            if let c = d.add(MotionScript.reading(angle: 90, recline: 10), at: t) { changes.append(c) }
            t += seconds
        }
        #expect(orientations(changes) == [.normal, .leftUp])
        #expect(try #require(changes.last).t - turned <= 3 * seconds + 1e-9, "decided within a few readings")
    }

    /// A sensor read faster than it measures (or one that drops readings) spaces its readings
    /// further apart than the rate asked of it: the settle time follows the real spacing
    /// (10 Hz here), whatever rate was asked for.
    @Test func settlingFollowsTheRealSpacingOfReadings() throws {
        var d = Detector()
        var t = 0.0
        for _ in 0..<20 { _ = d.add(MotionScript.reading(angle: 0, recline: 10), at: t); t += 0.1 }
        #expect(d.felt == .normal)
        let turned = t
        var first: Double?
        for _ in 0..<10 {
            if let c = d.add(MotionScript.reading(angle: 90, recline: 10), at: t), first == nil { first = c.t }
            t += 0.1
        }
        // One reading mid-turn is not a held device: 1.5 real intervals (two more readings) pass first.
        #expect(try #require(first) >= turned + 0.2 - 1e-9)
    }

    @Test func timeGoingBackwardsRestartsTheFilterNotTheOrientation() {
        var d = Detector()
        var t = 0.0
        for _ in 0..<50 { _ = d.add(MotionScript.reading(angle: 90, recline: 10), at: t); t += 0.02 }
        #expect(d.felt == .leftUp)
        for _ in 0..<50 { _ = d.add(MotionScript.reading(angle: 90, recline: 10), at: t - 5); t += 0.02 }
        #expect(d.felt == .leftUp)
    }

    @Test func theSameSamplesGiveTheSameChangesAndOnlyTheTurnsMade() {
        var m = MotionScript(angle: 0, seed: 42)
        m.hold(1); m.turn(90, in: 0.5); m.hold(1); m.turn(180, in: 1); m.hold(1)
        let changes = m.run()
        // Upright at the start, the quarter turn, then the half turn in one step: nothing in
        // between, nothing twice, and each after the turn that made it.
        #expect(changes.map(\.orientation) == [.normal, .leftUp, .rightUp])
        #expect(changes.map(\.t) == changes.map(\.t).sorted() && changes.last.map { $0.t > 2.5 } == true)
        #expect(m.run() == changes)
    }
}

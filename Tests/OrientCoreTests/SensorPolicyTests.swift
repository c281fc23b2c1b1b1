import Foundation
import Testing
@testable import OrientCore

@Suite struct SensorPolicyTests {
    let m1 = "0, 1, 0; -1, 0, 0; 0, 0, 1"
    let m2 = "-1, 0, 0; 0, -1, 0; 0, 0, 1"

    @Test func mountMatrixPrecedenceIsConfigThenUdevThenSysfsThenIdentity() throws {
        let config = try #require(MountMatrix(parsing: m2))
        #expect(MountMatrixChoice.resolve(config: config, udev: m1, sysfs: m1).source == .config)
        #expect(MountMatrixChoice.resolve(config: nil, udev: m1, sysfs: m2) == (MountMatrix(parsing: m1)!, .udev, []))
        #expect(MountMatrixChoice.resolve(config: nil, udev: nil, sysfs: m2 + "\n").source == .sysfs)
        #expect(MountMatrixChoice.resolve(config: nil, udev: "", sysfs: nil) == (.identity, .identity, []))
    }

    @Test func anUnparsableMatrixIsReportedWithItsSourceAndSkipped() {
        let r = MountMatrixChoice.resolve(config: nil, udev: "1, 0; x", sysfs: m1)
        #expect(r.source == .sysfs)
        #expect(r.warnings == ["ignoring udev ACCEL_MOUNT_MATRIX \"1, 0; x\": not three rows of three numbers"])
        let zero = MountMatrixChoice.resolve(config: nil, udev: "1, 0, 0; 0, 1, 0; 0, 0, 0", sysfs: "0, 0, 0; 0, 1, 0; 0, 0, 1",
                                             sysfsName: "in_mount_matrix")
        #expect(zero.source == .identity)
        #expect(zero.warnings == ["ignoring udev ACCEL_MOUNT_MATRIX \"1, 0, 0; 0, 1, 0; 0, 0, 0\": row 3 is all zeros",
                                  "ignoring sysfs in_mount_matrix \"0, 0, 0; 0, 1, 0; 0, 0, 1\": row 1 is all zeros"])
        let both = MountMatrixChoice.resolve(config: nil, udev: "?", sysfs: "1,2,3")
        #expect(both.source == .identity)
        #expect(both.warnings.count == 2)
    }

    @Test func aDeviceLeftToAnotherReaderIsOpenedAgainOnceItsBufferIsOffAndItsNodeFree() {
        let again = ReadingModeChoice.BusyLook.lookAgain(in: Backoff.streamCheckPeriod)
        #expect(ReadingModeChoice.afterBusyLook(bufferOn: true, nodeHeld: false) == again)
        #expect(ReadingModeChoice.afterBusyLook(bufferOn: false, nodeHeld: true) == again, "a reader of its events")
        #expect(ReadingModeChoice.afterBusyLook(bufferOn: false, nodeHeld: false) == .openAgain)
    }

    @Test func theDisplayAccelerometerIsPreferred() {
        let base = AccelerometerCandidate(id: "iio:device0", name: "bmc150", label: "accel-base")
        let lid = AccelerometerCandidate(id: "iio:device1", name: "bmc150", label: "accel-display")
        let located = AccelerometerCandidate(id: "iio:device2", name: "x", location: "display")
        let lidLocation = AccelerometerCandidate(id: "iio:device3", name: "x", location: "lid")
        let plain = AccelerometerCandidate(id: "iio:device4", name: "accel_3d")
        #expect(AccelerometerChoice.choose([base, lid], configured: nil).chosen == lid)
        #expect(AccelerometerChoice.choose([base, located], configured: nil).chosen == located)
        #expect(AccelerometerChoice.choose([base, lidLocation], configured: nil).chosen == lidLocation)
        #expect(AccelerometerChoice.choose([base, plain], configured: nil).chosen == plain)
        #expect(AccelerometerChoice.choose([], configured: nil).chosen == nil)
    }

    @Test func ofTwoInTheDisplayTheFirstDrivesEveryPanelAndTheReasonSaysSo() {
        // A dual-screen device: one accelerometer per half, both placed in the display.
        let upper = AccelerometerCandidate(id: "iio:device0", name: "bmi260", location: "display")
        let lower = AccelerometerCandidate(id: "iio:device1", name: "bmi260", label: "accel-display")
        let base = AccelerometerCandidate(id: "iio:device2", name: "bmc150_accel", location: "base")
        let two = AccelerometerChoice.choose([base, upper, lower], configured: nil)
        #expect(two.chosen == upper)
        #expect(two.reason == "the first of 2 in the display (iio:device0, iio:device1): one drives every panel; name another as [device] sensor to use it")
        #expect(AccelerometerChoice.choose([base, upper, lower], configured: "iio:device1").chosen == lower)
        #expect(AccelerometerChoice.choose([base, upper], configured: nil).reason == "in the display")
        // Nothing says where: the first not in the base, saying which others there are.
        let plain = [AccelerometerCandidate(id: "iio:device3", name: "a"), AccelerometerCandidate(id: "iio:device4", name: "b")]
        #expect(AccelerometerChoice.choose(plain, configured: nil).reason.hasPrefix("the first of 2 not in the base (iio:device3, iio:device4)"))
        #expect(AccelerometerChoice.choose([base, plain[0]], configured: nil).reason == "not in the base")
        #expect(AccelerometerChoice.choose([plain[0]], configured: nil).reason == "the only one")
    }

    @Test func aLoneAccelerometerInTheBaseTurnsNothingUnlessTheConfigNamesIt() {
        let base = AccelerometerCandidate(id: "iio:device0", name: "bmc150_accel", location: "base")
        let labelled = AccelerometerCandidate(id: "iio:device1", name: "bmc150_accel", label: "accel-base")
        let alone = AccelerometerChoice.choose([base], configured: nil)
        #expect(alone.chosen == nil)
        #expect(alone.reason.hasPrefix("the only accelerometer (iio:device0) is in the keyboard base"), "\(alone.reason)")
        #expect(AccelerometerChoice.choose([base, labelled], configured: nil).chosen == nil)
        #expect(AccelerometerChoice.choose([base], configured: "iio:device0").chosen == base)
    }

    @Test func theConfigNamesTheAccelerometerByIdNameOrLabel() {
        let a = AccelerometerCandidate(id: "iio:device0", name: "accel_3d", label: "accel-base")
        let b = AccelerometerCandidate(id: "iio:device1", name: "bmi160", label: "accel-display")
        #expect(AccelerometerChoice.choose([a, b], configured: "iio:device0").chosen == a)
        #expect(AccelerometerChoice.choose([a, b], configured: "accel-base").chosen == a)
        #expect(AccelerometerChoice.choose([a, b], configured: "bmi160").chosen == b)
        let missing = AccelerometerChoice.choose([a, b], configured: "iio:device9")
        #expect(missing.chosen == nil)
        #expect(missing.reason.contains("iio:device0 (accel-base)"))
    }

    @Test func backoffIsQuickThenAtMostOneSecond() {
        var b = Backoff()
        let delays = (0..<8).map { _ in b.next() }
        #expect(delays == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0, 1.0])
        b.reset()
        #expect(b.next() == 0.1)
    }

    @Test func samplingIsFastOnlyWhileTheDetectorIsBusy() {
        let plan = SamplingPlan(activeHz: 25)
        #expect(plan.rate(quietFor: 0) == 25)
        #expect(plan.rate(quietFor: 0.04) == 3)
        #expect(plan.rate(quietFor: plan.aloneAfter - 0.1) == 3)
        #expect(plan.rate(quietFor: plan.aloneAfter) == 1)   // left alone: slower still
        #expect(plan.rate(quietFor: 100, handledFor: plan.aloneAfter - 0.1) == 3)   // but not if a hand moved it
        #expect(plan.rate(quietFor: 0, handledFor: 100) == 25)   // busy is busy
        #expect(SamplingPlan(activeHz: 2).rate(quietFor: 2) == 2)   // held never faster than active
        #expect(SamplingPlan(activeHz: 25, heldHz: 2, aloneHz: 5).rate(quietFor: 100) == 2)   // nor alone faster than held
        #expect(SamplingPlan(activeHz: 25, aloneHz: 0.1).aloneHz > 1 / Detector.maxGap)   // nor slower than the detector can follow
    }

    /// Reads a device through a `PolledSchedule` for `seconds` from `t`, `pose(t)` giving each
    /// reading; returns the rate after each reading, and where it left off.
    private func follow(_ schedule: inout PolledSchedule, _ detector: inout Detector, from start: Double, for seconds: Double,
                        _ pose: (Double) -> Vector3) -> (rates: [Double], end: Double) {
        var t = start
        var rates: [Double] = []
        while t < start + seconds {
            let v = pose(t)
            _ = detector.add(v, at: t)
            schedule.update(reading: v, at: t, quietFor: detector.quietFor(at: t))
            rates.append(schedule.rateHz)
            t = schedule.next(after: t, now: t)
        }
        return (rates, t)
    }

    /// A device left alone and read at the plan's slowest rate stays quiet from one reading to
    /// the next: the schedule does not wake itself back up.
    @Test func aDeviceLeftAloneStaysOnTheSlowestStage() {
        let plan = SamplingPlan(activeHz: 25)
        var schedule = PolledSchedule(plan: plan)
        var d = Detector()
        let (rates, _) = follow(&schedule, &d, from: 0, for: plan.aloneAfter + 10) { _ in MotionScript.reading(angle: 0, recline: 10) }
        #expect(d.felt == .normal)
        #expect(rates.suffix(5) == Array(repeating: plan.aloneHz, count: 5))
    }

    /// A hand never holds a device still: readings that wander by a degree or two from one to
    /// the next keep it on the held stage, though the detector sees nothing to decide. Picked
    /// up after lying still, it is read at the held rate again from the reading that shows it.
    @Test func aDeviceInAHandIsNeverLeftAlone() {
        let plan = SamplingPlan(activeHz: 25)
        var schedule = PolledSchedule(plan: plan)
        var d = Detector()
        // Tremor and drift: the device wanders 2° about its pose, a little under 1 Hz.
        let held = follow(&schedule, &d, from: 0, for: 3 * plan.aloneAfter) { t in
            MotionScript.reading(angle: 2 * sin(5 * t), recline: 20 + 2 * cos(3 * t))
        }
        #expect(d.felt == .normal)
        #expect(held.rates.suffix(20) == Array(repeating: plan.heldHz, count: 20))
        // Put down: still, so alone once aloneAfter has passed without a hand.
        let down = follow(&schedule, &d, from: held.end, for: plan.aloneAfter + 3) { _ in MotionScript.reading(angle: 0, recline: 20) }
        #expect(down.rates.last == plan.aloneHz)
        // Tilted a few degrees (lifted): not a turn, but a hand.
        let lifted = follow(&schedule, &d, from: down.end, for: 1) { _ in MotionScript.reading(angle: 0, recline: 24) }
        #expect(lifted.rates.first == plan.heldHz)
    }

    @Test func theDetectorIsQuietOnlyWhenNothingMoves() {
        var m = MotionScript(angle: 0)
        m.hold(2)
        var d = m.detector()
        #expect(d.quietFor(at: m.t) > 1.5)
        m.turn(90, in: 0.5)
        d = m.detector()
        #expect(d.quietFor(at: m.t) < 0.1)
    }

    @Test(arguments: [
        ("-980\n", Result<Double, RawReading.Problem>.success(-980)),
        ("12", .success(12)),
        ("", .failure(.empty)),
        ("\n", .failure(.empty)),
        ("abc\n", .failure(.notANumber)),
        ("nan\n", .failure(.notFinite)),
        ("inf", .failure(.notFinite)),
        ("32767\n", .failure(.saturated)),
        ("-40000", .failure(.saturated)),
    ])
    func rawReadingsAreChecked(text: String, expected: Result<Double, RawReading.Problem>) {
        #expect(RawReading.parse(text, rail: RawReading.rail()) == expected)
    }

    @Test func saturationIsJudgedByTheChannelsDeclaredBits() {
        // A HID sensor hub's 32-bit channel: 256 000 000 counts (at a scale of 1e-7 g) is 25.6 g,
        // a reading, not a rail.
        #expect(RawReading.parse("256000000\n", rail: RawReading.rail(bits: 32)) == .success(256_000_000))
        #expect(RawReading.parse("2147483647\n", rail: RawReading.rail(bits: 32)) == .failure(.saturated))
        #expect(RawReading.parse("2047\n", rail: RawReading.rail(bits: 12)) == .failure(.saturated))
        #expect(RawReading.parse("40000\n", rail: RawReading.rail(bits: 16, signed: false)) == .success(40000))
        #expect(RawReading.rail() == 32767)
        // A number that is no raw count (a scale, a rate) has no rail.
        #expect(RawReading.parse("40000\n") == .success(40000))
    }

    @Test func aWrongScaleIsReportedOnceAfterTheFirstReadings() {
        var good = ScaleCheck()
        #expect((0..<100).compactMap { _ in good.add(magnitude: 9.7) }.isEmpty)
        var bad = ScaleCheck()
        let warnings = (0..<100).compactMap { _ in bad.add(magnitude: 19.6) }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("readings average 2.0 g") == true)
    }

    @Test func logLinesAreRateLimited() {
        var log = RateLimitedLog(burst: 2, window: 10)
        #expect(log.admit("a", at: 0) == "a")
        #expect(log.admit("a", at: 1) == "a")
        #expect(log.admit("a", at: 2) == nil)
        #expect(log.admit("a", at: 3) == nil)
        #expect(log.admit("a", at: 10) == "a (2 similar lines suppressed)")
        #expect(log.admit("a", at: 11) == "a")
    }
}

@Suite struct BackoffTests {
    @Test func quickAttemptsFirstThenASlowSafetyNetWhileUdevWatchesElseOnceASecond() {
        var watched = Backoff(), unwatched = Backoff()
        let quick = Backoff.delays.map { _ in watched.next(udevWatching: true) }
        #expect(quick == Backoff.delays)
        #expect(watched.quickPhaseOver)
        #expect(watched.next(udevWatching: true) == Backoff.watchedDelay)
        for _ in 0..<10 { _ = unwatched.next() }
        #expect(unwatched.next() == 1.0, "without udev, no less often than once a second")
        watched.reset()
        #expect(!watched.quickPhaseOver && watched.next(udevWatching: true) == 0.1)
    }
}

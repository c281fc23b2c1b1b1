import Testing
@testable import OrientCore

/// The readings judged in the core: what they mean and the pace of the next (the sensor module
/// only reads the device), alone and inside the controller.
@Suite struct PerceptionTests {
    /// Counts of 1 m/s² each, as the device is mounted: a reading of a pose.
    static let plain = Calibration(scale: 1)

    static func raw(_ t: Double, angle: Double, recline: Double = 10) -> RawSample {
        let v = MotionScript.reading(angle: angle, recline: recline)
        return RawSample(t: t, x: v.x, y: v.y, z: v.z)
    }

    static func device(_ mode: ReadingMode, calibration: Calibration = plain) -> Perception.Device {
        Perception.Device(id: "iio:device0", calibration: calibration, mode: mode)
    }

    /// Judges readings of `angle` every `period` seconds from `start` for `seconds`; the pace after each.
    private func hold(_ p: inout Perception, angle: Double, from start: Double, for seconds: Double,
                      every period: Double? = nil, held: Bool = false) -> [Double?] {
        var paces: [Double?] = []
        var t = start
        while t < start + seconds {
            _ = p.judge(Self.raw(t, angle: angle), held: held)
            paces.append(p.readingPeriod)
            t += period ?? p.readingPeriod ?? 1
        }
        return paces
    }

    @Test func aPolledDeviceIsPacedByTheSamplingPlan() {
        var p = Perception(detection: DetectionConfig())
        p.open(Self.device(.polled), at: 0)
        #expect(p.readingPeriod == 1 / p.plan.activeHz)
        let paces = hold(&p, angle: 90, from: 0, for: p.plan.aloneAfter + 5)
        #expect(p.detector.felt == .leftUp)
        #expect(paces.contains(1 / p.plan.heldHz))   // held, once the detector was quiet
        #expect(paces.last == 1 / p.plan.aloneHz)     // and left alone after that
    }

    @Test func aDeviceThatSaysWhenItMovesIsReadOnlyWhileTheDetectorIsBusy() {
        for mode in [ReadingMode.hysteresis, .motionEvents] {
            var p = Perception(detection: DetectionConfig())
            p.open(Self.device(mode), at: 0)
            // It speaks (a turn), then is silent: its last reading is held until the detector is quiet.
            _ = hold(&p, angle: 0, from: 0, for: 0.5, every: 0.02)
            let paces = hold(&p, angle: 90, from: 0.5, for: 2, every: 0.01, held: mode == .hysteresis)
            #expect(p.detector.felt == .leftUp, "\(mode)")
            #expect(paces.first == 1 / QuietDeviceSchedule().rateHz, "\(mode)")
            #expect(paces.last == .some(nil), "\(mode): nothing is due once it is quiet")
        }
    }

    @Test func aStreamingBufferKeepsItsOwnPace() {
        var p = Perception(detection: DetectionConfig())
        p.open(Self.device(.buffer), at: 0)
        let paces = hold(&p, angle: 0, from: 0, for: 8, every: 0.04)
        #expect(Set(paces.map { $0 ?? -1 }) == [1 / p.plan.activeHz])
    }

    @Test func aWrongScaleIsReportedOnceWithTheDeviceAndHeldReadingsAreNoEvidence() {
        var p = Perception(detection: DetectionConfig())
        p.open(Self.device(.polled, calibration: Calibration(scale: 0.1)), at: 0)
        var warnings: [String] = []
        for i in 0..<(2 * ScaleCheck.samples) {
            if let w = p.judge(Self.raw(Double(i) * 0.04, angle: 0), held: true).warning { warnings.append(w) }
        }
        #expect(warnings.isEmpty)
        for i in 0..<(2 * ScaleCheck.samples) {
            if let w = p.judge(Self.raw(4 + Double(i) * 0.04, angle: 0)).warning { warnings.append(w) }
        }
        // Opened again (the sensor released and restarted): said once is enough.
        p.open(Self.device(.polled, calibration: Calibration(scale: 0.1)), at: 8)
        for i in 0..<(2 * ScaleCheck.samples) {
            if let w = p.judge(Self.raw(8 + Double(i) * 0.04, angle: 0)).warning { warnings.append(w) }
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("iio:device0: readings average 0.1 g") == true)
    }

    @Test func readingsWithoutAnOpenDeviceAreIgnored() {
        var p = Perception(detection: DetectionConfig(), savedFelt: .normal)
        #expect(p.judge(Self.raw(0, angle: 90)).change == nil)
        p.open(Self.device(.polled), at: 0)
        p.lose()
        #expect(p.judge(Self.raw(1, angle: 90)).change == nil)
        #expect(p.detector.felt == .normal)
    }

    // MARK: in the controller

    /// The controller's readings, every 40 ms from `start` for `seconds`, of a device held at `angle`.
    private func hold(_ h: inout ControllerHarness, angle: Double, from start: Double, for seconds: Double) -> [ControllerCommand] {
        var out: [ControllerCommand] = []
        var t = start
        while t < start + seconds {
            out += h.send(.reading(Self.raw(t, angle: angle), held: false))
            t += 0.04
        }
        return out
    }

    @Test func aTurnReadByTheControllerTurnsThePanelAndSaysWhichReadingDecided() {
        var h = ControllerHarness()
        #expect(h.sensorRunning)
        h.send(.sensorOpened(Self.device(.polled), at: 0))
        var out = hold(&h, angle: 0, from: 0, for: 1)
        #expect(h.panel == .normal)
        out += hold(&h, angle: 90, from: 1, for: 2)
        #expect(h.panel == .leftUp)
        // Each decision carries the time of the reading that made it, as the sensor stamped it.
        let decisions = out.compactMap { if case .runner(.event(.decision(let o, let at))) = $0 { return (o, at) } else { return nil } }
        #expect(decisions.map(\.0) == [.normal, .leftUp])
        #expect(decisions.last.map { $0.1 > 1_000_000 && $0.1 < 2_000_000 } == true)
        // The very number of the reading that decided (in microseconds): none is moved on the way.
        var h2 = ControllerHarness()
        h2.send(.sensorOpened(Self.device(.polled), at: 50_000))
        _ = hold(&h2, angle: 0, from: 50_000, for: 1)
        var decided: Int?
        var t = 50_001.0
        while decided == nil, t < 50_003 {
            for case .runner(.event(.decision(.leftUp, let at))) in h2.send(.reading(Self.raw(t, angle: 90), held: false)) {
                decided = at
                #expect(at == OrientEvent.microseconds(seconds: t), "the decision's reading time is the reading's")
            }
            t += 0.04
        }
        #expect(decided != nil)
        // The pace is sent when it changes, not with every reading.
        let paces = out.compactMap { if case .runner(.paceSensor(let p)) = $0 { return p } else { return nil } }
        #expect(paces.first == 1 / h.controller.perception.plan.activeHz)
        #expect(paces.count < 10)
        #expect(zip(paces, paces.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test func theLeanTakenFromTheReadingsBreaksATieAsATurnDoes() {
        // Held portrait (left-up) leaning toward upside down; locking to landscape picks the
        // nearer landscape, bottom-up (as `.lean(115)` does in the scenario tests).
        var h = ControllerHarness(state: PersistentState(lastFelt: .leftUp), showing: .leftUp)
        h.send(.sensorOpened(Self.device(.polled), at: 0))
        _ = hold(&h, angle: 115, from: 0, for: 1.5)
        #expect(h.panel == .leftUp)
        h.send(.control(.lock(MaskSpec(parsing: "landscape")!)))
        #expect(h.panel == .bottomUp)
    }

    @Test func aReleasedSensorAnnouncesTheFeltOrientationAgainOnceItRuns() {
        var h = ControllerHarness(config: ControllerHarness.offersNothing)
        h.send(.sensorOpened(Self.device(.polled), at: 0))
        _ = hold(&h, angle: 90, from: 0, for: 1.5)
        #expect(h.panel == .leftUp)
        h.send(.control(.lock(MaskSpec(parsing: "left-up")!)))
        #expect(!h.sensorRunning)
        h.send(.control(.unlock))
        #expect(h.sensorRunning)
        h.send(.sensorOpened(Self.device(.polled), at: 2))
        let out = hold(&h, angle: 90, from: 2, for: 1.5)
        #expect(out.contains { if case .runner(.event(.decision(let o, _))) = $0 { return o == .leftUp } else { return false } })
    }
}

import Testing
@testable import OrientCore

/// What the sensor's reader promises, and so when its silence means it hangs.
@Suite struct SensorLivenessTests {
    static let device = Perception.Device(id: "iio:device0", calibration: Calibration(scale: 1), mode: .polled)
    let margin = SensorLiveness.margin

    @Test func aStartIsAnsweredWithinTheMargin() {
        var l = SensorLiveness()
        #expect(l.deadline == nil, "nothing is promised before a start")
        l.start(at: 10)
        #expect(l.deadline == 10 + margin)
        l.heard(.log("udev announced iio:device0"), at: 11)
        #expect(l.deadline == 11 + margin, "a log line is no answer")
        l.heard(.lost("no accelerometer found"), at: 12)
        #expect(l.deadline == nil, "none: it looks again, silently")
    }

    @Test func anOpenDeviceReportsWithinItsPace() {
        var l = SensorLiveness()
        l.start(at: 0)
        l.heard(.opened(Self.device, description: "", at: 1), at: 1)
        #expect(l.deadline == 1 + margin)
        l.pace(0.04, at: 1.1)
        #expect(abs((l.deadline ?? 0) - (1.1 + 0.04 + margin)) < 1e-9)
        l.heard(.sample(RawSample(t: 1.14, x: 0, y: -1, z: 0), held: false), at: 1.14)
        #expect(abs((l.deadline ?? 0) - (1.14 + 0.04 + margin)) < 1e-9)
    }

    @Test func aStillDeviceANoDeviceAndAStoppedReaderPromiseNothing() {
        var l = SensorLiveness()
        l.start(at: 0)
        l.heard(.opened(Self.device, description: "", at: 1), at: 1)
        l.pace(nil, at: 2)
        #expect(l.deadline == nil, "still: silent until it moves")
        l.pace(0.01, at: 30)
        #expect(abs((l.deadline ?? 0) - (30.01 + margin)) < 1e-9, "moving again")
        l.heard(.lost("iio:device0 vanished"), at: 31)
        #expect(l.deadline == nil, "looking for a device, silently")
        l.heard(.opened(Self.device, description: "", at: 40), at: 40)
        #expect(l.deadline == 40 + margin, "a device opened anew: its first reading as soon as it can")
        l.stop()
        #expect(l.deadline == nil)
        l.reset()
        #expect(l == SensorLiveness())
    }

    @Test func aSlowReadingThatKeepsReadingIsNoHangButAReadThatNeverEndsIs() {
        // Each raw value 2.5 s: a reading takes 7.5 s, longer than the margin.
        var l = SensorLiveness()
        l.start(at: 0)
        l.heard(.opened(Self.device, description: "", at: 1), at: 1)
        l.pace(0.1, at: 1)
        for part in [3.5, 6.0, 8.5] {
            #expect(part < (l.deadline ?? 0), "read at \(part) s: not yet a hang")
            l.heard(.stillReading, at: part)
        }
        l.heard(.sample(RawSample(t: 1, x: 0, y: -1, z: 0), held: false), at: 8.5)
        #expect(abs((l.deadline ?? 0) - (8.5 + 0.1 + margin)) < 1e-9)
        // The next read hangs: nothing more is said, and the deadline stays.
        #expect((l.deadline ?? .infinity) < 8.5 + 0.1 + margin + 0.001)
    }
}

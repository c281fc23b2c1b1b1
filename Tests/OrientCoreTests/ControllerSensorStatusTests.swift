import Foundation
import Testing
@testable import OrientCore

/// `status` tells what the accelerometer is really doing: looked for, read (how and why), lost
/// (why), released; watchers hear each change, and not each reading.
@Suite struct ControllerSensorStatusTests {
    static let busy = Perception.Device(id: "iio:device0", calibration: Calibration(scale: 0.009807), mode: .polled,
                                        why: "another program holds the device", limit: .busy)

    func notified(_ commands: [ControllerCommand]) -> [SensorStatus] {
        commands.compactMap { if case .runner(.notify(let s)) = $0 { s.sensor } else { nil } }
    }

    @Test func theSensorsStateFollowsWhatItSaid() {
        var h = ControllerHarness(config: ControllerHarness.offersNothing)
        #expect(h.sensorRunning)
        #expect(h.controller.status.sensor == SensorStatus(state: .looking))
        let opened = h.send(.sensorOpened(Self.busy, at: 1))
        let reading = SensorStatus(state: .reading, device: "iio:device0", mode: .polled, limit: .busy,
                                   why: "another program holds the device", matrix: .identity, matrixSource: .identity)
        #expect(notified(opened) == [reading])
        #expect(h.controller.status.sensor == reading)
        #expect(h.controller.status.json.serialized.includes("\"sensor_state\": {\"state\": \"reading\""))
        // A reading is no news for watchers, though it is the last report now.
        #expect(notified(h.send(.reading(RawSample(t: 2, x: 0, y: -1000, z: 0), held: false))).isEmpty)
        #expect(h.controller.lastSensorReport == 2)
        #expect(h.controller.status.json.serialized.includes("\"sensor\": \"running\""))
        let lost = h.send(.sensorLost("wlr-orient-sensor-feed stopped answering: killed"))
        #expect(notified(lost) == [SensorStatus(state: .lost, why: "wlr-orient-sensor-feed stopped answering: killed")])
        // Lost is not running: the status says so in both its fields.
        #expect(h.controller.status.json.serialized.includes("\"sensor\": \"looking\""), "\(h.controller.status.json.serialized)")
        // Released when nothing can rotate; looked for again (not "lost") when it runs again.
        h.send(.control(.lock(MaskSpec(parsing: "normal")!)))
        #expect(!h.sensorRunning && h.controller.status.sensor == .released)
        h.send(.control(.unlock))
        #expect(h.sensorRunning && h.controller.status.sensor == SensorStatus(state: .looking))
    }

    @Test func theStatusReadsBackFromItsJSONWithTheSensorsState() throws {
        var h = ControllerHarness()
        h.send(.sensorOpened(Self.busy, at: 1))
        var status = h.controller.status
        status.sensor.lastReportAge = 0.25
        let text = status.json.serialized
        #expect(text.includes("\"last_report_ms\": 250"), "\(text)")
        let decoded = try JSONDecoder().decode(ControllerStatus.self, from: Data(text.utf8))
        #expect(decoded == status)
    }

    /// A HID hub that answers each raw read late: readings 1.8 s apart where 40 ms were asked
    /// are named slow (after two, not one: a busy machine may delay a single reading), and no
    /// longer once they keep up.
    @Test func aDeviceSlowerThanAskedIsNamedSlowAndNoLongerOnceItKeepsUp() throws {
        var h = ControllerHarness()
        h.send(.sensorOpened(Self.busy, at: 0))
        var t = 0.0
        var slowness: [Double?] = []
        func read(after seconds: Double) {
            t += seconds
            h.send(.reading(RawSample(t: t, x: 0, y: -1000, z: 0), held: false))
            slowness.append(h.controller.status.sensor.slowReading)
        }
        for _ in 0..<4 { read(after: 1.8) }
        #expect(slowness == [nil, 1.8, 1.8, 1.8], "\(slowness)")
        #expect(h.controller.status.json.serialized.includes("\"slow_reading_ms\": 1800"))
        let decoded = try JSONDecoder().decode(ControllerStatus.self, from: Data(h.controller.status.json.serialized.utf8))
        #expect(decoded.sensor.slowReading == 1.8)
        read(after: 0.04)
        read(after: 1.8)   // one late reading alone is not slowness
        #expect(slowness.suffix(2) == [nil, nil], "\(slowness)")
    }
}

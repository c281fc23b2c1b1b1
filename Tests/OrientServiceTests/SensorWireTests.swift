import OrientCore
import OrientJSON
import Testing

/// The sensor helper's lines as text: written by the core's JSON, read by json-c, every number
/// the same (a reading's time is the same number at the sensor and at the decision).
@Suite struct SensorWireTests {
    static let device = Perception.Device(
        id: "iio:device3", calibration: Calibration(scale: 0.009576806, mountMatrix: MountMatrix([0, -1, 0, -1, 0, 0, 0, 0, 1])!),
        mode: .hysteresis, why: "a hub \"quoted\"\tand\nsplit", limit: .denied, matrixSource: .config)

    static let reports: [SensorReport] = [
        .opened(device, description: "iio:device3 (hid-sensor-accel-3d) ✓", at: 91_234.567),
        .sample(RawSample(t: 1_000_000.001, x: -1000.5, y: 1e-7, z: 123_456_789), held: false),
        .sample(RawSample(t: 0.1 + 0.2, x: 1, y: 2, z: 3), held: true),
        .lost("first\nsecond"), .log("tab\there"), .stillReading, .awaitingUdev,
    ]

    @Test(arguments: reports) func aReportsLineReadsBackExactly(_ report: SensorReport) throws {
        let line = report.json.serialized
        #expect(!line.contains("\n"))
        let parsed = try JSONReader.parse(line).get()
        #expect(SensorReport(json: parsed) == report)
    }

    @Test(arguments: [SensorRequest.start, .stop, .pace(nil), .pace(0.1 + 0.2)])
    func aRequestsLineReadsBackExactly(_ request: SensorRequest) throws {
        #expect(SensorRequest(json: try JSONReader.parse(request.json.serialized).get()) == request)
    }

    @Test func numbersThatAreNotWholeAndBigOnesKeepEveryDigit() throws {
        for value in [1e-7, 0.009576806, 12_345.678_901_234, -1e300, Double.leastNonzeroMagnitude] {
            #expect(try JSONReader.parse(JSON.array([.double(value)]).serialized).get() == .array([.double(value)]))
        }
        #expect(JSON.double(.nan).serialized == "null")
    }
}

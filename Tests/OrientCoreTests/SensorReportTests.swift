import OrientCore
import Testing

/// What crosses between a sensor helper (`wlr-orient-sensor-feed`) and its host, one JSON object
/// per line: every report and request reads back as it was written, and what is not one is
/// refused, not guessed at. (The text itself is read with json-c: `SensorWireTests`.)
@Suite struct SensorReportTests {
    static let device = Perception.Device(
        id: "iio:device3", calibration: Calibration(scale: 0.009576806, mountMatrix: MountMatrix([0, -1, 0, -1, 0, 0, 0, 0, 1])!),
        mode: .motionEvents, matrixSource: .udev)

    static let limited = Perception.Device(
        id: "iio:device0", calibration: Calibration(scale: 1e-7), mode: .polled,
        why: "another program holds the device: read from its raw values", limit: .busy)

    public static let reports: [SensorReport] = [
        .opened(device, description: "iio:device3 (bmc150_accel; the only one), scale 0.009576806", at: 12_345.678_901_234),
        .opened(limited, description: "iio:device0 (accel_3d), read: polled", at: 3),
        .opened(device, description: "a\nb\tc \"quoted\"", at: 0),
        .sample(RawSample(t: 0.001, x: -1000.5, y: 0, z: 1e-7), held: false),
        .sample(RawSample(t: 86_400.25, x: 1, y: 2, z: 3), held: true),
        .lost("iio:device3 vanished (ENODEV)"),
        .log("udev announced iio:device4"),
        .log(""),
        .stillReading,
        .awaitingUdev,
    ]

    @Test(arguments: reports) func aReportReadsBackAsItWasWritten(_ report: SensorReport) {
        #expect(!report.json.serialized.contains("\n"))
        #expect(SensorReport(json: report.json) == report)
    }

    static func opened(_ change: (inout [(String, JSON)]) -> Void) -> JSON {
        guard case .object(var fields) = SensorReport.opened(limited, description: "d", at: 1).json else { return .null }
        change(&fields)
        return .object(fields)
    }

    static func set(_ key: String, _ value: JSON?) -> JSON {
        opened { fields in
            fields.removeAll { $0.0 == key }
            if let value { fields.append((key, value)) }
        }
    }

    static let refused: [JSON] = [
        .null, .object([]), .object([("report", .string("sideways"))]), .string("sample"),
        .object([("report", .string("sample")), ("at", .double(1)), ("counts", .array([.int(1), .int(2)])), ("held", .bool(false))]),
        .object([("report", .string("sample")), ("at", .double(1)), ("counts", .array([.int(1), .int(2), .int(3)]))]),
        .object([("report", .string("sample")), ("at", .double(.nan)), ("counts", .array([.int(1), .int(2), .int(3)])), ("held", .bool(false))]),
        .object([("report", .string("sample")), ("at", .double(1)), ("counts", .array([.int(1), .double(.infinity), .int(3)])), ("held", .bool(true))]),
        .object([("report", .string("sample")), ("at", .double(1)), ("counts", .array([.int(1), .string("x"), .int(3)])), ("held", .bool(true))]),
        .object([("report", .string("lost"))]),
        .object([("report", .string("log")), ("text", .int(3))]),
        set("mode", .string("sideways")), set("mode", nil),
        set("matrix", .array([.int(1), .int(0), .int(0), .int(0), .int(1), .int(0), .int(0), .int(0)])),
        set("matrix", .array([.int(1), .int(0), .int(0), .int(0), .double(.nan), .int(0), .int(0), .int(0), .int(1)])),
        set("device", .string("")), set("device", nil), set("at", nil),
        set("scale", .double(.nan)), set("scale", .int(0)), set("scale", .double(-0.5)),
        set("limit", .string("sometimes")), set("limit", .int(1)),
    ]

    @Test(arguments: refused) func whatIsNoReportIsRefused(_ json: JSON) {
        #expect(SensorReport(json: json) == nil)
    }

    @Test func aNewerHelpersMembersAndMatrixSourceDoNotRefuseItsReport() {
        // A plugin still running after an upgrade starts the new helper, and the other way round.
        guard case .opened(let device, _, _)? = SensorReport(json: Self.set("matrix_source", .string("somewhere-new"))) else {
            Issue.record("a newer helper's source refuses its report")
            return
        }
        #expect(device.matrixSource == .identity)
        let more = Self.opened { $0.append(("battery", .string("low"))) }
        #expect(SensorReport(json: more) == .opened(Self.limited, description: "d", at: 1))
        #expect(SensorReport(json: Self.set("limit", nil)) != nil, "no limit said: none")
    }

    @Test(arguments: [SensorRequest.start, .stop, .pace(nil), .pace(0), .pace(0.02), .pace(1.5)])
    func aRequestReadsBackAsItWasWritten(_ request: SensorRequest) {
        #expect(SensorRequest(json: request.json) == request)
    }

    @Test(arguments: [JSON.null, .object([]), .object([("request", .string("pace"))]),
                      .object([("request", .string("pace")), ("seconds", .int(-1))]),
                      .object([("request", .string("pace")), ("seconds", .double(.nan))]),
                      .object([("request", .string("pace")), ("seconds", .double(.infinity))]),
                      .object([("request", .string("pace")), ("seconds", .string("fast"))]),
                      .object([("request", .string("halt"))]), .string("start")])
    func whatIsNoRequestIsRefused(_ json: JSON) {
        #expect(SensorRequest(json: json) == nil)
    }

    @Test func aHelperThatEndsIsStartedAgainEverMoreSlowlyAndSoonAfterItRanWell() {
        var backoff = RestartBackoff()
        let delays = (0..<8).map { _ in backoff.next() }
        #expect(delays == [0.2, 1, 2, 5, 10, 30, 30, 30])
        #expect(RestartBackoff.delays.last == RestartBackoff.longest)
        backoff.reset()
        #expect(backoff.next() == 0.2)
    }
}

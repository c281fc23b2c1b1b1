import OrientCore
import Testing

/// The lines between the plugin and its sensor helper (`wlr-orient-sensor-feed`): every report
/// and request reads back as it was written, and what is not one is refused, not guessed at.
@Suite struct SensorReportTests {
    static let device = Perception.Device(
        id: "iio:device3", calibration: Calibration(scale: 0.009576806, mountMatrix: MountMatrix([0, -1, 0, -1, 0, 0, 0, 0, 1])!),
        mode: .motionEvents, matrixSource: .udev)

    static let limited = Perception.Device(
        id: "iio:device0", calibration: Calibration(scale: 1e-7), mode: .polled,
        why: "another program holds the device: read from its raw values", limit: .busy)

    static let reports: [SensorReport] = [
        .opened(device, description: "iio:device3 (bmc150_accel; the only one), scale 0.009576806", at: 12_345.678_901_234),
        .opened(limited, description: "iio:device0 (accel_3d), read: polled", at: 3),
        .opened(device, description: "", at: 0),
        .sample(RawSample(t: 0.001, x: -1000.5, y: 0, z: 1e-7), held: false),
        .sample(RawSample(t: 86_400.25, x: 1, y: 2, z: 3), held: true),
        .lost("iio:device3 vanished (ENODEV)"),
        .log("udev announced iio:device4"),
        .log(""),
        .stillReading,
        .awaitingUdev,
    ]

    @Test(arguments: reports) func aReportReadsBackAsItWasWritten(_ report: SensorReport) {
        #expect(!report.line.contains("\n"))
        #expect(SensorReport(line: Substring(report.line)) == report)
    }

    @Test func aTextsLineBreaksBecomeSpacesSoThatOneReportStaysOneLine() {
        let report = SensorReport.lost("first\nsecond\r\nthird")
        #expect(report.line == "lost first second third")
        let opened = SensorReport.opened(Self.device, description: "a\nb\tc", at: 1)
        #expect(SensorReport(line: Substring(opened.line)) == .opened(Self.device, description: "a b c", at: 1))
    }

    @Test(arguments: [
        "", "opened", "sample 1 2 3", "sample 1 2 3 4", "sample 1 2 3 4 maybe", "sample 1 2 3 4 fresh extra",
        "sample nan 0 0 0 fresh", "sample 1 inf 0 0 held", "sample 1 x 0 0 held",
        "opened 1 iio:device0 sideways - 1 1 0 0 0 1 0 0 0 1 text",        // no such mode
        "opened 1 iio:device0 polled - 1 1 0 0 0 1 0 0 0 text",            // eight matrix numbers
        "opened 1  polled - 1 1 0 0 0 1 0 0 0 1 text",                     // no id
        "opened 1 iio:device0 polled - nan 1 0 0 0 1 0 0 0 1 text",
        "opened 1 iio:device0 polled - 0 1 0 0 0 1 0 0 0 1 text",          // no scale
        "opened 1 iio:device0 polled - -0.5 1 0 0 0 1 0 0 0 1 text",
        "opened 1 iio:device0 polled sometimes 1 1 0 0 0 1 0 0 0 1 text",  // no such limit
        "hello world", "Sample 1 2 3 4 fresh", "reading 1", "reading ", "awaiting-udev now",
    ])
    func whatIsNoReportIsRefused(_ line: String) {
        #expect(SensorReport(line: Substring(line)) == nil)
    }

    @Test func theMatrixSourceComesLastAndAnOlderOrNewerHelpersLineIsRead() {
        // A plugin still running after an upgrade starts the new helper, and the other way round.
        let older = "opened 1 iio:device0 polled - 0.5 1 0 0 0 1 0 0 0 1 why\tdescription"
        guard case .opened(let device, let description, _)? = SensorReport(line: Substring(older)) else {
            Issue.record("an older helper's line is refused")
            return
        }
        #expect(device.matrixSource == .identity && description == "description")
        let newer = older + "\tsomewhere-new"
        guard case .opened(let unknown, _, _)? = SensorReport(line: Substring(newer)) else {
            Issue.record("a newer helper's source refuses its line")
            return
        }
        #expect(unknown.matrixSource == .identity)
        #expect(SensorReport.opened(Self.device, description: "d", at: 1).line.hasSuffix("\td\tudev"))
    }

    @Test func shiftingMovesEveryTimeAndNothingElse() {
        let raw = RawSample(t: 1000.5, x: 1, y: 2, z: 3)
        #expect(SensorReport.sample(raw, held: true).shifted(by: -1000) == .sample(RawSample(t: 0.5, x: 1, y: 2, z: 3), held: true))
        #expect(SensorReport.opened(Self.device, description: "d", at: 10).shifted(by: 5) == .opened(Self.device, description: "d", at: 15))
        #expect(SensorReport.lost("x").shifted(by: 5) == .lost("x"))
    }

    @Test(arguments: [SensorRequest.start, .stop, .pace(nil), .pace(0), .pace(0.02), .pace(1.5)])
    func aRequestReadsBackAsItWasWritten(_ request: SensorRequest) {
        #expect(SensorRequest(line: Substring(request.line)) == request)
    }

    @Test(arguments: ["", "start ", "pace", "pace ", "pace -1", "pace nan", "pace inf", "pace fast", "halt"])
    func whatIsNoRequestIsRefused(_ line: String) {
        #expect(SensorRequest(line: Substring(line)) == nil)
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

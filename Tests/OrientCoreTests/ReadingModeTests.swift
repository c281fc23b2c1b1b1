import Testing
import TestSupport
@testable import OrientCore

/// How a device is read, and how a device that reports only a change is fed to the detector.
@Suite struct ReadingModeTests {
    static let bmc150 = ["in_accel_x_roc_en", "in_accel_y_roc_en", "in_accel_z_roc_en", "in_accel_roc_value", "in_accel_roc_period"]

    @Test(arguments: [
        (ReadingCapabilities(buffer: true, hysteresis: true), true, ReadingMode.hysteresis),
        (ReadingCapabilities(buffer: true, hysteresis: false), true, .buffer),
        (ReadingCapabilities(buffer: false, hysteresis: true), true, .polled),
        (ReadingCapabilities(buffer: false, hysteresis: false), true, .polled),
        (ReadingCapabilities(buffer: true, hysteresis: true), false, .polled),
        (ReadingCapabilities(buffer: false, hysteresis: false, events: ReadingModeTests.bmc150), true, .motionEvents),
        (ReadingCapabilities(buffer: true, hysteresis: false, events: ReadingModeTests.bmc150), true, .motionEvents),
        (ReadingCapabilities(buffer: true, hysteresis: true, events: ReadingModeTests.bmc150), true, .hysteresis),
        (ReadingCapabilities(buffer: false, hysteresis: false, events: ["in_accel_x_roc_en"]), true, .polled),
    ])
    func theQuietestWayTheDeviceOffersIsChosenAndSaid(can: ReadingCapabilities, preferBuffer: Bool, expected: ReadingMode) {
        let choice = ReadingModeChoice.choose(can, preferBuffer: preferBuffer)
        let (mode, why) = (choice.mode, choice.why)
        #expect((choice.motionEvents != nil) == (mode == .motionEvents))
        #expect(mode == expected)
        #expect(!why.isEmpty)
        #expect(mode.isBuffered == [.hysteresis, .buffer].contains(expected))
        #expect(mode.wakesOnMotion == [.hysteresis, .motionEvents].contains(expected))
    }

    static let hub = ReadingCapabilities(buffer: true, hysteresis: true)

    /// What this user may do decides too: a node another program holds, or one this user may not
    /// open, and attributes this user may not write, leave the raw values, read on the schedule,
    /// with the reason and what limits it (nothing is written to a device another reader uses).
    @Test(arguments: [
        (DeviceAccess(node: .busy, bufferAttributes: true, hysteresis: true, events: true), ReadingMode.polled, ReadingLimit.busy),
        (DeviceAccess(node: .denied, bufferAttributes: false, hysteresis: false, events: false), .polled, .denied),
        (DeviceAccess(node: .free, bufferAttributes: false, hysteresis: false, events: false), .polled, .denied),
        (DeviceAccess(node: .free, bufferAttributes: true, hysteresis: false, events: false), .hysteresis, nil),
        (.granted, .hysteresis, nil),
    ] as [(DeviceAccess, ReadingMode, ReadingLimit?)])
    func whatTheUserMayDoWithTheDeviceDecidesToo(access: DeviceAccess, mode: ReadingMode, limit: ReadingLimit?) {
        var can = Self.hub
        can.access = access
        let choice = ReadingModeChoice.choose(can, preferBuffer: true)
        #expect(choice.mode == mode && choice.limit == limit, "\(choice)")
        if limit == .busy { #expect(choice.why.hasPrefix("another program holds the device"), "\(choice.why)") }
        if limit == .denied { #expect(choice.why.includes("udev rule"), "\(choice.why)") }
    }

    @Test func motionEventsNeedTheNodeAndTheirSwitches() {
        var part = ReadingCapabilities(buffer: false, hysteresis: false, events: Self.bmc150)
        part.access = DeviceAccess(node: .free, bufferAttributes: false, hysteresis: false, events: false)
        #expect(ReadingModeChoice.choose(part, preferBuffer: true).limit == .denied)
        part.access = DeviceAccess(node: .busy, bufferAttributes: false, hysteresis: false, events: true)
        let busy = ReadingModeChoice.choose(part, preferBuffer: true)
        #expect(busy.mode == .polled && busy.limit == .busy && busy.why.includes("motion events left to that program"), "\(busy)")
        // A plain part with no buffer and no events is no less than it offers.
        let plain = ReadingModeChoice.choose(ReadingCapabilities(buffer: false, hysteresis: false,
                                                                 access: DeviceAccess(node: .missing, bufferAttributes: false,
                                                                                      hysteresis: false, events: false)),
                                             preferBuffer: true)
        #expect(plain.mode == .polled && plain.limit == nil)
    }

    @Test func aHysteresisThisUserMayNotWriteIsTheFirmwaresOrNone() {
        #expect(ReadingModeChoice.hysteresisSetting(scale: 0.009807, firmware: 0.05, writable: false) == .keepFirmware)
        #expect(ReadingModeChoice.hysteresisSetting(scale: 0.009807, firmware: 0, writable: false) == .unusable)
        #expect(ReadingModeChoice.hysteresisSetting(scale: 0.00980665, firmware: 0, writable: true) != .unusable)
    }

    /// The motion events each driver names, and the one preferred where several are offered.
    @Test func theMotionEventThatSaysMovedIsFoundOnEveryAxis() {
        #expect(MotionEvents.choose(Self.bmc150)?.kind == "roc")
        let mma8452 = ["in_accel_x_mag_rising_en", "in_accel_y_mag_rising_en", "in_accel_z_mag_rising_en",
                       "in_accel_mag_rising_value", "in_accel_x&y&z_mag_falling_en"]
        #expect(MotionEvents.choose(mma8452)?.enableFiles == ["in_accel_x_mag_rising_en", "in_accel_y_mag_rising_en", "in_accel_z_mag_rising_en"])
        let kxcjk = ["in_accel_x_thresh_either_en", "in_accel_y_thresh_either_en", "in_accel_z_thresh_either_en"]
        #expect(MotionEvents.choose(kxcjk)?.kind == "thresh_either")
        #expect(MotionEvents.choose(kxcjk + Self.bmc150)?.kind == "roc")
        #expect(MotionEvents.choose(["in_accel_x&y&z_mag_falling_en"]) == nil, "free fall is not a turn")
        #expect(MotionEvents.choose([]) == nil)
    }

    /// A device with hysteresis sends one reading when turned and nothing while held: fed the
    /// held reading on the schedule, the detector takes the turn just after its settle time, and
    /// then nothing more is due until the device speaks again.
    @Test func aTurnReportedOnceIsDecidedAtTheSettleTimeAndThenNothingIsDue() throws {
        let config = DetectionConfig()
        var detector = Detector(config: config)
        let schedule = QuietDeviceSchedule()
        let normal = Vector3(0, -standardGravity, 0)
        let leftUp = Vector3(standardGravity, 0, 0)

        // The device was opened and read once; it confirms how it is held.
        var t = 0.0
        var due: Double? = t
        var decided: [Detector.Change] = []
        var feeds = 0
        func run(_ v: Vector3, from start: Double) {
            due = start
            while let d = due, d < start + 5 {
                if let c = detector.add(v, at: d) { decided.append(c) }
                feeds += 1
                due = schedule.next(after: d, quietFor: detector.quietFor(at: d))
            }
        }
        run(normal, from: t)
        #expect(decided.map(\.orientation) == [.normal])
        #expect(due == nil, "a held device must leave nothing due")
        let settled = feeds

        // Ten seconds later it is turned: one report, then silence.
        t = 10
        run(leftUp, from: t)
        let turn = try #require(decided.last)
        #expect(turn.orientation == .leftUp)
        #expect(turn.t - t <= config.settleMs / 1000 + 1 / schedule.rateHz + 1e-9)
        #expect(due == nil)
        #expect(feeds - settled <= Int((turn.t - t + schedule.quietAfter) * schedule.rateHz) + 2,
                "held readings only until the detector has been quiet for \(schedule.quietAfter) s")
    }
}

extension ReadingModeTests {
    /// A HID hub's hysteresis is in its report unit, which its scale reveals.
    @Test func theHysteresisIsWrittenInTheUnitTheScaleReveals() throws {
        let inG = try #require(ReadingModeChoice.hysteresisValue(scale: 0.009807))   // 1 mg counts
        #expect(abs(inG * standardGravity - ReadingModeChoice.hysteresisMs2) < 1e-9)
        #expect(ReadingModeChoice.hysteresisValue(scale: 0.0980665) == inG)
        #expect(ReadingModeChoice.hysteresisValue(scale: 0.01) == ReadingModeChoice.hysteresisMs2)   // cm/s² counts
        #expect(ReadingModeChoice.hysteresisValue(scale: 0.000598) == nil)   // a SoC part's own step
        #expect(ReadingModeChoice.hysteresisValue(scale: 0) == nil)
        #expect(ReadingModeChoice.hysteresisValue(scale: .nan) == nil)
        // Where the unit is unknown, the firmware's own value is kept if it keeps the hub quiet.
        #expect(ReadingModeChoice.hysteresisSetting(scale: 0.009807, firmware: nil) == .write(inG))
        #expect(ReadingModeChoice.hysteresisSetting(scale: 0.000598, firmware: 0.2) == .keepFirmware)
        #expect(ReadingModeChoice.hysteresisSetting(scale: 0.000598, firmware: 0) == .unusable)
        #expect(ReadingModeChoice.fallback(from: .hysteresis, because: "x").mode == .buffer)
        #expect(ReadingModeChoice.fallback(from: .motionEvents, because: "x").mode == .polled)
    }
}

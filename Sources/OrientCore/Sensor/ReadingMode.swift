import Glibc  // log10 only

/// How an accelerometer is read. In the order the sensor prefers them: the ones that let a
/// still device wake nobody come first.
public enum ReadingMode: String, Sendable, Hashable {
    /// Through a buffer, with the device's own hysteresis set (HID sensor hubs): a still device
    /// sends nothing, a moving one reports at once. Between reports the last one still holds.
    case hysteresis
    /// Through a buffer, at the device's sampling rate.
    case buffer
    /// By reading the `raw` attributes on a schedule (`SamplingPlan`).
    case polled

    /// Whether samples arrive through a buffer's fd rather than on our schedule.
    public var isBuffered: Bool { self != .polled }
}

/// What discovery learned about how a device can be read.
public struct ReadingCapabilities: Sendable, Hashable {
    /// A trigger and x/y/z scan elements: it can stream through a buffer.
    public var buffer: Bool
    /// An `in_accel_hysteresis` attribute: it can be told to report only a change.
    public var hysteresis: Bool

    public init(buffer: Bool, hysteresis: Bool) {
        self.buffer = buffer
        self.hysteresis = hysteresis
    }
}

public enum ReadingModeChoice {
    /// The way to read a device, and why, for `wlr-orient sensor` and the log. `preferBuffer`
    /// false (the `record` command's polled traces) reads every device on the schedule.
    public static func choose(_ can: ReadingCapabilities, preferBuffer: Bool) -> (mode: ReadingMode, why: String) {
        guard preferBuffer else { return (.polled, "buffers not wanted here: read on the sampling schedule") }
        switch (can.buffer, can.hysteresis) {
        case (true, true):
            return (.hysteresis, "the device reports only a change beyond its hysteresis: still, it wakes nobody")
        case (true, false):
            return (.buffer, "the device streams through a buffer, but has no hysteresis to keep it quiet when still")
        case (false, true):
            return (.polled, "the device has hysteresis but no buffer to report through: read on the sampling schedule")
        case (false, false):
            return (.polled, "the device has no buffer: read on the sampling schedule")
        }
    }

    /// The hysteresis asked of a device, in m/s²: well above a still device's noise (a few
    /// hundredths), well below what a turn changes (a quarter turn moves two axes by 1 g; the
    /// detector's 15° past the boundary is over 2.5 m/s² on one axis). About 3°.
    public static let hysteresisMs2 = 0.5

    /// The value to write to `in_accel_hysteresis`, or nil to keep the firmware's own.
    ///
    /// A HID sensor hub takes the hysteresis in the unit its reports use (g or m/s², its
    /// decimal exponent applied), not in raw counts, and says nothing of which unit that is;
    /// but its `scale` is that unit in m/s² times a power of ten. So a scale of 9.80665·10ⁿ
    /// means g, a scale of 10ⁿ means m/s², and anything else is left as the firmware set it.
    public static func hysteresisValue(scale: Double) -> Double? {
        guard scale > 0, scale.isFinite else { return nil }
        func isPowerOfTen(_ x: Double) -> Bool {
            let e = log10(x)
            return abs(e - e.rounded()) < 0.001
        }
        if isPowerOfTen(scale / standardGravity) { return hysteresisMs2 / standardGravity }
        if isPowerOfTen(scale) { return hysteresisMs2 }
        return nil
    }
}

/// When to feed the detector the last reading again, for a device that reports only a change
/// (`ReadingMode.hysteresis`): its silence means "still the same", but the detector decides
/// only on readings, and a change waits for the device to be held for `settle-ms`. So while
/// the detector is busy (motion, a change pending) the held reading is fed at `rateHz`; once
/// it has been quiet for `quietAfter` seconds nothing is due until the device reports again.
public struct HeldReadingSchedule: Sendable, Hashable {
    public var rateHz: Double
    public var quietAfter: Double

    /// 100 Hz: a change is decided within 10 ms of its settle time, at a cost paid only during
    /// the half second after a movement. A quarter second of quiet covers every holdoff, since a
    /// pending change keeps the detector busy (`Detector.quietFor`).
    public init(rateHz: Double = 100, quietAfter: Double = 0.25) {
        self.rateHz = max(rateHz, 1)
        self.quietAfter = quietAfter
    }

    /// After a reading (real or held) at `t` with the detector quiet for `quietFor` seconds:
    /// when to feed the held reading next, or nil to wait for the device.
    public func next(after t: Double, quietFor: Double) -> Double? {
        quietFor >= quietAfter ? nil : t + 1 / rateHz
    }
}

import Glibc  // log10 only

/// How an accelerometer is read. In the order the sensor prefers them: the ones that let a
/// still device wake nobody come first.
public enum ReadingMode: String, Sendable, Hashable {
    /// Through a buffer, with the device's own hysteresis set (HID sensor hubs): a still device
    /// sends nothing, a moving one reports at once. Between reports the last one still holds.
    case hysteresis
    /// By reading the `raw` attributes while the device moves, and not at all while it is
    /// still: its motion events (`events/in_accel_*_roc_en`…) say when it moves again.
    case motionEvents = "motion-events"
    /// Through a buffer, at the device's sampling rate.
    case buffer
    /// By reading the `raw` attributes on a schedule (`SamplingPlan`).
    case polled

    /// Whether samples arrive through a buffer's fd rather than on our schedule.
    public var isBuffered: Bool { self == .hysteresis || self == .buffer }

    /// Whether the device tells us when it moves, so that nothing is due while it is still
    /// (`QuietDeviceSchedule`).
    public var wakesOnMotion: Bool { self == .hysteresis || self == .motionEvents }
}

/// What this user may do with a device now, as discovery found it. The kernel makes the
/// device's node (`/dev/iio:deviceN`) root's and mode 0600, and the attributes that set up its
/// buffer, hysteresis and motion events writable by root only; the node opens for one process at
/// a time. The raw values can be read by anyone.
public struct DeviceAccess: Sendable, Hashable {
    /// Whether the node can be opened now.
    public enum Node: String, Sendable, Hashable {
        case free
        /// Another process holds it (iio-sensor-proxy, another session, a `wlr-orient sensor`).
        case busy
        /// This user may not open it.
        case denied
        /// There is none (a device without a buffer or events has no node to speak of).
        case missing
    }

    public var node: Node
    /// `buffer/enable`, `buffer/length` and every `scan_elements/*_en` can be written (libiio
    /// writes each as it opens a buffer).
    public var bufferAttributes: Bool
    /// Those of them this user may not write, by their names in the device's directory.
    public var unwritable: [String] = []
    /// `in_accel_hysteresis` can be written.
    public var hysteresis: Bool
    /// The motion events' `events/*_en` can be written.
    public var events: Bool

    public init(node: Node, bufferAttributes: Bool, hysteresis: Bool, events: Bool) {
        self.node = node
        self.bufferAttributes = bufferAttributes
        self.hysteresis = hysteresis
        self.events = events
    }

    /// Root's view, or a seat user's whom the udev rule gave the device.
    public static let granted = DeviceAccess(node: .free, bufferAttributes: true, hysteresis: true, events: true)
}

/// What discovery learned about how a device can be read.
public struct ReadingCapabilities: Sendable, Hashable {
    /// A trigger and x/y/z scan elements: it can stream through a buffer.
    public var buffer: Bool
    /// An `in_accel_hysteresis` attribute: it can be told to report only a change.
    public var hysteresis: Bool
    /// The names in its `events/` directory.
    public var events: [String]
    /// What this user may do with it.
    public var access: DeviceAccess

    public init(buffer: Bool, hysteresis: Bool, events: [String] = [], access: DeviceAccess = .granted) {
        self.buffer = buffer
        self.hysteresis = hysteresis
        self.events = events
        self.access = access
    }
}

/// Why a device is read in a humbler way than it offers: what the user of `status` and
/// `wlr-orient sensor` can change.
public enum ReadingLimit: String, Sendable, Hashable {
    /// Another process holds the device's node.
    case busy
    /// This user may not open the node or write the attributes (no udev rule grants them).
    case denied
}

/// How to read one device, and why (for `wlr-orient sensor` and the log).
public struct ReadingChoice: Sendable, Hashable {
    public var mode: ReadingMode
    public var why: String
    /// The motion events to enable (`ReadingMode.motionEvents` only).
    public var motionEvents: MotionEvents?
    /// Set when the device offers a quieter way that this user cannot have now.
    public var limit: ReadingLimit?
}

/// What to do with a device's `in_accel_hysteresis` (`ReadingModeChoice.hysteresisSetting`).
public enum HysteresisSetting: Sendable, Hashable {
    /// Write this value (in the hub's unit).
    case write(Double)
    /// Leave the firmware's own value, which already keeps the device quiet.
    case keepFirmware
    /// Neither can be had: the device is streamed through its buffer instead.
    case unusable
}

public enum ReadingModeChoice {
    /// The way to read a device, and why. `preferBuffer` false (the `record` command's polled
    /// traces) reads every device on the schedule. A device whose node another process holds is
    /// read from its raw values, and nothing of its set-up is written: another reader depends on
    /// it (iio-sensor-proxy keeps reading, a session keeps its stream).
    public static func choose(_ can: ReadingCapabilities, preferBuffer: Bool) -> ReadingChoice {
        guard preferBuffer else { return ReadingChoice(mode: .polled, why: "buffers not wanted here ([device] buffered = false): read on the sampling schedule") }
        let access = can.access
        let node = access.node == .free
        let stream = can.buffer && node && access.bufferAttributes
        let events = MotionEvents.choose(can.events)
        let moves = node && access.events ? events : nil
        if !(stream && can.hysteresis), let moves {
            return ReadingChoice(mode: .motionEvents, why: "the device says when it moves (\(moves.kind) events): read while it moves, never while it is still",
                                 motionEvents: moves)
        }
        switch (stream, can.hysteresis) {
        case (true, true):
            return ReadingChoice(mode: .hysteresis, why: "the device reports only a change beyond its hysteresis: still, it wakes nobody")
        case (true, false):
            return ReadingChoice(mode: .buffer, why: "the device streams through a buffer, but has no hysteresis to keep it quiet when still")
        case (false, _) where can.buffer || events != nil:
            return limited(can, offers: can.buffer ? "its buffer" : "its motion events")
        case (false, true):
            return ReadingChoice(mode: .polled, why: "the device has hysteresis but no buffer to report through: read on the sampling schedule")
        case (false, false):
            return ReadingChoice(mode: .polled, why: "the device has no buffer: read on the sampling schedule")
        }
    }

    /// What the look every `Backoff.streamCheckPeriod` at a device read polled because another
    /// program held it (`ReadingLimit.busy`) leads to.
    public enum BusyLook: Sendable, Hashable {
        /// Its buffer is still on, or its node still held (a reader of its events, one that has not
        /// switched its buffer on yet, or one still going away): look again then.
        case lookAgain(in: Double)
        /// That reader ended, or stopped its stream: open it again, to read it as well as it can be.
        case openAgain
    }

    public static func afterBusyLook(bufferOn: Bool, nodeHeld: Bool) -> BusyLook {
        bufferOn || nodeHeld ? .lookAgain(in: Backoff.streamCheckPeriod) : .openAgain
    }

    /// Polled, for a device that offers a buffer or motion events this user cannot have now.
    private static func limited(_ can: ReadingCapabilities, offers: String) -> ReadingChoice {
        let polled = "read from its raw values on the sampling schedule"
        switch can.access.node {
        case .busy:
            return ReadingChoice(mode: .polled, why: "another program holds the device (iio-sensor-proxy, another session, a running wlr-orient):"
                                 + " \(polled), its \(offers == "its buffer" ? "buffer" : "motion events") left to that program", limit: .busy)
        case .denied, .missing:
            return ReadingChoice(mode: .polled, why: "this user may not open the device's node, which \(offers) needs (the kernel makes it root's;"
                                 + " wlr-orient's udev rule gives it to the seat's user): \(polled)", limit: .denied)
        case .free:
            let which = can.access.unwritable.isEmpty ? "the attributes that set up \(offers)"
                : "\(can.access.unwritable.joined(separator: ", ")), which setting up \(offers) writes"
            return ReadingChoice(mode: .polled, why: "this user may not write \(which) (the kernel makes them root's;"
                                 + " wlr-orient's udev rule gives them to the seat's user): \(polled)", limit: .denied)
        }
    }

    /// The next way to read a device that could not be read as `mode` was chosen to, and why:
    /// a hub whose hysteresis cannot be set streams through its buffer; a part whose motion
    /// events cannot be had is read on the schedule.
    public static func fallback(from mode: ReadingMode, because problem: String, limit: ReadingLimit? = nil) -> ReadingChoice {
        switch mode {
        case .hysteresis: ReadingChoice(mode: .buffer, why: "\(problem): streamed through its buffer", limit: limit)
        case .motionEvents, .buffer, .polled: ReadingChoice(mode: .polled, why: "\(problem): read on the sampling schedule", limit: limit)
        }
    }

    /// What to do with the hysteresis of a device whose counts are `scale` m/s² and whose
    /// firmware set `firmware` (nil when it cannot be read): our value where the unit is known
    /// and this user may write it, else the firmware's where it keeps the device quiet.
    public static func hysteresisSetting(scale: Double, firmware: Double?, writable: Bool = true) -> HysteresisSetting {
        if writable, let value = hysteresisValue(scale: scale) { return .write(value) }
        return (firmware ?? 0) > 0 ? .keepFirmware : .unusable
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

/// When to read a device that says when it moves (`ReadingMode.wakesOnMotion`). Once it is
/// still, never: it will speak when it moves. But the detector decides only on readings, and a
/// change waits for the device to be held for `settle-ms`; so while the detector is busy
/// (motion, a change pending) the device is read at `rateHz` (one with hysteresis, silent while
/// held, by feeding its last reading again), and once the detector has been quiet for
/// `quietAfter` seconds nothing is due until the device speaks again.
public struct QuietDeviceSchedule: Sendable, Hashable {
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
    /// when to read next, or nil to wait for the device.
    public func next(after t: Double, quietFor: Double) -> Double? {
        period(quietFor: quietFor).map { t + $0 }
    }

    /// How long after a reading the next is due, with the detector quiet for `quietFor` seconds;
    /// nil: not until the device says it moved.
    public func period(quietFor: Double) -> Double? {
        quietFor >= quietAfter ? nil : 1 / rateHz
    }
}

/// The motion events an accelerometer driver offers, and which of them say "it moved". Each is
/// one file per axis in the device's `events/` directory, enabled by writing 1; its threshold
/// and period stay as the driver set them (they are in each part's own register units).
public struct MotionEvents: Sendable, Hashable {
    /// The kinds, in the order they are preferred: bmc150's any-motion slope (`roc`), mma8452's
    /// transient detector (`mag_rising`), kxcjk-1013's wake-up and fxls8962af's window
    /// comparator (`thresh_either`), a plain rising threshold.
    public static let kinds = ["roc", "mag_rising", "thresh_either", "thresh_rising"]

    public var kind: String
    /// The `events/` files to enable, one per axis.
    public var enableFiles: [String]

    /// The first kind in `kinds` that the device offers on every axis, from the names in its
    /// `events/` directory; nil when it offers none.
    public static func choose(_ names: [String]) -> MotionEvents? {
        let present = Set(names)
        for kind in kinds {
            let files = ["x", "y", "z"].map { "in_accel_\($0)_\(kind)_en" }
            if files.allSatisfy(present.contains) { return MotionEvents(kind: kind, enableFiles: files) }
        }
        return nil
    }
}

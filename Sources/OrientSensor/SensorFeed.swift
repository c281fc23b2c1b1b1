import OrientCore
import OrientSystem

extension SensorEvent {
    /// What the controller's host is told of this event; times stay the sensor's seconds.
    public var report: SensorReport {
        switch self {
        case .opened(let info, let t): .opened(info.perceived, description: info.description, at: t)
        case .sample(let raw, let held): .sample(raw, held: held)
        case .lost(let why): .lost(why)
        case .log(let line): .log(line)
        }
    }
}

/// `wlr-orient-sensor-feed`: the sensor in a process of its own, for the plugin, so that no
/// libiio call and no sysfs read runs on the compositor's thread (a HID sensor hub answers a
/// read within five seconds, a stuck I2C bus not at all) and libiio, with libxml2 and ICU, stays
/// out of the compositor's memory. It reads `SensorRequest` lines on one descriptor and writes
/// `SensorReport` lines (times in monotonic seconds) on another; it decides nothing.
public enum SensorFeed {
    /// Runs until `input` ends (the plugin, or its compositor, is gone) or `Termination` is
    /// asked for; then releases the device (its buffer and motion events are switched off, what
    /// was written to it put back) and returns the exit status.
    public static func run(_ sensor: OrientationSensor, input: FileDescriptor = FileDescriptor(rawValue: 0),
                           output: FileDescriptor = FileDescriptor(rawValue: 1)) -> Int32 {
        defer { sensor.stop() }
        var events: [SensorEvent] = []
        var pending = LineBuffer()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let origin = sensor.monotonicTime(ofSampleAt: 0)
        // The host takes a long silence for a hang; a slow device's reading is said to be under
        // way (at most once a second), and a read that never ends still goes silent.
        var spoke = monotonicSeconds()
        sensor.partRead = {
            let now = monotonicSeconds()
            guard now - spoke >= 1 else { return }
            spoke = now
            write([.stillReading], to: output)
        }
        defer { sensor.partRead = nil }
        var awaitedUdev = false
        while true {
            let wait = sensor.deadline.map { max(0, ($0 - monotonicSeconds()) * 1000).rounded(.up) }
            let readable = FileDescriptor.waitReadable([input, sensor.pollDescriptor.map(FileDescriptor.init(rawValue:)),
                                                        Termination.descriptor],
                                                       milliseconds: wait.map { Int32(min($0, 60_000)) } ?? -1)
            guard case .success(let ready) = readable else { return 1 }
            if ready[2] { return 0 }
            if ready[0] {
                switch chunk.withUnsafeMutableBytes({ input.read(into: $0) }) {
                case .success(let n) where n > 0:
                    pending.append(chunk[..<n])
                    while let line = pending.nextLine() {
                        switch SensorRequest(line: Substring(line)) {
                        case .start: sensor.start()
                        case .stop: sensor.stop()
                        case .pace(let period): sensor.pace(period)
                        case nil: write([.log("sensor-feed: not a request: \(line.prefix(80))")], to: output)
                        }
                    }
                    if pending.waiting > 4096 { pending.removeAll() }   // no request is that long
                case .success, .failure:
                    return 0
                }
            }
            let due = sensor.deadline.map { monotonicSeconds() >= $0 } ?? false
            guard ready[1] || due else { continue }
            events.removeAll(keepingCapacity: true)
            sensor.process(into: &events)
            var reports = events.map { $0.report.shifted(by: origin) }
            if sensor.awaitsUdev != awaitedUdev {
                awaitedUdev.toggle()
                if awaitedUdev { reports.append(.awaitingUdev) }
            }
            if !reports.isEmpty {
                spoke = monotonicSeconds()
                if !write(reports, to: output) { return 1 }
            }
        }
    }

    /// Writes reports, one line each; false when the reader has gone.
    @discardableResult
    private static func write(_ reports: [SensorReport], to output: FileDescriptor) -> Bool {
        let text = reports.map { $0.line + "\n" }.joined()
        if case .failure = output.writeAll(Array(text.utf8)) { return false }
        return true
    }
}

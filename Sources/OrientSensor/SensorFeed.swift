import OrientCore
import OrientJSON
import OrientSystem

/// `wlr-orient-sensor-feed`: the sensor in a process of its own, for the plugin and the daemon,
/// so that no libiio call and no sysfs read runs on their thread (a HID sensor hub answers a read
/// within five seconds, a stuck I2C bus not at all: the host replaces a helper gone silent, and
/// its loop never waits) and libiio, with libxml2 and ICU, stays out of the compositor's memory.
/// It reads `SensorRequest`s on one descriptor and writes `SensorReport`s on another, one JSON
/// object per line, with the sensor's own (monotonic) times; it decides nothing.
public enum SensorFeed {
    /// No request is longer than this: a longer line is dropped.
    static let longestRequest = 4096

    /// Runs until `input` ends (the host, or its compositor, is gone) or `Termination` is
    /// asked for; then releases the device (its buffer and motion events are switched off, what
    /// was written to it put back) and returns the exit status.
    public static func run(_ sensor: OrientationSensor, input: FileDescriptor = FileDescriptor(rawValue: 0),
                           output: FileDescriptor = FileDescriptor(rawValue: 1)) -> Int32 {
        defer { sensor.stop() }
        var pending = LineBuffer()
        var chunk = [UInt8](repeating: 0, count: 4096)
        var status: Int32 = 0
        var starting = true
        let ran = SensorLoop.run(sensor, watching: [input, Termination.descriptor], woke: { ready in
            if ready[1] { return false }
            guard ready[0] else { return true }
            switch chunk.withUnsafeMutableBytes({ input.read(into: $0) }) {
            case .success(let n) where n > 0:
                pending.append(chunk[..<n])
                while let line = pending.nextLine() {
                    let request = JSONReader.parse(line).map(SensorRequest.init(json:))
                    switch request {
                    case .success(.start): sensor.start()
                    case .success(.stop): sensor.stop()
                    case .success(.pace(let period)): sensor.pace(period)
                    case .success(nil), .failure:
                        write([.log("sensor-feed: not a request: \(line.prefix(80))")], to: output)
                    }
                }
                if pending.waiting > longestRequest { pending.removeAll() }
                return true
            case .success, .failure:
                return false
            }
        }, reports: { reports in
            guard write(reports, to: output) else {
                status = 1
                return false
            }
            // Once the device streams, what found and opened it is not run again until it is
            // lost: those pages go back (most of what this process would otherwise hold).
            for report in reports {
                switch report {
                case .opened, .lost: starting = true
                case .sample where starting:
                    starting = false
                    StartupPages.release()
                default: break
                }
            }
            return true
        })
        return ran == nil ? 1 : status
    }

    /// Writes reports, one line each; false when the reader has gone.
    @discardableResult
    private static func write(_ reports: [SensorReport], to output: FileDescriptor) -> Bool {
        let text = reports.map { $0.json.serialized + "\n" }.joined()
        if case .failure = output.writeAll(Array(text.utf8)) { return false }
        return true
    }
}

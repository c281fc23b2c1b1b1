import OrientCore
import OrientSystem

/// The one loop that drives an `OrientationSensor` in a process of its own: the sensor helper
/// (`SensorFeed`, for the plugin and the daemon) and the CLI's `sensor`, `record` and
/// `calibrate`. It waits for the sensor's fd or its deadline (and for whatever else the caller
/// watches), lets it do what is due, and hands on what it reported; the caller judges the
/// readings (or has its host judge them) and passes the pace back through `sensor.pace`.
public enum SensorLoop {
    /// How often a reading under way says so (`SensorReport.stillReading`), at most: a slow
    /// device's reading may take longer than the silence its host allows, but no single read of
    /// it does.
    public static let stillReadingEvery = 1.0

    /// Runs until `seconds` have passed (nil: without end), `woke` or `reports` returns false, or
    /// a wait fails (then nil); returns how many times it woke up.
    /// - Parameters:
    ///   - watched: more descriptors waited on beside the sensor's; `woke` is told which of them
    ///     can be read, each time the loop wakes, before the sensor does what is due.
    ///   - untilSignal: a signal ends a wait (the caller's handler may have asked it to stop, which
    ///     `woke` then says); without one, it waits no longer than a second for the same reason.
    ///   - reports: what the sensor reported on one run, never empty; and `.stillReading`, alone,
    ///     while one of a slow device's readings goes on.
    @discardableResult
    public static func run(_ sensor: OrientationSensor, for seconds: Double? = nil, watching watched: [FileDescriptor?] = [],
                           untilSignal: Bool = false, woke: ([Bool]) -> Bool = { _ in true },
                           reports: ([SensorReport]) -> Bool) -> Int? {
        let end = seconds.map { monotonicSeconds() + $0 }
        var wakeups = 0
        var batch: [SensorReport] = []
        var spoke = monotonicSeconds()
        return withoutActuallyEscaping(reports) { reports in
            // A reading's parts count from when the reading began: one that takes no time says
            // nothing but its result (the loop at 1 Hz would otherwise say "still reading" at each
            // reading's first part, a second write its host may wake for apart from the result).
            var began = spoke
            sensor.partRead = {
                let now = monotonicSeconds()
                guard now - max(spoke, began) >= stillReadingEvery else { return }
                spoke = now
                _ = reports([.stillReading])
            }
            defer { sensor.partRead = nil }
            while true {
                let now = monotonicSeconds()
                if let end, now >= end { break }
                let wait = min(sensor.secondsUntilDue ?? .infinity, end.map { $0 - now } ?? .infinity)
                let ms: Int32 = wait.isFinite ? Int32(min(max(0, wait * 1000).rounded(.up), 60_000)) : (untilSignal ? 1000 : -1)
                guard case .success(let ready) = FileDescriptor.waitReadable(
                    [sensor.pollDescriptor.map(FileDescriptor.init(rawValue:))] + watched, milliseconds: ms, untilSignal: untilSignal)
                else { return nil }
                let due = sensor.secondsUntilDue.map { $0 <= 0 } ?? false
                // Woken by the end alone: not a wakeup of the sensor's.
                if let end, monotonicSeconds() >= end, !ready.contains(true), !due { break }
                wakeups += 1
                guard woke(Array(ready.dropFirst())) else { break }
                guard ready[0] || due else { continue }
                batch.removeAll(keepingCapacity: true)
                began = monotonicSeconds()
                sensor.process(into: &batch)
                guard !batch.isEmpty else { continue }
                spoke = monotonicSeconds()
                guard reports(batch) else { break }
            }
            return wakeups
        }
    }
}

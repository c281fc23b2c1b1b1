import Glibc
import OrientSystem

/// A minimal poll(2) loop for hosts without an event loop of their own (the CLI, benchmarks).
/// The compositor plugin uses wl_event_loop instead; both just honour `pollDescriptor` and `deadline`.
public enum PollLoop {
    /// Runs until `end` (monotonic seconds) or until `shouldStop()` says so; returns how many
    /// times it woke up. With the sensor stopped it sleeps until `end` without waking.
    @discardableResult
    public static func run(_ sensor: OrientationSensor, until end: Double?, shouldStop: () -> Bool,
                           handle: ([SensorEvent]) -> Void) -> Int {
        var wakeups = 0
        var events: [SensorEvent] = []
        while !shouldStop() {
            let now = monotonicSeconds()
            if let end, now >= end { break }
            // Without a deadline or an end, wake once a second only to notice shouldStop().
            let wake = min(sensor.deadline ?? .infinity, end ?? .infinity)
            let wait = wake.isFinite ? max(0, wake - now) : 1
            var fd = pollfd(fd: sensor.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(min((wait * 1000).rounded(.up), Double(Int32.max))))
            if let end, monotonicSeconds() >= end, sensor.deadline.map({ $0 >= end }) ?? true { break }
            wakeups += 1
            events.removeAll(keepingCapacity: true)
            sensor.process(into: &events)
            handle(events)
        }
        return wakeups
    }
}

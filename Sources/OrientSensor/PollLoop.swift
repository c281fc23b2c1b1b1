import OrientCore
import OrientSystem

/// A minimal poll(2) loop for hosts without an event loop of their own (the CLI, benchmarks).
/// The compositor plugin uses wl_event_loop instead; both just honour `pollDescriptor` and
/// `deadline`, and hand each reading to a `Perception` whose pace the sensor then follows (in the
/// plugin and the daemon, the controller's).
public enum PollLoop {
    /// Runs until `end` (monotonic seconds) or until `shouldStop()` says so; returns how many
    /// times it woke up. With the sensor stopped it sleeps until `end` without waking. `handle`
    /// sees each event, with its judgement for a reading, and the perception after it.
    @discardableResult
    public static func run(_ sensor: OrientationSensor, perception: inout Perception, until end: Double?,
                           shouldStop: () -> Bool,
                           handle: (SensorEvent, Perception.Judgement?, Perception) -> Void) -> Int {
        var wakeups = 0
        var events: [SensorEvent] = []
        while !shouldStop() {
            let now = monotonicSeconds()
            if let end, now >= end { break }
            // Without a deadline or an end, wake once a second only to notice shouldStop().
            let wake = min(sensor.deadline ?? .infinity, end ?? .infinity)
            let wait = wake.isFinite ? max(0, wake - now) : 1
            // A signal ends the wait: its handler may have asked the loop to stop.
            _ = FileDescriptor.waitReadable([sensor.pollDescriptor.map(FileDescriptor.init(rawValue:))],
                                            milliseconds: Int32(min((wait * 1000).rounded(.up), Double(Int32.max))), untilSignal: true)
            if let end, monotonicSeconds() >= end, sensor.deadline.map({ $0 >= end }) ?? true { break }
            wakeups += 1
            events.removeAll(keepingCapacity: true)
            sensor.process(into: &events)
            for event in events {
                var judgement: Perception.Judgement?
                switch event {
                case .opened(let info, let t): perception.open(info.perceived, at: t)
                case .lost: perception.lose()
                case .sample(let raw, let held): judgement = perception.judge(raw, held: held)
                case .log: break
                }
                handle(event, judgement, perception)
            }
            if !events.isEmpty { sensor.pace(perception.readingPeriod) }
        }
        return wakeups
    }
}

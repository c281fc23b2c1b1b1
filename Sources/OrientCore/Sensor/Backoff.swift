/// When to look for a vanished sensor again: quickly at first (a driver reloading, a device
/// re-enumerating), then, while udev announces devices, only as a slow safety net (udevd may not
/// run, in a container); without udev, once a second.
public struct Backoff: Sendable, Hashable {
    public static let delays: [Double] = [0.1, 0.2, 0.4, 0.8, 1.0]
    /// The safety net's period while a udev monitor watches for the device.
    public static let watchedDelay = 5.0
    /// The longest wait before trying a device that is there but refuses its readings while
    /// another program streams it: it reads again as soon as that stream stops.
    public static let busyDelay = 1.0
    /// How often a device read from its raw values because another program streamed it is
    /// checked for that stream's end (its buffer switched off), to be read as well as it can be.
    public static let streamCheckPeriod = 2.0
    public private(set) var attempts = 0

    public init() {}

    /// The delay before the next attempt, and counts it.
    public mutating func next(udevWatching: Bool = false) -> Double {
        defer { attempts += 1 }
        if udevWatching, attempts >= Self.delays.count { return Self.watchedDelay }
        return Self.delays[min(attempts, Self.delays.count - 1)]
    }

    /// Whether the quick attempts are over (from now on udev is waited for, if it can be).
    public var quickPhaseOver: Bool { attempts >= Self.delays.count }

    public mutating func reset() { attempts = 0 }
}

/// When to start the plugin's sensor helper again after it ended (`wlr-orient-sensor-feed`: it
/// crashed, or was killed): soon, then ever more slowly up to half a minute, so that one that
/// cannot run costs nothing noticeable; back to soon once it delivers a reading.
public struct RestartBackoff: Sendable, Hashable {
    public static let delays: [Double] = [0.2, 1, 2, 5, 10, 30]
    /// The longest pause (the table's last), kept from then on.
    public static var longest: Double { delays[delays.count - 1] }
    public private(set) var restarts = 0

    public init() {}

    /// The delay before the next start, and counts it.
    public mutating func next() -> Double {
        defer { restarts += 1 }
        return Self.delays[min(restarts, Self.delays.count - 1)]
    }

    /// It ran well: the next end is met with a quick start again.
    public mutating func reset() { restarts = 0 }
}

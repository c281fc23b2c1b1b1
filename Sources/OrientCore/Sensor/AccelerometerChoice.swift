/// What discovery learned about one accelerometer, before opening it.
public struct AccelerometerCandidate: Sendable, Hashable {
    /// The IIO id, `iio:deviceN`.
    public var id: String
    /// The driver's name (`accel_3d`, `bmc150_accel`…).
    public var name: String
    /// The sysfs `label` (`accel-display`, `accel-base`), if any.
    public var label: String?
    /// Where it sits: udev's `ACCEL_LOCATION`, else sysfs `location` (`display`, `base`, `lid`).
    public var location: String?

    public init(id: String, name: String, label: String? = nil, location: String? = nil) {
        self.id = id
        self.name = name
        self.label = label
        self.location = location
    }

    /// In the display (lid) half of a 2-in-1, as far as the system says.
    public var isInDisplay: Bool {
        ["display", "lid"].contains(location?.lowercased() ?? "") || (label?.lowercased().includes("display") ?? false)
    }

    /// In the keyboard base of a 2-in-1: its readings say nothing about the screen.
    public var isInBase: Bool {
        location?.lowercased() == "base" || (label?.lowercased().includes("base") ?? false)
    }
}

extension String {
    /// Whether `part` occurs in this string, byte for byte. (The standard library's
    /// `contains(_:)` for strings lives in _StringProcessing, which the plugin does not link:
    /// see Package.swift.)
    func includes(_ part: String) -> Bool {
        let whole = Array(utf8), part = Array(part.utf8)
        guard whole.count >= part.count else { return false }
        return (0...(whole.count - part.count)).contains { whole[$0..<($0 + part.count)].elementsEqual(part) }
    }
}

public enum AccelerometerChoice {
    /// The accelerometer to use: the one the config names (id, name or label); else the
    /// display's; else the first not in the base. Nil when none fits, with the reason for a log
    /// line: an accelerometer in the keyboard base of a laptop says how the keyboard is tilted,
    /// not how the screen is held, so one alone is never used unless the config names it (as
    /// iio-sensor-proxy never uses it for orientation).
    public static func choose(_ candidates: [AccelerometerCandidate], configured: String?)
        -> (chosen: AccelerometerCandidate?, reason: String)
    {
        if let configured, !configured.isEmpty {
            if let c = candidates.first(where: { $0.id == configured || $0.name == configured || $0.label == configured }) {
                return (c, "named in the config")
            }
            let known = candidates.map { c in "\(c.id) (\(c.label ?? c.name))" }
            return (nil, "the configured sensor \"\(configured)\" is not among \(known.isEmpty ? "no accelerometers" : known.joined(separator: ", "))")
        }
        // One accelerometer drives every panel: of two in the display (one per half of a
        // dual-screen device, or a hub and a SoC part), the first, saying so.
        let display = candidates.filter(\.isInDisplay)
        if let c = display.first { return (c, display.count > 1 ? Self.firstOf(display, "in the display") : "in the display") }
        let free = candidates.filter { !$0.isInBase }
        if let c = free.first {
            return (c, candidates.count == 1 ? "the only one" : free.count > 1 ? Self.firstOf(free, "not in the base") : "not in the base")
        }
        if !candidates.isEmpty {
            let names = candidates.map(\.id).joined(separator: ", ")
            return (nil, "the only accelerometer (\(names)) is in the keyboard base: it says how the keyboard is tilted,"
                    + " not how the screen is held, so nothing turns (name it as [device] sensor to use it all the same)")
        }
        return (nil, "no accelerometer found")
    }

    private static func firstOf(_ group: [AccelerometerCandidate], _ where: String) -> String {
        "the first of \(group.count) \(`where`) (\(group.map(\.id).joined(separator: ", "))): one drives every panel; name another as [device] sensor to use it"
    }
}

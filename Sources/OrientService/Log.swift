import OrientSystem

/// Where the plugin and the daemon write their log lines. The plugin sends them to the
/// compositor's log (wlr_log); the daemon writes them to standard error, where journald finds them.
public enum Log {
    public enum Level: Sendable {
        case debug, info, error
    }

    /// Set once, before anything logs (the plugin when it is created).
    nonisolated(unsafe) public static var write: (Level, String) -> Void = { level, message in
        _ = FileDescriptor.standardError.writeAll(Array("wlr-orient: \(message)\n".utf8))
    }

    /// Whether debug lines are written at all (the plugin sets it: the compositor's log filters them).
    nonisolated(unsafe) public static var showDebug = false

    public static func info(_ message: String) { say(.info, message) }
    public static func error(_ message: String) { say(.error, message) }
    /// The message is made only when debug lines are wanted (some come on every frame).
    public static func debug(_ message: @autoclosure () -> String) {
        guard showDebug else { return }
        say(.debug, message())
    }

    /// Written, and put among the events for whoever reads them (a test of what the log says).
    private static func say(_ level: Level, _ message: String) {
        write(level, message)
        Events.emit(.log(level: "\(level)", line: message))
    }
}

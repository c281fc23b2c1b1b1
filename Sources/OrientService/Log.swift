import Glibc

/// Where the plugin and the daemon write their log lines. The plugin sends them to the
/// compositor's log (wlr_log); the daemon writes them to standard error, where journald finds them.
public enum Log {
    public enum Level: Sendable {
        case debug, info, error
    }

    /// Set once, before anything logs (the plugin when it is created).
    nonisolated(unsafe) public static var write: (Level, String) -> Void = { level, message in
        guard level != .debug || showDebug else { return }
        let line = Array("wlr-orient: \(message)\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    /// Whether the default writer prints debug lines.
    nonisolated(unsafe) public static var showDebug = false

    public static func info(_ message: String) { write(.info, message) }
    public static func error(_ message: String) { write(.error, message) }
    public static func debug(_ message: String) { write(.debug, message) }
}

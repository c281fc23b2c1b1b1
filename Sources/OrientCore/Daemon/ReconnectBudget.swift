/// When the daemon connects again after the compositor ended its connection over a protocol
/// error, and when it gives up. wlroots 0.15, for one, destroys a head's object at once when its
/// output goes, so a configuration sent just then names an object that no longer exists and the
/// compositor ends the connection: that is met by connecting again, a bounded number of times a
/// minute (never a loop against a compositor that keeps refusing us).
public struct ReconnectBudget: Sendable {
    /// Why the connection failed, as libwayland says (`wl_display_get_error`).
    public enum Failure: Sendable, Hashable {
        /// An error on one of our objects (EPROTO), or on the display (EINVAL: a request naming
        /// an object the compositor no longer has): the compositor is still there.
        case protocolError
        /// Anything else: the connection itself is gone.
        case connectionGone
    }

    public static let perMinute = 3
    private var times: [Double] = []

    public init() {}

    /// Whether to connect again after `failure` at `now` (seconds, monotonic); counts it if so.
    public mutating func reconnects(after failure: Failure, at now: Double) -> Bool {
        times = times.filter { now - $0 < 60 }
        guard failure == .protocolError, times.count < Self.perMinute else { return false }
        times.append(now)
        return true
    }
}

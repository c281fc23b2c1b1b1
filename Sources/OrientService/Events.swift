import OrientCore
import OrientSystem

/// Where the plugin and the daemon write their events (`OrientEvent`) for tests and benchmarks:
/// the file `WLR_ORIENT_EVENTS` names, one JSON line each, added to its end. Without the
/// variable nothing is made or written. A write that fails is dropped: events never hold up the
/// compositor.
public enum Events {
    public static let variable = "WLR_ORIENT_EVENTS"

    nonisolated(unsafe) private static var stream: FileDescriptor?? = nil

    public static func emit(_ event: @autoclosure () -> OrientEvent) {
        guard let fd = descriptor else { return }
        _ = fd.writeAll(Array((event().json.serialized + "\n").utf8))
    }

    private static var descriptor: FileDescriptor? {
        if let stream { return stream }
        stream = .some(nil)   // a failure to open is logged, and the log emits events
        let opened = environmentValue(variable).flatMap { path -> FileDescriptor? in
            switch FileDescriptor.openForAppending(path) {
            case .success(let fd): return fd
            case .failure(let why):
                Log.error("events: \(why.reason); none are written")
                return nil
            }
        }
        stream = .some(opened)
        return opened
    }
}

import OrientCore
import OrientSystem

/// Where the plugin and the daemon send their events (`OrientEvent`) for tests and benchmarks:
/// the Unix datagram socket `WLR_ORIENT_EVENTS` names, one JSON object a message. Without the
/// variable nothing is sent. A message is whole or not sent at all, and a send never blocks and
/// never raises a signal: while the reader's queue is full, or once the reader has gone, events
/// are dropped. Events never hold up the compositor.
public enum Events {
    public static let variable = "WLR_ORIENT_EVENTS"

    nonisolated(unsafe) private static var socket: FileDescriptor?? = nil

    public static func emit(_ event: @autoclosure () -> OrientEvent) {
        guard let fd = descriptor else { return }
        let message = Array(event().json.serialized.utf8)
        _ = message.withUnsafeBytes { fd.send($0) }
    }

    private static var descriptor: FileDescriptor? {
        if let socket { return socket }
        socket = .some(nil)   // a failure to connect is logged, and the log emits events
        let connected = environmentValue(variable).flatMap { path -> FileDescriptor? in
            switch UnixSocket.connectDatagram(to: path) {
            case .success(let fd): return fd
            case .failure(let why):
                Log.error("events: \(why); none are sent")
                return nil
            }
        }
        socket = .some(connected)
        return connected
    }
}

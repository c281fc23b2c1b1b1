import OrientCore
import OrientSystem

/// Where the plugin and the daemon send their events (`OrientEvent`) for tests and benchmarks:
/// a sequenced-packet connection to the listener `WLR_ORIENT_EVENTS` names, one JSON object a
/// message. Without the variable nothing is sent. Events never hold up the host, and none is lost
/// in silence: what the reader is not ready for waits, in order, and beyond 4 MiB waiting (beside
/// what the kernel holds for the socket) the rest are counted and the count is sent in their
/// place (`EventChannel`): a reader that stops reading costs the host that much at most.
public enum Events {
    public static let variable = "WLR_ORIENT_EVENTS"
    /// Bytes of events that may wait for a slow reader before events are counted as lost.
    static let waitingLimit = 4 << 20

    nonisolated(unsafe) private static var channel: EventChannel?? = nil

    public static func emit(_ event: @autoclosure () -> OrientEvent) {
        guard let channel = connected else { return }
        channel.send(Array(event().json.serialized.utf8))
    }

    /// What waits for a slow reader goes out on `loop` as soon as the reader has room.
    public static func attach(loop: OpaquePointer?) {
        connected?.attach(loop: loop)
    }

    /// The loop is going (what waits goes with the next event, if one comes).
    public static func detach() {
        connected?.detach()
    }

    private static var connected: EventChannel? {
        if let channel { return channel }
        channel = .some(nil)   // a failure to connect is logged, and the log emits events
        let made = environmentValue(variable).flatMap { path -> EventChannel? in
            switch UnixSocket.connectSequencedPacket(to: path, sendBuffer: 8 << 20) {
            case .success(let fd): return EventChannel(fd: fd, limit: waitingLimit)
            case .failure(let why):
                Log.error("events: \(why); none are sent")
                return nil
            }
        }
        channel = .some(made)
        return made
    }
}

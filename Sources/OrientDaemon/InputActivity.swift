import CWaylandClient
import OrientService
import OrientSystem

/// The person's input, as the daemon can hear it from outside the compositor: an ext-idle-notify
/// notification on the seat, resumed when input begins after a pause and idled a moment after it
/// stops. It stands for the touches the plugin sees directly (the protocol does not tell a finger
/// from a key), for the touch hold.
final class InputActivity: CallbackOwner {
    private var notification: OpaquePointer?
    private let report: (Bool) -> Void
    private var active = false
    /// A compositor inhibits idleness while a video plays (idle-inhibit): then no idled comes, and
    /// input that began would hold turns for ever. An activity longer than this is let go.
    private var longest: LoopSource?
    static let longestSeconds: Int32 = 10

    /// `pause`: how long without input ends the activity (the hold's own time follows it).
    init?(notifier: OpaquePointer, seat: OpaquePointer, pause milliseconds: UInt32, loop: OpaquePointer,
          report: @escaping (Bool) -> Void) {
        self.report = report
        guard let notification = ext_idle_notifier_v1_get_idle_notification(notifier, milliseconds, seat) else { return nil }
        self.notification = notification
        ext_idle_notification_v1_add_listener(notification, Self.listener, callbackContext)
        longest = LoopSource.timer(on: loop) { [unowned self] in
            guard active else { return }
            active = false
            report(false)
        }
    }

    private func resumed() {
        guard !active else { return }
        active = true
        longest?.arm(milliseconds: Self.longestSeconds * 1000)
        report(true)
    }

    private func idled() {
        longest?.arm(milliseconds: 0)
        guard active else { return }
        active = false
        report(false)
    }

    func destroy() {
        longest.take()?.remove()
        // An activity that began goes with the connection: a hold left on would never end.
        if active {
            active = false
            report(false)
        }
        if let notification { ext_idle_notification_v1_destroy(notification) }
        notification = nil
    }

    nonisolated(unsafe) private static let listener = permanentListener(ext_idle_notification_v1_listener(
        idled: { data, _ in owner(data)?.idled() },
        resumed: { data, _ in owner(data)?.resumed() }))
}

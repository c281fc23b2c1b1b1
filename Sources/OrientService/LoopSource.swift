import CEventLoop
import OrientSystem

/// One source on a libwayland event loop (a readable descriptor, a timer, an idle call, a signal) whose callback is a
/// Swift closure: the one trampoline from the loop's C callbacks into Swift, so that no owner
/// passes itself through an opaque pointer. The source goes with `remove()` or when released.
///
/// The closure is kept by the source and the source by its owner: a closure that needs its
/// owner takes it `unowned` (the owner removes its sources before it goes).
public final class LoopSource {
    private var source: OpaquePointer?
    private let handler: Handler

    /// The closure, at a stable address for the loop's context pointer.
    private final class Handler: CallbackOwner {
        let run: (UInt32) -> Void
        /// For an idle source: it ran, and libwayland removed it.
        var spent = false
        init(_ run: @escaping (UInt32) -> Void) { self.run = run }
    }

    private init(handler: Handler) {
        self.handler = handler
    }

    /// Calls `run` with the event mask (WL_EVENT_READABLE…) whenever `fd` is ready; nil if the
    /// loop cannot watch it (out of descriptors).
    public static func readable(_ fd: Int32, on loop: OpaquePointer?, _ run: @escaping (_ mask: UInt32) -> Void) -> LoopSource? {
        let made = LoopSource(handler: Handler(run))
        made.source = glue_add_fd(loop, fd, made.handler.callbackContext) { _, mask, context in
            Handler.owner(context)?.run(mask)
            return 0
        }
        return made.source == nil ? nil : made
    }

    /// A timer, disarmed until `arm(milliseconds:)`; nil if the loop cannot make one.
    public static func timer(on loop: OpaquePointer?, _ run: @escaping () -> Void) -> LoopSource? {
        let made = LoopSource(handler: Handler { _ in run() })
        made.source = glue_add_timer(loop, made.handler.callbackContext) { context in
            Handler.owner(context)?.run(0)
            return 0
        }
        return made.source == nil ? nil : made
    }

    /// Runs `run` once, when the loop is next idle (the source goes by itself after it ran).
    public static func idle(on loop: OpaquePointer?, _ run: @escaping () -> Void) -> LoopSource? {
        let made = LoopSource(handler: Handler { _ in run() })
        made.source = glue_add_idle(loop, made.handler.callbackContext) { context in
            guard let handler = Handler.owner(context) else { return }
            handler.spent = true
            handler.run(0)
        }
        return made.source == nil ? nil : made
    }

    /// Calls `run` on the loop when the process receives `signal` (signalfd: nothing runs in a
    /// signal handler).
    public static func signal(_ signal: Int32, on loop: OpaquePointer?, _ run: @escaping () -> Void) -> LoopSource? {
        let made = LoopSource(handler: Handler { _ in run() })
        made.source = glue_add_signal(loop, signal, made.handler.callbackContext) { _, context in
            Handler.owner(context)?.run(0)
            return 0
        }
        return made.source == nil ? nil : made
    }

    /// A timer's next run, `milliseconds` from now (0: disarmed).
    public func arm(milliseconds: Int32) {
        if let source { wl_event_source_timer_update(source, milliseconds) }
    }

    /// Which events of a descriptor's wake it (WL_EVENT_READABLE, WL_EVENT_WRITABLE; 0: none).
    public func watch(_ mask: UInt32) {
        if let source { wl_event_source_fd_update(source, mask) }
    }

    /// An idle source that has run (libwayland has removed it).
    public var isSpent: Bool { handler.spent }

    /// Takes the source off the loop (safe twice, from within its own callback, and after an
    /// idle source ran: libwayland has removed that one itself).
    public func remove() {
        if let source, !handler.spent { wl_event_source_remove(source) }
        source = nil
    }

    deinit { remove() }
}

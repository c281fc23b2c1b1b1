import CWlrGlue
import OrientSystem

/// A watch of the glue's (orient_wlr.h) on one of the compositor's objects, owned by the Swift
/// object it calls back: removed by `remove()`, or when released. When the compositor destroys
/// the object, the glue removes the listeners itself (and calls back where the watch says so);
/// the memory goes here.
final class Watch {
    private var raw: OpaquePointer?

    init?(_ raw: OpaquePointer?) {
        guard let raw else { return nil }
        self.raw = raw
    }

    func remove() {
        orient_wlr_watch_destroy(raw)
        raw = nil
    }

    deinit { remove() }
}

/// A listener on the display's destroy signal.
final class DisplayDestroyListener: CallbackOwner {
    private var raw: OpaquePointer?
    private let handler: () -> Void

    init?(display: OpaquePointer?, _ handler: @escaping () -> Void) {
        self.handler = handler
        raw = glue_listener_create_display_destroy(display, callbackContext) { context in
            DisplayDestroyListener.owner(context)?.handler()
        }
        if raw == nil { return nil }
    }

    func remove() {
        glue_listener_destroy(raw)
        raw = nil
    }

    deinit { remove() }
}

/// One of the compositor's objects that the plugin follows through a watch (a panel, a toplevel,
/// an input device), told to its owner when the compositor destroys it.
protocol CompositorObject: CallbackOwner {
    var onDestroy: (Self) -> Void { get }
}

extension CompositorObject {
    /// The watch's `destroyed` callback.
    static func destroyed(_ context: UnsafeMutableRawPointer?) {
        owner(context).map { $0.onDestroy($0) }
    }
}

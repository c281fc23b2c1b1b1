import CWlrGlue

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
final class DisplayDestroyListener {
    private var raw: OpaquePointer?
    private let handler: () -> Void

    init?(display: OpaquePointer?, _ handler: @escaping () -> Void) {
        self.handler = handler
        raw = glue_listener_create_display_destroy(display, Unmanaged.passUnretained(self).toOpaque()) { context in
            guard let context else { return }
            Unmanaged<DisplayDestroyListener>.fromOpaque(context).takeUnretainedValue().handler()
        }
        if raw == nil { return nil }
    }

    func remove() {
        glue_listener_destroy(raw)
        raw = nil
    }

    deinit { remove() }
}

/// The Swift object behind a glue callback's context.
func owner<T: AnyObject>(_ context: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
    context.map { Unmanaged<T>.fromOpaque($0).takeUnretainedValue() }
}

import CWlrGlue

/// A wl_listener owned by Swift: added on creation, removed by `remove()` or when released.
/// Objects keep their listeners in an array and remove them all in their destroy handler.
final class Listener {
    private var raw: OpaquePointer?
    private let handler: (UnsafeMutableRawPointer?) -> Void

    init?(_ signal: UnsafeMutablePointer<wl_signal>?, _ handler: @escaping (UnsafeMutableRawPointer?) -> Void) {
        guard let signal else { return nil }
        self.handler = handler
        raw = glue_listener_create(signal, Unmanaged.passUnretained(self).toOpaque(), Listener.trampoline)
        if raw == nil { return nil }
    }

    /// A listener on the display's destroy signal.
    init?(displayDestroy display: OpaquePointer?, _ handler: @escaping (UnsafeMutableRawPointer?) -> Void) {
        guard let display else { return nil }
        self.handler = handler
        raw = glue_listener_create_display_destroy(display, Unmanaged.passUnretained(self).toOpaque(), Listener.trampoline)
        if raw == nil { return nil }
    }

    private static let trampoline: glue_callback = { context, data in
        guard let context else { return }
        Unmanaged<Listener>.fromOpaque(context).takeUnretainedValue().handler(data)
    }

    func remove() {
        glue_listener_destroy(raw)
        raw = nil
    }

    deinit { remove() }
}

/// The address of a wl_signal inside a C struct (signals must not be copied).
func signal<T>(_ base: UnsafeMutablePointer<T>?, _ field: KeyPath<T, wl_signal>) -> UnsafeMutablePointer<wl_signal>? {
    guard let base, let offset = MemoryLayout<T>.offset(of: field) else { return nil }
    return UnsafeMutableRawPointer(base).advanced(by: offset).assumingMemoryBound(to: wl_signal.self)
}

/// Listeners on one object of the compositor's, removed together when that object is destroyed
/// (a compositor may destroy its backend, xdg-shell or seat before the plugin, with the display)
/// or when the plugin goes, whichever comes first.
final class ListenerGroup {
    private var listeners: [Listener] = []

    /// - Parameter destroy: the object's destroy signal.
    init(destroy: UnsafeMutablePointer<wl_signal>?, _ listeners: [Listener?]) {
        self.listeners = listeners.compactMap { $0 }
        if let gone = Listener(destroy, { [unowned self] _ in removeAll() }) { self.listeners.append(gone) }
    }

    func removeAll() {
        listeners.forEach { $0.remove() }
        listeners = []
    }
}

/// An object that C code calls back with a `void *` context: what wlroots listeners, Wayland
/// proxies, event-loop sources and the glue's watches carry. The one place where a Swift object
/// becomes such a pointer and back.
///
/// The context does not retain its owner: an owner removes its callbacks before it goes (its
/// `remove()`, `destroy()` or `deinit`), so a callback never finds a freed object.
public protocol CallbackOwner: AnyObject {}

extension CallbackOwner {
    /// This object as a C callback's context.
    public var callbackContext: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The owner a callback's context stands for; nil for a NULL context.
    public static func owner(_ context: UnsafeMutableRawPointer?) -> Self? {
        context.map { Unmanaged<Self>.fromOpaque($0).takeUnretainedValue() }
    }
}

import CWlrGlue
import OrientSystem

/// A touchscreen or pen tablet: mapped to the built-in panel so that its coordinates turn with it.
/// Kept until the device goes, because the backend may announce it before the panel (a compositor
/// that adds its input devices first, or a panel plugged in later) or the panel may be replaced.
final class PositionalDevice: CompositorObject {
    let device: OpaquePointer
    private var watch: Watch?
    let onDestroy: (PositionalDevice) -> Void

    init(device: OpaquePointer, onDestroy: @escaping (PositionalDevice) -> Void) {
        self.device = device
        self.onDestroy = onDestroy
        var events = orient_wlr_input_events(
            context: callbackContext,
            destroyed: { PositionalDevice.destroyed($0) })
        watch = Watch(orient_wlr_watch_input(device, &events))
    }

    /// Maps the device to `output` (nil: the whole layout, as before any panel).
    func map(cursor: OpaquePointer?, to output: OpaquePointer?) {
        orient_wlr_cursor_map_to_output(cursor, device, output)
    }

    func detach() {
        watch?.remove()
        watch = nil
    }
}

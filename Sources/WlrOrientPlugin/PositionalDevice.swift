import CWlrGlue
import OrientCore
import OrientSystem

/// A touchscreen, pen tablet or pointer. A touchscreen or pen tablet is mapped to the built-in
/// panel so that its coordinates turn with it, and kept until the device goes, because the
/// backend may announce it before the panel (a compositor that adds its input devices first, or a
/// panel plugged in later) or the panel may be replaced. Its contacts (touches, the pen's tip, a
/// pointer's buttons) are heard for the touch hold and for taps on the suggestion's target.
final class PositionalDevice: CompositorObject {
    let device: OpaquePointer
    /// Mapped to the panel (touchscreens and pen tablets; not pointers).
    let mapsToPanel: Bool
    private var watch: Watch?
    let onDestroy: (PositionalDevice) -> Void
    /// A contact: a touch or pen in the device's own axes (0...1), a button at a point of the
    /// layout (NaN for an up or a cancel).
    let contact: (Contacts.Source, Int32, Contacts.Phase, Double, Double) -> Void

    init(device: OpaquePointer, cursor: OpaquePointer?, mapsToPanel: Bool,
         contact: @escaping (Contacts.Source, Int32, Contacts.Phase, Double, Double) -> Void,
         onDestroy: @escaping (PositionalDevice) -> Void) {
        self.device = device
        self.mapsToPanel = mapsToPanel
        self.contact = contact
        self.onDestroy = onDestroy
        var events = orient_wlr_input_events(
            context: callbackContext,
            destroyed: { PositionalDevice.destroyed($0) },
            contact: { context, source, id, what, lx, ly in
                PositionalDevice.owner(context)?.contact(PositionalDevice.source(source), id, PositionalDevice.phase(what), lx, ly)
            })
        watch = Watch(orient_wlr_watch_input(device, cursor, &events))
    }

    private static func source(_ s: orient_wlr_contact_source) -> Contacts.Source {
        switch s {
        case ORIENT_WLR_CONTACT_PEN: .pen
        case ORIENT_WLR_CONTACT_BUTTON: .button
        default: .finger
        }
    }

    private static func phase(_ p: orient_wlr_contact) -> Contacts.Phase {
        switch p {
        case ORIENT_WLR_CONTACT_DOWN: .down
        case ORIENT_WLR_CONTACT_MOTION: .motion
        case ORIENT_WLR_CONTACT_UP: .up
        default: .cancel
        }
    }

    /// Maps the device to `output` (nil: the whole layout, as before any panel).
    func map(cursor: OpaquePointer?, to output: OpaquePointer?) {
        guard mapsToPanel else { return }
        orient_wlr_cursor_map_to_output(cursor, device, output)
    }

    func detach() {
        watch?.remove()
        watch = nil
    }
}

import CWlrGlue
import OrientCore
import OrientSystem

/// A switch input device: its tablet-mode toggles become controller events (lid switches and
/// others are ignored).
final class SwitchDevice: CompositorObject {
    let device: OpaquePointer
    private var watch: Watch?
    private let report: (ControllerEvent) -> Void
    let onDestroy: (SwitchDevice) -> Void
    /// The last state, for a "changed" toggle (which only says that it changed).
    private var tablet: Bool?

    init(device: OpaquePointer, report: @escaping (ControllerEvent) -> Void, onDestroy: @escaping (SwitchDevice) -> Void) {
        self.device = device
        self.report = report
        self.onDestroy = onDestroy
        var events = orient_wlr_switch_events(
            context: callbackContext,
            tablet_mode: { context, state in SwitchDevice.owner(context)?.toggled(state) },
            destroyed: { SwitchDevice.destroyed($0) })
        watch = Watch(orient_wlr_watch_switch(device, &events))
    }

    private func toggled(_ state: Int32) {
        let on = state < 0 ? !(tablet ?? false) : state == 1
        tablet = on
        report(.tabletMode(on))
    }

    func detach() {
        watch?.remove()
        watch = nil
    }
}

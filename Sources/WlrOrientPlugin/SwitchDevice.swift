import CWlrGlue
import OrientCore

/// A switch input device: its tablet-mode toggles become controller events (lid switches and
/// others are ignored).
final class SwitchDevice {
    let device: UnsafeMutablePointer<wlr_input_device>
    private var listeners: [Listener] = []
    /// The last state, for a TOGGLE event (which only says "it changed").
    private var tablet: Bool?

    init(device: UnsafeMutablePointer<wlr_input_device>, report: @escaping (ControllerEvent) -> Void,
         onDestroy: @escaping (SwitchDevice) -> Void) {
        self.device = device
        listeners = [
            Listener(signal(device, \.events.destroy)) { [unowned self] _ in onDestroy(self) },
            Listener(signal(device.pointee.switch_device, \.events.toggle)) { [unowned self] data in
                guard let event = data?.assumingMemoryBound(to: wlr_event_switch_toggle.self).pointee,
                      event.switch_type == WLR_SWITCH_TYPE_TABLET_MODE else { return }
                let on: Bool
                switch event.switch_state {
                case WLR_SWITCH_STATE_ON: on = true
                case WLR_SWITCH_STATE_OFF: on = false
                default: on = !(tablet ?? false)
                }
                tablet = on
                report(.tabletMode(on))
            },
        ].compactMap { $0 }
    }

    func detach() {
        listeners.forEach { $0.remove() }
        listeners = []
    }
}

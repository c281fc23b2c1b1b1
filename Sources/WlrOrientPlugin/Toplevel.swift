import CWlrGlue
import OrientCore

/// An xdg toplevel the plugin follows: its app_id, whether it is shown, whether it covers its
/// output (fullscreen or maximized). Reports each change as a controller event.
final class Toplevel {
    let surface: UnsafeMutablePointer<wlr_xdg_surface>
    let id: ToplevelID
    private(set) var covers: Bool
    private var listeners: [Listener] = []

    static func id(of surface: UnsafeMutablePointer<wlr_xdg_surface>) -> ToplevelID {
        ToplevelID(UInt(bitPattern: surface))
    }

    /// Called at the toplevel's initial commit (xdg-shell's `new_surface` in wlroots 0.15), before
    /// its first configure is sent. The host's own handler has run: what it scheduled (maximized,
    /// fullscreen) counts, as does what the client asked for before mapping.
    init(surface: UnsafeMutablePointer<wlr_xdg_surface>, report: @escaping (ControllerEvent) -> Void,
         onDestroy: @escaping (Toplevel) -> Void) {
        self.surface = surface
        self.id = Self.id(of: surface)
        let toplevel = surface.pointee.toplevel
        let scheduled = toplevel?.pointee.scheduled
        let requested = toplevel?.pointee.requested
        covers = (scheduled?.fullscreen ?? false) || (scheduled?.maximized ?? false)
            || (requested?.fullscreen ?? false) || (requested?.maximized ?? false)
        let id = self.id
        listeners = [
            Listener(signal(surface, \.events.destroy)) { [unowned self] _ in onDestroy(self) },
            Listener(signal(surface, \.events.map)) { _ in report(.toplevelMapped(id, true)) },
            Listener(signal(surface, \.events.unmap)) { _ in report(.toplevelMapped(id, false)) },
            Listener(signal(toplevel, \.events.set_app_id)) { [unowned self] _ in report(.toplevelAppID(id, appID)) },
            Listener(signal(surface.pointee.surface, \.events.commit)) { [unowned self] _ in
                // What counts is the state the client has acked. This listener also runs for the
                // initial commit it was added in, whose acked state is still empty: skip that one.
                guard surface.pointee.configured, let state = surface.pointee.toplevel?.pointee.current else { return }
                let now = state.fullscreen || state.maximized
                if now != covers {
                    covers = now
                    report(.toplevelCovers(id, now))
                }
            },
        ].compactMap { $0 }
    }

    var appID: String {
        surface.pointee.toplevel?.pointee.app_id.map { String(cString: $0) } ?? ""
    }

    /// Removes every listener (the toplevel is going away, or the plugin is).
    func detach() {
        listeners.forEach { $0.remove() }
        listeners = []
    }
}

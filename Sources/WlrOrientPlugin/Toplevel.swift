import CWlrGlue
import OrientCore
import OrientSystem

/// An xdg toplevel the plugin follows: its app_id, whether it is shown, whether it covers its
/// output (fullscreen or maximized). Reports each change as a controller event.
final class Toplevel: CompositorObject {
    /// Its xdg_surface, which names it in every wlroots release.
    let surface: OpaquePointer
    let id: ToplevelID
    private(set) var covers: Bool
    private var watch: Watch?
    private let report: (ControllerEvent) -> Void
    let onDestroy: (Toplevel) -> Void

    static func id(of surface: OpaquePointer) -> ToplevelID {
        ToplevelID(UInt(bitPattern: surface))
    }

    /// Called at the toplevel's initial commit, before its first configure is sent, after the
    /// host's own handling of it: what the host scheduled (maximized, fullscreen) counts, as does
    /// what the client asked for before mapping.
    init(surface: OpaquePointer, report: @escaping (ControllerEvent) -> Void, onDestroy: @escaping (Toplevel) -> Void) {
        self.surface = surface
        self.id = Self.id(of: surface)
        self.report = report
        self.onDestroy = onDestroy
        covers = orient_wlr_toplevel_will_cover(surface)
        var events = orient_wlr_toplevel_events(
            context: callbackContext,
            mapped: { context, mapped in
                guard let t = Toplevel.owner(context) else { return }
                t.report(.toplevelMapped(t.id, mapped))
            },
            app_id: { context in
                guard let t = Toplevel.owner(context) else { return }
                t.report(.toplevelAppID(t.id, t.appID))
            },
            committed: { context in Toplevel.owner(context)?.committed() },
            destroyed: { Toplevel.destroyed($0) })
        watch = Watch(orient_wlr_watch_toplevel(surface, &events))
    }

    /// What counts is the state the client has acked (before it acked a first configure, none:
    /// the initial commit's state is still empty).
    private func committed() {
        guard Self.configured(surface) else { return }
        let now = orient_wlr_toplevel_covers(surface)
        guard now != covers else { return }
        covers = now
        report(.toplevelCovers(id, now))
    }

    private static func configured(_ surface: OpaquePointer) -> Bool {
        var serial: UInt32 = 0
        var mapped = false, configured = false
        orient_wlr_toplevel_configure_facts(surface, &serial, &mapped, &configured)
        return configured
    }

    var appID: String {
        String(cString: orient_wlr_toplevel_app_id(surface))
    }

    /// Removes every listener (the toplevel is going away, or the plugin is).
    func detach() {
        watch?.remove()
        watch = nil
    }
}

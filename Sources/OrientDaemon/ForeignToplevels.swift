import CWaylandClient
import OrientCore
import OrientSystem

/// The compositor's toplevels as zwlr_foreign_toplevel_manager_v1 describes them, told to the
/// controller as the plugin tells it about xdg toplevels: added, app_id, covering (maximized or
/// fullscreen), shown or minimized, on which panels, and which one is activated (focus).
final class ForeignToplevels: CallbackOwner {
    private struct Handle {
        let id: ToplevelID
        var appID = ""
        var states: Set<UInt32> = []
        var outputs: Set<OpaquePointer> = []
        /// What the controller was last told (nil: not yet added).
        var told: Told?

        struct Told: Equatable {
            var appID: String
            var covers: Bool
            var shown: Bool
            var panels: Set<PanelID>?
        }

        // zwlr_foreign_toplevel_handle_v1.state values.
        var covers: Bool { states.contains(0) || states.contains(3) }
        var shown: Bool { !states.contains(1) }
        var activated: Bool { states.contains(2) }
    }

    let manager: OpaquePointer
    private var handles: [OpaquePointer: Handle] = [:]
    private var nextID: UInt = 1
    private var focused: ToplevelID?
    /// Where changes go; nil until `attach` (until then the handles are only recorded).
    private var report: ((ControllerEvent) -> Void)?
    /// The panels that a set of wl_outputs are.
    private var panelsOf: (Set<OpaquePointer>) -> Set<PanelID>? = { _ in nil }
    var finished: () -> Void = {}

    init(manager: OpaquePointer) {
        self.manager = manager
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, Self.managerListener, callbackContext)
    }

    /// From now on every change is reported, starting with the toplevels there already are.
    func attach(report: @escaping (ControllerEvent) -> Void, panelsOf: @escaping (Set<OpaquePointer>) -> Set<PanelID>?) {
        self.report = report
        self.panelsOf = panelsOf
        for proxy in handles.keys { tell(proxy) }
        // Told even when nothing is activated: else the last toplevel added stays "launching".
        tellFocus(force: true)
    }

    func destroy() {
        handles.keys.forEach { zwlr_foreign_toplevel_handle_v1_destroy($0) }
        handles = [:]
        zwlr_foreign_toplevel_manager_v1_destroy(manager)
    }

    /// The panels changed: each toplevel's panels are told again where they differ.
    func panelsChanged() {
        for proxy in handles.keys { tell(proxy) }
        tellFocus()
    }

    /// The connection ends: every toplevel the controller knows goes.
    func removeAll() {
        for h in handles.values.sorted(by: { $0.id < $1.id }) where h.told != nil { report?(.toplevelRemoved(h.id)) }
        for proxy in handles.keys { handles[proxy]?.told = nil }
        if focused != nil {
            focused = nil
            report?(.focus(nil))
        }
    }

    /// A wl_output went away: it is no longer any toplevel's.
    func forget(output: OpaquePointer) {
        for proxy in handles.keys { handles[proxy]?.outputs.remove(output) }
        panelsChanged()
    }

    /// After a handle's `done`: what changed, in the order the plugin would report it.
    private func tell(_ proxy: OpaquePointer) {
        guard let report, let h = handles[proxy] else { return }
        let now = Handle.Told(appID: h.appID, covers: h.covers, shown: h.shown, panels: panelsOf(h.outputs))
        guard now != h.told else { return }
        handles[proxy]?.told = now
        guard let before = h.told else {
            report(.toplevelAdded(h.id, appID: now.appID, covers: now.covers))
            report(.toplevelPanels(h.id, now.panels))
            report(.toplevelMapped(h.id, now.shown))
            return
        }
        if before.appID != now.appID { report(.toplevelAppID(h.id, now.appID)) }
        if before.covers != now.covers { report(.toplevelCovers(h.id, now.covers)) }
        if before.panels != now.panels { report(.toplevelPanels(h.id, now.panels)) }
        if before.shown != now.shown { report(.toplevelMapped(h.id, now.shown)) }
    }

    /// Focus is the activated toplevel. It is told after every change, and after a toplevel
    /// appears: the daemon sees toplevels only once they are shown, so none is "launching".
    private func tellFocus(force: Bool = false) {
        guard let report else { return }
        let active = handles.values.filter { $0.activated && $0.told != nil }.map(\.id).min()
        guard force || active != focused else { return }
        focused = active
        report(.focus(active))
    }

    private func update(_ proxy: OpaquePointer?, _ change: (inout Handle) -> Void) {
        guard let proxy, var handle = handles[proxy] else { return }
        change(&handle)
        handles[proxy] = handle
    }

    nonisolated(unsafe) private static let managerListener = permanentListener(zwlr_foreign_toplevel_manager_v1_listener(
        toplevel: { data, _, proxy in
            guard let self_ = owner(data), let proxy else { return }
            self_.handles[proxy] = Handle(id: ToplevelID(self_.nextID))
            self_.nextID += 1
            zwlr_foreign_toplevel_handle_v1_add_listener(proxy, handleListener, data)
        },
        finished: { data, _ in owner(data)?.finished() }))

    nonisolated(unsafe) private static let handleListener = permanentListener(zwlr_foreign_toplevel_handle_v1_listener(
        title: { _, _, _ in },
        app_id: { data, proxy, appID in owner(data)?.update(proxy) { $0.appID = appID.map { String(cString: $0) } ?? "" } },
        output_enter: { data, proxy, output in
            guard let output else { return }
            owner(data)?.update(proxy) { _ = $0.outputs.insert(output) }
        },
        output_leave: { data, proxy, output in
            guard let output else { return }
            owner(data)?.update(proxy) { _ = $0.outputs.remove(output) }
        },
        state: { data, proxy, array in
            var states: Set<UInt32> = []
            if let array, let base = array.pointee.data {
                let count = array.pointee.size / MemoryLayout<UInt32>.size
                let values = base.bindMemory(to: UInt32.self, capacity: count)
                for i in 0..<count { states.insert(values[i]) }
            }
            owner(data)?.update(proxy) { $0.states = states }
        },
        done: { data, proxy in
            guard let self_ = owner(data), let proxy else { return }
            let added = self_.handles[proxy]?.told == nil
            self_.tell(proxy)
            self_.tellFocus(force: added)
        },
        closed: { data, proxy in
            guard let self_ = owner(data), let proxy, let handle = self_.handles.removeValue(forKey: proxy) else { return }
            zwlr_foreign_toplevel_handle_v1_destroy(proxy)
            if handle.told != nil { self_.report?(.toplevelRemoved(handle.id)) }
            if self_.focused == handle.id { self_.focused = nil }
            self_.tellFocus()
        },
        parent: { _, _, _ in }))
}

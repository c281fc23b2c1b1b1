import CWaylandClient

/// The compositor's globals the daemon uses: the output manager, the foreign-toplevel manager, and
/// every wl_output with its name (foreign-toplevel says which wl_outputs a toplevel is on; the
/// name, wl_output version 4, says which head that is).
final class Globals {
    private(set) var registry: OpaquePointer?
    /// Made as soon as the global is bound: the compositor describes its heads and toplevels at
    /// once, and an event for a proxy without a listener is lost.
    private(set) var heads: OutputHeads?
    private(set) var toplevels: ForeignToplevels?
    /// wl_output proxies by global name, and their output names once told.
    private var outputs: [UInt32: OpaquePointer] = [:]
    private(set) var outputNames: [OpaquePointer: String] = [:]
    /// A wl_output global appeared or went after start-up (its proxy, and whether it went).
    var outputsChanged: (_ removed: OpaquePointer?) -> Void = { _ in }

    /// The versions this build speaks (protocol/wlr/).
    static let outputManagerVersion: UInt32 = 2
    static let toplevelManagerVersion: UInt32 = 3
    static let outputVersion: UInt32 = 4

    init(display: OpaquePointer) {
        registry = wl_display_get_registry(display)
        if let registry { wl_registry_add_listener(registry, Self.registryListener, Unmanaged.passUnretained(self).toOpaque()) }
    }

    func destroy() {
        outputs.values.forEach { wl_output_destroy($0) }
        outputs = [:]
        outputNames = [:]
        if let registry { wl_registry_destroy(registry) }
        registry = nil
    }

    /// The daemon takes the managers over (it destroys them).
    func takeManagers() -> (heads: OutputHeads?, toplevels: ForeignToplevels?) {
        defer { heads = nil; toplevels = nil }
        return (heads, toplevels)
    }

    private func global(name: UInt32, interface: String, version: UInt32) {
        guard let registry else { return }
        switch interface {
        case "zwlr_output_manager_v1" where heads == nil:
            guard let manager = OpaquePointer(wl_registry_bind(registry, name, glue_output_manager_interface(), min(version, Self.outputManagerVersion))) else { return }
            heads = OutputHeads(manager: manager)
        case "zwlr_foreign_toplevel_manager_v1" where toplevels == nil:
            guard let manager = OpaquePointer(wl_registry_bind(registry, name, glue_foreign_toplevel_manager_interface(), min(version, Self.toplevelManagerVersion))) else { return }
            toplevels = ForeignToplevels(manager: manager)
        case "wl_output":
            guard let output = OpaquePointer(wl_registry_bind(registry, name, glue_output_interface(), min(version, Self.outputVersion))) else { return }
            outputs[name] = output
            wl_output_add_listener(output, Self.outputListener, Unmanaged.passUnretained(self).toOpaque())
            outputsChanged(nil)
        default:
            break
        }
    }

    private func globalRemoved(name: UInt32) {
        guard let output = outputs.removeValue(forKey: name) else { return }
        outputNames[output] = nil
        outputsChanged(output)
        wl_output_destroy(output)
    }

    private static func owner(_ data: UnsafeMutableRawPointer?) -> Globals? {
        data.map { Unmanaged<Globals>.fromOpaque($0).takeUnretainedValue() }
    }

    nonisolated(unsafe) private static let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
        let l = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        l.initialize(to: wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let interface else { return }
                owner(data)?.global(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { data, _, name in owner(data)?.globalRemoved(name: name) }))
        return l
    }()

    nonisolated(unsafe) private static let outputListener: UnsafeMutablePointer<wl_output_listener> = {
        let l = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
        l.initialize(to: wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { _, _, _, _, _, _ in },
            done: { data, _ in owner(data)?.outputsChanged(nil) },
            scale: { _, _, _ in },
            name: { data, output, name in
                guard let self_ = owner(data), let output, let name else { return }
                self_.outputNames[output] = String(cString: name)
            },
            description: { _, _, _ in }))
        return l
    }()
}

import CWaylandClient
import OrientCore
import OrientSystem

/// The compositor's globals the daemon uses: the output manager, the foreign-toplevel manager, and
/// every wl_output with its name (foreign-toplevel says which wl_outputs a toplevel is on; the
/// name, wl_output version 4, says which head that is).
final class Globals: CallbackOwner {
    private(set) var registry: OpaquePointer?
    /// Made as soon as the global is bound: the compositor describes its heads and toplevels at
    /// once, and an event for a proxy without a listener is lost.
    private(set) var heads: OutputHeads?
    private(set) var toplevels: ForeignToplevels?
    /// wl_output proxies by global name, and their output names once told.
    private var outputs: [UInt32: OpaquePointer] = [:]
    private(set) var outputNames: [OpaquePointer: String] = [:]
    /// Where each wl_output lies in the compositor's space (its geometry event).
    private var outputPositions: [OpaquePointer: (x: Int32, y: Int32)] = [:]
    /// What the shield over a turning panel needs (nil: the compositor lacks it).
    private(set) var shieldParts = ShieldParts()
    /// Where the person's input is heard (ext-idle-notify on the first seat): the touch hold.
    private(set) var idleNotifier: OpaquePointer?
    private(set) var seat: OpaquePointer?
    /// What the seat has (wl_seat's capabilities: a pointer, a touchscreen), for the target's taps.
    private(set) var seatCapabilities: UInt32 = 0
    /// A wl_output global appeared or went after start-up (its proxy, and whether it went).
    var outputsChanged: (_ removed: OpaquePointer?) -> Void = { _ in }

    /// The versions this build speaks (protocol/wlr/).
    static let outputManagerVersion: UInt32 = 2
    static let toplevelManagerVersion: UInt32 = 3
    static let outputVersion: UInt32 = 4
    static let compositorVersion: UInt32 = 4
    static let layerShellVersion: UInt32 = 4
    static let screencopyVersion: UInt32 = 3
    /// protocol/ext/.
    static let imageCopyVersion: UInt32 = 1
    static let outputSourcesVersion: UInt32 = 1

    init(display: OpaquePointer) {
        registry = wl_display_get_registry(display)
        if let registry { wl_registry_add_listener(registry, Self.registryListener, callbackContext) }
    }

    func destroy() {
        shieldParts.destroy()
        if let idleNotifier { ext_idle_notifier_v1_destroy(idleNotifier) }
        if let seat { wl_seat_destroy(seat) }
        (idleNotifier, seat) = (nil, nil)
        outputs.values.forEach { wl_output_destroy($0) }
        outputs = [:]
        outputNames = [:]
        outputPositions = [:]
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
        case "wl_compositor" where shieldParts.compositor == nil:
            shieldParts.compositor = OpaquePointer(wl_registry_bind(registry, name, glue_compositor_interface(), min(version, Self.compositorVersion)))
        case "wl_shm" where shieldParts.shm == nil:
            shieldParts.shm = OpaquePointer(wl_registry_bind(registry, name, glue_shm_interface(), 1))
        case "zwlr_layer_shell_v1" where shieldParts.layerShell == nil:
            shieldParts.layerShell = OpaquePointer(wl_registry_bind(registry, name, glue_layer_shell_interface(), min(version, Self.layerShellVersion)))
        case "zwlr_screencopy_manager_v1" where shieldParts.screencopy == nil:
            shieldParts.screencopyVersion = min(version, Self.screencopyVersion)
            shieldParts.screencopy = OpaquePointer(wl_registry_bind(registry, name, glue_screencopy_manager_interface(), shieldParts.screencopyVersion))
        case "ext_image_copy_capture_manager_v1" where shieldParts.imageCopy == nil:
            shieldParts.imageCopy = OpaquePointer(wl_registry_bind(registry, name, glue_image_copy_capture_manager_interface(),
                                                                   min(version, Self.imageCopyVersion)))
        case "ext_output_image_capture_source_manager_v1" where shieldParts.outputSources == nil:
            shieldParts.outputSources = OpaquePointer(wl_registry_bind(registry, name, glue_output_capture_source_manager_interface(),
                                                                       min(version, Self.outputSourcesVersion)))
        case "wp_viewporter" where shieldParts.viewporter == nil:
            shieldParts.viewporter = OpaquePointer(wl_registry_bind(registry, name, glue_viewporter_interface(), 1))
        case "ext_idle_notifier_v1" where idleNotifier == nil:
            idleNotifier = OpaquePointer(wl_registry_bind(registry, name, glue_idle_notifier_interface(), 1))
        case "wl_seat" where seat == nil:
            seat = OpaquePointer(wl_registry_bind(registry, name, glue_seat_interface(), 1))
            if let seat { wl_seat_add_listener(seat, Self.seatListener, callbackContext) }
        case "wl_output":
            guard let output = OpaquePointer(wl_registry_bind(registry, name, glue_output_interface(), min(version, Self.outputVersion))) else { return }
            outputs[name] = output
            wl_output_add_listener(output, Self.outputListener, callbackContext)
            outputsChanged(nil)
        default:
            break
        }
    }

    /// The wl_output of the output named `name`; where outputs have no names (wl_output before
    /// version 4, as in wlroots 0.15), the one alone at its head's position.
    func output(named name: String, at position: (x: Int32, y: Int32)) -> OpaquePointer? {
        if let named = outputNames.first(where: { $0.value == name })?.key { return named }
        guard outputNames.isEmpty else { return nil }
        let there = outputs.values.filter { outputPositions[$0].map { $0 == position } ?? false }
        return there.count == 1 ? there.first : outputs.count == 1 ? outputs.values.first : nil
    }

    private func globalRemoved(name: UInt32) {
        guard let output = outputs.removeValue(forKey: name) else { return }
        outputNames[output] = nil
        outputPositions[output] = nil
        outputsChanged(output)
        wl_output_destroy(output)
    }

    nonisolated(unsafe) private static let registryListener = permanentListener(wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface else { return }
            owner(data)?.global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in owner(data)?.globalRemoved(name: name) }))

    nonisolated(unsafe) private static let seatListener = permanentListener(wl_seat_listener(
        capabilities: { data, _, capabilities in owner(data)?.seatCapabilities = capabilities },
        name: { _, _, _ in }))

    nonisolated(unsafe) private static let outputListener = permanentListener(wl_output_listener(
        geometry: { data, output, x, y, _, _, _, _, _, _ in
            guard let output else { return }
            owner(data)?.outputPositions[output] = (x, y)
        },
        mode: { _, _, _, _, _, _ in },
        done: { data, _ in owner(data)?.outputsChanged(nil) },
        scale: { _, _, _ in },
        name: { data, output, name in
            guard let self_ = owner(data), let output, let name else { return }
            self_.outputNames[output] = String(cString: name)
        },
        description: { _, _, _ in }))
}

/// The globals the shield needs, bound when offered.
struct ShieldParts {
    var compositor: OpaquePointer?
    var shm: OpaquePointer?
    var layerShell: OpaquePointer?
    /// The picture: ext-image-copy-capture with its output sources (preferred), or screencopy.
    var imageCopy: OpaquePointer?
    var outputSources: OpaquePointer?
    var screencopy: OpaquePointer?
    var screencopyVersion: UInt32 = 0
    /// Optional: with it, a turning frame is drawn small and the compositor scales it up.
    var viewporter: OpaquePointer?

    /// The capture protocol a shield uses here (nil: none is offered whole).
    var capture: ShieldCapture? {
        let offered = [("ext_image_copy_capture_manager_v1", imageCopy), ("ext_output_image_capture_source_manager_v1", outputSources),
                       (ShieldCapture.screencopyGlobal, screencopy)].compactMap { $0.1 == nil ? nil : $0.0 }
        return ShieldCapture.chosen(offered: Set(offered))
    }

    /// What is missing, by protocol name (empty: a shield can be laid).
    var missing: [String] {
        [("wl_compositor", compositor), ("wl_shm", shm), ("zwlr_layer_shell_v1", layerShell)].compactMap { $0.1 == nil ? $0.0 : nil }
            + (capture == nil ? [ShieldCapture.lacking] : [])
    }

    mutating func destroy() {
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let screencopy { zwlr_screencopy_manager_v1_destroy(screencopy) }
        if let imageCopy { ext_image_copy_capture_manager_v1_destroy(imageCopy) }
        if let outputSources { ext_output_image_capture_source_manager_v1_destroy(outputSources) }
        // zwlr_layer_shell_v1.destroy is version 3's: before it, the proxy is only forgotten.
        if let layerShell { wl_proxy_destroy(layerShell) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        self = ShieldParts()
    }
}

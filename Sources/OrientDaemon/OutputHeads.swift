import CWaylandClient
import OrientCore
import OrientSystem

/// The compositor's outputs as zwlr_output_manager_v1 describes them: each head with its modes,
/// as the manager's last `done` left them. Mechanism only: what to do with them is the daemon's
/// (and the controller's) business.
final class OutputHeads: CallbackOwner {
    struct Mode: Equatable {
        var width: Int32 = 0
        var height: Int32 = 0
        var refresh: Int32 = 0
    }

    /// One head, exactly as the compositor reported it: a configuration carries every field back.
    struct Head {
        let proxy: OpaquePointer
        var name = ""
        var enabled = false
        var modes: [OpaquePointer: Mode] = [:]
        var currentMode: OpaquePointer?
        var x: Int32 = 0
        var y: Int32 = 0
        var transform: Int32 = 0
        /// wl_fixed_t, carried back bit for bit.
        var scale: Int32 = 256

        /// The size of its current mode, in hardware pixels (before any transform).
        var size: Mode? { currentMode.flatMap { modes[$0] } }
        /// The orientation its transform shows upright (a flipped transform counts as normal).
        var showing: Orientation { (OutputTransform(rawValue: transform) ?? .normal).orientation }
    }

    let manager: OpaquePointer
    private(set) var heads: [OpaquePointer: Head] = [:]
    /// The serial of the last `done`: a configuration is made against it.
    private(set) var serial: UInt32?
    /// After each `done` (the heads are complete and consistent then).
    var done: () -> Void = {}
    /// The compositor took the manager away.
    var finished: () -> Void = {}
    /// A head is gone (its output was unplugged), just before its proxy is destroyed: anything
    /// keyed by that pointer must go now, before another head may take its address.
    var removed: (OpaquePointer) -> Void = { _ in }
    private var modeHead: [OpaquePointer: OpaquePointer] = [:]

    init(manager: OpaquePointer) {
        self.manager = manager
        zwlr_output_manager_v1_add_listener(manager, Self.managerListener, callbackContext)
    }

    /// Stops listening and destroys every proxy (before the daemon lets this go).
    func destroy() {
        for head in heads.values {
            head.modes.keys.forEach { zwlr_output_mode_v1_destroy($0) }
            zwlr_output_head_v1_destroy(head.proxy)
        }
        heads = [:]
        modeHead = [:]
        zwlr_output_manager_v1_destroy(manager)
    }

    /// A configuration with this transform was applied to the head: it shows it until the
    /// compositor says otherwise.
    func assume(transform: Int32, for proxy: OpaquePointer) {
        head(proxy) { $0.transform = transform }
    }

    private func head(_ proxy: OpaquePointer?, _ change: (inout Head) -> Void) {
        guard let proxy, var head = heads[proxy] else { return }
        change(&head)
        heads[proxy] = head
    }

    private func mode(_ proxy: OpaquePointer?, _ change: (inout Mode) -> Void) {
        guard let proxy, let owner = modeHead[proxy], var mode = heads[owner]?.modes[proxy] else { return }
        change(&mode)
        heads[owner]?.modes[proxy] = mode
    }

    // MARK: listeners (one set for every object; `data` is this OutputHeads)

    nonisolated(unsafe) private static let managerListener = permanentListener(zwlr_output_manager_v1_listener(
        head: { data, _, proxy in
            guard let self_ = owner(data), let proxy else { return }
            self_.heads[proxy] = Head(proxy: proxy)
            zwlr_output_head_v1_add_listener(proxy, headListener, data)
        },
        done: { data, _, serial in
            guard let self_ = owner(data) else { return }
            self_.serial = serial
            self_.done()
        },
        finished: { data, _ in owner(data)?.finished() }))

    nonisolated(unsafe) private static let headListener = permanentListener(zwlr_output_head_v1_listener(
        name: { data, proxy, name in owner(data)?.head(proxy) { $0.name = name.map { String(cString: $0) } ?? "" } },
        description: { _, _, _ in },
        physical_size: { _, _, _, _ in },
        mode: { data, proxy, mode in
            guard let self_ = owner(data), let proxy, let mode else { return }
            self_.modeHead[mode] = proxy
            self_.head(proxy) { $0.modes[mode] = Mode() }
            zwlr_output_mode_v1_add_listener(mode, modeListener, data)
        },
        enabled: { data, proxy, enabled in owner(data)?.head(proxy) { $0.enabled = enabled != 0 } },
        current_mode: { data, proxy, mode in owner(data)?.head(proxy) { $0.currentMode = mode } },
        position: { data, proxy, x, y in owner(data)?.head(proxy) { $0.x = x; $0.y = y } },
        transform: { data, proxy, transform in owner(data)?.head(proxy) { $0.transform = transform } },
        scale: { data, proxy, scale in owner(data)?.head(proxy) { $0.scale = scale } },
        finished: { data, proxy in
            guard let self_ = owner(data), let proxy, let head = self_.heads.removeValue(forKey: proxy) else { return }
            self_.removed(proxy)
            for mode in head.modes.keys {
                self_.modeHead[mode] = nil
                zwlr_output_mode_v1_destroy(mode)
            }
            zwlr_output_head_v1_destroy(proxy)
        },
        make: { _, _, _ in },
        model: { _, _, _ in },
        serial_number: { _, _, _ in }))

    nonisolated(unsafe) private static let modeListener = permanentListener(zwlr_output_mode_v1_listener(
        size: { data, proxy, width, height in owner(data)?.mode(proxy) { $0.width = width; $0.height = height } },
        refresh: { data, proxy, refresh in owner(data)?.mode(proxy) { $0.refresh = refresh } },
        preferred: { _, _ in },
        finished: { data, proxy in
            guard let self_ = owner(data), let proxy, let owner = self_.modeHead.removeValue(forKey: proxy) else { return }
            self_.head(owner) { head in
                head.modes[proxy] = nil
                if head.currentMode == proxy { head.currentMode = nil }
            }
            zwlr_output_mode_v1_destroy(proxy)
        }))
}

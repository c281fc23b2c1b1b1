import CWaylandClient
import OrientCore
import OrientSystem

/// One zwlr_output_configuration_v1: every head exactly as the compositor reported it, with only
/// the transforms in `transforms` changed (rot8 has been seen enabling only the head it turned,
/// which disables the others). It is tested or applied once, then answers once.
final class HeadConfiguration: CallbackOwner {
    typealias Answer = HeadsReconciler.Answer

    private var proxy: OpaquePointer?
    private let answered: (Answer) -> Void

    /// - Parameter transforms: the new wl_output transform of some heads, by head proxy.
    init?(heads: OutputHeads, transforms: [OpaquePointer: Int32], answered: @escaping (Answer) -> Void) {
        guard let serial = heads.serial, let proxy = zwlr_output_manager_v1_create_configuration(heads.manager, serial) else { return nil }
        self.proxy = proxy
        self.answered = answered
        zwlr_output_configuration_v1_add_listener(proxy, Self.listener, callbackContext)
        // In a fixed order (by name), so that two configurations of the same state are the same requests.
        for head in heads.heads.values.sorted(by: { $0.name < $1.name }) {
            guard head.enabled else {
                zwlr_output_configuration_v1_disable_head(proxy, head.proxy)
                continue
            }
            guard let state = zwlr_output_configuration_v1_enable_head(proxy, head.proxy) else { continue }
            if let mode = head.currentMode {
                zwlr_output_configuration_head_v1_set_mode(state, mode)
            }
            zwlr_output_configuration_head_v1_set_position(state, head.x, head.y)
            zwlr_output_configuration_head_v1_set_transform(state, transforms[head.proxy] ?? head.transform)
            zwlr_output_configuration_head_v1_set_scale(state, head.scale)
            // The head's state object is the configuration's from here on: destroying our proxy
            // only forgets it (the interface has no destroy request).
            wl_proxy_destroy(state)
        }
    }

    func test() { proxy.map { zwlr_output_configuration_v1_test($0) } }
    func apply() { proxy.map { zwlr_output_configuration_v1_apply($0) } }

    /// Forgets the configuration (after its answer, or when the daemon stops).
    func destroy() {
        if let proxy { zwlr_output_configuration_v1_destroy(proxy) }
        proxy = nil
    }

    private static func answer(_ data: UnsafeMutableRawPointer?, _ answer: Answer) {
        owner(data)?.answered(answer)
    }

    nonisolated(unsafe) private static let listener = permanentListener(zwlr_output_configuration_v1_listener(
        succeeded: { data, _ in answer(data, .succeeded) },
        failed: { data, _ in answer(data, .failed) },
        cancelled: { data, _ in answer(data, .cancelled) }))
}

import CWlrGlue
import OrientCore
import OrientService
import OrientSystem

/// Our Wayland protocol (protocol/wlr-orient-v1.xml): what clients declare becomes controller
/// events; what the controller tells them becomes protocol events. The C side
/// (orient_protocol.c) keeps the objects; the values are checked here, by the core's rules.
final class ProtocolServer: CallbackOwner {
    private var glue: OpaquePointer?
    private let report: (ControllerEvent) -> Void
    /// What a toplevel's object has declared so far (the controller's record, the only one).
    private let declared: (ToplevelID) -> ClientDeclaration?

    init(display: OpaquePointer?, declared: @escaping (ToplevelID) -> ClientDeclaration?,
         report: @escaping (ControllerEvent) -> Void) {
        self.report = report
        self.declared = declared
        var callbacks = glue_protocol_callbacks(
            created: { context, surface in
                guard let server = ProtocolServer.owner(context), let surface else { return }
                server.created(Toplevel.id(of: surface))
            },
            orientations: { context, object, surface, value in
                guard let server = ProtocolServer.owner(context), let surface else { return }
                server.orientations(value, object: object, for: Toplevel.id(of: surface))
            },
            mode: { context, object, surface, value in
                guard let server = ProtocolServer.owner(context), let surface else { return }
                server.mode(value, object: object, for: Toplevel.id(of: surface))
            },
            gone: { context, surface in
                guard let server = ProtocolServer.owner(context), let surface else { return }
                server.gone(Toplevel.id(of: surface))
            },
            all_gone: { context, surfaces, count in
                guard let server = ProtocolServer.owner(context), let surfaces else { return }
                let ids = UnsafeBufferPointer(start: surfaces, count: count).compactMap { $0.map(Toplevel.id(of:)) }
                server.report(.declarationsGone(ids))
            })
        glue = glue_protocol_create(display, callbackContext, &callbacks)
        if glue == nil { Log.error("cannot offer the wlr_orient_manager_v1 global; apps cannot declare their orientations") }
    }

    /// Removes the global; objects clients still hold become inert. Safe to call twice.
    func destroy() {
        glue_protocol_destroy(glue)
        glue = nil
    }

    // MARK: requests

    private func created(_ id: ToplevelID) {
        report(.declaration(id, ClientDeclaration()))
    }

    private func orientations(_ value: UInt32, object: OpaquePointer?, for id: ToplevelID) {
        guard let bits = ContentOrientations(protocolMask: value) else {
            glue_orient_object_post_error(object, WLR_ORIENT_TOPLEVEL_V1_ERROR_INVALID_ORIENTATION.rawValue,
                                          "\(value) has bits outside the orientation enum (1, 2, 4, 8)")
            return
        }
        declare(id) { $0.orientations = bits }
    }

    private func mode(_ value: UInt32, object: OpaquePointer?, for id: ToplevelID) {
        guard let input = ClientDeclaration.input(protocolMode: value) else {
            glue_orient_object_post_error(object, WLR_ORIENT_TOPLEVEL_V1_ERROR_INVALID_MODE.rawValue,
                                          "\(value) is not a mode (0 screen, 1 input)")
            return
        }
        declare(id) { $0.input = input }
    }

    /// One request's change, merged into what the object declared before.
    private func declare(_ id: ToplevelID, _ change: (inout ClientDeclaration) -> Void) {
        let before = declared(id) ?? ClientDeclaration()
        var declaration = before
        change(&declaration)
        if declaration != before { report(.declaration(id, declaration)) }
    }

    private func gone(_ id: ToplevelID) {
        report(.declaration(id, nil))
    }

    // MARK: events

    private func surface(_ id: ToplevelID) -> OpaquePointer? {
        OpaquePointer(bitPattern: id.raw)
    }

    /// `output_orientation`: sent before the output turns, so before the configure with the new size.
    func tellShown(_ id: ToplevelID, _ orientation: ContentOrientations) {
        _ = glue_protocol_send_output_orientation(glue, surface(id), orientation.rawValue)
    }

    /// `device_orientation`: how the device is held, to a client in input mode.
    func tellFelt(_ id: ToplevelID, _ orientation: ContentOrientations) {
        _ = glue_protocol_send_device_orientation(glue, surface(id), orientation.rawValue)
    }
}

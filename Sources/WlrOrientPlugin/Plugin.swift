import CEventLoop
import CWlrGlue
import Glibc
import OrientCore
import OrientSensor
import OrientService

/// The plugin: translates what wlroots reports into controller events, and the controller's
/// commands into wlroots calls. It decides nothing itself (see `Controller`).
final class Plugin {
    let orient: UnsafeMutablePointer<wlr_orient>
    let host: wlr_orient_host
    /// The controller with the sensor, the config, the saved state and the control socket.
    private let runner: ControllerRunner
    var controller: Controller { runner.controller }
    var panels: [Panel] = []
    var toplevels: [ToplevelID: Toplevel] = [:]
    var switches: [SwitchDevice] = []
    private var protocolServer: ProtocolServer?
    /// Starts the control socket once the loop runs (the host has named its display by then).
    private var controlStart: OpaquePointer?
    private var listeners: [Listener] = []
    /// Listeners on the backend, the xdg-shell and the seat, each removed when its object is
    /// destroyed (they may go before we do).
    private var groups: [ListenerGroup] = []

    init?(host: wlr_orient_host) {
        guard host.display != nil, host.backend != nil, host.output_layout != nil else {
            Log.error("wlr_orient_create: the host must give display, backend and output_layout")
            return nil
        }
        self.host = host
        // The TOML files are read by the CLI (`wlr-orient plugin-inputs`), never in the compositor:
        // a parser that aborts on bad input, and Foundation with it, stay out of this process.
        runner = ControllerRunner(configPath: host.config_path.map { String(cString: $0) })
        guard let orient = glue_orient_alloc(nil) else { return nil }
        self.orient = orient
    }

    /// Hooks into the compositor: outputs, input devices, toplevels, focus, the event loop.
    func attach() {
        let backend = host.backend
        guard let loop = wl_display_get_event_loop(host.display) else { return }
        runner.attach(loop: loop, perform: { [unowned self] in perform($0) })
        // If the compositor destroys its display before calling wlr_orient_destroy, everything we
        // hooked (signals, event sources) is going away: unhook it now, while it exists.
        listeners += [Listener(displayDestroy: host.display) { [unowned self] _ in unhook() }].compactMap { $0 }
        groups.append(ListenerGroup(destroy: signal(backend, \.events.destroy), [
            Listener(signal(backend, \.events.new_output)) { [unowned self] data in
                addOutput(data?.assumingMemoryBound(to: wlr_output.self))
            },
            Listener(signal(backend, \.events.new_input)) { [unowned self] data in
                addInput(data?.assumingMemoryBound(to: wlr_input_device.self))
            },
        ]))
        if let shell = host.xdg_shell {
            protocolServer = ProtocolServer(display: host.display, declared: { [unowned self] in controller.declaration(of: $0) },
                                            report: { [unowned self] in dispatch($0) })
            groups.append(ListenerGroup(destroy: signal(shell, \.events.destroy), [
                Listener(signal(shell, \.events.new_surface)) { [unowned self] data in
                    addToplevel(data?.assumingMemoryBound(to: wlr_xdg_surface.self))
                },
            ]))
        }
        if let seat = host.seat {
            groups.append(ListenerGroup(destroy: signal(seat, \.events.destroy), [
                Listener(signal(seat, \.keyboard_state.events.focus_change)) { [unowned self] data in
                    let event = data?.assumingMemoryBound(to: wlr_seat_keyboard_focus_change_event.self)
                    focusChanged(to: event?.pointee.new_surface)
                },
            ]))
        }
        let config = controller.config
        Log.info("started; panels match \(config.device.outputs.joined(separator: ", "))"
                 + (controller.state.lastFelt.map { "; last orientation \($0.rawValue)" } ?? ""))
        controlStart = glue_add_idle(loop, Unmanaged.passUnretained(self).toOpaque()) { context in
            guard let context else { return }
            Unmanaged<Plugin>.fromOpaque(context).takeUnretainedValue().startControlServer()
        }
        runner.start()
        glue_output_layout_for_each(host.output_layout, Unmanaged.passUnretained(self).toOpaque()) { context, output in
            guard let context else { return }
            Unmanaged<Plugin>.fromOpaque(context).takeUnretainedValue().addOutput(output)
        }
    }

    func destroy() {
        glue_signal_emit(signal(orient, \.events.destroy), orient)
        unhook()
        glue_orient_free(orient)
    }

    /// Releases the sensor and removes every listener and event source. Safe to call twice.
    private func unhook() {
        // The last state asked for is written before we go.
        runner.stop()
        protocolServer?.destroy()
        protocolServer = nil
        if let controlStart { wl_event_source_remove(controlStart) }
        controlStart = nil
        listeners.forEach { $0.remove() }
        listeners = []
        groups.forEach { $0.removeAll() }
        groups = []
        panels.forEach { $0.detach() }
        panels = []
        toplevels.values.forEach { $0.detach() }
        toplevels = [:]
        switches.forEach { $0.detach() }
        switches = []
    }

    // MARK: events in, commands out

    /// Hands one event to the controller (see `ControllerRunner.dispatch`).
    func dispatch(_ event: ControllerEvent) {
        runner.dispatch(event)
    }

    /// The commands that touch the compositor; the runner carries out the rest.
    private func perform(_ command: ControllerCommand) {
        switch command {
        case .show(let id, let orientation, let plan):
            show(orientation, on: id, plan: plan)
        case .tellShown(let id, let orientation):
            protocolServer?.tellShown(id, orientation)
        case .tellFelt(let id, let orientation):
            protocolServer?.tellFelt(id, orientation)
        default:
            break
        }
    }

    private func show(_ orientation: Orientation, on id: PanelID, plan: TransitionPlan) {
        guard let panel = panels.first(where: { $0.id == id }) else { return }
        // The old frame is taken before the transform changes: what the panel shows now (in the
        // middle of a transition, the blend on screen, so a second turn starts without a jump).
        // Only with a host that calls wlr_orient_render_output: no other could draw it.
        var transition: PanelTransition?
        if hostRenders, let renderer = host.renderer, let frame = panel.lastFrame {
            let run = TransitionRun(plan: plan, from: panel.transform, to: OutputTransform(for: orientation), at: monotonicMilliseconds())
            transition = PanelTransition(renderer: renderer, frame: frame, run: run)
        }
        guard panel.show(orientation) else {
            if panel.current != orientation { dispatch(.panelShowing(id, panel.current)) }
            return
        }
        Log.info("\(panel.name): \(orientation.rawValue) (transform \(orientation.outputTransform))"
                 + (transition.map { ", \($0.plan.kind.rawValue) transition" } ?? ""))
        if let manager = host.output_manager {
            glue_publish_output_configuration(manager, host.output_layout)
        }
        glue_signal_emit(signal(orient, \.events.output_transformed), UnsafeMutableRawPointer(panel.output))
        // The host has re-configured its clients by now: the old frame waits for their answers.
        transition?.awaitConfigures(of: Array(toplevels.values))
        panel.transition?.giveWay(at: monotonicMilliseconds(), panel: panel.name)
        panel.transition = transition
    }

    // MARK: the frame path

    /// Whether the host calls wlr_orient_render_output (else there are no transitions).
    private var hostRenders = false

    /// The host rendered `output` and has not committed it yet: a transition draws its part.
    func renderOutput(_ output: UnsafeMutablePointer<wlr_output>) {
        hostRenders = true
        guard let panel = panels.first(where: { $0.output == output }), let transition = panel.transition else { return }
        transition.render(width: output.pointee.width, height: output.pointee.height, now: monotonicMilliseconds(), panel: panel.name)
    }

    // MARK: the control socket

    /// `$XDG_RUNTIME_DIR/wlr-orient.<display>.sock`, exported to the compositor's children as
    /// `$WLR_ORIENT_SOCKET` (so that `wlr-orient lock` run from a terminal in it finds it).
    private func startControlServer() {
        controlStart = nil
        if let path = runner.startControlServer(who: "this compositor") {
            setenv(ControlSocketPath.variable, path, 1)
        }
    }

    // MARK: outputs, toplevels, focus

    private func addOutput(_ output: UnsafeMutablePointer<wlr_output>?) {
        guard let output, !panels.contains(where: { $0.output == output }) else { return }
        let name = output.pointee.name.map { String(cString: $0) } ?? ""
        guard controller.config.device.isBuiltInPanel(outputName: name) else { return }
        let panel = Panel(output: output) { [unowned self] gone in
            gone.detach()
            panels.removeAll { $0 === gone }
            dispatch(.panelRemoved(gone.id))
        }
        panels.append(panel)
        Log.info("\(name): a built-in panel (\(panel.shape.rawValue)); it follows the device")
        dispatch(.panelAdded(panel.id, name: name, shape: panel.shape, showing: panel.current))
    }

    private func addToplevel(_ surface: UnsafeMutablePointer<wlr_xdg_surface>?) {
        guard let surface, surface.pointee.role == WLR_XDG_SURFACE_ROLE_TOPLEVEL else { return }
        let toplevel = Toplevel(surface: surface, report: { [unowned self] in dispatch($0) }) { [unowned self] gone in
            gone.detach()
            panels.forEach { $0.transition?.forget(gone.surface) }
            toplevels[gone.id] = nil
            dispatch(.toplevelRemoved(gone.id))
        }
        toplevels[toplevel.id] = toplevel
        dispatch(.toplevelAdded(toplevel.id, appID: toplevel.appID, covers: toplevel.covers))
    }

    /// The seat's keyboard focus moved. Focus on a surface that is no toplevel of ours (a panel,
    /// a launcher) leaves the app in front as it was.
    private func focusChanged(to surface: UnsafeMutablePointer<wlr_surface>?) {
        guard let surface else { return dispatch(.focus(nil)) }
        guard wlr_surface_is_xdg_surface(surface), let xdg = wlr_xdg_surface_from_wlr_surface(surface) else { return }
        let id = Toplevel.id(of: xdg)
        guard toplevels[id] != nil else { return }
        dispatch(.focus(id))
    }

    /// The host names the toplevel in front on an output (`wlr_orient_set_front`).
    func setFront(output: UnsafeMutablePointer<wlr_output>, toplevel: UnsafeMutablePointer<wlr_xdg_toplevel>?) {
        guard let panel = panels.first(where: { $0.output == output }) else { return }
        let id = toplevel.flatMap { $0.pointee.base }.map(Toplevel.id(of:))
        dispatch(.hostFront(panel.id, id.flatMap { toplevels[$0] != nil ? $0 : nil }))
    }

    // MARK: input devices

    private func addInput(_ device: UnsafeMutablePointer<wlr_input_device>?) {
        guard let device else { return }
        switch device.pointee.type {
        case WLR_INPUT_DEVICE_TOUCH, WLR_INPUT_DEVICE_TABLET_TOOL:
            // Touchscreens and pen tablets are mapped to the panel, so that their coordinates follow it.
            guard let cursor = host.cursor, let panel = panels.first else { return }
            wlr_cursor_map_input_to_output(cursor, device, panel.output)
        case WLR_INPUT_DEVICE_SWITCH:
            let device = SwitchDevice(device: device, report: { [unowned self] in dispatch($0) }) { [unowned self] gone in
                gone.detach()
                switches.removeAll { $0 === gone }
            }
            switches.append(device)
        default:
            break
        }
    }
}

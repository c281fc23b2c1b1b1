import CEventLoop
import CWlrGlue
import OrientCore
import OrientService
import OrientSystem

/// The plugin: translates what wlroots reports into controller events, and the controller's
/// commands into wlroots calls. It decides nothing itself (see `Controller`).
final class Plugin: CallbackOwner {
    let orient: UnsafeMutablePointer<wlr_orient>
    let host: wlr_orient_host
    /// The controller with the sensor, the config, the saved state and the control socket.
    private let runner: ControllerRunner<Controller>
    var controller: Controller { runner.controller }
    var panels: [Panel] = []
    var toplevels: [ToplevelID: Toplevel] = [:]
    var switches: [SwitchDevice] = []
    var positionalDevices: [PositionalDevice] = []
    /// The fingers, pens and buttons down on the panels.
    private var contacts = Contacts()
    /// How many pointers, touchscreens and pen tablets have come: each one's number in `contacts`.
    private var devicesAdded = 0
    /// Keep a tap or a click on the target from the client under it, while a target shows.
    private var touchShield: OpaquePointer?
    private var pointerShield: OpaquePointer?
    /// The pointer rests on a target (its stay is longer then).
    private var pointerOnTarget = false
    private var protocolServer: ProtocolServer?
    /// Starts the control socket once the loop runs (the host has named its display by then).
    private var controlStart: LoopSource?
    private var displayDestroy: DisplayDestroyListener?
    /// Watches on the backend, the xdg-shell and the seat (each unhooks itself if its object is
    /// destroyed before we are).
    private var watches: [Watch] = []

    private let log: CompositorLog

    init?(host: wlr_orient_host, log: CompositorLog) {
        guard host.display != nil, host.backend != nil, host.output_layout != nil else {
            Log.error("wlr_orient_create: the host must give display, backend and output_layout")
            return nil
        }
        self.host = host
        self.log = log
        // The TOML files are read by the CLI (`wlr-orient plugin-inputs`), never in the compositor:
        // a parser that aborts on bad input, and Foundation with it, stay out of this process.
        runner = ControllerRunner(configPath: host.config_path.map { String(cString: $0) })
        guard let orient = glue_orient_alloc(nil) else { return nil }
        self.orient = orient
    }

    /// Hooks into the compositor: outputs, input devices, toplevels, focus, the event loop.
    func attach() {
        guard let loop = wl_display_get_event_loop(host.display) else { return }
        log.attach(loop: loop)
        // The sensor is read by a helper process: nothing of libiio, and no sysfs read, runs here.
        runner.attach(loop: loop, sensor: { SensorHelper(loop: $0, device: $1, detection: $2, report: $3) },
                      perform: { [unowned self] in perform($0) })
        // If the compositor destroys its display before calling wlr_orient_destroy, everything we
        // hooked (signals, event sources) is going away: unhook it now, while it exists.
        displayDestroy = DisplayDestroyListener(display: host.display) { [unowned self] in unhook() }
        let context = callbackContext
        var backend = orient_wlr_backend_events(
            context: context,
            new_output: { context, output in Plugin.owner(context)?.addOutput(output) },
            new_input: { context, device in Plugin.owner(context)?.addInput(device) })
        watches += [Watch(orient_wlr_watch_backend(host.backend, &backend))].compactMap { $0 }
        if let shell = host.xdg_shell {
            protocolServer = ProtocolServer(display: host.display, declared: { [unowned self] in controller.declaration(of: $0) },
                                            report: { [unowned self] in dispatch($0) })
            var events = orient_wlr_shell_events(
                context: context,
                new_toplevel: { context, surface in Plugin.owner(context)?.addToplevel(surface) })
            watches += [Watch(orient_wlr_watch_shell(shell, &events))].compactMap { $0 }
        }
        if let manager = host.output_manager {
            var events = orient_wlr_output_manager_events(
                context: context,
                applying: { context, output, transform, pid in Plugin.owner(context)?.clientApplies(transform, on: output, by: pid) })
            watches += [Watch(orient_wlr_watch_output_manager(manager, &events))].compactMap { $0 }
        }
        if let seat = host.seat {
            touchShield = glue_touch_shield_create(seat)
            pointerShield = glue_pointer_shield_create(seat)
            var events = orient_wlr_seat_events(
                context: context,
                focus: { context, surface, nothing in Plugin.owner(context)?.focusChanged(to: surface, nothing: nothing) })
            watches += [Watch(orient_wlr_watch_seat(seat, &events))].compactMap { $0 }
        }
        let config = controller.config
        Log.info("started; panels match \(config.device.outputs.joined(separator: ", "))"
                 + (controller.state.lastFelt.map { "; last orientation \($0.rawValue)" } ?? "")
                 + "; built for wlroots \(String(cString: orient_wlr_version()))")
        Events.emit(.started(host: "plugin", panelsMatch: config.device.outputs))
        controlStart = LoopSource.idle(on: loop) { [unowned self] in startControlServer() }
        runner.start()
        orient_wlr_layout_for_each(host.output_layout, context) { context, output in
            Plugin.owner(context)?.addOutput(output)
        }
    }

    func destroy() {
        glue_orient_emit_destroy(orient)
        unhook()
        glue_orient_free(orient)
    }

    /// Releases the sensor and removes every listener and event source. Safe to call twice.
    private func unhook() {
        // The last state asked for is written before we go.
        runner.stop()
        protocolServer.take()?.destroy()
        glue_touch_shield_destroy(touchShield.take())
        glue_pointer_shield_destroy(pointerShield.take())
        controlStart.take()?.remove()
        displayDestroy.take()?.remove()
        landings.forEach { $0.remove() }
        landings = []
        afterCommits.take()?.remove()
        setElsewhere = []
        watches.forEach { $0.remove() }
        panels.forEach { $0.detach() }
        toplevels.values.forEach { $0.detach() }
        switches.forEach { $0.detach() }
        positionalDevices.forEach { $0.detach() }
        (watches, panels, toplevels, switches, positionalDevices) = ([], [], [:], [], [])
        log.detach()
    }

    // MARK: events in, commands out

    /// Hands one event to the controller (see `ControllerRunner.dispatch`).
    func dispatch(_ event: ControllerEvent) {
        runner.dispatch(event)
    }

    /// The commands that touch the compositor; the runner carries out the rest.
    private func perform(_ command: PanelCommand) {
        switch command {
        case .show(let id, let orientation, let plan):
            show(orientation, on: id, plan: plan)
        case .tellShown(let id, let orientation):
            protocolServer?.tellShown(id, orientation)
        case .tellFelt(let id, let orientation):
            protocolServer?.tellFelt(id, orientation)
        case .suggest(let id, let target):
            panels.first { $0.id == id }?.suggest(target, renderer: hostRenders ? host.renderer : nil)
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
        let accepted = panel.turn(Panel.Turn(orientation: orientation, transition: transition), renderer: host.renderer,
                                  hostBuildsFrames: hostBuildsStates, askHost: askHostToTurn)
        if !accepted, panel.current != orientation { dispatch(.panelShowing(id, panel.current)) }
    }

    /// The panel shows the turn's transform: the host hears of it, and its transition begins.
    /// Landed in the host's own commit, the rest waits for the loop to be idle (the host's
    /// handlers of that commit, which re-configure its clients, have run by then).
    private func landed(_ panel: Panel, _ turn: Panel.Turn) {
        guard turn.ridesHostFrames else { return finishTurn(on: panel, turn) }
        let source = LoopSource.idle(on: wl_display_get_event_loop(host.display)) { [weak self, weak panel] in
            guard let self else { return }
            defer { landings.removeAll { $0.isSpent } }
            // A later turn that landed since is the one the host hears of.
            guard let panel, panels.contains(where: { $0 === panel }), panel.latestTurn == turn.number else { return }
            finishTurn(on: panel, turn)
        }
        if let source { landings.append(source) } else { finishTurn(on: panel, turn) }
    }

    /// Idle callbacks that finish turns landed in the host's commits (kept until they ran).
    private var landings: [LoopSource] = []

    private func finishTurn(on panel: Panel, _ turn: Panel.Turn) {
        landings.removeAll { $0.isSpent }
        Log.info("\(panel.name): \(turn.orientation.rawValue) (transform \(turn.orientation.outputTransform))"
                 + (turn.transition.map { ", \($0.plan.kind.rawValue) transition" } ?? ""))
        Events.emit(.turned(panel: panel.name, turn.orientation, transition: turn.transition?.plan.kind ?? TransitionKind.none))
        orient_wlr_publish_output_configuration(host.output_manager, host.output_layout)
        glue_orient_emit_output_transformed(orient, panel.output)
        panel.transition?.giveWay(at: monotonicMilliseconds(), panel: panel.name)
        panel.transition = turn.transition
        // The host has re-configured its clients by now: the old frame waits for their answers.
        turn.transition?.awaitConfigures(of: Array(toplevels.values))
    }

    // MARK: transforms set by others

    /// Transforms a client asked for through output management, by output, until the loop is next
    /// idle (the compositor commits them in between).
    private var appliedByClient: [OpaquePointer: (transform: Int32, process: String?)] = [:]
    /// Panels someone else turned, and who, told to the controller when the loop is idle: what it
    /// decides may commit the output again, which must not happen inside the output's commit.
    private var setElsewhere: [(panel: Panel, by: PanelSetter, process: String?)] = []
    private var afterCommits: LoopSource?

    private func clientApplies(_ transform: Int32, on output: OpaquePointer?, by pid: Int32) {
        guard let output else { return }
        // Named now, while the client waits for the answer (after it, it may be gone).
        appliedByClient[output] = (transform, pid > 0 ? nameOfProcess(pid) : nil)
        whenIdle()
    }

    private func setElsewhere(_ panel: Panel) {
        let applied = appliedByClient[panel.output].flatMap { $0.transform == panel.transform.rawValue ? $0 : nil }
        let by: PanelSetter = applied != nil ? .outputManagement : .compositor
        Log.debug("\(panel.name): transform \(panel.transform) set by \(by.who)")
        // Its picture under another transform: the transition running has no meaning left.
        panel.transition?.giveWay(at: monotonicMilliseconds(), panel: panel.name)
        setElsewhere.removeAll { $0.panel === panel }
        setElsewhere.append((panel, by, applied?.process))
        whenIdle()
    }

    private func whenIdle() {
        guard afterCommits == nil else { return }
        afterCommits = LoopSource.idle(on: wl_display_get_event_loop(host.display)) { [unowned self] in
            afterCommits = nil
            appliedByClient = [:]
            let told = setElsewhere
            setElsewhere = []
            for (panel, by, process) in told where panels.contains(where: { $0 === panel }) {
                dispatch(.panelSetElsewhere(panel.id, panel.current, by: by, at: monotonicMilliseconds() / 1000, process: process))
            }
        }
    }

    // MARK: the frame path

    /// Whether the host calls wlr_orient_render_output or _state (else there are no transitions).
    private var hostRenders = false
    /// Whether it hands the plugin the output states it builds (then a turn can ride them).
    private var hostBuildsStates = false
    /// Whether the compositor is asked to apply each turn itself (`HostRelayout`).
    private lazy var askHostToTurn = HostRelayout.asksCompositor(named: processName)

    /// The host is about to build a frame of `output` into `state` (wlroots 0.17 on): a turn
    /// waiting for a frame adds its transform first, so that the host renders under it.
    func prepareOutput(_ output: OpaquePointer, state: OpaquePointer) {
        hostBuildsStates = true
        panels.first(where: { $0.output == output })?.carryPendingTurn(in: state, built: false) { _ in }
    }

    /// The host is making a frame of `output`: while a transition runs, it draws its part. `state`:
    /// the output state the host built (wlroots 0.17 on); nil: the renderer is between begin and
    /// end on the output's buffer (0.15 to 0.17).
    func renderOutput(_ output: OpaquePointer, state: OpaquePointer?) {
        // Our own commit of a transform, drawing its first frame, is no frame of the host's
        // (under `wlr-orient run` the preload sees the renderer end and the commit of it too).
        guard !panels.contains(where: \.committingItself) else { return }
        hostRenders = true
        if state != nil { hostBuildsStates = true }
        guard let panel = panels.first(where: { $0.output == output }), let renderer = host.renderer else { return }
        if let state, panel.carryPendingTurn(in: state, built: true, drawPicture: { picture in
            guard let frame = orient_wlr_frame_of_state(renderer, output, state) else { return }
            var width: Int32 = 0, height: Int32 = 0
            orient_wlr_frame_size(frame, &width, &height)
            var whole = orient_wlr_box(x: 0, y: 0, width: width, height: height)
            orient_wlr_frame_draw(frame, picture, OldFramePlacement.held.matrix(width: Double(width), height: Double(height)), 1, &whole, 1)
            orient_wlr_frame_end(frame)
        }) { return }
        let transition = panel.transition.flatMap { $0.finished ? nil : $0 }
        guard transition != nil || panel.target != nil else { return }
        let frame = state.map { orient_wlr_frame_of_state(renderer, output, $0) } ?? orient_wlr_frame_rendering(renderer, output)
        guard let frame else { return }
        let now = monotonicMilliseconds()
        transition?.render(into: frame, now: now, panel: panel.name)
        panel.target?.render(into: frame, now: now, panel: panel.name)
        orient_wlr_frame_end(frame)
    }

    // MARK: the control socket

    /// `$XDG_RUNTIME_DIR/wlr-orient.<display>.sock`, exported to the compositor's children as
    /// `$WLR_ORIENT_SOCKET` (so that `wlr-orient lock` run from a terminal in it finds it).
    private func startControlServer() {
        controlStart = nil
        if let path = runner.startControlServer(who: "this compositor") {
            setEnvironmentValue(ControlSocketPath.variable, path)
        }
    }

    // MARK: outputs, toplevels, focus

    private func addOutput(_ output: OpaquePointer?) {
        guard let output, !panels.contains(where: { $0.output == output }) else { return }
        let name = String(cString: orient_wlr_output_name(output))
        guard controller.config.device.isBuiltInPanel(outputName: name) else { return }
        let panel = Panel(output: output, loop: wl_display_get_event_loop(host.display)) { [unowned self] gone in
            gone.detach()
            panels.removeAll { $0 === gone }
            mapPositionalDevices()
            dispatch(.panelRemoved(gone.id))
        }
        panel.landed = { [unowned self] panel, turn in landed(panel, turn) }
        panel.refused = { [unowned self] panel in dispatch(.panelShowing(panel.id, panel.current)) }
        panel.setElsewhere = { [unowned self] panel in setElsewhere(panel) }
        panel.targetChanged = { [unowned self] _ in shieldTouches() }
        panels.append(panel)
        mapPositionalDevices()
        Log.info("\(name): a built-in panel (\(panel.shape.rawValue)); it follows the device")
        dispatch(.panelAdded(panel.id, name: name, shape: panel.shape, showing: panel.current))
    }

    private func addToplevel(_ surface: OpaquePointer?) {
        guard let surface else { return }
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
    private func focusChanged(to surface: OpaquePointer?, nothing: Bool) {
        if nothing { return dispatch(.focus(nil)) }
        guard let surface else { return }
        let id = Toplevel.id(of: surface)
        guard toplevels[id] != nil else { return }
        dispatch(.focus(id))
    }

    /// The host names the toplevel in front on an output (`wlr_orient_set_front`).
    func setFront(output: OpaquePointer, toplevel: OpaquePointer?) {
        guard let panel = panels.first(where: { $0.output == output }) else { return }
        let id = orient_wlr_toplevel_of(toplevel).map(Toplevel.id(of:))
        dispatch(.hostFront(panel.id, id.flatMap { toplevels[$0] != nil ? $0 : nil }))
    }

    // MARK: input devices

    /// Touchscreens and pen tablets follow the first built-in panel, whenever it comes (the
    /// backend may announce them before it) or changes.
    /// A touch, a pen's tip or a button at a point of the layout: for the touch hold, and a tap on
    /// the suggestion's target where one shows.
    private func contact(_ source: Contacts.Source, device: Int, id: Int32, _ phase: Contacts.Phase, x: Double, y: Double) {
        var onTarget: Bool?
        if x.isFinite, y.isFinite {
            // A touch or a pen on the panel it is mapped to (the first), in its own axes; a
            // button at a point of the layout, on whichever panel is there.
            onTarget = source == .button ? panels.contains { $0.targetContains(layout: host.output_layout, x: x, y: y) }
                                         : panels.first?.targetContains(normalizedX: x, y: y) ?? false
        }
        if source == .button, phase == .motion {
            // The pointer moved (no button need be down): it hovers on the target or not.
            return hover(onTarget == true)
        }
        if source == .finger, phase == .down {
            // Decided afresh at each touch's start: a claim the seat never ended goes with it.
            glue_touch_shield_claim(touchShield, id, onTarget == true)
        }
        if source == .button, phase == .down {
            glue_pointer_shield_claim(pointerShield, UInt32(bitPattern: id), onTarget == true)
        }
        follow(contacts.contact(source, device: device, id: id, phase, onTarget: onTarget))
    }

    private func follow(_ outcomes: [Contacts.Outcome]) {
        for outcome in outcomes {
            switch outcome {
            case .touching(let on): dispatch(.touch(on))
            case .tapped: dispatch(.control(.acceptSuggestion))
            }
        }
    }

    private func hover(_ on: Bool) {
        guard on != pointerOnTarget else { return }
        pointerOnTarget = on
        dispatch(.suggestionHovered(on))
    }

    /// The touch and pointer grabs hold while a target shows on some panel (its fade-out
    /// included: the tap that took it ends after it began to fade).
    private func shieldTouches() {
        let shows = panels.contains { $0.target != nil }
        glue_touch_shield_hold(touchShield, shows)
        glue_pointer_shield_hold(pointerShield, shows, SuggestionConfig.pressOutlivesTargetMs)
        // A target that comes later is not hovered until the pointer moves onto it.
        if !shows { pointerOnTarget = false }
    }

    private func mapPositionalDevices() {
        guard let panel = panels.first else { return }
        positionalDevices.forEach { $0.map(cursor: host.cursor, to: panel.output) }
    }

    private func addInput(_ device: OpaquePointer?) {
        guard let device else { return }
        switch orient_wlr_input_kind(device) {
        case ORIENT_WLR_INPUT_POSITIONAL, ORIENT_WLR_INPUT_POINTER:
            let mapped = orient_wlr_input_kind(device) == ORIENT_WLR_INPUT_POSITIONAL
            devicesAdded += 1
            let number = devicesAdded
            let device = PositionalDevice(device: device, cursor: host.cursor, mapsToPanel: mapped,
                                          contact: { [unowned self] in contact($0, device: number, id: $1, $2, x: $3, y: $4) }) { [unowned self] gone in
                gone.detach()
                positionalDevices.removeAll { $0 === gone }
                // Unplugged mid-touch: its fingers are lifted with it.
                follow(contacts.removed(device: number))
            }
            positionalDevices.append(device)
            if let panel = panels.first { device.map(cursor: host.cursor, to: panel.output) }
        case ORIENT_WLR_INPUT_SWITCH:
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

import CEventLoop
import CWaylandClient
import Glibc
import OrientCore
import OrientService
import OrientSystem

/// `wlr-orient daemon`: the controller beside a compositor that loads no plugin. It translates
/// wlr-output-management (the heads) and foreign-toplevel (the app in front) into controller
/// events, and carries out its core's output configurations and shields (`DaemonCore`). It decides
/// nothing itself.
public final class Daemon {
    /// How the daemon ended, as its exit status (the systemd unit restarts on 1, not on 3).
    public enum Exit: Int32 {
        /// Stopped by SIGTERM or SIGINT.
        case stopped = 0
        /// The compositor went away (or closed the connection): a new one may come.
        case displayGone = 1
        /// No compositor to connect to.
        case noDisplay = 2
        /// The compositor cannot have its outputs configured by a client: nothing to do here.
        case noOutputManagement = 3
        /// Another wlr-orient (the plugin in the compositor, or another daemon) serves this display.
        case alreadyServed = 4

        /// Ends the process with this status.
        public func terminate() -> Never { exitProcess(rawValue) }
    }

    public struct Options {
        public var configPath: String?
        /// Log each decision with its sample's time too.
        public var debug: Bool
        public init(configPath: String? = nil, debug: Bool = false) {
            self.configPath = configPath
            self.debug = debug
        }
    }

    private let options: Options
    private let loop: OpaquePointer
    /// The connection to the compositor (a new one after a protocol error); `connected` is false
    /// once it has been disconnected and none replaced it.
    private var display: OpaquePointer
    private var connected = true
    private var displaySource: LoopSource?
    private var globals: Globals
    /// Connecting again after a protocol error: how often (decided in the core).
    private var reconnects = ReconnectBudget()
    /// The controller with the sensor, the config, the saved state and the control socket.
    private var runner: ControllerRunner<DaemonCore>
    private var controller: Controller { runner.controller }
    private var heads: OutputHeads?
    private var toplevels: ForeignToplevels?
    private var tabletSwitches: TabletSwitches?
    /// The offered turn's target over each head that has one.
    private var targets: [HeadsReconciler.HeadKey: TargetSurface] = [:]
    /// That a target cannot be shown here was said (once).
    private var saidTargetUnshown = false
    /// The person's input (the touch hold), where the compositor offers ext-idle-notify.
    private var inputActivity: InputActivity?
    /// That the compositor lets the daemon see no touches was said (once, not for each connection).
    private var saidTouchesUnseen = false
    private var sources: [LoopSource] = []
    private var exit: Exit?

    /// The configuration being tested or applied (the reconciler sends one at a time).
    private var configuration: HeadConfiguration?
    /// Every shield up, as the core named it (an older one may still play over a head while a
    /// new one is laid).
    private var shields: [HeadsReconciler.ShieldID: Shield] = [:]

    /// Connects and starts; nil (with the reason logged) when it cannot.
    public static func run(_ options: Options) -> Exit {
        Log.showDebug = options.debug
        guard let loop = wl_event_loop_create() else {
            Log.error("cannot create an event loop")
            return .noDisplay
        }
        defer { wl_event_loop_destroy(loop) }
        guard let display = wl_display_connect(nil) else {
            Log.error("cannot connect to the compositor (\(DisplaySession.displayName)): \(SystemError.last("wl_display_connect").reason); is one running, and is WAYLAND_DISPLAY set?")
            return .noDisplay
        }
        let daemon = Daemon(options: options, loop: loop, display: display)
        let exit = daemon.start() ?? daemon.runLoop()
        daemon.unhook()
        return exit
    }

    private init(options: Options, loop: OpaquePointer, display: OpaquePointer) {
        self.options = options
        self.loop = loop
        self.display = display
        globals = Globals(display: display)
        // `wlr-orient plugin-inputs` reads the TOML files in a child (a parser that aborts on bad
        // input takes only the child with it): this program, which is `wlr-orient`.
        runner = ControllerRunner(configPath: options.configPath, helper: PluginInputsReader.thisProgram)
    }

    // MARK: starting

    /// The services (config, sensor, control socket, state), then the connection.
    private func start() -> Exit? {
        for signal in [SIGTERM, SIGINT] {
            if let source = LoopSource.signal(signal, on: loop, { [unowned self] in exit = .stopped }) { sources.append(source) }
        }
        // The sensor in a helper process, as the plugin has it: a read that hangs (a HID hub
        // takes up to 5 s, a wedged driver forever) stalls the helper, which is replaced, and
        // never this loop, which serves the compositor, the shields and the control socket. The
        // helper is this very program (`SensorHelper.ownProgram`), so it shares the daemon's pages.
        runner.attach(loop: loop, sensor: { loop, device, detection, report in
            SensorHelper(loop: loop, device: device, detection: detection, command: [SensorHelper.ownProgram()], report: report)
        }, perform: { [unowned self] in perform($0) })
        let config = controller.config
        Log.info("started on \(DisplaySession.displayName); panels match \(config.device.outputs.joined(separator: ", "))"
                 + (controller.state.lastFelt.map { "; last orientation \($0.rawValue)" } ?? ""))
        Events.emit(.started(host: "daemon", panelsMatch: config.device.outputs))
        if let served = alreadyServed() { return served }
        // What the compositor offers, before anything is announced: one that offers nothing to
        // turn its outputs with ends the daemon here.
        var failed: Exit?
        guard let managers = connect(failing: &failed) else { return failed }
        runner.startControlServer(who: "the daemon")
        runner.start()
        return attachConnection(managers)
    }

    /// Learns the compositor's globals: what it offers, or why the daemon cannot run beside it.
    private func connect(failing exit: inout Exit?) -> (heads: OutputHeads, toplevels: ForeignToplevels?)? {
        // Two round trips: the globals, then what each bound global sends at once (heads, names).
        guard wl_display_roundtrip(display) >= 0, wl_display_roundtrip(display) >= 0 else {
            Log.error("the compositor closed the connection at once")
            exit = .displayGone
            return nil
        }
        let managers = globals.takeManagers()
        guard let heads = managers.heads else {
            // Which compositor this is: the process that listens on the display's socket.
            let pid = try? UnixSocket.peerProcess(of: FileDescriptor(rawValue: wl_display_get_fd(display))).get()
            Log.error(CompositorWithoutOutputManagement.line(process: pid.flatMap(nameOfProcess), pid: pid))
            exit = .noOutputManagement
            return nil
        }
        return (heads, managers.toplevels)
    }

    /// Hooks the heads and toplevels the compositor offers to the controller.
    private func attachConnection(_ managers: (heads: OutputHeads, toplevels: ForeignToplevels?)) -> Exit? {
        let heads = managers.heads
        displaySource = LoopSource.readable(wl_display_get_fd(display), on: loop) { [unowned self] _ in readDisplay() }
        heads.done = { [unowned self] in headsDone() }
        heads.removed = { [unowned self] proxy in
            targets.removeValue(forKey: Self.key(proxy))?.destroy()
            for shield in Array(shields.values) where shield.key == Self.key(proxy) { shield.report(.failed(.outputGone)) }
            reconcile(.headGone(Self.key(proxy)))
        }
        heads.finished = { [unowned self] in
            Log.error("the compositor withdrew wlr-output-management")
            exit = .displayGone
        }
        self.heads = heads
        if let toplevels = managers.toplevels {
            toplevels.finished = {
                Log.error("the compositor withdrew foreign-toplevel management: per-app rules are off from now on")
            }
            self.toplevels = toplevels
        } else {
            Log.error("the compositor offers no foreign-toplevel management (zwlr_foreign_toplevel_manager_v1): the daemon cannot see the app in front, so per-app rules and `scope` are off; rotation, the lock and the control socket work")
        }
        globals.outputsChanged = { [unowned self] removed in
            guard let removed else { return toplevels?.panelsChanged() ?? () }
            toplevels?.forget(output: removed)
            // A compositor may withdraw an output's wl_output while its head stays (sway, for a
            // disabled output): a shield on it cannot go on.
            for shield in Array(shields.values) where shield.output == removed { shield.report(.failed(.outputGone)) }
        }
        reconcile(.canShield(lacking: globals.shieldParts.missing))
        hearInput()
        // What the compositor described on binding: the panels first, then the toplevels on them.
        headsDone()
        toplevels?.attach(report: { [unowned self] in dispatch(.controller($0)) }, panelsOf: { [unowned self] in panels(of: $0) })
        return nil
    }

    /// Input, for the touch hold: ext-idle-notify's notification, idled after a short pause (the
    /// controller's hold follows it).
    private func hearInput() {
        guard let notifier = globals.idleNotifier, let seat = globals.seat,
              let activity = InputActivity(notifier: notifier, seat: seat, pause: Self.inputPauseMs, loop: loop,
                                           report: { [unowned self] in dispatch(.controller(.touch($0))) })
        else {
            let why = "the compositor offers no ext-idle-notify-v1: the daemon cannot see touches, so turns are not held while the panel is touched"
            if !saidTouchesUnseen {
                saidTouchesUnseen = true
                Log.info(why)
            }
            return dispatch(.controller(.touchesUnseen(why)))
        }
        inputActivity = activity
        dispatch(.controller(.touchesUnseen(nil)))
    }

    /// How long without input ends an activity (ext-idle-notify's timeout).
    static let inputPauseMs: UInt32 = 100

    private func runLoop() -> Exit {
        while exit == nil {
            // What the controller wants, once everything that arrived together has been told
            // (a window's arrival, outputs and focus come as several events: a configuration
            // sent in between would turn the panel for a state that lasts a moment).
            if wl_display_dispatch_pending(display) >= 0 {
                reconcile(.settle)
            }
            // Requests made while handling anything (a rotation, a reply) go out before waiting.
            if wl_display_dispatch_pending(display) < 0 || wl_display_flush(display) < 0 && errno != EAGAIN {
                if let gone = lostDisplay() { return gone }
                continue
            }
            if wl_event_loop_dispatch(loop, -1) < 0, errno != EINTR {
                Log.error("the event loop failed (\(SystemError.last("wl_event_loop_dispatch").reason)); exiting")
                return .displayGone
            }
        }
        if exit == .stopped { Log.info("stopped") }
        return exit ?? .stopped
    }

    private func readDisplay() {
        if wl_display_dispatch(display) < 0 { exit = lostDisplay() }
    }

    /// The connection failed. A protocol error with the compositor still there is met by
    /// connecting again (wlroots 0.15, for one, destroys a head's object at once when its output
    /// goes, so a configuration sent just then names an object that no longer exists, and the
    /// compositor ends the connection); nil when connected again. Else the compositor went away.
    private func lostDisplay() -> Exit? {
        let error = wl_display_get_error(display)
        let failure: ReconnectBudget.Failure = error == EPROTO || error == EINVAL ? .protocolError : .connectionGone
        guard reconnects.reconnects(after: failure, at: monotonicSeconds()) else {
            Log.error("the compositor went away (\(SystemError(operation: "wl_display", errno: error).reason)); exiting so that the service manager can start the daemon again with the next one")
            return .displayGone
        }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(display, &interface, &id)
        let object = (interface.map { String(cString: $0.pointee.name) } ?? "an object") + "@\(id)"
        Log.error("the compositor ended the connection over a protocol error (\(object), code \(code)); connecting again (wlroots 0.15 does this when an output goes while it is being configured)")
        detachConnection()
        guard let again = wl_display_connect(nil) else {
            connected = false
            Log.error("the compositor went away (\(SystemError.last("wl_display_connect").reason)); exiting so that the service manager can start the daemon again with the next one")
            return .displayGone
        }
        display = again
        connected = true
        globals = Globals(display: again)
        var failed: Exit?
        guard let managers = connect(failing: &failed) else { return failed }
        return attachConnection(managers)
    }

    /// Forgets everything the connection brought (the controller hears the panels and toplevels
    /// go), then disconnects.
    private func detachConnection() {
        reconcile(.disconnected)
        toplevels?.removeAll()
        closeConnection()
    }

    /// Destroys what the connection holds and disconnects (once).
    private func closeConnection() {
        for shield in Array(shields.values) { shield.remove() }
        shields = [:]
        configuration.take()?.destroy()
        inputActivity.take()?.destroy()
        targets.values.forEach { $0.destroy() }
        targets = [:]
        toplevels.take()?.destroy()
        heads.take()?.destroy()
        globals.destroy()
        displaySource.take()?.remove()
        if connected {
            _ = wl_display_flush(display)
            wl_display_disconnect(display)
            connected = false
        }
    }

    private func unhook() {
        runner.stop()
        tabletSwitches.take()?.remove()
        sources.forEach { $0.remove() }
        sources = []
        closeConnection()
    }

    // MARK: events in, commands out

    private func dispatch(_ event: DaemonCore.Event) {
        runner.dispatch(event)
    }

    /// Hands one event from the heads or the shields to the core.
    private func reconcile(_ event: DaemonCore.HeadsEvent) {
        dispatch(.heads(event))
    }

    /// What only the daemon can carry out; the runner carries out the rest.
    private func perform(_ command: DaemonCommand) {
        switch command {
        case .test(let transforms):
            send(transforms, apply: false)
        case .apply(let transforms):
            send(transforms, apply: true)
        case .cover(let covers):
            covers.forEach(cover)
        case .uncover(let id, let applied):
            shields[id]?.report(.applied(applied, at: monotonicMilliseconds()))
        case .retire(let id):
            shields[id]?.remove()
        case .assume(let key, let transform):
            if let proxy = Self.proxy(key) { heads?.assume(transform: transform.rawValue, for: proxy) }
        case .panelsChanged:
            toplevels?.panelsChanged()
        case .suggest(let key, let target):
            suggest(target, on: key)
        case .readTabletSwitches(true):
            tabletSwitches = tabletSwitches ?? TabletSwitches(loop: loop) { [unowned self] in dispatch(.controller(.tabletMode($0))) }
        case .readTabletSwitches(false):
            tabletSwitches.take()?.remove()
        }
    }

    // MARK: the heads

    private static func key(_ proxy: OpaquePointer) -> HeadsReconciler.HeadKey { UInt(bitPattern: Int(bitPattern: proxy)) }

    private static func proxy(_ key: HeadsReconciler.HeadKey) -> OpaquePointer? { OpaquePointer(bitPattern: Int(bitPattern: key)) }

    /// The heads are consistent again (the manager's `done`): the core sees them as they are.
    private func headsDone() {
        guard let heads else { return }
        let list = heads.heads.values.map { head in
            HeadsReconciler.Head(key: Self.key(head.proxy), name: head.name, enabled: head.enabled,
                                 shape: head.size.map { PanelShape(width: Int($0.width), height: Int($0.height)) },
                                 showing: head.showing)
        }
        reconcile(.heads(list, serial: heads.serial))
    }

    /// Lays a shield over a panel about to turn; the apply waits until it is on screen.
    /// The offered turn's target over a head (nil: none), on a layer surface of its own; where the
    /// compositor cannot have one (no layer-shell, as cage; a fractional scale), the offer stays
    /// in `status` and `watch`, and the log says so once.
    private func suggest(_ target: SuggestionTarget?, on key: HeadsReconciler.HeadKey) {
        if let shown = targets[key] {
            if shown.target == target { return }
            if let target, let shm = globals.shieldParts.shm, shown.redraw(target, shm: shm) { return }
        }
        targets.removeValue(forKey: key)?.destroy()
        guard let target else { return }
        let head = heads?.heads.values.first { Self.key($0.proxy) == key }
        guard let head, let size = head.size, head.scale % 256 == 0,
              let output = globals.output(named: head.name, at: (head.x, head.y)),
              let surface = TargetSurface(target: target, panel: head.name, output: output,
                                          size: (Int(size.width), Int(size.height)), transform: head.transform,
                                          scale: head.scale / 256, parts: globals.shieldParts, seat: globals.seat,
                                          capabilities: globals.seatCapabilities,
                                          tapped: { [unowned self] in dispatch(.controller(.control(.acceptSuggestion))) },
                                          hover: { [unowned self] in dispatch(.controller(.suggestionHovered($0))) },
                                          closed: { [unowned self] in targets[key] = nil })
        else {
            if !saidTargetUnshown {
                saidTargetUnshown = true
                Log.info("a turn is offered, but its target cannot be shown here (it needs zwlr_layer_shell_v1 and wl_shm, at a whole scale): `wlr-orient suggestion accept` takes it, and `status` and `watch` show it")
            }
            return
        }
        targets[key] = surface
    }

    private func cover(_ cover: HeadsReconciler.Cover) {
        let key = cover.key
        guard let head = heads?.heads.values.first(where: { Self.key($0.proxy) == key }),
              let output = globals.output(named: head.name, at: (head.x, head.y)) else {
            return reconcile(.coverFailed(key, .panelUnknown))
        }
        let shield = Shield(cover: cover, output: output, parts: globals.shieldParts, loop: loop, covered: { [unowned self] in
            reconcile(.covered(key))
        }, cut: { [unowned self] why in
            reconcile(.shieldCut(key, why))
        }, gone: { [unowned self] _ in
            shields[cover.id] = nil
            reconcile(.shieldGone(cover.id))
        })
        shields[cover.id] = shield
        shield.start()
    }

    /// A configuration of every head as reported, with `transforms` changed: tested or applied.
    private func send(_ transforms: [HeadsReconciler.HeadKey: OutputTransform], apply: Bool) {
        configuration.take()?.destroy()
        guard let heads else { return reconcile(.notSent) }
        var raw: [OpaquePointer: Int32] = [:]
        for (key, transform) in transforms {
            if let proxy = Self.proxy(key) { raw[proxy] = transform.rawValue }
        }
        configuration = HeadConfiguration(heads: heads, transforms: raw) { [unowned self] answer in
            configuration.take()?.destroy()
            reconcile(.answered(answer))
        }
        guard let configuration else { return reconcile(.notSent) }
        if apply { configuration.apply() } else { configuration.test() }
    }

    /// The panels a toplevel is on, from its wl_outputs' names (the core decides what an
    /// unknown one means).
    private func panels(of outputs: Set<OpaquePointer>) -> Set<PanelID>? {
        runner.core.panels(onOutputsNamed: outputs.map { globals.outputNames[$0] })
    }

    // MARK: the control socket

    /// Another wlr-orient answers on this display's control socket (the plugin inside the
    /// compositor, or a daemon started twice): two controllers would fight over the transform.
    private func alreadyServed() -> Exit? {
        guard let path = DisplaySession.controlSocketPath, ControlServer.isServed(path: path) else { return nil }
        Log.error("another wlr-orient already serves \(DisplaySession.displayName) (\(path)): the plugin inside the compositor, or another daemon; this one has nothing to do")
        return .alreadyServed
    }
}

import CEventLoop
import CWaylandClient
import Glibc
import OrientCore
import OrientSensor
import OrientService

/// `wlr-orient daemon`: the controller beside a compositor that loads no plugin. It translates
/// wlr-output-management (the heads) and foreign-toplevel (the app in front) into controller
/// events, and the controller's `.show` into output configurations. It decides nothing itself.
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
        public func terminate() -> Never { Glibc.exit(rawValue) }
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
    private var displaySource: OpaquePointer?
    private var globals: Globals
    /// When the connection was last made again after a protocol error (bounded: 3 a minute).
    private var reconnects: [Double] = []
    /// The controller with the sensor, the config, the saved state and the control socket.
    private var runner: ControllerRunner
    private var controller: Controller { runner.controller }
    private var heads: OutputHeads?
    private var toplevels: ForeignToplevels?
    private var tabletSwitches: TabletSwitches?
    private var sources: [OpaquePointer] = []
    private var exit: Exit?

    /// The panels: head proxy → panel, and what the controller last asked each to show.
    private var panels: [OpaquePointer: PanelID] = [:]
    private var names: [PanelID: String] = [:]
    private var wanted: [PanelID: Orientation] = [:]
    private var nextPanel: UInt = 1
    /// The configuration being tested or applied, and what it changes.
    private var configuration: HeadConfiguration?
    private var applying = false
    /// What the configuration being applied shows on each panel: a compositor may describe the
    /// heads it made (and end with `done`) before it answers `succeeded` (some wlroots 0.17
    /// ones), or after (phoc). A head that shows this meanwhile shows our own configuration.
    private var inFlight: [PanelID: Orientation] = [:]
    /// The serial the configuration was made against (a cancelled one is sent again once the
    /// heads have a newer one).
    private var sentSerial: UInt32?

    /// Configurations cancelled in a row (the heads changed under them); bounded, never a loop.
    private var cancelled = 0
    private static let cancelLimit = 3
    /// Heads named as panels that cannot be one now (disabled, no mode), each said once.
    private var unusable: Set<String> = []
    /// Refusals already logged, each once.
    private var refusalsLogged: Set<String> = []

    /// The controller asked for something to be shown: sent once the current batch is told.
    private var needsSubmit = false
    /// What each panel's head showed at the last `done` (or as applied since): a change that is
    /// neither is someone else's (the user's own `wlr-randr`).
    private var seen: [PanelID: Orientation] = [:]

    /// Connects and starts; nil (with the reason logged) when it cannot.
    public static func run(_ options: Options) -> Exit {
        Log.showDebug = options.debug
        guard let loop = wl_event_loop_create() else {
            Log.error("cannot create an event loop")
            return .noDisplay
        }
        defer { wl_event_loop_destroy(loop) }
        guard let display = wl_display_connect(nil) else {
            Log.error("cannot connect to the compositor (\(ControllerRunner.displayName)): \(String(cString: strerror(errno))); is one running, and is WAYLAND_DISPLAY set?")
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
        // input takes only the child with it): the `wlr-orient` beside this program, or in the
        // bin of its prefix (PluginInputsReader.helperPath).
        // Foreign-toplevel shows states, not geometry: a window alone on its output covers it
        // (tiling compositors mark no window maximized).
        runner = ControllerRunner(configPath: options.configPath, coverEvidence: .statesOnly)
    }

    // MARK: starting

    /// The services (config, sensor, control socket, state), then the connection.
    private func start() -> Exit? {
        for signal in [SIGTERM, SIGINT] {
            if let source = glue_add_signal(loop, signal, Unmanaged.passUnretained(self).toOpaque(), { _, context in
                guard let context else { return 0 }
                Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue().exit = .stopped
                return 0
            }) { sources.append(source) }
        }
        // A config read again may name other panels (the heads are looked at again) or change
        // `rotate-when` (the switches are opened or closed).
        runner.attach(loop: loop, perform: { [unowned self] in perform($0) }, configApplied: { [unowned self] in
            followRotateWhen()
            headsDone()
        })
        let config = controller.config
        Log.info("started on \(ControllerRunner.displayName); panels match \(config.device.outputs.joined(separator: ", "))"
                 + (controller.state.lastFelt.map { "; last orientation \($0.rawValue)" } ?? ""))
        if let served = alreadyServed() { return served }
        runner.startControlServer(who: "the daemon")
        runner.start()
        followRotateWhen()
        return attachConnection()
    }

    /// The tablet-mode switches are read only while `rotate-when = "tablet-mode"` asks for them.
    private func followRotateWhen() {
        switch (controller.config.rotateWhen, tabletSwitches) {
        case (.tabletMode, nil):
            tabletSwitches = TabletSwitches(loop: loop) { [unowned self] in dispatch(.tabletMode($0)) }
        case (.always, let switches?):
            switches.remove()
            tabletSwitches = nil
        default:
            break
        }
    }

    /// Learns the compositor's globals and hooks the heads and toplevels to the controller.
    private func attachConnection() -> Exit? {
        // Two round trips: the globals, then what each bound global sends at once (heads, names).
        guard wl_display_roundtrip(display) >= 0, wl_display_roundtrip(display) >= 0 else {
            Log.error("the compositor closed the connection at once")
            return .displayGone
        }
        let managers = globals.takeManagers()
        guard let heads = managers.heads else {
            Log.error("the compositor offers no wlr-output-management (zwlr_output_manager_v1): the daemon cannot rotate anything here, so it stops. Compositors built on wlroots 0.15 can load the plugin instead (`wlr-orient run`)")
            return .noOutputManagement
        }
        displaySource = glue_add_fd(loop, wl_display_get_fd(display), Unmanaged.passUnretained(self).toOpaque()) { _, _, context in
            guard let context else { return 0 }
            Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue().readDisplay()
            return 0
        }
        heads.done = { [unowned self] in headsDone() }
        heads.removed = { [unowned self] proxy in
            if let id = panels[proxy] { removePanel(proxy, id) }
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
            if let removed { toplevels?.forget(output: removed) } else { toplevels?.panelsChanged() }
        }
        // What the compositor described on binding: the panels first, then the toplevels on them.
        headsDone()
        toplevels?.attach(report: { [unowned self] in dispatch($0) }, panelsOf: { [unowned self] in panels(of: $0) })
        return nil
    }

    private func runLoop() -> Exit {
        while exit == nil {
            // What the controller wants, once everything that arrived together has been told
            // (a window's arrival, outputs and focus come as several events: a configuration
            // sent in between would turn the panel for a state that lasts a moment).
            if wl_display_dispatch_pending(display) >= 0, needsSubmit {
                needsSubmit = false
                submit()
            }
            // Requests made while handling anything (a rotation, a reply) go out before waiting.
            if wl_display_dispatch_pending(display) < 0 || wl_display_flush(display) < 0 && errno != EAGAIN {
                if let gone = lostDisplay() { return gone }
                continue
            }
            if wl_event_loop_dispatch(loop, -1) < 0, errno != EINTR {
                Log.error("the event loop failed (\(String(cString: strerror(errno)))); exiting")
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
        let now = monotonicSeconds()
        reconnects = reconnects.filter { now - $0 < 60 }
        // EPROTO: an error on one of our objects; EINVAL: on the display (a request naming an
        // object the compositor no longer has). Anything else: the connection itself is gone.
        guard error == EPROTO || error == EINVAL, reconnects.count < 3 else {
            Log.error("the compositor went away (\(String(cString: strerror(error)))); exiting so that the service manager can start the daemon again with the next one")
            return .displayGone
        }
        reconnects.append(now)
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(display, &interface, &id)
        let object = (interface.map { String(cString: $0.pointee.name) } ?? "an object") + "@\(id)"
        Log.error("the compositor ended the connection over a protocol error (\(object), code \(code)); connecting again (wlroots 0.15 does this when an output goes while it is being configured)")
        detachConnection()
        guard let again = wl_display_connect(nil) else {
            connected = false
            Log.error("the compositor went away (\(String(cString: strerror(errno)))); exiting so that the service manager can start the daemon again with the next one")
            return .displayGone
        }
        display = again
        connected = true
        globals = Globals(display: again)
        return attachConnection()
    }

    /// Forgets everything the connection brought (the controller hears the panels and toplevels
    /// go), then disconnects.
    private func detachConnection() {
        for (proxy, id) in panels.sorted(by: { $0.value < $1.value }) { removePanel(proxy, id) }
        toplevels?.removeAll()
        closeConnection()
    }

    /// Destroys what the connection holds and disconnects (once).
    private func closeConnection() {
        configuration?.destroy()
        configuration = nil
        inFlight = [:]
        toplevels?.destroy()
        toplevels = nil
        heads?.destroy()
        heads = nil
        globals.destroy()
        if let displaySource { wl_event_source_remove(displaySource) }
        displaySource = nil
        if connected {
            _ = wl_display_flush(display)
            wl_display_disconnect(display)
            connected = false
        }
    }

    private func unhook() {
        runner.stop()
        tabletSwitches?.remove()
        tabletSwitches = nil
        sources.forEach { wl_event_source_remove($0) }
        sources = []
        closeConnection()
    }

    // MARK: events in, commands out

    private func dispatch(_ event: ControllerEvent) {
        runner.dispatch(event)
    }

    /// The commands that touch the compositor; the runner carries out the rest.
    private func perform(_ command: ControllerCommand) {
        switch command {
        case .show(let id, let orientation, _):
            // Transitions are the plugin's: a client cannot draw in the compositor's frames.
            wanted[id] = orientation
            needsSubmit = true
        default:
            break   // .tellShown, .tellFelt: our protocol is the plugin's; no client speaks it to the daemon
        }
    }

    // MARK: panels

    /// The heads are consistent again: panels come and go, and a transform changed by someone
    /// else (the user's own `wlr-randr`) is what the panel shows from now on.
    private func headsDone() {
        guard let heads else { return }
        for (proxy, id) in panels where heads.heads[proxy] == nil {
            removePanel(proxy, id)
        }
        for head in heads.heads.values.sorted(by: { $0.name < $1.name }) {
            let named = controller.config.device.isBuiltInPanel(outputName: head.name)
            let builtIn = named && head.enabled && head.size != nil
            if named, !builtIn, unusable.insert(head.name).inserted {
                // sway 1.7 reports an output without a mode (a headless one) so; carried back as
                // reported, it would be switched off.
                Log.info("\(head.name) matches [device] outputs, but the compositor reports it disabled or without a mode; leaving it alone")
            } else if builtIn {
                unusable.remove(head.name)
            }
            switch (builtIn, panels[head.proxy]) {
            case (true, nil):
                guard let size = head.size else { continue }
                let id = PanelID(nextPanel)
                nextPanel += 1
                panels[head.proxy] = id
                names[id] = head.name
                wanted[id] = head.showing
                seen[id] = head.showing
                let shape = PanelShape(width: Int(size.width), height: Int(size.height))
                Log.info("\(head.name): a built-in panel (\(shape.rawValue)); it follows the device")
                dispatch(.panelAdded(id, name: head.name, shape: shape, showing: head.showing))
            case (false, let id?):
                removePanel(head.proxy, id)
            case (true, let id?):
                if let before = seen[id], head.showing != before, inFlight[id] != head.showing {
                    Log.info("\(head.name): set to \(head.showing.rawValue) by someone else; showing that until the device turns")
                    wanted[id] = head.showing
                    dispatch(.panelShowing(id, head.showing))
                }
                seen[id] = head.showing
            default:
                break
            }
        }
        toplevels?.panelsChanged()
        needsSubmit = true
    }

    private func removePanel(_ proxy: OpaquePointer, _ id: PanelID) {
        panels[proxy] = nil
        wanted[id] = nil
        seen[id] = nil
        Log.info("\(names.removeValue(forKey: id) ?? "a panel"): gone")
        dispatch(.panelRemoved(id))
    }

    /// The panels a toplevel is on, from its wl_outputs' names. While that cannot be known (no
    /// output entered yet, or a nameless one: wl_output before version 4, as in wlroots 0.15),
    /// it counts as on every panel.
    private func panels(of outputs: Set<OpaquePointer>) -> Set<PanelID> {
        let every = Set(panels.values)
        guard !outputs.isEmpty else { return every }
        var out: Set<PanelID> = []
        for output in outputs {
            guard let name = globals.outputNames[output] else { return every }
            if let id = names.first(where: { $0.value == name })?.key { out.insert(id) }
        }
        return out
    }

    // MARK: configuring the heads

    /// Sends what the controller wants and the heads do not show yet, as one configuration:
    /// tested first, then applied. One at a time; what is asked meanwhile follows it.
    private func submit() {
        guard configuration == nil, let heads else { return }
        var change: [PanelID: Orientation] = [:]
        var transforms: [OpaquePointer: Int32] = [:]
        for (proxy, id) in panels {
            guard let want = wanted[id], let head = heads.heads[proxy], head.showing != want else { continue }
            change[id] = want
            transforms[proxy] = OutputTransform(for: want).rawValue
        }
        guard !change.isEmpty else { return }
        send(transforms: transforms, change: change, apply: false)
    }

    private func send(transforms: [OpaquePointer: Int32], change: [PanelID: Orientation], apply: Bool) {
        guard let heads else { return }
        configuration = HeadConfiguration(heads: heads, transforms: transforms) { [unowned self] answer in
            answered(answer, transforms: transforms, change: change)
        }
        guard let configuration else {
            return Log.error("cannot make an output configuration (no serial from the compositor yet)")
        }
        applying = apply
        inFlight = apply ? change : [:]
        sentSerial = heads.serial
        if apply { configuration.apply() } else { configuration.test() }
    }

    private func answered(_ answer: HeadConfiguration.Answer, transforms: [OpaquePointer: Int32], change: [PanelID: Orientation]) {
        configuration?.destroy()
        configuration = nil
        inFlight = [:]
        switch (answer, applying) {
        case (.succeeded, false):
            cancelled = 0
            // Applied only if it is still what the controller wants; else a new test.
            if change.allSatisfy({ wanted[$0.key] == $0.value }) {
                send(transforms: transforms, change: change, apply: true)
                return
            }
        case (.succeeded, true):
            cancelled = 0
            // Applied: the heads show it now, whether or not (or before) the compositor
            // describes them anew, so that it is not sent again.
            for (proxy, transform) in transforms { heads?.assume(transform: transform, for: proxy) }
            for (id, o) in change { seen[id] = o }
            for (id, o) in change.sorted(by: { $0.key < $1.key }) {
                Log.info("\(names[id] ?? "panel"): \(o.rawValue) (transform \(OutputTransform(for: o).rawValue))")
            }
        case (.failed, _):
            refuse(change, why: applying ? "the compositor failed to apply it" : "the compositor's test refused it")
        case (.cancelled, _):
            // The heads changed before the compositor got to it: again on the new serial (a
            // bounded number of times). If its `done` came before this answer, at once; else
            // that `done` submits.
            cancelled += 1
            if cancelled > Self.cancelLimit {
                cancelled = 0
                refuse(change, why: "it was cancelled \(Self.cancelLimit + 1) times in a row (the outputs keep changing)")
            } else if heads?.serial == sentSerial {
                return
            }
        }
        submit()
    }

    /// The compositor would not show `change`: each panel shows what its head says, and the
    /// controller hears so (it will not ask again until its decision moves elsewhere).
    private func refuse(_ change: [PanelID: Orientation], why: String) {
        for (id, o) in change.sorted(by: { $0.key < $1.key }) {
            guard let proxy = panels.first(where: { $0.value == id })?.key, let head = heads?.heads[proxy] else { continue }
            let line = "\(head.name): cannot show \(o.rawValue): \(why); it stays \(head.showing.rawValue)"
            if refusalsLogged.insert(line).inserted { Log.error(line) }
            wanted[id] = head.showing
            dispatch(.panelShowing(id, head.showing))
        }
    }

    // MARK: the control socket

    /// Another wlr-orient answers on this display's control socket (the plugin inside the
    /// compositor, or a daemon started twice): two controllers would fight over the transform.
    private func alreadyServed() -> Exit? {
        guard let path = ControllerRunner.controlSocketPath, ControlServer.isServed(path: path) else { return nil }
        Log.error("another wlr-orient already serves \(ControllerRunner.displayName) (\(path)): the plugin inside the compositor, or another daemon; this one has nothing to do")
        return .alreadyServed
    }
}

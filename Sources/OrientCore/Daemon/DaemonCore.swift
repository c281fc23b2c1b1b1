/// The daemon's decisions: the controller composed with the heads reconciler (what to send
/// through wlr-output-management so that each panel shows what the controller wants) and with
/// whether the tablet-mode switches are read. The daemon translates the compositor's events
/// into `Event`s and carries out `DaemonCommand`s; it decides nothing itself.
///
/// A decision passes through the controller once: its `.show` goes straight to the reconciler,
/// and the reconciler's steps that concern the controller (a panel found, gone, or showing
/// something else) are handed to it after what came before them, as a host's queue would.
public struct DaemonCore: HostCore {
    public enum Event: Sendable, Hashable {
        /// For the controller: the sensor, the control socket, the config, the toplevels, the
        /// tablet-mode switch.
        case controller(ControllerEvent)
        /// What the compositor's heads and the daemon's shields did.
        case heads(HeadsEvent)
    }

    /// What the compositor's heads and the daemon's shields did: the reconciler's own events
    /// (the daemon sends none of those the core itself tells it: the config's panels and the
    /// controller's wishes).
    public typealias HeadsEvent = HeadsReconciler.Event

    public private(set) var controller: Controller
    private var heads: HeadsReconciler
    /// What the reconciler told the controller, waiting until what came before it is done.
    private var told: [ControllerEvent] = []
    /// What the compositor lacks for shields was said (once: not again for a connection made again).
    private var saidLacking = false
    /// Whether the daemon was last told to read the tablet-mode switches.
    private var readsSwitches = false
    /// How many events the controller has handled (tests: a turn passes through it once).
    private(set) var controllerEvents = 0

    /// Foreign-toplevel shows states, not geometry: a window alone on its output covers it
    /// (tiling compositors mark no window maximized).
    public init(config: Config, state: PersistentState, desktop: DesktopIndex) {
        controller = Controller(config: config, state: state, desktop: desktop, coverEvidence: .statesOnly)
        heads = HeadsReconciler(device: config.device)
    }

    public static func event(_ event: ControllerEvent) -> Event { .controller(event) }

    public mutating func advanceClock(to now: Double) { controller.advanceClock(to: now) }

    public mutating func start() -> [CoreCommand<DaemonCommand>] {
        var out: [CoreCommand<DaemonCommand>] = []
        route(controller.start(), into: &out)
        drain(into: &out)
        // After the controller's first word: what a switch reports at once comes after it.
        followRotateWhen(into: &out)
        return out
    }

    public mutating func handle(_ event: Event) -> [CoreCommand<DaemonCommand>] {
        var out: [CoreCommand<DaemonCommand>] = []
        switch event {
        case .controller(let event):
            control(event, into: &out)
            if case .configLoaded(_, _, let errors) = event, errors.isEmpty {
                // The config read again may name other panels, and another `rotate-when`.
                reconcile(.device(controller.config.device), into: &out)
                followRotateWhen(into: &out)
            }
        case .heads(.canShield(let lacking)):
            if !lacking.isEmpty, !saidLacking {
                saidLacking = true
                out.append(.log(.info, "the compositor offers no \(lacking.joined(separator: ", ")): the panel turns without a transition here (a cut)"))
                out.append(.event(.cannotShield(lacking: lacking)))
            }
            reconcile(.canShield(lacking: lacking), into: &out)
        case .heads(let event):
            reconcile(event, into: &out)
        }
        drain(into: &out)
        return out
    }

    /// The panels a window is on, from the names of the outputs it entered (nil: an output that
    /// has no name). While that cannot be known (no output entered yet, or a nameless one:
    /// wl_output before version 4, as in wlroots 0.15): nil, which the controller takes as on
    /// every panel, and `status` names.
    public func panels(onOutputsNamed names: [String?]) -> Set<PanelID>? {
        guard !names.isEmpty else { return nil }
        var on: Set<PanelID> = []
        for name in names {
            guard let name else { return nil }
            if let id = heads.panel(named: name) { on.insert(id) }
        }
        return on
    }

    /// The controller's status with what the compositor does not show yet: each panel's turn
    /// on its way.
    public var status: ControllerStatus { withTurns(controller.status) }

    private func withTurns(_ status: ControllerStatus) -> ControllerStatus {
        var status = status
        for i in status.panels.indices {
            status.panels[i].turning = heads.panel(named: status.panels[i].name).flatMap { heads.turning($0) }
        }
        return status
    }

    /// The panel of an output named `name`, if it is one.
    func panel(named name: String) -> PanelID? { heads.panel(named: name) }

    var allPanels: Set<PanelID> { heads.allPanels }

    // MARK: routing

    private mutating func control(_ event: ControllerEvent, into out: inout [CoreCommand<DaemonCommand>]) {
        controllerEvents += 1
        route(controller.handle(event), into: &out)
    }

    /// The controller's commands: `.show` becomes the reconciler's `.want`, its steps in the
    /// show's place; the runner's pass on.
    private mutating func route(_ commands: [ControllerCommand], into out: inout [CoreCommand<DaemonCommand>]) {
        for command in commands {
            switch command {
            case .runner(.notify(let status)):
                out.append(.runner(.notify(withTurns(status))))
            case .runner(let command):
                out.append(.runner(command))
            case .host(.show(let panel, let orientation, let transition)):
                reconcile(.want(panel, orientation, transition: transition), into: &out)
            case .host(.tellShown), .host(.tellFelt):
                // Our protocol is the plugin's: the daemon hears no client's declaration, and the
                // controller tells only those who declared.
                break
            case .host(.suggest(let panel, let target)):
                // On an overlay of the daemon's own, where the compositor offers layer-shell.
                if let head = heads.head(of: panel) { out.append(.host(.suggest(head, target))) }
            }
        }
    }

    private mutating func reconcile(_ event: HeadsReconciler.Event, into out: inout [CoreCommand<DaemonCommand>]) {
        for command in heads.handle(event) {
            switch command {
            case .controller(let event): told.append(event)
            case .daemon(let command): out.append(.host(command))
            case .info(let line): out.append(.log(.info, line))
            case .error(let line): out.append(.log(.error, line))
            case .event(let event): out.append(.event(event))
            }
        }
    }

    private mutating func drain(into out: inout [CoreCommand<DaemonCommand>]) {
        while !told.isEmpty { control(told.removeFirst(), into: &out) }
    }

    /// The tablet-mode switches are read only while `rotate-when = "tablet-mode"` asks for them.
    private mutating func followRotateWhen(into out: inout [CoreCommand<DaemonCommand>]) {
        let wanted = controller.config.readsTabletSwitches
        guard wanted != readsSwitches else { return }
        readsSwitches = wanted
        out.append(.host(.readTabletSwitches(wanted)))
    }

}

/// What only the daemon can carry out: the steps of a configuration of the compositor's heads,
/// its shields, and the tablet-mode switches.
public enum DaemonCommand: Sendable, Hashable {
    /// Make a configuration of every head as reported, with these transforms changed, and test
    /// it; or apply it.
    case test([HeadsReconciler.HeadKey: OutputTransform])
    case apply([HeadsReconciler.HeadKey: OutputTransform])
    /// Before the apply: lay a shield over each of these heads, showing what the panel shows now,
    /// and report `covered` for each when it is on screen.
    case cover([HeadsReconciler.Cover])
    /// The apply this shield was laid for has been answered: play its transition (`applied`), or
    /// take it away.
    case uncover(HeadsReconciler.ShieldID, applied: Bool)
    /// Take this older shield away: a new one over its head shows what it showed.
    case retire(HeadsReconciler.ShieldID)
    /// The head shows this transform now (applied), whether or not the compositor has said so.
    case assume(HeadsReconciler.HeadKey, OutputTransform)
    /// The panels changed: which panels a window is on must be worked out again.
    case panelsChanged
    /// Read the tablet-mode switches (and report `.tabletMode`), or close them.
    case readTabletSwitches(Bool)
    /// Show the offered turn's target over this head (nil: take it away).
    case suggest(HeadsReconciler.HeadKey, SuggestionTarget?)
}

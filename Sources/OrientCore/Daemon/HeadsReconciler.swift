/// What the daemon decides about the compositor's outputs, without the compositor: which heads
/// are panels, what to send so that each panel shows what the controller wants, what to make of
/// each answer, and when a transform is someone else's. The daemon feeds it what
/// wlr-output-management reports (`Event`) and carries out what it says (`Command`); it keeps no
/// decision of its own.
///
/// One configuration at a time: tested first, then applied if it is still what is wanted; what
/// is asked meanwhile follows it. A configuration the compositor cancels (the heads changed
/// under it) is sent again on the new serial, at most `cancelLimit` times in a row.
public struct HeadsReconciler: Sendable {
    /// A head, named by the daemon (its proxy's address; a head gone is reported before another
    /// may take the same key).
    public typealias HeadKey = UInt

    /// One head as the compositor's last `done` described it.
    public struct Head: Sendable, Hashable {
        public var key: HeadKey
        public var name: String
        public var enabled: Bool
        /// The shape of its current mode; nil: it has none (sway 1.7 reports a headless output so).
        public var shape: PanelShape?
        /// The orientation its transform shows upright (a flipped transform counts as normal).
        public var showing: Orientation

        public init(key: HeadKey, name: String, enabled: Bool, shape: PanelShape?, showing: Orientation) {
            self.key = key
            self.name = name
            self.enabled = enabled
            self.shape = shape
            self.showing = showing
        }
    }

    /// How the compositor answered a configuration.
    public enum Answer: Sendable, Hashable {
        case succeeded, failed, cancelled
    }

    public enum Event: Sendable, Hashable {
        /// The manager's `done`: every head, consistent, and the serial to configure against.
        case heads([Head], serial: UInt32?)
        /// A head is gone (its output unplugged), before the next `done`.
        case headGone(HeadKey)
        /// The config was read (again): which output names are panels.
        case device(DeviceConfig)
        /// The controller asks `panel` to show `orientation` (its `.show`), with this transition.
        case want(PanelID, Orientation, transition: TransitionPlan = TransitionPlan(kind: .none))
        /// What the compositor lacks for a shield over a panel while it turns (layer-shell,
        /// screencopy, shared memory), by the globals' names: with nothing lacking, transitions play.
        case canShield(lacking: [String])
        /// The shield over this head shows the panel's current frame (or could not be laid: the
        /// head then turns without one).
        case covered(HeadKey)
        /// The daemon could not even start a shield over this head (it cannot tell which of the
        /// compositor's outputs it is): the head turns without one.
        case coverFailed(HeadKey, ShieldCut)
        /// The shield over this head went without (the rest of) its transition, for this reason.
        case shieldCut(HeadKey, ShieldCut)
        /// This shield is gone (its transition ended, it failed, or it was retired).
        case shieldGone(ShieldID)
        /// Everything that arrived together has been told: what is wanted may be sent now (a
        /// window's arrival, outputs and focus come as several events; a configuration sent in
        /// between would turn the panel for a state that lasts a moment).
        case settle
        /// The answer to the configuration sent.
        case answered(Answer)
        /// The configuration could not be made (the daemon's side): none is in flight.
        case notSent
        /// The connection is gone: every panel with it.
        case disconnected
    }

    /// What the reconciler says: to the controller, or to the daemon in its own commands.
    public enum Command: Sendable, Hashable {
        /// Tell the controller.
        case controller(ControllerEvent)
        /// For the daemon to carry out (a configuration's steps, its shields).
        case daemon(DaemonCommand)
        case info(String)
        case error(String)
        /// For the event stream.
        case event(OrientEvent)

        static func test(_ transforms: [HeadKey: OutputTransform]) -> Command { .daemon(.test(transforms)) }
        static func apply(_ transforms: [HeadKey: OutputTransform]) -> Command { .daemon(.apply(transforms)) }
        static func cover(_ covers: [Cover]) -> Command { .daemon(.cover(covers)) }
        static func uncover(_ id: ShieldID, applied: Bool) -> Command { .daemon(.uncover(id, applied: applied)) }
        static func retire(_ id: ShieldID) -> Command { .daemon(.retire(id)) }
        static func assume(_ key: HeadKey, _ transform: OutputTransform) -> Command { .daemon(.assume(key, transform)) }
        static var panelsChanged: Command { .daemon(.panelsChanged) }
    }

    /// Names one shield, as the reconciler handed it out.
    public typealias ShieldID = UInt64

    /// A shield to lay: over which head, the transform it turns from and to, and how.
    public struct Cover: Sendable, Hashable {
        public var id: ShieldID
        public var key: HeadKey
        public var from: OutputTransform
        public var to: OutputTransform
        public var transition: TransitionPlan
        /// The panel's name (for what the shield reports of itself).
        public var panel: String

        public init(id: ShieldID, key: HeadKey, from: OutputTransform, to: OutputTransform, transition: TransitionPlan,
                    panel: String = "") {
            self.id = id
            self.key = key
            self.panel = panel
            self.from = from
            self.to = to
            self.transition = transition
        }
    }

    public static let cancelLimit = 3

    private var device: DeviceConfig
    private var heads: [HeadKey: Head] = [:]
    private var serial: UInt32?
    /// The panels: head → panel, their names, and what the controller last asked each to show.
    private var panels: [HeadKey: PanelID] = [:]
    private var names: [PanelID: String] = [:]
    private var wanted: [PanelID: Orientation] = [:]
    /// How each panel is to turn to what it wants (the controller's plan with its `.show`).
    private var transitions: [PanelID: TransitionPlan] = [:]
    private var canShield = false
    /// This compositor did not give an overlay the turned panel's size (qtile 0.32 never does):
    /// quarter turns go without a shield until the connection is made again.
    private var overlayStaysUnresized = false
    /// Heads whose shield is being laid before the configuration in flight is applied.
    private var covering: Set<HeadKey> = []
    /// Heads with a shield laid for the configuration in flight, and which.
    private var shielded: [HeadKey: ShieldID] = [:]
    /// Shields still playing the transition of an earlier configuration, by head.
    private var playing: [HeadKey: ShieldID] = [:]
    /// The shield laid last over each head, and the head's name: its going ends the head's turn.
    private var newest: [HeadKey: (id: ShieldID, name: String)] = [:]
    private var nextShield: ShieldID = 1
    private var nextPanel: UInt = 1
    /// What each panel's head showed at the last `done` (or as applied since): a change that is
    /// neither is someone else's (the user's own `wlr-randr`).
    private var seen: [PanelID: Orientation] = [:]
    /// The configuration in flight: its transforms, what it changes, whether it is the apply,
    /// and the serial it was made against.
    private var sent: (transforms: [HeadKey: OutputTransform], change: [PanelID: Orientation], applying: Bool, serial: UInt32?)?
    /// What the configuration being applied shows on each panel: a compositor may describe the
    /// heads it made (and end with `done`) before it answers `succeeded` (some wlroots 0.17
    /// ones), or after (phoc). A head that shows this meanwhile shows our own configuration.
    private var inFlight: [PanelID: Orientation] = [:]
    /// Configurations cancelled in a row (the heads changed under them); bounded, never a loop.
    private var cancelled = 0
    /// Something was asked or changed since the last configuration was sent.
    private var needsSubmit = false
    /// Heads named as panels that cannot be one now (disabled, no mode), each said once.
    private var unusable: Set<String> = []
    /// Refusals already said, each once.
    private var refusalsSaid: Set<String> = []

    public init(device: DeviceConfig) {
        self.device = device
    }

    /// The panel a head is, if it is one.
    public func panel(of head: HeadKey) -> PanelID? { panels[head] }

    /// The head a panel is, if it is still there.
    public func head(of panel: PanelID) -> HeadKey? { panels.first { $0.value == panel }?.key }

    /// The panel of an output named `name`, if it is one.
    public func panel(named name: String) -> PanelID? { names.first { $0.value == name }?.key }

    public var allPanels: Set<PanelID> { Set(panels.values) }

    public mutating func handle(_ event: Event) -> [Command] {
        var out: [Command] = []
        switch event {
        case .heads(let list, let serial):
            heads = Dictionary(list.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
            self.serial = serial
            headsDone(&out)
        case .headGone(let key):
            heads[key] = nil
            shielded[key] = nil
            playing[key] = nil
            if let id = panels[key] { removePanel(key, id, &out) }
            // Its shield went with it: the rest of the configuration need not wait for it (and
            // goes without the head).
            covered(key, &out)
        case .device(let device):
            self.device = device
            headsDone(&out)
        case .want(let id, let orientation, let transition):
            wanted[id] = orientation
            transitions[id] = transition
            needsSubmit = true
        case .canShield(let lacking):
            canShield = lacking.isEmpty
        case .covered(let key):
            covered(key, &out)
        case .coverFailed(let key, let why):
            cut(key, why, &out)
            covered(key, &out)
        case .shieldCut(let key, let why):
            cut(key, why, &out)
        case .shieldGone(let id):
            playing = playing.filter { $0.value != id }
            if let (key, last) = newest.first(where: { $0.value.id == id }) {
                newest[key] = nil
                out.append(.info("\(last.name): the shield is gone"))
                out.append(.event(.shieldGone(panel: last.name)))
            }
        case .settle:
            if needsSubmit {
                needsSubmit = false
                submit(&out)
            }
        case .answered(let answer):
            answered(answer, &out)
        case .notSent:
            sent = nil
            inFlight = [:]
            uncover(applied: false, &out)
            out.append(.error("cannot make an output configuration"))
        case .disconnected:
            for (key, id) in panels.sorted(by: { $0.value < $1.value }) { removePanel(key, id, &out) }
            heads = [:]
            serial = nil
            sent = nil
            inFlight = [:]
            covering = []
            shielded = [:]
            playing = [:]
            newest = [:]
            // The next compositor may resize its overlays.
            overlayStaysUnresized = false
        }
        return out
    }

    /// A shield went without its transition: said, and a compositor that did not give the
    /// overlay the turned size is remembered, so that its quarter turns are plain cuts from now on
    /// (the line says so, once): a shield there only holds the turn up and may show it cropped.
    private mutating func cut(_ key: HeadKey, _ why: ShieldCut, _ out: inout [Command]) {
        if case .overlayNotResized = why {
            guard !overlayStaysUnresized else { return }
            overlayStaysUnresized = true
        }
        out.append(.info(why.line))
        out.append(.event(.shieldCut(panel: heads[key]?.name ?? "a panel", why: why)))
    }

    // MARK: panels

    /// The heads are consistent again: panels come and go, and a transform changed by someone
    /// else is what the panel shows from now on.
    private mutating func headsDone(_ out: inout [Command]) {
        for (key, id) in panels.sorted(by: { $0.value < $1.value }) where heads[key] == nil {
            removePanel(key, id, &out)
        }
        for head in heads.values.sorted(by: { $0.name < $1.name }) {
            let named = device.isBuiltInPanel(outputName: head.name)
            let builtIn = named && head.enabled && head.shape != nil
            if named, !builtIn, unusable.insert(head.name).inserted {
                // Carried back as reported, a head without a mode would be switched off.
                out.append(.info("\(head.name) matches [device] outputs, but the compositor reports it disabled or without a mode; leaving it alone"))
                out.append(.event(.unusablePanel(name: head.name)))
            } else if builtIn {
                unusable.remove(head.name)
            }
            switch (builtIn, panels[head.key]) {
            case (true, nil):
                guard let shape = head.shape else { continue }
                let id = PanelID(nextPanel)
                nextPanel += 1
                panels[head.key] = id
                names[id] = head.name
                wanted[id] = head.showing
                seen[id] = head.showing
                out.append(.info("\(head.name): a built-in panel (\(shape.rawValue)); it follows the device"))
                out.append(.controller(.panelAdded(id, name: head.name, shape: shape, showing: head.showing)))
            case (false, let id?):
                removePanel(head.key, id, &out)
            case (true, let id?):
                if let before = seen[id], head.showing != before, inFlight[id] != head.showing {
                    // From outside, the compositor's own change and a client's look the same: kept
                    // until the device turns (the controller says so, and status names nobody).
                    wanted[id] = head.showing
                    out.append(.controller(.panelSetElsewhere(id, head.showing, by: .someoneElse, at: 0)))
                }
                seen[id] = head.showing
            case (false, nil):
                break
            }
        }
        out.append(.panelsChanged)
        needsSubmit = true
    }

    private mutating func removePanel(_ key: HeadKey, _ id: PanelID, _ out: inout [Command]) {
        panels[key] = nil
        wanted[id] = nil
        transitions[id] = nil
        seen[id] = nil
        out.append(.info("\(names.removeValue(forKey: id) ?? "a panel"): gone"))
        out.append(.controller(.panelRemoved(id)))
    }

    // MARK: configuring the heads

    /// Sends what the controller wants and the heads do not show yet, as one configuration.
    private mutating func submit(_ out: inout [Command]) {
        guard sent == nil, !heads.isEmpty else { return }
        var change: [PanelID: Orientation] = [:]
        var transforms: [HeadKey: OutputTransform] = [:]
        for (key, id) in panels {
            guard let want = wanted[id], let head = heads[key], head.showing != want else { continue }
            change[id] = want
            transforms[key] = OutputTransform(for: want)
        }
        guard !change.isEmpty else { return }
        send(transforms: transforms, change: change, apply: false, &out)
    }

    private mutating func send(transforms: [HeadKey: OutputTransform], change: [PanelID: Orientation], apply: Bool,
                               _ out: inout [Command]) {
        guard serial != nil else {
            return out.append(.error("cannot make an output configuration (no serial from the compositor yet)"))
        }
        sent = (transforms, change, apply, serial)
        inFlight = apply ? change : [:]
        guard apply else { return out.append(.test(transforms)) }
        let covers = canShield ? shields(for: transforms) : []
        // A head that turns now without a shield loses an older one still playing over it (it
        // would go on drawing the old turn over the new layout).
        for (key, id) in playing.sorted(by: { $0.key < $1.key }) where transforms[key] != nil && !covers.contains(where: { $0.key == key }) {
            playing[key] = nil
            out.append(.retire(id))
        }
        guard !covers.isEmpty else { return out.append(.apply(transforms)) }
        covering = Set(covers.map(\.key))
        shielded = Dictionary(uniqueKeysWithValues: covers.map { ($0.key, $0.id) })
        for cover in covers { newest[cover.key] = (cover.id, heads[cover.key]?.name ?? "a panel") }
        out.append(.cover(covers))
    }

    /// The heads that turn with a transition, and how: a transform that changes on a panel whose
    /// plan is not a cut.
    private mutating func shields(for transforms: [HeadKey: OutputTransform]) -> [Cover] {
        transforms.sorted(by: { $0.key < $1.key }).compactMap { key, to in
            guard let id = panels[key], let head = heads[key], let plan = transitions[id], plan.kind != .none else { return nil }
            let from = OutputTransform(for: head.showing)
            guard from != to, !(overlayStaysUnresized && from.swapsAxes != to.swapsAxes) else { return nil }
            defer { nextShield += 1 }
            return Cover(id: nextShield, key: key, from: from, to: to, transition: plan, panel: head.name)
        }
    }

    /// The shield over `key` is up (or will never be): the apply goes once none is awaited, if
    /// it is still what is wanted (the lock undone while the shield was laid would turn the panel
    /// there and straight back); else the shields go and what is wanted now is sent instead.
    /// An older shield over the head goes now: the new one shows what it showed.
    private mutating func covered(_ key: HeadKey, _ out: inout [Command]) {
        if let older = playing.removeValue(forKey: key) { out.append(.retire(older)) }
        guard covering.remove(key) != nil, covering.isEmpty, let sent, sent.applying else { return }
        guard sent.change.allSatisfy({ wanted[$0.key] == $0.value }) else {
            self.sent = nil
            inFlight = [:]
            uncover(applied: false, &out)
            return submit(&out)
        }
        out.append(.apply(sent.transforms))
    }

    /// What a panel is being turned to and does not show yet: the configuration on its way to
    /// the compositor, else what is wanted and not sent yet; nil when its head shows what is
    /// wanted and nothing is on its way.
    public func turning(_ panel: PanelID) -> Orientation? {
        if let o = sent?.change[panel] { return o }
        guard let key = head(of: panel), let want = wanted[panel], heads[key]?.showing != want else { return nil }
        return want
    }

    /// The shields laid for the configuration in flight: it was answered (or never sent).
    private mutating func uncover(applied: Bool, _ out: inout [Command]) {
        for (key, id) in shielded.sorted(by: { $0.key < $1.key }) {
            out.append(.uncover(id, applied: applied))
            // Applied, it plays its transition on; refused, it is taken away.
            if applied { playing[key] = id }
        }
        shielded = [:]
        covering = []
    }

    private mutating func answered(_ answer: Answer, _ out: inout [Command]) {
        guard let (transforms, change, applying, sentSerial) = sent else { return }
        sent = nil
        inFlight = [:]
        if applying { uncover(applied: answer == .succeeded, &out) }
        switch (answer, applying) {
        case (.succeeded, false):
            cancelled = 0
            // Applied only if it is still what the controller wants; else a new test.
            if change.allSatisfy({ wanted[$0.key] == $0.value }) {
                return send(transforms: transforms, change: change, apply: true, &out)
            }
        case (.succeeded, true):
            cancelled = 0
            // Applied: the heads show it now, whether or not (or before) the compositor describes
            // them anew, so that it is not sent again.
            for (key, transform) in transforms.sorted(by: { $0.key < $1.key }) {
                heads[key]?.showing = transform.orientation
                out.append(.assume(key, transform))
            }
            for (id, o) in change { seen[id] = o }
            for (id, o) in change.sorted(by: { $0.key < $1.key }) {
                let name = names[id] ?? "panel"
                out.append(.info("\(name): \(o.rawValue) (transform \(OutputTransform(for: o).rawValue))"))
                out.append(.event(.turned(panel: name, o, transition: transitions[id]?.kind)))
            }
        case (.failed, _):
            refuse(change, why: applying ? "the compositor failed to apply it" : "the compositor's test refused it", &out)
        case (.cancelled, _):
            // The heads changed before the compositor got to it: again on the new serial (a
            // bounded number of times). If its `done` came before this answer, at once; else
            // that `done` submits.
            cancelled += 1
            if cancelled > Self.cancelLimit {
                cancelled = 0
                refuse(change, why: "it was cancelled \(Self.cancelLimit + 1) times in a row (the outputs keep changing)", &out)
            } else if serial == sentSerial {
                return
            }
        }
        submit(&out)
    }

    /// The compositor would not show `change`: each panel shows what its head says, and the
    /// controller hears so (it will not ask again until its decision moves elsewhere).
    private mutating func refuse(_ change: [PanelID: Orientation], why: String, _ out: inout [Command]) {
        for (id, o) in change.sorted(by: { $0.key < $1.key }) {
            guard let key = panels.first(where: { $0.value == id })?.key, let head = heads[key] else { continue }
            let line = "\(head.name): cannot show \(o.rawValue): \(why); it stays \(head.showing.rawValue)"
            if refusalsSaid.insert(line).inserted { out.append(.error(line)) }
            out.append(.event(.refused(panel: head.name, o, why: why)))
            wanted[id] = head.showing
            out.append(.controller(.panelShowing(id, head.showing)))
        }
    }
}

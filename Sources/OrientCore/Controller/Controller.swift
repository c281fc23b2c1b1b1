/// Every rotation decision, as one pure state machine: events in, commands out.
///
/// It owns the state while the compositor runs (the user's lock, the last felt orientation),
/// judges the accelerometer's readings (`Perception`: the detector and the sampling plan) and
/// knows the panels, the toplevels, focus, the clients' declarations and the tablet-mode switch.
/// After each event it works out what every panel should show (`Policy`), whether the sensor is
/// needed, what clients must be told, and whether watchers must hear of a change. The plugin and
/// the daemon only translate their compositor's events into `ControllerEvent`s and carry out the
/// `ControllerCommand`s, in order.
public struct Controller: Sendable {
    public private(set) var config: Config
    public private(set) var state: PersistentState
    public private(set) var desktop: DesktopIndex
    /// What the readings mean, and when the next is wanted.
    public private(set) var perception: Perception

    private struct PanelRecord: Sendable {
        let id: PanelID
        let name: String
        let shape: PanelShape
        var shown: Orientation
        /// What device ∩ lock ∩ the app in front allowed at the last decision.
        var allowed: OrientationMask = .all
        /// Who else set what it shows, while that is kept (nil: we did), and how the device was
        /// held then: it is kept until the device turns or the panel turns for another reason.
        var setBy: PanelSetter?
        var setWhileFelt: Orientation?
        /// When the compositor last undid our orientation here (seconds; the recent ones).
        var undoneAt: [Double] = []
        /// The next turn puts back what the compositor undid: a cut, as the compositor's was.
        var turnsBack = false
    }

    /// The app in front on a panel, and what it asks.
    private typealias Front = (id: ToplevelID, wish: AppWish)

    private struct ToplevelRecord: Sendable {
        var appID: String
        /// Fullscreen or maximized.
        var covers: Bool
        /// Unmapped after having been shown (a toplevel not mapped yet is about to be: a host
        /// may focus it from its own map handler, before the plugin hears of the map).
        var hidden = false
        /// Its protocol object's declaration; nil when it has no object.
        var declaration: ClientDeclaration?
        /// The panels it is on; nil while the host has not said (then: on every panel).
        var panels: Set<PanelID>?
        /// Its initial commit was seen (a record may exist before, for a client's declaration).
        var added = true
        /// What it was last told over the protocol, so that it hears each change once.
        var toldShown: ContentOrientations?
        var toldFelt: ContentOrientations?
    }

    private var panels: [PanelRecord] = []
    /// What a panel refused to show (its commit failed): not asked again until the decision
    /// moves elsewhere, so that a refusal cannot turn into a loop of retries.
    private var refused: [PanelID: Orientation] = [:]
    private var toplevels: [ToplevelID: ToplevelRecord] = [:]
    private var focused: ToplevelID?
    /// The toplevel added last, until focus moves: it is about to come to front (rule 5).
    private var launching: ToplevelID?
    /// Panels whose front the host names itself.
    private var hostFront: [PanelID: ToplevelID?] = [:]
    private var tabletMode: Bool?
    private var sensorRunning = false
    /// What the sensor said last: opened (how it reads), lost (why).
    private var sensorSaid: SensorStatus?
    /// Readings in a row that came far later than asked (`noteSlowness`).
    private var slowReadings = 0
    /// When the sensor last reported (the host's time line; for `status`).
    public private(set) var lastSensorReport: Double?
    /// The sensor has been off since the felt orientation was last known: the device may have
    /// turned meanwhile, so it counts as unknown (the screen stays) until the sensor speaks.
    private var feltStale = false
    /// The device's in-plane angle, as the sensor last read it (nil while unknown or stale).
    private var lean: Double?
    /// A lean came since the last decision: the next event decides, whatever it is about (the
    /// lean may settle a tie that the last decision left, as when someone else set a transform
    /// the device does not support).
    private var leanUnsettled = false
    /// The lean last taken from the readings (a lean is news when it moves a degree).
    private var takenLean: Double?
    /// The pace the sensor was last given; nil until the first reading judged since it opened.
    private var pace: Double??
    private var lastStatus: ControllerStatus?
    /// What the clients were last told for (`TellingContext`), and the toplevels touched since:
    /// while the context holds, only those can need telling, so an event costs the same with one
    /// toplevel as with thousands (a client holding 8,000 objects must not slow every request).
    private var toldFor: TellingContext?
    private var retell: Set<ToplevelID> = []
    /// Tests only: decide everything and look at every toplevel after each event, as the
    /// controller did before it tracked what changed (the property tests compare both).
    var reconcilesEverything = false
    /// Conflicts already logged (each once until it goes away and comes back).
    private var droppedLogged: Set<DroppedLevel> = []
    /// The host's clock (monotonic seconds), as the runner last set it (`advanceClock`).
    public private(set) var now: Double = 0
    /// No turn under a finger.
    private var touchHold = TouchHold()
    /// Why the host cannot see touches (nil: it can, or has not said).
    private var touchesUnseen: String?
    /// The turn offered while the lock keeps the screen from the way the device is held, what it
    /// was offered under (gone when that changes), and the target the host was last told to show.
    private var suggestion: Suggestion?
    private var suggestedUnder: SuggestionContext?
    private var toldTarget: (panel: PanelID, target: SuggestionTarget)?
    /// The felt orientation changed since the last decision: a turn may be offered.
    private var feltMoved = false
    /// The wake-up last asked of the runner.
    private var wakeAsked: Double?

    /// What the host can tell about a window covering its output.
    public enum CoverEvidence: Sendable, Hashable {
        /// It reports fullscreen and maximized windows, and lays out every window itself (the
        /// plugin, inside the compositor).
        case reported
        /// It sees only the states a compositor publishes (foreign-toplevel: the daemon). A
        /// tiling compositor marks no window maximized (sway, river): a window that fills its
        /// output there is one alone on it. So a shown window that is alone on its panels (no
        /// other shown window on any of them) counts as covering them too.
        case statesOnly
    }

    public let coverEvidence: CoverEvidence

    public init(config: Config, state: PersistentState, desktop: DesktopIndex = DesktopIndex(),
                coverEvidence: CoverEvidence = .reported) {
        self.config = config
        self.state = state
        self.perception = Perception(detection: config.detection, savedFelt: state.lastFelt)
        self.desktop = desktop
        self.coverEvidence = coverEvidence
    }

    /// The first commands: start (or not) the sensor, and the first status.
    public mutating func start() -> [ControllerCommand] {
        var out: [ControllerCommand] = []
        if config.rotateWhen == .tabletMode {
            out.append(.log(.info, "rotating only in tablet mode (rotate-when = \"tablet-mode\"); until a tablet-mode switch says so, the panel stays upright"))
        }
        reconcile(into: &out)
        return out
    }

    /// Sets the host's clock (monotonic seconds): the runner does before each event.
    public mutating func advanceClock(to now: Double) {
        self.now = max(self.now, now)
    }

    /// Applies one event; returns what the host must do, in order: the event's own, what the
    /// clock ended (a touch's hold, a suggestion's time), and the next wake-up where it moved.
    public mutating func handle(_ event: ControllerEvent) -> [ControllerCommand] {
        var out = apply(event)
        let suggestionEnds = suggestion.map { now >= $0.until } ?? false
        if touchHold.expire(at: now, after: config.detection.touchHoldMs / 1000) || suggestionEnds {
            conclude(decides: true, into: &out)
        }
        let next = [touchHold.ends(after: config.detection.touchHoldMs / 1000), suggestion?.until].compactMap(\.self).min()
        if next != wakeAsked {
            wakeAsked = next
            out.append(.wake(at: next))
        }
        return out
    }

    /// One event.
    ///
    /// An event about windows that are in front nowhere (and are not about to be) cannot change
    /// what any panel shows, the sensor or the status (`decides`, worked out before the event
    /// changes anything): only those windows' clients may need telling. So a client closing
    /// thousands of windows costs thousands of small steps, not thousands of decisions.
    private mutating func apply(_ event: ControllerEvent) -> [ControllerCommand] {
        var out: [ControllerCommand] = []
        let decides: Bool
        switch event {
        case .reading(let raw, let held):
            defer { lastSensorReport = raw.t }
            return noteSlowness(interval: held ? nil : raw.t - (lastSensorReport ?? raw.t)) + read(raw, held: held)
        case .sensorOpened(let device, let t):
            perception.open(device, at: t)
            pace = nil
            slowReadings = 0
            lastSensorReport = t
            sensorSaid = SensorStatus(state: .reading, device: device.id, mode: device.mode, limit: device.limit,
                                      why: device.why.isEmpty ? nil : device.why,
                                      matrix: device.calibration.mountMatrix, matrixSource: device.matrixSource)
            return notifyIfChanged()
        case .sensorLost(let why):
            perception.lose()
            sensorSaid = SensorStatus(state: .lost, why: why)
            return notifyIfChanged()
        case .lean(let angle):
            takeLean()
            remember(lean: angle)
            return []
        case .felt(let o):
            takeLean()
            return feel(o)
        case .panelAdded(let id, let name, let shape, let showing):
            panels.removeAll { $0.id == id }
            panels.append(PanelRecord(id: id, name: name, shape: shape, shown: showing))
            refused[id] = nil
            decides = true
        case .panelRemoved(let id):
            panels.removeAll { $0.id == id }
            hostFront[id] = nil
            refused[id] = nil
            decides = true
        case .panelShowing(let id, let o):
            if let i = panels.firstIndex(where: { $0.id == id }), panels[i].shown != o {
                refused[id] = panels[i].shown
                panels[i].shown = o
            }
            decides = true
        case .panelSetElsewhere(let id, let o, let by, let t):
            setElsewhere(id, o, by: by, at: t, into: &out)
            decides = true
        case .toplevelAdded(let id, let appID, let covers):
            toplevels[id] = ToplevelRecord(appID: appID, covers: covers, declaration: toplevels[id]?.declaration)
            retell.insert(id)   // what it was told is forgotten with the old record
            launching = id
            decides = true
        case .toplevelAppID(let id, let appID):
            decides = mayBeInFront(id)
            toplevels[id]?.appID = appID
        case .declaration(let id, let declaration):
            decides = mayBeInFront(id)
            declare(id, declaration)
        case .declarationsGone(let ids):
            // A client left holding these objects: all of them go in one step (one decision).
            decides = ids.contains(where: mayBeInFront)
            for id in ids { declare(id, nil) }
        case .toplevelCovers(let id, let covers):
            decides = mayDecideByShowing(id)
            toplevels[id]?.covers = covers
        case .toplevelPanels(let id, let on):
            decides = mayDecideByShowing(id)
            toplevels[id]?.panels = on
        case .toplevelMapped(let id, let mapped):
            decides = mayDecideByShowing(id)
            toplevels[id]?.hidden = !mapped
            if !mapped, launching == id { launching = nil }
        case .toplevelRemoved(let id):
            decides = mayDecideByShowing(id)
            toplevels[id] = nil
            if focused == id { focused = nil }
            if launching == id { launching = nil }
            for (panel, front) in hostFront where front == id { hostFront[panel] = .some(nil) }
        case .focus(let id):
            focused = id
            launching = nil
            decides = true
        case .hostFront(let panel, let id):
            hostFront[panel] = .some(id)
            decides = true
        case .control(let command):
            control(command, into: &out)
            decides = true
        case .touch(let down):
            touchHold.touch(down, at: now, felt: felt)
            decides = true   // status says when a held turn comes
        case .touchesUnseen(let why):
            touchesUnseen = why
            if why != nil { touchHold = TouchHold() }
            decides = true
        case .suggestionHovered(let on):
            hover(on)
            decides = true
        case .wake:
            wakeAsked = nil   // fired: whatever is still due is asked for again
            decides = false   // the clock's part is `handle`'s
        case .tabletMode(let on):
            if tabletMode != on {
                out.append(.log(.info, on ? "tablet mode: the panel follows the device"
                                          : "laptop mode: the panel stays upright"))
            }
            tabletMode = on
            decides = true
        case .configLoaded(let config, let desktop, let errors):
            takeLean()   // from the readings judged so far, before a new detector replaces them
            guard errors.isEmpty else {
                // A config with errors is never applied: the one in use stays.
                return errors.map { .log(.error, "config: \($0); keeping the config in use") }
            }
            if config.device != self.config.device || config.detection != self.config.detection {
                perception = Perception(detection: config.detection, savedFelt: state.lastFelt)
                pace = nil
                out.append(.replaceSensor(config.device, config.detection))
            }
            self.config = config
            self.desktop = desktop
            droppedLogged = []
            out.append(.log(.info, "config applied (\(config.apps.count) app rule\(config.apps.count == 1 ? "" : "s"), \(desktop.entries.count) .desktop file\(desktop.entries.count == 1 ? "" : "s") with orientations)"))
            decides = true
        }
        takeLean()
        conclude(decides: decides, into: &out)
        return out
    }

    /// Whether a window shown, hidden, moved or gone may change a decision: where covering is
    /// inferred from being alone, any window may; else only one that may be in front.
    private func mayDecideByShowing(_ id: ToplevelID) -> Bool {
        coverEvidence == .statesOnly || mayBeInFront(id)
    }

    /// After an event: a decision where it decides (or a lean is still to be settled), else only
    /// the clients it touched hear what they must.
    private mutating func conclude(decides: Bool, into out: inout [ControllerCommand]) {
        if decides || leanUnsettled || reconcilesEverything {
            leanUnsettled = false
            reconcile(into: &out)
        } else {
            tellTouched(into: &out)
        }
    }

    /// A device whose readings come far later than the pace asked of them, twice in a row (a HID
    /// hub answers each raw read synchronously, and may take seconds), is named slow in
    /// `status`, and no longer once a reading keeps up again.
    private mutating func noteSlowness(interval: Double?) -> [ControllerCommand] {
        // Only a polled device is read on a pace; one that speaks when it moves is silent at will.
        guard let interval, var said = sensorSaid, said.state == .reading, said.mode == .polled else { return [] }
        let asked = (pace ?? nil) ?? perception.readingPeriod ?? 1
        slowReadings = interval > asked + Self.slowBeyond ? slowReadings + 1 : 0
        let slow = slowReadings >= 2 ? (interval * 10).rounded() / 10 : nil
        guard (slow == nil) != (said.slowReading == nil) else { return [] }
        said.slowReading = slow
        sensorSaid = said
        return notifyIfChanged()
    }

    /// How much later than asked a reading may come before it counts as slow.
    static let slowBeyond = 1.0

    /// One reading, judged: most only set the pace of the next; one that changes the felt
    /// orientation decides as `.felt` does, with the lean it brings.
    private mutating func read(_ raw: RawSample, held: Bool) -> [ControllerCommand] {
        let judged = perception.judge(raw, held: held)
        var out: [ControllerCommand] = []
        if let warning = judged.warning { out.append(.log(.info, warning)) }
        if pace != .some(perception.readingPeriod) {
            pace = .some(perception.readingPeriod)
            out.append(.paceSensor(perception.readingPeriod))
        }
        guard let change = judged.change else { return out }
        // The reading's own time: the latency benchmarks time a turn from it.
        out.append(.event(.decision(change.orientation, sampleAt: OrientEvent.microseconds(seconds: change.t))))
        takeLean()
        return out + feel(change.orientation)
    }

    /// The way the device leans, taken from the readings before an event is applied when it has
    /// moved a degree, so that a decision the event brings is made with it.
    private mutating func takeLean() {
        guard sensorRunning, let angle = perception.lean, abs(angle - (takenLean ?? .infinity)) >= 1 else { return }
        takenLean = angle
        remember(lean: angle)
    }

    /// Only remembered: a lean alone never turns the screen; it settles a tie when another event
    /// brings a decision.
    private mutating func remember(lean angle: Double) {
        lean = angle.isFinite ? angle : nil
        leanUnsettled = true
    }

    /// How the person holds the device: a decision.
    private mutating func feel(_ o: Orientation) -> [ControllerCommand] {
        var out: [ControllerCommand] = []
        feltStale = false
        if state.lastFelt != o {
            state.lastFelt = o
            feltMoved = true
            out.append(.save(state))
        }
        conclude(decides: true, into: &out)
        return out
    }

    /// Someone else set a panel's transform (see `PanelSetter`): the compositor's own change is
    /// turned back, a client's is kept until the decision moves.
    private mutating func setElsewhere(_ id: PanelID, _ o: Orientation, by: PanelSetter, at t: Double,
                                       into out: inout [ControllerCommand]) {
        guard let i = panels.firstIndex(where: { $0.id == id }), panels[i].shown != o else { return }
        let ours = panels[i].shown
        panels[i].shown = o
        panels[i].turnsBack = false
        var keep = by != .compositor
        if by == .compositor {
            panels[i].undoneAt = panels[i].undoneAt.filter { t - $0 < PanelSetter.undoWindow } + [t]
            keep = panels[i].undoneAt.count > PanelSetter.mostTurnBacks
        }
        let name = panels[i].name
        guard keep else {
            panels[i].turnsBack = true
            refused[id] = nil
            out.append(.log(.info, "\(name): the compositor set \(o.rawValue) (its own change: a reload, the output switched on, a new output); turning back to the device's orientation"))
            return out.append(.event(.setElsewhere(panel: name, o, by: by, kept: false)))
        }
        panels[i].setBy = by
        panels[i].setWhileFelt = felt
        refused[id] = ours   // not asked again until the decision moves elsewhere
        out.append(.log(.info, by == .compositor
            ? "\(name): the compositor keeps setting \(o.rawValue); showing that until the device turns"
            : "\(name): set to \(o.rawValue) by \(by.who); showing that until the device turns"))
        out.append(.event(.setElsewhere(panel: name, o, by: by, kept: true)))
    }

    /// Whether a toplevel is, or may be about to be, the app in front on some panel: the one
    /// launching, the focused one, or one the host named. Any other cannot decide anything.
    private func mayBeInFront(_ id: ToplevelID) -> Bool {
        id == launching || id == focused || hostFront.values.contains(.some(id))
    }

    /// A toplevel's protocol object was created or changed (`declaration`), or went (nil).
    private mutating func declare(_ id: ToplevelID, _ declaration: ClientDeclaration?) {
        retell.insert(id)
        if toplevels[id] == nil {
            // A client may create its object before the toplevel's initial commit; an object
            // that goes after its toplevel leaves nothing behind.
            guard declaration != nil else { return }
            toplevels[id] = ToplevelRecord(appID: "", covers: false, added: false)
        }
        if declaration == nil, toplevels[id]?.added == false {
            toplevels[id] = nil   // it never was a toplevel: no record to keep
            return
        }
        toplevels[id]?.declaration = declaration
        if declaration == nil {
            toplevels[id]?.toldShown = nil
            toplevels[id]?.toldFelt = nil
        }
    }

    /// What a toplevel's protocol object has declared so far; nil when it has none.
    public func declaration(of id: ToplevelID) -> ClientDeclaration? {
        toplevels[id]?.declaration
    }

    /// How many toplevels it keeps a record of (for tests: gone ones must leave none behind).
    var toplevelCount: Int { toplevels.count }

    /// What `status` reports now (as the last event left it).
    public var status: ControllerStatus {
        lastStatus ?? makeStatus(fronts: fronts())
    }

    private func makeStatus(fronts: [PanelID: Front]) -> ControllerStatus {
        // The first panel's app in front; with no panel yet, the one that would be, on a tablet.
        let shape = panels.first?.shape ?? .landscape
        let wish = panels.first.map { fronts[$0.id]?.wish } ?? candidateFront.flatMap(wish(of:))
        let front = wish.map { wish in
            ControllerStatus.Front(
                appID: wish.appID, orientations: wish.orientations.resolve(on: shape),
                givenAs: Self.describe(wish.orientations), orientationsSource: wish.orientationsSource,
                input: wish.input, inputSource: wish.inputSource)
        }
        return ControllerStatus(
            lock: state.lock, felt: state.lastFelt, rotateWhen: config.rotateWhen, tabletMode: tabletMode,
            rotating: rotating, sensorRunning: sensorRunning,
            sensor: sensorRunning ? sensorSaid ?? SensorStatus(state: .looking) : .released,
            panels: panels.map { .init(name: $0.name, shape: $0.shape, shown: $0.shown, allowed: $0.allowed, setBy: $0.setBy) },
            front: front,
            suggestion: suggestion.flatMap { s in
                panels.first { $0.id == s.panel }.map { .init(panel: $0.name, orientation: s.orientation, until: s.until, hovered: s.hovered) }
            },
            suggestionsEnabled: config.suggestion.enabled,
            touchesUnseen: touchesUnseen,
            waiting: touchHold.active && felt != nil && felt != decisionFelt
                ? .init(felt: felt!, touching: touchHold.touching, until: touchHold.ends(after: config.detection.touchHoldMs / 1000))
                : nil)
    }

    // MARK: control

    private mutating func control(_ command: ControlCommand, into out: inout [ControllerCommand]) {
        switch command {
        case .reload: return out.append(.reloadConfig)
        case .acceptSuggestion:
            guard let offered = suggestion else { return }
            out.append(.log(.info, "suggestion taken: turning to \(offered.orientation.rawValue)"))
            setLock(MaskSpec(exactly: offered.orientation), into: &out)
            return
        case .dismissSuggestion:
            guard suggestion != nil else { return }
            suggestion = nil
            return
        default: break
        }
        // What is shown now: the first panel's orientation (before any panel, the felt one).
        let shown = panels.first?.shown ?? state.lastFelt ?? .normal
        if case .set(let lock) = command.lockChange(from: state.lock, shown: shown) { setLock(lock, into: &out) }
    }

    private mutating func setLock(_ spec: MaskSpec?, into out: inout [ControllerCommand]) {
        guard state.lock != spec else { return }
        state.lock = spec
        droppedLogged.remove(.globalLock)
        out.append(.log(.info, spec.map { "locked to \($0)" } ?? "unlocked"))
        out.append(.save(state))
    }

    // MARK: deciding

    /// The felt orientation, if it can be trusted now.
    private var felt: Orientation? { feltStale ? nil : state.lastFelt }

    /// Whether the panels follow the device now.
    private var rotating: Bool {
        config.rotateWhen == .always || tabletMode == true
    }

    /// The toplevel that would be in front where the host does not say: the one launching,
    /// else the focused one, if it is shown and (with scope "fullscreen") covers its output.
    private var candidateFront: ToplevelID? {
        guard let id = launching ?? focused, let t = toplevels[id], !t.hidden else { return nil }
        switch config.scope {
        case .focused: return id
        case .fullscreen: return covers(id) ? id : nil
        }
    }

    /// Whether a toplevel covers its output: fullscreen or maximized, or (where only states can
    /// be seen) shown alone on its panels.
    private func covers(_ id: ToplevelID) -> Bool {
        guard let t = toplevels[id] else { return false }
        if t.covers { return true }
        guard coverEvidence == .statesOnly, t.added, !t.hidden else { return false }
        let mine = t.panels
        return !toplevels.contains { key, other in
            guard key != id, other.added, !other.hidden else { return false }
            guard let mine, let theirs = other.panels else { return true }   // nil: on every panel
            return !mine.isDisjoint(with: theirs)
        }
    }

    private func wish(of id: ToplevelID) -> AppWish? {
        toplevels[id].map { AppWish.resolve(appID: $0.appID, declaration: $0.declaration, config: config, desktop: desktop) }
    }

    /// The app in front on each panel: the host's word where it gave one, else the candidate,
    /// on the panels it is shown on. Resolved once per event (a wish matches every `[[app]]`
    /// rule's glob).
    private func fronts() -> [PanelID: Front] {
        let candidate = candidateFront.flatMap { id in wish(of: id).map { (id: id, wish: $0) } }
        let candidatePanels = candidate.flatMap { toplevels[$0.id]?.panels }
        var out: [PanelID: Front] = [:]
        for p in panels {
            if let said = hostFront[p.id] {
                out[p.id] = said.flatMap { id in wish(of: id).map { (id: id, wish: $0) } }
            } else if candidatePanels?.contains(p.id) ?? true {
                out[p.id] = candidate
            }
        }
        return out
    }

    private func decide(for panel: PanelRecord, front: Front?) -> PolicyDecision {
        let device = config.device.orientations.resolve(on: panel.shape)
        guard rotating else {
            // Outside tablet mode a 2-in-1 is a laptop: the panel stands upright, whatever the
            // lock or the app (rule 12).
            return Policy.decide(PolicyInput(felt: .normal, current: panel.shown, device: device))
        }
        let global = state.lock?.resolve(on: panel.shape) ?? .all
        let client = front?.wish.level(on: panel.shape)
        return Policy.decide(PolicyInput(felt: decisionFelt, current: panel.shown, device: device,
                                         global: global, client: client, lean: feltStale ? nil : lean))
    }

    /// The felt orientation decisions go by: while a touch holds them, the one held when it began.
    private var decisionFelt: Orientation? {
        touchHold.held ?? felt
    }

    /// How a panel turns now: by the app in front's rule and the layout (rule 9).
    private func transitionPlan(front: Front?) -> TransitionPlan {
        let fills = front.map { covers($0.id) } ?? false
        let visible = toplevels.values.filter { $0.added && !$0.hidden }.count
        return TransitionPlan.choose(config.transition, app: front?.wish.transition,
                                     layout: .init(frontFills: fills, visibleWindows: visible))
    }

    /// After any event: panels, clients, the sensor, watchers.
    private mutating func reconcile(into out: inout [ControllerCommand]) {
        let fronts = fronts()
        // 1. What each panel shows.
        var shows: [ControllerCommand] = []
        var stillDropped: Set<DroppedLevel> = []
        for i in panels.indices {
            let front = fronts[panels[i].id]
            let decision = decide(for: panels[i], front: front)
            panels[i].allowed = decision.effective
            for level in decision.dropped {
                stillDropped.insert(level)
                if droppedLogged.insert(level).inserted { out.append(.log(.error, Self.explain(level, lock: state.lock))) }
            }
            // The device turned since someone else set what the panel shows: it follows it again.
            if panels[i].setBy != nil, decisionFelt != panels[i].setWhileFelt { panels[i].setBy = nil }
            if let no = refused[panels[i].id] {
                if no == decision.target { continue }
                refused[panels[i].id] = nil
            }
            if decision.target != panels[i].shown {
                panels[i].shown = decision.target
                panels[i].setBy = nil
                var plan = transitionPlan(front: front)
                if panels[i].turnsBack { plan.kind = .none }
                shows.append(.show(panels[i].id, decision.target, transition: plan))
            }
            panels[i].turnsBack = false
        }
        droppedLogged.formIntersection(stillDropped)
        reviewSuggestion(fronts: fronts, into: &shows)

        // 2. Clients hear what their output will show before it turns (so before the configure
        //    with the new size), and an input-mode client in front hears how the device is held.
        // An input-mode toplevel in front on some panel: it hears the device, and needs the sensor.
        let inputFronts = Set(fronts.values.filter { $0.wish.input }.map(\.id))
        let context = TellingContext(fronts: fronts.mapValues(\.id), inputFronts: inputFronts, rotating: rotating, felt: felt,
                                     panels: panels.map { .init(id: $0.id, shape: $0.shape, shown: $0.shown) })
        var candidates = retell
        if reconcilesEverything || context.panels != toldFor?.panels {
            // A panel turned (or came or went): every client may hear something new.
            candidates = Set(toplevels.keys)
        } else if let before = toldFor, context != before {
            // Only the apps in front (before and now) hear what depends on being in front.
            candidates.formUnion(before.fronts.values)
            candidates.formUnion(context.fronts.values)
        }
        toldFor = context
        retell = []
        for id in candidates.sorted() { tell(id, fronts: fronts, inputFronts: inputFronts, into: &out) }
        out += shows

        // 3. The sensor runs only while it can change something (rule 12).
        // A game that takes orientation as input (told over the protocol) needs the sensor even
        // when the screen cannot turn.
        let needed = sensorNeeded || rotating && inputFronts.contains { toplevels[$0]?.declaration != nil }
        if !needed {
            feltStale = true
            touchHold.release()
        }
        if needed != sensorRunning {
            sensorRunning = needed
            sensorSaid = nil   // what it says after a start is news
            if !needed { perception.release() }
            out.append(needed ? .startSensor : .stopSensor)
            if !needed {
                out.append(.log(.info, rotating ? "nothing can rotate (the lock and the device leave one orientation); the accelerometer is released"
                                                : "not in tablet mode; the accelerometer is released"))
            }
        }

        // 4. Watchers hear of every change.
        let now = makeStatus(fronts: fronts)
        if now != lastStatus {
            lastStatus = now
            out.append(.notify(now))
        }
    }

    /// What a suggestion is offered under: it goes when any of it changes.
    private struct SuggestionContext: Equatable {
        let lock: MaskSpec?
        let front: ToplevelID?
        let frontAllows: OrientationMask?
    }

    /// The turn the lock keeps from happening on a panel: the one the device is held in, which
    /// the device and the app in front allow and which the decision without the lock would make.
    private func offerable(_ panel: PanelRecord, front: Front?) -> Orientation? {
        guard config.suggestion.enabled, rotating, state.lock != nil, let felt, felt != panel.shown else { return nil }
        let device = config.device.orientations.resolve(on: panel.shape)
        let client = front?.wish.level(on: panel.shape)
        let unlocked = Policy.decide(PolicyInput(felt: felt, current: panel.shown, device: device, global: .all,
                                                 client: client, lean: nil))
        return unlocked.target == felt && !panel.allowed.contains(felt) ? felt : nil
    }

    /// After a decision: the suggestion stays while what it was offered under holds and its time
    /// is not up; a new one is offered only when the device has just turned (so a dismissed or
    /// expired one does not come back until the person turns the device again).
    private mutating func reviewSuggestion(fronts: [PanelID: Front], into out: inout [ControllerCommand]) {
        defer { feltMoved = false }
        let lock = state.lock
        func context(_ p: PanelRecord) -> SuggestionContext {
            SuggestionContext(lock: lock, front: fronts[p.id]?.id,
                              frontAllows: fronts[p.id].map { $0.wish.orientations.resolve(on: p.shape) })
        }
        if let s = suggestion {
            let panel = panels.first { $0.id == s.panel }
            let stays = panel.map { offerable($0, front: fronts[$0.id]) == s.orientation && context($0) == suggestedUnder } ?? false
            if !stays || now >= s.until { suggestion = nil }
        }
        if suggestion == nil, feltMoved, let panel = panels.first, let o = offerable(panel, front: fronts[panel.id]) {
            suggestion = Suggestion(panel: panel.id, orientation: o, until: now + config.suggestion.seconds)
            suggestedUnder = context(panel)
        }
        // The host hears what to draw when it changes.
        let wanted = suggestion.map { s in
            (panel: s.panel, target: SuggestionTarget(orientation: s.orientation, held: felt ?? s.orientation,
                                                      corner: config.suggestion.corner, hovered: s.hovered))
        }
        guard wanted?.panel != toldTarget?.panel || wanted?.target != toldTarget?.target else { return }
        if let told = toldTarget, told.panel != wanted?.panel { out.append(.suggest(told.panel, nil)) }
        if let wanted { out.append(.suggest(wanted.panel, wanted.target)) }
        toldTarget = wanted
    }

    /// A pointer resting on the target keeps it longer (Android's 16 s); leaving it, it goes as
    /// it would have.
    private mutating func hover(_ on: Bool) {
        guard var s = suggestion, s.hovered != on else { return }
        s.hovered = on
        s.until = on ? max(s.until, now + max(SuggestionConfig.hoveredSeconds, config.suggestion.seconds))
                     : min(s.until, now + config.suggestion.seconds)
        suggestion = s
    }

    /// Watchers hear of a status changed by an event that decides nothing (the sensor's).
    private mutating func notifyIfChanged() -> [ControllerCommand] {
        let now = makeStatus(fronts: fronts())
        guard now != lastStatus else { return [] }
        lastStatus = now
        return [.notify(now)]
    }

    /// After an event that decides nothing: the clients it touched hear what they must (in front
    /// nowhere, they hear about the first panel, which did not change).
    private mutating func tellTouched(into out: inout [ControllerCommand]) {
        guard !retell.isEmpty else { return }
        let touched = retell.sorted()
        retell = []
        for id in touched {
            guard let t = toplevels[id], t.declaration != nil, let first = panels.first else { continue }
            let shown = ContentOrientations(first.shown, on: first.shape)
            if t.toldShown != shown {
                toplevels[id]?.toldShown = shown
                out.append(.tellShown(id, shown))
            }
        }
    }

    /// What a client hears depends on these alone (besides its own record): while they stay the
    /// same, a client whose record did not change needs telling nothing. A client that is in
    /// front nowhere hears only about the first panel: a change of the fronts, the device's
    /// orientation or tablet mode concerns the apps in front alone.
    private struct TellingContext: Equatable {
        struct Panel: Equatable {
            let id: PanelID
            let shape: PanelShape
            let shown: Orientation
        }
        let fronts: [PanelID: ToplevelID]
        let inputFronts: Set<ToplevelID>
        let rotating: Bool
        let felt: Orientation?
        let panels: [Panel]
    }

    /// Tells one client what its output shows, and (in front, in input mode) how the device is
    /// held, where that differs from what it was last told.
    private mutating func tell(_ id: ToplevelID, fronts: [PanelID: Front], inputFronts: Set<ToplevelID>,
                               into out: inout [ControllerCommand]) {
        guard let t = toplevels[id], t.declaration != nil, let panel = panel(of: id, fronts) else { return }
        let shown = ContentOrientations(panel.shown, on: panel.shape)
        if t.toldShown != shown {
            toplevels[id]?.toldShown = shown
            out.append(.tellShown(id, shown))
        }
        guard rotating, inputFronts.contains(id) else {
            toplevels[id]?.toldFelt = nil   // so that it hears the device again when it returns
            return
        }
        if let felt, t.toldFelt != ContentOrientations(felt, on: panel.shape) {
            let bits = ContentOrientations(felt, on: panel.shape)
            toplevels[id]?.toldFelt = bits
            out.append(.tellFelt(id, bits))
        }
    }

    /// The panel a toplevel's orientation is told for: the one it is in front on, else the first.
    private func panel(of id: ToplevelID, _ fronts: [PanelID: Front]) -> PanelRecord? {
        panels.first { fronts[$0.id]?.id == id } ?? panels.first
    }

    /// Whether the sensor can change what a panel shows (the lock and the device leave more
    /// than one orientation somewhere), with panels still to come counting as able.
    private var sensorNeeded: Bool {
        guard rotating else { return false }
        if panels.isEmpty { return true }
        // While a lock holds the screen, the sensor runs on to offer turns (where the device can
        // show more than one orientation).
        let offers = config.suggestion.enabled && state.lock != nil
        return panels.contains { p in
            let device = config.device.orientations.resolve(on: p.shape)
            return Policy.sensorMatters(device: device, global: offers ? .all : state.lock?.resolve(on: p.shape) ?? .all)
        }
    }

    // MARK: words

    private static func explain(_ level: DroppedLevel, lock: MaskSpec?) -> String {
        switch level {
        case .globalLock: "the lock \(lock?.description ?? "") allows nothing this device can show; ignoring it"
        case .client(let app): "\(app.isEmpty ? "an app without app_id" : app) supports nothing the lock and device allow; ignoring what it asks"
        }
    }

    private static func describe(_ o: AppWish.Orientations) -> String {
        switch o {
        case .all: "all"
        case .words(let spec): spec.description
        case .content(let bits): bits.description
        }
    }
}

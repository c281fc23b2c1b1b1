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
    public internal(set) var config: Config
    public internal(set) var state: PersistentState
    public internal(set) var desktop: DesktopIndex
    /// What the readings mean, and when the next is wanted.
    public internal(set) var perception: Perception

    /// The app in front on a panel, and what it asks.
    typealias Front = (id: ToplevelID, wish: AppWish)

    var panels: [PanelRecord] = []
    /// What a panel refused to show (its commit failed): not asked again until the decision
    /// moves elsewhere, so that a refusal cannot turn into a loop of retries.
    var refused: [PanelID: Orientation] = [:]
    /// The toplevels, focus, the fronts a host names, and what it can tell of covering.
    var windows: Windows
    var tabletMode: Bool?
    /// Whether the sensor runs, what it said, its pace.
    var sensor = SensorGate()
    /// When the sensor last reported (monotonic seconds, as it timed the report; for `status`).
    public var lastSensorReport: Double? { sensor.lastReport }
    /// The sensor has been off since the felt orientation was last known: the device may have
    /// turned meanwhile, so it counts as unknown (the screen stays) until the sensor speaks.
    var feltStale = false
    /// The device's in-plane angle, as the sensor last read it (nil while unknown or stale).
    var lean: Double?
    /// A lean came since the last decision: the next event decides, whatever it is about (the
    /// lean may settle a tie that the last decision left, as when someone else set a transform
    /// the device does not support).
    var leanUnsettled = false
    /// The lean last taken from the readings (a lean is news when it moves a degree).
    var takenLean: Double?
    var lastStatus: ControllerStatus?
    /// What the clients are told, each change once.
    var telling = ClientTelling()
    /// Conflicts already logged (each once until it goes away and comes back).
    var droppedLogged: Set<DroppedLevel> = []
    /// The host's clock (monotonic seconds), as the runner last set it (`advanceClock`).
    public internal(set) var now: Double = 0
    /// No turn under a finger.
    var touchHold = TouchHold()
    /// Why the host cannot see touches (nil: it can, or has not said).
    var touchesUnseen: String?
    /// The turn offered while the lock keeps the screen from the way the device is held, what it
    /// was offered under (gone when that changes), and the target the host was last told to show.
    var offer = SuggestionOffer()
    /// Other programs that turn a panel with the device as well.
    var rivals = RivalRotators()
    /// The wake-up last asked of the runner.
    var wakeAsked: Double?

    public typealias CoverEvidence = OrientCore.CoverEvidence

    public init(config: Config, state: PersistentState, desktop: DesktopIndex = DesktopIndex(),
                coverEvidence: CoverEvidence = .reported) {
        self.config = config
        self.state = state
        self.perception = Perception(detection: config.detection, savedFelt: state.lastFelt)
        self.desktop = desktop
        self.windows = Windows(coverEvidence: coverEvidence)
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

    /// Milliseconds as seconds for a log line: "10", "2.5".
    static func seconds(_ ms: Double) -> String {
        let tenths = (ms / 100).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(Int(tenths) / 10).\(Int(tenths) % 10)"
    }

    /// Applies one event; returns what the host must do, in order: the event's own, what the
    /// clock ended (a touch's hold, a suggestion's time), and the next wake-up where it moved.
    public mutating func handle(_ event: ControllerEvent) -> [ControllerCommand] {
        handle(event, everything: false)
    }

    /// The same; `everything`: decide everything and look at every client after it, as the
    /// controller did before it tracked what an event changes (tests compare the two).
    mutating func handle(_ event: ControllerEvent, everything: Bool) -> [ControllerCommand] {
        var out = apply(event, everything: everything)
        let suggestionEnds = offer.current.map { now >= $0.until } ?? false
        let rivalsStopped = takeBackFromStoppedRivals(into: &out)
        let touchEnded = touchHold.expire(at: now, after: config.detection.touchHoldSeconds, atMost: config.detection.touchHoldMaxSeconds)
        if touchEnded == .stuck {
            out.append(.log(.info, "a touch has not lifted for \(Self.seconds(config.detection.touchHoldMaxMs)) s: no longer holding the screen's turn for it (touch-hold-max-ms); a touchscreen that lost the lift, or a thumb resting on the glass"))
        }
        if touchEnded != nil || suggestionEnds || rivalsStopped {
            conclude(decides: true, everything: everything, into: &out)
        }
        let next = [touchHold.ends(after: config.detection.touchHoldSeconds, atMost: config.detection.touchHoldMaxSeconds),
                    offer.current?.until, rivals.nextDeadline]
            .compactMap(\.self).min()
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
    mutating func apply(_ event: ControllerEvent, everything: Bool) -> [ControllerCommand] {
        var out: [ControllerCommand] = []
        let decides: Bool
        switch event {
        case .reading(let raw, let held):
            let slowness = sensor.reading(at: raw.t, held: held, wanted: perception.readingPeriod) ? notifyIfChanged() : []
            return slowness + read(raw, held: held, everything: everything)
        case .sensorOpened(let device, let t):
            perception.open(device, at: t)
            sensor.opened(device, at: t)
            return notifyIfChanged()
        case .sensorLost(let why):
            perception.lose()
            sensor.lost(why)
            return notifyIfChanged()
        case .lean(let angle):
            takeLean()
            remember(lean: angle)
            return []
        case .felt(let o):
            takeLean()
            return feel(o, everything: everything)
        case .panelAdded(let id, let name, let shape, let showing):
            panels.removeAll { $0.id == id }
            panels.append(PanelRecord(id: id, name: name, shape: shape, shown: showing))
            refused[id] = nil
            decides = true
        case .panelRemoved(let id):
            panels.removeAll { $0.id == id }
            rivals.forget(id)
            windows.panelRemoved(id)
            refused[id] = nil
            decides = true
        case .panelShowing(let id, let o):
            if let i = panels.firstIndex(where: { $0.id == id }), panels[i].shown != o {
                refused[id] = panels[i].shown
                panels[i].shown = o
            }
            decides = true
        case .panelSetElsewhere(let id, let o, let by, let t, let process):
            setElsewhere(id, o, by: by, at: t, process: process, into: &out)
            decides = true
        case .toplevelAdded(let id, let appID, let covers):
            decides = windows.added(id, appID: appID, covers: covers)
            telling.touch(id)   // what it was told is forgotten with the old record
        case .toplevelAppID(let id, let appID):
            decides = windows.appID(id, appID)
        case .declaration(let id, let declaration):
            decides = windows.mayBeInFront(id)
            declare(id, declaration)
        case .declarationsGone(let ids):
            // A client left holding these objects: all of them go in one step (one decision).
            decides = ids.contains(where: windows.mayBeInFront)
            for id in ids { declare(id, nil) }
        case .toplevelCovers(let id, let covers):
            decides = windows.covers(id, covers)
        case .toplevelPanels(let id, let on):
            decides = windows.panels(id, on)
        case .toplevelMapped(let id, let mapped):
            decides = windows.mapped(id, mapped)
        case .toplevelRemoved(let id):
            decides = windows.removed(id)
        case .focus(let id):
            windows.focus(id)
            decides = true
        case .hostFront(let panel, let id):
            windows.hostFront(panel, id)
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
            offer.hover(on, now: now, seconds: config.suggestion.seconds)
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
            if config.device != self.config.device || !config.detection.readsAlike(self.config.detection) {
                perception = Perception(detection: config.detection, savedFelt: state.lastFelt)
                sensor.forgetPace()
                out.append(.replaceSensor(config.device, config.detection))
            }
            self.config = config
            self.desktop = desktop
            droppedLogged = []
            out.append(.log(.info, "config applied (\(config.apps.count) app rule\(config.apps.count == 1 ? "" : "s"), \(desktop.entries.count) .desktop file\(desktop.entries.count == 1 ? "" : "s") with orientations)"))
            decides = true
        }
        takeLean()
        conclude(decides: decides, everything: everything, into: &out)
        return out
    }

    /// After an event: a decision where it decides (or a lean is still to be settled), else only
    /// the clients it touched hear what they must.
    mutating func conclude(decides: Bool, everything: Bool, into out: inout [ControllerCommand]) {
        if decides || leanUnsettled || everything {
            leanUnsettled = false
            reconcile(everything: everything, into: &out)
        } else {
            telling.tellTouched(firstPanel: panels.first.map { .init(id: $0.id, shape: $0.shape, shown: $0.shown) },
                                windows: &windows, into: &out)
        }
    }

    /// A toplevel's protocol object was created or changed (`declaration`), or went (nil).
    mutating func declare(_ id: ToplevelID, _ declaration: ClientDeclaration?) {
        telling.touch(id)
        windows.declare(id, declaration)
    }

    /// After any event: panels, clients, the sensor, watchers.
    mutating func reconcile(everything: Bool = false, into out: inout [ControllerCommand]) {
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
            if rivals.rival(of: panels[i].id) != nil {
                // Left to another rotator: turning it too would turn it twice a turn.
                rivals.held(panels[i].id, decisionFelt, at: now)
                continue
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
                if let rival = rivals.turned(panels[i].id, felt: decisionFelt, at: now) { leave(panels[i].name, to: rival, into: &out) }
            }
            panels[i].turnsBack = false
        }
        droppedLogged.formIntersection(stillDropped)
        reviewSuggestion(fronts: fronts, into: &shows)

        // 2. Clients hear what their output will show before it turns (so before the configure
        //    with the new size), and an input-mode client in front hears how the device is held.
        // An input-mode toplevel in front on some panel: it hears the device, and needs the sensor.
        let inputFronts = Set(fronts.values.filter { $0.wish.input }.map(\.id))
        let context = ClientTelling.Context(fronts: fronts.mapValues(\.id), inputFronts: inputFronts, rotating: rotating,
                                            felt: felt, panels: panels.map { .init(id: $0.id, shape: $0.shape, shown: $0.shown) })
        telling.tell(context, windows: &windows, everything: everything, into: &out)
        out += shows

        // 3. The sensor runs only while it can change something (rule 12).
        // A game that takes orientation as input (told over the protocol) needs the sensor even
        // when the screen cannot turn.
        let needed = sensorNeeded || rotating && inputFronts.contains { windows.records[$0]?.declaration != nil }
        if !needed {
            feltStale = true
            touchHold.release()
        }
        if sensor.run(needed) {
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

    /// Watchers hear of a status changed by an event that decides nothing (the sensor's).
    mutating func notifyIfChanged() -> [ControllerCommand] {
        let now = makeStatus(fronts: fronts())
        guard now != lastStatus else { return [] }
        lastStatus = now
        return [.notify(now)]
    }

}

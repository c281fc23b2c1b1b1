/// What each panel should show, and whether the sensor is needed.
extension Controller {
    // MARK: deciding

    /// The felt orientation, if it can be trusted now.
    var felt: Orientation? { feltStale ? nil : state.lastFelt }

    /// Whether the panels follow the device now.
    var rotating: Bool {
        config.rotateWhen == .always || tabletMode == true
    }

    /// The toplevel that would be in front where the host does not say (`Windows.candidate`).
    var candidateFront: ToplevelID? { windows.candidate(scope: config.scope) }

    func wish(of id: ToplevelID) -> AppWish? {
        windows.records[id].map { AppWish.resolve(appID: $0.appID, declaration: $0.declaration, config: config, desktop: desktop) }
    }

    /// The app in front on each panel: the host's word where it gave one, else the candidate,
    /// on the panels it is shown on. Resolved once per event (a wish matches every `[[app]]`
    /// rule's glob).
    func fronts() -> [PanelID: Front] {
        let candidate = candidateFront.flatMap { id in wish(of: id).map { (id: id, wish: $0) } }
        let candidatePanels = candidate.flatMap { windows.records[$0.id]?.panels }
        var out: [PanelID: Front] = [:]
        for p in panels {
            if let said = windows.hostFront[p.id] {
                out[p.id] = said.flatMap { id in wish(of: id).map { (id: id, wish: $0) } }
            } else if candidatePanels?.contains(p.id) ?? true {
                out[p.id] = candidate
            }
        }
        return out
    }

    func decide(for panel: PanelRecord, front: Front?) -> PolicyDecision {
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
    var decisionFelt: Orientation? {
        touchHold.held ?? felt
    }

    /// How a panel turns now: by the app in front's rule and the layout (rule 9).
    func transitionPlan(front: Front?) -> TransitionPlan {
        let fills = front.map { windows.covers($0.id) } ?? false
        return TransitionPlan.choose(config.transition, app: front?.wish.transition,
                                     layout: .init(frontFills: fills, visibleWindows: windows.visibleCount))
    }

    /// The turn the lock keeps from happening on a panel: the one the device is held in, which
    /// the device and the app in front allow and which the decision without the lock would make.
    /// None on a panel left to another rotator: we would not turn it, so a tap would do nothing.
    func offerable(_ panel: PanelRecord, front: Front?) -> Orientation? {
        guard config.suggestion.enabled, rotating, state.lock != nil, let felt, felt != panel.shown,
              rivals.rival(of: panel.id) == nil else { return nil }
        let device = config.device.orientations.resolve(on: panel.shape)
        let client = front?.wish.level(on: panel.shape)
        let unlocked = Policy.decide(PolicyInput(felt: felt, current: panel.shown, device: device, global: .all,
                                                 client: client, lean: nil))
        return unlocked.target == felt && !panel.allowed.contains(felt) ? felt : nil
    }

    /// After a decision: what the lock keeps from happening on each panel may be offered.
    mutating func reviewSuggestion(fronts: [PanelID: Front], into out: inout [ControllerCommand]) {
        let lock = state.lock
        var could: [PanelID: (Orientation?, SuggestionOffer.Context)] = [:]
        for p in panels {
            let front = fronts[p.id]
            could[p.id] = (offerable(p, front: front),
                           .init(lock: lock, front: front?.id, frontAllows: front.map { $0.wish.orientations.resolve(on: p.shape) }))
        }
        let (ids, felt, now, settings) = (panels.map(\.id), felt, now, config.suggestion)
        offer.review(panels: ids, offerable: { could[$0] ?? (nil, .init(lock: lock, front: nil, frontAllows: nil)) },
                     felt: felt, now: now, config: settings, into: &out)
    }

    /// Whether the sensor can change what a panel shows (the lock and the device leave more
    /// than one orientation somewhere), with panels still to come counting as able.
    var sensorNeeded: Bool {
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
}

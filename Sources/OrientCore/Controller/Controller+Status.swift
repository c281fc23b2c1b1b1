/// What `status` and `watch` report, and what a host may ask of a toplevel.
extension Controller {
    /// What a toplevel's protocol object has declared so far; nil when it has none.
    public func declaration(of id: ToplevelID) -> ClientDeclaration? {
        windows.records[id]?.declaration
    }

    /// How many toplevels it keeps a record of (for tests: gone ones must leave none behind).
    var toplevelCount: Int { windows.records.count }

    /// What `status` reports now (as the last event left it).
    public var status: ControllerStatus {
        lastStatus ?? makeStatus(fronts: fronts())
    }

    func makeStatus(fronts: [PanelID: Front]) -> ControllerStatus {
        // The first panel's app in front; with no panel yet, the one that would be, on a tablet.
        let shape = panels.first?.shape ?? .landscape
        let id = panels.first.map { fronts[$0.id]?.id } ?? candidateFront
        let front = id.flatMap { id in wish(of: id).map { (id, $0) } }.map { id, wish in
            ControllerStatus.Front(
                appID: wish.appID, orientations: wish.orientations.resolve(on: shape),
                givenAs: Self.describe(wish.orientations), orientationsSource: wish.orientationsSource,
                input: wish.input, inputSource: wish.inputSource,
                outputUnknown: windows.records[id]?.outputUnknown ?? false)
        }
        return ControllerStatus(
            lock: state.lock, felt: state.lastFelt, rotateWhen: config.rotateWhen, tabletMode: tabletMode,
            rotating: rotating, sensorRunning: sensor.running, sensor: sensor.status,
            panels: panels.map { p in
                .init(name: p.name, shape: p.shape, shown: p.shown, allowed: p.allowed, setBy: p.setBy,
                      otherRotator: rivals.rival(of: p.id))
            },
            front: front,
            suggestion: offer.current.flatMap { s in
                panels.first { $0.id == s.panel }.map { .init(panel: $0.name, orientation: s.orientation, until: s.until, hovered: s.hovered) }
            },
            suggestionsEnabled: config.suggestion.enabled,
            touchesUnseen: touchesUnseen,
            waiting: touchHold.active && felt != nil && felt != decisionFelt
                ? .init(felt: felt!, touching: touchHold.touching, until: touchHold.touching ? nil : touchHold.ends(after: config.detection.touchHoldSeconds, atMost: config.detection.touchHoldMaxSeconds))
                : nil)
    }

    // MARK: words

    static func explain(_ level: DroppedLevel, lock: MaskSpec?) -> String {
        switch level {
        case .globalLock: "the lock \(lock?.description ?? "") allows nothing this device can show; ignoring it"
        case .client(let app): "\(app.isEmpty ? "an app without app_id" : app) supports nothing the lock and device allow; ignoring what it asks"
        }
    }

    static func describe(_ o: AppWish.Orientations) -> String {
        switch o {
        case .all: "all"
        case .words(let spec): spec.description
        case .content(let bits): bits.description
        }
    }
}

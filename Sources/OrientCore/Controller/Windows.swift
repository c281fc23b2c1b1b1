/// The windows as the controller knows them: each toplevel's record, focus, the one launching, the
/// fronts a host names itself, and what the host can tell about a window covering its output. The
/// app in front comes from here (rule 5); what it asks, and what the panels do, is the
/// controller's. Each event's method says whether it may change a decision, worked out before it
/// changes anything: a window in front nowhere (and not about to be) cannot.
struct Windows: Sendable {
    struct Record: Sendable {
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
        /// The host said it cannot tell which outputs it is on (it counts as on every panel).
        var outputUnknown = false
        /// Its initial commit was seen (a record may exist before, for a client's declaration).
        var added = true
        /// What it was last told over the protocol, so that it hears each change once.
        var toldShown: ContentOrientations?
        var toldFelt: ContentOrientations?
    }

    let coverEvidence: CoverEvidence
    /// The records, by toplevel; what each was told is the controller's to set.
    var records: [ToplevelID: Record] = [:]
    private(set) var focused: ToplevelID?
    /// The toplevel added last, until focus moves: it is about to come to front (rule 5).
    private(set) var launching: ToplevelID?
    /// Panels whose front the host names itself.
    private(set) var hostFront: [PanelID: ToplevelID?] = [:]

    init(coverEvidence: CoverEvidence) {
        self.coverEvidence = coverEvidence
    }

    // MARK: events (each: whether it may change a decision)

    mutating func added(_ id: ToplevelID, appID: String, covers: Bool) -> Bool {
        records[id] = Record(appID: appID, covers: covers, declaration: records[id]?.declaration)
        launching = id
        return true
    }

    mutating func appID(_ id: ToplevelID, _ appID: String) -> Bool {
        defer { records[id]?.appID = appID }
        return mayBeInFront(id)
    }

    mutating func covers(_ id: ToplevelID, _ covers: Bool) -> Bool {
        defer { records[id]?.covers = covers }
        return mayDecideByShowing(id)
    }

    mutating func panels(_ id: ToplevelID, _ on: Set<PanelID>?) -> Bool {
        defer {
            records[id]?.panels = on
            records[id]?.outputUnknown = on == nil
        }
        return mayDecideByShowing(id)
    }

    mutating func mapped(_ id: ToplevelID, _ mapped: Bool) -> Bool {
        defer {
            records[id]?.hidden = !mapped
            if !mapped, launching == id { launching = nil }
        }
        return mayDecideByShowing(id)
    }

    mutating func removed(_ id: ToplevelID) -> Bool {
        defer {
            records[id] = nil
            if focused == id { focused = nil }
            if launching == id { launching = nil }
            for (panel, front) in hostFront where front == id { hostFront[panel] = .some(nil) }
        }
        return mayDecideByShowing(id)
    }

    mutating func focus(_ id: ToplevelID?) {
        focused = id
        launching = nil
    }

    mutating func hostFront(_ panel: PanelID, _ id: ToplevelID?) {
        hostFront[panel] = .some(id)
    }

    mutating func panelRemoved(_ panel: PanelID) {
        hostFront[panel] = nil
    }

    /// A toplevel's protocol object was created or changed (`declaration`), or went (nil).
    mutating func declare(_ id: ToplevelID, _ declaration: ClientDeclaration?) {
        if records[id] == nil {
            // A client may create its object before the toplevel's initial commit; an object
            // that goes after its toplevel leaves nothing behind.
            guard declaration != nil else { return }
            records[id] = Record(appID: "", covers: false, added: false)
        }
        if declaration == nil, records[id]?.added == false {
            records[id] = nil   // it never was a toplevel: no record to keep
            return
        }
        records[id]?.declaration = declaration
        if declaration == nil {
            records[id]?.toldShown = nil
            records[id]?.toldFelt = nil
        }
    }

    // MARK: what they are

    /// Whether a toplevel is, or may be about to be, the app in front on some panel: the one
    /// launching, the focused one, or one the host named. Any other cannot decide anything.
    func mayBeInFront(_ id: ToplevelID) -> Bool {
        id == launching || id == focused || hostFront.values.contains(.some(id))
    }

    /// Whether a window shown, hidden, moved or gone may change a decision: where covering is
    /// inferred from being alone, any window may; else only one that may be in front.
    func mayDecideByShowing(_ id: ToplevelID) -> Bool {
        coverEvidence == .statesOnly || mayBeInFront(id)
    }

    /// The toplevel that would be in front where the host does not say: the one launching,
    /// else the focused one, if it is shown and (with scope "fullscreen") covers its output.
    func candidate(scope: Config.Scope) -> ToplevelID? {
        guard let id = launching ?? focused, let t = records[id], !t.hidden else { return nil }
        switch scope {
        case .focused: return id
        case .fullscreen: return covers(id) ? id : nil
        }
    }

    /// Whether a toplevel covers its output: fullscreen or maximized, or (where only states can
    /// be seen) shown alone on its panels.
    func covers(_ id: ToplevelID) -> Bool {
        guard let t = records[id] else { return false }
        if t.covers { return true }
        guard coverEvidence == .statesOnly, t.added, !t.hidden else { return false }
        let mine = t.panels
        return !records.contains { key, other in
            guard key != id, other.added, !other.hidden else { return false }
            guard let mine, let theirs = other.panels else { return true }   // nil: on every panel
            return !mine.isDisjoint(with: theirs)
        }
    }

    /// How many windows are shown (for the layout a transition is chosen by, rule 9).
    var visibleCount: Int { records.values.filter { $0.added && !$0.hidden }.count }
}

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

/// The turn offered while the lock keeps the screen from the way the device is held (see
/// `Suggestion`): what is offered, what it was offered under (it goes when that changes), and the
/// target the host was last told to show. The controller says, after each decision, what could be
/// offered on each panel and under what; this keeps the offer, its time and the host's target.
struct SuggestionOffer: Sendable {
    /// What an offer is made under: it goes when any of it changes.
    struct Context: Equatable, Sendable {
        let lock: MaskSpec?
        let front: ToplevelID?
        let frontAllows: OrientationMask?
    }

    private(set) var current: Suggestion?
    private var under: Context?
    private var toldTarget: (panel: PanelID, target: SuggestionTarget)?
    /// The felt orientation changed since the last decision: a turn may be offered.
    var feltMoved = false

    /// Dismissed: it goes (and does not come back until the device turns again); false when none was offered.
    mutating func dismiss() -> Bool {
        guard current != nil else { return false }
        current = nil
        return true
    }

    /// A pointer resting on the target keeps it longer (Android's 16 s); leaving it, it goes as
    /// it would have.
    mutating func hover(_ on: Bool, now: Double, seconds: Double) {
        guard var s = current, s.hovered != on else { return }
        s.hovered = on
        s.until = on ? max(s.until, now + max(SuggestionConfig.hoveredSeconds, seconds))
                     : min(s.until, now + seconds)
        current = s
    }

    /// After a decision: the offer stays while what it was offered under holds and its time is
    /// not up; a new one is made only when the device has just turned (so a dismissed or expired
    /// one does not come back until the person turns the device again), on the first panel.
    /// `offerable`: what could be offered on a panel now, and under what. What the host must
    /// draw, where it changed, goes to `out`.
    mutating func review(panels: [PanelID], offerable: (PanelID) -> (Orientation?, Context), felt: Orientation?,
                         now: Double, config: SuggestionConfig, into out: inout [ControllerCommand]) {
        defer { feltMoved = false }
        if let s = current {
            let stays = panels.contains(s.panel) && { let (o, context) = offerable(s.panel); return o == s.orientation && context == under }()
            if !stays || now >= s.until { current = nil }
        }
        if current == nil, feltMoved, let first = panels.first, case let (o?, context) = offerable(first) {
            current = Suggestion(panel: first, orientation: o, until: now + config.seconds)
            under = context
        }
        // The host hears what to draw when it changes.
        let wanted = current.map { s in
            (panel: s.panel, target: SuggestionTarget(orientation: s.orientation, held: felt ?? s.orientation,
                                                      corner: config.corner, hovered: s.hovered))
        }
        guard wanted?.panel != toldTarget?.panel || wanted?.target != toldTarget?.target else { return }
        if let told = toldTarget, told.panel != wanted?.panel { out.append(.suggest(told.panel, nil)) }
        if let wanted { out.append(.suggest(wanted.panel, wanted.target)) }
        toldTarget = wanted
    }
}

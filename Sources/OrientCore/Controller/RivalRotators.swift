/// Another program that turns a panel with the device as well (rot8, iio-hyprland, a kanshi
/// profile per orientation, a compositor's own rotation): noticed, not fought.
///
/// Someone else setting a panel within `answerWindow` seconds of our turning it (before or after:
/// the other's detector may be quicker) answers that turn. When `answersToYield` of our last
/// `turnsLookedAt` turns were answered, the panel is left to the other (one that maps some
/// orientations as we do leaves those turns alone, so not every turn is answered): we stop
/// turning it (it turns once per device turn, not twice), say so once, and `status` names who
/// and since when.
/// While we leave it, a device turn that nobody answers within `answerWindow` means the other has
/// stopped: the panel is ours again.
struct RivalRotators: Sendable {
    /// Someone else turns this panel: what it is, its program where the host could tell, and
    /// since when (monotonic seconds); `status` reports it as it is.
    typealias Rival = ControllerStatus.OtherRotator

    private struct Watch: Sendable {
        /// Our last turn for the device, and someone else's last setting, each until it is
        /// matched with the other.
        var turnedAt: Double?
        var setAt: Double?
        /// Who last set the panel.
        var lastSetBy: PanelSetter?
        var lastSetProcess: String?
        /// While left to the rival: when it set the panel while no device turn waited for it (it
        /// may have seen the next turn before we did).
        var earlySetAt: Double?
        /// Whether each of our last turns was answered, oldest first.
        var answered: [Bool] = []
        var rival: Rival?
        /// While left to the rival: how the device was held when last looked at, and until when
        /// the rival may answer its last turn.
        var felt: Orientation?
        var waitingUntil: Double?
    }

    static let answerWindow = 2.0
    static let answersToYield = 2
    static let turnsLookedAt = 3

    private var watches: [PanelID: Watch] = [:]

    /// Who turns `panel` instead of us, if anyone.
    func rival(of panel: PanelID) -> Rival? { watches[panel]?.rival }

    /// We turned `panel` for the device. Returns the rival when this makes one (someone else
    /// set the panel just before, as it did on the turns before).
    mutating func turned(_ panel: PanelID, felt: Orientation?, at now: Double) -> Rival? {
        var w = watches[panel, default: Watch()]
        defer { watches[panel] = w }
        guard w.rival == nil else { return nil }
        if w.turnedAt != nil {   // our last turn went unanswered
            w.answered = Array((w.answered + [false]).suffix(Self.turnsLookedAt))
            w.turnedAt = nil
        }
        if let setAt = w.setAt, now - setAt <= Self.answerWindow {
            w.setAt = nil
            return answer(&w, felt: felt, at: now)
        }
        w.turnedAt = now
        return nil
    }

    /// Someone else set `panel` (and it was kept: not a compositor's undo turned back). Returns
    /// the rival when this makes one: the panel is left to it from now on.
    mutating func setElsewhere(_ panel: PanelID, by who: PanelSetter, process: String? = nil, felt: Orientation?,
                               at now: Double) -> Rival? {
        var w = watches[panel, default: Watch()]
        defer { watches[panel] = w }
        w.lastSetBy = who
        w.lastSetProcess = process
        guard w.rival == nil else {
            if w.waitingUntil == nil { w.earlySetAt = now }
            w.waitingUntil = nil
            return nil
        }
        if let turnedAt = w.turnedAt, now - turnedAt <= Self.answerWindow {
            w.turnedAt = nil
            return answer(&w, felt: felt, at: now)
        }
        w.setAt = now
        return nil
    }

    /// One of our turns was answered: enough of the last few make a rival.
    private func answer(_ w: inout Watch, felt: Orientation?, at now: Double) -> Rival? {
        w.answered = Array((w.answered + [true]).suffix(Self.turnsLookedAt))
        guard w.answered.filter(\.self).count >= Self.answersToYield, let who = w.lastSetBy else { return nil }
        w.rival = Rival(by: who, process: w.lastSetProcess, since: now)
        w.felt = felt
        return w.rival
    }

    /// While `panel` is left to a rival: how the device is held now. A turn starts the rival's
    /// time to answer it, unless it already did.
    mutating func held(_ panel: PanelID, _ felt: Orientation?, at now: Double) {
        guard var w = watches[panel], w.rival != nil, felt != w.felt else { return }
        w.felt = felt
        if let early = w.earlySetAt, now - early <= Self.answerWindow {
            w.earlySetAt = nil
        } else if w.waitingUntil == nil {
            w.earlySetAt = nil
            w.waitingUntil = now + Self.answerWindow
        }
        watches[panel] = w
    }

    /// The panels whose rival let a device turn go unanswered by `now`: ours again. Each is
    /// returned once, with the rival it had.
    mutating func stopped(at now: Double) -> [(PanelID, Rival)] {
        var out: [(PanelID, Rival)] = []
        for (panel, w) in watches.sorted(by: { $0.key < $1.key }) {
            guard let until = w.waitingUntil, now >= until, let rival = w.rival else { continue }
            watches[panel] = Watch()
            out.append((panel, rival))
        }
        return out
    }

    /// When the next rival's time to answer ends.
    var nextDeadline: Double? { watches.values.compactMap(\.waitingUntil).min() }

    mutating func forget(_ panel: PanelID) { watches[panel] = nil }
}

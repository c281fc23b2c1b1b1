/// The panels' records (rule 13): what each shows and allows, and who else set it.
extension Controller {
    struct PanelRecord: Sendable {
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

    /// Someone else set a panel's transform (see `PanelSetter`): the compositor's own change is
    /// turned back, a client's is kept until the decision moves.
    mutating func setElsewhere(_ id: PanelID, _ o: Orientation, by: PanelSetter, at t: Double, process: String? = nil,
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
        if let rival = rivals.setElsewhere(id, by: by, process: process, felt: decisionFelt, at: now) {
            leave(name, to: rival, into: &out)
        }
        out.append(.log(.info, by == .compositor
            ? "\(name): the compositor keeps setting \(o.rawValue); showing that until the device turns"
            : "\(name): set to \(o.rawValue) by \(by.who); showing that until the device turns"))
        out.append(.event(.setElsewhere(panel: name, o, by: by, kept: true)))
    }

    // MARK: another rotator

    /// Another program answers our turns of a panel with its own: it is left to that one.
    func leave(_ name: String, to rival: RivalRotators.Rival, into out: inout [ControllerCommand]) {
        out.append(.log(.info, "\(name): \(rival.named) turns this panel with the device as well; wlr-orient leaves it to that one rather than turn it twice a turn. To have wlr-orient's lock, rules and transitions there, stop the other (rot8, iio-hyprland, a kanshi profile per orientation; in Phosh, turn its orientation lock on); wlr-orient turns the panel again once a device turn goes unanswered for \(Int(RivalRotators.answerWindow)) s"))
        out.append(.event(.otherRotator(panel: name, by: rival.by, leftToIt: true)))
    }

    /// Panels whose other rotator let a device turn go unanswered: ours again, turned at once if
    /// they must (forgetting what that one set). Whether any was taken back.
    mutating func takeBackFromStoppedRivals(into out: inout [ControllerCommand]) -> Bool {
        let stopped = rivals.stopped(at: now)
        for (id, rival) in stopped {
            guard let i = panels.firstIndex(where: { $0.id == id }) else { continue }
            panels[i].setBy = nil
            refused[id] = nil
            out.append(.log(.info, "\(panels[i].name): \(rival.named) no longer turns this panel with the device; wlr-orient turns it again"))
            out.append(.event(.otherRotator(panel: panels[i].name, by: rival.by, leftToIt: false)))
        }
        return !stopped.isEmpty
    }
}

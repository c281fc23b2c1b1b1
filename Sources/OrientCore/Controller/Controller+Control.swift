/// What the control socket asks: the lock, a reload, the offered turn.
extension Controller {
    // MARK: control

    mutating func control(_ command: ControlCommand, into out: inout [ControllerCommand]) {
        switch command {
        case .reload: return out.append(.reloadConfig)
        case .acceptSuggestion:
            guard let offered = offer.current else { return }
            out.append(.log(.info, "suggestion taken: turning to \(offered.orientation.rawValue)"))
            setLock(MaskSpec(exactly: offered.orientation), into: &out)
            return
        case .dismissSuggestion:
            _ = offer.dismiss()
            return
        default: break
        }
        // What is shown now: the first panel's orientation (before any panel, the felt one).
        let shown = panels.first?.shown ?? state.lastFelt ?? .normal
        if case .set(let lock) = command.lockChange(from: state.lock, shown: shown) { setLock(lock, into: &out) }
    }

    mutating func setLock(_ spec: MaskSpec?, into out: inout [ControllerCommand]) {
        guard state.lock != spec else { return }
        state.lock = spec
        droppedLogged.remove(.globalLock)
        out.append(.log(.info, spec.map { "locked to \($0)" } ?? "unlocked"))
        out.append(.save(state))
    }
}

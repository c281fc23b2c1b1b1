/// The readings, judged: the pace of the next, the lean, and a felt orientation that decides.
extension Controller {
    /// One reading, judged: most only set the pace of the next; one that changes the felt
    /// orientation decides as `.felt` does, with the lean it brings.
    mutating func read(_ raw: RawSample, held: Bool, everything: Bool) -> [ControllerCommand] {
        let judged = perception.judge(raw, held: held)
        var out: [ControllerCommand] = []
        if let warning = judged.warning { out.append(.log(.info, warning)) }
        if sensor.paced(perception.readingPeriod) { out.append(.paceSensor(perception.readingPeriod)) }
        guard let change = judged.change else { return out }
        // The reading's own time: the latency benchmarks time a turn from it.
        out.append(.event(.decision(change.orientation, sampleAt: OrientEvent.microseconds(seconds: change.t))))
        takeLean()
        return out + feel(change.orientation, everything: everything)
    }

    /// The way the device leans, taken from the readings before an event is applied when it has
    /// moved a degree, so that a decision the event brings is made with it.
    mutating func takeLean() {
        guard sensor.running, let angle = perception.lean, abs(angle - (takenLean ?? .infinity)) >= 1 else { return }
        takenLean = angle
        remember(lean: angle)
    }

    /// Only remembered: a lean alone never turns the screen; it settles a tie when another event
    /// brings a decision.
    mutating func remember(lean angle: Double) {
        lean = angle.isFinite ? angle : nil
        leanUnsettled = true
    }

    /// How the person holds the device: a decision.
    mutating func feel(_ o: Orientation, everything: Bool) -> [ControllerCommand] {
        var out: [ControllerCommand] = []
        feltStale = false
        if state.lastFelt != o {
            state.lastFelt = o
            offer.feltMoved = true
            out.append(.save(state))
        }
        conclude(decides: true, everything: everything, into: &out)
        return out
    }
}

/// No turn under a finger: while a finger or pen touches the panel, and for `holdSeconds` after
/// the last one lifts, decisions keep the way the device was held when the touch began (a turn
/// of the device meanwhile waits; it happens when the hold ends if the device is still held so).
struct TouchHold: Sendable, Hashable {
    private(set) var touching = false
    private(set) var liftedAt: Double?
    /// The felt orientation decisions use while the hold lasts (`.some(nil)`: unknown then).
    private(set) var held: Orientation??

    var active: Bool { held != nil }

    mutating func touch(_ down: Bool, at now: Double, felt: Orientation?) {
        if down {
            if held == nil { held = .some(felt) }
            touching = true
            liftedAt = nil
        } else if touching {
            touching = false
            liftedAt = now
        }
    }

    /// When the hold ends, if it is ending (nil while touching, or with no hold).
    func ends(after holdSeconds: Double) -> Double? {
        guard active, !touching, let liftedAt else { return nil }
        return liftedAt + holdSeconds
    }

    /// Ends the hold if its time is up; true when it ended.
    mutating func expire(at now: Double, after holdSeconds: Double) -> Bool {
        guard let end = ends(after: holdSeconds), now >= end else { return false }
        self = TouchHold()
        return true
    }

    /// Forgets the hold (the sensor stopped: what was held no longer means anything).
    mutating func release() {
        held = nil
        if !touching { liftedAt = nil }
    }
}

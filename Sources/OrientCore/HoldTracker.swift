import Glibc  // cos only

/// Whether the device has come to rest, and how it moved since it was last held.
///
/// A deliberate turn goes one way, from a hold to a hold. Handling — carrying, swinging, waving
/// the device about — goes out and back, and its far ends look like a turn's end for a moment:
/// the motion slows, the pose lies in another orientation; but the direction leaves again within a
/// few tenths of a second. So the tracker notes when the motion since the last hold has turned
/// back on itself; from then until the next hold, a pose is taken only after it has rested a while.
struct HoldTracker: Sendable {
    /// The direction rests while it stays within this many degrees of where it stopped: a
    /// person's sway and a sensor's noise while holding still stay inside it for a while.
    static let coneDeg = 6.0
    static let coneCosine = cos(coneDeg * .pi / 180)
    /// A rest this long, with no external acceleration, is a hold: the person holds the device.
    static let holdAfter = 0.3
    /// The motion has turned back once the direction is this much nearer to the last hold's than
    /// it was at its farthest (degrees).
    static let retreatDeg = 25.0

    private var anchor = Vector3.zero
    /// When the current rest began (-inf: nothing seen yet).
    private(set) var restingSince = -Double.infinity
    /// The last moment the device was held (-inf: never since the start).
    private(set) var heldUntil = -Double.infinity
    private var heldDirection: Vector3?
    private var farthest = 0.0
    /// Whether the motion since the last hold has turned back on itself (handling, not a turn).
    private(set) var handling = false

    /// Feeds the filtered unit direction at `t`, and whether the reading is calm (no external
    /// acceleration).
    mutating func observe(_ direction: Vector3, at t: Double, calm: Bool, history: DirectionHistory) {
        if !restingSince.isFinite || degreesBetween(anchor, direction) > Self.coneDeg {
            // A new rest: it began as far back as the recent directions lie in the cone
            // around this one (a motion that slows into a pose has come to rest a little
            // before the reading that shows it has).
            anchor = direction
            restingSince = history.withinCone(of: direction, cosine: Self.coneCosine, since: t)
        }
        if calm, t - restingSince >= Self.holdAfter {
            heldUntil = t
            heldDirection = direction
            farthest = 0
            handling = false
        } else if let from = heldDirection {
            let away = degreesBetween(from, direction)
            farthest = max(farthest, away)
            if farthest - away >= Self.retreatDeg { handling = true }
        }
    }

    /// How long the direction has rested.
    func restingFor(at t: Double) -> Double { restingSince.isFinite ? t - restingSince : 0 }

    /// Whether the device is held now: resting long enough, calm (see `observe`).
    func held(at t: Double) -> Bool { heldUntil == t }

    /// Forgets the current rest (after a gap or a turn nobody saw); what happened unseen is
    /// not handling.
    mutating func restart() {
        restingSince = -.infinity
        heldDirection = nil
        handling = false
    }
}

/// What the app in front asks of the screen, from our protocol or from an `[[app]]` rule.
public struct ClientLevel: Sendable, Hashable {
    /// The app's app_id, for log lines.
    public var appID: String
    /// The orientations the app supports.
    public var mask: OrientationMask
    /// The app reads the orientation as input (a game): the screen stays put while it is in front.
    public var sensorInput: Bool

    public init(appID: String, mask: OrientationMask = .all, sensorInput: Bool = false) {
        self.appID = appID
        self.mask = mask
        self.sensorInput = sensorInput
    }
}

/// Everything the rotation decision depends on; nothing else is consulted.
public struct PolicyInput: Sendable, Hashable {
    /// The last orientation the person really held the device in (see `Detector`); nil while
    /// nothing is known (no decision from the sensor yet and none saved), which counts as the
    /// orientation the screen shows: it stays where it is if allowed.
    public var felt: Orientation?
    /// The orientation the screen shows now.
    public var current: Orientation
    /// What the hardware supports (`[device] orientations`).
    public var device: OrientationMask = .all
    /// The user's lock (`wlr-orient lock`); `.all` when unlocked.
    public var global: OrientationMask = .all
    /// The client in front, if any.
    public var client: ClientLevel?
    /// Which way the device leans now: its in-plane angle in degrees (0 normal, 90 left-up,
    /// 180 bottom-up, 270 right-up), when known. Between two allowed orientations equally far from
    /// the felt one (the two landscape variants of a tablet held portrait), the one it leans
    /// toward is the nearer.
    public var lean: Double?
    // Made by the controller (and the core's tests) with the memberwise initializer.
}

/// A level that had to be ignored because the levels had nothing in common.
public enum DroppedLevel: Sendable, Hashable {
    /// The client's mask was disjoint from device ∩ lock: the client's wish loses.
    case client(appID: String)
    /// The user's lock was disjoint from what the device supports: the hardware wins.
    case globalLock
}

/// The outcome of the policy for one output.
public struct PolicyDecision: Sendable, Hashable {
    /// The orientation the screen should show.
    public var target: Orientation
    /// The orientations that were allowed after resolving conflicts.
    public var effective: OrientationMask
    /// Levels ignored to keep `effective` non-empty; the caller logs each once.
    public var dropped: [DroppedLevel]
    /// True when the client in front takes orientation as input and the screen stays.
    public var frozen: Bool
}

/// The product's rules 1–6 (docs/DESIGN.md) as one pure function.
public enum Policy {
    /// Among orientations at the same angular distance, the first in this list wins:
    /// the panel's natural orientation, then right-up (iOS's preferred landscape for a
    /// portrait-native device), then left-up, then upside down. Fixed, so that the same
    /// situation always lands on the same screen.
    public static let tieBreak: [Orientation] = [.normal, .rightUp, .leftUp, .bottomUp]

    public static func decide(_ input: PolicyInput) -> PolicyDecision {
        // Rule 1: three levels must agree; drop the weakest until they do.
        // An empty device mask is a configuration error the loader rejects; treat it as `all`
        // here so that a bad caller can never produce an empty choice.
        let device = input.device.isEmpty ? OrientationMask.all : input.device
        var dropped: [DroppedLevel] = []
        var base = device.intersection(input.global)
        if base.isEmpty {
            dropped.append(.globalLock)
            base = device
        }
        var effective = base
        if let client = input.client {
            let withClient = base.intersection(client.mask)
            if withClient.isEmpty {
                dropped.append(.client(appID: client.appID))
            } else {
                effective = withClient
            }
        }

        // Rule 6: a client that takes orientation as input freezes the screen: the sensor's
        // felt orientation is replaced by what the screen shows. Rules 3–5 still apply, so a
        // frozen screen still honours the client's mask.
        let frozen = input.client?.sensorInput ?? false
        let felt = frozen ? input.current : input.felt ?? input.current

        // Rules 3–5: felt if allowed (both variants follow the sensor), else stay,
        // else the nearest allowed orientation (launch in the supported orientation).
        let target: Orientation
        if effective.contains(felt) {
            target = felt
        } else if effective.contains(input.current) {
            target = input.current
        } else {
            target = nearest(to: felt, in: effective, lean: frozen ? nil : input.lean)
        }
        return PolicyDecision(target: target, effective: effective, dropped: dropped, frozen: frozen)
    }

    /// Whether the sensor can change anything on a panel: false when the device and the user's
    /// lock leave a single orientation (a client can only narrow that further), so that the
    /// sensor can be released to save power (docs/DESIGN.md, rule 12).
    public static func sensorMatters(device: OrientationMask, global: OrientationMask) -> Bool {
        decide(PolicyInput(felt: .normal, current: .normal, device: device, global: global)).effective.orientations.count > 1
    }

    /// Leans closer than this to either of two tied orientations' midpoint count as none.
    public static let leanDeadZoneDeg = 5.0

    /// The member of `mask` with the smallest turn from `orientation`: 90° before 180°, then
    /// the one the device leans toward (`lean`, degrees), then `tieBreak`. `mask` must not be
    /// empty; if it is, `orientation` is returned.
    public static func nearest(to orientation: Orientation, in mask: OrientationMask, lean: Double? = nil) -> Orientation {
        let candidates = tieBreak.filter { mask.contains($0) }
        guard let fewest = candidates.map({ orientation.quarterTurns(to: $0) }).min() else { return orientation }
        let closest = candidates.filter { orientation.quarterTurns(to: $0) == fewest }
        if closest.count > 1, let lean, lean.isFinite {
            let distances = closest.map { leanDistance(lean, to: $0) }
            if let best = distances.min(), distances.filter({ $0 < best + 2 * leanDeadZoneDeg }).count == 1,
               let i = distances.firstIndex(of: best) {
                return closest[i]
            }
        }
        return closest[0]
    }

    /// Degrees between an in-plane angle and an orientation's own angle (0...180).
    private static func leanDistance(_ angle: Double, to o: Orientation) -> Double {
        let d = (angle - Double(o.clockwiseQuarterTurns) * 90).truncatingRemainder(dividingBy: 360)
        let a = abs(d < 0 ? d + 360 : d)
        return min(a, 360 - a)
    }
}

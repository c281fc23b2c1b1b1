/// A rectangle of a panel's pixels (its own frame, as `SuggestionTarget` places things).
public struct PixelBox: Sendable, Hashable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && py >= Double(y) && px < Double(x + width) && py < Double(y + height)
    }
}

extension SuggestionTarget {
    /// Where the target goes on a panel `width` × `height` pixels: a square about a tenth of the
    /// shorter side (48 to 160 pixels: a fingertip's size on a phone and a tablet alike), a
    /// third of its size in from the two edges of its corner.
    public func box(width: Int, height: Int) -> PixelBox {
        let side = max(48, min(160, Int((Double(min(width, height)) * 0.09).rounded())))
        let margin = side / 3
        return PixelBox(x: corner.isRight ? width - margin - side : margin,
                        y: corner.isBottom ? height - margin - side : margin, width: side, height: side)
    }
}

extension SuggestionTarget {
    /// The target's corner as the panel shows `shown` (the corner of the output's turned picture,
    /// where a layer surface anchors): turning the device k quarter turns clockwise moves its
    /// corner i to where corner i + k was.
    public func corner(showing shown: Orientation) -> PanelCorner {
        PanelCorner(clockwiseIndex: corner.clockwiseIndex + shown.clockwiseQuarterTurns)
    }
}

/// What the fingers, pens and buttons on the panels do, as far as wlr-orient cares: whether
/// anything touches the panel (the touch hold), and taps on the suggestion's target (one that
/// begins and ends on it; a touch that slides off is no tap).
public struct Contacts: Sendable {
    public enum Source: Sendable, Hashable { case finger, pen, button }
    public enum Phase: Sendable, Hashable { case down, motion, up, cancel }
    public enum Outcome: Sendable, Hashable {
        /// A finger or pen began touching (true: the first), or the last one lifted.
        case touching(Bool)
        /// A tap on the target.
        case tapped
    }

    /// A contact is its device's (touch ids are per device) and its id there.
    private struct Key: Hashable { let device: Int; let source: Source; let id: Int32 }
    /// Contacts down now, and whether each is still a tap on the target.
    private var down: [Key: Bool] = [:]

    public init() {}

    /// One contact's step on `device` (the caller's number for it), at `onTarget` (nil: not known,
    /// as for an up, which has no point).
    public mutating func contact(_ source: Source, device: Int = 0, id: Int32, _ phase: Phase, onTarget: Bool?) -> [Outcome] {
        let key = Key(device: device, source: source, id: id)
        let touchingBefore = touching
        var out: [Outcome] = []
        switch phase {
        case .down:
            down[key] = onTarget ?? false
        case .motion:
            if down[key] == true, onTarget == false { down[key] = false }
        case .up:
            if down.removeValue(forKey: key) == true, onTarget != false { out.append(.tapped) }
        case .cancel:
            down[key] = nil
        }
        if touching != touchingBefore { out.insert(.touching(touching), at: 0) }
        return out
    }

    /// `device` was removed: what was down on it is no longer (unplugged mid-touch, it sends no
    /// up or cancel, and the touch hold would otherwise last until the next contact).
    public mutating func removed(device: Int) -> [Outcome] {
        let touchingBefore = touching
        down = down.filter { $0.key.device != device }
        return touching != touchingBefore ? [.touching(touching)] : []
    }

    /// Whether a finger or pen touches a panel now (a button held is no touch).
    public var touching: Bool { down.keys.contains { $0.source != .button } }
}

/// A turn offered while the user's lock keeps the screen from the way the device is held: the
/// panel, the orientation a tap would turn it to, and when the offer goes.
public struct Suggestion: Sendable, Hashable {
    public var panel: PanelID
    /// What a tap turns the panel to (the way the device is held).
    public var orientation: Orientation
    /// When it goes (monotonic seconds, the host's clock).
    public var until: Double
    /// A pointer rests on the target (it stays longer).
    public var hovered = false

    public init(panel: PanelID, orientation: Orientation, until: Double, hovered: Bool = false) {
        (self.panel, self.orientation, self.until, self.hovered) = (panel, orientation, until, hovered)
    }
}

/// A corner of the panel in its own frame (the panel's pixels, as a `normal` transform shows them).
public enum PanelCorner: String, Sendable, Hashable, CaseIterable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomRight = "bottom-right"
    case bottomLeft = "bottom-left"

    /// Clockwise from the top left: 0...3.
    var clockwiseIndex: Int {
        switch self {
        case .topLeft: 0
        case .topRight: 1
        case .bottomRight: 2
        case .bottomLeft: 3
        }
    }

    init(clockwiseIndex i: Int) {
        switch ((i % 4) + 4) % 4 {
        case 0: self = .topLeft
        case 1: self = .topRight
        case 2: self = .bottomRight
        default: self = .bottomLeft
        }
    }

    public var isRight: Bool { self == .topRight || self == .bottomRight }
    public var isBottom: Bool { self == .bottomLeft || self == .bottomRight }
}

/// Where a host draws the suggestion's target, in the panel's own frame (so the same whatever the
/// panel shows): the corner that is `corner` as the person holds the device, and how far its
/// arrow turns so that it stands upright for them.
public struct SuggestionTarget: Sendable, Hashable {
    public var orientation: Orientation
    public var corner: PanelCorner
    /// Quarter turns counter-clockwise (as seen on the panel) that make the drawing upright for
    /// a person holding the device `held`.
    public var counterClockwiseQuarterTurns: Int
    /// Whether a pointer rests on it (the host may draw it brighter).
    public var hovered: Bool

    public init(orientation: Orientation, held: Orientation, corner: SuggestionConfig.Corner, hovered: Bool = false) {
        self.orientation = orientation
        // Turning the device k quarter turns clockwise moves its corner i to where corner i + k was.
        let k = held.clockwiseQuarterTurns
        let asHeld: PanelCorner = switch corner {
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomRight: .bottomRight
        case .bottomLeft: .bottomLeft
        }
        self.corner = PanelCorner(clockwiseIndex: asHeld.clockwiseIndex - k)
        self.counterClockwiseQuarterTurns = k
        self.hovered = hovered
    }

    /// Whether `other` is this target in the same place, drawn only otherwise (hovered or not):
    /// a host redraws it where it is rather than making it anew.
    public func differsOnlyInLook(from other: SuggestionTarget) -> Bool {
        var same = other
        same.hovered = hovered
        return same == self
    }
}

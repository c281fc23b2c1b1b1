/// Which edge of the device is up, as the accelerometer sees it.
///
/// The names are iio-sensor-proxy's, so that users and bug reports speak one
/// language across tools. Lying flat is not an orientation: see `Posture`.
public enum Orientation: String, CaseIterable, Sendable, Hashable, Codable {
    /// The panel's natural way up (the bottom edge down).
    case normal
    /// The left edge is up: the device was turned 90° clockwise.
    case leftUp = "left-up"
    /// The right edge is up: the device was turned 90° counter-clockwise.
    case rightUp = "right-up"
    /// Upside down: the device was turned 180°.
    case bottomUp = "bottom-up"

    /// How far the device is turned clockwise from `normal`, in quarter turns (0...3).
    public var clockwiseQuarterTurns: Int {
        switch self {
        case .normal: 0
        case .leftUp: 1
        case .bottomUp: 2
        case .rightUp: 3
        }
    }

    /// The orientation reached by turning the device `quarterTurns` clockwise from `normal`.
    public init(clockwiseQuarterTurns quarterTurns: Int) {
        switch ((quarterTurns % 4) + 4) % 4 {
        case 0: self = .normal
        case 1: self = .leftUp
        case 2: self = .bottomUp
        default: self = .rightUp
        }
    }

    /// The smallest turn between two orientations, in quarter turns: 0, 1 or 2.
    public func quarterTurns(to other: Orientation) -> Int {
        let d = ((other.clockwiseQuarterTurns - clockwiseQuarterTurns) % 4 + 4) % 4
        return min(d, 4 - d)
    }

    /// True for the two orientations in which the panel's long side is horizontal
    /// when the panel is natively landscape (and vertical on a native-portrait panel).
    public var isNaturalAxis: Bool { self == .normal || self == .bottomUp }

    /// Whether this orientation shows the panel in landscape, given its native shape.
    public func isLandscape(on panel: PanelShape) -> Bool {
        isNaturalAxis == (panel == .landscape)
    }

    /// The `wl_output` transform that makes content upright in this orientation.
    public var outputTransform: OutputTransform { OutputTransform(for: self) }
}

/// What the accelerometer says beyond the four orientations: held up, or lying flat.
/// While flat, the last orientation the person held the device in persists.
public enum Posture: String, CaseIterable, Sendable, Hashable {
    case upright
    case faceUp = "face-up"
    case faceDown = "face-down"
}

/// The panel's native aspect: what portrait and landscape mean on this device.
public enum PanelShape: String, Sendable, Hashable, CaseIterable {
    /// Wider than tall in `normal` (tablets, 2-in-1s). A square panel counts as landscape.
    case landscape
    /// Taller than wide in `normal` (phones).
    case portrait

    public init(width: Int, height: Int) {
        self = width >= height ? .landscape : .portrait
    }
}

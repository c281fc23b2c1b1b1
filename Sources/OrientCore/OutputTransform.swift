/// The subset of `wl_output_transform` that auto-rotation uses, with the protocol's values.
///
/// In the Wayland protocol, `WL_OUTPUT_TRANSFORM_90` turns the content 90°
/// *counter-clockwise* on the panel. When the device is turned 90° clockwise
/// (`left-up`), the content must turn back by 90° counter-clockwise to stay
/// upright, so `left-up` needs `rotated90`; `right-up` needs `rotated270`;
/// `bottom-up` needs `rotated180`. This is the only place that direction is
/// decided; the end-to-end test proves it on the panel's raw pixels.
/// (Mutter and sway map them the same way: sway's clockwise `90` is our `rotated270`.)
public enum OutputTransform: Int32, Sendable, CaseIterable {
    case normal = 0
    case rotated90 = 1
    case rotated180 = 2
    case rotated270 = 3

    public init(for orientation: Orientation) {
        // The content turns counter-clockwise by as much as the device turned clockwise.
        switch orientation.clockwiseQuarterTurns {
        case 0: self = .normal
        case 1: self = .rotated90
        case 2: self = .rotated180
        default: self = .rotated270
        }
    }

    /// The device orientation in which this transform shows content upright.
    public var orientation: Orientation {
        Orientation(clockwiseQuarterTurns: Int(rawValue))
    }

    /// Whether the transform swaps the output's width and height.
    public var swapsAxes: Bool { rawValue % 2 != 0 }
}

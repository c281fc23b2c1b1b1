/// Why the daemon's shield went without playing its transition, so that the panel turns with a
/// plain cut: a code for machines (the `shield-cut` event) and the line the log says.
public enum ShieldCut: Sendable, Hashable {
    /// The output went (unplugged, or its wl_output destroyed).
    case outputGone
    /// The compositor refused to capture the panel, or failed to.
    case captureRefused
    case captureFailed
    /// The compositor offers no picture of the panel in shared memory.
    case noSharedPicture
    /// The picture is in a wl_shm format the shield does not draw.
    case format(UInt32)
    /// No shared memory could be made for the picture.
    case noSharedMemory
    /// The compositor cannot make the overlay (no layer surface).
    case noOverlay
    /// The overlay's size is not the panel's at a whole scale.
    case overlayScale(configured: String, width: Int, height: Int)
    /// The compositor closed the overlay.
    case overlayClosed
    /// The compositor did not give the overlay the turned panel's size in time (qtile 0.32 never does).
    case overlayNotResized(withinMs: Int)
    /// Which wl_output the panel is cannot be told.
    case panelUnknown

    /// A word for machines, the same whatever the wording of the line.
    public var code: String {
        switch self {
        case .outputGone: "output-gone"
        case .captureRefused: "capture-refused"
        case .captureFailed: "capture-failed"
        case .noSharedPicture: "no-shared-picture"
        case .format: "format"
        case .noSharedMemory: "no-shared-memory"
        case .noOverlay: "no-overlay"
        case .overlayScale: "overlay-scale"
        case .overlayClosed: "overlay-closed"
        case .overlayNotResized: "overlay-not-resized"
        case .panelUnknown: "panel-unknown"
        }
    }

    /// The log's line.
    public var line: String {
        switch self {
        case .overlayNotResized(let ms):
            "the compositor did not give the overlay the turned panel's size within \(ms) ms of the turn: the panel turns without a transition, and every quarter turn does from now on (until the compositor is connected to again)"
        default:
            "the panel turns without a transition: \(reason)"
        }
    }

    private var reason: String {
        switch self {
        case .outputGone: "the output went"
        case .captureRefused: "the compositor cannot capture the panel"
        case .captureFailed: "the compositor could not capture the panel"
        case .noSharedPicture: "the compositor offers no shared-memory picture of the panel"
        case .format(let format): "the compositor offers the panel's picture as wl_shm format \(format), which the shield does not draw"
        case .noSharedMemory: "no shared memory for the panel's picture"
        case .noOverlay: "the compositor cannot make the overlay"
        case .overlayScale(let configured, let width, let height):
            "the overlay's size (\(configured)) is not the panel's \(width)x\(height) at a whole scale"
        case .overlayClosed: "the compositor closed the overlay"
        case .overlayNotResized: "the compositor did not resize the overlay"
        case .panelUnknown: "cannot tell which wl_output the panel is"
        }
    }
}

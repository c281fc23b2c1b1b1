/// The protocol the daemon's shield copies a panel with, chosen from the globals the compositor
/// offers: the standard ext-image-copy-capture where it is whole (the copy manager and the
/// manager of output sources: one without the other cannot name an output), else wlroots'
/// screencopy, which wlroots calls the legacy one and may drop.
public enum ShieldCapture: String, Sendable, Hashable {
    case imageCopy = "ext-image-copy-capture-v1"
    case screencopy = "wlr-screencopy-unstable-v1"

    /// The globals each needs, by interface name.
    public static let imageCopyGlobals: Set<String> = ["ext_image_copy_capture_manager_v1", "ext_output_image_capture_source_manager_v1"]
    public static let screencopyGlobal = "zwlr_screencopy_manager_v1"

    /// Which one a shield uses where `offered` are the interfaces bound; nil: neither.
    public static func chosen(offered: Set<String>) -> ShieldCapture? {
        imageCopyGlobals.isSubset(of: offered) ? .imageCopy : offered.contains(screencopyGlobal) ? .screencopy : nil
    }

    /// What a compositor offering neither lacks, as the list of what is missing names it.
    public static let lacking = "ext_image_copy_capture_manager_v1 (with its output sources) or zwlr_screencopy_manager_v1"
}

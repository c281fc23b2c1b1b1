import CWaylandClient
import OrientCore
import OrientSystem

/// One copy of what an output shows, into shared memory the shield makes, by whichever protocol
/// the compositor offers: ext-image-copy-capture (the standard one, wlroots 0.19 and later, the
/// only one some compositors have) where it can, else wlr-screencopy. Either tells the size and
/// format it copies into, is given a buffer of them, and says when the copy is there; both copy
/// the output's buffer as it is scanned out, before its transform.
protocol PanelCapture: AnyObject {
    /// Copies into `buffer`, made as `wants` asked.
    func copy(into buffer: OpaquePointer)
    /// Destroys its proxies; nothing more is reported.
    func destroy()
}

/// What a capture reports to the shield.
struct CaptureReports {
    /// The buffer it copies into: a wl_shm format, the size, the stride.
    var wants: (_ format: UInt32, _ width: UInt32, _ height: UInt32, _ stride: UInt32) -> Void
    /// The copy is in the buffer; `yInverted`: its rows are bottom first.
    var ready: (_ yInverted: Bool) -> Void
    var failed: (ShieldCut) -> Void
}

/// The wl_shm formats the shield draws: ARGB8888 and XRGB8888.
enum ShieldFormats {
    static let argb = WL_SHM_FORMAT_ARGB8888.rawValue, xrgb = WL_SHM_FORMAT_XRGB8888.rawValue
    static func drawn(_ format: UInt32) -> Bool { format == argb || format == xrgb }
}

extension ShieldParts {
    /// Starts a copy of `output` with the protocol chosen (`ShieldCapture`); nil when the
    /// compositor offers neither or refused at once.
    func capture(_ output: OpaquePointer, reports: CaptureReports) -> PanelCapture? {
        switch capture {
        case .imageCopy:
            guard let imageCopy, let outputSources else { return nil }
            return ImageCopyCapture(manager: imageCopy, sources: outputSources, output: output, reports: reports)
        case .screencopy:
            guard let screencopy else { return nil }
            return ScreencopyCapture(manager: screencopy, version: screencopyVersion, output: output, reports: reports)
        case nil:
            return nil
        }
    }
}

/// ext-image-copy-capture: a source for the output, a session on it (its buffer constraints, then
/// done), one frame: the buffer attached, wholly damaged, captured, then ready or failed.
final class ImageCopyCapture: PanelCapture, CallbackOwner {
    private var source: OpaquePointer?
    private var session: OpaquePointer?
    private var frame: OpaquePointer?
    private let reports: CaptureReports
    private var size: (width: UInt32, height: UInt32)?
    /// The shm formats offered so far, in the order offered.
    private var formats: [UInt32] = []
    private var asked = false

    init?(manager: OpaquePointer, sources: OpaquePointer, output: OpaquePointer, reports: CaptureReports) {
        self.reports = reports
        guard let source = ext_output_image_capture_source_manager_v1_create_source(sources, output) else { return nil }
        self.source = source
        // Without the cursor: the picture is held over the panel, where the real cursor still is.
        guard let session = ext_image_copy_capture_manager_v1_create_session(manager, source, 0) else {
            destroy()
            return nil
        }
        self.session = session
        ext_image_copy_capture_session_v1_add_listener(session, Self.sessionListener, callbackContext)
    }

    /// The constraints are all told: the first format the shield draws, at the told size. A
    /// session may tell them again later; the one copy has been asked for by then.
    private func constraintsDone() {
        guard !asked else { return }
        asked = true
        guard let size, size.width > 0, let format = formats.first(where: ShieldFormats.drawn) ?? formats.first else {
            return reports.failed(.noSharedPicture)
        }
        reports.wants(format, size.width, size.height, size.width * 4)
    }

    func copy(into buffer: OpaquePointer) {
        guard let session, frame == nil, let size, let frame = ext_image_copy_capture_session_v1_create_frame(session) else {
            return reports.failed(.captureRefused)
        }
        self.frame = frame
        ext_image_copy_capture_frame_v1_add_listener(frame, Self.frameListener, callbackContext)
        ext_image_copy_capture_frame_v1_attach_buffer(frame, buffer)
        // Never captured before: the whole buffer is damaged.
        ext_image_copy_capture_frame_v1_damage_buffer(frame, 0, 0, Int32(clamping: size.width), Int32(clamping: size.height))
        ext_image_copy_capture_frame_v1_capture(frame)
    }

    func destroy() {
        if let frame { ext_image_copy_capture_frame_v1_destroy(frame) }
        if let session { ext_image_copy_capture_session_v1_destroy(session) }
        if let source { ext_image_capture_source_v1_destroy(source) }
        (frame, session, source) = (nil, nil, nil)
    }

    nonisolated(unsafe) private static let sessionListener = permanentListener(ext_image_copy_capture_session_v1_listener(
        buffer_size: { data, _, width, height in owner(data)?.size = (width, height) },
        shm_format: { data, _, format in owner(data)?.formats.append(format) },
        dmabuf_device: { _, _, _ in },
        dmabuf_format: { _, _, _, _ in },
        done: { data, _ in owner(data)?.constraintsDone() },
        stopped: { data, _ in
            // Before the copy was asked for, or while it is being made: either way there is none.
            owner(data)?.reports.failed(.captureFailed)
        }))

    nonisolated(unsafe) private static let frameListener = permanentListener(ext_image_copy_capture_frame_v1_listener(
        transform: { _, _, _ in },
        damage: { _, _, _, _, _, _ in },
        presentation_time: { _, _, _, _, _ in },
        ready: { data, _ in owner(data)?.reports.ready(false) },
        failed: { data, _, _ in owner(data)?.reports.failed(.captureFailed) }))
}

/// wlr-screencopy: one frame of the output; it tells its buffer (version 3: every buffer type,
/// then buffer_done), is copied into it, then ready or failed.
final class ScreencopyCapture: PanelCapture, CallbackOwner {
    private var frame: OpaquePointer?
    private let version: UInt32
    private let reports: CaptureReports
    /// The shared-memory buffer offered, until all are.
    private var offered: (format: UInt32, width: UInt32, height: UInt32, stride: UInt32)?
    private var yInverted = false

    init?(manager: OpaquePointer, version: UInt32, output: OpaquePointer, reports: CaptureReports) {
        self.version = version
        self.reports = reports
        guard let frame = zwlr_screencopy_manager_v1_capture_output(manager, 0, output) else { return nil }
        self.frame = frame
        zwlr_screencopy_frame_v1_add_listener(frame, Self.frameListener, callbackContext)
    }

    private func buffersDone() {
        guard let offered else { return reports.failed(.noSharedPicture) }
        reports.wants(offered.format, offered.width, offered.height, offered.stride)
    }

    func copy(into buffer: OpaquePointer) {
        guard let frame else { return reports.failed(.captureRefused) }
        zwlr_screencopy_frame_v1_copy(frame, buffer)
    }

    func destroy() {
        if let frame { zwlr_screencopy_frame_v1_destroy(frame) }
        frame = nil
    }

    nonisolated(unsafe) private static let frameListener = permanentListener(zwlr_screencopy_frame_v1_listener(
        buffer: { data, _, format, width, height, stride in
            guard let capture = owner(data) else { return }
            // Version 3 lists every buffer type, then buffer_done; before it, this is the one.
            capture.offered = (format, width, height, stride)
            if capture.version < 3 { capture.buffersDone() }
        },
        flags: { data, _, flags in owner(data)?.yInverted = flags & 1 != 0 },
        ready: { data, _, _, _, _ in
            guard let capture = owner(data) else { return }
            capture.reports.ready(capture.yInverted)
        },
        failed: { data, _ in owner(data)?.reports.failed(.captureFailed) },
        damage: { _, _, _, _, _, _ in },
        linux_dmabuf: { _, _, _, _, _ in },
        buffer_done: { data, _ in owner(data)?.buffersDone() }))
}

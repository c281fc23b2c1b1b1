import CWlrGlue
import OrientCore
import OrientService
import OrientSystem

/// A built-in panel the plugin rotates: one wlr_output, what it shows, its listeners.
final class Panel: CompositorObject {
    let output: OpaquePointer
    let name: String
    var id: PanelID { PanelID(UInt(bitPattern: output)) }
    /// The panel's native shape (its mode, before any transform): what portrait means here.
    var shape: PanelShape {
        var width: Int32 = 0, height: Int32 = 0
        orient_wlr_output_size(output, &width, &height)
        return PanelShape(width: Int(width), height: Int(height))
    }
    /// The orientation the panel shows now.
    private(set) var current: Orientation
    /// The last buffer the panel showed (locked): the old frame of the next transition.
    private(set) var lastFrame: OpaquePointer?
    /// The transition running, if any. It is let go after the frame in which it finished was
    /// committed (a texture is better not destroyed in the middle of rendering). While there is
    /// one, every frame is composited: a client's buffer scanned out directly could not be drawn
    /// over.
    var transition: PanelTransition? {
        didSet {
            if (oldValue == nil) != (transition == nil) { orient_wlr_output_hold_composited(output, transition != nil) }
        }
    }
    private var watch: Watch?
    let onDestroy: (Panel) -> Void
    private var failureLogged = false
    /// A turn the output could not take at once (a frame was still pending on it): it lands with
    /// the next frame, the host's own (which carries it: `rideHostFrame`) or one the plugin
    /// commits when the output is ready for it.
    private(set) var pending: Turn?
    /// While the plugin commits a frame of its own (under `wlr-orient run` the preload sees it
    /// too: it is no frame of the host's to draw into).
    private(set) var committingItself = false
    /// A turn landed: the output shows the new transform (called once per turn).
    var landed: (Panel, Turn) -> Void = { _, _ in }

    private let loop: OpaquePointer?

    init(output: OpaquePointer, loop: OpaquePointer?, onDestroy: @escaping (Panel) -> Void) {
        self.loop = loop
        self.output = output
        self.name = String(cString: orient_wlr_output_name(output))
        self.onDestroy = onDestroy
        self.current = Self.transform(of: output).orientation
        var events = orient_wlr_output_events(
            context: callbackContext,
            committed: { context, buffer in Panel.owner(context)?.committed(buffer) },
            frame: { context in Panel.owner(context)?.readyForFrame() },
            destroyed: { Panel.destroyed($0) })
        watch = Watch(orient_wlr_watch_output(output, &events))
    }

    private func committed(_ buffer: OpaquePointer?) {
        if let buffer {
            // Locking keeps the buffer out of the swapchain's reuse until the next frame replaces it.
            let previous = lastFrame
            lastFrame = orient_wlr_buffer_lock(buffer)
            orient_wlr_buffer_unlock(previous)
        }
        if let turn = pending, turn.ridesHostFrames, transform == turn.orientation.outputTransform {
            // The host's frame carried the turn.
            pending = nil
            current = turn.orientation
            landed(self, turn)
        }
        guard let running = transition else { return }
        if running.finished {
            transition = nil
        } else {
            running.frameCommitted(loop: loop)
            // Every refresh gets a whole new frame while it runs (the layout under the old frame
            // changes everywhere), in compositors that render only their damage too.
            orient_wlr_output_damage_whole(output)
        }
    }

    /// The transform the output has now.
    var transform: OutputTransform { Self.transform(of: output) }

    private static func transform(of output: OpaquePointer) -> OutputTransform {
        OutputTransform(rawValue: orient_wlr_output_transform(output)) ?? .normal
    }

    /// One turn of the panel: the orientation, and the transition that shows it.
    struct Turn {
        let orientation: Orientation
        let transition: PanelTransition?
        /// It lands with the host's next frame (the host builds output states and hands them to
        /// the plugin), not with one the plugin commits.
        var ridesHostFrames = false
    }

    /// Turns the panel to `turn.orientation`: at once with a frame of its own that shows the
    /// panel's picture unmoved (the transition's old frame, else the last frame), or, where the
    /// output cannot take a frame now, with the next one. Never by committing the transform alone
    /// while the panel shows frames (wlroots 0.16 on): on DRM that waits for a vblank. False (and
    /// a line, once) if the output refuses the transform.
    /// `askHost`: the compositor is first asked to apply the transform itself, through the
    /// output's request_state (`HostRelayout`); where it does at once, with a frame it builds (the
    /// picture drawn into it, as into any frame that carries a turn), that is the turn.
    func turn(_ turn: Turn, renderer: OpaquePointer?, hostBuildsFrames: Bool, askHost: Bool = false) -> Bool {
        // A turn still waiting for its frame gives way (back to where the panel is: nothing to do).
        pending = nil
        guard turn.orientation != current else { return false }
        if askHost, hostBuildsFrames, askHostToApply(turn) { return true }
        switch commitItself(turn, renderer: renderer) {
        case ORIENT_WLR_TRANSFORM_COMMITTED:
            current = turn.orientation
            landed(self, turn)
        case ORIENT_WLR_TRANSFORM_LATER:
            var waiting = turn
            waiting.ridesHostFrames = hostBuildsFrames && orient_wlr_transform_rides_frames()
            pending = waiting
            Log.debug("\(name): a frame is pending; \(turn.orientation.rawValue) lands with the next one"
                      + (waiting.ridesHostFrames ? " (the compositor's)" : ""))
            orient_wlr_output_damage_whole(output)
        default:
            if !failureLogged {
                Log.error("\(name): the output refused transform \(turn.orientation.outputTransform) for \(turn.orientation.rawValue); staying \(current.rawValue)")
                failureLogged = true
            }
            return false
        }
        return true
    }

    private var rendererForRetry: OpaquePointer?

    /// Whether the compositor applied the turn when asked (then it has landed).
    private func askHostToApply(_ turn: Turn) -> Bool {
        var asked = turn
        asked.ridesHostFrames = true
        pending = asked
        guard orient_wlr_output_request_transform(output, turn.orientation.outputTransform.rawValue),
              pending == nil else {
            pending = nil
            return false
        }
        return true
    }

    /// The transform, with a frame that shows the picture on the panel unmoved.
    private func commitItself(_ turn: Turn, renderer: OpaquePointer?) -> orient_wlr_transform_commit {
        rendererForRetry = renderer
        var made: OpaquePointer?
        if turn.transition == nil, let renderer, let lastFrame { made = orient_wlr_texture_from_buffer(renderer, lastFrame) }
        defer { orient_wlr_texture_destroy(made) }
        committingItself = true
        defer { committingItself = false }
        return orient_wlr_output_set_transform(output, turn.orientation.outputTransform.rawValue, turn.transition?.oldFrame ?? made)
    }

    /// The output is ready for a frame (before the host's own handler): a turn that waits for a
    /// frame of the plugin's own goes now.
    private func readyForFrame() {
        guard let turn = pending, !turn.ridesHostFrames else { return }
        pending = nil
        _ = self.turn(turn, renderer: rendererForRetry, hostBuildsFrames: false)
    }

    /// The host is building a frame: a turn that waits for it rides it, with the panel's picture
    /// drawn unmoved over the host's rendering (`drawPicture`) and the new transform added.
    /// `built`: the host's rendering is in the state (else the state is still to be built).
    @discardableResult
    func carryPendingTurn(in state: OpaquePointer, built: Bool, drawPicture: (OpaquePointer) -> Void) -> Bool {
        guard let turn = pending, turn.ridesHostFrames else { return false }
        if built, let picture = turn.transition?.oldFrame { drawPicture(picture) }
        orient_wlr_output_state_set_transform(state, turn.orientation.outputTransform.rawValue)
        return true
    }

    /// Removes every listener (the output is going away, or the plugin is).
    func detach() {
        watch?.remove()
        watch = nil
        pending = nil
        transition = nil
        orient_wlr_buffer_unlock(lastFrame)
        lastFrame = nil
    }
}

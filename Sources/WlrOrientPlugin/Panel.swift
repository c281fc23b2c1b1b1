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
    /// The suggestion's target drawn over the panel's frames (fading out, after it was taken away).
    /// While it shows, every frame is composited: a client's buffer scanned out directly could
    /// not be drawn over.
    private(set) var target: PanelTarget? {
        didSet {
            guard (oldValue == nil) != (target == nil) else { return }
            orient_wlr_output_hold_composited(output, target != nil)
            targetChanged(self)
        }
    }
    /// A target came or went.
    var targetChanged: (Panel) -> Void = { _ in }
    private var watch: Watch?
    let onDestroy: (Panel) -> Void
    private var failureLogged = false
    /// A turn the output could not take at once (a frame was still pending on it): it lands with
    /// the next frame, the host's own (which carries it: `ridesHostFrames`) or one the plugin
    /// commits when the output is ready for it.
    private(set) var pending: Turn? {
        // While a turn waits, every frame is composited: the one that carries it gets the
        // picture drawn into it, which a client's buffer scanned out directly must not.
        didSet { if (oldValue == nil) != (pending == nil) { orient_wlr_output_hold_composited(output, pending != nil) } }
    }
    /// While the plugin commits a frame of its own (under `wlr-orient run` the preload sees it
    /// too: it is no frame of the host's to draw into).
    private(set) var committingItself = false
    /// A turn landed: the output shows the new transform (called once per turn).
    var landed: (Panel, Turn) -> Void = { _, _ in }
    /// Someone else committed another transform on the output (it shows `current` now).
    var setElsewhere: (Panel) -> Void = { _ in }
    /// The transform the output was last seen with, by us or in a commit.
    private var knownTransform: OutputTransform
    /// Frames the output showed in a transform it had from someone else (since it appeared, or
    /// since that transform was set), until a turn of ours lands; nil while it shows ours.
    private(set) var framesInAnotherTransform: Int? = 0
    /// It still shows the transform it appeared with: no one set it, and the log says nothing of
    /// it when the first turn lands (what the compositor started with is nobody's change).
    private var showsItsFirstTransform = true

    private let loop: OpaquePointer?

    init(output: OpaquePointer, loop: OpaquePointer?, onDestroy: @escaping (Panel) -> Void) {
        self.loop = loop
        self.output = output
        self.name = String(cString: orient_wlr_output_name(output))
        self.onDestroy = onDestroy
        self.current = Self.transform(of: output).orientation
        self.knownTransform = Self.transform(of: output)
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
            land(turn)   // the host's frame carried it
        }
        // Another transform, not ours: the compositor's own change (its reload, the output
        // switched on again, its own command) or a client's through output management. A turn
        // still waiting gives way to it; the controller decides what follows.
        let now = transform
        if !committingItself, now != knownTransform, orient_wlr_output_enabled(output) {
            knownTransform = now
            current = now.orientation
            pending = nil
            framesInAnotherTransform = 0
            showsItsFirstTransform = false
            setElsewhere(self)
        }
        if buffer != nil, !committingItself, let frames = framesInAnotherTransform, now == knownTransform {
            framesInAnotherTransform = frames + 1
        }
        if buffer != nil { targetFrameCommitted() }
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
        /// The compositor is asked (again when the output is next ready for a frame) to apply it.
        var asksHost = false
        /// Which turn of the panel it is (`latestTurn`): a landing told late is told of it alone.
        var number = 0
        /// How many times it has waited for a frame.
        var waits = 0

        init(orientation: Orientation, transition: PanelTransition?) {
            self.orientation = orientation
            self.transition = transition
        }
    }

    /// The number of the latest turn that landed.
    private(set) var latestTurn = 0
    private var turnsStarted = 0
    /// A turn that had waited for a frame was refused in the end.
    var refused: (Panel) -> Void = { _ in }
    private var rendererForRetry: OpaquePointer?
    private var hostBuildsFramesForRetry = false

    /// How many frames a turn waits for before it gives up on carrying one: its transform then goes
    /// alone (a frame that keeps failing is not a flip in flight).
    static let mostWaits = 3

    /// Turns the panel to `turn.orientation`: at once with a frame of its own that shows the
    /// panel's picture unmoved (the transition's old frame, else the last frame), or, where the
    /// output cannot take a frame now, with the next one. Never by committing the transform alone
    /// while the panel shows a picture (wlroots 0.16 on): on DRM that waits for a vblank. False (and
    /// a line, once) if the output refuses the transform.
    /// `askHost`: the compositor is first asked to apply the transform itself, through the
    /// output's request_state (`HostRelayout`); where it does, with a frame it builds (the picture
    /// drawn into it, as into any frame that carries a turn), that is the turn; where it does not
    /// at once, it is asked again when the output is next ready for a frame.
    func turn(_ turn: Turn, renderer: OpaquePointer?, hostBuildsFrames: Bool, askHost: Bool = false) -> Bool {
        // A turn still waiting for its frame gives way (back to where the panel is: nothing to do).
        pending = nil
        guard turn.orientation != current else { return false }
        var turn = turn
        turnsStarted += 1
        turn.number = turnsStarted
        rendererForRetry = renderer
        hostBuildsFramesForRetry = hostBuildsFrames
        if askHost, hostBuildsFrames {
            turn.asksHost = true
            if askHostToApply(turn) { return true }
            wait(turn)
            return true
        }
        return commitOrWait(turn)
    }

    /// The plugin's own frame carries the turn now, or the turn waits for the next frame.
    private func commitOrWait(_ turn: Turn) -> Bool {
        switch commitItself(turn, alone: turn.waits >= Self.mostWaits) {
        case ORIENT_WLR_TRANSFORM_COMMITTED:
            land(turn)
        case ORIENT_WLR_TRANSFORM_LATER:
            var waiting = turn
            waiting.ridesHostFrames = hostBuildsFramesForRetry && orient_wlr_transform_rides_frames()
            wait(waiting)
        default:
            if !failureLogged {
                Log.error("\(name): the output refused transform \(turn.orientation.outputTransform) for \(turn.orientation.rawValue); staying \(current.rawValue)")
                failureLogged = true
            }
            return false
        }
        return true
    }

    private func wait(_ turn: Turn) {
        pending = turn
        Events.emit(.turnWaits(panel: name, turn.orientation))
        Log.debug("\(name): \(turn.orientation.rawValue) waits for the next frame"
                  + (turn.asksHost ? " (the compositor is asked again then)" : turn.ridesHostFrames ? " (the compositor's)" : ""))
        orient_wlr_output_damage_whole(output)
    }

    private func land(_ turn: Turn) {
        if let frames = framesInAnotherTransform, knownTransform != turn.orientation.outputTransform {
            if !showsItsFirstTransform {
                Log.info("\(name): \(turn.orientation.rawValue) after \(frames) frame\(frames == 1 ? "" : "s") in \(knownTransform.orientation.rawValue), "
                         + "the transform someone else set")
            }
            Events.emit(.landed(panel: name, turn.orientation, framesInAnotherTransform: frames))
        }
        framesInAnotherTransform = nil
        showsItsFirstTransform = false
        pending = nil
        current = turn.orientation
        knownTransform = turn.orientation.outputTransform
        latestTurn = turn.number
        landed(self, turn)
    }

    /// Whether the compositor applied the turn when asked (then it has landed).
    private func askHostToApply(_ turn: Turn) -> Bool {
        var asked = turn
        asked.ridesHostFrames = true
        pending = asked
        let landedNow = orient_wlr_output_request_transform(output, turn.orientation.outputTransform.rawValue) && pending == nil
        if !landedNow { pending = nil }
        return landedNow
    }

    /// The transform, with a frame that shows the picture on the panel unmoved (`alone`: without).
    private func commitItself(_ turn: Turn, alone: Bool) -> orient_wlr_transform_commit {
        var made: OpaquePointer?
        if !alone, turn.transition == nil, let renderer = rendererForRetry, let lastFrame {
            made = orient_wlr_texture_from_buffer(renderer, lastFrame)
        }
        defer { orient_wlr_texture_destroy(made) }
        if alone { Log.info("\(name): no frame could carry \(turn.orientation.rawValue) after \(turn.waits) tries; its transform goes alone") }
        committingItself = true
        defer { committingItself = false }
        return orient_wlr_output_set_transform(output, turn.orientation.outputTransform.rawValue, alone ? nil : turn.transition?.oldFrame ?? made)
    }

    /// The output is ready for a frame (before the host's own handler): a turn that waits for the
    /// compositor's answer is asked again, one that waits for a frame of the plugin's own goes now.
    private func readyForFrame() {
        guard var turn = pending, turn.asksHost || !turn.ridesHostFrames else { return }
        pending = nil
        turn.waits += 1
        if turn.asksHost {
            if askHostToApply(turn) { return }
            if turn.waits < Self.mostWaits { return wait(turn) }
            turn.asksHost = false
        }
        if !commitOrWait(turn) { refused(self) }
    }

    /// The host is building a frame: a turn that waits for it rides it, with the panel's picture
    /// drawn unmoved over the host's rendering (`drawPicture`) and the new transform added.
    /// `built`: the host's rendering is in the state (else the state is still to be built). A
    /// state that switches the output off, or sets another transform (the compositor's own
    /// command), carries no turn.
    @discardableResult
    func carryPendingTurn(in state: OpaquePointer, built: Bool, drawPicture: (OpaquePointer) -> Void) -> Bool {
        guard let turn = pending, turn.ridesHostFrames, !orient_wlr_output_state_disables(state) else { return false }
        let target = turn.orientation.outputTransform.rawValue
        let set = orient_wlr_output_state_transform(state)
        guard set < 0 || set == target else { return false }
        if built, let picture = turn.transition?.oldFrame { drawPicture(picture) }
        orient_wlr_output_state_set_transform(state, target)
        return true
    }

    /// Shows the suggestion's target (nil: takes it away, fading). Without a renderer, or a host
    /// that draws frames through the plugin, it lives in `status` alone.
    func suggest(_ wanted: SuggestionTarget?, renderer: OpaquePointer?) {
        let now = monotonicMilliseconds()
        if let wanted {
            guard target?.target != wanted || target?.hiding == true, let renderer else { return }
            var width: Int32 = 0, height: Int32 = 0
            orient_wlr_output_size(output, &width, &height)
            target = PanelTarget(wanted, panelWidth: Int(width), panelHeight: Int(height), renderer: renderer, now: now)
        } else {
            target?.hide(at: now)
        }
        orient_wlr_output_damage_whole(output)
    }

    /// Whether a point in the panel's own axes (0...1 each way: a touchscreen's) falls on the target
    /// shown (not fading out).
    func targetContains(normalizedX x: Double, y: Double) -> Bool {
        guard let target, !target.hiding else { return false }
        var width: Int32 = 0, height: Int32 = 0
        orient_wlr_output_size(output, &width, &height)
        return target.box.contains(x: x * Double(width), y: y * Double(height))
    }

    /// Whether a point of the layout falls on the target shown (not fading out) on this panel.
    func targetContains(layout: OpaquePointer?, x: Double, y: Double) -> Bool {
        guard let target, !target.hiding else { return false }
        var bx = 0.0, by = 0.0
        return orient_wlr_output_buffer_point(layout, output, x, y, &bx, &by) && target.box.contains(x: bx, y: by)
    }

    /// After a frame: a fading target needs the next one; a faded one goes, and the host repaints
    /// what it covered.
    private func targetFrameCommitted() {
        guard let shown = target else { return }
        let now = monotonicMilliseconds()
        if shown.gone(at: now) {
            target = nil
            Events.emit(.suggestionHidden(panel: name, at: OrientEvent.microseconds(seconds: now / 1000)))
            orient_wlr_output_damage_whole(output)
        } else if shown.fading(at: now) {
            orient_wlr_output_damage_whole(output)
        }
    }

    /// Removes every listener (the output is going away, or the plugin is).
    func detach() {
        watch?.remove()
        watch = nil
        pending = nil
        transition = nil
        target = nil
        orient_wlr_buffer_unlock(lastFrame)
        lastFrame = nil
    }
}

import CWlrGlue
import OrientCore
import OrientService
import OrientSystem

/// One panel's transition in the compositor: the old frame as a texture (over the last buffer the
/// panel showed, no copy and no extra render), drawn each frame as the core's `TransitionRun`
/// says, into the frame the host is making (`wlr_orient_render_output`, or from wlroots 0.17
/// `wlr_orient_render_output_state`), through the renderer's own API (pixman and GLES2 alike).
final class PanelTransition {
    private let texture: OpaquePointer
    /// The old frame, as a texture.
    var oldFrame: OpaquePointer { texture }
    /// For the frames in which it turns: a smaller copy in memory, turned on the CPU into a canvas
    /// that the renderer only scales up (pixman turns a picture at a high cost per pixel drawn;
    /// see pixels_picture in CPixels's header). Nil where the frame cannot be read on the CPU: then
    /// the renderer turns the full texture. Made once the first frame of the new transform is on
    /// its way (`frameCommitted`), not before it: reading the old frame takes a millisecond or
    /// more on a large panel, and the first frame shows the old one held still anyway.
    private var turning: Turning?
    /// The smaller copy, the canvas it is turned into, and how many times smaller than the panel
    /// both are (`TransitionRun.turningDivisor`).
    typealias Turning = (picture: UnsafeMutablePointer<pixels_picture>, canvas: OpaquePointer, divisor: Int32)
    /// The renderer could not draw a placement, and the log said so.
    private var fadedInstead = false
    /// How the old frame was read for turning on the CPU (a rotation, once read).
    private var oldFrameRead: OrientEvent.OldFrameRead?
    /// The old frame, locked until its smaller copy is made (a rotation only).
    private var unread: OpaquePointer?
    private let renderer: OpaquePointer
    private var making: LoopSource?
    private(set) var run: TransitionRun
    /// The toplevels sent a configure for the new layout, with its serial: the old frame stays
    /// until each has committed it (or is gone, or hidden).
    private var awaited: [(surface: OpaquePointer, serial: UInt32)] = []
    private(set) var finished = false
    private(set) var frames = 0
    /// How long taking the old frame took (milliseconds, outside the frames: in the sensor's
    /// event), and making the turning copy (after the first frame, on an idle of the loop).
    private let setUpMs: Double
    private var turningSetUpMs = 0.0

    /// Takes the old frame; call before the transform changes, outside rendering (wlroots 0.15
    /// to 0.17 make no texture between wlr_renderer_begin and _end).
    init?(renderer: OpaquePointer, frame: OpaquePointer, run: TransitionRun) {
        guard let texture = orient_wlr_texture_from_buffer(renderer, frame) else { return nil }
        self.texture = texture
        self.renderer = renderer
        self.run = run
        unread = run.plan.kind == .rotate ? orient_wlr_buffer_lock(frame) : nil
        setUpMs = monotonicMilliseconds() - run.startedAt
    }

    /// A frame of the panel was committed: once it carries the first frame of the transition,
    /// the turning copy is made when the loop is next idle (after the host's own handlers of
    /// that commit), outside rendering.
    func frameCommitted(loop: OpaquePointer?) {
        guard unread != nil, frames > 0, making == nil else { return }
        making = LoopSource.idle(on: loop) { [unowned self] in makeTurning() }
        if making == nil { makeTurning() }
    }

    private func makeTurning() {
        guard let frame = unread else { return }
        let started = monotonicMilliseconds()
        if !finished { (turning, oldFrameRead) = Self.turningCanvas(renderer: renderer, frame: frame) }
        orient_wlr_buffer_unlock(frame)
        unread = nil
        turningSetUpMs = monotonicMilliseconds() - started
    }

    /// The ways the old frame was read that the log has told of (once each, per compositor).
    nonisolated(unsafe) private static var toldReads: Set<UInt32> = []

    private static func turningCanvas(renderer: OpaquePointer, frame: OpaquePointer)
        -> (Turning?, OrientEvent.OldFrameRead) {
        var width: Int32 = 0, height: Int32 = 0
        orient_wlr_buffer_size(frame, &width, &height)
        let divisor = Int32(TransitionRun.turningDivisor(width: Int(width), height: Int(height)))
        var how = GLUE_FRAME_UNREAD
        let picture = glue_picture_scaled_down(renderer, frame, divisor, &how)
        let read: OrientEvent.OldFrameRead = how == GLUE_FRAME_READ_MAPPED ? .memory : how == GLUE_FRAME_READ_BY_RENDERER ? .renderer : .unread
        if toldReads.insert(how.rawValue).inserted {
            switch how {
            case GLUE_FRAME_READ_MAPPED: Log.info("a rotation's old frame is read from its memory")
            case GLUE_FRAME_READ_BY_RENDERER:
                Log.info("a rotation's old frame is read back through the renderer (its buffers cannot be mapped)")
            default:
                Log.info("a rotation's old frame cannot be read (no mapping, no read-back before wlroots 0.18): it is turned whole by the renderer where it can, else faded")
            }
        }
        guard let picture else { return (nil, read) }
        guard let canvas = glue_canvas_create(renderer, (width + divisor - 1) / divisor, (height + divisor - 1) / divisor) else {
            pixels_picture_destroy(picture)
            return (nil, read)
        }
        return ((picture, canvas, divisor), read)
    }

    deinit {
        making?.remove()
        orient_wlr_buffer_unlock(unread)
        orient_wlr_texture_destroy(texture)
        if let turning {
            glue_canvas_destroy(turning.canvas)
            pixels_picture_destroy(turning.picture)
        }
    }

    var plan: TransitionPlan { run.plan }

    /// After the host re-configured its clients for the new layout: what each must answer.
    func awaitConfigures(of toplevels: [Toplevel]) {
        guard run.waitsForClients else { return }
        awaited = toplevels.compactMap { t in
            var serial: UInt32 = 0
            return orient_wlr_toplevel_configure_pending(t.surface, &serial) ? (t.surface, serial) : nil
        }
    }

    /// Forgets a toplevel that is going away.
    func forget(_ surface: OpaquePointer) {
        awaited.removeAll { $0.surface == surface }
    }

    private var clientsReady: Bool {
        awaited.allSatisfy { surface, serial in
            var committed: UInt32 = 0
            var mapped = false, configured = false
            orient_wlr_toplevel_configure_facts(surface, &committed, &mapped, &configured)
            return TransitionRun.clientAnswered(awaited: serial, committed: committed, mapped: mapped, everConfigured: configured)
        }
    }

    /// Draws this frame's part over what the host rendered into `frame`.
    func render(into frame: OpaquePointer, now: Double, panel name: String) {
        var width: Int32 = 0, height: Int32 = 0
        orient_wlr_frame_size(frame, &width, &height)
        guard !finished else { return }
        switch run.frame(at: now, clientsReady: clientsReady, turningReady: unread == nil) {
        case .finished:
            finished = true
            report(ended: now, panel: name)
        case .old(let placement):
            frames += 1
            if placement.isMoved, let turning,
               drawTurned(placement, through: turning, into: frame, width: width, height: height) { return }
            if draw(texture, into: frame, with: placement.matrix(width: Double(width), height: Double(height)),
                    alpha: placement.alpha, through: placement.footprint(width: Int(width), height: Int(height))) { return }
            // The renderer cannot draw it so (a turned picture, on a render pass): the nearest it can.
            if !fadedInstead {
                fadedInstead = true
                Log.info("\(name): the renderer cannot turn the old frame of this \(plan.kind.rawValue); it fades out unturned instead")
            }
            let fade = placement.unturned
            draw(texture, into: frame, with: fade.matrix(width: Double(width), height: Double(height)), alpha: fade.alpha,
                 through: fade.footprint(width: Int(width), height: Int(height)))
        }
    }

    /// The moved picture turned on the CPU into the canvas, which the renderer scales up.
    private func drawTurned(_ placement: OldFramePlacement, through turning: Turning,
                            into frame: OpaquePointer, width: Int32, height: Int32) -> Bool {
        guard let texture = glue_canvas_texture(turning.canvas) else { return false }
        var canvasWidth: Int32 = 0, canvasHeight: Int32 = 0
        orient_wlr_texture_size(texture, &canvasWidth, &canvasHeight)
        guard let canvasDraw = placement.canvasDraw(width: Int(width), height: Int(height),
                                                    canvasWidth: Int(canvasWidth), canvasHeight: Int(canvasHeight),
                                                    scale: Int(turning.divisor),
                                                    pictureWidth: Int(turning.picture.pointee.width),
                                                    pictureHeight: Int(turning.picture.pointee.height)),
              glue_canvas_draw_turned(turning.canvas, turning.picture, Int32(canvasDraw.width), Int32(canvasDraw.height),
                                      canvasDraw.rows.map { pixels_span(start: Int32($0.start), end: Int32($0.end)) },
                                      canvasDraw.pictureMap)
        else { return false }
        return draw(texture, into: frame, with: canvasDraw.matrix, alpha: placement.alpha, through: canvasDraw.boxes)
    }

    /// The texture through `matrix`, only within `boxes` (which spare the renderer the pixels the
    /// quad does not cover). False where the renderer cannot draw it so (a turned quad from
    /// wlroots 0.18).
    @discardableResult
    private func draw(_ texture: OpaquePointer, into frame: OpaquePointer, with matrix: [Float], alpha: Double,
                      through boxes: [OldFramePlacement.Box]) -> Bool {
        let clips = boxes.map { orient_wlr_box(x: Int32($0.x), y: Int32($0.y), width: Int32($0.width), height: Int32($0.height)) }
        return orient_wlr_frame_draw(frame, texture, matrix, Float(alpha), clips, clips.count)
    }
}

extension PanelTransition {
    /// Another turn takes over (from what is on screen now).
    func giveWay(at now: Double, panel name: String) {
        guard !finished else { return }
        finished = true
        report(ended: now, panel: name, why: " (gave way to another turn)")
    }

    /// One line per transition, in monotonic seconds: a test finds its frames among the host's.
    private func report(ended now: Double, panel name: String, why: String = "") {
        func seconds(_ ms: Double) -> String { String(ms.rounded() / 1000) }
        Log.info("\(name): \(plan.kind.rawValue) transition began \(seconds(run.startedAt)) "
                 + "revealed \(run.revealedAt.map(seconds) ?? "-") ended \(seconds(now)) frames \(frames)"
                 + " set-up \((setUpMs * 100).rounded() / 100) ms"
                 + (run.plan.kind == .rotate ? " turning copy \((turningSetUpMs * 100).rounded() / 100) ms" : "") + why)
        func micro(_ ms: Double) -> Int { OrientEvent.microseconds(seconds: ms / 1000) }
        Events.emit(.transitionEnded(panel: name, plan.kind, frames: frames, beganAt: micro(run.startedAt),
                                     revealedAt: run.revealedAt.map(micro), endedAt: micro(now), setUp: micro(setUpMs),
                                     turningCopy: run.plan.kind == .rotate ? micro(turningSetUpMs) : nil, gaveWay: !why.isEmpty,
                                     oldFrame: oldFrameRead, fadedUnturned: fadedInstead))
    }
}

/// Milliseconds on the monotonic clock.

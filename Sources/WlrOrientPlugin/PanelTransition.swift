import CWlrGlue
import OrientCore
import OrientService
import OrientSensor

/// One panel's transition in the compositor: the old frame as a texture (over the last buffer the
/// panel showed, no copy and no extra render), drawn each frame as the core's `TransitionRun`
/// says, in `wlr_orient_render_output`, through the wlr_renderer API only (pixman and GLES2 alike).
final class PanelTransition {
    private let renderer: UnsafeMutablePointer<wlr_renderer>
    private let texture: UnsafeMutablePointer<wlr_texture>
    /// For the frames in which it turns: a smaller copy in memory, turned on the CPU into a canvas
    /// that the renderer only scales up (pixman turns a picture at a high cost per pixel drawn;
    /// see glue_picture in the glue's header). Nil where the frame cannot be read on the CPU: then
    /// the renderer turns the full texture.
    private let turning: (picture: UnsafeMutablePointer<glue_picture>, canvas: OpaquePointer)?
    private(set) var run: TransitionRun
    /// The toplevels sent a configure for the new layout, with its serial: the old frame stays
    /// until each has committed it (or is gone, or hidden).
    private var awaited: [(surface: UnsafeMutablePointer<wlr_xdg_surface>, serial: UInt32)] = []
    private(set) var finished = false
    private(set) var frames = 0
    /// How long taking the old frame took (milliseconds, outside the frames: in the sensor's event).
    private let setUpMs: Double

    /// Takes the old frame; call before the transform changes, outside rendering (a texture
    /// cannot be made between wlr_renderer_begin and _end).
    init?(renderer: UnsafeMutablePointer<wlr_renderer>, frame: UnsafeMutablePointer<wlr_buffer>, run: TransitionRun) {
        guard let texture = wlr_texture_from_buffer(renderer, frame) else { return nil }
        self.renderer = renderer
        self.texture = texture
        self.run = run
        turning = run.plan.kind == .rotate ? Self.turningCanvas(renderer: renderer, frame: frame) : nil
        setUpMs = monotonicMilliseconds() - run.startedAt
    }

    private static func turningCanvas(renderer: UnsafeMutablePointer<wlr_renderer>, frame: UnsafeMutablePointer<wlr_buffer>)
        -> (UnsafeMutablePointer<glue_picture>, OpaquePointer)? {
        guard let picture = glue_picture_scaled_down(frame, Int32(TransitionRun.turningSourceDivisor)) else { return nil }
        let divisor = Int32(TransitionRun.turningCanvasDivisor)
        guard let canvas = glue_canvas_create(renderer, (frame.pointee.width + divisor - 1) / divisor,
                                              (frame.pointee.height + divisor - 1) / divisor) else {
            glue_picture_destroy(picture)
            return nil
        }
        return (picture, canvas)
    }

    deinit {
        wlr_texture_destroy(texture)
        if let turning {
            glue_canvas_destroy(turning.canvas)
            glue_picture_destroy(turning.picture)
        }
    }

    var plan: TransitionPlan { run.plan }

    /// After the host re-configured its clients for the new layout: what each must answer.
    func awaitConfigures(of toplevels: [Toplevel]) {
        guard run.waitsForClients else { return }
        awaited = toplevels.compactMap { t in
            t.surface.pointee.configure_idle != nil ? (t.surface, t.surface.pointee.scheduled_serial) : nil
        }
    }

    /// Forgets a toplevel that is going away.
    func forget(_ surface: UnsafeMutablePointer<wlr_xdg_surface>) {
        awaited.removeAll { $0.surface == surface }
    }

    private var clientsReady: Bool {
        awaited.allSatisfy { surface, serial in
            let s = surface.pointee
            return TransitionRun.clientAnswered(awaited: serial, committed: s.current.configure_serial,
                                                mapped: s.mapped, everConfigured: s.configured)
        }
    }

    /// Draws this frame's part over what the host rendered. `width` × `height`: the buffer.
    func render(width: Int32, height: Int32, now: Double, panel name: String) {
        guard !finished else { return }
        switch run.frame(at: now, clientsReady: clientsReady) {
        case .finished:
            finished = true
            report(ended: now, panel: name)
        case .old(let placement):
            frames += 1
            if placement.isMoved, let turning, drawTurned(placement, through: turning, width: width, height: height) { return }
            var matrix = placement.matrix(width: Double(width), height: Double(height))
            draw(texture, with: &matrix, alpha: placement.alpha, through: placement.footprint(width: Int(width), height: Int(height)))
        }
    }

    /// The moved picture turned on the CPU into the canvas, which the renderer scales up.
    private func drawTurned(_ placement: OldFramePlacement, through turning: (picture: UnsafeMutablePointer<glue_picture>, canvas: OpaquePointer),
                            width: Int32, height: Int32) -> Bool {
        guard let texture = glue_canvas_texture(turning.canvas),
              let canvasDraw = placement.canvasDraw(width: Int(width), height: Int(height),
                                                    canvasWidth: Int(texture.pointee.width), canvasHeight: Int(texture.pointee.height),
                                                    scale: TransitionRun.turningCanvasDivisor,
                                                    pictureWidth: Int(turning.picture.pointee.width),
                                                    pictureHeight: Int(turning.picture.pointee.height)),
              glue_canvas_draw_turned(turning.canvas, turning.picture, Int32(canvasDraw.width), Int32(canvasDraw.height),
                                      canvasDraw.rows.map { glue_span(start: Int32($0.start), end: Int32($0.end)) },
                                      canvasDraw.pictureMap)
        else { return false }
        var matrix = canvasDraw.matrix
        draw(texture, with: &matrix, alpha: placement.alpha, through: canvasDraw.boxes)
        return true
    }

    private func draw(_ texture: UnsafeMutablePointer<wlr_texture>, with matrix: inout [Float], alpha: Double, through boxes: [OldFramePlacement.Box]) {
        for box in boxes {
            var scissor = wlr_box(x: Int32(box.x), y: Int32(box.y), width: Int32(box.width), height: Int32(box.height))
            wlr_renderer_scissor(renderer, &scissor)
            wlr_render_texture_with_matrix(renderer, texture, &matrix, Float(alpha))
        }
        wlr_renderer_scissor(renderer, nil)
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
                 + " set-up \((setUpMs * 100).rounded() / 100) ms\(why)")
    }
}

/// Milliseconds on the monotonic clock.
func monotonicMilliseconds() -> Double { monotonicSeconds() * 1000 }

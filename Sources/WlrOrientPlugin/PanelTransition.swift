import CWlrGlue
import OrientCore
import OrientSensor

/// One panel's transition in the compositor: the old frame as a texture (over the last buffer the
/// panel showed, no copy and no extra render), drawn each frame as the core's `TransitionRun`
/// says, in `wlr_orient_render_output`, through the wlr_renderer API only (pixman and GLES2 alike).
final class PanelTransition {
    private let renderer: UnsafeMutablePointer<wlr_renderer>
    private let texture: UnsafeMutablePointer<wlr_texture>
    /// A smaller copy for the frames in which it turns: pixman fetches a turned picture pixel by
    /// pixel across its rows, and a smaller one stays in cache (the held frames use the full one).
    private let turningTexture: UnsafeMutablePointer<wlr_texture>?
    private(set) var run: TransitionRun
    /// The toplevels sent a configure for the new layout, with its serial: the old frame stays
    /// until each has committed it (or is gone, or hidden).
    private var awaited: [(surface: UnsafeMutablePointer<wlr_xdg_surface>, serial: UInt32)] = []
    private(set) var finished = false
    private(set) var frames = 0

    /// Takes the old frame; call before the transform changes, outside rendering (a texture
    /// cannot be made between wlr_renderer_begin and _end).
    init?(renderer: UnsafeMutablePointer<wlr_renderer>, frame: UnsafeMutablePointer<wlr_buffer>, run: TransitionRun) {
        guard let texture = wlr_texture_from_buffer(renderer, frame) else { return nil }
        self.renderer = renderer
        self.texture = texture
        self.run = run
        turningTexture = run.plan.kind == .rotate ? glue_scaled_down_texture(renderer, frame, Int32(TransitionRun.turningSourceDivisor)) : nil
    }

    deinit {
        wlr_texture_destroy(texture)
        if let turningTexture { wlr_texture_destroy(turningTexture) }
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
            var matrix = placement.matrix(width: Double(width), height: Double(height))
            let turning = placement.isMoved ? turningTexture : nil
            for box in placement.footprint(width: Int(width), height: Int(height)) {
                var scissor = wlr_box(x: Int32(box.x), y: Int32(box.y), width: Int32(box.width), height: Int32(box.height))
                wlr_renderer_scissor(renderer, &scissor)
                wlr_render_texture_with_matrix(renderer, turning ?? texture, &matrix, Float(placement.alpha))
            }
            wlr_renderer_scissor(renderer, nil)
        }
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
                 + "revealed \(run.revealedAt.map(seconds) ?? "-") ended \(seconds(now)) frames \(frames)\(why)")
    }
}

/// Milliseconds on the monotonic clock.
func monotonicMilliseconds() -> Double { monotonicSeconds() * 1000 }

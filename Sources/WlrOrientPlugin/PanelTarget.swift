import CWlrGlue
import OrientCore
import OrientService
import OrientSystem

/// The suggestion's target over one panel's frames: its picture (a canvas the renderer draws
/// from), where it goes, and its fades in and out.
final class PanelTarget {
    let target: SuggestionTarget
    let box: PixelBox
    private let canvas: OpaquePointer
    /// When it was asked for, and when it began to fade out (monotonic ms).
    private let askedAt: Double
    private var hiddenAt: Double?
    /// Whether a frame has shown it (reported once).
    private(set) var drawn = false

    /// How long a fade in or out takes (ms): short enough to be gone at once, long enough not to blink.
    static let fadeMs = 120.0

    /// Made outside rendering (a texture may not be made between a renderer's begin and end).
    init?(_ target: SuggestionTarget, panelWidth: Int, panelHeight: Int, renderer: OpaquePointer, now: Double) {
        let box = target.box(width: panelWidth, height: panelHeight)
        guard let canvas = glue_canvas_create(renderer, Int32(box.width), Int32(box.height)) else { return nil }
        let pixels = SuggestionIcon.pixels(side: box.width, counterClockwiseQuarterTurns: target.counterClockwiseQuarterTurns,
                                           hovered: target.hovered)
        guard glue_canvas_write(canvas, pixels, Int32(box.width), Int32(box.height)) else {
            glue_canvas_destroy(canvas)
            return nil
        }
        (self.target, self.box, self.canvas, self.askedAt) = (target, box, canvas, now)
    }

    deinit { glue_canvas_destroy(canvas) }

    func hide(at now: Double) {
        if hiddenAt == nil { hiddenAt = now }
    }

    var hiding: Bool { hiddenAt != nil }

    /// Whether it has faded out by `now`.
    func gone(at now: Double) -> Bool {
        hiddenAt.map { now - $0 >= Self.fadeMs } ?? false
    }

    /// Still changing from frame to frame (fading out), so every refresh must draw; and until a
    /// frame has shown it.
    func fading(at now: Double) -> Bool {
        hiddenAt != nil || !drawn
    }

    /// Draws it over what the host rendered into `frame`.
    func render(into frame: OpaquePointer, now: Double, panel name: String) {
        // It appears at once (the offer is news) and fades out.
        let alpha = hiddenAt.map { 1 - min(1, max(0, (now - $0) / Self.fadeMs)) } ?? 1
        guard alpha > 0, let texture = glue_canvas_texture(canvas) else { return }
        let matrix: [Float] = [Float(box.width), 0, Float(box.x), 0, Float(box.height), Float(box.y), 0, 0, 1]
        var clip = orient_wlr_box(x: Int32(box.x), y: Int32(box.y), width: Int32(box.width), height: Int32(box.height))
        guard orient_wlr_frame_draw(frame, texture, matrix, Float(alpha), &clip, 1) else { return }
        if !drawn {
            drawn = true
            Events.emit(.suggestionShown(panel: name, target.orientation, box: [box.x, box.y, box.width, box.height],
                                         askedAt: OrientEvent.microseconds(seconds: askedAt / 1000),
                                         drawnAt: OrientEvent.microseconds(seconds: now / 1000)))
        }
    }
}

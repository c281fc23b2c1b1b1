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

    /// Sets the transform for `orientation`: tested, then committed; a failure is logged once.
    /// `showing`: a texture of the frame the panel shows, which the commit carries drawn unmoved
    /// (the first frame of a transition that begins with the old frame).
    func show(_ orientation: Orientation, showing: OpaquePointer?) -> Bool {
        guard orientation != current else { return false }
        guard orient_wlr_output_set_transform(output, orientation.outputTransform.rawValue, showing) else {
            if !failureLogged {
                Log.error("\(name): the output refused transform \(orientation.outputTransform) for \(orientation.rawValue); staying \(current.rawValue)")
                failureLogged = true
            }
            return false
        }
        current = orientation
        orient_wlr_output_schedule_frame(output)
        return true
    }

    /// Removes every listener (the output is going away, or the plugin is).
    func detach() {
        watch?.remove()
        watch = nil
        transition = nil
        orient_wlr_buffer_unlock(lastFrame)
        lastFrame = nil
    }
}

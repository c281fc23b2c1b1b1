import CWlrGlue
import OrientCore
import OrientService

/// A built-in panel the plugin rotates: one wlr_output, what it shows, its listeners.
final class Panel {
    let output: UnsafeMutablePointer<wlr_output>
    let name: String
    var id: PanelID { PanelID(UInt(bitPattern: output)) }
    /// The panel's native shape (its mode, before any transform): what portrait means here.
    var shape: PanelShape {
        PanelShape(width: Int(output.pointee.width), height: Int(output.pointee.height))
    }
    /// The orientation the panel shows now.
    private(set) var current: Orientation
    /// The last buffer the panel showed (locked): the old frame of the next transition.
    private(set) var lastFrame: UnsafeMutablePointer<wlr_buffer>?
    /// The transition running, if any. It is let go after the frame in which it finished was
    /// committed (a texture is better not destroyed in the middle of rendering).
    var transition: PanelTransition?
    private var listeners: [Listener] = []
    private var failureLogged = false

    init(output: UnsafeMutablePointer<wlr_output>, onDestroy: @escaping (Panel) -> Void) {
        self.output = output
        self.name = output.pointee.name.map { String(cString: $0) } ?? "?"
        self.current = Self.transform(of: output).orientation
        let destroy = Listener(signal(output, \.events.destroy)) { [unowned self] _ in onDestroy(self) }
        let commit = Listener(signal(output, \.events.commit)) { [unowned self] data in
            committed(data?.assumingMemoryBound(to: wlr_output_event_commit.self).pointee.buffer)
        }
        listeners = [destroy, commit].compactMap { $0 }
    }

    private func committed(_ buffer: UnsafeMutablePointer<wlr_buffer>?) {
        if let buffer {
            // Locking keeps the buffer out of the swapchain's reuse until the next frame replaces it.
            let previous = lastFrame
            lastFrame = wlr_buffer_lock(buffer)
            if let previous { wlr_buffer_unlock(previous) }
        }
        guard let running = transition else { return }
        if running.finished {
            transition = nil
        } else {
            // Every refresh gets a whole new frame while it runs (the layout under the old frame
            // changes everywhere), in compositors that render only their damage too.
            glue_output_damage_whole(output)
        }
    }

    /// The transform the output has now.
    var transform: OutputTransform { Self.transform(of: output) }

    private static func transform(of output: UnsafeMutablePointer<wlr_output>) -> OutputTransform {
        OutputTransform(rawValue: Int32(truncatingIfNeeded: output.pointee.transform.rawValue)) ?? .normal
    }

    /// Sets the transform for `orientation`: test, then commit; a failure is rolled back
    /// (so its pending state cannot leak into the next commit) and logged once.
    func show(_ orientation: Orientation) -> Bool {
        guard orientation != current else { return false }
        let transform = wl_output_transform(rawValue: UInt32(orientation.outputTransform.rawValue))
        wlr_output_set_transform(output, transform)
        guard wlr_output_test(output), wlr_output_commit(output) else {
            wlr_output_rollback(output)
            if !failureLogged {
                Log.error("\(name): the output refused transform \(orientation.outputTransform) for \(orientation.rawValue); staying \(current.rawValue)")
                failureLogged = true
            }
            return false
        }
        current = orientation
        wlr_output_schedule_frame(output)
        return true
    }

    /// Removes every listener (the output is going away, or the plugin is).
    func detach() {
        listeners.forEach { $0.remove() }
        listeners = []
        transition = nil
        if let lastFrame { wlr_buffer_unlock(lastFrame) }
        lastFrame = nil
    }
}

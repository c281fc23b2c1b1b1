import CWlrGlue
import OrientService
import OrientSystem

/// The plugin's lines, into the compositor's log (wlr_log, which keeps debug lines at the
/// compositor's own verbosity), written once the compositor's loop is free again.
///
/// A compositor's log is often a pipe (to journald, to a terminal), and wlroots writes a line to
/// it in several unbuffered pieces: a fraction of a millisecond per line, which, written where a
/// turn is decided, is spent before the frame that shows the turn. So lines wait for a timer of a
/// millisecond, which fires after the frame the turn scheduled (a frame goes out on the loop's
/// next idle); an error is written at once, after the lines before it.
final class CompositorLog {
    private var pending: [(level: Log.Level, message: String)] = []
    private var timer: LoopSource?

    /// Lines are written as they come until there is a loop to wait on.
    func attach(loop: OpaquePointer?) {
        timer = LoopSource.timer(on: loop) { [unowned self] in flush() }
    }

    /// Writes what waits and, from then on, each line as it comes (the loop is going).
    func detach() {
        flush()
        timer?.remove()
        timer = nil
    }

    func write(_ level: Log.Level, _ message: String) {
        guard let timer else { return Self.emit(level, message) }
        pending.append((level, message))
        if level == .error {
            flush()
        } else if pending.count == 1 {
            timer.arm(milliseconds: 1)
        }
    }

    private func flush() {
        let lines = pending
        pending.removeAll()
        timer?.arm(milliseconds: 0)
        for line in lines { Self.emit(line.level, line.message) }
    }

    private static func emit(_ level: Log.Level, _ message: String) {
        switch level {
        case .debug: glue_log(ORIENT_WLR_LOG_DEBUG, message)
        case .info: glue_log(ORIENT_WLR_LOG_INFO, message)
        case .error: glue_log(ORIENT_WLR_LOG_ERROR, message)
        }
    }
}

import CWlrGlue
import Glibc
import OrientCore

/// Reads the config again without ever blocking the compositor: `wlr-orient plugin-inputs` runs
/// as a child whose output pipe is watched on the event loop. One read at a time; a reload asked
/// for meanwhile runs once the current one ends. A helper that takes longer than
/// `PluginInputsReader.timeout` is stopped.
final class ConfigReloader {
    private let loop: OpaquePointer?
    private let arguments: [String]
    private let done: (Result<PluginInputs, Problem>) -> Void
    private var child: (pid: pid_t, fd: Int32)?
    private var output: [UInt8] = []
    private var source: OpaquePointer?
    private var timer: OpaquePointer?
    private var again = false
    /// Children that closed their output but had not exited yet: reaped on the timer.
    private var unreaped: [pid_t] = []

    init(loop: OpaquePointer?, arguments: [String], done: @escaping (Result<PluginInputs, Problem>) -> Void) {
        self.loop = loop
        self.arguments = arguments
        self.done = done
        timer = glue_add_timer(loop, Unmanaged.passUnretained(self).toOpaque()) { context in
            guard let context else { return 0 }
            Unmanaged<ConfigReloader>.fromOpaque(context).takeUnretainedValue().timerFired()
            return 0
        }
    }

    func reload() {
        guard child == nil else { again = true; return }
        switch PluginInputsReader.spawn(arguments) {
        case .failure(let why):
            done(.failure(Problem("\(arguments[0]) plugin-inputs: \(why)")))
        case .success(let (pid, fd)):
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            child = (pid, fd)
            output = []
            source = glue_add_fd(loop, fd, Unmanaged.passUnretained(self).toOpaque()) { _, _, context in
                guard let context else { return 0 }
                Unmanaged<ConfigReloader>.fromOpaque(context).takeUnretainedValue().readable()
                return 0
            }
            wl_event_source_timer_update(timer, PluginInputsReader.timeout)
        }
    }

    private func readable() {
        guard let (_, fd) = child else { return }
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN { return }
            guard n > 0 else { return finish(complete: n == 0) }
            output += chunk[..<n]
            if output.count > 1 << 20 { return finish(complete: false) }   // no config is a megabyte
        }
    }

    private func timerFired() {
        if child != nil { finish(complete: false) } else { reap() }
    }

    private func finish(complete: Bool) {
        guard let (pid, fd) = child else { return }
        if let source { wl_event_source_remove(source) }
        source = nil
        close(fd)
        child = nil
        if !complete { kill(pid, SIGKILL) }
        unreaped.append(pid)
        reap()
        if complete {
            let text = String(decoding: output, as: UTF8.self)
            done(PluginInputs.decode(text).mapError { Problem("\(arguments[0]) plugin-inputs: unreadable answer (\($0))") })
        } else {
            done(.failure(Problem("\(arguments[0]) plugin-inputs: no complete answer within \(PluginInputsReader.timeout / 1000) s; stopped it")))
        }
        output = []
        if again {
            again = false
            reload()
        }
    }

    /// Collects exited children without waiting (ECHILD: the compositor reaps its own).
    private func reap() {
        unreaped.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
        if child == nil { wl_event_source_timer_update(timer, unreaped.isEmpty ? 0 : 10) }
    }

    /// Stops a running helper and removes the event sources. Safe to call twice.
    func stop() {
        if child != nil { finish(complete: false) }
        again = false
        if let timer { wl_event_source_remove(timer) }
        timer = nil
    }
}

import OrientCore
import OrientSystem

/// Reads the config again without ever blocking the compositor: `wlr-orient plugin-inputs` runs
/// as a child whose output pipe is watched on the event loop. One read at a time, and reads
/// started at least `spacing` seconds apart: a reload asked for meanwhile (an editor writes a file
/// several times in a row; a script may write it a hundred times a second) runs once, after the
/// current one and the spacing, so the last version written is always the one read. A helper
/// that takes longer than `PluginInputsReader.timeout` is stopped.
public final class ConfigReloader {
    private let loop: OpaquePointer?
    private let arguments: [String]
    private let done: (Result<PluginInputs, Problem>) -> Void
    private var child: (pid: ProcessID, output: FileDescriptor)?
    private var output: [UInt8] = []
    private var source: LoopSource?
    private var timer: LoopSource?
    private var again = false
    /// When the last read started; the next waits on `pace` until `spacing` after it.
    private var lastStart = -Double.infinity
    private var pace: LoopSource?
    private var paced = false
    public static let spacing = 0.25
    /// Children that closed their output but had not exited yet, with when they started: reaped
    /// on the timer, and killed if they linger past the time-out.
    private var unreaped: [(pid: ProcessID, started: Double)] = []
    private var started = 0.0
    private var stopping = false

    public init(loop: OpaquePointer?, arguments: [String], done: @escaping (Result<PluginInputs, Problem>) -> Void) {
        self.loop = loop
        self.arguments = arguments
        self.done = done
        timer = LoopSource.timer(on: loop) { [unowned self] in timerFired() }
        pace = LoopSource.timer(on: loop) { [unowned self] in
            paced = false
            reload()
        }
    }

    public func reload() {
        guard !stopping, timer != nil else { return }
        guard child == nil else { again = true; return }
        guard !paced else { return }
        let wait = lastStart + Self.spacing - monotonicSeconds()
        if wait > 0, let pace {
            paced = true
            return pace.arm(milliseconds: max(1, Int32((wait * 1000).rounded(.up))))
        }
        lastStart = monotonicSeconds()
        switch PluginInputsReader.spawn(arguments) {
        case .failure(let why):
            done(.failure(Problem("\(arguments[0]) plugin-inputs: \(why)")))
        case .success(let (pid, fd)):
            _ = fd.setNonBlocking()
            child = (pid, fd)
            started = monotonicSeconds()
            output = []
            source = LoopSource.readable(fd.rawValue, on: loop) { [unowned self] _ in readable() }
            timer?.arm(milliseconds: PluginInputsReader.timeout)
        }
    }

    private func readable() {
        guard let (_, fd) = child else { return }
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n: Int
            switch chunk.withUnsafeMutableBytes({ fd.read(into: $0) }) {
            case .success(let count) where count > 0: n = count
            case .success: return finish(complete: true)
            case .failure(let error) where error.wouldBlock: return
            case .failure: return finish(complete: false)
            }
            output += chunk[..<n]
            if output.count > PluginInputsReader.largestAnswer { return finish(complete: false) }
        }
    }

    private func timerFired() {
        if child != nil { finish(complete: false) } else { reap() }
    }

    private func finish(complete: Bool) {
        guard let (pid, fd) = child else { return }
        source?.remove()
        source = nil
        fd.close()
        child = nil
        if !complete { ChildProcess.stop(pid) }
        unreaped.append((pid, started))
        reap()
        if complete {
            let text = String(decoding: output, as: UTF8.self)
            done(PluginInputs.decode(text).mapError { Problem("\(arguments[0]) plugin-inputs: unreadable answer (\($0))") })
        } else {
            let failure: ChildProcess.RunFailure = output.count > PluginInputsReader.largestAnswer
                ? .tooLarge(largest: PluginInputsReader.largestAnswer)
                : .unfinished(seconds: Double(PluginInputsReader.timeout) / 1000)
            done(.failure(Problem("\(arguments[0]) plugin-inputs: \(failure)")))
        }
        output = []
        if again, !stopping {
            again = false
            reload()
        }
    }

    /// Collects exited children without waiting (ECHILD: the compositor reaps its own); one that
    /// closed its output but stays past the time-out is killed.
    private func reap() {
        let now = monotonicSeconds()
        unreaped.removeAll { child in
            if ChildProcess.reap(child.pid) != .running { return true }
            if now - child.started > Double(PluginInputsReader.timeout) / 1000 { ChildProcess.stop(child.pid) }
            return false
        }
        if child == nil { timer?.arm(milliseconds: unreaped.isEmpty ? 0 : 10) }
    }

    /// Stops a running helper and removes the event sources; nothing starts after it. Safe to
    /// call twice. Helpers still running are killed and waited for (at destroy only).
    public func stop() {
        stopping = true
        again = false
        if child != nil { finish(complete: false) }
        for child in unreaped { ChildProcess.kill(child.pid) }
        unreaped = []
        timer?.remove()
        timer = nil
        pace?.remove()
        pace = nil
    }
}

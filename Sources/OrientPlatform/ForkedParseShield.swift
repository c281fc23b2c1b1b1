import Glibc
import OrientConfig

/// Runs the parse in a forked child first; the real parse happens in-process only if the child
/// got through it (same code, same input, so the second run cannot abort either).
///
/// The child reports success by writing to a pipe before `_exit`, which works whatever the host
/// does with SIGCHLD (ignored, or reaped by its own handler). A child that has neither reported
/// nor ended within `timeout` is killed: that is a parse that took too long, not a crash. The
/// caller blocks for as long as the parse takes (about a millisecond for a config file); it is
/// the CLI or the plugin's helper process, never the compositor.
public struct ForkedParseShield: ParserShield {
    public let timeout: Double

    public init(timeout: Double = 2) { self.timeout = timeout }

    public func attempt(_ parse: () -> Void) -> ParseOutcome {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return .crashed }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let pid = fork()
        if pid == 0 {
            close(readEnd)
            // An abort here would print the parser's assertion and a crash report into the
            // host's log; the parent reports the failure itself, once.
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 { dup2(null, 2) }
            parse()
            var ok: UInt8 = 1
            _ = write(writeEnd, &ok, 1)
            _exit(0)  // no atexit handlers, no flushing of the host's buffers
        }
        close(writeEnd)
        defer { close(readEnd) }
        guard pid > 0 else { return .crashed }

        // The child's answer, or the end of the pipe when it died without one; nothing by the
        // deadline means it is still parsing.
        var ok: UInt8 = 0
        var pfd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let deadline = monotonicNow() + timeout
        var ready: Int32 = 0
        repeat {
            ready = poll(&pfd, 1, Int32(max(0, (deadline - monotonicNow()) * 1000)))
        } while ready < 0 && errno == EINTR
        let outcome: ParseOutcome
        if ready > 0 {
            outcome = read(readEnd, &ok, 1) == 1 && ok == 1 ? .completed : .crashed
        } else {
            outcome = .tookTooLong(seconds: timeout)
        }
        if outcome != .completed { kill(pid, SIGKILL) }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)  // may fail with ECHILD if the host reaps children itself
        return outcome
    }

    private func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

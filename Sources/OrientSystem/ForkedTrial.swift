import Glibc

/// Runs a piece of code in a forked child first, to learn whether it would end the process (an
/// abort in a C++ library, a Swift trap) or not finish, before the caller runs it for real.
///
/// The child reports success by writing to a pipe before `_exit`, which works whatever the
/// process does with SIGCHLD (ignored, or reaped by its own handler). A child that has neither
/// reported nor ended within `timeout` is killed: that is code that took too long, not a crash.
/// The caller blocks for as long as the trial takes: only for programs (the CLI, the plugin's
/// helper), never for a compositor's thread.
public enum ForkedTrial {
    public enum Outcome: Sendable, Hashable {
        case completed
        /// It ended the child (an abort, a crash), or the child could not be made.
        case crashed
        /// It had not finished after `timeout` seconds, and was stopped.
        case tookTooLong(seconds: Double)
    }

    public static func run(timeout: Double, _ body: () -> Void) -> Outcome {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return .crashed }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let pid = fork()
        if pid == 0 {
            close(readEnd)
            // An abort here would print an assertion and a crash report where the caller's
            // errors go; the caller reports the failure itself, once.
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 { dup2(null, 2) }
            body()
            var ok: UInt8 = 1
            _ = write(writeEnd, &ok, 1)
            _exit(0)  // no atexit handlers, no flushing of the parent's buffers
        }
        close(writeEnd)
        defer { close(readEnd) }
        guard pid > 0 else { return .crashed }

        // The child's answer, or the end of the pipe when it died without one; nothing by the
        // deadline means it is still running.
        var ok: UInt8 = 0
        var pfd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let deadline = monotonicSeconds() + timeout
        var ready: Int32 = 0
        repeat {
            ready = poll(&pfd, 1, Int32(max(0, (deadline - monotonicSeconds()) * 1000)))
        } while ready < 0 && errno == EINTR
        let outcome: Outcome
        if ready > 0 {
            outcome = read(readEnd, &ok, 1) == 1 && ok == 1 ? .completed : .crashed
        } else {
            outcome = .tookTooLong(seconds: timeout)
        }
        if outcome != .completed { kill(pid, SIGKILL) }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)  // may fail with ECHILD if the process reaps children itself
        return outcome
    }
}

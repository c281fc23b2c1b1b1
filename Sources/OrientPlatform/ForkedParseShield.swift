import Glibc
import OrientConfig

/// Runs the parse in a forked child first; the real parse happens in-process only if the child
/// got through it (same code, same input, so the second run cannot abort either).
///
/// The child reports success by writing to a pipe before `_exit`, which works whatever the host
/// does with SIGCHLD (ignored, or reaped by its own handler). A child that neither reports nor
/// exits within `timeout` is killed and counts as a failure. The host blocks for as long as the
/// parse takes (about a millisecond for a config file), and only at start and on reload.
public struct ForkedParseShield: ParserShield {
    public let timeout: Double

    public init(timeout: Double = 2) { self.timeout = timeout }

    public func survives(_ parse: () -> Void) -> Bool {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return false }
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
        guard pid > 0 else { return false }

        var ok: UInt8 = 0
        var pfd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let got = poll(&pfd, 1, Int32(timeout * 1000)) > 0 && read(readEnd, &ok, 1) == 1 && ok == 1
        if !got { kill(pid, SIGKILL) }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)  // may fail with ECHILD if the host reaps children itself
        return got
    }
}

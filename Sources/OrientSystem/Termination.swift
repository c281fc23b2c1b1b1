import CEventLoop
import CLinux
import Glibc

/// An orderly end on SIGTERM, bounded in time, for a program that holds a device: the signal
/// makes `descriptor` readable (the program's loop watches it, ends its work and returns) and
/// arms an alarm whose default action ends the program should that take longer than the grace.
/// With `withParent`, the signal also comes when the thread that started the program ends (its
/// compositor, even one killed with SIGKILL): it releases the device and goes.
public enum Termination {
    nonisolated(unsafe) private static var pipeEnds: [Int32] = [-1, -1]
    nonisolated(unsafe) private static var graceSeconds: UInt32 = 2

    /// Readable once SIGTERM (or SIGINT) came; nil before `install`.
    public static var descriptor: FileDescriptor? {
        pipeEnds[0] >= 0 ? FileDescriptor(rawValue: pipeEnds[0]) : nil
    }

    /// Whether the end was asked for.
    public static var requested: Bool {
        guard let descriptor else { return false }
        return (try? descriptor.waitReadable(milliseconds: 0).get()) ?? false
    }

    public static func install(grace: UInt32, withParent: Bool) {
        graceSeconds = grace
        if pipeEnds[0] < 0 {
            guard glue_pipe_cloexec(&pipeEnds) == 0 else { return }
            _ = fcntl(pipeEnds[1], F_SETFL, fcntl(pipeEnds[1], F_GETFL) | O_NONBLOCK)
        }
        for signal in [SIGTERM, SIGINT] {
            Glibc.signal(signal) { _ in
                alarm(Termination.graceSeconds)
                var byte: UInt8 = 1
                _ = write(Termination.pipeEnds[1], &byte, 1)
            }
        }
        // (Had the parent gone before this, the SIGKILL its ChildProcess asked for came already.)
        if withParent { _ = clinux_set_parent_death_signal(SIGTERM) }
    }
}

import CSystem

/// An orderly end on SIGTERM, bounded in time, for a program that holds a device: the signal
/// makes `descriptor` readable (the program's loop watches it, ends its work and returns) and
/// arms an alarm whose default action ends the program should that take longer than the grace.
/// With `withParent`, the signal also comes when the thread that started the program ends (its
/// compositor, even one killed with SIGKILL): it releases the device and goes. SIGPIPE is
/// ignored: a reader gone is a failed write the loop ends on, not an end mid-write. (The handler is
/// C: nothing in a signal handler may touch Swift's runtime.)
public enum Termination {
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    /// Readable once SIGTERM (or SIGINT) came; nil before `install`.
    public static var descriptor: FileDescriptor? {
        readEnd >= 0 ? FileDescriptor(rawValue: readEnd) : nil
    }

    /// SIGTERM (or SIGINT) has come: work that would wait longer (the rest of a slow reading)
    /// is not begun.
    public static var requested: Bool { glue_termination_requested() != 0 }

    public static func install(grace: UInt32, withParent: Bool) {
        readEnd = glue_termination_install(grace, withParent ? 1 : 0)
    }
}

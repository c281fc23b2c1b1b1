import Glibc

/// An exclusive advisory lock (flock) on a small file of its own, held by the writers of a file
/// that several processes read, change and write back: two sessions of one user and the CLI each
/// merge state.toml with what is on disk, and without the lock one rename could land between
/// another's read and its rename, losing what the first wrote.
public struct FileLock {
    public let path: String
    public init(path: String) { self.path = path }

    /// How long a writer waits for the lock before it writes without it. A holder reads the file
    /// through a helper that may take up to 5 s (`PluginInputsReader.timeout`), then writes and
    /// flushes a few lines: a lock held longer belongs to a stuck process. A compositor that is
    /// ending waits less (`StateSaver`).
    public static let longestWait = 7.0

    /// Whether the lock was had, and if not, why.
    public enum Outcome: Sendable, Hashable {
        case locked
        /// The lock file could not be opened (a file of another user's, a read-only directory).
        case cannotOpen(SystemError)
        /// Another writer held it for the whole wait.
        case heldTooLong
        /// Another writer holds it and is stopped (SIGSTOP, a debugger): it will not let go.
        case holderStopped(pid: Int32)
        /// The waiter gave up (it is ending).
        case gaveUp

        public var locked: Bool { self == .locked }
    }

    /// Runs `body` holding the lock. The lock is waited for `wait` seconds at most, and not at
    /// all once its holder is seen stopped or `giveUp` says so (polled while waiting); `body` runs
    /// all the same (the write matters more).
    public func holding<T>(waitingAtMost wait: Double = longestWait, giveUp: () -> Bool = { false },
                           _ body: () throws -> T) rethrows -> (result: T, outcome: Outcome) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return (try body(), .cannotOpen(SystemError(operation: "open", errno: errno))) }
        defer { Glibc.close(fd) }
        let deadline = monotonicSeconds() + wait
        var outcome: Outcome = flock(fd, LOCK_EX | LOCK_NB) == 0 ? .locked : .heldTooLong
        var nextLook = monotonicSeconds()
        // flock has no timeout: try again every few milliseconds until the deadline.
        while outcome == .heldTooLong, errno == EWOULDBLOCK || errno == EINTR, monotonicSeconds() < deadline {
            if giveUp() {
                outcome = .gaveUp
                break
            }
            if monotonicSeconds() >= nextLook {
                nextLook = monotonicSeconds() + Self.lookEvery
                if let pid = Self.stoppedHolder(of: fd) {
                    outcome = .holderStopped(pid: pid)
                    break
                }
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { outcome = .locked }
        }
        // Closing the descriptor releases the lock.
        return (try body(), outcome)
    }

    /// How often a waiter looks whether the holder is stopped (s).
    static let lookEvery = 0.1

    /// The process that holds the flock on `fd`'s file, if it is stopped: /proc/locks names the
    /// holder by device and inode, /proc/PID/stat says its state ('T' stopped, 't' traced).
    static func stoppedHolder(of fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let key = String(major, radix: 16).leftPadded(to: 2) + ":" + String(minor, radix: 16).leftPadded(to: 2) + ":" + String(info.st_ino)
        guard let locks = readSmallFile("/proc/locks", limit: 1 << 20) else { return nil }
        for line in locks.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 1234 00:2a:5678 0 EOF"; a waiter's line has "->" after the number.
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == key, let pid = Int32(fields[4]) else { continue }
            if let state = stateOfProcess(pid), state == "T" || state == "t" { return pid }
        }
        return nil
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

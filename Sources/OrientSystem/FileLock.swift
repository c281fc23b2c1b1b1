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

    /// Runs `body` holding the lock. `locked` is false when the lock file could not be opened or the
    /// lock was not had within `wait` seconds; `body` runs all the same (the write matters more).
    public func holding<T>(waitingAtMost wait: Double = longestWait, _ body: () throws -> T) rethrows -> (result: T, locked: Bool) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return (try body(), false) }
        defer { Glibc.close(fd) }
        let deadline = monotonicSeconds() + wait
        var locked = flock(fd, LOCK_EX | LOCK_NB) == 0
        // flock has no timeout: try again every few milliseconds until the deadline.
        while !locked, errno == EWOULDBLOCK || errno == EINTR, monotonicSeconds() < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
            locked = flock(fd, LOCK_EX | LOCK_NB) == 0
        }
        // Closing the descriptor releases the lock.
        return (try body(), locked)
    }
}

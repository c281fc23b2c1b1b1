import OrientCore
import OrientSystem

/// Writes state.toml atomically: a temporary file, flushed, renamed over the old one, under the
/// lock that every writer of it holds while it reads, merges and writes.
public struct StateFile {
    public let directory: String
    public init(directory: String) { self.directory = directory }
    public var path: String { directory + "/" + PersistentState.fileName }

    /// Writes what `make` returns (nil: nothing), holding the writers' lock while it runs (it reads
    /// the file as it is now) and while the file is replaced; waiting for the lock `wait` seconds
    /// at most, and not once `giveUp` says so. Succeeds with how the lock went. Every writer of the
    /// file saves through this: the plugin's and the daemon's saver, and the CLI's `lock` with
    /// nothing running.
    public func save(waitingAtMost wait: Double = FileLock.longestWait, giveUp: () -> Bool = { false },
                     _ make: () throws -> PersistentState?) rethrows -> Result<FileLock.Outcome, Problem>
    {
        if case .failure(let error) = makeDirectories(directory) { return .failure(Problem("cannot create \(directory): \(error.reason)")) }
        let (written, outcome) = try lock.holding(waitingAtMost: wait, giveUp: giveUp) {
            guard let state = try make() else { return Result<Void, Problem>.success(()) }
            return writeFileAtomically(path, Array(state.fileText.utf8)).mapError { Problem("cannot write \(path): \($0.reason)") }
        }
        return written.map { outcome }
    }

    public var lock: FileLock { FileLock(path: directory + "/" + PersistentState.lockFileName) }

    /// What a writer that went without the lock says, for each way it can: nil when it was had.
    public func withoutLock(_ outcome: FileLock.Outcome) -> String? {
        switch outcome {
        case .locked: nil
        case .cannotOpen(let error): "cannot open \(lock.path) (\(error.reason)\(error.permissionDenied ? ": another user's file?" : "")): saved without the writers' lock"
        case .heldTooLong: "saved without the writers' lock: another writer held it longer than \(Int(FileLock.longestWait)) s"
        case .holderStopped(let pid): "saved without the writers' lock: the process holding it (pid \(pid)) is stopped"
        case .gaveUp: "saved without the writers' lock: another writer held it while this one ended"
        }
    }
}

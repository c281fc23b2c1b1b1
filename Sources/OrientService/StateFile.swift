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
    /// at most. Succeeds with whether the lock was had. Every writer of the file saves through
    /// this: the plugin's and the daemon's saver, and the CLI's `lock` with nothing running.
    public func save(waitingAtMost wait: Double = FileLock.longestWait, _ make: () throws -> PersistentState?) rethrows
        -> Result<Bool, Problem>
    {
        if case .failure(let error) = makeDirectories(directory) { return .failure(Problem("cannot create \(directory): \(error.reason)")) }
        let (written, locked) = try FileLock(path: directory + "/" + PersistentState.lockFileName).holding(waitingAtMost: wait) {
            guard let state = try make() else { return Result<Void, Problem>.success(()) }
            return writeFileAtomically(path, Array(state.fileText.utf8)).mapError { Problem("cannot write \(path): \($0.reason)") }
        }
        return written.map { locked }
    }
}

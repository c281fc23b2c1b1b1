import OrientCore
import OrientSystem

/// Writes state.toml atomically: a temporary file, flushed, renamed over the old one.
public struct StateFile {
    public let directory: String
    public init(directory: String) { self.directory = directory }
    public var path: String { directory + "/state.toml" }

    public func save(_ state: PersistentState) -> Result<Void, Problem> {
        if case .failure(let error) = makeDirectories(directory) { return .failure(Problem("cannot create \(directory): \(error.reason)")) }
        return writeFileAtomically(path, Array(state.fileText.utf8)).mapError { Problem("cannot write \(path): \($0.reason)") }
    }
}

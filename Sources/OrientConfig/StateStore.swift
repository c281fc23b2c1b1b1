import OrientCore
import OrientSystem
import TOMLKit

/// Reads `state.toml` in the state directory (every writer saves through OrientService's
/// `StateFile`, under the writers' lock).
///
/// A missing file is the default state; a corrupt or unreadable one is the default state plus a
/// warning — never a crash, never an error that stops the caller.
public struct StateStore: Sendable {
    public let directory: String
    public let shield: ParserShield
    public var file: String { directory + "/" + PersistentState.fileName }

    public init(directory: String, shield: ParserShield = NoParserShield()) {
        self.directory = directory
        self.shield = shield
    }

    /// The largest state file read: the state is two short lines.
    public static let largestFile = 64 << 10

    public func load() -> (state: PersistentState, warnings: [String]) {
        let text: String
        switch UserFile.read(file, limit: Self.largestFile) {
        case .success(let read):
            text = read
        case .failure(.missing):
            return (PersistentState(), [])
        case .failure(.binary):
            return (PersistentState(), ["\(file): the saved state is corrupt (binary data); using defaults"])
        case .failure(let problem):
            return (PersistentState(), ["\(file): cannot read the saved state: \(problem.reason); using defaults"])
        }
        // TOMLKit hands the text to C++ as a C string: a NUL byte would silently cut it short.
        guard !text.utf8.contains(0), TOMLHeaderGuard.firstUnsafeHeader(in: text) == nil else {
            return (PersistentState(), ["\(file): the saved state is corrupt (binary data); using defaults"])
        }
        switch shield.attempt({ _ = try? TOMLTable(string: text) }) {
        case .completed:
            break
        case .crashed:
            return (PersistentState(), ["\(file): the saved state crashes the TOML parser; using defaults"])
        case .tookTooLong(let seconds):
            return (PersistentState(), ["\(file): the TOML parser had not finished the saved state after \(Int(seconds)) s; using defaults"])
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch {
            return (PersistentState(), ["\(file): the saved state is corrupt; using defaults"])
        }
        var state = PersistentState()
        var warnings: [String] = []
        if let v = table["lock"] {
            if let s = v.string, let spec = MaskSpec(parsing: s) { state.lock = spec } else {
                warnings.append("\(file): ignoring an unreadable 'lock'")
            }
        }
        if let v = table["felt"] {
            if let s = v.string, let o = Orientation(rawValue: s) { state.lastFelt = o } else {
                warnings.append("\(file): ignoring an unreadable 'felt'")
            }
        }
        return (state, warnings)
    }
}

import ArgumentParser
import FoundationEssentials
import OrientConfig
import OrientCore
import OrientService
import OrientSystem

/// `lock`, `unlock`, `toggle`: to the running compositor, or, with none running, to the saved
/// state (applied at its next start).
struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock the screen to some orientations, or to the one it shows now.",
        discussion: """
            ORIENTATIONS are orientation words (\(MaskWord.allowedList)), several of which add up; \
            `current` locks to what the screen shows now. The lock is kept across restarts. With no \
            compositor running, it is saved and applies when one starts.
            """)

    @Argument(help: "Orientation words, or current.",
              completion: .list(MaskWord.allCases.map(\.rawValue) + ["current"]))
    var orientations: [String]

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if orientations == ["current"] { return }
        guard MaskSpec(parsing: orientations.joined(separator: ",")) != nil else {
            throw ValidationError("cannot lock to '\(orientations.joined(separator: " "))': use \(MaskWord.allowedList), or current")
        }
    }

    func run() throws {
        let spec = MaskSpec(parsing: orientations.joined(separator: ","))
        let request: ControlCommand = spec.map { .lock($0) } ?? .lockCurrent
        try runLockCommand(request, connection)
    }
}

struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Let the screen follow the device again.")
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try runLockCommand(.unlock, connection) }
}

struct Toggle: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock to the orientation shown now, or unlock if locked (for a key binding or a bar button).")
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try runLockCommand(.toggle, connection) }
}

/// Sends a lock command; with no compositor running, changes the saved state instead.
private func runLockCommand(_ command: ControlCommand, _ connection: ConnectionOptions) throws {
    switch ControlClient.connect(connection) {
    case .success(let client):
        do {
            let (status, _) = try client.ask(.command(command))
            let shown = status.panels.map { "\($0.name) shows \($0.shown.rawValue)" }.joined(separator: ", ")
            print((status.lock.map { "Locked to \($0)." } ?? "Unlocked: the screen follows the device.")
                  + (shown.isEmpty ? "" : " \(shown)."))
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    case .failure(let why):
        // Only when nothing runs: a compositor that is there but unreachable keeps its own state.
        guard case .notRunning = why else {
            printError("\(why)")
            throw ExitCode(1)
        }
        try saveOffline(command, because: why)
    }
}

private func saveOffline(_ command: ControlCommand, because why: ControlClient.Failure) throws {
    let paths = XDGPaths(environment: ProcessInfo.processInfo.environment)
    let store = StateStore(directory: paths.stateDirectory, shield: ForkedParseShield())
    // A session starting meanwhile may save too: read and write under the writers' lock, as it does.
    var saved: PersistentState?
    let outcome = try StateFile(directory: paths.stateDirectory).save { () throws -> PersistentState? in
        var (state, warnings) = store.load()
        warnings.forEach(printError)
        // With nothing running, what is shown is taken to be the last orientation the device was held in.
        switch command.lockChange(from: state.lock, shown: state.lastFelt) {
        case .set(let lock): state.lock = lock
        case .nothingShown:
            printError("\(why) Nothing was saved either: there is no last orientation to lock to.")
            throw ExitCode(1)
        case .none: return nil
        }
        saved = state
        return state
    }
    let lock: FileLock.Outcome
    switch outcome {
    case .failure(let problem):
        printError("\(why) Saving the lock in \(store.file) failed too: \(problem)")
        throw ExitCode(1)
    case .success(let had): lock = had
    }
    if let saved {
        print("\(why) " + (saved.lock.map { "The lock to \($0) is saved in \(store.file) and applies when it starts." }
                              ?? "The lock is removed from \(store.file); the screen follows the device when it starts."))
    }
    if let said = StateFile(directory: paths.stateDirectory).withoutLock(lock) {
        printError("\(store.file): \(said); a session starting now may not see the change")
    }
}

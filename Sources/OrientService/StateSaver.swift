import OrientCore
import OrientSystem

/// Writes state.toml on a thread of its own, so that a save (an fsync on a slow disk) never
/// delays a rotation on the compositor's thread. Only the latest state is written: saves asked
/// for while one is running collapse into one, and so do those asked for within `settleSeconds` of
/// the first: the turn that asks for a save is still being drawn then, and on a machine with few
/// cores the writing thread would take the CPU from the compositor's first frame of it. Failures
/// come back to the event loop through a pipe and are logged there (a compositor's log handler
/// need not be thread-safe). What it writes is merged with what the file holds then (read through
/// `readDisk`, on that thread, under the writers' lock): only what this session changed replaces
/// what is there.
public final class StateSaver: @unchecked Sendable {
    private let file: StateFile
    /// The file's state now (nil: it could not be read, then this session's state is written whole,
    /// and that is said).
    private let readDisk: () -> PersistentState?
    /// The state this session last knew: read at start, then each one it asked to save. Only the
    /// writing thread touches it.
    private var known: PersistentState
    private let monitor = Monitor()
    // Guarded by `monitor`.
    private var pending: PersistentState?
    private var stopping = false
    /// When `finish` began (a save in flight then waits `endingLockWait` more for the lock at most).
    private var stoppingSince: Double?
    /// What was last said about saving without the lock: said once while it lasts, not each save.
    private var lastWithoutLock: String?
    private var failures: [String] = []

    private var thread: WorkerThread?
    /// Written by the thread after a failure; read on the event loop.
    private var failurePipe: (read: FileDescriptor, write: FileDescriptor)?
    private var failureSource: LoopSource?

    public init(file: StateFile, loop: OpaquePointer?, known: PersistentState = PersistentState(),
                readDisk: @escaping () -> PersistentState? = { nil }) {
        self.file = file
        self.known = known
        self.readDisk = readDisk
        if case .success(let pipe) = FileDescriptor.pipe(), case .success = pipe.read.setNonBlocking(),
           case .success = pipe.write.setNonBlocking() {
            failurePipe = pipe
            failureSource = LoopSource.readable(pipe.read.rawValue, on: loop) { [unowned self] _ in logFailures() }
        }
        // Unowned and unchecked: the thread runs until `finish` has joined it, which deinit
        // calls too, while the object is already being taken apart.
        thread = WorkerThread.start { [unowned(unsafe) self] in run() }
        if thread == nil { Log.error("cannot start the thread that saves the state; saving on the compositor's thread") }
    }

    /// Queues `state` to be written; returns at once.
    public func save(_ state: PersistentState) {
        guard thread != nil else {
            // On the compositor's thread: another writer's lock is waited on only briefly.
            write(state, lockWait: Self.endingLockWait).forEach(Log.error)
            return
        }
        monitor.locked {
            pending = state
            monitor.signal()
        }
    }

    /// Writes what is still pending, stops the thread and waits for it (at destroy).
    public func finish() {
        if let thread {
            monitor.locked {
                stopping = true
                stoppingSince = monotonicSeconds()
                monitor.signal()
            }
            thread.join()
            self.thread = nil
        }
        logFailures()
        failureSource?.remove()
        failureSource = nil
        if let failurePipe {
            failurePipe.read.close()
            failurePipe.write.close()
        }
        failurePipe = nil
    }

    deinit {
        finish()
    }

    /// How long a save waits for others (and for the frame of the turn that asked for it).
    static let settleSeconds = 0.1
    /// How long a save made while the compositor waits for it waits for the writers' lock.
    static let endingLockWait = 0.5

    private func run() {
        while true {
            let (state, stop): (PersistentState?, Bool) = monitor.locked {
                while pending == nil, !stopping { monitor.wait() }
                let deadline = monotonicSeconds() + Self.settleSeconds
                while !stopping, monitor.wait(until: deadline) {}
                defer { pending = nil }
                return (pending, stopping)
            }
            // While the compositor ends (it waits for this), another writer's lock is waited on
            // only briefly.
            state.map { write($0, lockWait: stop ? Self.endingLockWait : FileLock.longestWait) }?.forEach(report)
            if stop, state == nil { return }
        }
    }

    /// Hands a line to the event loop, which logs it.
    private func report(_ line: String) {
        monitor.locked { failures.append(line) }
        if let failurePipe { _ = [UInt8(1)].withUnsafeBytes { failurePipe.write.write($0) } }
    }

    /// Whether a save waiting for the lock should stop waiting: the compositor is ending, and
    /// has waited `endingLockWait` for it.
    private func ending() -> Bool {
        monitor.locked { stoppingSince.map { monotonicSeconds() >= $0 + Self.endingLockWait } ?? false }
    }

    /// `state` merged with the file as it is now, written; what there is to log about it.
    private func write(_ state: PersistentState, lockWait: Double) -> [String] {
        defer { known = state }
        var unread = false
        let outcome = file.save(waitingAtMost: lockWait, giveUp: ending) {
            guard let onDisk = readDisk() else {
                unread = true
                return state
            }
            return state.merged(known: known, onDisk: onDisk)
        }
        var lines = unread ? ["could not read \(file.path) before saving it: wrote this session's state whole"] : []
        switch outcome {
        case .failure(let why):
            lines.append("cannot save the state: \(why)")
        case .success(let lock):
            // Said once while the cause lasts: a lock file of another user's fails every save.
            let said = file.withoutLock(lock).map { "\($0); what another session saved at that moment may be lost" }
            if let said, said != lastWithoutLock { lines.append(said) }
            lastWithoutLock = said
        }
        return lines
    }

    /// On the event loop: logs what the thread could not save.
    private func logFailures() {
        var drain = [UInt8](repeating: 0, count: 64)
        while let failurePipe, case .success(let n) = drain.withUnsafeMutableBytes({ failurePipe.read.read(into: $0) }), n > 0 {}
        let lines = monitor.locked {
            defer { failures = [] }
            return failures
        }
        lines.forEach(Log.error)
    }
}

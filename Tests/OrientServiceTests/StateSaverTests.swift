import Glibc
import OrientCore
import OrientService
import OrientSystem
import TestSupport
import Testing

extension OnTheEventLoop {
    /// The state saver's thread, with its failures brought back to a real event loop.
    @Suite final class StateSaverTests {
        let loop: EventLoop
        let directory: String

        init() throws {
            loop = try EventLoop()
            directory = try makeTemporaryDirectory()
        }

        deinit { removeTree(directory) }

        @Test func theLastStateAskedForIsOnDiskAfterFinish() throws {
            let file = StateFile(directory: directory + "/wlr-orient")
            let saver = StateSaver(file: file, loop: loop.loop)
            let last = PersistentState(lock: MaskSpec(parsing: "portrait"), lastFelt: .bottomUp)
            for felt in [Orientation.normal, .leftUp, .rightUp] { saver.save(PersistentState(lastFelt: felt)) }
            saver.save(last)
            saver.finish()
            #expect(readFile(file.path) == last.fileText)
            #expect(access(file.path + ".tmp", F_OK) != 0, "the temporary file stayed")
        }

        /// Two sessions of one user: what one changed survives what the other saves after it.
        @Test func aSaveWritesOnlyWhatThisSessionChangedOverWhatTheFileHoldsNow() throws {
            let file = StateFile(directory: directory + "/wlr-orient")
            let atStart = PersistentState(lastFelt: .normal)
            // Another session has locked the panel since this one read the file.
            var onDisk = PersistentState(lock: MaskSpec(parsing: "portrait"), lastFelt: .normal)
            let saver = StateSaver(file: file, loop: loop.loop, known: atStart) { onDisk }
            saver.save(PersistentState(lastFelt: .leftUp))
            saver.finish()
            #expect(readFile(file.path) == PersistentState(lock: MaskSpec(parsing: "portrait"), lastFelt: .leftUp).fileText)
            // This session unlocks: its change wins over the file's lock.
            onDisk = PersistentState(lock: MaskSpec(parsing: "portrait"), lastFelt: .rightUp)
            let second = StateSaver(file: file, loop: loop.loop, known: PersistentState(lock: MaskSpec(parsing: "landscape"))) { onDisk }
            second.save(PersistentState())
            second.finish()
            #expect(readFile(file.path) == PersistentState(lastFelt: .rightUp).fileText)
        }

        /// Another session's save cannot land between this one's read and its rename.
        @Test func theFileIsReadAndReplacedUnderTheWritersLock() throws {
            let file = StateFile(directory: directory + "/wlr-orient")
            let lockPath = file.directory + "/" + PersistentState.lockFileName
            var anotherWriterGotIn: Bool?
            let saver = StateSaver(file: file, loop: loop.loop) {
                let fd = open(lockPath, O_RDWR | O_CLOEXEC)
                anotherWriterGotIn = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0
                if fd >= 0 { close(fd) }
                return PersistentState()
            }
            saver.save(PersistentState(lastFelt: .leftUp))
            saver.finish()
            #expect(anotherWriterGotIn == false)
            #expect(readFile(file.path) == PersistentState(lastFelt: .leftUp).fileText)
        }

        /// Another process holds the writers' lock: a child that takes it, then stops itself
        /// (`stop`) or waits for ever. Killed when the test is done with it.
        private func holdLock(_ path: String, stop: Bool) -> pid_t {
            let pid = fork()
            if pid == 0 {
                // Only async-signal-safe calls in the child of a threaded process.
                let fd = open(path, O_RDWR | O_CREAT, 0o600)
                _ = flock(fd, LOCK_EX)
                if stop { _ = kill(getpid(), SIGSTOP) }
                while true { pause() }
            }
            var status: Int32 = 0
            if stop {
                _ = waitpid(pid, &status, WUNTRACED)
            } else {
                // Until the child holds it.
                let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
                while flock(fd, LOCK_EX | LOCK_NB) == 0 { _ = flock(fd, LOCK_UN); usleep(1000) }
                close(fd)
            }
            return pid
        }

        private func end(_ pid: pid_t) {
            _ = kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }

        /// A stopped program (SIGSTOP, a debugger) holding the lock never lets go: a save does not
        /// wait for it, says so once, and the end is not held up either.
        @Test func aStoppedHolderOfTheLockDelaysNeitherSavesNorTheEnd() throws {
            let log = LogCapture()
            let file = StateFile(directory: directory + "/wlr-orient")
            _ = makeDirectories(file.directory)
            let holder = holdLock(file.lock.path, stop: true)
            defer { end(holder) }
            let saver = StateSaver(file: file, loop: loop.loop) { PersistentState() }
            let started = monotonicSeconds()
            saver.save(PersistentState(lastFelt: .leftUp))
            #expect(loop.dispatch(until: { readFile(file.path) == PersistentState(lastFelt: .leftUp).fileText }))
            #expect(monotonicSeconds() - started < 1, "a save lagged \(monotonicSeconds() - started) s")
            #expect(loop.dispatch(until: { !log.lines.isEmpty }))
            saver.save(PersistentState(lastFelt: .rightUp))
            let ending = monotonicSeconds()
            saver.finish()
            #expect(monotonicSeconds() - ending < 1, "the end waited \(monotonicSeconds() - ending) s")
            #expect(readFile(file.path) == PersistentState(lastFelt: .rightUp).fileText)
            #expect(log.lines == ["saved without the writers' lock: the process holding it (pid \(holder)) is stopped; what another session saved at that moment may be lost"],
                    "said once, not at each save: \(log.lines)")
        }

        /// A live writer holding the lock is waited for while the session runs, but the end waits
        /// half a second for it at most, even with a save already waiting.
        @Test func theEndWaitsHalfASecondForAWriterHoldingTheLock() throws {
            let log = LogCapture()
            let file = StateFile(directory: directory + "/wlr-orient")
            _ = makeDirectories(file.directory)
            let holder = holdLock(file.lock.path, stop: false)
            defer { end(holder) }
            let saver = StateSaver(file: file, loop: loop.loop) { PersistentState() }
            saver.save(PersistentState(lastFelt: .leftUp))
            usleep(300_000)   // the save is waiting for the lock now
            let ending = monotonicSeconds()
            saver.finish()
            let waited = monotonicSeconds() - ending
            #expect(waited < 1, "the end waited \(waited) s")
            #expect(readFile(file.path) == PersistentState(lastFelt: .leftUp).fileText)
            #expect(log.lines.contains { $0.contains("another writer held it while this one ended") }, "\(log.lines)")
        }

        /// A lock file this user cannot open (another user's) is said once, as what it is.
        @Test func aLockFileThatCannotBeOpenedIsSaidOnceForWhatItIs() throws {
            let log = LogCapture()
            let file = StateFile(directory: directory + "/wlr-orient")
            _ = makeDirectories(file.directory)
            // A directory where the lock file should be: opening it for writing fails (EISDIR).
            #expect(mkdir(file.lock.path, 0o700) == 0)
            let saver = StateSaver(file: file, loop: loop.loop) { PersistentState() }
            for felt in [Orientation.leftUp, .rightUp, .normal] {
                saver.save(PersistentState(lastFelt: felt))
                #expect(loop.dispatch(until: { readFile(file.path) == PersistentState(lastFelt: felt).fileText }))
            }
            saver.finish()
            #expect(log.lines.count == 1, "\(log.lines)")
            #expect(log.lines.first?.hasPrefix("cannot open \(file.lock.path) (Is a directory): saved without the writers' lock") == true, "\(log.lines)")
        }

        @Test func anUnreadableFileIsOverwrittenWithThisSessionsStateAndThatIsSaid() throws {
            let log = LogCapture()
            let file = StateFile(directory: directory + "/wlr-orient")
            let saver = StateSaver(file: file, loop: loop.loop, known: PersistentState(lastFelt: .normal)) { nil }
            let state = PersistentState(lock: MaskSpec(parsing: "landscape"), lastFelt: .bottomUp)
            saver.save(state)
            saver.finish()
            #expect(readFile(file.path) == state.fileText)
            #expect(log.lines == ["could not read \(file.path) before saving it: wrote this session's state whole"])
        }

        @Test func aSaveThatFailsIsLoggedOnTheLoopAndTheFileIsUntouched() throws {
            let log = LogCapture()
            // A file where the directory should be: the save cannot create it.
            try writeFile(directory + "/blocked", "not a directory\n")
            let saver = StateSaver(file: StateFile(directory: directory + "/blocked/wlr-orient"), loop: loop.loop)
            saver.save(PersistentState(lastFelt: .leftUp))
            #expect(loop.dispatch(until: { !log.lines.isEmpty }), "the failure never reached the loop")
            #expect(log.lines.count == 1)
            #expect(log.onThisThread == [true], "logged on the saver's own thread, not on the loop")
            #expect(log.lines.first?.hasPrefix("cannot save the state: cannot create \(directory)/blocked/wlr-orient: ") == true, "\(log.lines)")
            saver.finish()
            #expect(readFile(directory + "/blocked") == "not a directory\n")
        }
    }
}

import Glibc
import OrientCore
import OrientService
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

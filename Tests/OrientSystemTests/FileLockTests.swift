import Foundation
import Glibc
import OrientSystem
import Testing
import TestSupport

/// The writers' lock of a shared file, against the kernel's flock between two open descriptions
/// (as two processes have them).
@Suite final class FileLockTests {
    let directory: String
    var path: String { directory + "/.shared.lock" }

    init() throws { directory = try makeTemporaryDirectory() }
    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Takes the lock as another process would, without waiting: nil when someone else holds it.
    func takeElsewhere() -> Int32? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if fd >= 0 { close(fd) }
            return nil
        }
        return fd
    }

    @Test func noOtherWriterGetsTheLockWhileTheBodyRuns() throws {
        let (other, outcome) = FileLock(path: path).holding { takeElsewhere() }
        #expect(outcome == .locked)
        #expect(other == nil, "another writer took the lock while it was held")
        let after = try #require(takeElsewhere(), "the lock outlived the body")
        close(after)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func aWriterWaitsUntilTheHolderLetsGo() throws {
        let held = try #require(takeElsewhere())
        let monitor = Monitor()
        var entered = false
        var enteredLocked = false
        let waiter = try #require(WorkerThread.start {
            let (_, outcome) = FileLock(path: self.path).holding(waitingAtMost: 30) { monitor.locked { entered = true } }
            monitor.locked { enteredLocked = outcome.locked }
        })
        // Whenever the waiter looks, the holder still has it: the body cannot have run.
        #expect(monitor.locked { !entered }, "the body ran while another writer held the lock")
        close(held)
        waiter.join()
        #expect(monitor.locked { entered && enteredLocked })
    }

    @Test func aLockHeldTooLongIsPassedOverAndSaid() throws {
        let held = try #require(takeElsewhere())
        defer { close(held) }
        let (ran, outcome) = FileLock(path: path).holding(waitingAtMost: 0.05) { true }
        #expect(ran, "the body must run all the same")
        #expect(outcome == .heldTooLong)
    }

    @Test func aLockFileThatCannotBeMadeStillRunsTheBody() {
        let (ran, outcome) = FileLock(path: directory + "/missing/.lock").holding { true }
        guard case .cannotOpen(let error) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(ran && error.isNotFound)
    }

    @Test func aWaiterThatGivesUpStopsWaitingAtOnce() throws {
        let held = try #require(takeElsewhere())
        defer { close(held) }
        let started = monotonicSeconds()
        let (ran, outcome) = FileLock(path: path).holding(waitingAtMost: 30, giveUp: { monotonicSeconds() - started > 0.1 }) { true }
        #expect(ran && outcome == .gaveUp)
        #expect(monotonicSeconds() - started < 0.5)
    }
}

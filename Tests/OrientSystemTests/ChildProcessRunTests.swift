import OrientSystem
import Testing

/// A program run for its output (the config helper, systemd-hwdb and udevadm, ldd): each way it
/// can go wrong is its own failure, and none holds the caller past the deadline.
@Suite struct ChildProcessRunTests {
    @Test func itsOutputOnceItHasEndedAndExitedWell() throws {
        let output = try ChildProcess.run(["sh", "-c", "printf 'a\\nb\\n'"], timeout: 10).get()
        #expect(String(decoding: output, as: UTF8.self) == "a\nb\n")
    }

    @Test func anOutputThatNeverEndsIsStoppedAtTheDeadline() {
        switch ChildProcess.run(["sleep", "30"], timeout: 0.2) {
        case .success(let output): Issue.record("an answer: \(output)")
        case .failure(let failure):
            guard case .unfinished(let seconds) = failure else { Issue.record("\(failure)"); return }
            #expect(seconds == 0.2)
            #expect(failure.description == "no complete answer within 0.2 s; stopped it")
        }
    }

    @Test func aChildThatClosedItsOutputButStaysIsKilled() {
        switch ChildProcess.run(["sh", "-c", "exec sleep 30 >&-"], timeout: 0.2) {
        case .success(let output): Issue.record("an answer: \(output)")
        case .failure(let failure):
            guard case .stayed = failure else { Issue.record("\(failure)"); return }
            #expect(failure.description == "it closed its output but did not exit within 0.2 s; stopped it")
        }
    }

    @Test func aFailedExitIsSaidWithItsStatus() {
        switch ChildProcess.run(["sh", "-c", "echo partial; exit 3"], timeout: 10) {
        case .success(let output): Issue.record("an answer: \(output)")
        case .failure(let failure):
            guard case .failed(let status) = failure else { Issue.record("\(failure)"); return }
            #expect(status == 3 << 8)
            #expect(failure.description == "it failed with exit status 3")
        }
    }

    @Test func anAnswerPastTheLargestIsStopped() {
        switch ChildProcess.run(["sh", "-c", "exec yes"], timeout: 10, largest: 1 << 20) {
        case .success(let output): Issue.record("an answer of \(output.count) bytes")
        case .failure(let failure):
            guard case .tooLarge = failure else { Issue.record("\(failure)"); return }
            #expect(failure.description == "its answer passed 1 MiB; stopped it")
        }
    }

    @Test func aProgramThatIsNotThereCannotStart() {
        switch ChildProcess.run(["/nonexistent/wlr-orient-test-program"], timeout: 10) {
        case .success(let output): Issue.record("an answer: \(output)")
        case .failure(let failure):
            #expect(failure.description == "cannot start it (No such file or directory)")
        }
    }
}

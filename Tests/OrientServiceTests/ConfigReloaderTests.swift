import Glibc
import OrientCore
import OrientService
import OrientSystem
import TestSupport
import Testing

extension OnTheEventLoop {
    /// The config reloader on a real event loop, with a real helper program in place of
    /// `wlr-orient plugin-inputs` (a shell script that prints a prepared answer): the answer comes
    /// through the loop, a bad one is a problem said once, and reloads asked for during one collapse.
    @Suite final class ConfigReloaderTests {
        let loop: EventLoop
        let directory: String
        var results: [Result<PluginInputs, Problem>] = []

        init() throws {
            loop = try EventLoop()
            directory = try makeTemporaryDirectory()
        }

        deinit { removeTree(directory) }

        /// A helper that prints `answer` (kept in a file, so that a test can change it between runs)
        /// and counts its runs. It is run by /bin/sh rather than executed: a script just written
        /// can be "busy" while a child forked meanwhile elsewhere in the test process holds it.
        func helper(answer: String) throws -> String {
            try writeFile(directory + "/answer", answer)
            let script = directory + "/helper"
            try writeFile(script, "#!/bin/sh\necho run >>'\(directory)/runs'\ncat '\(directory)/answer'\n", mode: 0o755)
            return script
        }

        var runs: Int { (readFile(directory + "/runs") ?? "").split(separator: "\n").count }

        /// A reloader that runs the helper script (or, given `program`, that program itself).
        func reloader(_ helper: String, program: String? = nil) -> ConfigReloader {
            let arguments = program.map { [$0, "plugin-inputs"] } ?? ["/bin/sh", helper, "plugin-inputs"]
            return ConfigReloader(loop: loop.loop, arguments: arguments) { [unowned self] in results.append($0) }
        }

        func sampleInputs() -> PluginInputs {
            var inputs = PluginInputs()
            inputs.stateDirectory = directory + "/state with\ttab"
            inputs.state = PersistentState(lock: MaskSpec(parsing: "landscape"), lastFelt: .leftUp)
            inputs.messages = ["one message"]
            return inputs
        }

        @Test func theHelpersAnswerComesThroughTheLoop() throws {
            let reloader = reloader(try helper(answer: sampleInputs().encoded()))
            defer { reloader.stop() }
            reloader.reload()
            #expect(results.isEmpty, "a reload must not wait for its helper")
            #expect(loop.dispatch(until: { !self.results.isEmpty }))
            #expect(try results.first?.get() == sampleInputs())
        }

        /// A script writing the config a hundred times a second: reads are spaced, and the last
        /// version written is the one read.
        @Test func reloadsAskedForAHundredTimesASecondAreCoalescedAndTheLastIsRead() throws {
            let script = try helper(answer: PluginInputs().encoded())
            let reloader = reloader(script)
            defer { reloader.stop() }
            let started = monotonicSeconds()
            for n in 0..<100 {
                if n == 99 { try writeFile(directory + "/answer", sampleInputs().encoded()) }
                reloader.reload()
                loop.dispatch(for: max(0, started + Double(n + 1) / 100 - monotonicSeconds()))
            }
            #expect(loop.dispatch(until: { (try? self.results.last?.get()) == self.sampleInputs() }, within: 5),
                    "the last version written was read")
            let seconds = monotonicSeconds() - started
            #expect(runs <= Int(seconds / ConfigReloader.spacing) + 1, "\(runs) reads in \(seconds) s")
            #expect(runs >= 2)
        }

        @Test func anUnreadableAnswerIsAProblemAndTheNextReloadReadsAgain() throws {
            let reloader = reloader(try helper(answer: "garbage\n"))
            defer { reloader.stop() }
            reloader.reload()
            #expect(loop.dispatch(until: { !self.results.isEmpty }))
            guard case .failure(let problem)? = results.first else { Issue.record("garbage was read: \(results)"); return }
            #expect(problem.description.hasPrefix("/bin/sh plugin-inputs: unreadable answer (line 1: "), "\(problem)")

            try writeFile(directory + "/answer", sampleInputs().encoded())
            reloader.reload()
            #expect(loop.dispatch(until: { self.results.count == 2 }))
            #expect(try results.last?.get() == sampleInputs())
        }

        @Test func reloadsAskedForDuringOneRunOnceAfterIt() throws {
            let reloader = reloader(try helper(answer: sampleInputs().encoded()))
            defer { reloader.stop() }
            // The first helper cannot have been read yet (only the loop reads it): the other two
            // wait, and come as one.
            reloader.reload()
            reloader.reload()
            reloader.reload()
            #expect(loop.dispatch(until: { self.results.count == 2 }))
            loop.dispatch(for: 1)
            #expect(results.count == 2)
            #expect(runs == 2)
        }

        @Test func aHelperThatCannotStartIsAProblemAtOnce() throws {
            let missing = directory + "/no-such-helper"
            let reloader = reloader("", program: missing)
            defer { reloader.stop() }
            reloader.reload()
            #expect(loop.dispatch(until: { !self.results.isEmpty }))
            guard case .failure(let problem)? = results.first else { Issue.record("\(results)"); return }
            #expect(problem.description.hasPrefix("\(missing) plugin-inputs: "), "\(problem)")
        }

        @Test func nothingStartsAfterStop() throws {
            let reloader = reloader(try helper(answer: sampleInputs().encoded()))
            reloader.stop()
            reloader.reload()
            loop.dispatch(for: 1)
            #expect(results.isEmpty)
            #expect(runs == 0)
        }
    }
}

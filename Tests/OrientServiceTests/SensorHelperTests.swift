import Glibc
import OrientCore
import OrientService
import OrientSystem
import TestSupport
import Testing

extension OnTheEventLoop {
    /// The plugin's sensor on a real event loop, with a shell script in place of
    /// `wlr-orient-sensor-feed`: its reports come through the loop with the times it gave, the
    /// requests reach it in order, and a helper that ends, talks nonsense, floods or reads
    /// nothing costs a log line or a restart, never a wait.
    @Suite final class SensorHelperTests {
        let loop: EventLoop
        let directory: String
        var reports: [SensorReport] = []
        let log = LogCapture()
        static let opened = #"{"report": "opened", "at": 1000.25, "device": "iio:device0", "mode": "polled", "limit": null, "scale": 0.5, "#
            + #""matrix": [1, 0, 0, 0, 1, 0, 0, 0, 1], "matrix_source": "identity", "why": "read on the schedule", "#
            + #""description": "iio:device0 (the fake)"}"#
        static let start = #"{"request": "start"}"# + "\n"
        static let stop = #"{"request": "stop"}"# + "\n"
        static func pace(_ seconds: String) -> String { #"{"request": "pace", "seconds": "# + seconds + "}\n" }

        init() throws {
            loop = try EventLoop()
            directory = try makeTemporaryDirectory()
        }

        deinit { removeTree(directory) }

        /// A helper running `body` after counting its run and recording its arguments; its
        /// requests, read with `cat`, land in `requests`. Run by /bin/sh, not executed (a script
        /// just written can be "busy" while a child forked elsewhere in the test process holds it).
        func helper(_ body: String, device: DeviceConfig = DeviceConfig()) throws -> SensorHelper {
            let script = directory + "/helper"
            try writeFile(script, "echo run >>'\(directory)/runs'\necho \"$@\" >'\(directory)/arguments'\n" + body + "\n")
            return SensorHelper(loop: loop.loop, device: device, detection: DetectionConfig(), command: ["/bin/sh", script]) { [unowned self] in
                reports.append($0)
            }
        }

        /// Why the first report said the sensor was lost; nil (and the test fails) if it did not.
        func firstLost() -> String? {
            guard case .lost(let why)? = reports.first else {
                Issue.record("no lost sensor: \(reports)")
                return nil
            }
            return why
        }

        var runs: Int { (readFile(directory + "/runs") ?? "").split(separator: "\n").count }
        var requests: String { readFile(directory + "/requests") ?? "" }
        var keepReading: String { "exec cat >>'\(directory)/requests'" }

        @Test func itsReportsComeThroughTheLoopWithTheirOwnTimes() throws {
            let sensor = try helper("echo '\(Self.opened)'\n"
                                    + #"echo '{"report": "sample", "at": 1000.5, "counts": [3, -4, 5.5], "held": false}'"# + "\n"
                                    + #"echo '{"report": "log", "text": "udev said hello"}'"# + "\n" + keepReading)
            defer { sensor.remove() }
            sensor.start()
            #expect(reports.isEmpty, "starting must not wait for the helper")
            #expect(loop.dispatch(until: { self.reports.count == 3 }))
            guard reports.count == 3, case .opened(let device, let description, let openedAt) = reports[0],
                  case .sample(let raw, let held) = reports[1] else {
                Issue.record("not the reports written: \(reports)")
                return
            }
            #expect(device == Perception.Device(id: "iio:device0", calibration: Calibration(scale: 0.5), mode: .polled,
                                                why: "read on the schedule"))
            #expect(description == "iio:device0 (the fake)")
            #expect(openedAt == 1000.25 && raw.t == 1000.5, "the same numbers as the helper's")
            #expect(raw.x == 3 && raw.y == -4 && raw.z == 5.5 && !held)
            #expect(reports[2] == .log("udev said hello"))
        }

        @Test func theRequestsReachTheHelperInOrderAndTheConfigsDeviceOnItsCommandLine() throws {
            var device = DeviceConfig()
            device.sensor = "accel-b"
            device.mountMatrix = MountMatrix([0, 1, 0, -1, 0, 0, 0, 0, 1])
            let sensor = try helper(keepReading, device: device)
            defer { sensor.remove() }
            sensor.start()
            sensor.pace(0.5)
            sensor.pace(nil)
            sensor.stop()
            #expect(loop.dispatch(until: { self.requests == Self.start + Self.pace("0.5") + Self.pace("null") + Self.stop }), "requests: \(requests)")
            #expect(readFile(directory + "/arguments") == "--wire json --active-hz \(SamplingPlan(DetectionConfig()).activeHz) --sensor accel-b --mount-matrix 0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        }

        @Test func aHelperThatEndsIsALostSensorAndANewOneGetsTheSameRequests() throws {
            // The first run ends at once; the second stays.
            let sensor = try helper("[ \"$(wc -l <'\(directory)/runs')\" -gt 1 ] || exit 3\n" + keepReading)
            defer { sensor.remove() }
            sensor.start()
            sensor.pace(0.25)
            #expect(loop.dispatch(until: { !self.reports.isEmpty }))
            guard let why = firstLost() else { return }
            #expect(why.hasSuffix("; starting it again in 0.2 s"), "\(why)")
            #expect(loop.dispatch(until: { self.runs == 2 && self.requests == Self.start + Self.pace("0.25") }), "runs \(runs), requests \(requests)")
        }

        @Test func aHelperThatCannotBeStartedIsALostSensorTriedAgain() throws {
            let sensor = SensorHelper(loop: loop.loop, device: DeviceConfig(), detection: DetectionConfig(),
                                      command: [directory + "/no-such-helper"]) { [unowned self] in reports.append($0) }
            defer { sensor.remove() }
            sensor.start()
            #expect(reports.count == 1)
            #expect(loop.dispatch(until: { self.reports.count == 2 }, within: 3))
            for report in reports {
                guard case .lost(let why) = report else { Issue.record("not a lost sensor: \(report)"); continue }
                #expect(why.contains("no-such-helper (No such file or directory)"), "\(why)")
            }
        }

        @Test func whatIsNoReportIsLoggedAndSkipped() throws {
            let sensor = try helper("echo 'sample one two'\n"
                                    + #"echo '{"report": "sample", "at": 1, "counts": [2, 3, 4], "held": true}'"# + "\n" + keepReading)
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { !self.reports.isEmpty }))
            guard case .sample(let raw, true)? = reports.first else {
                Issue.record("not the good sample: \(reports)")
                return
            }
            #expect(raw.x == 2)
            #expect(log.lines.contains { $0.hasSuffix("said something that is no report: sample one two") }, "\(log.lines)")
        }

        @Test func aLineWithoutEndStopsTheHelper() throws {
            let sensor = try helper("head -c 70000 /dev/zero | tr '\\\\0' x\nexec sleep 600")
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { !self.reports.isEmpty }))
            guard let why = firstLost() else { return }
            #expect(why.contains("wrote a line longer than 65536 bytes"), "\(why)")
        }

        @Test func aHelperThatReadsNothingIsReplacedNotWaitedFor() throws {
            let sensor = try helper("[ \"$(wc -l <'\(directory)/runs')\" -gt 1 ] || exec sleep 600\n" + keepReading)
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { self.runs == 1 }))
            // Far more than a socket holds: the one it cannot take whole ends the helper at once.
            let started = monotonicSeconds()
            for _ in 0..<100_000 { sensor.pace(0.5) }
            #expect(monotonicSeconds() - started < 5)
            guard let why = firstLost() else { return }
            #expect(why.contains(#"did not take {"request": "pace", "seconds": 0.5} (stuck, or gone)"#), "\(why)")
            // The new one gets the state: reading, at the last pace.
            #expect(loop.dispatch(until: { self.runs == 2 && self.requests == Self.start + Self.pace("0.5") }), "requests \(requests)")
        }

        /// A device read once a second whose helper reports as promised: the deadline moves with
        /// each report and the timer with it, so nothing but the reports wakes the host (the
        /// timer fired every 6 s, a sixth of an idle polled device's wakeups).
        @Test func aHelperThatReportsAsPromisedNeverWakesTheHostForItsDeadline() throws {
            let sample = #"{"report": "sample", "at": 1000.5, "counts": [0, -4, 0], "held": true}"#
            let sensor = try helper("echo '\(Self.opened)'\nwhile true; do echo '\(sample)'; sleep 0.5; done")
            defer { sensor.remove() }
            sensor.start()
            sensor.pace(1)
            #expect(loop.dispatch(until: { self.reports.count >= 2 }))
            let from = sensor.timerWakeups
            loop.dispatch(for: 1.2 * SensorLiveness.margin)
            #expect(sensor.timerWakeups == from, "the timer woke the host \(sensor.timerWakeups - from) times")
            #expect(runs == 1, "and the helper was not taken for a hung one")
        }

        @Test func aHelperThatWritesWithoutPauseLeavesTheLoopItsOtherWork() throws {
            let sensor = try helper(#"exec yes '{"report": "log", "text": "chatter"}'"#)
            defer { sensor.remove() }
            var fired = false
            let other = try #require(LoopSource.timer(on: loop.loop) { fired = true })
            defer { other.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { self.reports.count > 10_000 }))
            other.arm(milliseconds: 1)
            #expect(loop.dispatch(until: { fired }, within: 5), "the loop's other sources must run during a flood")
        }

        /// Removed, the helper gets the end of its input and SIGTERM, on either of which ours
        /// releases the device before it exits (`Termination`); it is not killed.
        @Test func aHelperToldToEndGetsTheEndOfItsInputAndIsNotKilledFirst() throws {
            let release = "echo released >'\(directory)/released'"
            let sensor = try helper("trap \"\(release); exit 0\" TERM\ncat >/dev/null\n" + release)
            sensor.start()
            #expect(loop.dispatch(until: { self.runs == 1 }))
            sensor.remove()
            #expect(loop.dispatch(until: { readFile(self.directory + "/released") == "released\n" }, within: 5),
                    "the helper must be let release the device")
        }

        @Test func replacingTheDeviceStartsANewHelperWithItsCommandLineOnceTheOldOneEnded() throws {
            let sensor = try helper(keepReading)
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { self.requests == Self.start }))
            var device = DeviceConfig()
            device.sensor = "iio:device7"
            sensor.replace(device, DetectionConfig())
            #expect(loop.dispatch(until: { self.runs == 2 && self.requests == Self.start + Self.start }), "requests \(requests)")
            #expect(readFile(directory + "/arguments") == "--wire json --active-hz \(SamplingPlan(DetectionConfig()).activeHz) --sensor iio:device7\n")
            #expect(reports.isEmpty, "a helper stopped on purpose is no lost sensor: \(reports)")
        }

        @Test func aHelperThatDoesNotEndIsKilledAfterItsGraceAndOnlyThenReplaced() throws {
            // The first run ignores the end of its input (a read the kernel does not end).
            let sensor = try helper("[ \"$(wc -l <'\(directory)/runs')\" -gt 1 ] || exec sleep 600\n" + keepReading)
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { self.runs == 1 }))
            var device = DeviceConfig()
            device.sensor = "iio:device7"
            let replaced = monotonicSeconds()
            sensor.replace(device, DetectionConfig())
            #expect(loop.dispatch(until: { self.runs == 2 }, within: SensorLiveness.margin + 5))
            #expect(monotonicSeconds() - replaced >= SensorLiveness.margin - 0.1, "the new helper must wait for the old one's grace")
        }

        /// One that opened a device and then hangs (it ignores its input and SIGTERM, as a helper
        /// stuck in a read) is killed once its reading's promise and the margin have passed,
        /// said once, and replaced; the new one gets the state.
        @Test func aHelperThatHangsIsKilledAndReplacedWithinItsPromise() throws {
            let hang = "trap '' TERM; echo '\(Self.opened)'; exec sleep 600"
            let sensor = try helper("[ \"$(wc -l <'\(directory)/runs')\" -gt 1 ] || { \(hang); }\n" + keepReading)
            defer { sensor.remove() }
            let started = monotonicSeconds()
            sensor.start()
            #expect(loop.dispatch(until: { !self.reports.isEmpty }))
            sensor.pace(0.25)
            let promise = 0.25 + SensorLiveness.margin
            #expect(loop.dispatch(until: { self.reports.count >= 2 }, within: promise + 5))
            let noticed = monotonicSeconds() - started
            #expect(noticed >= promise - 0.1 && noticed < promise + 1.5, "noticed after \(noticed) s")
            guard reports.count == 2, case .lost(let why) = reports[1] else {
                Issue.record("not a lost sensor: \(reports)")
                return
            }
            #expect(why.contains("stopped answering (nothing in 6 s, where its reading promised a report): killed"), "\(why)")
            #expect(loop.dispatch(until: { self.runs == 2 && self.requests == Self.start + Self.pace("0.25") }), "requests \(requests)")
            #expect(reports.count == 2, "said once: \(reports)")
        }

        /// A replacement that hangs as the last one did is replaced without a word (the controller
        /// knows); once the controller starts the sensor afresh, a hang is news again.
        @Test func aHangAgainIsQuietUntilTheSensorIsStartedAfresh() throws {
            let hang = "trap '' TERM; exec sleep 600"
            let sensor = try helper("[ \"$(wc -l <'\(directory)/runs')\" -gt 1 ] || echo '\(Self.opened)'\n" + hang)
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { !self.reports.isEmpty }))
            #expect(loop.dispatch(until: { self.reports.count >= 2 }, within: SensorLiveness.margin + 5))
            guard case .lost(let why)? = reports.last, why.contains("stopped answering") else {
                Issue.record("no hang reported: \(reports)")
                return
            }
            // Started afresh (the controller's status is reset): the next hang is said again.
            sensor.stop()
            sensor.start()
            #expect(loop.dispatch(until: { self.reports.count >= 3 }, within: SensorLiveness.margin + 5), "\(reports)")
            guard reports.count == 3, case .lost(let again) = reports[2] else {
                Issue.record("the hang after a fresh start was not said: \(reports)")
                return
            }
            #expect(again.contains("stopped answering"), "\(again)")
        }

        /// A still device promises nothing: a helper told `pace none` may stay silent for ever.
        @Test func aHelperWhoseDeviceIsStillMayStaySilent() throws {
            let sensor = try helper("echo '\(Self.opened)'\n" + keepReading)
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { !self.reports.isEmpty }))
            sensor.pace(nil)
            let quiet = monotonicSeconds() + SensorLiveness.margin + 1
            #expect(!loop.dispatch(until: { self.reports.count > 1 }, within: quiet - monotonicSeconds()))
            #expect(runs == 1)
        }

        @Test func replacingWithTheSameCommandLineReopensTheDeviceInTheSameHelper() throws {
            let sensor = try helper(keepReading)
            defer { sensor.remove() }
            sensor.start()
            #expect(loop.dispatch(until: { self.requests == Self.start }))
            sensor.replace(DeviceConfig(), DetectionConfig())
            #expect(loop.dispatch(until: { self.requests == Self.start + Self.stop + Self.start }), "requests \(requests)")
            #expect(runs == 1)
        }
    }
}

import OrientCore
import OrientJSON
import OrientSystem

/// The sensor of the plugin and the daemon: `wlr-orient-sensor-feed` (see
/// `OrientSensor.SensorFeed`), a helper process that reads the accelerometer, joined to its host
/// by a socket watched on the host's event loop. Requests go to it and reports come back as one
/// JSON object per line, the reports timed as the sensor timed them (monotonic seconds). The
/// host's loop never waits for it: a helper that cannot take a request
/// at once is replaced, one that ends is reported as a lost sensor and started again after a
/// pause (`RestartBackoff`), one silent past what its reading promised (`SensorLiveness`) is
/// killed and replaced, and one told to end releases the device first (it is killed only if it
/// has not within `endingGrace`).
public final class SensorHelper: SensorControl {
    /// A report line longer than this is no report: the helper is stopped.
    static let longestLine = 64 * 1024
    /// How long a helper told to end (its socket closed) has to release the device and exit: as
    /// long as a HID sensor hub may take to answer (its own grace is the same, `Termination`).
    static let endingGrace = SensorLiveness.margin
    /// How long the host's end waits for its helpers to release the device.
    static let releaseWait = 1.0
    /// Reads of the socket per wakeup, 16 KiB each (see `readable`).
    static let readsPerWakeup = 4

    private let loop: OpaquePointer?
    private let report: (SensorReport) -> Void
    private var arguments: [String]
    private var child: (pid: ProcessID, socket: FileDescriptor)?
    private var source: LoopSource?
    private var timer: LoopSource?
    private var received = LineBuffer()
    private var chunk = [UInt8](repeating: 0, count: 16384)
    /// What the controller asked: reading or not, and the pace (nil until it says one).
    private var running = false
    private var period: Double??
    private var restarts = RestartBackoff()
    /// No helper is started before this (monotonic seconds): the pause after one ended.
    private var restartAt = -Double.infinity
    /// The pause has grown to its longest, and the controller was told so.
    private var reportedLongest = false
    /// The controller was told the sensor is lost, and no device opened since: a replacement
    /// that hangs as the last one did is replaced without a word (the controller knows already).
    private var saidLost = false
    /// Helpers told to end (or that ended) and not yet collected, with when one still running
    /// is killed, and whether it ended on its own (then how is logged).
    private var ending: [(pid: ProcessID, killAt: Double, unexpected: Bool)] = []
    private var badLines = RateLimitedLog()
    /// When the helper must have spoken by.
    private var liveness = SensorLiveness()
    /// When the timer is armed to fire (monotonic seconds); nil when it is not.
    private var timerDue: Double?

    /// The command before the options: `[programPath()]`, or what a test gives.
    private let command: [String]

    public init(loop: OpaquePointer?, device: DeviceConfig, detection: DetectionConfig, command: [String]? = nil,
                report: @escaping (SensorReport) -> Void) {
        self.loop = loop
        self.report = report
        self.command = command ?? [Self.programPath()]
        arguments = Self.arguments(device, detection, command: self.command)
        timer = LoopSource.timer(on: loop) { [unowned self] in timerFired() }
    }

    /// The helper's command line for a device and its detection settings.
    public static func arguments(_ device: DeviceConfig, _ detection: DetectionConfig, command: [String]) -> [String] {
        var args = command + ["--wire", "json", "--active-hz", String(SamplingPlan(detection).activeHz)]
        if let sensor = device.sensor { args += ["--sensor", sensor] }
        if let matrix = device.mountMatrix { args += ["--mount-matrix", matrix.description] }
        if !device.buffered { args += ["--buffered", "false"] }
        return args
    }

    /// `wlr-orient-sensor-feed`, from `$WLR_ORIENT_SENSOR_FEED`, beside this library or in its
    /// prefix's `libexec` (see `companionProgram`).
    public static func programPath() -> String {
        companionProgram("wlr-orient-sensor-feed", variable: "WLR_ORIENT_SENSOR_FEED", prefixDirectory: "libexec")
    }

    /// For a host that is `wlr-orient` by another name (the daemon): `$WLR_ORIENT_SENSOR_FEED`
    /// when set, else this very program, started by the helper's name, which shares its pages.
    public static func ownProgram() -> String {
        environmentValue("WLR_ORIENT_SENSOR_FEED").flatMap { $0.isEmpty ? nil : $0 } ?? PluginInputsReader.thisProgram
    }

    public func start() {
        running = true
        // The controller starts afresh: what it was told before, it no longer shows.
        saidLost = false
        if child == nil { spawnWhenDue() } else { sendStart() }
    }

    public func stop() {
        running = false
        liveness.stop()
        send(.stop)
    }

    /// The same helper opens the device anew when its command line stays (the config changed
    /// the panels or the detector's tolerances); otherwise the old one is told to end (it
    /// releases the device) and the new one starts once it has, for a device can be opened
    /// by one process at a time.
    public func replace(_ device: DeviceConfig, _ detection: DetectionConfig) {
        let new = Self.arguments(device, detection, command: command)
        if new == arguments, child != nil {
            send(.stop)
            if running { sendStart() }
            return
        }
        arguments = new
        end()
        if running { spawnWhenDue() }
    }

    public func pace(_ period: Double?) {
        self.period = .some(period)
        send(.pace(period))
        if child != nil {
            liveness.pace(period, at: monotonicSeconds())
            schedule()
        }
    }

    public func remove() {
        running = false
        end()
        timer?.remove()
        timer = nil
        // No timer is left to apply the grace. The host is ending, and a helper that outlives it
        // is killed with it (`ChildProcess.parentDeathSignal`), which would leave the buffer and
        // motion events on for the next session to find held: each is given a moment to release
        // the device, as it does at once on the end of its input (`releaseWait` in all; the
        // compositor's thread waits at its end only). One still running is asked to end
        // (SIGTERM: it releases within its own grace); what is left to collect of it is the
        // compositor's, which is ending too or reaps its children.
        collect()
        let deadline = monotonicSeconds() + Self.releaseWait
        for helper in ending where ChildProcess.reap(helper.pid, until: deadline) == .running {
            ChildProcess.terminate(helper.pid)
        }
        ending.removeAll()
    }

    // MARK: the helper

    /// The helper as messages name it: its path, or its name where the host starts itself by it
    /// (the daemon: `/proc/self/exe` says nothing to a reader of the log).
    private var shownName: String {
        arguments[0] == PluginInputsReader.thisProgram ? "wlr-orient-sensor-feed (the daemon's own program)" : arguments[0]
    }

    /// Starts a helper now, or once the one before has ended (at most `endingGrace` later), or
    /// after the restart pause.
    private func spawnWhenDue() {
        collect()
        let now = monotonicSeconds()
        if now < restartAt || ending.contains(where: { now < $0.killAt }) {
            schedule()
            return
        }
        spawn()
    }

    private func spawn() {
        guard let timer else { return }
        // By its name, whatever the file is called: the helper is `wlr-orient` started as
        // wlr-orient-sensor-feed (even where $WLR_ORIENT_SENSOR_FEED names wlr-orient itself).
        let directory = arguments[0].lastIndex(of: "/").map { String(arguments[0][...$0]) } ?? ""
        switch ChildProcess.startConnected(arguments, name: directory + "wlr-orient-sensor-feed") {
        case .failure(let error):
            failed("cannot start \(shownName) (\(error.reason))")
        case .success(let started):
            guard case .success = started.socket.setNonBlocking(),
                  let source = LoopSource.readable(started.socket.rawValue, on: loop, { [unowned self] _ in readable() }) else {
                started.socket.close()
                ChildProcess.stop(started.pid)
                ending.append((started.pid, -.infinity, false))
                timer.arm(milliseconds: 50)
                return failed("cannot watch \(shownName)'s socket")
            }
            child = started
            self.source = source
            received.removeAll()
            liveness.reset()
            if running { sendStart() }
            if let period { pace(period) }
        }
    }

    /// Tells the helper to end, without a word to the controller (a new one is wanted, or
    /// none): its socket closes, and on that end of its input it releases the device and exits.
    /// One that has not within `endingGrace` is killed. `reaped`: it was collected already.
    private func end(reaped: Bool = false, unexpected: Bool = false) {
        guard let (pid, socket) = child.take() else { return }
        liveness.reset()
        source.take()?.remove()
        socket.close()
        if !reaped {
            ending.append((pid, monotonicSeconds() + Self.endingGrace, unexpected))
            schedule()
        }
    }

    /// The helper ended on its own, or cannot go on: a lost sensor, and a new helper after a pause.
    /// `quietly`: the controller is not told again.
    private func ended(_ why: String, reaped: Bool = false, quietly: Bool = false) {
        end(reaped: reaped, unexpected: true)
        failed("\(shownName) \(why)", quietly: quietly)
    }

    /// A helper could not start or ended: the controller hears of a lost sensor (once the pause
    /// has grown to its longest, only the first time), and another is started after the pause.
    private func failed(_ why: String, quietly: Bool = false) {
        guard running else { return }
        let delay = restarts.next()
        if !quietly, delay < RestartBackoff.longest || !reportedLongest {
            saidLost = true
            reportedLongest = delay >= RestartBackoff.longest
            report(.lost("\(why); starting it again in \(delay) s" + (reportedLongest ? " (and every \(delay) s, without a word)" : "")))
        }
        restartAt = monotonicSeconds() + delay
        schedule()
    }

    /// How often the timer has woken the host (for tests and benchmarks).
    public private(set) var timerWakeups = 0

    private func timerFired() {
        timerWakeups += 1
        timerDue = nil
        collect()
        if let pid = child?.pid, let due = liveness.deadline, monotonicSeconds() >= due {
            // Killed at once: what it is stuck in will not end for asking (a read the kernel does
            // not end, a stopped process), and a new one waits for the device to be let go.
            let promise = liveness.promise ?? 0
            ChildProcess.stop(pid)
            ended("stopped answering (nothing in \(Int(promise.rounded())) s, where its reading promised a report): killed",
                  quietly: saidLost)
        }
        if running, child == nil { spawnWhenDue() } else { schedule() }
    }

    /// Collects the helpers that ended, logs how one that ended on its own did, and kills
    /// those past their grace.
    private func collect() {
        let now = monotonicSeconds()
        ending.removeAll { helper in
            switch ChildProcess.reap(helper.pid) {
            case .running:
                if now >= helper.killAt { ChildProcess.stop(helper.pid) }
                return false
            case .exited(let status):
                if helper.unexpected { Log.error("\(shownName) (pid \(helper.pid)) \(Self.describe(status))") }
                return true
            case .reapedElsewhere:
                return true
            }
        }
    }

    /// Arms the timer for what comes next: a start after its pause and the old helper's grace,
    /// meanwhile a look at the ending helpers (one that has ended lets the start come sooner),
    /// and the running helper's deadline. Each report moves the deadline, and the timer with it
    /// (a system call, no wakeup): a helper that reports as it promised never wakes the host
    /// for its deadline (it did once every 6 s, a sixth of a polled device's idle wakeups).
    private func schedule() {
        guard let timer else { return }
        let now = monotonicSeconds()
        var next = Double.infinity
        if running, child == nil { next = max(restartAt, ending.map(\.killAt).max() ?? now, now) }
        if !ending.isEmpty { next = min(next, now + 0.05) }
        if child != nil, let due = liveness.deadline { next = min(next, max(due, now)) }
        guard next.isFinite else {
            if timerDue != nil { timer.arm(milliseconds: 0) }
            timerDue = nil
            return
        }
        if timerDue == next { return }
        timerDue = next
        timer.arm(milliseconds: Int32(max(1, min((next - now) * 1000, 60_000)).rounded(.up)))
    }

    /// Asks the helper to read; it promises to answer soon.
    private func sendStart() {
        send(.start)
        guard child != nil else { return }
        liveness.start(at: monotonicSeconds())
        schedule()
    }

    /// Sends a request. One the socket cannot take whole at once means a helper stuck in a read
    /// the kernel does not end (or gone): it is replaced, and the new one gets the state.
    private func send(_ request: SensorRequest) {
        guard let (_, socket) = child else { return }
        let line = request.json.serialized
        let bytes = Array((line + "\n").utf8)
        switch bytes.withUnsafeBytes({ socket.send($0) }) {
        case .success(let n) where n == bytes.count:
            break
        case .success, .failure:
            ended("did not take \(line) (stuck, or gone)")
        }
    }

    /// Reads what the helper wrote, a bounded amount per wakeup: the loop is level-triggered, so
    /// a helper that writes without pause is read again after the compositor's other work.
    private func readable() {
        guard let (_, socket) = child else { return }
        for _ in 0..<Self.readsPerWakeup {
            switch chunk.withUnsafeMutableBytes({ socket.read(into: $0) }) {
            case .success(let n) where n > 0:
                received.append(chunk[..<n])
            case .failure(let error) where error.wouldBlock:
                deliverLines()
                return
            case .success, .failure:
                // The end of its socket; or, when it ended with requests unread, a reset.
                let (why, reaped) = exitDescription()
                return ended(why, reaped: reaped)
            }
            if !deliverLines() { return }
        }
    }

    /// Hands each whole line to the controller; false when the helper was stopped for a line too
    /// long, or the report ended it.
    @discardableResult
    private func deliverLines() -> Bool {
        let current = child?.pid
        let now = monotonicSeconds()
        while let line = received.nextLine() {
            guard case .success(let json) = JSONReader.parse(line), let parsed = SensorReport(json: json) else {
                if let logged = badLines.admit("\(shownName) said something that is no report: \(line.prefix(120))",
                                               at: monotonicSeconds()) {
                    Log.error(logged)
                }
                continue
            }
            liveness.heard(parsed, at: now)
            if case .stillReading = parsed { continue }   // for the liveness alone
            switch parsed {
            case .sample:
                restarts.reset()
                reportedLongest = false
                saidLost = false
            case .opened:
                saidLost = false
            case .lost:
                saidLost = true
            default:
                break
            }
            report(parsed)
            // The report may have ended this helper (the config changed the sensor, or the host stopped).
            if child?.pid != current { return false }
        }
        if received.waiting > Self.longestLine {
            ended("wrote a line longer than \(Self.longestLine) bytes")
            return false
        }
        // The deadline moved with what was heard (or a device opened promises a reading): the
        // timer follows it.
        schedule()
        return true
    }

    /// How the helper ended, as far as can be told without waiting for it, and whether that
    /// collected it (if not, the timer does, and logs how).
    private func exitDescription() -> (String, reaped: Bool) {
        guard let (pid, _) = child else { return ("ended", false) }
        switch ChildProcess.reap(pid) {
        case .exited(let status): return (Self.describe(status), true)
        case .reapedElsewhere: return ("ended", true)
        case .running: return ("closed its socket", false)
        }
    }

    private static func describe(_ status: Int32) -> String {
        status & 0x7f != 0 ? "was killed by signal \(status & 0x7f)" : "exited with status \((status >> 8) & 0xff)"
    }
}

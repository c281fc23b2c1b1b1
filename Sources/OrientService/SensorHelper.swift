import OrientCore
import OrientSystem

/// The plugin's sensor: `wlr-orient-sensor-feed` (see `OrientSensor.SensorFeed`), a helper
/// process that reads the accelerometer, joined to the plugin by a socket watched on the
/// compositor's event loop. Requests go to it as `SensorRequest` lines, reports come back as
/// `SensorReport` lines. The compositor never waits for it: a write it cannot take at once is
/// dropped (with a log line), and a helper that ends is reported as a lost sensor and started
/// again after a pause (`RestartBackoff`).
public final class SensorHelper: SensorControl {
    /// A report line longer than this is no report: the helper is stopped.
    static let longestLine = 64 * 1024

    private let loop: OpaquePointer?
    private let report: (SensorReport) -> Void
    private var arguments: [String]
    /// The host's time line: report times are seconds since this monotonic time.
    private let origin = monotonicSeconds()
    private var child: (pid: ProcessID, socket: FileDescriptor)?
    private var source: LoopSource?
    private var timer: LoopSource?
    private var received: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 16384)
    /// What the controller asked: reading or not, and the pace (nil until it says one).
    private var running = false
    private var period: Double??
    private var restarts = RestartBackoff()
    /// Helpers that ended or were stopped but not yet collected: reaped on the timer.
    private var unreaped: [ProcessID] = []
    private var badLines = RateLimitedLog()

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
        var args = command + ["--active-hz", String(SamplingPlan(detection).activeHz)]
        if let sensor = device.sensor { args += ["--sensor", sensor] }
        if let matrix = device.mountMatrix { args += ["--mount-matrix", matrix.description] }
        return args
    }

    /// `$WLR_ORIENT_SENSOR_FEED` when set, else `wlr-orient-sensor-feed` beside this library (a
    /// build directory), else in the libexec of the prefix it was installed into (PREFIX/lib or
    /// PREFIX/lib/TRIPLET), else the bare name, searched on `$PATH`.
    public static func programPath() -> String {
        let name = "wlr-orient-sensor-feed"
        if let program = environmentValue("WLR_ORIENT_SENSOR_FEED"), !program.isEmpty { return program }
        if let library = loadedFromPath(), let slash = library.lastIndex(of: "/") {
            let directory = String(library[..<slash])
            for candidate in [directory + "/" + name, directory + "/../libexec/" + name, directory + "/../../libexec/" + name]
            where isExecutable(candidate) {
                return candidate
            }
        }
        return name
    }

    public func start() {
        running = true
        if child == nil { spawn() } else { send(.start) }
    }

    public func stop() {
        running = false
        send(.stop)
    }

    public func replace(_ device: DeviceConfig, _ detection: DetectionConfig) {
        arguments = Self.arguments(device, detection, command: command)
        end()
        if running { spawn() }
    }

    public func pace(_ period: Double?) {
        self.period = .some(period)
        send(.pace(period))
    }

    public func monotonicTime(ofSampleAt t: Double) -> Double { origin + t }

    public func remove() {
        running = false
        end()
        timer?.remove()
        timer = nil
        reap()   // the rest were killed, and go with the compositor
    }

    // MARK: the helper

    private func spawn() {
        guard timer != nil else { return }
        switch ChildProcess.startConnected(arguments) {
        case .failure(let error):
            let delay = restarts.next()
            report(.lost("cannot start \(arguments[0]) (\(error.reason)); trying again in \(delay) s"))
            timer?.arm(milliseconds: Int32(delay * 1000))
        case .success(let started):
            _ = started.socket.setNonBlocking()
            child = started
            received.removeAll(keepingCapacity: true)
            source = LoopSource.readable(started.socket.rawValue, on: loop) { [unowned self] _ in readable() }
            if running { send(.start) }
            if let period { send(.pace(period)) }
        }
    }

    /// Stops the helper without a word (a new one is wanted, or none); `reaped`: it was
    /// collected already (its pid may be another process's by now).
    private func end(reaped: Bool = false) {
        guard let (pid, socket) = child.take() else { return }
        source.take()?.remove()
        socket.close()
        if !reaped {
            ChildProcess.stop(pid)
            unreaped.append(pid)
            timer?.arm(milliseconds: 100)
        }
    }

    /// The helper ended on its own (or said something that is no report): a lost sensor,
    /// and a new helper after a pause.
    private func ended(_ why: String, reaped: Bool = false) {
        end(reaped: reaped)
        guard running else { return }
        let delay = restarts.next()
        report(.lost("\(arguments[0]) \(why); starting it again in \(delay) s"))
        timer?.arm(milliseconds: Int32(delay * 1000))
    }

    private func timerFired() {
        reap()
        if running, child == nil { spawn() }
        // Look again for the killed ones, unless a start is waiting for its own time.
        if !unreaped.isEmpty, !(running && child == nil) { timer?.arm(milliseconds: 1000) }
    }

    private func reap() {
        unreaped.removeAll { ChildProcess.reap($0) != .running }
    }

    private func send(_ request: SensorRequest) {
        guard let (_, socket) = child else { return }
        let bytes = Array((request.line + "\n").utf8)
        switch bytes.withUnsafeBytes({ socket.send($0) }) {
        case .success(let n) where n == bytes.count:
            break
        case .success, .failure:
            // Full (the helper reads nothing: stuck in a read the kernel does not end) or gone
            // (its end shows on the socket). Never wait for it on the compositor's thread.
            Log.error("\(arguments[0]) did not take '\(request.line)'; it is stuck or gone")
        }
    }

    private func readable() {
        guard let (_, socket) = child else { return }
        while true {
            switch chunk.withUnsafeMutableBytes({ socket.read(into: $0) }) {
            case .success(let n) where n > 0:
                received += chunk[..<n]
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

    /// Hands each whole line to the controller; false when the helper was stopped for a line too long.
    @discardableResult
    private func deliverLines() -> Bool {
        let current = child?.pid
        var start = received.startIndex
        while let newline = received[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: received[start..<newline], as: UTF8.self)
            start = received.index(after: newline)
            guard let parsed = SensorReport(line: Substring(line)) else {
                if let logged = badLines.admit("\(arguments[0]) said something that is no report: \(line.prefix(120))",
                                               at: monotonicSeconds()) {
                    Log.error(logged)
                }
                continue
            }
            if case .sample = parsed { restarts.reset() }
            report(parsed.shifted(by: -origin))
            // The report may have ended this helper (the config changed the sensor, or the host stopped).
            if child?.pid != current { return false }
        }
        received.removeSubrange(..<start)
        if received.count > Self.longestLine {
            ended("wrote a line longer than \(Self.longestLine) bytes")
            return false
        }
        return true
    }

    /// How the helper ended, as far as can be told without waiting for it, and whether that
    /// collected it.
    private func exitDescription() -> (String, reaped: Bool) {
        guard let (pid, _) = child else { return ("ended", false) }
        switch ChildProcess.reap(pid) {
        case .exited(let status):
            return (status & 0x7f != 0 ? "was killed by signal \(status & 0x7f)" : "exited with status \((status >> 8) & 0xff)", true)
        case .reapedElsewhere:
            return ("ended", true)
        case .running:
            return ("closed its socket", false)
        }
    }
}

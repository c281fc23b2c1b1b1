import ArgumentParser
import FoundationEssentials
import Glibc
import OrientConfig
import OrientCore
import OrientSensor
import OrientSystem

/// Set by SIGINT/SIGTERM so that a loop can finish its file and exit cleanly.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// Ends `runSensorLoop` after the events being handled (a command that cannot go on).
func requestStop() { stopRequested = 1 }

/// What `sensor` and `record` say when there is no accelerometer at all, and exit 1 with.
func noAccelerometer(_ command: String, _ why: String) -> String {
    "wlr-orient \(command): \(why) (looked in /sys/bus/iio/devices, through libiio)"
}

/// Runs the accelerometer the config asks for on a poll(2) loop, its readings judged as the
/// plugin judges them, until `seconds` have passed or the user interrupts. `handle` sees each
/// event, with its judgement for a reading, and the perception after it. Where no accelerometer
/// can be opened at all, it stops at once and returns why (for `noAccelerometer`), rather than
/// wait in silence; a device lost later is looked for again.
func runSensorLoop(_ config: Config, seconds: Double?, _ handle: (SensorEvent, Perception.Judgement?, Perception) -> Void) -> String? {
    signal(SIGINT) { _ in stopRequested = 1 }
    signal(SIGTERM) { _ in stopRequested = 1 }
    var perception = Perception(detection: config.detection)
    let sensor = OrientationSensor(device: config.device, activeHz: perception.plan.activeHz)
    var opened = false
    var missing: String?
    sensor.start()
    PollLoop.run(sensor, perception: &perception, until: seconds.map { monotonicSeconds() + $0 },
                 shouldStop: { stopRequested != 0 }) { event, judgement, perception in
        switch event {
        case .lost(let why) where !opened:
            missing = why
            requestStop()
        case .opened:
            opened = true
            handle(event, judgement, perception)
        case .lost, .sample, .log:
            handle(event, judgement, perception)
        }
    }
    sensor.stop()
    return missing
}

/// The config a command runs with: FILE if given, else the XDG search path, else defaults.
/// Errors are printed as FILE:LINE:COLUMN lines and end the command with status 1.
func loadConfig(_ file: String?) throws -> Config {
    var source = ConfigSource(explicitPath: file, paths: XDGPaths(environment: ProcessInfo.processInfo.environment),
                              shield: ForkedParseShield())
    let errors = source.reload(fileExists: { FileManager.default.fileExists(atPath: $0) })
    if !errors.isEmpty {
        for d in errors { printError(d.description) }
        throw ExitCode(1)
    }
    return source.current
}

/// Line-buffered standard output for live tools (a pipe would otherwise hold lines back).
func printLine(_ line: String) {
    _ = FileDescriptor.standardOutput.writeAll(Array((line + "\n").utf8))
}

func jsonNumber(_ v: Double, decimals: Int = 4) -> String {
    guard v.isFinite else { return "null" }
    return formatDecimal(v, decimals: decimals)
}

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

/// Runs the accelerometer the config asks for on the sensor's loop (`SensorLoop`), its readings
/// judged as the plugin and the daemon judge them, until `seconds` have passed or the user
/// interrupts. `handle` sees each report with the device opened (for `.opened`: the one it
/// says), the judgement of a reading, and the perception after it. Times are seconds since the
/// command started: what a trace stores. Where no accelerometer can be opened at all, it stops
/// at once and returns why (for `noAccelerometer`), rather than wait in silence; a device lost
/// later is looked for again.
func runSensorLoop(_ config: Config, seconds: Double?,
                   _ handle: (SensorReport, AccelerometerInfo?, Perception.Judgement?, Perception) -> Void) -> String? {
    signal(SIGINT) { _ in stopRequested = 1 }
    signal(SIGTERM) { _ in stopRequested = 1 }
    var perception = Perception(detection: config.detection)
    let started = monotonicSeconds()
    let sensor = OrientationSensor(device: config.device, activeHz: perception.plan.activeHz, clock: { monotonicSeconds() - started })
    var opened = false
    var missing: String?
    sensor.start()
    SensorLoop.run(sensor, for: seconds, untilSignal: true, woke: { _ in stopRequested == 0 }) { reports in
        for report in reports {
            var judgement: Perception.Judgement?
            switch report {
            case .lost(let why) where !opened:
                missing = why
                requestStop()
                return false
            case .opened(let device, _, let t):
                opened = true
                perception.open(device, at: t)
            case .lost:
                perception.lose()
            case .sample(let raw, let held):
                judgement = perception.judge(raw, held: held)
            case .log, .stillReading, .awaitingUdev:
                break
            }
            handle(report, sensor.info, judgement, perception)
            if stopRequested != 0 { return false }
        }
        // A slow reading still under way is not one to pace from.
        if reports != [.stillReading] { sensor.pace(perception.readingPeriod) }
        return true
    }
    sensor.stop()
    // What follows is the command's own (calibrate writing the hwdb and waiting for udev, record
    // writing its file): a signal ends it as it ends any program, not a loop that is over.
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
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

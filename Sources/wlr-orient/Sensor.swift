import ArgumentParser
import FoundationEssentials
import OrientCore
import OrientSensor
import OrientSystem

struct Sensor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the accelerometer live: device, scale, mount matrix and its source, readings, decisions.",
        discussion: """
            Opens the accelerometer the plugin would use ([device] in the config) and prints \
            what it reads and what the detector decides, as it happens, until interrupted. \
            A vanished sensor is reported once and looked for again.
            """
    )

    @OptionGroup var configOption: ConfigOption
    var config: String? { configOption.config }

    @Option(help: "Stop after this many seconds.")
    var seconds: Double?

    @Flag(help: "One JSON object per line: opened, sample, orientation, lost, log events.")
    var json = false

    @Flag(help: "Print every reading (by default at most ten a second).")
    var all = false

    @Flag(help: "Print no readings, only the device and the decisions (for status bars and scripts).")
    var noSamples = false

    func run() throws {
        let config = try loadConfig(config)
        // Plain copies: reading a property wrapper on every event costs more than the event.
        let (json, all, noSamples) = (json, all, noSamples)
        var lastShown = -Double.infinity
        let log = { (line: String) in
            if json { printLine("{\"event\": \"log\", \"message\": \(jsonString(line))}") } else { printError(line) }
        }
        let missing = runSensorLoop(config, seconds: seconds) { report, device, judgement, perception in
            switch report {
            case .opened:
                guard let device else { break }   // the sensor's own: set when it says one opened
                printLine(json ? openedJSON(device) : "device: \(device)")
            case .sample(_, let held) where noSamples || held:
                break
            case .sample(let raw, _):
                let v = judgement?.vector ?? .zero
                let d = perception.detector
                if json {
                    printLine("{\"event\": \"sample\", \"t\": \(jsonNumber(raw.t, decimals: 3)), \"raw\": [\(jsonNumber(raw.x, decimals: 1)), \(jsonNumber(raw.y, decimals: 1)), \(jsonNumber(raw.z, decimals: 1))], \"ms2\": [\(jsonNumber(v.x)), \(jsonNumber(v.y)), \(jsonNumber(v.z))], \"tilt\": \(jsonNumber(d.tiltDeg, decimals: 1)), \"angle\": \(jsonNumber(d.angleDeg, decimals: 1)), \"posture\": \"\(d.posture.rawValue)\", \"rate\": \(jsonNumber(perception.rateHz, decimals: 1))}")
                } else if all || raw.t - lastShown >= 0.1 {
                    lastShown = raw.t
                    printLine("t=\(formatDecimal(raw.t, decimals: 3, width: 8))  \(formatDecimal(v.x, decimals: 2, width: 7)) "
                              + "\(formatDecimal(v.y, decimals: 2, width: 7)) \(formatDecimal(v.z, decimals: 2, width: 7)) m/s²  "
                              + "tilt \(formatDecimal(d.tiltDeg, decimals: 1, width: 5))°  angle \(formatDecimal(d.angleDeg, decimals: 1, width: 5))°  "
                              + "\(d.posture.rawValue)  \(formatDecimal(perception.rateHz, decimals: 0, width: 4)) Hz")
                }
            case .lost(let why):
                printLine(json ? "{\"event\": \"lost\", \"reason\": \(jsonString(why))}" : "lost: \(why); looking again")
            case .log(let line):
                log(line)
            case .stillReading, .awaitingUdev:
                break
            }
            if let warning = judgement?.warning { log(warning) }
            if let c = judgement?.change {
                printLine(json ? "{\"event\": \"orientation\", \"t\": \(formatSeconds(c.t)), \"orientation\": \"\(c.orientation.rawValue)\"}"
                               : "orientation: \(c.orientation.rawValue) (t=\(formatSeconds(c.t)))")
            }
        }
        if let missing {
            printError(noAccelerometer("sensor", missing))
            throw ExitCode(1)
        }
    }
}

func openedJSON(_ info: AccelerometerInfo) -> String {
    let c = info.candidate
    let label = c.label.map(jsonString) ?? "null"
    let location = c.location.map(jsonString) ?? "null"
    let a = info.access
    return "{\"event\": \"opened\", \"id\": \(jsonString(c.id)), \"name\": \(jsonString(c.name)), \"label\": \(label), "
        + "\"location\": \(location), \"reason\": \(jsonString(info.reason)), \"scale\": [\(info.scales.map { String($0) }.joined(separator: ", "))], "
        + "\"matrix\": \(jsonString(info.calibration.mountMatrix.description)), \"matrix_source\": \"\(info.matrixSource.rawValue)\", "
        + "\"buffered\": \(info.buffered), \"mode\": \"\(info.mode.rawValue)\", \"mode_reason\": \(jsonString(info.modeReason)), "
        + "\"limit\": \(info.limit.map { "\"\($0.rawValue)\"" } ?? "null"), \"access\": {\"node\": \"\(a.node.rawValue)\", "
        + "\"buffer_attributes\": \(a.bufferAttributes), \"hysteresis\": \(a.hysteresis), \"events\": \(a.events)}, "
        + "\"frequency\": \(info.samplingFrequency.map { jsonNumber($0, decimals: 1) } ?? "null")}"
}

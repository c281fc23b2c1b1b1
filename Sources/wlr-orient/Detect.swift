import ArgumentParser
import FoundationEssentials
import OrientConfig
import OrientCore
import OrientSystem

struct Detect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the orientation detector on recorded traces, in the traces' own time.",
        discussion: """
            Prints one JSON line per change of the felt orientation, \
            {"t": 1.234, "orientation": "left-up"}, the first being the first orientation \
            established. The detector is the same code the plugin runs live. With several \
            traces, each one's lines follow a {"trace": FILE} line. A malformed trace is \
            reported as FILE:LINE: message, with exit status 1.
            """
    )

    @Argument(help: "Trace files (# wlr-orient-trace v1), as written by 'wlr-orient record'; - reads standard input.",
              completion: .file(extensions: ["csv"]))
    var traces: [String]

    @Option(help: "A config file whose [detection] tunables to use (default: the built-in defaults).",
            completion: .file(extensions: ["toml"]))
    var config: String?

    @Option(help: ArgumentHelp(
        "Which readings the detector sees: all of the trace's (all), or only those a polled sensor would have read, following the live sampling plan (live).",
        valueName: "all|live"))
    var sampling: Sampling = .all

    @Flag(help: "Also print each change's diagnostics (tilt, angle, posture) on standard error.")
    var explain = false

    @Option(help: ArgumentHelp(
        "The touches of the (one) trace: a file of '# wlr-orient-touches v1' then 'start,end' seconds per touch. The changes then come as the screen would turn with [detection] touch-hold-ms: a held one later, with \"held_ms\".",
        valueName: "file"), completion: .file())
    var touches: String?

    func validate() throws {
        if touches != nil, traces.count != 1 { throw ValidationError("--touches goes with one trace") }
    }

    // For benchmarks/idle_schedule.py, which chooses the sampling plan's defaults by measurement
    // (each plan a config's [detection]): how many readings the live schedule took.
    @Flag(help: .hidden) var countReadings = false

    func run() throws {
        // Only an explicit --config: a user's own tuning must not change what a trace replays to.
        let detection = config == nil ? DetectionConfig() : try loadConfig(config).detection
        var failed = false
        var spans: [ClosedRange<Double>]?
        if let touches {
            switch UserFile.read(touches) {
            case .failure(let problem):
                printError("\(touches): cannot read the touches: \(problem.reason)")
                throw ExitCode(1)
            case .success(let text):
                switch TouchesReader.parse(text, file: touches) {
                case .success(let read): spans = read
                case .failure(let error):
                    printError(error.description)
                    throw ExitCode(1)
                }
            }
        }
        for path in traces {
            let text: String
            switch UserFile.read(path) {
            case .success(let read) where read.isEmpty:
                printError("\(path): the trace is empty; record one with 'wlr-orient record -o FILE'")
                failed = true
                continue
            case .success(let read):
                text = read
            case .failure(let problem):
                printError("\(path): cannot read the trace: \(problem.reason)")
                failed = true
                continue
            }
            switch TraceReader.parse(text, file: path) {
            case .failure(let error):
                printError(error.description)
                failed = true
            case .success(let trace):
                if traces.count > 1 { emit("{\"trace\": \(jsonString(path))}") }
                var detector = Detector(config: detection)
                var schedule = PolledSchedule(plan: SamplingPlan(detection))
                var readings = 0
                var due = -Double.infinity
                var changes: [(t: Double, orientation: Orientation)] = []
                for sample in trace.samples {
                    if sampling == .live {
                        // The first reading at or after the due time is the one the live sensor gets.
                        guard sample.t >= due else { continue }
                    }
                    readings += 1
                    let reading = trace.calibration.apply(sample)
                    let change = detector.add(reading, at: sample.t)
                    if sampling == .live {
                        schedule.update(reading: reading, at: sample.t, quietFor: detector.quietFor(at: sample.t))
                        due = schedule.next(after: due.isFinite ? due : sample.t, now: sample.t)
                    }
                    guard let change else { continue }
                    if spans != nil {
                        changes.append((change.t, change.orientation))
                    } else {
                        emit(changeLine(change))
                    }
                    if explain {
                        printError("t=\(formatDecimal(change.t, decimals: 3)) \(change.orientation.rawValue) "
                                   + "tilt=\(formatDecimal(detector.tiltDeg, decimals: 1))° angle=\(formatDecimal(detector.angleDeg, decimals: 1))° "
                                   + "posture=\(detector.posture.rawValue)")
                    }
                }
                if let spans {
                    for turn in TouchHoldReplay.turns(changes: changes, touches: spans, holdSeconds: detection.touchHoldMs / 1000,
                                                                maxSeconds: detection.touchHoldMaxMs / 1000) {
                        let held = turn.t - turn.decidedAt
                        emit("{\"t\": \(formatSeconds(turn.t)), \"orientation\": \"\(turn.orientation.rawValue)\""
                             + (held > 0 ? ", \"held_ms\": \(Int((held * 1000).rounded()))}" : "}"))
                    }
                }
                if countReadings, let first = trace.samples.first, let last = trace.samples.last {
                    printError("{\"readings\": \(readings), \"seconds\": \(jsonNumber(last.t - first.t, decimals: 3))}")
                }
            }
        }
        flushOutput()
        if failed { throw ExitCode(1) }
    }
}

/// A change as `detect` prints it, and `record` too, so that a recording's replay can be
/// compared with the live run line by line.
func changeLine(_ change: Detector.Change) -> String {
    "{\"t\": \(formatSeconds(change.t)), \"orientation\": \"\(change.orientation.rawValue)\"}"
}

enum Sampling: String, ExpressibleByArgument, CaseIterable {
    case all, live
}

/// Standard output, block-buffered for speed, flushed before exit.
nonisolated(unsafe) private var pendingOutput = ""

func emit(_ line: String) {
    pendingOutput += line
    pendingOutput += "\n"
    if pendingOutput.utf8.count > 1 << 16 { flushOutput() }
}

func flushOutput() {
    _ = FileDescriptor.standardOutput.writeAll(Array(pendingOutput.utf8))
    pendingOutput = ""
}

func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

import ArgumentParser
import FoundationEssentials
import OrientCore
import OrientSensor
import OrientSystem

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the accelerometer to a trace file, to attach to a bug report.",
        discussion: """
            Writes a '# wlr-orient-trace v1' trace (raw counts, the device's scale and mount \
            matrix) that 'wlr-orient detect' replays with the same decisions. While recording, \
            the live decisions are printed on standard error as {"t": ..., "orientation": ...} \
            lines. Stops after --seconds, or on Ctrl-C.
            """
    )

    @OptionGroup var configOption: ConfigOption
    var config: String? { configOption.config }

    @Option(help: "Stop after this many seconds (default: until interrupted).")
    var seconds: Double?

    @Option(name: [.customShort("o"), .long], help: "Write the trace here (default: standard output).",
            completion: .file(extensions: ["csv"]))
    var output: String?

    func run() throws {
        let config = try loadConfig(config)
        // The file is made once there is something to write in it: without an accelerometer,
        // no empty file is left behind for `detect` to reject.
        var sink: FileDescriptor? = output == nil ? .standardOutput : nil
        var cannotCreate = false
        var createError: SystemError?
        var writeError: SystemError?
        var pending = ""
        var wroteHeader = false
        var samples = 0
        func flush() {
            if sink == nil, let output, !cannotCreate {
                switch FileDescriptor.create(output) {
                case .success(let file):
                    sink = file
                case .failure(let error):
                    cannotCreate = true
                    createError = error
                    requestStop()
                }
            }
            if writeError == nil, let sink, case .failure(let error) = sink.writeAll(Array(pending.utf8)) {
                writeError = error   // a full disk: the trace would be cut short
                requestStop()
            }
            pending = ""
        }
        let missing = runSensorLoop(config, seconds: seconds) { report, device, judgement, _ in
            switch report {
            case .opened:
                guard let info = device else { break }
                if !wroteHeader {
                    pending += TraceWriter.header(device: "\(info.candidate.id) \(info.candidate.label ?? info.candidate.name), recorded by wlr-orient",
                                                  calibration: info.calibration)
                    wroteHeader = true
                }
                printError("recording \(info)")
            case .sample(_, true):
                break   // not sent by the device: a trace holds what the device sent
            case .sample(let raw, false):
                pending += TraceWriter.line(raw)
                samples += 1
            case .lost(let why):
                printError("lost: \(why); looking again")
            case .log(let line):
                printError(line)
            case .stillReading, .awaitingUdev:
                break
            }
            if let warning = judgement?.warning { printError(warning) }
            if let c = judgement?.change { printError(changeLine(c)) }
            if pending.utf8.count > 4096 { flush() }
        }
        if let missing {
            printError(noAccelerometer("record", missing) + (output.map { "; \($0) was not written" } ?? ""))
            throw ExitCode(1)
        }
        flush()
        if cannotCreate, let output {
            printError("wlr-orient record: cannot create \(output) (\((createError?.reason ?? "unknown").lowercased()))")
            throw ExitCode(1)
        }
        if let sink, output != nil {
            if writeError == nil, case .failure(let error) = sink.flushToDisk() { writeError = error }
            sink.close()
        }
        if let writeError {
            printError("wlr-orient record: cannot write \(output ?? "the trace") (\(writeError.reason.lowercased())); "
                       + "what was written is cut short")
            throw ExitCode(1)
        }
        printError("recorded \(samples) samples\(output.map { " to \($0)" } ?? "")")
    }
}

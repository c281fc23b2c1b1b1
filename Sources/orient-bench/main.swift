// orient-bench: the detector's cost per sample, on recorded traces.
//
//   swift run -c release orient-bench [TRACE-DIR ...]
//
// Reads every *.csv trace in the folders (default Tests/Fixtures/traces/public), calibrates the
// samples once, then runs the detector over all of them pass after pass for at least two
// seconds, timing each pass, and prints named numbers a script can read:
//   detector_ns_per_sample=NNN.N        the median pass's cost per sample
//   detector_ns_per_sample_p95=NNN.N    the 95th percentile pass's
import Foundation
import OrientCore

let directories = CommandLine.arguments.dropFirst().isEmpty ? ["Tests/Fixtures/traces/public"] : Array(CommandLine.arguments.dropFirst())
var traces: [[(t: Double, v: Vector3)]] = []
for directory in directories {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
    for name in names {
        let path = directory + "/" + name
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
        guard case .success(let trace) = TraceReader.parse(text, file: path) else { continue }
        traces.append(trace.samples.map { ($0.t, trace.calibration.apply($0)) })
    }
}
let perPass = traces.reduce(0) { $0 + $1.count }
guard perPass > 0 else {
    FileHandle.standardError.write(Data("orient-bench: no traces in \(directories.joined(separator: " "))\n".utf8))
    exit(1)
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

var changes = 0
var passNs: [Double] = []
let clock = ContinuousClock()
let start = clock.now
repeat {
    let began = clock.now
    for samples in traces {
        var detector = Detector()
        for s in samples where detector.add(s.v, at: s.t) != nil { changes += 1 }
    }
    passNs.append(seconds(clock.now - began) * 1e9 / Double(perPass))
} while clock.now - start < .seconds(2) || passNs.count < 5
let sorted = passNs.sorted()
let p50 = sorted[(sorted.count - 1) / 2]
let p95 = sorted[min(sorted.count - 1, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)]

print("detector_traces=\(traces.count)")
print("detector_samples_per_pass=\(perPass)")
print("detector_passes=\(passNs.count)")
print("detector_changes_per_pass=\(changes / passNs.count)")
print(String(format: "detector_ns_per_sample=%.1f", p50))
print(String(format: "detector_ns_per_sample_p95=%.1f", p95))

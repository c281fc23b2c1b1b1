// orient-bench: the detector's cost per sample, on recorded traces.
//
//   swift run -c release orient-bench [TRACE-DIR]
//
// Reads every *.csv trace in TRACE-DIR (default Tests/Fixtures/traces/public), calibrates the
// samples once, then runs the detector over all of them repeatedly for at least two seconds,
// and prints named numbers a script can read:  detector_ns_per_sample=NNN.N
import Foundation
import OrientCore

let directory = CommandLine.arguments.dropFirst().first ?? "Tests/Fixtures/traces/public"
let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
var traces: [[(t: Double, v: Vector3)]] = []
for name in names {
    let path = directory + "/" + name
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
    guard case .success(let trace) = TraceReader.parse(text, file: path) else { continue }
    traces.append(trace.samples.map { ($0.t, trace.calibration.apply($0)) })
}
let perPass = traces.reduce(0) { $0 + $1.count }
guard perPass > 0 else {
    FileHandle.standardError.write(Data("orient-bench: no traces in \(directory)\n".utf8))
    exit(1)
}

var changes = 0
var passes = 0
let clock = ContinuousClock()
let start = clock.now
repeat {
    for samples in traces {
        var detector = Detector()
        for s in samples where detector.add(s.v, at: s.t) != nil { changes += 1 }
    }
    passes += 1
} while clock.now - start < .seconds(2)
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
let nsPerSample = seconds * 1e9 / Double(passes * perPass)

print("detector_traces=\(traces.count)")
print("detector_samples_per_pass=\(perPass)")
print("detector_passes=\(passes)")
print("detector_changes_per_pass=\(changes / passes)")
print(String(format: "detector_ns_per_sample=%.1f", nsPerSample))

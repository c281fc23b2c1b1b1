// sensor-bench: wakeups per second of an idle session at default settings, while sampling
// (just after the device was last moved, and once it has been left alone past the sampling
// plan's `aloneAfter`) and after the sensor is stopped. Run it where an accelerometer is
// visible (benchmarks/wakeups.py starts it under umockdev):
//
//   sensor-bench [SECONDS]
//
// Counts the loop's own wakeups, and cross-checks with the kernel's count of context switches
// of every thread of the process (/proc/self/task/*/status).
import Foundation
import OrientCore
import OrientSensor
import OrientSystem

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 10

func contextSwitches() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.reduce(0) { total, task in
        let status = (try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)) ?? ""
        return total + status.split(separator: "\n").filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
            .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }.reduce(0, +)
    }
}

var perception = Perception(detection: DetectionConfig())
let sensor = OrientationSensor(device: DeviceConfig(), activeHz: perception.plan.activeHz)
var opened = false
sensor.start()

/// The sensor's loop for `seconds`, its readings judged and paced as a session's are; its wakeups.
@MainActor func run(for seconds: Double) -> Int {
    SensorLoop.run(sensor, for: seconds) { reports in
        for report in reports {
            switch report {
            case .opened(let device, _, let t):
                opened = true
                perception.open(device, at: t)
            case .lost: perception.lose()
            case .sample(let raw, let held): _ = perception.judge(raw, held: held)
            case .log, .stillReading, .awaitingUdev: break
            }
        }
        // A slow reading still under way is not one to pace from.
        if reports != [.stillReading] { sensor.pace(perception.readingPeriod) }
        return true
    } ?? 0
}

// Warm up: open the device, settle, fall to the idle rate.
_ = run(for: 3)
guard opened else {
    FileHandle.standardError.write(Data("sensor-bench: no accelerometer opened\n".utf8))
    exitProcess(1)
}

var c0 = contextSwitches()
let sampling = run(for: seconds)
let samplingSwitches = contextSwitches() - c0
// Left alone past the sampling plan's `aloneAfter` (a device on a desk): the slowest stage.
let plan = SamplingPlan(DetectionConfig())
_ = run(for: max(0, plan.aloneAfter - seconds))
c0 = contextSwitches()
let alone = run(for: seconds)
let aloneSwitches = contextSwitches() - c0
let aloneRate = perception.rateHz
sensor.stop()
c0 = contextSwitches()
let stopped = run(for: seconds)
let stoppedSwitches = contextSwitches() - c0

print("idle_rate_hz=\(plan.heldHz)")
print("left_alone_rate_hz=\(aloneRate)")
print(String(format: "idle_sampling_wakeups_per_s=%.2f", Double(sampling) / seconds))
print(String(format: "idle_sampling_context_switches_per_s=%.2f", Double(samplingSwitches) / seconds))
print(String(format: "left_alone_wakeups_per_s=%.2f", Double(alone) / seconds))
print(String(format: "left_alone_context_switches_per_s=%.2f", Double(aloneSwitches) / seconds))
print(String(format: "stopped_wakeups_per_s=%.2f", Double(stopped) / seconds))
// The one context switch left is the measurement's own end of sleep.
print(String(format: "stopped_context_switches_per_s=%.2f", Double(max(0, stoppedSwitches - 1)) / seconds))

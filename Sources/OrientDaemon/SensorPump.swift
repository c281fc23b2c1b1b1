import OrientCore
import OrientSensor
import OrientService
import OrientSystem

/// The daemon's sensor, read in its own process on its event loop: a timer for its next
/// deadline, its fd when it has one. What it reads goes to `report` (the controller judges it,
/// and says the pace of the next reading through `pace`). (The plugin reads its sensor in a
/// helper process instead: `SensorHelper`.)
final class SensorPump: SensorControl {
    private(set) var sensor: OrientationSensor
    private let loop: OpaquePointer?
    private let report: (SensorReport) -> Void
    private var timer: LoopSource?
    private var fdSource: LoopSource?
    private var watchedFD: Int32?
    /// What the sensor reported on its last run, kept so that reading it allocates nothing.
    private var events: [SensorEvent] = []
    /// Inside `run`, which re-arms the timer when it is over.
    private var running = false

    init(loop: OpaquePointer?, device: DeviceConfig, detection: DetectionConfig, report: @escaping (SensorReport) -> Void) {
        self.loop = loop
        self.sensor = Self.sensor(device, detection)
        self.report = report
        timer = LoopSource.timer(on: loop) { [unowned self] in run() }
    }

    /// The accelerometer a config asks for, read at its sampling plan's active rate until the
    /// controller paces it.
    private static func sensor(_ device: DeviceConfig, _ detection: DetectionConfig) -> OrientationSensor {
        OrientationSensor(device: device, activeHz: SamplingPlan(detection).activeHz)
    }

    func start() {
        sensor.start()
        schedule()
    }

    func stop() {
        sensor.stop()
        schedule()
    }

    /// A new sensor in place of the old (the config changed), running if the old one ran.
    func replace(_ device: DeviceConfig, _ detection: DetectionConfig) {
        let running = sensor.isRunning
        sensor.stop()
        sensor = Self.sensor(device, detection)
        if running { sensor.start() }
        schedule()
    }

    /// The next reading this many seconds after the last (nil: when the device speaks).
    /// Called while a reading is delivered: the timer is re-armed once the run is over.
    func pace(_ period: Double?) {
        sensor.pace(period)
        if !running { schedule() }
    }

    /// For the log: the monotonic time of a reading taken at `t` (the sensor's seconds).
    func monotonicTime(ofSampleAt t: Double) -> Double { sensor.monotonicTime(ofSampleAt: t) }

    /// Releases the sensor and removes the event sources. Safe to call twice.
    func remove() {
        sensor.stop()
        timer?.remove()
        fdSource?.remove()
        timer = nil
        fdSource = nil
        watchedFD = nil
    }

    private func run() {
        running = true
        events.removeAll(keepingCapacity: true)
        sensor.process(into: &events)
        for event in events { report(event.report) }
        running = false
        schedule()
    }

    /// Re-arms the timer for the sensor's next deadline and watches its fd, if it has one.
    private func schedule() {
        guard let timer else { return }
        if sensor.pollDescriptor != watchedFD {
            fdSource?.remove()
            fdSource = nil
            watchedFD = sensor.pollDescriptor
            if let fd = watchedFD {
                fdSource = LoopSource.readable(fd, on: loop) { [unowned self] _ in run() }
            }
        }
        if let deadline = sensor.deadline {
            let ms = ((deadline - monotonicSeconds()) * 1000).rounded(.up)
            timer.arm(milliseconds: ms.isFinite ? Int32(max(1, min(ms, 60_000))) : 1000)
        } else {
            timer.arm(milliseconds: 0)
        }
    }
}

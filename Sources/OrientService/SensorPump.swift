import OrientCore
import OrientSensor
import OrientSystem

/// The sensor on an event loop: a timer for its next deadline, its fd when it has one. What it
/// decides goes to `felt`; its lines go to the log. The plugin and the daemon each own one.
public final class SensorPump {
    public private(set) var sensor: OrientationSensor
    private let loop: OpaquePointer?
    private let felt: (Orientation) -> Void
    /// The orientation kept when the accelerometer is lost, for the log line.
    private let kept: () -> Orientation?
    private var timer: LoopSource?
    private var fdSource: LoopSource?
    private var watchedFD: Int32?
    /// What the sensor reported on its last run, kept so that reading it allocates nothing.
    private var events: [SensorEvent] = []

    public init(loop: OpaquePointer?, sensor: OrientationSensor, kept: @escaping () -> Orientation?,
                felt: @escaping (Orientation) -> Void) {
        self.loop = loop
        self.sensor = sensor
        self.kept = kept
        self.felt = felt
        timer = LoopSource.timer(on: loop) { [unowned self] in run() }
    }

    public var isRunning: Bool { sensor.isRunning }

    public func start() {
        sensor.start()
        schedule()
    }

    public func stop() {
        sensor.stop()
        schedule()
    }

    /// A new sensor in place of the old (the config changed), running if the old one ran.
    public func replace(with new: OrientationSensor) {
        let running = sensor.isRunning
        sensor.stop()
        sensor = new
        if running { sensor.start() }
        schedule()
    }

    /// The device's in-plane angle while the sensor runs and the device is held up (lying flat,
    /// it leans nowhere).
    public var lean: Double? {
        guard sensor.isRunning, sensor.hasDevice, sensor.detector.posture == .upright, sensor.detector.confirmed else { return nil }
        return sensor.detector.angleDeg
    }

    /// Releases the sensor and removes the event sources. Safe to call twice.
    public func remove() {
        sensor.stop()
        timer?.remove()
        fdSource?.remove()
        timer = nil
        fdSource = nil
        watchedFD = nil
    }

    private func run() {
        events.removeAll(keepingCapacity: true)
        sensor.process(into: &events)
        for event in events {
            switch event {
            case .opened(let info): Log.info("accelerometer: \(info)")
            case .lost(let why): Log.error("accelerometer: \(why); keeping \(kept()?.rawValue ?? "the current orientation")")
            case .log(let line): Log.info(line)
            case .sample: break
            case .change(let change):
                // For the latency benchmarks: when the sample that completed this decision was read.
                Log.debug("decision \(change.orientation.rawValue) from the sample read at \(sensor.monotonicTime(ofSampleAt: change.t)) s")
                felt(change.orientation)
            }
        }
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

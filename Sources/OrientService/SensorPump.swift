import OrientCore
import OrientSensor
import OrientSystem

/// The sensor on an event loop: a timer for its next deadline, its fd when it has one. What it
/// reads goes to `deliver` (the controller judges it, and says the pace of the next reading
/// through `pace`); its lines go to the log. The plugin and the daemon each own one.
public final class SensorPump {
    public private(set) var sensor: OrientationSensor
    private let loop: OpaquePointer?
    private let deliver: (ControllerEvent) -> Void
    /// The orientation kept when the accelerometer is lost, for the log line.
    private let kept: () -> Orientation?
    private var timer: LoopSource?
    private var fdSource: LoopSource?
    private var watchedFD: Int32?
    /// What the sensor reported on its last run, kept so that reading it allocates nothing.
    private var events: [SensorEvent] = []
    /// Inside `run`, which re-arms the timer when it is over.
    private var running = false

    public init(loop: OpaquePointer?, sensor: OrientationSensor, kept: @escaping () -> Orientation?,
                deliver: @escaping (ControllerEvent) -> Void) {
        self.loop = loop
        self.sensor = sensor
        self.kept = kept
        self.deliver = deliver
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

    /// The next reading this many seconds after the last (nil: when the device speaks).
    /// Called while a reading is delivered: the timer is re-armed once the run is over.
    public func pace(_ period: Double?) {
        sensor.pace(period)
        if !running { schedule() }
    }

    /// For the log: the monotonic time of a reading taken at `t` (the sensor's seconds).
    public func monotonicTime(ofSampleAt t: Double) -> Double { sensor.monotonicTime(ofSampleAt: t) }

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
        running = true
        events.removeAll(keepingCapacity: true)
        sensor.process(into: &events)
        for event in events {
            switch event {
            case .opened(let info, let t):
                Log.info("accelerometer: \(info)")
                deliver(.sensorOpened(info.perceived, at: t))
            case .lost(let why):
                Log.error("accelerometer: \(why); keeping \(kept()?.rawValue ?? "the current orientation")")
                deliver(.sensorLost)
            case .log(let line):
                Log.info(line)
            case .sample(let raw, let held):
                deliver(.reading(raw, held: held))
            }
        }
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

import OrientCore

/// The accelerometer as `ControllerRunner` drives it: in the daemon read in its own process
/// (`SensorPump`), in the plugin by a helper process (`SensorHelper`). Each reports what it reads
/// as `SensorReport`s (times on the host's time line) to the closure it was made with.
public protocol SensorControl: AnyObject {
    /// Starts (or restarts) reading.
    func start()
    /// Releases the device (to save power when nothing can rotate).
    func stop()
    /// Reads the device a config asks for from now on, running if it ran.
    func replace(_ device: DeviceConfig, _ detection: DetectionConfig)
    /// The next reading this many seconds after the last (nil: when the device speaks).
    func pace(_ period: Double?)
    /// For the log: the monotonic time of a reading taken at `t`.
    func monotonicTime(ofSampleAt t: Double) -> Double
    /// Releases the sensor and removes the event sources. Safe to call twice.
    func remove()
}

/// Makes the host's sensor on its loop, reading the device a config asks for.
public typealias SensorMaker = (_ loop: OpaquePointer, _ device: DeviceConfig, _ detection: DetectionConfig,
                                _ report: @escaping (SensorReport) -> Void) -> SensorControl

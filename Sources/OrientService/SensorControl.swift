import OrientCore

/// The accelerometer as `ControllerRunner` drives it: read by a helper process (`SensorHelper`)
/// in the plugin and the daemon alike, or by what a test puts in its place. It reports what it
/// reads as `SensorReport`s (timed in monotonic seconds) to the closure it was made with.
public protocol SensorControl: AnyObject {
    /// Starts (or restarts) reading.
    func start()
    /// Releases the device (to save power when nothing can rotate).
    func stop()
    /// Reads the device a config asks for from now on, running if it ran.
    func replace(_ device: DeviceConfig, _ detection: DetectionConfig)
    /// The next reading this many seconds after the last (nil: when the device speaks).
    func pace(_ period: Double?)
    /// Releases the sensor and removes the event sources. Safe to call twice.
    func remove()
}

/// Makes the host's sensor on its loop, reading the device a config asks for.
public typealias SensorMaker = (_ loop: OpaquePointer, _ device: DeviceConfig, _ detection: DetectionConfig,
                                _ report: @escaping (SensorReport) -> Void) -> SensorControl

import CWlrGlue
import OrientCore
import OrientSensor

// The sensor on the compositor's event loop: a timer for its next deadline, its fd when it has
// one. What it decides goes to the controller as `.felt`.
extension Plugin {
    func runSensor() {
        sensorEvents.removeAll(keepingCapacity: true)
        sensor.process(into: &sensorEvents)
        for event in sensorEvents {
            switch event {
            case .opened(let info): Log.info("accelerometer: \(info)")
            case .lost(let why): Log.error("accelerometer: \(why); keeping \(controller.state.lastFelt?.rawValue ?? "the current orientation")")
            case .log(let line): Log.info(line)
            case .sample: break
            case .change(let change):
                // For the latency benchmark: when the sample that completed this decision was read.
                Log.debug("decision \(change.orientation.rawValue) from the sample read at \(sensor.monotonicTime(ofSampleAt: change.t)) s")
                dispatch(.felt(change.orientation))
            }
        }
        schedule()
    }

    /// The device's in-plane angle while the sensor runs and the device is held up (lying flat,
    /// it leans nowhere).
    var currentLean: Double? {
        guard sensor.isRunning, sensor.hasDevice, sensor.detector.posture == .upright, sensor.detector.confirmed else { return nil }
        return sensor.detector.angleDeg
    }

    /// Re-arms the timer for the sensor's next deadline and watches its fd, if it has one.
    func schedule() {
        if sensor.pollDescriptor != watchedFD {
            if let fdSource { wl_event_source_remove(fdSource) }
            fdSource = nil
            watchedFD = sensor.pollDescriptor
            if let fd = watchedFD {
                fdSource = glue_add_fd(wl_display_get_event_loop(host.display), fd, Unmanaged.passUnretained(self).toOpaque()) { _, _, context in
                    guard let context else { return 0 }
                    Unmanaged<Plugin>.fromOpaque(context).takeUnretainedValue().runSensor()
                    return 0
                }
            }
        }
        guard let timer else { return }
        if let deadline = sensor.deadline {
            let ms = ((deadline - monotonicSeconds()) * 1000).rounded(.up)
            wl_event_source_timer_update(timer, ms.isFinite ? Int32(max(1, min(ms, 60_000))) : 1000)
        } else {
            wl_event_source_timer_update(timer, 0)
        }
    }
}

import OrientCore

/// What the sensor reports to its host (the plugin, `wlr-orient sensor`, `record`).
public enum SensorEvent: Sendable {
    /// An accelerometer was opened (at start, or again after it vanished).
    case opened(AccelerometerInfo)
    /// One reading: raw counts (as a trace stores them) and the same in m/s², display frame.
    case sample(RawSample, Vector3)
    /// The felt orientation changed (or was first established).
    case change(Detector.Change)
    /// The accelerometer vanished or none could be found; reported once until it is back.
    case lost(String)
    /// Something worth a log line (already rate-limited).
    case log(String)
}

/// The accelerometer and the detector, sampled without threads on the caller's event loop.
///
/// The host watches `pollDescriptor` (when set) for readability and calls `process()` when it
/// is readable or when `deadline` (monotonic seconds) has passed; `process()` does whatever is
/// due — opening the device, reading it, judging, re-discovering after a loss with backoff — and
/// never blocks. `stop()` releases the device; after it there is no fd and no deadline.
public final class OrientationSensor {
    public let device: DeviceConfig
    public private(set) var detector: Detector
    public private(set) var info: AccelerometerInfo?
    /// The rate the device is read at now (polled devices follow the sampling plan).
    public var rateHz: Double { schedule.rateHz }
    public private(set) var isRunning = false
    /// Whether an accelerometer is open and read now.
    public var hasDevice: Bool { accelerometer != nil }

    /// The fd to poll for readability (buffered devices), if any.
    public var pollDescriptor: Int32? { isRunning ? bufferFD ?? monitor?.fd : nil }
    /// When `process()` is next due, in `clock()` seconds; nil when stopped.
    public var deadline: Double? { isRunning ? nextDue : nil }

    private var schedule: PolledSchedule
    private var plan: SamplingPlan { schedule.plan }
    private let clock: () -> Double
    private let origin: Double
    private var accelerometer: Accelerometer?
    private var bufferFD: Int32?
    private var nextDue: Double?
    private var backoff = Backoff()
    /// While no device can be found (after the quick attempts): udev's announcements of IIO devices.
    private var monitor: UdevMonitor?
    private var monitorFailed = false
    private var lossReported = false
    private var badReadings = RateLimitedLog()
    private var scaleCheck = ScaleCheck()
    private let preferBuffer: Bool

    /// - Parameters:
    ///   - savedFelt: the orientation saved by the last run, used until the sensor confirms one.
    ///   - clock: monotonic seconds; sample times are seconds since `init`, to the millisecond.
    public init(device: DeviceConfig, detection: DetectionConfig, savedFelt: Orientation? = nil,
                preferBuffer: Bool = true, clock: @escaping () -> Double = monotonicSeconds) {
        self.device = device
        self.detector = Detector(config: detection, savedFelt: savedFelt)
        self.schedule = PolledSchedule(plan: SamplingPlan(activeHz: detection.rateHz))
        self.clock = clock
        self.origin = clock()
        self.preferBuffer = preferBuffer
    }

    /// The monotonic time (the `clock`'s seconds) of a sample time `t` from this sensor's events.
    public func monotonicTime(ofSampleAt t: Double) -> Double { origin + t }

    /// Starts (or restarts) sampling; the device is opened on the first `process()`.
    public func start() {
        guard !isRunning else { return }
        isRunning = true
        backoff.reset()
        nextDue = clock()
    }

    /// Releases the device (to save power when nothing can rotate). The felt orientation stays,
    /// unconfirmed: once restarted, the sensor announces how the device is held, even unchanged.
    public func stop() {
        if isRunning { detector.unconfirm() }
        isRunning = false
        monitor = nil
        close()
        nextDue = nil
    }

    /// Does what is due, appending what happened to `events`. Call when `pollDescriptor` is
    /// readable or `deadline` has passed. A host that keeps one array, emptied with its capacity
    /// kept, allocates nothing per reading (the plugin runs on the compositor's event loop).
    public func process(into events: inout [SensorEvent]) {
        guard isRunning else { return }
        let now = clock()
        if accelerometer == nil {
            // udev announced a device (reading the announcements also quiets the fd), or it is
            // time to look anyway.
            let announced = monitor?.added() ?? []
            if !announced.isEmpty { events.append(.log("udev announced \(announced.joined(separator: ", "))")) }
            guard !announced.isEmpty || nextDue.map({ now >= $0 }) == true else { return }
            openDevice(now: now, into: &events)
            if accelerometer == nil { return }
        }
        guard let accelerometer else { return }
        if accelerometer.info.buffered {
            switch accelerometer.readBuffered() {
            case .success(let batch) where batch.isEmpty:
                // Woken by the watchdog with nothing to read: is the device still there?
                if !accelerometer.isPresent {
                    fail(.gone("\(accelerometer.info.candidate.id) is no longer in sysfs"), now: now, into: &events)
                }
            case .success(let batch):
                let period = 1 / (accelerometer.info.samplingFrequency ?? rateHz)
                for (i, counts) in batch.enumerated() {
                    handle(counts, at: now - Double(batch.count - 1 - i) * period, into: &events)
                }
            case .failure(let failure):
                fail(failure, now: now, into: &events)
            }
            if self.accelerometer != nil {
                nextDue = now + 1   // a watchdog: a silent buffer is read (and a gone device found) once a second
            }   // else: lost, and `lose` scheduled the next look with backoff
        } else {
            guard let due = nextDue, now >= due else { return }
            switch accelerometer.readPolled() {
            case .success(let counts): handle(counts, at: now, into: &events)
            case .failure(let failure): fail(failure, now: now, into: &events)
            }
            if self.accelerometer != nil {
                nextDue = schedule.next(after: due, now: now)
            }
        }
    }

    // MARK: -

    private func time(_ now: Double) -> Double {
        ((now - origin) * 1000).rounded() / 1000
    }

    private func openDevice(now: Double, into events: inout [SensorEvent]) {
        do {
            let (opened, reason, warnings) = try Accelerometer.open(config: device, requestedHz: plan.activeHz,
                                                                     preferBuffer: preferBuffer)
            events += warnings.map(SensorEvent.log)
            guard let opened else {
                lose(reason, now: now, into: &events)
                return
            }
            if opened.info.buffered {
                do {
                    let batch = max(1, Int((opened.info.samplingFrequency ?? plan.activeHz) / plan.activeHz))
                    bufferFD = try opened.startBuffer(batch: batch)
                } catch {
                    events.append(.log("\(opened.info.candidate.id): cannot start buffered capture (\(error))"))
                    lose("\(error)", now: now, into: &events)
                    return
                }
            }
            accelerometer = opened
            info = opened.info
            monitor = nil
            lossReported = false
            backoff.reset()
            schedule.reset()
            detector.restart(at: time(now))
            events.append(.opened(opened.info))
            nextDue = now
        } catch let error as SensorError where error.meansNoIIODevices {
            lose("no accelerometer found", now: now, into: &events)
        } catch {
            lose("libiio: \(error)", now: now, into: &events)
        }
    }

    private func handle(_ counts: (Double, Double, Double), at now: Double, into events: inout [SensorEvent]) {
        guard let accelerometer else { return }
        let t = time(now)
        let raw = RawSample(t: t, x: counts.0, y: counts.1, z: counts.2)
        let v = accelerometer.info.calibration.apply(raw)
        events.append(.sample(raw, v))
        if let warning = scaleCheck.add(magnitude: v.length) {
            events.append(.log("\(accelerometer.info.candidate.id): \(warning)"))
        }
        if let change = detector.add(v, at: t) { events.append(.change(change)) }
        if !accelerometer.info.buffered {
            schedule.update(quietFor: detector.quietFor(at: t))
        }
    }

    private func fail(_ failure: Accelerometer.ReadFailure, now: Double, into events: inout [SensorEvent]) {
        switch failure {
        case .bad(let why):
            if let line = badReadings.admit("dropping a reading: \(why)", at: now) { events.append(.log(line)) }
        case .gone(let why):
            let id = accelerometer?.info.candidate.id ?? "accelerometer"
            close()
            lose("\(id) vanished (\(why))", now: now, into: &events)
        }
    }

    /// No usable device: report once, keep the felt orientation, look again with backoff.
    private func lose(_ why: String, now: Double, into events: inout [SensorEvent]) {
        if !lossReported {
            events.append(.lost(why))
            lossReported = true
        }
        if backoff.quickPhaseOver, monitor == nil, !monitorFailed {
            do {
                monitor = try UdevMonitor()
                events.append(.log("no accelerometer yet; waiting for udev to announce one (and looking again every \(Int(Backoff.watchedDelay)) s)"))
            } catch {
                monitorFailed = true
                events.append(.log("cannot watch udev for an accelerometer (\(error)); looking again every second"))
            }
        }
        nextDue = now + backoff.next(udevWatching: monitor != nil)
    }

    private func close() {
        accelerometer?.stopBuffer()
        accelerometer = nil
        bufferFD = nil
        detector.restart(at: time(clock()))
    }
}

/// Monotonic seconds, the default clock.
public func monotonicSeconds() -> Double { readMonotonicClock() }

/// The same clock in milliseconds, the unit the transitions count in.
public func monotonicMilliseconds() -> Double { monotonicSeconds() * 1000 }

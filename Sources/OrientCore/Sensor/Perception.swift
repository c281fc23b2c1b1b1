/// What the accelerometer's readings mean, and when the next one is wanted: the detector, the
/// open device's calibration and scale check, and the sampling timetable (`SamplingPlan` for a
/// polled device, `QuietDeviceSchedule` for one that says when it moves).
///
/// The sensor module only reads the device; everything it reads is judged here. The controller
/// keeps one, so that a reading's way from the sensor to a turned panel passes through the core
/// once (`ControllerEvent.reading`); the command-line tools keep their own.
public struct Perception: Sendable {
    /// The device open now, as far as judging its readings goes.
    public struct Device: Sendable, Hashable {
        /// The IIO id, for log lines.
        public var id: String
        public var calibration: Calibration
        public var mode: ReadingMode
        /// Why it is read that way (for `status`).
        public var why: String
        /// Set when it offers a quieter way that this user cannot have now.
        public var limit: ReadingLimit?
        /// Where its mount matrix came from (for `status`: a matrix just written by `calibrate
        /// --write` shows as the config's).
        public var matrixSource: MountMatrixSource

        public init(id: String, calibration: Calibration, mode: ReadingMode, why: String = "", limit: ReadingLimit? = nil,
                    matrixSource: MountMatrixSource = .identity) {
            self.id = id
            self.calibration = calibration
            self.mode = mode
            self.why = why
            self.limit = limit
            self.matrixSource = matrixSource
        }
    }

    /// One reading, judged.
    public struct Judgement: Sendable {
        /// The reading in m/s², display frame.
        public var vector: Vector3
        /// The felt orientation, when this reading changed (or first confirmed) it.
        public var change: Detector.Change?
        /// A warning about the device (once: its scale looks wrong), for the log.
        public var warning: String?
    }

    public let plan: SamplingPlan
    public private(set) var detector: Detector
    public private(set) var device: Device?
    private var schedule: PolledSchedule
    private let quiet = QuietDeviceSchedule()
    /// Once per perception (a config), not per opening: a wrong scale is said once, and the
    /// readings of short openings (a sensor released and restarted) add up to the verdict.
    private var scaleCheck = ScaleCheck()
    /// How long after the last reading the next is due; see `readingPeriod`.
    private var period: Double?

    public init(detection: DetectionConfig, savedFelt: Orientation? = nil) {
        plan = SamplingPlan(detection)
        detector = Detector(config: detection, savedFelt: savedFelt)
        schedule = PolledSchedule(plan: plan)
        period = 1 / plan.activeHz
    }

    /// The rate a polled device is read at now.
    public var rateHz: Double { schedule.rateHz }

    /// How long after the last reading the next one is due, in seconds; nil when none is until
    /// the device speaks (one that says when it moves, still). A device that streams through a
    /// buffer at its own rate is read when it speaks, whatever this says.
    public var readingPeriod: Double? { period }

    /// A device was opened at `t` (sensor seconds): its readings start afresh, at the active rate.
    public mutating func open(_ device: Device, at t: Double) {
        self.device = device
        detector.restart(at: t)
        schedule.reset()
        period = 1 / plan.activeHz
    }

    /// The device vanished (the felt orientation stays).
    public mutating func lose() {
        device = nil
    }

    /// The sensor was released: the felt orientation is no longer known to hold (the device may
    /// turn before it runs again), so the next settled reading announces it even unchanged.
    public mutating func release() {
        detector.unconfirm()
    }

    /// Judges one reading in raw counts taken at `raw.t`. A `held` one repeats the last (a device
    /// with hysteresis is silent while held as it was): it tells the detector that nothing moved,
    /// and is no evidence of the device's scale.
    public mutating func judge(_ raw: RawSample, held: Bool = false) -> Judgement {
        guard let device else { return Judgement(vector: .zero) }
        let v = device.calibration.apply(raw)
        var judgement = Judgement(vector: v)
        if !held, let warning = scaleCheck.add(magnitude: v.length) {
            judgement.warning = "\(device.id): \(warning)"
        }
        judgement.change = detector.add(v, at: raw.t)
        let quietFor = detector.quietFor(at: raw.t)
        if device.mode.wakesOnMotion {
            period = quiet.period(quietFor: quietFor)
        } else if !device.mode.isBuffered {
            schedule.update(reading: v, at: raw.t, quietFor: quietFor)
            period = 1 / schedule.rateHz
        }
        return judgement
    }

    /// The device's in-plane angle while it is held up and its orientation confirmed (lying
    /// flat, it leans nowhere): what breaks a tie between two orientations.
    public var lean: Double? {
        guard device != nil, detector.posture == .upright, detector.confirmed else { return nil }
        return detector.angleDeg
    }
}

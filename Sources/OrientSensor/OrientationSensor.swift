import OrientCore
import OrientSystem

/// The accelerometer, read without threads on the caller's loop (`SensorLoop`). What it reads it
/// reports as `SensorReport`s, timed in its clock's (monotonic) seconds. What its readings mean,
/// and so when the next is wanted, is the core's to judge (`Perception`): the host hands each
/// `.sample` to it and passes its `readingPeriod` back through `pace`.
///
/// The host watches `pollDescriptor` (when set) for readability and calls `process()` when it
/// is readable or when `deadline` (monotonic seconds) has passed; `process()` does whatever is
/// due — opening the device, reading it, re-discovering after a loss with backoff — and never
/// blocks. `stop()` releases the device; after it there is no fd and no deadline.
public final class OrientationSensor {
    public let device: DeviceConfig
    public private(set) var info: AccelerometerInfo?
    public private(set) var isRunning = false
    /// Called, on the caller's thread, each time one of a reading's raw values was read: a reader
    /// that must show it is not hung (the helper) speaks then, as a slow device's reading can take
    /// longer than any silence it may keep.
    public var partRead: (() -> Void)?

    /// The fd to poll for readability (buffered devices, udev's announcements), if any.
    public var pollDescriptor: Int32? { isRunning ? fdSet?.fd ?? bufferFD ?? motionFD ?? monitor?.fd : nil }
    /// When `process()` is next due, in `clock()` seconds; nil when stopped.
    public var deadline: Double? { isRunning ? nextDue : nil }
    /// How long from now until `process()` is due (0 or less: it is); nil when nothing is.
    public var secondsUntilDue: Double? { deadline.map { $0 - clock() } }

    /// The rate asked of a device that can be set to one, and read at until the first `pace`.
    private let activeHz: Double
    /// How long after a reading the next is due (nil: not until the device speaks); see `pace`.
    private var readingPeriod: Double?
    /// When the last reading was due, and when it was taken (a polled device keeps its cadence).
    private var lastDue: Double?
    private var lastTaken: Double?
    private let clock: () -> Double
    private var accelerometer: Accelerometer?
    private var bufferFD: Int32?
    /// The buffer or the motion events, and udev's announcements, behind one fd (a device that
    /// says when it moves: see `process`).
    private var fdSet: FDSet?
    /// The fd of its motion events (`ReadingMode.motionEvents`).
    private var motionFD: Int32?
    /// The last reading taken, in counts: what such a device's silence repeats.
    private var lastCounts: (Double, Double, Double)?
    private var nextDue: Double?
    private var backoff = Backoff()
    /// While no device can be found (after the quick attempts), and while a device with
    /// hysteresis is open (its silence says nothing about whether it is still there): udev's
    /// announcements of IIO devices.
    private var monitor: UdevMonitor?
    private var monitorFailed = false
    private var lossReported = false
    /// Polled, opened again after a loss was reported: said (`opened`) with its first reading,
    /// not before, so that a device that opens but refuses its raw values (EBUSY while another
    /// program streams it) is not announced again and again.
    private var openedUnsaid: (info: AccelerometerInfo, at: Double)?
    private var badReadings = RateLimitedLog()
    /// When to look whether the other reader that streams the device (and so keeps it polled)
    /// has switched its buffer off; nil when no buffer on keeps it so. (A reader that leaves it on
    /// as it ends, as iio-sensor-proxy does, cannot be told from one still reading.)
    private var streamCheckDue: Double?
    private let preferBuffer: Bool

    /// - Parameters:
    ///   - activeHz: the sampling plan's active rate (`SamplingPlan.activeHz`).
    ///   - clock: monotonic seconds; report times are its seconds, to the millisecond.
    public init(device: DeviceConfig, activeHz: Double, preferBuffer: Bool = true,
                clock: @escaping () -> Double = monotonicSeconds) {
        self.device = device
        self.activeHz = max(activeHz, 0.1)
        self.readingPeriod = 1 / self.activeHz
        self.clock = clock
        self.preferBuffer = preferBuffer && device.buffered
    }

    /// Starts (or restarts) sampling; the device is opened on the first `process()`.
    public func start() {
        guard !isRunning else { return }
        isRunning = true
        backoff.reset()
        // A start is answered: with a device opened, or (again) with none found.
        lossReported = false
        openedUnsaid = nil
        nextDue = clock()
    }

    /// Releases the device (to save power when nothing can rotate).
    public func stop() {
        isRunning = false
        monitor = nil
        close()
        nextDue = nil
    }

    /// How long after a reading the next is due, as the judge of the readings says after each
    /// (`Perception.readingPeriod`); nil: not until the device speaks. Until told, the active rate.
    public func pace(_ period: Double?) {
        readingPeriod = period.map { max($0, 0.001) }
        guard isRunning, let accelerometer, let due = lastDue, let taken = lastTaken,
              !(accelerometer.info.buffered && accelerometer.info.mode != .hysteresis) else { return }
        nextDue = next(afterDue: due, taken: taken)
    }

    /// Does what is due, appending what happened to `events`. Call when `pollDescriptor` is
    /// readable or `deadline` has passed. A host that keeps one array, emptied with its capacity
    /// kept, allocates nothing per reading (the plugin runs on the compositor's event loop).
    public func process(into events: inout [SensorReport]) {
        guard isRunning else { return }
        let now = clock()
        if accelerometer == nil {
            // udev announced a device (reading the announcements also quiets the fd), or it is
            // time to look anyway.
            let announced = monitor?.receive().filter { $0.action == "add" }.map(\.name) ?? []
            if !announced.isEmpty { events.append(.log("udev announced \(announced.joined(separator: ", "))")) }
            guard !announced.isEmpty || nextDue.map({ now >= $0 }) == true else { return }
            openDevice(now: now, into: &events)
            if accelerometer == nil { return }
        }
        guard let accelerometer else { return }
        let id = accelerometer.info.candidate.id
        // A device that says when it moves is silent while still, which hides nothing: udev says
        // when it goes (the monitor is kept open beside it for that).
        if accelerometer.info.mode.wakesOnMotion, let monitor,
           monitor.receive().contains(where: { $0.action == "remove" && $0.name == id }) {
            fail(.gone("udev announced the removal of \(id)"), now: now, into: &events)
            return
        }
        if accelerometer.info.buffered {
            var reported = false
            switch accelerometer.readBuffered() {
            case .success(let batch) where batch.isEmpty:
                // Woken by the watchdog with nothing to read: is the device still there?
                if monitor == nil, !accelerometer.isPresent {
                    fail(.gone("\(id) is no longer in sysfs"), now: now, into: &events)
                }
            case .success(let batch):
                reported = true
                let period = 1 / (accelerometer.info.samplingFrequency ?? activeHz)
                for (i, counts) in batch.enumerated() {
                    handle(counts, at: now - Double(batch.count - 1 - i) * period, into: &events)
                }
            case .failure(let failure):
                fail(failure, now: now, into: &events)
            }
            guard self.accelerometer != nil else { return }  // lost: `lose` scheduled the next look
            if accelerometer.info.mode == .hysteresis {
                // Silence from a device with hysteresis means it is held as it was: while the
                // judge wants readings it is told so at its pace; then nothing is due.
                if !reported, let due = nextDue, now >= due, let last = lastCounts {
                    handle(last, at: now, held: true, into: &events)
                }
                nextDue = next(afterDue: now, taken: now)
            } else {
                nextDue = now + 1   // a watchdog: a silent buffer is read (and a gone device found) once a second
            }
        } else {
            if accelerometer.info.mode == .motionEvents {
                switch accelerometer.drainMotionEvents() {
                case .success(let moved) where moved > 0: nextDue = now   // it moved: read it at once
                case .success: break
                case .failure(let failure):
                    fail(failure, now: now, into: &events)
                    return
                }
            }
            guard let due = nextDue, now >= due else { return }
            if let check = streamCheckDue, now >= check {
                // The node is tried only with the buffer off: opening it takes it for a moment,
                // and the reader that streams it would find it busy.
                let bufferOn = Accelerometer.bufferOn(id)
                let nodeHeld = !bufferOn && probeOpen("/dev/\(id)")?.busy == true
                switch ReadingModeChoice.afterBusyLook(bufferOn: bufferOn, nodeHeld: nodeHeld) {
                case .lookAgain(let delay):
                    streamCheckDue = now + delay
                case .openAgain:
                    events.append(.log("\(id): the other reader let it go; opening it again"))
                    close()
                    openDevice(now: now, into: &events)
                    return
                }
            }
            switch accelerometer.readPolled(partRead: { self.partRead?() }) {
            case .success(let counts): handle(counts, at: now, into: &events)
            case .failure(let failure): fail(failure, now: now, into: &events)
            }
            if self.accelerometer != nil {
                lastDue = due
                lastTaken = now
                nextDue = next(afterDue: due, taken: now)
            }
        }
    }

    /// The next reading after one that was due at `due` and taken at `taken`, at the judge's pace:
    /// a polled device keeps its cadence (a loop that fell behind continues from now); one that
    /// says when it moves is not read again until it does, once the judge wants no more (but once
    /// a second where udev cannot be watched, to notice its removal).
    private func next(afterDue due: Double, taken: Double) -> Double? {
        guard let period = readingPeriod else {
            return accelerometer?.info.mode.wakesOnMotion == true && monitor != nil ? nil : taken + 1
        }
        if accelerometer?.info.mode.wakesOnMotion == true { return taken + period }
        let next = due + period
        return next > taken ? next : taken + period
    }

    // MARK: -

    private func time(_ now: Double) -> Double {
        (now * 1000).rounded() / 1000
    }

    private func openDevice(now: Double, refused: DeviceAccess.Node? = nil, into events: inout [SensorReport]) {
        do {
            let (opened, reason, warnings) = try Accelerometer.open(config: device, requestedHz: activeHz,
                                                                     preferBuffer: preferBuffer, refused: refused)
            events += warnings.map(SensorReport.log)
            guard let opened else {
                lose(reason, now: now, into: &events)
                return
            }
            if opened.info.buffered {
                do {
                    // A device with hysteresis reports each change at once; others in batches
                    // that come at about the active rate.
                    let batch = opened.info.mode == .hysteresis ? 1
                        : max(1, Int((opened.info.samplingFrequency ?? activeHz) / activeHz))
                    bufferFD = try opened.startBuffer(batch: batch)
                } catch let error as SensorError where (error.busy || error.denied) && refused == nil {
                    // Another process opened it since it was looked at, or the kernel refused what
                    // its modes seemed to allow: read it without its buffer.
                    opened.release()
                    return openDevice(now: now, refused: error.busy ? .busy : .denied, into: &events)
                } catch {
                    events.append(.log("\(opened.info.candidate.id): cannot start buffered capture (\(error))"))
                    lose("\(error)", now: now, into: &events)
                    return
                }
            } else if opened.info.mode == .motionEvents {
                switch opened.startMotionEvents() {
                case .success(let fd): motionFD = fd
                case .failure(let error): events.append(.log("\(opened.info.candidate.id): \(opened.info.modeReason) (\(error))"))
                }
            }
            if opened.info.mode.wakesOnMotion, let fd = bufferFD ?? motionFD {
                // Its silence must not hide its removal: udev says when it goes.
                do {
                    let udev = try UdevMonitor()
                    fdSet = try FDSet([fd, udev.fd])
                    monitor = udev
                } catch {
                    events.append(.log("\(opened.info.candidate.id): cannot watch udev for its removal (\(error)); checking once a second"))
                    monitor = nil
                }
            } else {
                monitor = nil
            }
            accelerometer = opened
            info = opened.info
            // Held by another reader: whether it still is, is looked at now and then, whatever held
            // it (its buffer may be switched on a moment later, or off as it goes away).
            streamCheckDue = opened.info.limit == .busy ? now + Backoff.streamCheckPeriod : nil
            readingPeriod = 1 / activeHz
            if lossReported, opened.info.mode == .polled {
                openedUnsaid = (opened.info, time(now))
            } else {
                backoff.reset()
                events.append(.opened(opened.info.perceived, description: opened.info.description, at: time(now)))
            }
            nextDue = now
            if opened.info.mode == .hysteresis {
                // It will say nothing until it moves: how it is held now is read once.
                switch opened.readAttributesOnce(partRead: { self.partRead?() }) {
                case .success(let counts): handle(counts, at: now, into: &events)
                case .failure(let failure): fail(failure, now: now, into: &events)
                }
            }
        } catch let error as SensorError where error.meansNoIIODevices {
            lose("no accelerometer found", now: now, into: &events)
        } catch {
            lose("libiio: \(error)", now: now, into: &events)
        }
    }

    /// One reading for the judge. A `held` one (a device with hysteresis, silent) repeats the last.
    private func handle(_ counts: (Double, Double, Double), at now: Double, held: Bool = false,
                        into events: inout [SensorReport]) {
        if let (info, at) = openedUnsaid {
            // It reads again after a loss: said now, and the next loss is met quickly again.
            openedUnsaid = nil
            lossReported = false
            backoff.reset()
            events.append(.opened(info.perceived, description: info.description, at: at))
        }
        if !held { lastCounts = counts }
        lastDue = now
        lastTaken = now
        events.append(.sample(RawSample(t: time(now), x: counts.0, y: counts.1, z: counts.2), held: held))
    }

    private func fail(_ failure: Accelerometer.ReadFailure, now: Double, into events: inout [SensorReport]) {
        switch failure {
        case .bad(let why):
            if let line = badReadings.admit("dropping a reading: \(why)", at: now) { events.append(.log(line)) }
        case .gone(let why):
            let id = accelerometer?.info.candidate.id ?? "accelerometer"
            close()
            lose("\(id) vanished (\(why))", now: now, into: &events)
        case .busy(let why):
            let id = accelerometer?.info.candidate.id ?? "accelerometer"
            close()
            // It is there and reads again once the other program's stream stops: tried again
            // within a second (no udev announcement will come for it), the loss said once.
            if !lossReported {
                events.append(.lost("\(id) refuses its raw values while another program streams it (\(why)); trying it again every second"))
                lossReported = true
            }
            nextDue = now + min(backoff.next(), Backoff.busyDelay)
        case .ending:
            break   // the loop sees the signal next and ends
        }
    }

    /// No usable device: report once, keep the felt orientation, look again with backoff.
    private func lose(_ why: String, now: Double, into events: inout [SensorReport]) {
        if !lossReported {
            events.append(.lost(why))
            lossReported = true
        }
        if backoff.quickPhaseOver, monitor == nil, !monitorFailed {
            do {
                monitor = try UdevMonitor()
                events.append(.log("no accelerometer yet; waiting for udev to announce one (and looking again every \(Int(Backoff.watchedDelay)) s)"))
                events.append(.awaitingUdev)
            } catch {
                monitorFailed = true
                events.append(.log("cannot watch udev for an accelerometer (\(error)); looking again every second"))
            }
        }
        nextDue = now + backoff.next(udevWatching: monitor != nil)
    }

    private func close() {
        streamCheckDue = nil
        if accelerometer?.info.mode.wakesOnMotion == true { monitor = nil }
        fdSet = nil
        motionFD = nil
        lastCounts = nil
        lastDue = nil
        lastTaken = nil
        accelerometer?.release()
        accelerometer = nil
        bufferFD = nil
    }
}


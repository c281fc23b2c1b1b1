import Glibc
import OrientCore
import OrientSystem

/// What the sensor layer found and how it will read it, for logs and `wlr-orient sensor`.
public struct AccelerometerInfo: Sendable, CustomStringConvertible {
    public var candidate: AccelerometerCandidate
    /// Why this one (config, display, only one…).
    public var reason: String
    /// Per-axis scale and offset as the driver reports them.
    public var scales: [Double]
    public var offsets: [Double]
    public var calibration: Calibration
    public var matrixSource: MountMatrixSource
    /// How it is read (through a buffer, with or without hysteresis, or polled), and why.
    public var mode: ReadingMode
    public var modeReason: String
    /// Set when it offers a quieter way than `mode` that this user cannot have now.
    public var limit: ReadingLimit?
    /// What this user could do with it when it was opened.
    public var access: DeviceAccess
    /// Streams through a buffer (the driver has a trigger) rather than polled attributes.
    public var buffered: Bool { mode.isBuffered }
    /// What judging its readings needs to know of it.
    public var perceived: Perception.Device {
        Perception.Device(id: candidate.id, calibration: calibration, mode: mode, why: modeReason, limit: limit,
                          matrixSource: matrixSource)
    }
    /// The driver's sampling frequency after our request, if it has one.
    public var samplingFrequency: Double?

    public var description: String {
        let where_ = candidate.location.map { ", \($0)" } ?? ""
        return "\(candidate.id) (\(candidate.label ?? candidate.name)\(where_); \(reason)), scale \(scales.map { String($0) }.joined(separator: "/"))"
            + ", mount matrix \(calibration.mountMatrix) from \(matrixSource.rawValue), read: \(mode.rawValue) (\(modeReason))"
            + (samplingFrequency.map { " (the device samples at \($0) Hz)" } ?? "")
    }
}

/// An opened accelerometer: its context, device and x/y/z channels.
final class Accelerometer {
    let context: IIOContext
    let device: IIODevice
    let channels: [IIOChannel]
    private(set) var info: AccelerometerInfo
    private var buffer: IIOBuffer?
    /// The motion events to enable (`ReadingMode.motionEvents`), and their source once started.
    private let motionEvents: MotionEvents?
    private var motionSource: MotionEventSource?
    /// The three `raw` files, held open for the polled path (see SysfsAttributeFiles); nil
    /// for a buffered device.
    private let rawFiles: SysfsAttributeFiles?
    /// One read buffer for the polled path, kept for the device's life.
    private let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)
    /// A raw count at or beyond this is saturated (the channel's declared width).
    private let rail: Double
    /// What opening it wrote, to be written back when it is released.
    private var restore: AttributeRestore
    /// How many of `restore`'s entries there were before the buffer was set up: those after it
    /// are what setting it up writes (libiio writes `buffer/length` and every scan element's
    /// `en`, and the kernel buffers' count), written back once the buffer is gone.
    private var beforeBuffer = 0
    /// iio-sensor-proxy ran when it was opened.
    private let proxyAtOpen = OtherReaders.iioSensorProxyRuns()

    private init(context: IIOContext, device: IIODevice, channels: [IIOChannel], info: AccelerometerInfo,
                 rawFiles: SysfsAttributeFiles?, motionEvents: MotionEvents?, rail: Double, restore: AttributeRestore) {
        self.motionEvents = motionEvents
        self.context = context
        self.device = device
        self.channels = channels
        self.info = info
        self.rawFiles = rawFiles
        self.rail = rail
        self.restore = restore
    }

    deinit {
        release()
        readBuffer.deallocate()
    }

    /// Leaves the device as it was found: its buffer and motion events off, what opening it
    /// wrote written back. Safe to call twice.
    func release() {
        let streamed = buffer != nil
        let leaveOn = streamed && !proxyAtOpen && OtherReaders.iioSensorProxyRuns()
        // iio-sensor-proxy set itself up on the buffer as it is now: left so.
        if leaveOn { restore.forget(since: beforeBuffer) }
        stopBuffer()
        motionSource = nil
        restore.writeBack()
        guard streamed else { return }
        if leaveOn { leaveBufferOn() }
        BufferMark.remove(info.candidate.id)
    }

    /// iio-sensor-proxy, started while this held the buffer, set itself up on it as it was (its
    /// own writes are refused while a buffer runs) and has been waiting to read it since; it
    /// never switches a buffer on again. So it is left on, as that program would have it.
    private func leaveBufferOn() {
        for c in channels { try? writeSysfsText("/sys/bus/iio/devices/\(info.candidate.id)/scan_elements/in_\(c.id)_en", "1") }
        try? writeSysfsText("/sys/bus/iio/devices/\(info.candidate.id)/buffer/enable", "1")
    }

    /// Lists accelerometers, chooses one (AccelerometerChoice), opens it. Returns nil with the
    /// reason when there is none to use; throws only when libiio itself cannot start.
    /// - Parameter refused: what opening its buffer found (another process took it meanwhile:
    ///   busy; the kernel said no: denied): it is read without it this time.
    static func open(config: DeviceConfig, requestedHz: Double, preferBuffer: Bool, refused: DeviceAccess.Node? = nil)
        throws -> (Accelerometer?, reason: String, warnings: [String])
    {
        let context = try IIOContext()
        var found: [(AccelerometerCandidate, IIODevice, [IIOChannel], udev: [String: String])] = []
        for device in context.devices {
            let axes = ["accel_x", "accel_y", "accel_z"].compactMap { device.channel($0) }
            guard axes.count == 3 else { continue }
            let udev = Udev.properties(ofIIODevice: device.id, ["ACCEL_LOCATION", "ACCEL_MOUNT_MATRIX"])
            let location = udev["ACCEL_LOCATION"] ?? device.attribute("location").map { String($0.split(separator: "\n").first ?? "") }
            found.append((AccelerometerCandidate(id: device.id, name: device.name, label: device.label, location: location),
                          device, axes, udev))
        }
        let (choice, reason) = AccelerometerChoice.choose(found.map(\.0), configured: config.sensor)
        guard let choice, let (candidate, device, axes, udev) = found.first(where: { $0.0 == choice }) else {
            return (nil, reason, [])
        }
        let directory = "/sys/bus/iio/devices/\(device.id)"

        var warnings: [String] = []
        // A reader of ours killed while it held the device left what it changed in its journal:
        // back to the device's own values before anything here reads them as the device's.
        let recovered = DeviceJournal.recover(device.id)
        if !recovered.restored.isEmpty {
            warnings.append("\(device.id): wrote back \(recovered.restored.joined(separator: ", ")) as they were before a reader of ours that was killed changed them")
        }
        // Scale and offset: per axis (in_accel_x_scale) or shared (in_accel_scale); libiio
        // presents both as the channel's attribute.
        var scales: [Double] = []
        var offsets: [Double] = []
        for axis in axes {
            let scale = axis.number("scale") ?? 1
            if scale <= 0 { warnings.append("\(device.id): unusable scale \(scale); using 1") }
            scales.append(scale > 0 ? scale : 1)
            offsets.append(axis.hasAttribute("offset") ? axis.number("offset") ?? 0 : 0)
        }
        // The driver's own matrix: per type (`in_accel_mount_matrix`), shared by every channel of
        // the direction (`in_mount_matrix`: bmc150, bmi160, bma180, bma400) or the device's.
        let sysfs = ["in_accel_mount_matrix", "in_mount_matrix", "mount_matrix"].lazy
            .compactMap { name in readSmallFile("\(directory)/\(name)").map { (name, $0) } }.first
        let matrix = MountMatrixChoice.resolve(config: config.mountMatrix, udev: udev["ACCEL_MOUNT_MATRIX"],
                                               sysfs: sysfs?.1, sysfsName: sysfs?.0 ?? "mount_matrix")
        warnings += matrix.warnings.map { "\(device.id): \($0)" }

        var access = Self.deviceAccess(device: device.id, directory: directory, axes: axes)
        if let refused { access.node = refused }
        // It can stream with scan elements and a trigger (set now, or a trigger directory: another
        // reader may be between two triggers).
        let triggered = device.hasTrigger || pathExists("\(directory)/trigger/current_trigger")
        let can = ReadingCapabilities(buffer: triggered && axes.allSatisfy(\.isScanElement),
                                      hysteresis: axes[0].hasAttribute("hysteresis"),
                                      events: directoryEntries("\(directory)/events"), access: access)
        var reading = ReadingModeChoice.choose(can, preferBuffer: preferBuffer)
        var restore = AttributeRestore(device: device.id, journaled: !recovered.heldByAnother)
        // What the device had is written back when it is released; nothing is written while
        // another process holds it (it depends on the device as it is).
        // A rate below the one read at makes each raw read wait for a fresh sample (a HID hub at
        // its default 1 Hz blocks a read for up to a second): raised, as iio-sensor-proxy does,
        // where this user may. The device's own attribute, or the accelerometer channels' shared
        // one (in_accel_sampling_frequency: HID hubs).
        let rateFile = device.number("sampling_frequency") != nil ? "sampling_frequency"
            : axes[0].attributeFilename("sampling_frequency")
        let rate = device.number("sampling_frequency") ?? axes[0].number("sampling_frequency")
        if access.node != .busy, let rateFile, let rate, rate < requestedHz, mayWrite("\(directory)/\(rateFile)") {
            do {
                if rateFile == "sampling_frequency" {
                    restore.note("sampling_frequency", device.attribute("sampling_frequency"))
                    try device.writeAttribute("sampling_frequency", requestedHz)
                } else {
                    restore.note(axes[0], "sampling_frequency", try? axes[0].attribute("sampling_frequency"))
                    try axes[0].writeAttribute("sampling_frequency", requestedHz)
                }
            } catch {
                warnings.append("\(device.id): cannot set \(rateFile) to \(requestedHz) Hz (\(error))")
            }
        }
        let frequency = device.number("sampling_frequency") ?? axes[0].number("sampling_frequency")
        if reading.mode == .hysteresis {
            switch ReadingModeChoice.hysteresisSetting(scale: scales[0], firmware: axes[0].number("hysteresis"),
                                                        writable: access.hysteresis) {
            case .write(let value):
                do {
                    restore.note(axes[0], "hysteresis", try? axes[0].attribute("hysteresis"))
                    try axes[0].writeAttribute("hysteresis", value)
                } catch {
                    reading = ReadingModeChoice.fallback(from: .hysteresis, because: "the device did not take a hysteresis (\(error))")
                }
            case .keepFirmware: break
            case .unusable:
                reading = ReadingModeChoice.fallback(from: .hysteresis, because: access.hysteresis
                    ? "its scale does not say the hysteresis' unit, and its firmware sets none"
                    : "this user may not write its hysteresis, and its firmware sets none")
            }
        }
        // Saturation at the channel's own width where it declares one (a HID hub's is 32 bits).
        let rail = axes[0].isScanElement ? RawReading.rail(bits: Int(axes[0].format.bits), signed: axes[0].format.signed)
            : RawReading.rail()
        let buffered = reading.mode.isBuffered
        // A polled device is opened only once its values can be read: one still appearing in
        // sysfs (or half gone) is not there yet, rather than found and lost again at once.
        var rawFiles: SysfsAttributeFiles?
        if !buffered {
            do {
                let names = try axes.map { axis in
                    guard let name = axis.attributeFilename("raw") else {
                        throw SensorError(operation: "\(device.id): no raw attribute", errno: ENOENT)
                    }
                    return name
                }
                rawFiles = try SysfsAttributeFiles(directory: directory, names: names)
            } catch {
                restore.writeBack()
                return (nil, "\(device.id) cannot be read (\(error))", warnings)
            }
        }
        let info = AccelerometerInfo(candidate: candidate, reason: reason, scales: scales, offsets: offsets,
                                     calibration: Calibration(scale: scales[0], mountMatrix: matrix.matrix),
                                     matrixSource: matrix.source, mode: reading.mode, modeReason: reading.why,
                                     limit: reading.limit, access: access, samplingFrequency: frequency)
        return (Accelerometer(context: context, device: device, channels: axes, info: info, rawFiles: rawFiles,
                              motionEvents: reading.motionEvents, rail: rail, restore: restore),
                reason, warnings)
    }

    /// What this user may do with the device now: open its node (it opens once: busy while
    /// another process holds it), write the attributes its quieter modes need.
    private static func deviceAccess(device id: String, directory: String, axes: [IIOChannel]) -> DeviceAccess {
        let node: DeviceAccess.Node
        // Its buffer on, and not by a reader of ours that ended without switching it off: another
        // program set it up and reads it now and then (iio-sensor-proxy opens the node only to
        // read it, every 700 ms; the node is not even opened to look, which could refuse it one).
        // Opening it here would switch that program's buffer off.
        if bufferOn(id), !BufferMark.isOurs(id) { node = .busy } else if !pathExists("/dev/\(id)") {
            node = .missing   // a part without a buffer or events may have none
        } else {
            switch probeOpen("/dev/\(id)") {
            case nil: node = .free
            case let error? where error.busy: node = .busy
            case let error? where error.denied: node = .denied
            case _?: node = .missing
            }
        }
        // libiio's local backend writes `en` of every scan element as it opens a buffer (0 to those
        // it does not enable: a HID hub's soft timestamp among them), so each must be writable.
        let scanElements = directoryEntries("\(directory)/scan_elements").filter { $0.hasSuffix("_en") }.sorted()
            .map { "\(directory)/scan_elements/\($0)" }
        let bufferFiles = ["\(directory)/buffer/enable", "\(directory)/buffer/length"] + scanElements
        let events = MotionEvents.choose(directoryEntries("\(directory)/events"))?.enableFiles ?? []
        let unwritable = bufferFiles.filter { !mayWrite($0) }
        var access = DeviceAccess(node: node, bufferAttributes: unwritable.isEmpty,
                                  hysteresis: axes[0].attributeFilename("hysteresis").map { mayWrite("\(directory)/\($0)") } ?? false,
                                  events: !events.isEmpty && events.allSatisfy { mayWrite("\(directory)/events/\($0)") })
        access.unwritable = unwritable.map { String($0.dropFirst(directory.count + 1)) }
        return access
    }

    /// Raw counts in units of the x axis' scale, offsets applied, so that one `Calibration`
    /// (what a trace stores) turns every axis into m/s².
    private func counts(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
        let s = info.scales, o = info.offsets
        return (x + o[0], (y + o[1]) * s[1] / s[0], (z + o[2]) * s[2] / s[0])
    }

    /// Reads the three raw attributes once (polled devices); `partRead` after each (a HID hub
    /// answers each read in up to 5 s).
    func readPolled(partRead: () -> Void = {}) -> Result<(Double, Double, Double), ReadFailure> {
        guard let rawFiles else { return .failure(.bad("\(info.candidate.id) is not a polled device")) }
        var raw = (0.0, 0.0, 0.0)
        do { try rawFiles.refresh() } catch { return .failure(ReadFailure(error)) }
        for i in 0..<min(rawFiles.count, 3) {
            let parsed: Result<Double, RawReading.Problem>
            do {
                parsed = try rawFiles.read(i, into: readBuffer) { RawReading.parse(bytes: $0, rail: rail) }
            } catch { return .failure(ReadFailure(error)) }
            switch parsed {
            case .success(let v):
                if i == 0 { raw.0 = v } else if i == 1 { raw.1 = v } else { raw.2 = v }
            case .failure(let problem): return .failure(.bad("\(info.candidate.id): raw value \(problem.rawValue)"))
            }
            partRead()
            // A HID hub's read that a signal cut short answered 0; the next would wait up to 5 s
            // again, past the grace the program has to release the device.
            if Termination.requested { return .failure(.ending) }
        }
        return .success(counts(raw.0, raw.1, raw.2))
    }

    /// Reads the three raw attributes through libiio (a buffered device, once: a device with
    /// hysteresis sends nothing until it moves, so how it is held now is asked this way).
    func readAttributesOnce(partRead: () -> Void = {}) -> Result<(Double, Double, Double), ReadFailure> {
        var raw = [0.0, 0.0, 0.0]
        for (i, axis) in channels.prefix(3).enumerated() {
            do {
                switch RawReading.parse(try axis.attribute("raw"), rail: rail) {
                case .success(let v): raw[i] = v
                case .failure(let problem): return .failure(.bad("\(info.candidate.id): raw value \(problem.rawValue)"))
                }
            } catch { return .failure(ReadFailure(error)) }
            partRead()
            if Termination.requested { return .failure(.ending) }
        }
        return .success(counts(raw[0], raw[1], raw[2]))
    }

    enum ReadFailure: Error {
        case gone(String)
        case bad(String)
        /// It refuses its raw values while another program streams it (most drivers but the
        /// HID hubs': EBUSY).
        case busy(String)
        /// The program is ending: the rest of the reading was not waited for.
        case ending

        /// A failed call: the device is gone, busy, or this reading is bad (and the next may be fine).
        init(_ error: any Error) {
            if let e = error as? SensorError {
                self = e.isDeviceGone ? .gone(e.description) : e.busy ? .busy(e.description) : .bad(e.description)
            } else {
                self = .bad("\(error)")
            }
        }
    }

    /// Whether the device is still in sysfs. A buffer whose device went away may simply stay
    /// silent (no read error), so a quiet buffer is checked this way.
    var isPresent: Bool {
        access("/sys/bus/iio/devices/\(info.candidate.id)", F_OK) == 0
    }

    // MARK: motion events

    /// Enables the device's motion events; returns the fd that becomes readable when it moves.
    /// When they cannot be had, the device is read on the sampling schedule instead (and its
    /// `info` says so and why).
    func startMotionEvents() -> Result<Int32, SensorError> {
        if let motionSource { return .success(motionSource.fd) }
        guard let motionEvents else { return .failure(SensorError(operation: "motion events", errno: ENOENT)) }
        do {
            let source = try MotionEventSource(deviceID: info.candidate.id, enable: motionEvents.enableFiles)
            motionSource = source
            return .success(source.fd)
        } catch {
            let busy = (error as? SensorError)?.busy == true
            let fallback = ReadingModeChoice.fallback(from: .motionEvents, because: busy
                ? "another program holds its motion events (another session, a running wlr-orient)"
                : "its motion events cannot be had (\(error))", limit: busy ? .busy : nil)
            info.mode = fallback.mode
            info.modeReason = fallback.why
            info.limit = fallback.limit
            return .failure(error as? SensorError ?? SensorError(operation: "motion events", errno: EIO))
        }
    }

    /// How many motion events came since the last call (0: none); a failure when the source ended.
    func drainMotionEvents() -> Result<Int, ReadFailure> {
        guard let motionSource else { return .success(0) }
        do { return .success(try motionSource.drain()) } catch { return .failure(ReadFailure(error)) }
    }

    // MARK: buffered capture

    /// Starts streaming `batch` samples per wakeup; returns the fd to poll.
    func startBuffer(batch: Int) throws -> Int32 {
        if let buffer { return buffer.fd }
        // Switched on since it was looked at: another program set it up (libiio's set-up would
        // switch it off before finding the node busy).
        if Self.bufferOn(info.candidate.id), !BufferMark.isOurs(info.candidate.id) {
            throw SensorError(operation: "buffer of \(info.candidate.id)", errno: EBUSY)
        }
        let directory = "/sys/bus/iio/devices/\(info.candidate.id)"
        let touched = ["buffer/length", "buffer/watermark"]
            + directoryEntries("\(directory)/scan_elements").filter { $0.hasSuffix("_en") }.sorted().map { "scan_elements/" + $0 }
        beforeBuffer = restore.entries.count
        for name in touched { restore.note(path: "\(directory)/\(name)", readSmallFile("\(directory)/\(name)")) }
        for c in channels { c.enable() }
        device.setKernelBuffers(4)
        let b: IIOBuffer
        do {
            b = try IIOBuffer(device: device, samples: max(1, batch))
        } catch {
            for c in channels { c.disable() }
            writeBackBufferSetUp()
            throw error
        }
        buffer = b
        BufferMark.set(info.candidate.id)
        return b.fd
    }

    /// Whether the device's buffer is switched on now.
    static func bufferOn(_ id: String) -> Bool {
        readSmallFile("/sys/bus/iio/devices/\(id)/buffer/enable").map { RawReading.parse($0) == .success(1) } == true
    }

    func stopBuffer() {
        guard buffer != nil else { return }
        buffer = nil
        for c in channels { c.disable() }
        writeBackBufferSetUp()
    }

    /// The buffer's attributes as they were before it was set up (those that differ now).
    private func writeBackBufferSetUp() {
        restore.writeBack(since: beforeBuffer)
    }

    /// Drains what the buffer holds: each sample in counts, with a flag for a saturated axis.
    func readBuffered() -> Result<[(Double, Double, Double)], ReadFailure> {
        guard let buffer else { return .success([]) }
        do {
            guard try buffer.refill() > 0 else { return .success([]) }
        } catch { return .failure(ReadFailure(error)) }
        var out: [(Double, Double, Double)] = []
        let rails = channels.map { c -> Double in
            let f = c.format
            return Double((Int64(1) << Int64(min(max(f.bits, 2), 62) - (f.signed ? 1 : 0))) - 1)
        }
        var saturated = 0
        buffer.forEachSample(channels) { starts in
            let raw = (0..<3).map { Double(channels[$0].convert(starts[$0])) }
            if (0..<3).contains(where: { abs(raw[$0]) >= rails[$0] }) { saturated += 1; return }
            out.append(counts(raw[0], raw[1], raw[2]))
        }
        if saturated > 0, out.isEmpty { return .failure(.bad("\(info.candidate.id): \(saturated) saturated sample(s) dropped")) }
        return .success(out)
    }
}

import CWlrGlue
import OrientCore
import OrientSensor

/// The plugin: translates wlroots events into core inputs and core decisions into wlroots calls.
final class Plugin {
    let orient: UnsafeMutablePointer<wlr_orient>
    private let host: wlr_orient_host
    private let config: Config
    /// Where the felt orientation is saved; nil when the saved state could not be read (then
    /// writing would wipe the user's lock).
    private let stateFile: StateFile?
    private var state: PersistentState
    private let sensor: OrientationSensor
    /// The felt orientation: the sensor's once it has one, the saved one before.
    private var felt: Orientation? { state.lastFelt }
    private var panels: [Panel] = []
    private var listeners: [Listener] = []
    /// Listeners on the backend, removed when it is destroyed (it may go before we do).
    private var backendListeners: [Listener] = []
    private var timer: OpaquePointer?
    private var fdSource: OpaquePointer?
    private var watchedFD: Int32?
    /// What the sensor reported on its last run, kept so that reading it allocates nothing.
    private var events: [SensorEvent] = []
    private var droppedLogged: Set<DroppedLevel> = []

    init?(host: wlr_orient_host) {
        guard host.display != nil, host.backend != nil, host.output_layout != nil else {
            Log.error("wlr_orient_create: the host must give display, backend and output_layout")
            return nil
        }
        self.host = host
        // The TOML files are read by the CLI (`wlr-orient plugin-inputs`), never in the compositor:
        // a parser that aborts on bad input, and Foundation with it, stay out of this process.
        switch PluginInputsReader.read(configPath: host.config_path.map { String(cString: $0) }) {
        case .success(let inputs):
            inputs.messages.forEach(Log.error)
            config = inputs.config
            state = inputs.state
            stateFile = inputs.stateDirectory.isEmpty ? nil : StateFile(directory: inputs.stateDirectory)
        case .failure(let why):
            Log.error("\(why); using built-in defaults, and the saved state is left as it is")
            config = Config()
            state = PersistentState()
            stateFile = nil
        }
        sensor = OrientationSensor(device: config.device, detection: config.detection, savedFelt: state.lastFelt)
        guard let orient = glue_orient_alloc(nil) else { return nil }
        self.orient = orient
    }

    /// Hooks into the compositor: outputs and input devices, the event loop; starts the sensor.
    func attach() {
        let backend = host.backend
        // If the compositor destroys its display before calling wlr_orient_destroy, everything we
        // hooked (signals, event sources) is going away: unhook it now, while it exists.
        listeners += [Listener(displayDestroy: host.display) { [unowned self] _ in unhook() }].compactMap { $0 }
        backendListeners = [
            Listener(signal(backend, \.events.new_output)) { [unowned self] data in
                addOutput(data?.assumingMemoryBound(to: wlr_output.self))
            },
            Listener(signal(backend, \.events.new_input)) { [unowned self] data in
                mapInput(data?.assumingMemoryBound(to: wlr_input_device.self))
            },
            // The backend can go first (a headless backend goes with the display, before us).
            Listener(signal(backend, \.events.destroy)) { [unowned self] _ in
                backendListeners.forEach { $0.remove() }
                backendListeners = []
            },
        ].compactMap { $0 }
        glue_output_layout_for_each(host.output_layout, Unmanaged.passUnretained(self).toOpaque()) { context, output in
            guard let context else { return }
            Unmanaged<Plugin>.fromOpaque(context).takeUnretainedValue().addOutput(output)
        }
        let loop = wl_display_get_event_loop(host.display)
        timer = glue_add_timer(loop, Unmanaged.passUnretained(self).toOpaque()) { context in
            guard let context else { return 0 }
            Unmanaged<Plugin>.fromOpaque(context).takeUnretainedValue().runSensor()
            return 0
        }
        Log.info("started; panels match \(config.device.outputs.joined(separator: ", "))"
                 + (felt.map { "; last orientation \($0.rawValue)" } ?? ""))
        updateSensorNeed()
        schedule()
    }

    func destroy() {
        glue_signal_emit(signal(orient, \.events.destroy), orient)
        unhook()
        glue_orient_free(orient)
    }

    /// Releases the sensor and removes every listener and event source. Safe to call twice.
    private func unhook() {
        sensor.stop()
        if let timer { wl_event_source_remove(timer) }
        if let fdSource { wl_event_source_remove(fdSource) }
        timer = nil
        fdSource = nil
        watchedFD = nil
        listeners.forEach { $0.remove() }
        listeners = []
        backendListeners.forEach { $0.remove() }
        backendListeners = []
        panels.forEach { $0.detach() }
        panels = []
    }

    // MARK: outputs and inputs

    private func addOutput(_ output: UnsafeMutablePointer<wlr_output>?) {
        guard let output, !panels.contains(where: { $0.output == output }) else { return }
        let name = output.pointee.name.map { String(cString: $0) } ?? ""
        guard config.device.isBuiltInPanel(outputName: name) else { return }
        let panel = Panel(output: output) { [unowned self] gone in
            gone.detach()
            panels.removeAll { $0 === gone }
        }
        panels.append(panel)
        Log.info("\(name): a built-in panel (\(panel.shape.rawValue)); it follows the device")
        updateSensorNeed()
        apply(to: panel)
        schedule()
    }

    /// Touchscreens and pen tablets are mapped to the panel, so that their coordinates follow it.
    private func mapInput(_ device: UnsafeMutablePointer<wlr_input_device>?) {
        guard let device, let cursor = host.cursor, let panel = panels.first else { return }
        guard device.pointee.type == WLR_INPUT_DEVICE_TOUCH || device.pointee.type == WLR_INPUT_DEVICE_TABLET_TOOL else { return }
        wlr_cursor_map_input_to_output(cursor, device, panel.output)
    }

    // MARK: the sensor on the event loop

    /// Samples only while some panel could still turn; otherwise the sensor is released.
    private func updateSensorNeed() {
        let needed = panels.isEmpty || panels.contains { panel in
            let (device, global) = masks(for: panel)
            return Policy.sensorMatters(device: device, global: global)
        }
        if needed, !sensor.isRunning {
            sensor.start()
        } else if !needed, sensor.isRunning {
            sensor.stop()
            Log.info("nothing can rotate (the lock and the device leave one orientation); the accelerometer is released")
            panels.forEach(apply)
        }
    }

    private func runSensor() {
        events.removeAll(keepingCapacity: true)
        sensor.process(into: &events)
        for event in events {
            switch event {
            case .opened(let info): Log.info("accelerometer: \(info)")
            case .lost(let why): Log.error("accelerometer: \(why); keeping \(felt?.rawValue ?? "the current orientation")")
            case .log(let line): Log.info(line)
            case .sample: break
            case .change(let change):
                // For the latency benchmark: when the sample that completed this decision was read.
                Log.debug("decision \(change.orientation.rawValue) from the sample read at \(sensor.monotonicTime(ofSampleAt: change.t)) s")
                feltChanged(change.orientation)
            }
        }
        schedule()
    }

    /// Re-arms the timer for the sensor's next deadline and watches its fd, if it has one.
    private func schedule() {
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

    // MARK: decisions

    private func feltChanged(_ orientation: Orientation) {
        if state.lastFelt != orientation {
            state.lastFelt = orientation
            if case .failure(let why) = stateFile?.save(state) { Log.error("cannot save the state: \(why)") }
        }
        panels.forEach(apply)
    }

    /// What the hardware supports and what the user's lock allows, on this panel's shape.
    private func masks(for panel: Panel) -> (device: OrientationMask, global: OrientationMask) {
        (config.device.orientations.resolve(on: panel.shape), state.lock?.resolve(on: panel.shape) ?? .all)
    }

    /// Runs the policy for one panel and shows its decision.
    private func apply(to panel: Panel) {
        let (device, global) = masks(for: panel)
        let decision = Policy.decide(PolicyInput(felt: felt, current: panel.current, device: device,
                                                 global: global, client: nil))
        for level in decision.dropped where !droppedLogged.contains(level) {
            droppedLogged.insert(level)
            switch level {
            case .globalLock: Log.error("the lock \(state.lock?.description ?? "") allows nothing this device can show; ignoring it")
            case .client(let app): Log.error("\(app) supports nothing the lock and device allow; ignoring what it asks")
            }
        }
        guard panel.show(decision.target) else { return }
        Log.info("\(panel.name): \(decision.target.rawValue) (transform \(decision.target.outputTransform))")
        if let manager = host.output_manager {
            glue_publish_output_configuration(manager, host.output_layout)
        }
        glue_signal_emit(signal(orient, \.events.output_transformed), UnsafeMutableRawPointer(panel.output))
    }
}

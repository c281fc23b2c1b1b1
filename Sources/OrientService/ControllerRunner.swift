import OrientCore
import OrientSystem

/// A host's core (`HostCore`: the controller, alone or composed) and everything every host (the
/// plugin inside a compositor, the daemon beside one) runs around it on its event loop: the
/// config read by `wlr-orient plugin-inputs` (again on a reload or when the file is saved), the
/// saved state, the sensor, the control socket, and the queue that hands the core one event at a
/// time. A host translates its compositor's events into `dispatch` and carries out the commands
/// only it can (`Core.HostCommand`) in `perform`; this carries out the runner's.
public final class ControllerRunner<Core: HostCore> {
    public private(set) var core: Core
    public var controller: Controller { core.controller }
    /// The config file given to the host (the compositor's, or `--config`); nil for the user's.
    private let configPath: String?
    private let helper: String?
    /// Where state.toml goes; nil when the saved state could not be read (then writing would
    /// wipe the user's lock).
    private let stateDirectory: String?
    /// The saved state read at start: what this session knows of the file until it saves.
    private var startState = PersistentState()
    /// The config file to watch for changes: the one in use, else where the user's would be.
    private var watchedConfigFile: String
    private var loop: OpaquePointer?
    private var perform: (Core.HostCommand) -> Void = { _ in }
    private var sensor: SensorControl?
    private var stateSaver: StateSaver?
    private var reloader: ConfigReloader?
    private var configWatcher: ConfigWatcher?
    private var controlServer: ControlServer?
    /// Events wait here while commands run: a command may cause an event (a refused commit).
    private var queue: [Core.Event] = []
    private var dispatching = false
    /// The core's wake-up (`RunnerCommand.wake`), armed only while it asks for one.
    private var wakeTimer: LoopSource?

    /// Reads the config and the saved state (through `wlr-orient plugin-inputs`; what is wrong
    /// with them is logged, and the defaults are used).
    /// `helper`: the program that reads them (else `PluginInputsReader.helperPath()`).
    public init(configPath: String?, helper: String? = nil) {
        self.configPath = configPath
        self.helper = helper
        var configFile: String?
        switch PluginInputsReader.read(configPath: configPath, helper: helper) {
        case .success(let inputs):
            inputs.messages.forEach(Log.error)
            inputs.configErrors.forEach { Log.error("config: \($0); using built-in defaults") }
            Events.emit(.config(applied: inputs.configErrors.isEmpty, appRules: inputs.config.apps.count, errors: inputs.configErrors))
            core = Core(config: inputs.config, state: inputs.state, desktop: inputs.desktop)
            startState = inputs.state
            configFile = inputs.configFile
            stateDirectory = inputs.stateDirectory.isEmpty ? nil : inputs.stateDirectory
        case .failure(let why):
            Log.error("\(why); using built-in defaults, and the saved state is left as it is")
            Events.emit(.config(applied: false, appRules: 0, errors: ["\(why)"]))
            core = Core(config: Config(), state: PersistentState(), desktop: DesktopIndex())
            stateDirectory = nil
        }
        watchedConfigFile = configPath ?? configFile ?? Self.userConfigFile
    }

    /// Starts the state saver, the config reloader and watcher and the sensor on `loop`.
    /// `sensor`: makes the host's sensor; `perform`: carries out what only the host can.
    public func attach(loop: OpaquePointer, sensor makeSensor: SensorMaker, perform: @escaping (Core.HostCommand) -> Void) {
        self.loop = loop
        self.perform = perform
        Events.attach(loop: loop)
        if let stateDirectory {
            let helper = helper
            // Another session of the same user may have written since: read through the helper,
            // as at start (no parser runs in this process), on the saver's thread.
            stateSaver = StateSaver(file: StateFile(directory: stateDirectory), loop: loop, known: startState) {
                PluginInputsReader.readState(helper: helper)
            }
        }
        reloader = ConfigReloader(loop: loop, arguments: PluginInputsReader.arguments(configPath: configPath, helper: helper)) { [unowned self] in
            reloaded($0)
        }
        watchConfig()
        let config = controller.config
        sensor = makeSensor(loop, config.device, config.detection) { [unowned self] in sensorReported($0) }
    }

    /// What the controller asks for at the start (the sensor, the saved lock's panels). Events
    /// that carrying it out causes (a tablet switch read at once) wait their turn in the queue.
    public func start() {
        dispatching = true
        core.advanceClock(to: monotonicSeconds())
        execute(core.start())
        drainQueue()
    }

    /// Releases the sensor, writes the last state asked for, closes the control socket and stops
    /// watching the config. Safe to call twice.
    public func stop() {
        sensor.take()?.remove()
        stateSaver.take()?.finish()
        controlServer.take()?.stop()
        reloader.take()?.stop()
        configWatcher.take()?.stop()
        wakeTimer.take()?.remove()
        perform = { _ in }
        Events.detach()
    }

    // MARK: events in, commands out

    /// What the sensor reports, to the log and the controller.
    private func sensorReported(_ report: SensorReport) {
        switch report {
        case .opened(let device, let description, let t):
            Log.info("accelerometer: \(description)")
            Events.emit(.sensorOpened(device: device.id, description: description))
            dispatch(Core.event(.sensorOpened(device, at: t)))
        case .lost(let why):
            Log.error("accelerometer: \(why); keeping \(controller.state.lastFelt?.rawValue ?? "the current orientation")")
            Events.emit(.sensorLost(why: why))
            dispatch(Core.event(.sensorLost(why)))
        case .log(let line):
            Log.info(line)
        case .stillReading:
            break
        case .awaitingUdev:
            Events.emit(.sensorAwaitsUdev)
        case .sample(let raw, let held):
            dispatch(Core.event(.reading(raw, held: held)))
        }
    }

    /// Hands one event to the core and carries out what it says.
    public func dispatch(_ event: Core.Event) {
        queue.append(event)
        guard !dispatching else { return }
        dispatching = true
        drainQueue()
    }

    private func drainQueue() {
        while !queue.isEmpty {
            core.advanceClock(to: monotonicSeconds())
            execute(core.handle(queue.removeFirst()))
        }
        dispatching = false
    }

    private func execute(_ commands: [CoreCommand<Core.HostCommand>]) {
        for command in commands {
            switch command {
            case .host(let command):
                perform(command)
            case .runner(let command):
                run(command)
            }
        }
    }

    private func run(_ command: RunnerCommand) {
        switch command {
        case .startSensor:
            sensor?.start()
        case .stopSensor:
            sensor?.stop()
        case .replaceSensor(let device, let detection):
            sensor?.replace(device, detection)
        case .paceSensor(let period):
            sensor?.pace(period)
        case .save(let state):
            stateSaver?.save(state)
        case .notify(let status):
            controlServer?.broadcast(status)
            Events.emit(.status(status))
        case .reloadConfig:
            reloader?.reload()
        case .log(.info, let line):
            Log.info(line)
        case .log(.error, let line):
            Log.error(line)
        case .event(let event):
            Events.emit(event)
        case .wake(let at):
            wake(at: at)
        }
    }

    /// Arms (or disarms) the core's one timer; a time already past fires on the next dispatch.
    private func wake(at time: Double?) {
        guard let time, let loop else {
            wakeTimer?.arm(milliseconds: 0)   // 0 disarms a wl_event_loop timer
            return
        }
        if wakeTimer == nil {
            wakeTimer = LoopSource.timer(on: loop) { [unowned self] in dispatch(Core.event(.wake)) }
        }
        // Clamped before the conversion (which would trap outside Int32): a time past wakes at once.
        let ms = ((time - monotonicSeconds()) * 1000).rounded(.up)
        wakeTimer?.arm(milliseconds: ms.isFinite ? Int32(max(1, min(ms, Double(Int32.max)))) : 1)
    }

    // MARK: the config

    private static var userConfigFile: String {
        var environment: [String: String] = [:]
        for key in ["HOME", "XDG_CONFIG_HOME"] { environment[key] = environmentValue(key) }
        return XDGPaths(environment: environment).userConfigFile
    }

    /// A change to the config file (an editor saving it) reads it again, as `wlr-orient reload` does.
    /// The file is watched through its directories, which may be removed and made again.
    private func watchConfig() {
        guard let loop else { return }
        configWatcher?.stop()
        var file = watchedConfigFile
        if !file.hasPrefix("/"), let cwd = currentDirectory() {
            file = cwd + "/" + file
        }
        configWatcher = ConfigWatcher(file: file, loop: loop) { [unowned self] in
            // Not said at each change: an editor writes a file several times in a row, a script a
            // hundred times a second, and each read that is applied says so ("config applied").
            Log.debug("config: \(file) changed; reading it again")
            Events.emit(.configChanged(file: file))
            reloader?.reload()
        }
        if configWatcher == nil {
            Log.error("config: cannot watch \(file) (\(SystemError.last("inotify").reason)); saving it goes unnoticed, `wlr-orient reload` reads it")
        }
    }

    /// The config read again, for the controller to apply or refuse.
    private func reloaded(_ result: Result<PluginInputs, Problem>) {
        let inputs: PluginInputs
        switch result {
        case .failure(let why):
            Log.error("\(why); keeping the config in use")
            return Events.emit(.config(applied: false, appRules: 0, errors: ["\(why)"]))
        case .success(let read):
            inputs = read
        }
        inputs.messages.forEach(Log.error)
        // The user's file may be another one now (XDG_CONFIG_HOME's, once it exists).
        if inputs.configErrors.isEmpty, let file = inputs.configFile, configPath == nil, file != watchedConfigFile {
            watchedConfigFile = file
            watchConfig()
        }
        dispatch(Core.event(.configLoaded(inputs.config, inputs.desktop, errors: inputs.configErrors)))
        // After the lines that say it (the controller's) and what applying it set off.
        Events.emit(.config(applied: inputs.configErrors.isEmpty, appRules: inputs.config.apps.count, errors: inputs.configErrors))
    }

    // MARK: the control socket

    /// Serves the control socket (`who`: what `wlr-orient lock` reaches, for the log); its path
    /// when it is served.
    @discardableResult
    public func startControlServer(who: String) -> String? {
        guard let loop else { return nil }
        guard let path = DisplaySession.controlSocketPath else {
            Log.error("no control socket: $XDG_RUNTIME_DIR is not set; `wlr-orient lock` cannot reach \(who)")
            return nil
        }
        switch ControlServer.start(path: path, loop: loop, handle: { [unowned self] in control($0) }) {
        case .success(let server):
            controlServer = server
            Log.info("control socket: \(path)")
            Events.emit(.controlSocket(path: path))
            return path
        case .failure(let why):
            Log.error("no control socket: \(why)")
            return nil
        }
    }

    /// A request from the control socket; the status after it.
    private func control(_ request: ControlRequest) -> ControllerStatus {
        if case .command(let command) = request { dispatch(Core.event(.control(command))) }
        var status = core.status
        if status.sensor.state == .reading, let last = controller.lastSensorReport {
            status.sensor.lastReportAge = max(0, monotonicSeconds() - last)
        }
        return status
    }
}

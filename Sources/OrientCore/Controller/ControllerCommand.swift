public enum LogLevel: Sendable, Hashable {
    case info
    case error
}

/// What a core asks of the runner around it: the same in every host (the sensor, the saved
/// state, the control socket's watchers, the config reader, the log).
public enum RunnerCommand: Sendable, Hashable {
    case startSensor
    case stopSensor
    /// Read the accelerometer again this many seconds after its last reading (nil: not until it
    /// says it moved): the sampling plan's pace, sent when it changes.
    case paceSensor(Double?)
    /// The accelerometer or its detector is configured anew: a new sensor in place of the old,
    /// knowing the felt orientation, running if the old one ran.
    case replaceSensor(DeviceConfig, DetectionConfig)
    /// Write the state (lock, last felt orientation) to disk, without blocking.
    case save(PersistentState)
    /// Something changed that `status` reports: tell the watchers.
    case notify(ControllerStatus)
    /// Read the config again (asynchronously), then send `.configLoaded`.
    case reloadConfig
    case log(LogLevel, String)
    /// For the event stream (`OrientEvent`), where the tests and benchmarks read it.
    case event(OrientEvent)
    /// Send `.wake` at this time (monotonic seconds), replacing the time asked before; nil:
    /// none is wanted. Asked only while something waits on a clock (a touch's hold, a
    /// suggestion's end): a still device wakes nobody.
    case wake(at: Double?)
}

/// What the controller asks of a compositor whose outputs it turns directly (the plugin's);
/// the daemon's core turns `.show` into output configurations itself.
public enum PanelCommand: Sendable, Hashable {
    /// Show `orientation` on the panel (set its transform), turning as `transition` says.
    case show(PanelID, Orientation, transition: TransitionPlan)
    /// Tell a client, over the protocol, what its output will show; sent before the output
    /// turns, so before the configure that carries the new size.
    case tellShown(ToplevelID, ContentOrientations)
    /// Tell a client that takes orientation as input how the device is held now.
    case tellFelt(ToplevelID, ContentOrientations)
    /// Show the suggestion's target on the panel (nil: take it away, fading).
    case suggest(PanelID, SuggestionTarget?)
}

/// One step a core asks for, in order: the runner's, or its host's (`Host`: what that host alone
/// can carry out, so that a host's switch has no arm that cannot happen).
public enum CoreCommand<Host: Sendable & Hashable>: Sendable, Hashable {
    case runner(RunnerCommand)
    case host(Host)
}

/// What the controller asks, in order.
public typealias ControllerCommand = CoreCommand<PanelCommand>

extension CoreCommand {
    public static var startSensor: Self { .runner(.startSensor) }
    public static var stopSensor: Self { .runner(.stopSensor) }
    public static var reloadConfig: Self { .runner(.reloadConfig) }
    public static func paceSensor(_ period: Double?) -> Self { .runner(.paceSensor(period)) }
    public static func replaceSensor(_ device: DeviceConfig, _ detection: DetectionConfig) -> Self {
        .runner(.replaceSensor(device, detection))
    }
    public static func save(_ state: PersistentState) -> Self { .runner(.save(state)) }
    public static func notify(_ status: ControllerStatus) -> Self { .runner(.notify(status)) }
    public static func log(_ level: LogLevel, _ line: String) -> Self { .runner(.log(level, line)) }
    public static func event(_ event: OrientEvent) -> Self { .runner(.event(event)) }
    public static func wake(at time: Double?) -> Self { .runner(.wake(at: time)) }
}

extension CoreCommand where Host == PanelCommand {
    public static func show(_ panel: PanelID, _ orientation: Orientation, transition: TransitionPlan) -> Self {
        .host(.show(panel, orientation, transition: transition))
    }
    public static func tellShown(_ toplevel: ToplevelID, _ orientations: ContentOrientations) -> Self {
        .host(.tellShown(toplevel, orientations))
    }
    public static func tellFelt(_ toplevel: ToplevelID, _ orientations: ContentOrientations) -> Self {
        .host(.tellFelt(toplevel, orientations))
    }
    public static func suggest(_ panel: PanelID, _ target: SuggestionTarget?) -> Self {
        .host(.suggest(panel, target))
    }
}

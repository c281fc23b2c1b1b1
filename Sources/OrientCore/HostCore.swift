/// The decisions one kind of host runs: the controller alone where the host turns its outputs
/// itself (the plugin, inside the compositor), or the controller composed with what it takes to
/// turn a compositor's outputs from outside (`DaemonCore`). The runner around it (the sensor,
/// the config, the saved state, the control socket) is the same for every core.
public protocol HostCore: Sendable {
    /// What the host reports (its compositor's events, translated).
    associatedtype Event: Sendable
    /// What only the host can carry out.
    associatedtype HostCommand: Sendable & Hashable

    init(config: Config, state: PersistentState, desktop: DesktopIndex)

    /// The controller inside: its config and state.
    var controller: Controller { get }

    /// What `status` reports: the controller's, and what the host's own part knows besides.
    var status: ControllerStatus { get }

    /// An event the runner itself hears (the sensor, the control socket, the config read again).
    static func event(_ event: ControllerEvent) -> Event

    /// The first commands.
    mutating func start() -> [CoreCommand<HostCommand>]

    /// Applies one event; returns what must be done, in order.
    mutating func handle(_ event: Event) -> [CoreCommand<HostCommand>]

    /// The host's clock (monotonic seconds), set before each event: what waits on time (a
    /// touch's hold, a suggestion) is measured on it.
    mutating func advanceClock(to now: Double)
}

/// The plugin's core is the controller itself: the compositor lays out every window, so it
/// reports fullscreen and maximized ones, and it carries out `.show` on its outputs.
extension Controller: HostCore {
    public init(config: Config, state: PersistentState, desktop: DesktopIndex) {
        self.init(config: config, state: state, desktop: desktop, coverEvidence: .reported)
    }

    public var controller: Controller { self }

    public static func event(_ event: ControllerEvent) -> ControllerEvent { event }
}

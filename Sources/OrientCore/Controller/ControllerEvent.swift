/// A built-in panel, as the host names it to the controller (the plugin uses the output's address).
public struct PanelID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let raw: UInt
    public init(_ raw: UInt) { self.raw = raw }
    public static func < (a: PanelID, b: PanelID) -> Bool { a.raw < b.raw }
    public var description: String { "panel#\(raw)" }
}

/// A toplevel window, as the host names it to the controller.
public struct ToplevelID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let raw: UInt
    public init(_ raw: UInt) { self.raw = raw }
    public static func < (a: ToplevelID, b: ToplevelID) -> Bool { a.raw < b.raw }
    public var description: String { "toplevel#\(raw)" }
}

/// What the user asks over the control socket (`wlr-orient lock`…).
public enum ControlCommand: Sendable, Hashable {
    /// Lock to these orientations.
    case lock(MaskSpec)
    /// Lock to the orientation the panel shows now.
    case lockCurrent
    case unlock
    /// Unlock if locked, else lock to the orientation shown now.
    case toggle
    /// Read the config again.
    case reload
    /// Take the turn offered (`Suggestion`): lock to it, as a tap on the target does.
    case acceptSuggestion
    /// Take the offer away.
    case dismissSuggestion
}

extension ControlCommand {
    /// What a lock command does to the lock.
    public enum LockChange: Sendable, Hashable {
        /// Not a lock command (`reload`, the suggestion's).
        case none
        /// The lock becomes this (nil: unlocked).
        case set(MaskSpec?)
        /// It locks to what is shown, and nothing is known to be shown.
        case nothingShown
    }

    /// The lock after this command, from the lock now and the orientation shown now (the
    /// controller's panel; with no compositor running, the last orientation held).
    public func lockChange(from lock: MaskSpec?, shown: Orientation?) -> LockChange {
        let current = shown.map { LockChange.set(MaskSpec(exactly: $0)) } ?? .nothingShown
        switch self {
        case .lock(let spec): return .set(spec)
        case .lockCurrent: return current
        case .unlock: return .set(nil)
        case .toggle: return lock == nil ? current : .set(nil)
        case .reload, .acceptSuggestion, .dismissSuggestion: return .none
        }
    }
}

/// Everything that can change a decision. The plugin and the daemon translate what their
/// compositor reports into these; nothing else reaches the controller.
public enum ControllerEvent: Sendable, Hashable {
    /// An accelerometer was opened at `at` (the sensor's seconds): its readings are judged afresh.
    case sensorOpened(Perception.Device, at: Double)
    /// It vanished, or none can be used, or its reader hung: why (the felt orientation stays
    /// until another is read).
    case sensorLost(String)
    /// One reading from it (`Perception.judge`). Most decide nothing; one that changes the felt
    /// orientation decides as `.felt` does.
    case reading(RawSample, held: Bool)
    /// How the person holds the device (what a reading may bring; a test may say it directly).
    case felt(Orientation)
    /// Which way the device leans now (in-plane angle, degrees; see `PolicyInput.lean`): breaks a
    /// tie between two orientations equally far from the felt one.
    case lean(Double)
    /// A built-in panel appeared, showing `showing` (its transform now).
    case panelAdded(PanelID, name: String, shape: PanelShape, showing: Orientation)
    case panelRemoved(PanelID)
    /// The panel shows something other than it was told (its commit failed): what it shows.
    case panelShowing(PanelID, Orientation)
    /// Someone else set the panel's transform: it shows `Orientation` now (`PanelSetter` says what
    /// follows). `at`: the host's clock, in seconds. `process`: the client's program, where the
    /// host can tell (the plugin, for a client through output management).
    case panelSetElsewhere(PanelID, Orientation, by: PanelSetter, at: Double, process: String? = nil)
    /// A toplevel's initial commit, before its first configure is sent: it is about to come to
    /// front (rule 5). `covers`: it will be fullscreen or maximized.
    case toplevelAdded(ToplevelID, appID: String, covers: Bool)
    case toplevelAppID(ToplevelID, String)
    /// It became, or stopped being, fullscreen or maximized.
    case toplevelCovers(ToplevelID, Bool)
    /// It was mapped (shown) or unmapped (hidden).
    case toplevelMapped(ToplevelID, Bool)
    /// The panels it is shown on (none: only on other outputs). A host that never says is taken
    /// to show every toplevel on every panel (the plugin); the daemon hears it from the compositor.
    /// nil: the host cannot tell (the compositor named no output of it, or one it does not know):
    /// taken to be on every panel too, and `status` says its output is unknown.
    case toplevelPanels(ToplevelID, Set<PanelID>?)
    case toplevelRemoved(ToplevelID)
    /// Keyboard focus moved to this toplevel, or to nothing.
    case focus(ToplevelID?)
    /// The host says which toplevel is in front on a panel (`wlr_orient_set_front`); from then
    /// on that panel's front is the host's word, not focus.
    case hostFront(PanelID, ToplevelID?)
    /// A client's protocol object for a toplevel: created or changed; nil when destroyed.
    case declaration(ToplevelID, ClientDeclaration?)
    /// A client went, and with it its objects for these toplevels: as `.declaration(id, nil)`
    /// for each, in one step (a client may hold thousands).
    case declarationsGone([ToplevelID])
    case control(ControlCommand)
    /// A finger or pen began touching the panel (true: the first contact), or the last lifted.
    case touch(Bool)
    /// The host cannot see touches (why), or can again (nil): `status` says so.
    case touchesUnseen(String?)
    /// A pointer came onto the suggestion's target (true) or left it.
    case suggestionHovered(Bool)
    /// The time the controller asked for (`RunnerCommand.wake`) has come.
    case wake
    /// The tablet-mode switch turned on (tablet) or off (laptop).
    case tabletMode(Bool)
    /// The config and the `.desktop` index, read again (the state is not re-read: it is ours);
    /// `errors` (FILE:LINE:COLUMN: message) when the file was not valid.
    case configLoaded(Config, DesktopIndex, errors: [String])
}


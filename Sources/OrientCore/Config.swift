/// The configuration model: what `config.toml` says, already checked.
/// Parsing lives in `ConfigLoader`; applying it is the plugin's and the CLI's job.
public struct Config: Sendable, Hashable {
    /// Which client's wishes count: only one that covers the output, or whichever has focus.
    public enum Scope: String, Sendable, CaseIterable { case fullscreen, focused }
    /// Rotate always, or only while the tablet-mode switch is on (2-in-1s).
    public enum RotateWhen: String, Sendable, CaseIterable {
        case always
        case tabletMode = "tablet-mode"
    }

    public var scope: Scope = .fullscreen
    public var rotateWhen: RotateWhen = .always
    /// Whether the tablet-mode switches must be read (only for `rotate-when = "tablet-mode"`).
    public var readsTabletSwitches: Bool { rotateWhen == .tabletMode }
    public var device = DeviceConfig()
    public var detection = DetectionConfig()
    public var transition = TransitionConfig()
    public var suggestion = SuggestionConfig()
    /// `[[app]]` rules in file order; the last matching one wins.
    public var apps: [AppRule] = []

    public init() {}

    /// The rule for an app_id: the last rule whose `match` matches, or nil.
    public func rule(for appID: String) -> AppRule? {
        apps.last { Glob.matches(pattern: $0.match, appID) }
    }
}

public struct DeviceConfig: Sendable, Hashable {
    /// What the hardware supports, e.g. `all-but-upside-down` on a phone.
    public var orientations: MaskSpec = .all
    /// Output names (globs) that count as built-in panels and rotate.
    public var outputs: [String] = ["eDP-*", "LVDS-*", "DSI-*"]
    /// Overrides the sensor's and udev's mount matrix when set.
    public var mountMatrix: MountMatrix?
    /// Names the accelerometer to use (IIO device name or `iio:deviceN`); nil: discover.
    public var sensor: String?
    /// Read the device through its buffer or motion events where this user may; false: always
    /// from its raw values, leaving both to another program.
    public var buffered = true
    public init() {}

    /// Whether an output is a built-in panel that follows the device (only those rotate).
    public func isBuiltInPanel(outputName name: String) -> Bool {
        outputs.contains { Glob.matches(pattern: $0, name) }
    }
}

/// An `[[app]]` rule: what one app (or a glob of app_ids) supports.
public struct AppRule: Sendable, Hashable {
    /// The app_id, exact or a glob with `*` and `?`.
    public var match: String
    public var orientations: MaskSpec?
    public var transition: TransitionKind?
    /// The app takes orientation as input; the screen stays while it is in front. nil when the
    /// rule does not say (then the app's `.desktop` file may).
    public var sensorInput: Bool?

    public init(match: String, orientations: MaskSpec? = nil, transition: TransitionKind? = nil,
                sensorInput: Bool? = nil) {
        self.match = match
        self.orientations = orientations
        self.transition = transition
        self.sensorInput = sensorInput
    }
}

/// `*` (any run) and `?` (any one character) matching for app_ids and output names.
public enum Glob {
    public static func matches(pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var pi = 0, ti = 0
        var star = -1, starText = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi; starText = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; starText += 1; ti = starText
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}

/// Every key of `config.toml`, in one table: where it lives, what it takes (and within what
/// bounds), its default and a line of documentation, and where its value is kept. The loader
/// (OrientConfig's `ConfigLoader`), the plugin-inputs codec (`PluginInputs`) and the checks of
/// the example config and the man page (OrientConfigTests) all walk this table, so adding a key
/// is one row here plus its use.
public struct ConfigKey: Sendable {
    /// The table a key is written in.
    public enum Section: String, Sendable, CaseIterable {
        case top = ""
        case device, detection, transition, suggestion
        /// Each `[[app]]` rule.
        case app
    }

    /// What a key takes.
    public enum Kind: Sendable, Hashable {
        /// One of these words.
        case choice([String])
        /// A number within these bounds.
        case number(ClosedRange<Double>)
        /// A whole number of milliseconds within these bounds.
        case milliseconds(ClosedRange<Int>)
        /// Orientation words: one, a comma-separated string of them, or a list.
        case orientations
        /// A string or a list of strings.
        case strings
        case text
        /// Three rows of three numbers, "a, b, c; d, e, f; g, h, i".
        case mountMatrix
        case flag
    }

    public let section: Section
    public let name: String
    public let kind: Kind
    public let doc: String
    /// What the man page says beyond `doc` and the default (scdoc markup); often nothing.
    public let details: String
    /// A value to show, commented out, in the example config for a key without a default (each
    /// such key has one).
    public let example: String?
    /// What the man page says the key takes (scdoc markup), where its kind says too little.
    public let syntax: String?
    /// Whether every `[[app]]` rule must have it.
    public let required: Bool
    let storage: Storage

    /// Where a value is kept: in the config, or (`[[app]]`) in one rule.
    enum Storage: Sendable {
        case config(get: @Sendable (Config) -> ConfigValue?, set: @Sendable (inout Config, ConfigValue) -> Void)
        case rule(get: @Sendable (AppRule) -> ConfigValue?, set: @Sendable (inout AppRule, ConfigValue) -> Void)
    }

    /// `section.name`, as the plugin-inputs codec names it (the name alone at the top level).
    public var path: String { section == .top ? name : "\(section.rawValue).\(name)" }

    /// The value in `config` (nil: not set, for a key without a default).
    public func value(in config: Config) -> ConfigValue? {
        if case .config(let get, _) = storage { return get(config) }
        return nil
    }

    public func value(in rule: AppRule) -> ConfigValue? {
        if case .rule(let get, _) = storage { return get(rule) }
        return nil
    }

    /// The built-in default (nil for a key that has none, and for the keys of `[[app]]`).
    public var defaultValue: ConfigValue? { value(in: Config()) }

    /// Sets a value that `problem(with:)` found nothing wrong with.
    public func set(_ value: ConfigValue, in config: inout Config) {
        if case .config(_, let set) = storage { set(&config, value) }
    }

    public func set(_ value: ConfigValue, in rule: inout AppRule) {
        if case .rule(_, let set) = storage { set(&rule, value) }
    }

    /// What is wrong with a value of the right type for this key (out of bounds, not one of the
    /// words), in the words the loader reports; nil if nothing.
    public func problem(with value: ConfigValue) -> String? {
        switch (kind, value) {
        case (.choice(let words), .word(let word)):
            guard !words.contains(word) else { return nil }
            return "'\(name)' cannot be \"\(word)\"; allowed values: \(words.map { "\"\($0)\"" }.joined(separator: ", "))"
        case (.number(let range), .number(let number)):
            guard !range.contains(number) else { return nil }
            return "'\(name)' must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), got \(Self.format(number))"
        case (.milliseconds(let range), .integer(let ms)):
            guard !range.contains(ms) else { return nil }
            return "'\(name)' must be a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound), got \(ms)"
        case (.orientations, .orientations), (.strings, .strings), (.text, .text), (.mountMatrix, .matrix), (.flag, .flag):
            return nil
        default:
            return "'\(name)' cannot hold \(value)"
        }
    }

    /// A number as a person writes it: 25, not 25.0.
    public static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// One key's value, of the type its `ConfigKey.Kind` says.
public enum ConfigValue: Sendable, Hashable {
    case word(String)
    case number(Double)
    case integer(Int)
    case orientations(MaskSpec)
    case strings([String])
    case text(String)
    case matrix(MountMatrix)
    case flag(Bool)
}

extension ConfigKey {
    /// The keys of one section, in table order.
    public static func keys(in section: Section) -> [ConfigKey] { all.filter { $0.section == section } }

    /// The table.
    public static let all: [ConfigKey] = [
        choice(.top, "scope", \.scope, "which app decides: the focused app only while it covers the panel, or the focused app always",
               details: """
                   Covering is fullscreen or maximized (an app just launched counts if it asked for either, or \
                   the compositor maximizes it); for *wlr-orient daemon*, which cannot see window sizes, also \
                   being the only window shown on the output, as a tiling compositor lays out a lone window.
                   """),
        choice(.top, "rotate-when", \.rotateWhen, "rotate always, or only while a 2-in-1 is in tablet mode"),

        ConfigKey(.device, "orientations", .orientations, "the orientations the device may show",
                  details: "A phone that should never turn upside down: [\"all-but-upside-down\"].",
                  .config(get: { .orientations($0.device.orientations) },
                          set: { if case .orientations(let m) = $1 { $0.device.orientations = m } })),
        ConfigKey(.device, "outputs", .strings, "output names (globs) that are built-in panels and rotate",
                  details: "External monitors stay as they are.",
                  .config(get: { .strings($0.device.outputs) },
                          set: { if case .strings(let s) = $1 { $0.device.outputs = s } })),
        ConfigKey(.device, "mount-matrix", .mountMatrix, "the accelerometer's mount matrix, over udev's and the driver's",
                  example: #""0, -1, 0; -1, 0, 0; 0, 0, 1""#,
                  .config(get: { $0.device.mountMatrix.map(ConfigValue.matrix) },
                          set: { if case .matrix(let m) = $1 { $0.device.mountMatrix = m } })),
        ConfigKey(.device, "sensor", .text, "the accelerometer to use (iio:deviceN, its name or its label)",
                  details: "Without it, the display's accelerometer is found by itself.", example: #""iio:device0""#,
                  syntax: #""_iio:deviceN_""#,
                  .config(get: { $0.device.sensor.map(ConfigValue.text) },
                          set: { if case .text(let s) = $1 { $0.device.sensor = s } })),
        ConfigKey(.device, "buffered", .flag, "read the accelerometer through its buffer or motion events where this user may",
                  details: """
                      Then a still device wakes nobody. false reads its raw values on a schedule always, and \
                      leaves its buffer and motion events to another program that opens them after wlr-orient \
                      (wlr-orient never takes them from one that holds them).
                      """,
                  .config(get: { .flag($0.device.buffered) },
                          set: { if case .flag(let b) = $1 { $0.device.buffered = b } })),

        detection("rate-hz", \.rateHz, 1...1000, "sampling rate asked of the sensor while it moves (Hz)"),
        detection("held-hz", \.heldHz, 1...100, "a polled sensor's rate once the device is held still (Hz; at most rate-hz)",
                  details: "A polled sensor is one that cannot say when the device moves."),
        detection("alone-hz", \.aloneHz, 1...100, "a polled sensor's rate once the device is left alone (Hz; at most held-hz)"),
        detection("alone-after-s", \.aloneAfterS, 0...86400, "how long the device must be left alone for alone-hz (s)",
                  details: """
                      Left alone means that the orientation detector saw nothing in flux and that no reading \
                      moved further than *alone-tolerance* from the one before it.
                      """),
        detection("alone-tolerance", \.aloneTolerance, 0...10,
                  "how far a reading may move from the last one while the device is left alone (m/s²)",
                  details: """
                      A hand never holds a device that still, while a sensor at rest on a desk wanders less; \
                      a sensor noisier than this is never read at *alone-hz*.
                      """),
        detection("filter-ms", \.filterMs, 0...1000, "low-pass time constant (ms)"),
        detection("hysteresis-deg", \.hysteresisDeg, 0...40, "degrees past the 45° boundary before a change"),
        detection("flat-tilt-deg", \.flatTiltDeg, 30...89, "tilt beyond which the device lies flat (degrees)"),
        detection("settle-ms", \.settleMs, 0...5000, "how long a new orientation must be held (ms)"),
        detection("still-deg-per-s", \.stillDegPerS, 1...1000, "turn rate below which the device is held still (degrees a second)"),
        detection("pickup-holdoff-ms", \.pickupHoldoffMs, 0...5000, "wait after picking up from flat (ms)"),
        detection("accel-tolerance", \.accelToleranceMs2, 0.1...20, "deviation from the magnitude read at rest (1 g) that counts as acceleration (m/s²)"),
        detection("accel-holdoff-ms", \.accelHoldoffMs, 0...5000, "wait after external acceleration (ms)"),
        detection("touch-hold-ms", \.touchHoldMs, 0...5000,
                  "no turn while a finger or pen touches the panel, nor this long after it lifts (ms)",
                  details: """
                      A turn held so happens when the time is up if the device is still held that way. \
                      *wlr-orient daemon* learns of touches where the compositor offers ext-idle-notify-v1.
                      """),
        detection("touch-hold-max-ms", \.touchHoldMaxMs, 500...600_000,
                  "a touch that has not lifted after this long holds no turn any more (ms)",
                  details: """
                      Touchscreens lose lifts (suspend, a firmware reset, a palm the firmware drops) and a thumb can \
                      rest on the glass for minutes: the turn then happens, and the log says why.
                      """),

        choice(.transition, "kind", \.transition.kind, "how the screen turns: auto, a rotation, a cross-fade, or a cut",
               details: """
                   *auto* rotates when one app fills the panel or only one window shows, and cross-fades when \
                   several windows reflow. Whatever the kind, the old picture stays until the apps have drawn \
                   their new size (or *timeout-ms* passes), so no stretched frame ever shows.
                   """),
        milliseconds("duration-ms", \.durationMs, "how long a quarter turn or a cross-fade takes",
                     details: "A half-turn rotation takes 1.3 times as long."),
        choice(.transition, "curve", \.transition.curve, "the transition's pace"),
        milliseconds("timeout-ms", \.timeoutMs, "how long the old frame waits for the apps to redraw",
                     details: "*wlr-orient daemon*, which cannot see when the apps have redrawn, always waits this long."),

        ConfigKey(.suggestion, "enabled", .flag, "offer a turn the lock keeps from happening, with a target to tap",
                  details: """
                      While the lock keeps the screen from the way the device is held (and the device and \
                      the app in front allow that way), a target shows at a corner of the panel: a tap turns \
                      the screen and locks it there. *wlr-orient suggestion accept* does the same.
                      """,
                  .config(get: { .flag($0.suggestion.enabled) },
                          set: { if case .flag(let b) = $1 { $0.suggestion.enabled = b } })),
        ConfigKey(.suggestion, "seconds", .number(1...60), "how long the target stays (s)",
                  details: "While a pointer rests on it, 16 s or this, whichever is longer.",
                  .config(get: { .number($0.suggestion.seconds) },
                          set: { if case .number(let n) = $1 { $0.suggestion.seconds = n } })),
        choice(.suggestion, "corner", \.suggestion.corner, "the corner of the panel, as the device is held, where the target shows"),

        ConfigKey(.app, "match", .text, "the app_id (exact or a glob such as \"org.example.*\")",
                  details: "In a glob, *\\** and *?* stand for any text and any one character.",
                  example: #""org.example.Game""#, syntax: #""_app\_id or glob_""#, required: true,
                  .rule(get: { .text($0.match) }, set: { if case .text(let s) = $1 { $0.match = s } })),
        ConfigKey(.app, "orientations", .orientations, "the orientations the app supports",
                  details: "Without it: what the app's _.desktop_ file says, else every orientation.",
                  example: #"["landscape"]"#,
                  .rule(get: { $0.orientations.map(ConfigValue.orientations) },
                        set: { if case .orientations(let m) = $1 { $0.orientations = m } })),
        ConfigKey(.app, "transition", .choice(TransitionKind.allCases.map(\.rawValue)), "the transition while the app is in front",
                  details: "It applies while the layout is simple: the app fills the panel, or it is the only window.",
                  example: #""crossfade""#,
                  .rule(get: { $0.transition.map { .word($0.rawValue) } },
                        set: { if case .word(let w) = $1 { $0.transition = TransitionKind(rawValue: w) } })),
        ConfigKey(.app, "sensor-input", .flag, "the app reads orientation as input: the screen stays while it is in front",
                  details: "A game steered by tilting the device, for one.", example: "true",
                  .rule(get: { $0.sensorInput.map(ConfigValue.flag) },
                        set: { if case .flag(let b) = $1 { $0.sensorInput = b } })),
    ]

    /// A row of the table, written without labels so that the table reads as one.
    init(_ section: Section, _ name: String, _ kind: Kind, _ doc: String, details: String = "", example: String? = nil,
         syntax: String? = nil, required: Bool = false, _ storage: Storage) {
        self.init(section: section, name: name, kind: kind, doc: doc, details: details, example: example, syntax: syntax,
                  required: required, storage: storage)
    }

    /// A key that takes one of an enumeration's words.
    private static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ section: Section, _ name: String, _ keyPath: WritableKeyPath<Config, E> & Sendable, _ doc: String, details: String = ""
    ) -> ConfigKey where E.RawValue == String {
        ConfigKey(section, name, .choice(E.allCases.map(\.rawValue)), doc, details: details,
                  .config(get: { .word($0[keyPath: keyPath].rawValue) },
                          set: { if case .word(let w) = $1, let e = E(rawValue: w) { $0[keyPath: keyPath] = e } }))
    }

    private static func detection(_ name: String, _ keyPath: WritableKeyPath<DetectionConfig, Double> & Sendable,
                                  _ range: ClosedRange<Double>, _ doc: String, details: String = "") -> ConfigKey {
        ConfigKey(.detection, name, .number(range), doc, details: details,
                  .config(get: { .number($0.detection[keyPath: keyPath]) },
                          set: { if case .number(let n) = $1 { $0.detection[keyPath: keyPath] = n } }))
    }

    private static func milliseconds(_ name: String, _ keyPath: WritableKeyPath<TransitionConfig, Int> & Sendable,
                                     _ doc: String, details: String = "") -> ConfigKey {
        ConfigKey(.transition, name, .milliseconds(0...5000), doc, details: details,
                  .config(get: { .integer($0.transition[keyPath: keyPath]) },
                          set: { if case .integer(let ms) = $1 { $0.transition[keyPath: keyPath] = ms } }))
    }
}

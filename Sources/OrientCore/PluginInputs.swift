/// What the plugin needs from the two files it does not parse itself: the config in force, the
/// saved state, where that state lives, and what went wrong reading either.
///
/// `wlr-orient plugin-inputs`, which has the TOML parser, reads the files and prints this; the
/// plugin runs it and reads the answer. So no TOML parser (one that can abort on bad input, and
/// that brings Foundation with it) ever runs inside a compositor.
///
/// The text is one record per line: a key, then tab-separated fields, each escaped (`\\`, `\t`,
/// `\n`, `\r`) so that any name or path survives. A key the reader does not know makes the whole
/// text invalid: a plugin and a CLI from different versions fall back to defaults, and say so.
public struct PluginInputs: Sendable, Hashable {
    public var config = Config()
    /// The config file `config` came from; nil for the built-in defaults.
    public var configFile: String?
    public var state = PersistentState()
    /// Where `state.toml` lives (the plugin writes it when the felt orientation changes).
    public var stateDirectory = ""
    /// The `.desktop` files that declare orientations, by desktop ID.
    public var desktop = DesktopIndex()
    /// Problems met while reading the files, for the plugin's log.
    public var messages: [String] = []
    /// The config file's errors (FILE:LINE:COLUMN: message): the config was not applied. At start
    /// the defaults stand in; on a reload the plugin keeps the config it has.
    public var configErrors: [String] = []

    public init() {}

    public static let header = "wlr-orient plugin-inputs v1"

    public struct DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    // MARK: writing

    public func encoded() -> String {
        var lines = [Self.header]
        func add(_ key: String, _ fields: [String]) {
            lines.append(([key] + fields.map(Self.escape)).joined(separator: "\t"))
        }
        if let configFile { add("config-file", [configFile]) }
        add("scope", [config.scope.rawValue])
        add("rotate-when", [config.rotateWhen.rawValue])
        add("device.orientations", [config.device.orientations.description])
        add("device.outputs", config.device.outputs)
        if let matrix = config.device.mountMatrix { add("device.mount-matrix", matrix.m.map { String($0) }) }
        if let sensor = config.device.sensor { add("device.sensor", [sensor]) }
        for tunable in DetectionConfig.tunables {
            add("detection." + tunable.key, [String(config.detection[keyPath: tunable.keyPath])])
        }
        add("transition.kind", [config.transition.kind.rawValue])
        add("transition.duration-ms", [String(config.transition.durationMs)])
        add("transition.curve", [config.transition.curve.rawValue])
        add("transition.timeout-ms", [String(config.transition.timeoutMs)])
        for app in config.apps {
            add("app", [app.match, app.orientations?.description ?? "", app.transition?.rawValue ?? "",
                        app.sensorInput.map { $0 ? "true" : "false" } ?? ""])
        }
        for (id, entry) in desktop.entries.sorted(by: { $0.key < $1.key }) {
            add("desktop", [id, entry.path, entry.orientations.map { String($0.rawValue) } ?? "",
                            entry.rotatesContents.map { $0 ? "true" : "false" } ?? ""])
        }
        add("state.directory", [stateDirectory])
        if let lock = state.lock { add("state.lock", [lock.description]) }
        if let felt = state.lastFelt { add("state.felt", [felt.rawValue]) }
        for message in messages { add("message", [message]) }
        for error in configErrors { add("config-error", [error]) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: reading

    public static func decode(_ text: String) -> Result<PluginInputs, DecodeError> {
        var inputs = PluginInputs()
        var number = 0
        var sawHeader = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if rawLine.isEmpty { continue }
            guard sawHeader else {
                guard rawLine == header else {
                    return .failure(DecodeError(line: number, message: "expected '\(header)'"))
                }
                sawHeader = true
                continue
            }
            let parts = rawLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard let fields = Self.unescapeAll(Array(parts.dropFirst())) else {
                return .failure(DecodeError(line: number, message: "a bad escape"))
            }
            if let problem = inputs.apply(key: parts[0], fields) {
                return .failure(DecodeError(line: number, message: problem))
            }
        }
        guard sawHeader else { return .failure(DecodeError(line: 1, message: "empty")) }
        return .success(inputs)
    }

    /// Applies one record; returns what is wrong with it, if anything.
    private mutating func apply(key: String, _ f: [String]) -> String? {
        func one() -> String? { f.count == 1 ? f[0] : nil }
        func bad() -> String { "bad '\(key)'" }
        switch key {
        case "config-file":
            guard let v = one() else { return bad() }
            configFile = v
        case "scope":
            guard let v = one().flatMap(Config.Scope.init(rawValue:)) else { return bad() }
            config.scope = v
        case "rotate-when":
            guard let v = one().flatMap(Config.RotateWhen.init(rawValue:)) else { return bad() }
            config.rotateWhen = v
        case "device.orientations":
            guard let v = one().flatMap(MaskSpec.init(parsing:)) else { return bad() }
            config.device.orientations = v
        case "device.outputs":
            config.device.outputs = f
        case "device.mount-matrix":
            let values = f.compactMap(Double.init)
            guard values.count == f.count, let matrix = MountMatrix(values) else { return bad() }
            config.device.mountMatrix = matrix
        case "device.sensor":
            guard let v = one() else { return bad() }
            config.device.sensor = v
        case _ where key.hasPrefix("detection."):
            guard let tunable = DetectionConfig.tunables.first(where: { "detection." + $0.key == key }),
                  let v = one().flatMap(Double.init), tunable.range.contains(v) else { return bad() }
            config.detection[keyPath: tunable.keyPath] = v
        case "transition.kind":
            guard let v = one().flatMap(TransitionKind.init(rawValue:)) else { return bad() }
            config.transition.kind = v
        case "transition.duration-ms":
            guard let v = one().flatMap({ Int($0) }), v >= 0 else { return bad() }
            config.transition.durationMs = v
        case "transition.curve":
            guard let v = one().flatMap(TransitionCurve.init(rawValue:)) else { return bad() }
            config.transition.curve = v
        case "transition.timeout-ms":
            guard let v = one().flatMap({ Int($0) }), v >= 0 else { return bad() }
            config.transition.timeoutMs = v
        case "app":
            guard f.count == 4, ["true", "false", ""].contains(f[3]) else { return bad() }
            var rule = AppRule(match: f[0], sensorInput: f[3].isEmpty ? nil : f[3] == "true")
            if !f[1].isEmpty {
                guard let spec = MaskSpec(parsing: f[1]) else { return bad() }
                rule.orientations = spec
            }
            if !f[2].isEmpty {
                guard let kind = TransitionKind(rawValue: f[2]) else { return bad() }
                rule.transition = kind
            }
            config.apps.append(rule)
        case "desktop":
            guard f.count == 4, ["true", "false", ""].contains(f[3]) else { return bad() }
            var entry = DesktopOrientation(path: f[1])
            if !f[2].isEmpty {
                guard let raw = UInt32(f[2]) else { return bad() }
                entry.orientations = ContentOrientations(rawValue: raw)
            }
            if !f[3].isEmpty { entry.rotatesContents = f[3] == "true" }
            desktop.entries[f[0]] = entry
        case "config-error":
            guard let v = one() else { return bad() }
            configErrors.append(v)
        case "state.directory":
            guard let v = one() else { return bad() }
            stateDirectory = v
        case "state.lock":
            guard let v = one().flatMap(MaskSpec.init(parsing:)) else { return bad() }
            state.lock = v
        case "state.felt":
            guard let v = one().flatMap(Orientation.init(rawValue:)) else { return bad() }
            state.lastFelt = v
        case "message":
            guard let v = one() else { return bad() }
            messages.append(v)
        default:
            return "unknown key '\(key)'"
        }
        return nil
    }

    // MARK: escaping

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func unescape(_ s: String) -> String? {
        var out = ""
        var escaping = false
        for c in s.unicodeScalars {
            if escaping {
                switch c {
                case "\\": out += "\\"
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: return nil
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return escaping ? nil : out
    }

    private static func unescapeAll(_ fields: [String]) -> [String]? {
        var out: [String] = []
        for field in fields {
            guard let v = unescape(field) else { return nil }
            out.append(v)
        }
        return out
    }
}

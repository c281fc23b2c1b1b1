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
        // Every key of the config table whose value is not its default (the reader starts from the
        // defaults: a plugin older than a new key still reads a config that leaves it alone), then
        // each [[app]] rule as one record whose fields are the rule's keys in table order ("" for
        // one it does not set).
        for key in ConfigKey.all where key.section != .app {
            if let value = key.value(in: config), value != key.defaultValue { add(key.path, Self.fields(of: value)) }
        }
        for app in config.apps {
            add("app", ConfigKey.keys(in: .app).map { key in key.value(in: app).flatMap { Self.fields(of: $0).first } ?? "" })
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
        case "app":
            let keys = ConfigKey.keys(in: .app)
            guard f.count == keys.count else { return bad() }
            var rule = AppRule(match: "")
            for (ruleKey, field) in zip(keys, f) where !field.isEmpty || ruleKey.required {
                guard let value = Self.value(of: ruleKey, from: [field]) else { return bad() }
                ruleKey.set(value, in: &rule)
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
            // A key of the config table (scope, device.*, detection.*, transition.*).
            guard let configKey = ConfigKey.all.first(where: { $0.section != .app && $0.path == key }) else {
                return "unknown key '\(key)'"
            }
            guard let value = Self.value(of: configKey, from: f) else { return bad() }
            configKey.set(value, in: &config)
        }
        return nil
    }

    // MARK: config values

    private static func fields(of value: ConfigValue) -> [String] {
        switch value {
        case .word(let word): [word]
        case .number(let number): [String(number)]
        case .integer(let integer): [String(integer)]
        case .orientations(let mask): [mask.description]
        case .strings(let strings): strings
        case .text(let text): [text]
        case .matrix(let matrix): matrix.m.map { String($0) }
        case .flag(let flag): [flag ? "true" : "false"]
        }
    }

    /// A key's value from its fields, held to the same bounds as the loader holds the file to.
    private static func value(of key: ConfigKey, from f: [String]) -> ConfigValue? {
        let one = f.count == 1 ? f[0] : nil
        let value: ConfigValue?
        switch key.kind {
        case .choice: value = one.map(ConfigValue.word)
        case .number: value = one.flatMap(Double.init).map(ConfigValue.number)
        case .milliseconds: value = one.flatMap { Int($0) }.map(ConfigValue.integer)
        case .orientations: value = one.flatMap(MaskSpec.init(parsing:)).map(ConfigValue.orientations)
        case .strings: value = .strings(f)
        case .text: value = one.map(ConfigValue.text)
        case .mountMatrix:
            let numbers = f.compactMap(Double.init)
            value = numbers.count == f.count ? MountMatrix(numbers).map(ConfigValue.matrix) : nil
        case .flag: value = one == "true" ? .flag(true) : one == "false" ? .flag(false) : nil
        }
        guard let value, key.problem(with: value) == nil else { return nil }
        return value
    }

    // MARK: escaping

    static func escape(_ s: String) -> String {
        var out = ""
        BackslashEscapes.append(s, json: false, to: &out)
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

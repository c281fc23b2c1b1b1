import OrientCore
import Foundation
import TOMLKit

/// One problem in a config file, for people: `FILE:LINE:COLUMN: message`.
public struct ConfigDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Everything wrong with one config file, in file order.
public struct ConfigErrors: Error, Sendable, Hashable, CustomStringConvertible {
    public var diagnostics: [ConfigDiagnostic]
    public init(_ diagnostics: [ConfigDiagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Turns the text of `config.toml` into a `Config`, or into the list of everything wrong with it.
///
/// TOMLKit does the TOML parsing; this checks the document against what wlr-orient knows,
/// reports every problem it finds (not only the first), and produces a config only when
/// there are none, so a caller can keep its last good config.
public enum ConfigLoader {
    public static func load(text: String, file: String, shield: ParserShield = NoParserShield()) -> Result<Config, ConfigErrors> {
        // TOMLKit hands the text to C++ as a C string: a NUL byte would silently cut it short.
        if let nul = text.firstIndex(of: "\0") {
            let before = text[..<nul]
            let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
            return .failure(ConfigErrors([ConfigDiagnostic(file: file, line: line, column: column,
                                                           message: "the file contains a NUL byte; is it a text file?")]))
        }
        if let at = TOMLHeaderGuard.firstUnsafeHeader(in: text) {
            return .failure(ConfigErrors([ConfigDiagnostic(file: file, line: at.line, column: at.column,
                message: "a table header needs a name: '[' must be followed by a letter, digit, '_', '-' or a quote")]))
        }
        switch shield.attempt({ _ = parse(text: text, file: file) }) {
        case .completed:
            return parse(text: text, file: file)
        case .crashed:
            return .failure(ConfigErrors([ConfigDiagnostic(file: file, line: 1, column: 1,
                message: "the TOML parser (TOMLKit) crashes on this file; it was not applied. Check it for an unclosed [ or { and please report it")]))
        case .tookTooLong(let seconds):
            return .failure(ConfigErrors([ConfigDiagnostic(file: file, line: 1, column: 1,
                message: "the TOML parser had not finished after \(Int(seconds)) s on this file of \(UserFile.size(text.utf8.count)); it was not applied (a config is a few kilobytes: is this the right file?)")]))
        }
    }

    private static func parse(text: String, file: String) -> Result<Config, ConfigErrors> {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let at = error.source.begin
            return .failure(ConfigErrors([ConfigDiagnostic(file: file, line: max(at.line, 1), column: max(at.column, 1),
                                              message: "TOML syntax: \(error.description)")]))
        } catch {
            return .failure(ConfigErrors([ConfigDiagnostic(file: file, line: 1, column: 1, message: "TOML syntax: \(error)")]))
        }
        var reader = ConfigReader(file: file, locator: ConfigSourceLocator(text: text))
        let config = reader.read(table)
        if reader.diagnostics.isEmpty { return .success(config) }
        return .failure(ConfigErrors(reader.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }))
    }

    /// The largest config file read: a config with a thousand `[[app]]` rules is under 100 KiB.
    public static let largestFile = 1 << 20

    public static func load(path: String, shield: ParserShield = NoParserShield()) -> Result<Config, ConfigErrors> {
        switch UserFile.read(path, limit: largestFile) {
        case .success(let text):
            return load(text: text, file: path, shield: shield)
        case .failure(let problem):
            return .failure(ConfigErrors([ConfigDiagnostic(file: path, line: 1, column: 1,
                                                           message: "cannot use it as a config: \(problem.reason)")]))
        }
    }
}

/// The schema walk: one method per section, each reporting unknown keys and bad values.
private struct ConfigReader {
    let file: String
    let locator: ConfigSourceLocator
    var diagnostics: [ConfigDiagnostic] = []

    static let topKeys = ["scope", "rotate-when", "device", "detection", "transition", "app"]
    static let deviceKeys = ["orientations", "outputs", "mount-matrix", "sensor"]
    static let transitionKeys = ["kind", "duration-ms", "curve", "timeout-ms"]
    static let appKeys = ["match", "orientations", "transition", "sensor-input"]

    mutating func read(_ root: TOMLTable) -> Config {
        var config = Config()
        checkKeys(root, known: Self.topKeys, at: "")
        if let v = root["scope"], let s: Config.Scope = choice(v, at: "scope") { config.scope = s }
        if let v = root["rotate-when"], let r: Config.RotateWhen = choice(v, at: "rotate-when") { config.rotateWhen = r }
        if let v = root["device"], let t = table(v, at: "device") { config.device = readDevice(t) }
        if let v = root["detection"], let t = table(v, at: "detection") { config.detection = readDetection(t) }
        if let v = root["transition"], let t = table(v, at: "transition") { config.transition = readTransition(t) }
        if let v = root["app"] {
            if let array = v.array {
                for (i, item) in array.enumerated() {
                    if let t = table(item, at: "app[\(i)]") { config.apps.append(readApp(t, at: "app[\(i)]")) }
                }
            } else {
                report(locator.key("app"), "'app' must be written as [[app]] tables, got \(describe(v.type))")
            }
        }
        return config
    }

    mutating func readDevice(_ t: TOMLTable) -> DeviceConfig {
        var d = DeviceConfig()
        checkKeys(t, known: Self.deviceKeys, at: "device")
        if let v = t["orientations"], let m = mask(v, at: "device.orientations") { d.orientations = m }
        if let v = t["outputs"], let list = strings(v, at: "device.outputs") { d.outputs = list }
        if let v = t["mount-matrix"], let s = string(v, at: "device.mount-matrix") {
            if let m = MountMatrix(parsing: s) {
                d.mountMatrix = m
            } else {
                report(locator.value("device.mount-matrix"),
                       "'mount-matrix' must be three rows of three numbers, like \"0, -1, 0; -1, 0, 0; 0, 0, 1\"")
            }
        }
        if let v = t["sensor"], let s = string(v, at: "device.sensor") { d.sensor = s }
        return d
    }

    mutating func readDetection(_ t: TOMLTable) -> DetectionConfig {
        var d = DetectionConfig()
        checkKeys(t, known: DetectionConfig.tunables.map(\.key), at: "detection")
        for tunable in DetectionConfig.tunables {
            guard let v = t[tunable.key] else { continue }
            let path = "detection.\(tunable.key)"
            guard let number = v.double ?? v.int.map(Double.init) else {
                report(locator.value(path), "'\(tunable.key)' must be a number, got \(describe(v.type))")
                continue
            }
            guard tunable.range.contains(number) else {
                report(locator.value(path), "'\(tunable.key)' must be between \(format(tunable.range.lowerBound))"
                       + " and \(format(tunable.range.upperBound)), got \(format(number))")
                continue
            }
            d[keyPath: tunable.keyPath] = number
        }
        return d
    }

    mutating func readTransition(_ t: TOMLTable) -> TransitionConfig {
        var c = TransitionConfig()
        checkKeys(t, known: Self.transitionKeys, at: "transition")
        if let v = t["kind"], let k: TransitionKind = choice(v, at: "transition.kind") { c.kind = k }
        if let v = t["duration-ms"], let ms = milliseconds(v, at: "transition.duration-ms") { c.durationMs = ms }
        if let v = t["curve"], let curve: TransitionCurve = choice(v, at: "transition.curve") { c.curve = curve }
        if let v = t["timeout-ms"], let ms = milliseconds(v, at: "transition.timeout-ms") { c.timeoutMs = ms }
        return c
    }

    /// A whole number of milliseconds from 0 to 5000.
    mutating func milliseconds(_ v: TOMLValueConvertible, at path: String) -> Int? {
        if let ms = v.int, (0...5000).contains(ms) { return ms }
        report(locator.value(path),
               "'\(lastComponent(path))' must be a whole number of milliseconds from 0 to 5000, got \(v.int.map(String.init) ?? describe(v.type))")
        return nil
    }

    mutating func readApp(_ t: TOMLTable, at path: String) -> AppRule {
        checkKeys(t, known: Self.appKeys, at: path)
        var rule = AppRule(match: "")
        if let v = t["match"], let s = string(v, at: "\(path).match") {
            rule.match = s
        } else if t["match"] == nil {
            report(locator.fallbackHeader(path), "an [[app]] rule needs 'match', the app_id (exact or a glob such as \"org.example.*\")")
        }
        if let v = t["orientations"] { rule.orientations = mask(v, at: "\(path).orientations") }
        if let v = t["transition"] { rule.transition = choice(v, at: "\(path).transition") }
        if let v = t["sensor-input"] {
            if let b = v.bool { rule.sensorInput = b } else {
                report(locator.value("\(path).sensor-input"), "'sensor-input' must be true or false, got \(describe(v.type))")
            }
        }
        return rule
    }

    // MARK: typed values

    mutating func table(_ v: TOMLValueConvertible, at path: String) -> TOMLTable? {
        if let t = v.table { return t }
        report(locator.key(path), "'\(lastComponent(path))' must be a table, got \(describe(v.type))")
        return nil
    }

    mutating func string(_ v: TOMLValueConvertible, at path: String) -> String? {
        if let s = v.string { return s }
        report(locator.value(path), "'\(lastComponent(path))' must be a string, got \(describe(v.type))")
        return nil
    }

    mutating func strings(_ v: TOMLValueConvertible, at path: String) -> [String]? {
        if let s = v.string { return [s] }
        guard let array = v.array else {
            report(locator.value(path), "'\(lastComponent(path))' must be a string or a list of strings, got \(describe(v.type))")
            return nil
        }
        var out: [String] = []
        for (i, item) in array.enumerated() {
            if let s = item.string { out.append(s) } else {
                report(locator.element(path, i), "'\(lastComponent(path))' must list strings, item \(i + 1) is \(describe(item.type))")
            }
        }
        return out.count == array.count ? out : nil
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ v: TOMLValueConvertible, at path: String) -> E?
    where E.RawValue == String {
        guard let s = string(v, at: path) else { return nil }
        if let e = E(rawValue: s) { return e }
        let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        report(locator.value(path), "'\(lastComponent(path))' cannot be \"\(s)\"; allowed values: \(allowed)")
        return nil
    }

    /// A mask is one word, a comma-separated string of words, or a list of words.
    mutating func mask(_ v: TOMLValueConvertible, at path: String) -> MaskSpec? {
        guard let items = strings(v, at: path) else { return nil }
        var words: [MaskWord] = []
        var ok = true
        for (i, item) in items.enumerated() {
            for part in item.split(separator: ",") {
                let word = String(part.filter { !$0.isWhitespace })
                if let w = MaskWord(rawValue: word) { words.append(w); continue }
                ok = false
                let at = v.array != nil ? locator.element(path, i) : locator.value(path)
                var message = "unknown orientation \"\(word)\" in '\(lastComponent(path))'"
                if let near = nearest(word, in: MaskWord.allCases.map(\.rawValue)) { message += " (did you mean \"\(near)\"?)" }
                report(at, message + "; allowed: \(MaskWord.allowedList)")
            }
        }
        if ok && words.isEmpty {
            report(locator.value(path), "'\(lastComponent(path))' must name at least one orientation; allowed: \(MaskWord.allowedList)")
            return nil
        }
        return ok ? MaskSpec(words) : nil
    }

    // MARK: keys

    mutating func checkKeys(_ t: TOMLTable, known: [String], at path: String) {
        for key in t.keys where !known.contains(key) {
            let full = path.isEmpty ? key : "\(path).\(key)"
            let section = path.isEmpty ? "at the top level" : "in [\(sectionName(path))]"
            var message = "unknown key '\(key)' \(section)"
            if let near = nearest(key, in: known) {
                message += "; did you mean '\(near)'?"
            } else {
                message += "; known keys: \(known.joined(separator: ", "))"
            }
            report(locator.key(full), message)
        }
    }

    mutating func report(_ at: ConfigSourceLocator.Position, _ message: String) {
        diagnostics.append(ConfigDiagnostic(file: file, line: at.line, column: at.column, message: message))
    }

    func describe(_ type: TOMLType) -> String {
        switch type {
        case .int: "an integer"
        case .double: "a number with a fraction"
        case .string: "a string"
        case .bool: "a boolean"
        case .array: "a list"
        case .table: "a table"
        default: "a date or time"
        }
    }

    func lastComponent(_ path: String) -> String {
        String(path.split(separator: ".").last ?? Substring(path))
    }

    func sectionName(_ path: String) -> String {
        path.hasPrefix("app[") ? "[app]" : path
    }

    func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// The known word closest to a misspelt one, if it is close enough to be a typo.
func nearest(_ word: String, in candidates: [String]) -> String? {
    let limit = max(2, word.count / 3)
    let scored = candidates.map { ($0, editDistance(word.lowercased(), $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
    return best.0
}

/// Levenshtein distance, for typo suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

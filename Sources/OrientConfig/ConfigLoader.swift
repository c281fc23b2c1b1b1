import OrientCore
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

/// The schema walk, driven by the key table (`ConfigKey.all`): every section's unknown keys and
/// each key's bad value are reported.
private struct ConfigReader {
    let file: String
    let locator: ConfigSourceLocator
    var diagnostics: [ConfigDiagnostic] = []

    /// The tables a file may have, besides the keys of the top level.
    static let sections = ConfigKey.Section.allCases.filter { $0 != .top }

    mutating func read(_ root: TOMLTable) -> Config {
        var config = Config()
        checkKeys(root, known: ConfigKey.keys(in: .top).map(\.name) + Self.sections.map(\.rawValue), at: "")
        readKeys(of: .top, from: root, at: "", into: &config)
        for section in Self.sections where section != .app {
            guard let v = root[section.rawValue], let t = table(v, at: section.rawValue) else { continue }
            checkKeys(t, known: ConfigKey.keys(in: section).map(\.name), at: section.rawValue)
            readKeys(of: section, from: t, at: section.rawValue + ".", into: &config)
        }
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

    mutating func readKeys(of section: ConfigKey.Section, from t: TOMLTable, at prefix: String, into config: inout Config) {
        for key in ConfigKey.keys(in: section) {
            guard let v = t[key.name], let value = value(v, of: key, at: prefix + key.name) else { continue }
            key.set(value, in: &config)
        }
    }

    mutating func readApp(_ t: TOMLTable, at path: String) -> AppRule {
        let keys = ConfigKey.keys(in: .app)
        checkKeys(t, known: keys.map(\.name), at: path)
        var rule = AppRule(match: "")
        for key in keys {
            guard let v = t[key.name] else {
                if key.required {
                    report(locator.fallbackHeader(path), "an [[app]] rule needs '\(key.name)', \(key.doc)")
                }
                continue
            }
            if let value = value(v, of: key, at: "\(path).\(key.name)") { key.set(value, in: &rule) }
        }
        return rule
    }

    /// The value of `key` written at `path`, or nil after reporting what is wrong with it.
    mutating func value(_ v: TOMLValueConvertible, of key: ConfigKey, at path: String) -> ConfigValue? {
        let value: ConfigValue?
        switch key.kind {
        case .choice:
            value = string(v, at: path).map(ConfigValue.word)
        case .number:
            value = (v.double ?? v.int.map(Double.init)).map(ConfigValue.number)
            if value == nil { report(locator.value(path), "'\(key.name)' must be a number, got \(describe(v.type))") }
        case .milliseconds(let range):
            value = v.int.map(ConfigValue.integer)
            if value == nil {
                report(locator.value(path), "'\(key.name)' must be a whole number of milliseconds from \(range.lowerBound)"
                       + " to \(range.upperBound), got \(describe(v.type))")
            }
        case .orientations:
            value = mask(v, at: path).map(ConfigValue.orientations)
        case .strings:
            value = strings(v, at: path).map(ConfigValue.strings)
        case .text:
            value = string(v, at: path).map(ConfigValue.text)
        case .mountMatrix:
            guard let text = string(v, at: path) else { return nil }
            switch MountMatrix.parse(text) {
            case .success(let m):
                value = .matrix(m)
            case .failure(.shape):
                value = nil
                report(locator.value(path), "'\(key.name)' must be three rows of three numbers, like \"0, -1, 0; -1, 0, 0; 0, 0, 1\"")
            case .failure(let problem):
                value = nil
                report(locator.value(path), "'\(key.name)' cannot be a mount matrix: \(problem)")
            }
        case .flag:
            value = v.bool.map(ConfigValue.flag)
            if value == nil { report(locator.value(path), "'\(key.name)' must be true or false, got \(describe(v.type))") }
        }
        guard let value else { return nil }
        if let problem = key.problem(with: value) {
            report(locator.value(path), problem)
            return nil
        }
        return value
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

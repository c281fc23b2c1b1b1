import OrientCore

/// The config keys written out for people, from the key table (`ConfigKey.all`): the entries of
/// the example config and those of the man page's configuration sections. Each comes from a
/// template that holds the prose around the keys and, on a line of its own, `@keys SECTION@`
/// where a section's keys go (`@keys top@`, `@keys device@`, …, `@keys app@`).
/// `make` renders both (`wlr-orient render-config-docs`), so a key added to the table is
/// documented in both without another edit.
public enum ConfigReference {
    public enum Format: String, Sendable, CaseIterable {
        /// The example config (contrib/config.example.toml.in): each key set to its default.
        case toml
        /// The man page (docs/man/wlr-orient.5.scd.in), in scdoc's markup.
        case scdoc
    }

    /// A template that lacks a section's placeholder, or has one twice or one for no section.
    public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// The template with each placeholder replaced by its section's entries.
    public static func render(_ template: String, as format: Format) throws(TemplateError) -> String {
        var placed: Set<ConfigKey.Section> = []
        var out: [String] = []
        for line in template.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("@keys "), line.hasSuffix("@"), line.count > 7 else {
                out.append(String(line))
                continue
            }
            let name = String(line.dropFirst(6).dropLast())
            guard let section = section(named: name) else {
                throw TemplateError(description: "'\(line)' names no section of the config")
            }
            guard placed.insert(section).inserted else {
                throw TemplateError(description: "the keys of [\(name)] are placed twice")
            }
            out += entries(of: section, as: format)
        }
        if let missing = ConfigKey.Section.allCases.first(where: { !placed.contains($0) }) {
            throw TemplateError(description: "the template has no '@keys \(placeholderName(missing))@'")
        }
        return out.joined(separator: "\n")
    }

    /// A section's entries, one line each (blank lines between keys).
    public static func entries(of section: ConfigKey.Section, as format: Format) -> [String] {
        ConfigKey.keys(in: section)
            .map { format == .toml ? tomlEntry($0) : scdocEntry($0) }
            .joined(separator: [""])
            .map(\.self)
    }

    // MARK: the example config

    /// The doc, the details and the words a choice takes as comment lines, then `name = default`;
    /// a key without a default (and a rule's) shown commented out.
    static func tomlEntry(_ key: ConfigKey) -> [String] {
        var text = capitalised(key.doc) + "."
        if key.required { text += " Required." }
        if case .choice(let words) = key.kind {
            text += " One of " + words.map(quoted).joined(separator: ", ") + "."
        }
        if !key.details.isEmpty { text += " " + plainText(key.details) }
        let comments = wrapped(text, width: 76).map { "# " + $0 }
        if let value = key.defaultValue {
            return comments + ["\(key.name) = \(toml(value))"]
        }
        // Every such key has one: ConfigKeyTableTests loads each of these lines uncommented.
        return comments + ["# \(key.name) = \(key.example ?? "")"]
    }

    /// A doc line with its first letter capitalised, to begin a sentence.
    private static func capitalised(_ doc: String) -> String {
        doc.prefix(1).uppercased() + doc.dropFirst()
    }

    /// scdoc's markup taken off: bold and underlined text lose their marks, escapes their backslash.
    static func plainText(_ scdoc: String) -> String {
        var out = ""
        var escaped = false
        for character in scdoc {
            if escaped {
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character != "*" && character != "_" {
                out.append(character)
            }
        }
        return out
    }

    /// Words in lines of at most `width` characters (a longer word alone on its line).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A value as TOML writes it.
    public static func toml(_ value: ConfigValue) -> String {
        switch value {
        case .word(let word): quoted(word)
        case .number(let number): ConfigKey.format(number)
        case .integer(let integer): String(integer)
        case .orientations(let spec): "[" + spec.words.map { quoted($0.rawValue) }.joined(separator: ", ") + "]"
        case .strings(let strings): "[" + strings.map(quoted).joined(separator: ", ") + "]"
        case .text(let text): quoted(text)
        case .matrix(let matrix): quoted(matrix.description)
        case .flag(let flag): flag ? "true" : "false"
        }
    }

    private static func quoted(_ text: String) -> String { BackslashEscapes.quoted(text) }

    // MARK: the man page

    /// `*name* = syntax`, then, indented, the doc, the default and the details.
    static func scdocEntry(_ key: ConfigKey) -> [String] {
        var text = escapeScdoc(capitalised(key.doc))
        if let value = key.defaultValue {
            text += "; default " + scdocDefault(value)
        }
        text += "."
        if key.required { text += " Required." }
        if !key.details.isEmpty { text += " " + key.details }
        return ["*\(key.name)* = \(key.syntax ?? scdocSyntax(key.kind))", "\t" + text]
    }

    private static func scdocSyntax(_ kind: ConfigKey.Kind) -> String {
        switch kind {
        case .choice(let words): words.map { "\"\($0)\"" }.joined(separator: " | ")
        case .number(let range): "_\(ConfigKey.format(range.lowerBound))-\(ConfigKey.format(range.upperBound))_"
        case .milliseconds(let range): "_\(range.lowerBound)-\(range.upperBound)_"
        case .orientations: "[ _words_ ]"
        case .strings: "[ _globs_ ]"
        case .text: "\"_text_\""
        case .mountMatrix: "\"a, b, c; d, e, f; g, h, i\""
        case .flag: "true | false"
        }
    }

    /// A default as the man page writes it: numbers bare, anything else in bold as TOML writes it.
    private static func scdocDefault(_ value: ConfigValue) -> String {
        switch value {
        case .number, .integer: toml(value)
        default: "*" + escapeScdoc(toml(value)) + "*"
        }
    }

    /// Text with scdoc's markup characters taken literally.
    static func escapeScdoc(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "*" || character == "_" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    // MARK: placeholders

    private static func placeholderName(_ section: ConfigKey.Section) -> String {
        section == .top ? "top" : section.rawValue
    }

    private static func section(named name: String) -> ConfigKey.Section? {
        ConfigKey.Section.allCases.first { placeholderName($0) == name }
    }
}

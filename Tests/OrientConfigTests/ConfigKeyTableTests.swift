import Foundation
import Testing
import TestSupport
@testable import OrientConfig
@testable import OrientCore

/// The example config as `make` renders it (`ConfigReference`) from its template.
func renderedExampleConfig() throws -> String {
    let template = try String(contentsOfFile: repositoryRoot.appendingPathComponent("contrib/config.example.toml.in").path, encoding: .utf8)
    return try ConfigReference.render(template, as: .toml)
}

/// The key table (`ConfigKey.all`) is the one schema of config.toml: the loader reads by it, the
/// plugin-inputs codec carries it, and the example config and the man page's config sections
/// are rendered from it (`ConfigReference`); here the rendered documents are read back, so that
/// neither can name a key the table lacks, leave one out, or say another default or bound.
@Suite struct ConfigKeyTableTests {
    /// The lines of a text, split into its sections by a heading that names each.
    func sections(of text: String, heading: (String) -> ConfigKey.Section?) -> [ConfigKey.Section: [String]] {
        var out: [ConfigKey.Section: [String]] = [:]
        var current: ConfigKey.Section? = .top
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let section = heading(line) { current = section; continue }
            if let current { out[current, default: []].append(line) }
        }
        return out
    }

    /// contrib/config.example.toml is committed, so that it can be read where the repository is
    /// browsed; it must be what the table renders today (`make example-config` writes it).
    @Test func theCommittedExampleConfigIsWhatTheTableRenders() throws {
        let committed = try String(contentsOfFile: repositoryRoot.appendingPathComponent("contrib/config.example.toml").path, encoding: .utf8)
        #expect(committed == (try renderedExampleConfig()), "run `make example-config` and commit contrib/config.example.toml")
    }

    @Test func theTableNamesEachKeyOnceAndHoldsItsOwnDefaults() {
        let paths = ConfigKey.all.map(\.path)
        #expect(Set(paths).count == paths.count)
        for key in ConfigKey.all {
            #expect(!key.doc.isEmpty && !key.doc.contains("\n"), "\(key.path): a one-line doc")
            #expect(!key.details.contains("\n"), "\(key.path): details are one paragraph")
            // The example config shows a key without a default commented out, with a value that loads.
            if key.defaultValue == nil, key.section != .app {
                #expect(key.example != nil, "\(key.path): no default, so the example config needs an example value")
            }
            if let value = key.defaultValue { #expect(key.problem(with: value) == nil, "\(key.path): its default is out of bounds") }
        }
        // Each stored field of a section has its row (a field added without one is never read).
        #expect(Mirror(reflecting: DeviceConfig()).children.count == ConfigKey.keys(in: .device).count)
        #expect(Mirror(reflecting: DetectionConfig()).children.count == ConfigKey.keys(in: .detection).count)
        #expect(Mirror(reflecting: TransitionConfig()).children.count == ConfigKey.keys(in: .transition).count)
        #expect(Mirror(reflecting: AppRule(match: "")).children.count == ConfigKey.keys(in: .app).count)
    }

    /// The example shows every key in its own table, as `name = default` (or commented out, for
    /// a key without a default and for the rules' keys), and nothing else.
    @Test func theExampleConfigShowsEveryKeyOfTheTableAndNoOther() throws {
        let text = try renderedExampleConfig()
        let bySection = sections(of: text) { line in
            guard line.hasPrefix("["), let name = line.split(whereSeparator: { "[]".contains($0) }).first else { return nil }
            return ConfigKey.Section(rawValue: String(name))
        }
        let assignment = try Regex(#"^#?\s*([a-z-]+) = (.*?)\s*(#.*)?$"#)
        for section in ConfigKey.Section.allCases {
            let keys = ConfigKey.keys(in: section)
            var shown: Set<String> = [], set: Set<String> = []
            for line in bySection[section] ?? [] {
                if let m = try assignment.wholeMatch(in: line), let name = m.output[1].substring {
                    shown.insert(String(name))
                    if !line.hasPrefix("#") { set.insert(String(name)) }
                }
            }
            for key in keys {
                // A key with a default is set to it; one without (and a rule's) may be shown in a comment.
                if key.defaultValue != nil {
                    #expect(set.contains(key.name), "the example config does not set '\(key.path)' to its default")
                } else {
                    #expect(shown.contains(key.name), "the example config does not show '\(key.path)'")
                }
            }
            for name in shown where !keys.contains(where: { $0.name == name }) {
                Issue.record("the example config shows '\(name)' in [\(section.rawValue)], which the table lacks there")
            }
        }
    }

    /// What the example sets is the built-in default, key by key.
    @Test func theExampleConfigSetsEveryKeyToItsDefault() throws {
        let config = try ConfigLoader.load(text: renderedExampleConfig(), file: "config.example.toml").get()
        for key in ConfigKey.all where key.section != .app {
            #expect(key.value(in: config) == key.defaultValue, "\(key.path)")
        }
    }

    /// Each key the example shows commented out (no default, or a rule's), uncommented in its
    /// table, loads: an example the loader refused would teach a wrong syntax.
    @Test func everyCommentedOutExampleLoadsUncommented() throws {
        let line = try Regex(#"^# ([a-z-]+) = (.+)$"#)
        var section = ConfigKey.Section.top
        var tried: Set<String> = []
        for text in try renderedExampleConfig().split(separator: "\n").map(String.init) {
            if text == "[[app]]" || text == "# [[app]]" { section = .app; continue }
            if text.hasPrefix("["), let name = text.split(whereSeparator: { "[]".contains($0) }).first,
               let named = ConfigKey.Section(rawValue: String(name)) {
                section = named
                continue
            }
            guard let m = try line.wholeMatch(in: text), let name = m.output[1].substring.map(String.init),
                  ConfigKey.keys(in: section).contains(where: { $0.name == name }) else { continue }
            let setting = String(text.dropFirst(2))
            let toml = switch section {
            case .top: setting
            case .app where name == "match": "[[app]]\n" + setting
            case .app: "[[app]]\nmatch = \"x\"\n" + setting
            default: "[\(section.rawValue)]\n" + setting
            }
            if case .failure(let errors) = ConfigLoader.load(text: toml, file: "example.toml") {
                Issue.record("the example's '\(setting)' does not load: \(errors)")
            }
            tried.insert(section == .top ? name : "\(section.rawValue).\(name)")
        }
        for key in ConfigKey.all where key.defaultValue == nil {
            #expect(tried.contains(key.path), "\(key.path): not shown commented out in the example")
        }
    }

    /// An [[app]] rule travels to the plugin as one record with a field per key: each key's value
    /// must fit one field, and only a required key may be empty.
    @Test func eachRuleKeyFitsOneField() {
        for key in ConfigKey.keys(in: .app) {
            switch key.kind {
            case .strings, .mountMatrix: Issue.record("\(key.path): a rule's key cannot take several fields")
            case .text: #expect(key.required, "\(key.path): an optional text could be empty, which reads as unset")
            default: break
            }
        }
    }

    /// The man page's config section documents each key of the table under its own heading,
    /// with its bounds for numbers, and no key the table lacks.
    @Test func theManPageDocumentsEveryKeyOfTheTableAndNoOther() throws {
        let template = try String(contentsOfFile: repositoryRoot.appendingPathComponent("docs/man/wlr-orient.5.scd.in").path, encoding: .utf8)
        let text = try ConfigReference.render(template, as: .scdoc)
        let bySection = sections(of: text) { line in
            switch line {
            case "# TOP LEVEL": .top
            case "# [device]": .device
            case "# [detection]": .detection
            case "# [transition]": .transition
            case "# [suggestion]": .suggestion
            case "# [[app]]": .app
            default: nil
            }
        }
        let entry = try Regex(#"^\*([a-z-]+)\* = (.*)$"#)
        for section in ConfigKey.Section.allCases {
            var documented: [String: String] = [:]
            /// Each entry's description: its indented lines.
            var described: [String: String] = [:]
            var current: String?
            for line in bySection[section] ?? [] {
                if line.hasPrefix("# ") && section != .top { break }
                if let m = try entry.wholeMatch(in: line), let name = m.output[1].substring, let rest = m.output[2].substring {
                    documented[String(name)] = String(rest)
                    current = String(name)
                } else if let name = current, line.hasPrefix("\t") {
                    described[name, default: ""] += line.dropFirst() + " "
                } else {
                    current = nil
                }
            }
            let keys = ConfigKey.keys(in: section)
            for key in keys {
                guard let written = documented[key.name] else {
                    Issue.record("the man page does not document '\(key.path)' under its section")
                    continue
                }
                switch key.kind {
                case .number(let range):
                    #expect(written.contains("_\(ConfigKey.format(range.lowerBound))-\(ConfigKey.format(range.upperBound))_"), "\(key.path): \(written)")
                    if case .number(let d)? = key.defaultValue {
                        #expect(described[key.name, default: ""].contains("default \(ConfigKey.format(d))"), "\(key.path): its default")
                    }
                case .milliseconds(let range):
                    #expect(written.contains("_\(range.lowerBound)-\(range.upperBound)_"), "\(key.path): \(written)")
                    if case .integer(let ms)? = key.defaultValue {
                        #expect(described[key.name, default: ""].contains("default \(ms)"), "\(key.path): its default")
                    }
                case .choice(let words):
                    #expect(written == words.map { "\"\($0)\"" }.joined(separator: " | "), "\(key.path): \(written)")
                default:
                    break
                }
            }
            for name in documented.keys where !keys.contains(where: { $0.name == name }) {
                Issue.record("the man page documents '\(name)' in [\(section.rawValue)], which the table lacks")
            }
        }
    }
}

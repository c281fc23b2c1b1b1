import Foundation
import TestSupport
import Testing

/// `wlr-orient check-config`, run as a user would run it.
@Suite struct CheckConfigCommandTests {
    /// The example config as `make` renders it from its template, and the result checked.
    @Test func theRenderedExampleConfigIsValid() throws {
        let template = repositoryRoot.appendingPathComponent("contrib/config.example.toml.in").path
        let rendered = try run(wlrOrientExecutable, ["render-config-docs", "--format", "toml", template])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(!rendered.stdout.contains("@keys"))
        let example = try makeTemporaryDirectory() + "/config.example.toml"
        try rendered.stdout.write(toFile: example, atomically: true, encoding: .utf8)
        let r = try run(wlrOrientExecutable, ["check-config", example])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("ok (2 app rules)"))
    }

    @Test func aTemplateWithoutASectionsPlaceholderIsRefused() throws {
        let template = try makeTemporaryDirectory() + "/broken.toml.in"
        try "@keys top@\n@keys device@\n".write(toFile: template, atomically: true, encoding: .utf8)
        let r = try run(wlrOrientExecutable, ["render-config-docs", "--format", "toml", template])
        #expect(r.status != 0)
        #expect(r.stderr.contains("no '@keys detection@'"), "\(r.stderr)")
    }

    @Test func aBadFileExitsOneWithOneLinePerProblem() throws {
        let dir = try makeTemporaryDirectory()
        let file = dir + "/bad.toml"
        try """
            [device]
            orientatons = ["all"]
            outputs = 3
            [[app]]
            match = "x"
            orientations = "sideways"
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try run(wlrOrientExecutable, ["check-config", file])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("\(file):") && $0.dropFirst(file.count + 1).first?.isNumber == true }
        #expect(lines.count == 3, "\(r.stderr)")
        #expect(lines.contains { $0.hasPrefix("\(file):2:1: ") && $0.contains("did you mean 'orientations'") })
        #expect(lines.contains { $0.hasPrefix("\(file):3:11: ") && $0.contains("got an integer") })
        #expect(lines.contains { $0.hasPrefix("\(file):6:16: ") && $0.contains("allowed: all,") })
    }

    @Test func withoutAFileTheXDGPathIsChecked() throws {
        let dir = try makeTemporaryDirectory()
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = dir
        env["XDG_CONFIG_DIRS"] = dir + "/none"
        let none = try run(wlrOrientExecutable, ["check-config"], environment: env)
        #expect(none.status == 0)
        #expect(none.stdout.contains("defaults apply"))
        try FileManager.default.createDirectory(atPath: dir + "/wlr-orient", withIntermediateDirectories: true)
        try "scope = 1\n".write(toFile: dir + "/wlr-orient/config.toml", atomically: true, encoding: .utf8)
        let bad = try run(wlrOrientExecutable, ["check-config"], environment: env)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\(dir)/wlr-orient/config.toml:1:9: 'scope' must be a string, got an integer"))
    }

    @Test func helpListsTheCommand() throws {
        let r = try run(wlrOrientExecutable, ["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("check-config"))
    }
}

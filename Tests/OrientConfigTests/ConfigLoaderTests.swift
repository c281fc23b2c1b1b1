import Foundation
import TestSupport
import Testing
@testable import OrientConfig
@testable import OrientCore

@Suite struct ConfigLoaderTests {
    func diagnostics(_ text: String) -> [ConfigDiagnostic] {
        switch ConfigLoader.load(text: text, file: "c.toml") {
        case .success: return []
        case .failure(let e): return e.diagnostics
        }
    }

    @Test func theExampleConfigLoadsWithTheDefaults() throws {
        let config = try ConfigLoader.load(text: renderedExampleConfig(), file: "config.example.toml").get()
        #expect(config.apps.count == 2)
        #expect(config.rule(for: "org.example.Game")?.sensorInput == true)
        #expect(config.rule(for: "org.example.Game")?.transition == .crossfade)
        #expect(config.rule(for: "com.acme.VideoPlayer")?.orientations == MaskSpec([.landscape]))
        // "every key, with its default": the example's values are the built-in ones.
        #expect(config.detection == DetectionConfig())
        #expect(config.transition == TransitionConfig())
        #expect(config.device.outputs == DeviceConfig().outputs)
        #expect(config.scope == Config().scope && config.rotateWhen == Config().rotateWhen)
    }

    @Test func anEmptyFileIsTheDefaults() throws {
        let config = try ConfigLoader.load(text: "", file: "c.toml").get()
        #expect(config == Config())
        #expect(config.device.outputs == ["eDP-*", "LVDS-*", "DSI-*"])
        #expect(config.transition.durationMs == 250)
    }

    @Test func everyValueIsRead() throws {
        let config = try ConfigLoader.load(text: """
            scope = "focused"
            rotate-when = "tablet-mode"
            [device]
            orientations = "all-but-upside-down"
            outputs = ["HEADLESS-1"]
            mount-matrix = "0, 1, 0; -1, 0, 0; 0, 0, 1"
            sensor = "iio:device1"
            [detection]
            settle-ms = 120
            hysteresis-deg = 10.5
            [transition]
            kind = "none"
            duration-ms = 0
            curve = "fast-out-slow-in"
            timeout-ms = 120
            """, file: "c.toml").get()
        #expect(config.scope == .focused)
        #expect(config.rotateWhen == .tabletMode)
        #expect(config.device.orientations.resolve(on: .portrait) == .allButUpsideDown)
        #expect(config.device.outputs == ["HEADLESS-1"])
        #expect(config.device.mountMatrix == MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
        #expect(config.device.sensor == "iio:device1")
        #expect(config.detection.settleMs == 120)
        #expect(config.detection.hysteresisDeg == 10.5)
        #expect(config.transition.kind == TransitionKind.none)
        #expect(config.transition.durationMs == 0)
        #expect(config.transition.curve == .fastOutSlowIn)
        #expect(config.transition.timeoutMs == 120)
    }

    @Test func aTransitionOutOfRangeOrWithAnUnknownCurveIsNamed() {
        let d = diagnostics("[transition]\ncurve = \"bounce\"\ntimeout-ms = -5\n")
        #expect(d.map(\.description) == [
            "c.toml:2:9: 'curve' cannot be \"bounce\"; allowed values: \"linear\", \"ease-in-out\", \"fast-out-slow-in\", \"decelerate\"",
            "c.toml:3:14: 'timeout-ms' must be a whole number of milliseconds from 0 to 5000, got -5",
        ])
    }

    @Test func misspeltKeyWrongTypeAndBadWordEachGetALine() {
        let d = diagnostics("""
            scope = "fullscreen"

            [device]
            orientatons = ["all"]
            outputs = 3

            [[app]]
            match = "foo"
            orientations = ["landscape", "sideways"]
            """)
        #expect(d.map(\.description) == [
            "c.toml:4:1: unknown key 'orientatons' in [device]; did you mean 'orientations'?",
            "c.toml:5:11: 'outputs' must be a string or a list of strings, got an integer",
            "c.toml:9:30: unknown orientation \"sideways\" in 'orientations'; allowed: "
                + "all, all-but-upside-down, portrait, landscape, normal, left-up, right-up, bottom-up",
        ])
    }

    @Test func choicesListTheAllowedValues() {
        let d = diagnostics("scope = \"everything\"\n[transition]\nkind = \"spin\"\n")
        #expect(d.map(\.description) == [
            "c.toml:1:9: 'scope' cannot be \"everything\"; allowed values: \"fullscreen\", \"focused\"",
            "c.toml:3:8: 'kind' cannot be \"spin\"; allowed values: \"auto\", \"rotate\", \"crossfade\", \"none\"",
        ])
    }

    @Test func unknownKeyFarFromAnyKnownOneListsThem() {
        let d = diagnostics("[transition]\nwobble = 1\n")
        // Every key of the section, in the table's order (today: kind, duration-ms, curve, timeout-ms).
        let known = ConfigKey.keys(in: .transition).map(\.name).joined(separator: ", ")
        #expect(known.hasPrefix("kind, duration-ms"))
        #expect(d.map(\.description) == ["c.toml:2:1: unknown key 'wobble' in [transition]; known keys: \(known)"])
    }

    @Test func numbersOutOfRangeAndBadMatricesAreNamed() {
        let d = diagnostics("""
            [detection]
            settle-ms = -5
            rate-hz = "fast"
            [device]
            mount-matrix = "1, 0; 0, 1"
            """)
        #expect(d.count == 3)
        #expect(d[0].description == "c.toml:2:13: 'settle-ms' must be between 0 and 5000, got -5")
        #expect(d[1].description == "c.toml:3:11: 'rate-hz' must be a number, got a string")
        #expect(d[2].line == 5 && d[2].message.contains("three rows of three numbers"))
    }

    @Test func absurdNumbersAreReportedNotTrappedOn() {
        let d = diagnostics("[detection]\nrate-hz = 1e308\nsettle-ms = -1e300\n")
        #expect(d.map(\.message) == ["'rate-hz' must be between 1 and 1000, got 1e+308",
                                      "'settle-ms' must be between 0 and 5000, got -1e+300"])
    }

    @Test func appRulesNeedAMatchAndMustBeTables() {
        #expect(diagnostics("[[app]]\norientations = \"landscape\"\n").map(\.description)
            == ["c.toml:1:1: an [[app]] rule needs 'match', the app_id (exact or a glob such as \"org.example.*\")"])
        #expect(diagnostics("app = 3\n").first?.message == "'app' must be written as [[app]] tables, got an integer")
        #expect(diagnostics("[[app]]\nmatch = \"a\"\nsensor-input = \"yes\"\n").first?.description
            == "c.toml:3:16: 'sensor-input' must be true or false, got a string")
    }

    @Test func aTypoInAnOrientationWordGetsASuggestion() {
        let d = diagnostics("[device]\norientations = [\"all\", \"lanscape\"]\n")
        #expect(d.first?.description.hasPrefix("c.toml:2:24: unknown orientation \"lanscape\" in 'orientations' (did you mean \"landscape\"?)") == true)
    }

    @Test func multiLineArraysAreLocated() {
        let d = diagnostics("[device]\norientations = [\n  \"normal\",\n  \"upwards\",\n]\n")
        #expect(d.first?.line == 4)
        #expect(d.first?.column == 3)
    }

    @Test func aFileSavedWithCRLFIsLocatedByItsLines() {
        let d = diagnostics("# saved on Windows\r\n[device]\r\norientations = [\"all\", \"lanscape\"]\r\n")
        #expect(d.first?.line == 3 && d.first?.column == 24, "\(d)")
    }

    @Test func syntaxErrorsComeFromTheTOMLParserWithAPosition() {
        let d = diagnostics("scope = \"fullscreen\"\n[device\n")
        #expect(d.count == 1)
        #expect(d.first?.line == 2)
        #expect(d.first?.message.hasPrefix("TOML syntax:") == true)
    }

    @Test func theLastMatchingRuleWins() throws {
        let config = try ConfigLoader.load(text: """
            [[app]]
            match = "org.example.*"
            orientations = "portrait"
            [[app]]
            match = "org.example.Game"
            orientations = "landscape"
            [[app]]
            match = "org.other.*"
            orientations = "normal"
            """, file: "c.toml").get()
        #expect(config.rule(for: "org.example.Game")?.orientations == MaskSpec([.landscape]))
        #expect(config.rule(for: "org.example.Editor")?.orientations == MaskSpec([.portrait]))
        #expect(config.rule(for: "com.unrelated") == nil)
    }

    @Test func aBadReloadKeepsTheLastGoodConfig() throws {
        let dir = try makeTemporaryDirectory()
        let file = dir + "/config.toml"
        try "scope = \"focused\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        var source = ConfigSource(explicitPath: file, paths: XDGPaths(environment: [:]))
        #expect(source.reload(fileExists: { FileManager.default.fileExists(atPath: $0) }).isEmpty)
        #expect(source.current.scope == .focused)
        try "scope = \"sideways\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let errors = source.reload(fileExists: { FileManager.default.fileExists(atPath: $0) })
        #expect(errors.count == 1)
        #expect(source.current.scope == .focused)
        #expect(source.loadedFrom == file)
        try FileManager.default.removeItem(atPath: file)
        #expect(source.reload(fileExists: { FileManager.default.fileExists(atPath: $0) }).first?.message
            == "cannot use it as a config: there is no such file")
        #expect(source.current.scope == .focused)
    }

    @Test func onlyBuiltInPanelsRotate() {
        let device = DeviceConfig()
        #expect(device.isBuiltInPanel(outputName: "eDP-1"))
        #expect(device.isBuiltInPanel(outputName: "DSI-2"))
        #expect(device.isBuiltInPanel(outputName: "LVDS-1"))
        #expect(!device.isBuiltInPanel(outputName: "HDMI-A-1"))
        #expect(!device.isBuiltInPanel(outputName: "DP-3"))
        var custom = DeviceConfig()
        custom.outputs = ["HEADLESS-*"]
        #expect(custom.isBuiltInPanel(outputName: "HEADLESS-1"))
        #expect(!custom.isBuiltInPanel(outputName: "eDP-1"))
    }

    @Test func configSearchFollowsXDG() {
        let paths = XDGPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_DIRS": "/opt/etc:relative"])
        #expect(paths.configSearchPath == ["/home/u/.config/wlr-orient/config.toml", "/opt/etc/wlr-orient/config.toml"])
        let custom = XDGPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"])
        #expect(custom.configSearchPath == ["/c/wlr-orient/config.toml", "/etc/xdg/wlr-orient/config.toml"])
        #expect(custom.stateDirectory == "/s/wlr-orient")
        #expect(XDGPaths(environment: ["HOME": "/h", "XDG_STATE_HOME": "rel"]).stateDirectory == "/h/.local/state/wlr-orient")
    }
}

@Suite struct ConfigBinaryTests {
    @Test func aNULByteIsReportedNotSilentlyCut() {
        let r = ConfigLoader.load(text: "scope = \"focused\"\nx\u{0}y = 1\n", file: "c.toml")
        guard case .failure(let e) = r else { Issue.record("a NUL byte was accepted"); return }
        #expect(e.diagnostics.map(\.description) == ["c.toml:2:2: the file contains a NUL byte; is it a text file?"])
    }
}

import PropertyBased
import Testing
@testable import OrientCore

/// The plugin learns its config and state through `PluginInputs` text: every field must survive
/// the trip, and anything malformed must be refused, never half-read.
@Suite struct PluginInputsTests {
    /// Every field set away from its default, with names that need escaping.
    static func everythingSet() -> PluginInputs {
        var config = Config()
        config.scope = .focused
        config.rotateWhen = .tabletMode
        config.device.orientations = MaskSpec(parsing: "portrait,normal")!
        config.device.outputs = ["eDP-1", "HEADLESS-*", "odd\tname\\with\nescapes", ""]
        config.device.mountMatrix = MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 0.5")!
        config.device.sensor = "accel_3d ü"
        for (i, key) in ConfigKey.keys(in: .detection).enumerated() {
            guard case .number(let range) = key.kind else { continue }
            key.set(.number(range.lowerBound + Double(i + 1) / 7), in: &config)
        }
        config.transition.kind = .crossfade
        config.transition.durationMs = 400
        config.transition.curve = .decelerate
        config.transition.timeoutMs = 77
        config.apps = [
            AppRule(match: "org.example.*", orientations: MaskSpec(parsing: "landscape"), transition: .rotate, sensorInput: true),
            AppRule(match: "plain"),
            AppRule(match: "game", sensorInput: false),
        ]
        var inputs = PluginInputs()
        inputs.config = config
        inputs.configFile = "/home/u/.config/wlr-orient/config.toml"
        inputs.state = PersistentState(lock: MaskSpec(parsing: "landscape"), lastFelt: .leftUp)
        inputs.stateDirectory = "/home/u/.local/state/wlr-orient"
        inputs.messages = ["config: x.toml:1:1: something\nwith two lines"]
        inputs.configErrors = ["/c.toml:2:3: 'scope' must be one of fullscreen, focused"]
        inputs.desktop = DesktopIndex([
            "org.example.Reader": DesktopOrientation(orientations: [.portrait, .primary], rotatesContents: nil, path: "/usr/share/applications/org.example.Reader.desktop"),
            "tab\tid": DesktopOrientation(orientations: nil, rotatesContents: true, path: "/a\tb.desktop"),
        ])
        return inputs
    }

    @Test func everyFieldSurvivesTheTrip() throws {
        let inputs = Self.everythingSet()
        #expect(inputs.config != Config())
        let decoded = try PluginInputs.decode(inputs.encoded()).get()
        #expect(decoded == inputs)
        // Each default differs from the value set above, so a field the encoder forgot shows here.
        #expect(decoded.config.detection != DetectionConfig())
        #expect(try PluginInputs.decode(PluginInputs().encoded()).get() == PluginInputs())
    }

    @Test func anyTextInAFieldSurvives() async {
        let pool: [String] = ["\t", "\n", "\r", "\\", "\\t", "t", "n", "a", " ", "=", "ü", "😀", "*"]
        let texts = Gen.int(in: 0...(pool.count - 1)).array(of: 0...12).map { $0.map { pool[$0] }.joined() }
        await propertyCheck(count: 500, input: texts, texts) { a, b in
            var inputs = PluginInputs()
            inputs.config.device.outputs = [a, b]
            inputs.config.device.sensor = a
            inputs.messages = [b]
            let decoded = PluginInputs.decode(inputs.encoded())
            #expect((try? decoded.get()) == inputs, "\(a.debugDescription) \(b.debugDescription)")
        }
    }

    @Test(arguments: [
        ("", "line 1: empty"),
        ("wlr-orient plugin-inputs v2\n", "line 1: expected 'wlr-orient plugin-inputs v1'"),
        ("wlr-orient plugin-inputs v1\nfuture-key\tx\n", "line 2: unknown key 'future-key'"),
        ("wlr-orient plugin-inputs v1\nscope\tsideways\n", "line 2: bad 'scope'"),
        ("wlr-orient plugin-inputs v1\ndetection.rate-hz\t1e9\n", "line 2: bad 'detection.rate-hz'"),
        ("wlr-orient plugin-inputs v1\ndevice.mount-matrix\t1\t0\t0\n", "line 2: bad 'device.mount-matrix'"),
        ("wlr-orient plugin-inputs v1\napp\tx\tnope\t\tfalse\n", "line 2: bad 'app'"),
        ("wlr-orient plugin-inputs v1\nstate.felt\tsideways\n", "line 2: bad 'state.felt'"),
        ("wlr-orient plugin-inputs v1\ndevice.sensor\tend\\\n", "line 2: a bad escape"),
        ("wlr-orient plugin-inputs v1\ndevice.sensor\ta\\qb\n", "line 2: a bad escape"),
    ])
    func malformedTextIsRefusedWithItsLine(text: String, expected: String) {
        switch PluginInputs.decode(text) {
        case .success(let inputs): Issue.record("decoded \(inputs)")
        case .failure(let error): #expect(error.description == expected)
        }
    }
}

import Testing
@testable import OrientCore

/// The controller, table-driven: each scenario is a sequence of events (as the plugin would send
/// them) and what the tablet's panel (native landscape, 1280×800) must show after each step.
///.
struct ControllerScenario: Sendable, CustomTestStringConvertible {
    var name: String
    var config = Config()
    var state = PersistentState(lastFelt: .normal)
    var desktop = DesktopIndex()
    var panel = PanelShape.landscape
    /// What the panel shows when it appears.
    var showing = Orientation.normal
    /// Each step: events, then what the panel shows and whether the sensor runs afterwards.
    var steps: [(events: [ControllerEvent], shows: Orientation, sensor: Bool)]
    var testDescription: String { name }
}

private let game = ToplevelID(1)
private let reader = ToplevelID(2)
private let editor = ToplevelID(3)
private let panel = ControllerHarness.tablet
/// Qt's landscape | inverted landscape: a landscape-only app, as it says so over the protocol.
private let landscapeBits = ContentOrientations([.landscape, .invertedLandscape])

private func launch(_ id: ToplevelID, _ appID: String, covers: Bool = true) -> [ControllerEvent] {
    [.toplevelAdded(id, appID: appID, covers: covers)]
}
private func shown(_ id: ToplevelID) -> [ControllerEvent] { [.toplevelMapped(id, true), .focus(id)] }
private func declare(_ id: ToplevelID, _ bits: ContentOrientations = [], input: Bool? = nil) -> [ControllerEvent] {
    [.declaration(id, ClientDeclaration(orientations: bits, input: input))]
}
private let footLandscape = Config.with(.rule("foot", "landscape"))
private let readerDesktop = DesktopIndex(["org.example.Reader": DesktopOrientation(orientations: .portrait, path: "/usr/share/applications/org.example.Reader.desktop")])

let controllerScenarios: [ControllerScenario] = [
    .init(name: "the panel follows the felt orientation",
          steps: [([.felt(.leftUp)], .leftUp, true), ([.felt(.bottomUp)], .bottomUp, true), ([.felt(.normal)], .normal, true)]),
    .init(name: "rule 5 by an [[app]] rule: a landscape app launched while held portrait turns the panel at its initial commit, follows both landscape variants, and its closing returns to felt",
          config: footLandscape,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot"), .normal, true),
                  (shown(game), .normal, true),
                  ([.felt(.bottomUp)], .bottomUp, true),
                  ([.felt(.rightUp)], .bottomUp, true),
                  ([.toplevelMapped(game, false), .toplevelRemoved(game)], .rightUp, true)]),
    .init(name: "rule 5 by the protocol: the client's own declaration (Qt landscape | inverted landscape)",
          steps: [([.felt(.rightUp)], .rightUp, true),
                  (declare(game, landscapeBits) + launch(game, "org.example.Game"), .normal, true),
                  ([.felt(.bottomUp)], .bottomUp, true),
                  ([.toplevelRemoved(game)], .bottomUp, true),
                  ([.felt(.leftUp)], .leftUp, true)]),
    .init(name: "a landscape-only app on another output leaves the panel to the device; moved onto the panel, it decides there (the daemon hears outputs from foreign-toplevel)",
          config: footLandscape,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot") + [.toplevelPanels(game, [ControllerHarness.external])] + shown(game), .leftUp, true),
                  ([.toplevelPanels(game, [panel, ControllerHarness.external])], .normal, true),
                  ([.toplevelPanels(game, [])], .leftUp, true)]),
    .init(name: "rule 5 by a .desktop file (X-Lomiri-Supported-Orientations=portrait: left-up on a tablet)",
          desktop: readerDesktop,
          steps: [(launch(reader, "org.example.Reader"), .leftUp, true),
                  (shown(reader), .leftUp, true),
                  ([.felt(.normal)], .leftUp, true),
                  ([.felt(.rightUp)], .leftUp, true),   // Qt's portrait is one variant; inverted portrait is another
                  ([.focus(nil)], .rightUp, true)]),
    .init(name: "focus moving between two clients with different masks rotates accordingly",
          config: Config.with(.rule("foot", "landscape"), .rule("org.example.Reader", "portrait")),
          steps: [(launch(game, "foot") + shown(game), .normal, true),
                  (launch(reader, "org.example.Reader") + shown(reader), .rightUp, true),
                  ([.focus(game)], .normal, true),
                  ([.focus(reader)], .rightUp, true),
                  ([.toplevelRemoved(reader)], .normal, true)]),
    .init(name: "scope fullscreen: a focused window that does not cover the output has no say until it does",
          config: footLandscape,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot", covers: false) + shown(game), .leftUp, true),
                  ([.toplevelCovers(game, true)], .normal, true),
                  ([.toplevelCovers(game, false)], .leftUp, true)]),
    .init(name: "scope focused: the focused window decides whether it covers the output or not",
          config: Config.with(.rule("foot", "landscape"), scope: .focused),
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot", covers: false) + shown(game), .normal, true)]),
    .init(name: "focus may come before the map is heard of (a host focusing from its own map handler)",
          config: footLandscape,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot") + [.focus(game)], .normal, true),
                  ([.toplevelMapped(game, true)], .normal, true)]),
    .init(name: "a hidden (unmapped) focused window has no say",
          config: footLandscape,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot") + shown(game), .normal, true),
                  ([.toplevelMapped(game, false)], .leftUp, true)]),
    .init(name: "a mask change at run time is applied at once; 0 (no preference) falls back to the rule",
          config: Config.with(.rule("org.example.Game", "portrait")),
          steps: [(launch(game, "org.example.Game") + shown(game), .rightUp, true),
                  (declare(game, landscapeBits), .normal, true),
                  (declare(game, []), .rightUp, true),
                  ([.declaration(game, nil)], .rightUp, true),
                  ([.felt(.leftUp)], .leftUp, true)]),
    .init(name: "the client's declaration beats its rule, the rule beats its .desktop file",
          config: Config.with(.rule("org.example.Reader", "landscape")),
          desktop: readerDesktop,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(reader, "org.example.Reader") + shown(reader), .normal, true),
                  (declare(reader, .portrait), .leftUp, true)]),
    .init(name: "rule 6: a client taking orientation as input keeps the screen still; when it leaves, the screen follows again",
          steps: [(declare(game, input: true) + launch(game, "org.example.Game") + shown(game), .normal, true),
                  ([.felt(.leftUp)], .normal, true),
                  ([.felt(.bottomUp)], .normal, true),
                  ([.toplevelRemoved(game)], .bottomUp, true)]),
    .init(name: "rule 6 by an [[app]] rule (sensor-input = true)",
          config: Config.with(AppRule(match: "org.example.Game", sensorInput: true)),
          steps: [(launch(game, "org.example.Game") + shown(game), .normal, true),
                  ([.felt(.rightUp)], .normal, true),
                  ([.focus(nil)], .rightUp, true)]),
    .init(name: "rule 12: tablet mode gates rotation and the sensor",
          config: Config.with(rotateWhen: .tabletMode),
          state: PersistentState(lastFelt: .leftUp),
          steps: [([], .normal, false),
                  // The saved orientation may be stale: the panel waits for the sensor.
                  ([.tabletMode(true)], .normal, true),
                  ([.felt(.leftUp)], .leftUp, true),
                  ([.felt(.bottomUp)], .bottomUp, true),
                  ([.tabletMode(false)], .normal, false),
                  ([.tabletMode(true)], .normal, true),
                  ([.felt(.bottomUp)], .bottomUp, true)]),
    .init(name: "outside tablet mode neither the lock nor the app turns a laptop's panel",
          config: Config.with(.rule("foot", "portrait"), rotateWhen: .tabletMode),
          state: PersistentState(lock: MaskSpec(parsing: "portrait"), lastFelt: .normal),
          steps: [(launch(game, "foot") + shown(game), .normal, false),
                  ([.tabletMode(true)], .rightUp, true)]),
    .init(name: "lock landscape while held portrait turns to landscape; unlock returns to felt",
          state: PersistentState(lastFelt: .leftUp), showing: .leftUp,
          steps: [([.control(.lock(MaskSpec(parsing: "landscape")!))], .normal, true),
                  ([.felt(.bottomUp)], .bottomUp, true),
                  ([.felt(.rightUp)], .bottomUp, true),
                  ([.control(.unlock)], .rightUp, true)]),
    .init(name: "lock landscape while held portrait leaning toward upside down turns to the nearer variant, bottom-up",
          state: PersistentState(lastFelt: .leftUp), showing: .leftUp,
          steps: [([.lean(115), .control(.lock(MaskSpec(parsing: "landscape")!))], .bottomUp, true)]),
    .init(name: "lock landscape while held portrait leaning toward normal turns to normal",
          state: PersistentState(lastFelt: .leftUp), showing: .leftUp,
          steps: [([.lean(68), .control(.lock(MaskSpec(parsing: "landscape")!))], .normal, true)]),
    .init(name: "a landscape app launched while held portrait (right-up) leaning toward upside down starts upside down",
          config: footLandscape,
          state: PersistentState(lastFelt: .rightUp), showing: .rightUp,
          steps: [([.lean(250)] + launch(game, "foot"), .bottomUp, true),
                  ([.lean(300)] + shown(game), .bottomUp, true)]),
    .init(name: "toggle locks to the orientation shown (and releases the sensor), toggle again unlocks",
          config: ControllerHarness.offersNothing,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  ([.control(.toggle)], .leftUp, false),
                  // Unlocked, the panel stays until the restarted sensor says how the device is held.
                  ([.control(.toggle)], .leftUp, true),
                  ([.felt(.normal)], .normal, true)]),
    .init(name: "lock current, then a lock to a set",
          config: ControllerHarness.offersNothing,
          steps: [([.felt(.rightUp)], .rightUp, true),
                  ([.control(.lockCurrent)], .rightUp, false),
                  ([.control(.lock(MaskSpec(parsing: "portrait")!))], .rightUp, true),
                  ([.felt(.leftUp)], .leftUp, true)]),
    .init(name: "a phone (native portrait) without upside-down: a landscape game launches in right-up (Qt's landscape)",
          config: { var c = Config(); c.device.orientations = .init([.allButUpsideDown]); return c }(),
          panel: .portrait,
          steps: [(declare(game, landscapeBits) + launch(game, "org.example.Game"), .rightUp, true),
                  ([.felt(.leftUp)], .leftUp, true),
                  ([.felt(.bottomUp)], .leftUp, true)]),
    .init(name: "the host names the front itself (wlr_orient_set_front): focus is ignored on that panel",
          config: footLandscape,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot") + shown(game), .normal, true),
                  ([.hostFront(panel, nil)], .leftUp, true),
                  ([.focus(game)], .leftUp, true),
                  ([.hostFront(panel, game)], .normal, true),
                  ([.toplevelRemoved(game)], .leftUp, true)]),
    .init(name: "a reloaded config applies its rules to the app in front at once",
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "foot") + shown(game), .leftUp, true),
                  ([.configLoaded(footLandscape, DesktopIndex(), errors: [])], .normal, true)]),
    .init(name: "an app_id set after the initial commit is applied",
          config: footLandscape,
          steps: [([.felt(.leftUp)], .leftUp, true),
                  (launch(game, "") + shown(game), .leftUp, true),
                  ([.toplevelAppID(game, "foot")], .normal, true)]),
    .init(name: "a failed commit is believed, not retried in a loop; a new decision is tried",
          steps: [([.felt(.leftUp)], .leftUp, true),
                  ([.panelShowing(panel, .normal)], .normal, true),
                  ([.toplevelAdded(game, appID: "foot", covers: false)], .normal, true),
                  ([.felt(.bottomUp)], .bottomUp, true),
                  ([.felt(.leftUp)], .leftUp, true)]),
]

@Suite struct ControllerScenarioTests {
    @Test(arguments: controllerScenarios)
    func scenario(_ s: ControllerScenario) {
        var h = ControllerHarness(config: s.config, state: s.state, desktop: s.desktop, panel: s.panel, showing: s.showing)
        for (i, step) in s.steps.enumerated() {
            h.send(step.events)
            #expect(h.panel == step.shows, "step \(i + 1) \(step.events): shows \(String(describing: h.panel))")
            #expect(h.sensorRunning == step.sensor, "step \(i + 1): sensor running \(h.sensorRunning)")
            // The status agrees with what the commands did.
            #expect(h.controller.status.panels.first?.shown == h.panel)
        }
    }
}

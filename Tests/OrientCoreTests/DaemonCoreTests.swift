import Testing
@testable import OrientCore

/// The daemon's core, driven as the daemon drives it: the heads as the compositor describes
/// them, readings, answers, a config read again; what comes out is what the daemon carries out.
struct DaemonCoreTests {
    typealias Out = [CoreCommand<DaemonCommand>]
    static let panel: HeadsReconciler.HeadKey = 10
    static let external: HeadsReconciler.HeadKey = 20

    static func head(_ key: HeadsReconciler.HeadKey = panel, _ name: String = "eDP-1",
                     showing: Orientation = .normal) -> HeadsReconciler.Head {
        HeadsReconciler.Head(key: key, name: name, enabled: true, shape: .landscape, showing: showing)
    }

    static func config(rotateWhen: Config.RotateWhen = .always, outputs: [String]? = nil) -> Config {
        var config = Config()
        config.rotateWhen = rotateWhen
        if let outputs { config.device.outputs = outputs }
        return config
    }

    /// A core that has seen the tablet's panel (and an external output) and an opened sensor.
    static func started(_ config: Config = config(), shields: Bool = false) -> (DaemonCore, Out) {
        var core = DaemonCore(config: config, state: PersistentState(lastFelt: .normal), desktop: DesktopIndex())
        var out = core.start()
        out += core.handle(.heads(.canShield(lacking: shields ? [] : ["zwlr_layer_shell_v1"])))
        out += core.handle(.heads(.heads([head(), head(external, "HDMI-A-1")], serial: 1)))
        out += core.handle(.heads(.settle))
        out += core.handle(.controller(.sensorOpened(PerceptionTests.device(.polled), at: 0)))
        return (core, out)
    }

    /// Readings of the device held at `angle` for two seconds, from `start`.
    static func hold(_ core: inout DaemonCore, angle: Double, from start: Double = 0) -> Out {
        var out: Out = []
        var t = start
        while t < start + 2 {
            out += core.handle(.controller(.reading(PerceptionTests.raw(t, angle: angle), held: false)))
            t += 0.04
        }
        return out
    }

    static func hostCommands(_ out: Out) -> [DaemonCommand] {
        out.compactMap { if case .host(let command) = $0 { command } else { nil } }
    }

    static func lines(_ out: Out) -> [String] {
        out.compactMap { if case .runner(.log(_, let line)) = $0 { line } else { nil } }
    }

    @Test func anOfferedTurnGoesToItsHeadAndIsAcceptedThroughTheControllerOnce() {
        var (core, _) = Self.started()
        _ = core.handle(.controller(.control(.lock(MaskSpec(parsing: "normal")!))))
        let offered = core.handle(.controller(.felt(.leftUp)))
        #expect(Self.hostCommands(offered).contains(.suggest(Self.panel, SuggestionTarget(orientation: .leftUp, held: .leftUp, corner: .bottomLeft))))
        #expect(core.controller.status.suggestion?.orientation == .leftUp)
        #expect(Self.hostCommands(core.handle(.controller(.felt(.normal)))).contains(.suggest(Self.panel, nil)))
        _ = core.handle(.controller(.felt(.rightUp)))
        let before = core.controllerEvents
        var taken = core.handle(.controller(.control(.acceptSuggestion)))
        #expect(core.controllerEvents == before + 1, "the accept passes through the controller once")
        taken += core.handle(.heads(.settle))
        #expect(Self.hostCommands(taken).contains { if case .test = $0 { true } else { false } }, "the turn goes to the heads")
        #expect(core.controller.state.lock == MaskSpec(exactly: .rightUp))
    }

    @Test func whatTheCompositorLacksForShieldsIsSaidOnce() {
        var core = DaemonCore(config: Config(), state: PersistentState(), desktop: DesktopIndex())
        let lacking = ["zwlr_layer_shell_v1", "zwlr_screencopy_manager_v1"]
        let first = core.handle(.heads(.canShield(lacking: lacking)))
        #expect(Self.lines(first) == [
            "the compositor offers no zwlr_layer_shell_v1, zwlr_screencopy_manager_v1: the panel turns without a transition here (a cut)"])
        #expect(first.contains(.runner(.event(.cannotShield(lacking: lacking)))))
        let again = core.handle(.heads(.canShield(lacking: lacking)))
        #expect(Self.lines(again).isEmpty, "a connection made again")
        #expect(!again.contains(.runner(.event(.cannotShield(lacking: lacking)))))
    }

    @Test func aPanelFoundAmongTheHeadsReachesTheControllerAndStartsTheSensor() {
        let (core, out) = Self.started()
        #expect(out.contains(.startSensor))
        #expect(core.allPanels.count == 1)
        #expect(core.panel(named: "eDP-1") != nil)
        #expect(core.panel(named: "HDMI-A-1") == nil)
        #expect(Self.lines(out).contains("eDP-1: a built-in panel (landscape); it follows the device"))
    }

    /// A turn: the reading that decides it passes through the controller once; the heads'
    /// steps after it (test, apply, answers) never reach the controller.
    @Test func aTurnIsTestedThenAppliedAndPassesThroughTheControllerOnce() {
        var (core, _) = Self.started()
        let before = core.controllerEvents
        let decided = Self.hold(&core, angle: 90)
        let readings = core.controllerEvents - before
        #expect(decided.contains { if case .runner(.event(.decision(let o, _))) = $0 { o == .leftUp } else { false } })
        #expect(Self.hostCommands(decided).isEmpty, "nothing is sent before what arrived together is told")
        let settled = core.handle(.heads(.settle))
        #expect(Self.hostCommands(settled) == [.test([Self.panel: .rotated90])])
        #expect(Self.hostCommands(core.handle(.heads(.answered(.succeeded)))) == [.apply([Self.panel: .rotated90])])
        let applied = core.handle(.heads(.answered(.succeeded)))
        #expect(Self.hostCommands(applied) == [.assume(Self.panel, .rotated90)])
        #expect(Self.lines(applied) == ["eDP-1: left-up (transform 1)"])
        #expect(core.controllerEvents - before == readings, "only the readings went through the controller")
    }

    /// The table: each event from the compositor, and what the daemon is asked to do.
    @Test(arguments: [
        (DaemonCore.HeadsEvent.canShield(lacking: []), [DaemonCommand]()),
        (.settle, []),
        (.headGone(external), []),
        (.headGone(panel), []),
        (.heads([head(), head(external, "HDMI-A-1")], serial: 2), [.panelsChanged]),
        (.heads([head(showing: .rightUp)], serial: 2), [.panelsChanged]),
        (.answered(.succeeded), []),
        (.notSent, []),
        (.disconnected, []),
    ])
    func whatEachHeadsEventAsksOfTheDaemon(event: DaemonCore.HeadsEvent, expected: [DaemonCommand]) {
        var (core, _) = Self.started()
        #expect(Self.hostCommands(core.handle(.heads(event))) == expected)
    }

    @Test func aHeadTurnedBySomeoneElseIsKeptAndTheControllerHearsIt() {
        var (core, _) = Self.started()
        let out = core.handle(.heads(.heads([Self.head(showing: .rightUp)], serial: 2)))
        #expect(core.controller.status.panels.first?.shown == .rightUp)
        #expect(core.controller.status.panels.first?.setBy != nil)
        #expect(Self.hostCommands(out + core.handle(.heads(.settle))) == [.panelsChanged])
    }

    @Test func thePanelGoneWithTheConnectionLeavesTheController() {
        var (core, _) = Self.started()
        let out = core.handle(.heads(.disconnected))
        #expect(core.controller.status.panels.isEmpty)
        #expect(core.allPanels.isEmpty)
        #expect(Self.lines(out).contains("eDP-1: gone"))
    }

    /// Where a window is, from its outputs' names: on no panel when its outputs are none of them;
    /// unknown (nil: the controller takes it as on every panel) while that cannot be known (no
    /// output entered yet, or one without a name).
    @Test(arguments: [
        ([String?](), nil),
        (["eDP-1"], ["eDP-1"]),
        (["HDMI-A-1"], []),
        (["HDMI-A-1", nil], nil),
        (["eDP-1", "HDMI-A-1"], ["eDP-1"]),
    ] as [([String?], [String]?)])
    func whichPanelsAWindowIsOn(outputs: [String?], panels: [String]?) {
        let (core, _) = Self.started()
        #expect(core.panels(onOutputsNamed: outputs) == panels.map { Set($0.compactMap(core.panel(named:))) })
    }

    /// A config read again names the panels anew (the core tells its reconciler, not the daemon).
    @Test func aConfigReadAgainNamesOtherPanels() {
        var (core, _) = Self.started()
        let config = Self.config(outputs: ["HDMI-A-*"])
        let out = core.handle(.controller(.configLoaded(config, DesktopIndex(), errors: [])))
        #expect(core.panel(named: "HDMI-A-1") != nil)
        #expect(core.panel(named: "eDP-1") == nil)
        #expect(Self.lines(out).contains("eDP-1: gone"))
        #expect(Self.lines(out).contains("HDMI-A-1: a built-in panel (landscape); it follows the device"))
    }

    @Test func aConfigWithErrorsChangesNoPanel() {
        var (core, _) = Self.started()
        let out = core.handle(.controller(.configLoaded(Self.config(outputs: ["HDMI-A-*"]), DesktopIndex(), errors: ["x:1:1: bad"])))
        #expect(core.panel(named: "eDP-1") != nil)
        #expect(Self.hostCommands(out).isEmpty)
    }

    /// The tablet-mode switches are read while `rotate-when = "tablet-mode"`, from the start or
    /// from a reload, and closed when it goes; said once each.
    @Test(arguments: [
        (Config.RotateWhen.always, Config.RotateWhen.tabletMode, [DaemonCommand](), [DaemonCommand.readTabletSwitches(true)]),
        (.tabletMode, .always, [.readTabletSwitches(true)], [.readTabletSwitches(false)]),
        (.tabletMode, .tabletMode, [.readTabletSwitches(true)], []),
        (.always, .always, [], []),
    ])
    func theTabletSwitchesFollowRotateWhen(from: Config.RotateWhen, to: Config.RotateWhen, atStart: [DaemonCommand], onReload: [DaemonCommand]) {
        var core = DaemonCore(config: Self.config(rotateWhen: from), state: PersistentState(), desktop: DesktopIndex())
        #expect(Self.hostCommands(core.start()).filter { if case .readTabletSwitches = $0 { true } else { false } } == atStart)
        let out = core.handle(.controller(.configLoaded(Self.config(rotateWhen: to), DesktopIndex(), errors: [])))
        #expect(Self.hostCommands(out).filter { if case .readTabletSwitches = $0 { true } else { false } } == onReload)
    }

    /// A shield is named by its id from cover to uncover; its going ends the head's turn once.
    @Test func aShieldIsNamedByItsIdAndItsGoingIsSaidOnce() {
        var (core, _) = Self.started(shields: true)
        _ = Self.hold(&core, angle: 90)
        _ = core.handle(.heads(.settle))
        let covers = Self.hostCommands(core.handle(.heads(.answered(.succeeded))))
        guard case .cover(let laid)? = covers.first, let shield = laid.first else {
            Issue.record("no shield laid: \(covers)")
            return
        }
        #expect(Self.hostCommands(core.handle(.heads(.covered(Self.panel)))) == [.apply([Self.panel: .rotated90])])
        let applied = Self.hostCommands(core.handle(.heads(.answered(.succeeded))))
        #expect(applied.first == .uncover(shield.id, applied: true))
        #expect(Self.lines(core.handle(.heads(.shieldGone(shield.id)))) == ["eDP-1: the shield is gone"])
        #expect(Self.lines(core.handle(.heads(.shieldGone(shield.id)))).isEmpty)
    }

    /// The protocol is the plugin's: nothing the controller would tell a client reaches the daemon.
    @Test func noClientTellingReachesTheDaemon() {
        var (core, _) = Self.started()
        let toplevel = ToplevelID(1)
        var out = core.handle(.controller(.toplevelAdded(toplevel, appID: "foot", covers: true)))
        out += core.handle(.controller(.focus(toplevel)))
        out += Self.hold(&core, angle: 90)
        out += core.handle(.heads(.settle))
        #expect(Self.hostCommands(out) == [.test([Self.panel: .rotated90])])
    }
}

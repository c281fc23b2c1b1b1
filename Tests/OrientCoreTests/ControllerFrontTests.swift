import Foundation
import Testing
@testable import OrientCore

/// Which window is in front where the host sees only the states a compositor publishes (the
/// daemon, through foreign-toplevel). A tiling compositor marks no window
/// maximized, so with `scope = "fullscreen"` a window alone on its panel counts as covering it.
@Suite struct ControllerFrontTests {
    static let foot = ToplevelID(1)
    static let other = ToplevelID(2)
    static let tablet = ControllerHarness.tablet
    static let external = ControllerHarness.external

    static var footLandscape: Config {
        var c = Config()
        c.apps = [AppRule(match: "foot", orientations: MaskSpec(parsing: "landscape"))]
        return c
    }

    /// foot, tiled (not maximized), shown on the tablet panel and focused, with the device held
    /// portrait.
    static func tiledFoot(_ evidence: Controller.CoverEvidence) -> ControllerHarness {
        var h = ControllerHarness(config: footLandscape, coverEvidence: evidence)
        h.send(.felt(.leftUp))
        h.send([.toplevelAdded(foot, appID: "foot", covers: false), .toplevelPanels(foot, [tablet]),
                .toplevelMapped(foot, true), .focus(foot)])
        return h
    }

    @Test func aTiledWindowAloneOnItsPanelIsInFrontWhereOnlyStatesAreSeen() {
        let h = Self.tiledFoot(.statesOnly)
        #expect(h.panel == .normal, "foot's landscape rule applies")
        #expect(h.controller.status.front?.appID == "foot")
    }

    @Test func aSecondWindowOnThatPanelMeansNoneCoversIt() {
        var h = Self.tiledFoot(.statesOnly)
        h.send([.toplevelAdded(Self.other, appID: "editor", covers: false), .toplevelPanels(Self.other, [Self.tablet]),
                .toplevelMapped(Self.other, true), .focus(Self.foot)])
        #expect(h.panel == .leftUp, "two tiled windows share the panel: the device decides")
        #expect(h.controller.status.front == nil)
        // Minimized (hidden), it no longer shares it.
        h.send(.toplevelMapped(Self.other, false))
        #expect(h.panel == .normal)
        // On another output, it never did.
        h.send([.toplevelMapped(Self.other, true), .toplevelPanels(Self.other, [Self.external])])
        #expect(h.panel == .normal)
        // And when it goes, foot is alone again.
        h.send(.toplevelPanels(Self.other, [Self.tablet]))
        #expect(h.panel == .leftUp)
        h.send(.toplevelRemoved(Self.other))
        #expect(h.panel == .normal)
    }

    /// A compositor that names no output of a window (no output_enter on its foreign-toplevel
    /// handle): it counts as on every panel, and `status` says its output is unknown, in JSON and
    /// read back; once its output is told, the rule applies only there.
    @Test func aWindowWhoseOutputIsNotToldIsOnEveryPanelAndStatusSaysSo() throws {
        var h = ControllerHarness(config: Self.footLandscape, coverEvidence: .statesOnly)
        h.send(.felt(.leftUp))
        h.send([.toplevelAdded(Self.foot, appID: "foot", covers: true), .toplevelPanels(Self.foot, nil),
                .toplevelMapped(Self.foot, true), .focus(Self.foot)])
        #expect(h.panel == .normal, "foot's landscape rule applies on the panel")
        let front = try #require(h.controller.status.front)
        #expect(front.outputUnknown)
        let json = h.controller.status.json.serialized
        #expect(json.contains(#""output": "unknown""#), "\(json)")
        #expect(try JSONDecoder().decode(ControllerStatus.self, from: Data(json.utf8)) == h.controller.status)
        h.send(.toplevelPanels(Self.foot, [Self.external]))
        #expect(h.panel == .leftUp, "on the external screen, it has no say over the panel")
        h.send(.toplevelPanels(Self.foot, [Self.tablet]))
        #expect(h.controller.status.front?.outputUnknown == false)
        #expect(!h.controller.status.json.serialized.contains("unknown"))
    }

    @Test func whereTheHostReportsCoveringALoneWindowThatDoesNotCoverIsNotInFront() {
        let h = Self.tiledFoot(.reported)
        #expect(h.panel == .leftUp)
        #expect(h.controller.status.front == nil)
    }

    @Test func withScopeFocusedTheRuleAppliesEitherWay() {
        var config = Self.footLandscape
        config.scope = .focused
        var h = ControllerHarness(config: config, coverEvidence: .statesOnly)
        h.send(.felt(.leftUp))
        h.send([.toplevelAdded(Self.foot, appID: "foot", covers: false), .toplevelMapped(Self.foot, true),
                .toplevelAdded(Self.other, appID: "editor", covers: false), .toplevelMapped(Self.other, true),
                .focus(Self.foot)])
        #expect(h.panel == .normal)
    }
}

import Testing
@testable import OrientCore

/// The events are what tests and benchmarks wait on: one JSON object a line, named first.
struct OrientEventTests {
    @Test func anEventIsOneLineNamedFirst() {
        let turned = OrientEvent.turned(panel: "eDP-1", .leftUp, transition: .rotate).json.serialized
        #expect(turned == #"{"event": "turned", "panel": "eDP-1", "orientation": "left-up", "transform": 1, "transition": "rotate"}"#)
        let daemon = OrientEvent.turned(panel: "eDP-1", .normal, transition: nil).json.serialized
        #expect(daemon.hasSuffix(#""transition": null}"#))
        let line = OrientEvent.log(level: "info", line: "a \"quoted\"\nline").json.serialized
        #expect(!line.contains("\n"), "a log line with a newline stays one event line")
    }

    @Test func aTransitionNeverRevealedSaysNull() {
        let ended = OrientEvent.transitionEnded(panel: "eDP-1", .crossfade, frames: 0, beganAt: 10, revealedAt: nil,
                                                endedAt: 20, setUp: 7, turningCopy: nil, gaveWay: true, oldFrame: nil,
                                                fadedUnturned: false)
        #expect(ended.json["revealed_at"] == .null)
        #expect(ended.json["old_frame"] == .null && ended.json["faded_unturned"] == .bool(false))
        #expect(ended.json["gave_way"] == .bool(true))
        #expect(ended.json["event"] == .string("transition-ended"))
    }

    /// What someone else set is told to the event stream too, kept or turned back.
    @Test func theControllerSaysWhoSetAPanelAndWhetherItIsKept() {
        var c = Controller(config: Config(), state: PersistentState(lastFelt: .leftUp))
        _ = c.start()
        _ = c.handle(.panelAdded(PanelID(1), name: "eDP-1", shape: .landscape, showing: .leftUp))
        let out = c.handle(.panelSetElsewhere(PanelID(1), .normal, by: .compositor, at: 0))
        #expect(out.contains(.event(.setElsewhere(panel: "eDP-1", .normal, by: .compositor, kept: false))))
        let client = c.handle(.panelSetElsewhere(PanelID(1), .bottomUp, by: .outputManagement, at: 1))
        #expect(client.contains(.event(.setElsewhere(panel: "eDP-1", .bottomUp, by: .outputManagement, kept: true))))
    }

    /// A refusal is said once in the log, and told as an event every time.
    @Test func aRefusedConfigurationIsAnEvent() {
        var (core, _) = DaemonCoreTests.started()
        _ = DaemonCoreTests.hold(&core, angle: 90)
        _ = core.handle(.heads(.settle))
        let out = core.handle(.heads(.answered(.failed)))
        #expect(out.contains(.event(.refused(panel: "eDP-1", .leftUp, why: "the compositor's test refused it"))))
    }
}

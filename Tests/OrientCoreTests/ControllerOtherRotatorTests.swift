import Foundation
import Testing
@testable import OrientCore

private let tablet = ControllerHarness.tablet

/// Another program that turns the panel with the device too (rot8 beside us): noticed within a
/// few turns and left the panel, so that it turns once per device turn, not twice; ours again
/// once a device turn goes unanswered.
@Suite struct ControllerOtherRotatorTests {
    /// A rot8 that maps left-up and right-up the other way round from ours (its device's matrix
    /// differs), answering each change of how the device is held `after` seconds later.
    static func rot8(_ felt: Orientation) -> Orientation {
        switch felt {
        case .leftUp: .rightUp
        case .rightUp: .leftUp
        default: felt
        }
    }

    /// Shows (our transform changes) in commands.
    static func shows(_ commands: [ControllerCommand]) -> Int {
        commands.filter { if case .host(.show) = $0 { true } else { false } }.count
    }

    /// One device turn at `t`, the other rotator answering 0.4 s later when what it shows
    /// changes: how many times the panel's transform changed.
    static func turn(_ h: inout ControllerHarness, to felt: Orientation, at t: Double, rival: Bool = true,
                     process: String? = nil) -> Int {
        let before = h.panel
        h.controller.advanceClock(to: t)
        var changes = shows(h.send(.felt(felt)))
        if rival, h.panel != rot8(felt) {
            h.controller.advanceClock(to: t + 0.4)
            changes += 1 + shows(h.send(.panelSetElsewhere(tablet, rot8(felt), by: .outputManagement, at: t + 0.4, process: process)))
        }
        _ = before
        return changes
    }

    @Test func aRotatorThatAnswersOurTurnsIsLeftThePanelAndNamedInStatus() throws {
        var h = ControllerHarness()
        let poses: [Orientation] = [.leftUp, .normal, .leftUp, .rightUp, .normal, .leftUp, .rightUp, .leftUp]
        var changes: [Int] = []
        for (n, felt) in poses.enumerated() {
            changes.append(Self.turn(&h, to: felt, at: 10 + Double(n) * 5))
        }
        #expect(changes.allSatisfy { $0 <= 2 }, "transform changes per turn: \(changes)")
        // Answered on the first and third turns (the second, normal, it maps as we do): left to it.
        let other = try #require(h.lastStatus?.panels.first?.otherRotator)
        #expect(other.by == .outputManagement && other.since == 20.4)
        #expect(h.all.contains(.event(.otherRotator(panel: "eDP-1", by: .outputManagement, leftToIt: true))))
        let said = h.all.filter { if case .runner(.log(_, let line)) = $0 { line.contains("turns this panel with the device as well") } else { false } }
        #expect(said.count == 1, "said once: \(said)")
        #expect(changes.suffix(5).allSatisfy { $0 == 1 }, "from then on only the other turns it: \(changes)")
        #expect(h.panel == Self.rot8(.leftUp))
        let json = try #require(h.lastStatus).json.serialized
        #expect(json.contains(#""other_rotator": {"by": "output-management", "process": null, "since_ms": 20400}"#), "\(json)")
        #expect(try JSONDecoder().decode(ControllerStatus.self, from: Data(json.utf8)) == h.lastStatus)
    }

    @Test func onceTheOtherStopsTheNextTurnIsOursAfterItsTimeToAnswer() throws {
        var h = ControllerHarness()
        // (Turns between left-up and right-up alone it answers without a fight: what it showed
        // last is what we would show next.)
        for (n, felt) in [Orientation.leftUp, .normal, .leftUp].enumerated() {
            _ = Self.turn(&h, to: felt, at: 10 + Double(n) * 5, process: "rot8")
        }
        let other = try #require(h.lastStatus?.panels.first?.otherRotator)
        #expect(other.process == "rot8", "the host named its program")
        let said = h.all.compactMap { if case .runner(.log(_, let line)) = $0 { line } else { nil } }
        #expect(said.contains { $0.hasPrefix("eDP-1: rot8 (a client through output management) turns this panel") }, "\(said)")
        // The other stops: the device turns, nobody answers.
        #expect(Self.turn(&h, to: .normal, at: 30, rival: false) == 0, "left to the other, for now")
        #expect(h.last.contains(.wake(at: 30 + RivalRotators.answerWindow)), "\(h.last)")
        h.controller.advanceClock(to: 32.1)
        let out = h.send(.wake)
        #expect(Self.shows(out) == 1 && h.panel == .normal, "ours again: \(out)")
        #expect(out.contains(.event(.otherRotator(panel: "eDP-1", by: .outputManagement, leftToIt: false))))
        #expect(h.lastStatus?.panels.first?.otherRotator == nil)
        // And it follows the device as before.
        #expect(Self.turn(&h, to: .leftUp, at: 40, rival: false) == 1 && h.panel == .leftUp)
    }

    /// A person setting the transform once with wlr-randr, or now and then, is no rival: kept
    /// until the device turns, as before.
    @Test func aTransformSetNowAndThenIsNoRival() {
        var h = ControllerHarness()
        var t = 10.0
        for felt in [Orientation.leftUp, .normal, .leftUp, .normal, .leftUp, .normal] {
            t += 5
            _ = Self.turn(&h, to: felt, at: t, rival: false)
        }
        h.controller.advanceClock(to: t + 0.5)
        h.send(.panelSetElsewhere(tablet, .bottomUp, by: .outputManagement, at: t + 0.5))
        _ = Self.turn(&h, to: .leftUp, at: t + 5, rival: false)
        _ = Self.turn(&h, to: .normal, at: t + 10, rival: false)
        #expect(h.lastStatus?.panels.first?.otherRotator == nil)
        #expect(h.panel == .normal)
    }

    /// Under a lock, no turn is offered on a panel left to another rotator: a tap could not turn
    /// it (we do not turn it at all), and the other shows the device's way anyway.
    @Test func noTurnIsOfferedOnAPanelLeftToAnotherRotator() throws {
        var h = ControllerHarness()
        for (n, felt) in [Orientation.leftUp, .normal, .leftUp].enumerated() {
            _ = Self.turn(&h, to: felt, at: 10 + Double(n) * 5)
        }
        try #require(h.lastStatus?.panels.first?.otherRotator != nil)
        h.controller.advanceClock(to: 30)
        h.send(.control(.lock(MaskSpec(parsing: "normal")!)))
        _ = Self.turn(&h, to: .bottomUp, at: 31)
        #expect(h.controller.status.suggestion == nil)
        #expect(!h.all.contains { if case .host(.suggest(_, .some)) = $0 { true } else { false } }, "\(h.all)")
    }
}

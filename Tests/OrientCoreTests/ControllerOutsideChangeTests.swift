import Foundation
import Testing
@testable import OrientCore

private let tablet = ControllerHarness.tablet

/// A transform someone else set on a panel (`PanelSetter`): the compositor's own change is turned
/// back with a cut, a client's through output management is kept until the decision moves.
@Suite struct ControllerOutsideChangeTests {
    private func shows(_ commands: [ControllerCommand]) -> [ControllerCommand] {
        commands.filter { if case .host(.show) = $0 { true } else { false } }
    }

    @Test func theCompositorsOwnChangeIsTurnedBackAtOnceWithACut() {
        var h = ControllerHarness()
        h.send(.felt(.leftUp))
        #expect(h.panel == .leftUp)
        // A reload puts the panel back to its config's transform.
        let out = h.send(.panelSetElsewhere(tablet, .normal, by: .compositor, at: 100))
        #expect(shows(out) == [.show(tablet, .leftUp, transition: TransitionPlan(kind: .none))], "\(out)")
        #expect(h.logs.contains { $0.contains("the compositor set normal") }, "\(h.logs)")
        #expect(h.lastStatus?.panels.first?.setBy == nil)
        // The next turn of the device rotates as configured again.
        let next = h.send(.felt(.bottomUp))
        #expect(shows(next) == [.show(tablet, .bottomUp, transition: TransitionPlan(kind: .rotate))])
    }

    @Test func aClientsTransformIsKeptUntilTheDeviceTurnsAndStatusNamesIt() {
        var h = ControllerHarness()
        h.send(.felt(.leftUp))
        let out = h.send(.panelSetElsewhere(tablet, .bottomUp, by: .outputManagement, at: 100))
        #expect(shows(out).isEmpty, "kept: \(out)")
        #expect(h.lastStatus?.panels.first?.shown == .bottomUp)
        #expect(h.lastStatus?.panels.first?.setBy == .outputManagement)
        #expect(h.logs.contains { $0.contains("set to bottom-up by a client through output management") })
        // Other events that do not move the decision keep it.
        h.send(.lean(80))
        h.send(.felt(.leftUp))
        #expect(h.panel == .bottomUp)
        // The device turns: the panel follows it again, and status says so.
        let turned = h.send(.felt(.normal))
        #expect(shows(turned) == [.show(tablet, .normal, transition: TransitionPlan(kind: .rotate))])
        #expect(h.lastStatus?.panels.first?.setBy == nil)
    }

    @Test func aClientsTransformThatTheDeviceThenAgreesWithIsNoLongerTheClients() {
        var h = ControllerHarness()
        h.send(.panelSetElsewhere(tablet, .leftUp, by: .outputManagement, at: 1))
        #expect(h.lastStatus?.panels.first?.setBy == .outputManagement)
        h.send(.felt(.leftUp))
        #expect(h.panel == .leftUp)
        #expect(h.lastStatus?.panels.first?.setBy == nil)
    }

    @Test func aCompositorThatKeepsUndoingTheTurnIsFollowedNotFought() {
        var h = ControllerHarness()
        h.send(.felt(.leftUp))
        for t in [1.0, 2.0, 3.0] {
            let out = h.send(.panelSetElsewhere(tablet, .normal, by: .compositor, at: t))
            #expect(shows(out).count == 1, "turned back at \(t)")
        }
        let fourth = h.send(.panelSetElsewhere(tablet, .normal, by: .compositor, at: 4))
        #expect(shows(fourth).isEmpty, "followed: \(fourth)")
        #expect(h.lastStatus?.panels.first?.setBy == .compositor)
        #expect(h.logs.contains { $0.contains("the compositor keeps setting normal") })
        // Undoes far apart are each turned back.
        var calm = ControllerHarness()
        calm.send(.felt(.leftUp))
        for t in [1.0, 20.0, 40.0, 60.0, 80.0] {
            #expect(shows(calm.send(.panelSetElsewhere(tablet, .normal, by: .compositor, at: t))).count == 1)
        }
    }

    /// A person reloading their compositor while editing its config: each of three reloads two
    /// seconds apart is turned back (sway puts the transform back to its config's at each).
    @Test func threeReloadsTwoSecondsApartAreEachTurnedBack() {
        var h = ControllerHarness()
        h.send(.felt(.leftUp))
        for t in [10.0, 12.0, 14.0] {
            let out = h.send(.panelSetElsewhere(tablet, .normal, by: .compositor, at: t))
            #expect(shows(out) == [.show(tablet, .leftUp, transition: TransitionPlan(kind: .none))], "at \(t): \(out)")
        }
        #expect(h.panel == .leftUp && h.lastStatus?.panels.first?.setBy == nil)
    }

    /// One that resets the panel every 5.5 s, forever: followed after three turn-backs (not a
    /// flash of the old orientation every 5.5 s), and the device's next turn is ours again.
    @Test func aResetEveryFiveAndAHalfSecondsIsFollowedAfterThreeTurnBacks() {
        var h = ControllerHarness()
        h.send(.felt(.leftUp))
        var turnBacks = 0
        for n in 0..<12 {
            let t = 5.5 * Double(n + 1)
            turnBacks += shows(h.send(.panelSetElsewhere(tablet, .normal, by: .compositor, at: t))).count
        }
        #expect(turnBacks == 3)
        #expect(h.panel == .normal && h.lastStatus?.panels.first?.setBy == .compositor)
        let turned = h.send(.felt(.bottomUp))
        #expect(shows(turned) == [.show(tablet, .bottomUp, transition: TransitionPlan(kind: .rotate))])
    }

    @Test func whileHowTheDeviceIsHeldIsUnknownWhatSomeoneElseSetIsKeptAndNamed() {
        // The daemon, before the sensor has said anything: it cannot tell who set it either.
        var h = ControllerHarness(state: PersistentState())
        let out = h.send(.panelSetElsewhere(tablet, .bottomUp, by: .someoneElse, at: 0))
        #expect(shows(out).isEmpty)
        #expect(h.lastStatus?.panels.first?.setBy == .someoneElse)
        #expect(h.logs.contains { $0.contains("set to bottom-up by someone else; showing that until the device turns") })
        h.send(.lean(10))
        #expect(h.lastStatus?.panels.first?.setBy == .someoneElse, "kept while the device is not known to turn")
        h.send(.felt(.leftUp))
        #expect(h.panel == .leftUp)
        #expect(h.lastStatus?.panels.first?.setBy == nil)
    }

    @Test func theSameOrientationSetElsewhereChangesNothing() {
        var h = ControllerHarness()
        h.send(.felt(.leftUp))
        let out = h.send(.panelSetElsewhere(tablet, .leftUp, by: .outputManagement, at: 1))
        #expect(shows(out).isEmpty)
        #expect(h.lastStatus?.panels.first?.setBy == nil)
    }

    @Test func theStatusNamesWhoSetItInItsJSON() throws {
        let status = ControllerStatus(lock: nil, felt: .normal, rotateWhen: .always, tabletMode: nil, rotating: true, sensorRunning: true,
                                      sensor: SensorStatus(state: .looking), panels: [
                                        .init(name: "eDP-1", shape: .landscape, shown: .bottomUp, allowed: .all, setBy: .outputManagement)],
                                      front: nil)
        let line = status.json.serialized
        #expect(line.contains("\"set_by\": \"output-management\""), "\(line)")
        let read = try JSONDecoder().decode(ControllerStatus.self, from: Data(line.utf8))
        #expect(read == status)
    }
}

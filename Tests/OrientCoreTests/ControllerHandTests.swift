import Foundation
import Testing
@testable import OrientCore

private let video = ToplevelID(1)
private let reader = ToplevelID(2)
private let tablet = ControllerHarness.tablet

/// The person's hand: a turn offered while the lock keeps the screen (the suggestion), and no
/// turn under a finger (the touch hold).
@Suite struct ControllerHandTests {
    private static func locked(_ lock: String = "normal", config: Config = Config()) -> ControllerHarness {
        var h = ControllerHarness(config: config, state: PersistentState(lock: MaskSpec(parsing: lock), lastFelt: .normal))
        h.controller.advanceClock(to: 100)
        return h
    }

    private func suggested(_ h: ControllerHarness) -> [SuggestionTarget?] {
        h.last.compactMap { if case .host(.suggest(_, let t)) = $0 { t } else { nil } }
    }

    private func wakes(_ h: ControllerHarness) -> [Double?] {
        h.last.compactMap { if case .runner(.wake(let at)) = $0 { at } else { nil } }
    }

    @Test func aTurnTheLockKeepsIsOfferedAtTheCornerBottomLeftAsHeldAndGoesAfterItsTime() throws {
        var h = Self.locked()
        #expect(h.sensorRunning, "the sensor runs on under a lock, to offer turns")
        h.send(.felt(.leftUp))
        #expect(h.panel == .normal, "the lock keeps the screen")
        let target = try #require(suggested(h).first ?? nil)
        #expect(target.orientation == .leftUp)
        // Held left-up (turned clockwise), the person's bottom-left is the panel's bottom-right.
        #expect(target.corner == .bottomRight)
        #expect(target.counterClockwiseQuarterTurns == 1)
        let offer = try #require(h.controller.status.suggestion)
        #expect(offer.orientation == .leftUp && offer.until == 105 && offer.panel == "eDP-1")
        #expect(wakes(h) == [105], "woken when it goes")
        h.controller.advanceClock(to: 105)
        h.send(.wake)
        #expect(suggested(h) == [nil], "taken away after 5 s")
        #expect(h.controller.status.suggestion == nil)
        #expect(wakes(h).allSatisfy { $0 == nil }, "no wake-up is asked for again (the one that fired was the last)")
        h.send(.felt(.leftUp))
        #expect(suggested(h).isEmpty, "not offered again until the device turns again")
    }

    @Test func theOfferGoesAtOnceWhenTheDeviceReturnsTheLockChangesOrTheFrontChanges() {
        var h = Self.locked()
        h.send(.felt(.leftUp))
        h.send(.felt(.normal))
        #expect(suggested(h) == [nil], "the device returned")
        h.send(.felt(.rightUp))
        #expect(suggested(h).first??.orientation == .rightUp, "a new turn, a new offer")
        h.send(.control(.lock(MaskSpec(parsing: "landscape")!)))
        #expect(suggested(h) == [nil], "the lock changed")
        h.send(.felt(.leftUp))
        #expect(suggested(h).count == 1)
        h.send([.toplevelAdded(reader, appID: "foot", covers: true), .toplevelMapped(reader, true), .focus(reader)])
        #expect(suggested(h) == [nil], "another app came to front")
    }

    @Test func nothingIsOfferedThatTheAppInFrontOrTheDeviceRefusesOrWhenDisabled() {
        var config = Config()
        config.apps = [AppRule(match: "org.example.Video", orientations: MaskSpec(parsing: "landscape"))]
        var h = Self.locked(config: config)
        h.send([.toplevelAdded(video, appID: "org.example.Video", covers: true), .toplevelMapped(video, true), .focus(video)])
        h.send(.felt(.leftUp))
        #expect(suggested(h).isEmpty && h.controller.status.suggestion == nil, "a landscape-only app in front")

        var device = Config()
        device.device.orientations = MaskSpec(parsing: "all-but-upside-down")!
        var phone = Self.locked(config: device)
        phone.send(.felt(.bottomUp))
        #expect(suggested(phone).isEmpty, "the device cannot show it")

        var off = Config()
        off.suggestion.enabled = false
        var quiet = Self.locked(config: off)
        #expect(!quiet.sensorRunning, "no offers: the lock leaves nothing for the sensor to do")
        quiet.send(.felt(.leftUp))
        #expect(suggested(quiet).isEmpty && !quiet.controller.status.suggestionsEnabled)
    }

    @Test func acceptingTurnsAndLocksWhereYouAreThroughTheControllerOnce() {
        var h = Self.locked()
        h.send(.felt(.leftUp))
        h.send(.control(.acceptSuggestion))
        #expect(h.panel == .leftUp)
        #expect(h.controller.state.lock == MaskSpec(exactly: .leftUp))
        #expect(h.last.filter { if case .host(.show) = $0 { true } else { false } }.count == 1)
        #expect(suggested(h) == [nil])
        h.send(.control(.acceptSuggestion))
        #expect(h.last.isEmpty || !h.last.contains { if case .host(.show) = $0 { true } else { false } }, "nothing to accept")
    }

    @Test func dismissingTakesItAway() {
        var h = Self.locked()
        h.send(.felt(.rightUp))
        h.send(.control(.dismissSuggestion))
        #expect(suggested(h) == [nil] && h.panel == .normal && h.controller.status.suggestion == nil)
    }

    @Test func aPointerRestingOnTheTargetKeepsIt16Seconds() {
        var h = Self.locked()
        h.send(.felt(.leftUp))
        h.controller.advanceClock(to: 104)
        h.send(.suggestionHovered(true))
        #expect(h.controller.status.suggestion?.until == 120)
        #expect(wakes(h) == [120])
        h.controller.advanceClock(to: 110)
        h.send(.suggestionHovered(false))
        #expect(h.controller.status.suggestion?.until == 115)
    }

    // MARK: the touch hold

    @Test func noTurnUnderAFingerNorForHalfASecondAfterItLifts() {
        var h = ControllerHarness()
        h.controller.advanceClock(to: 10)
        h.send(.touch(true))
        #expect(wakes(h) == [20], "woken when a touch that never lifts is no longer believed")
        h.send(.felt(.leftUp))
        #expect(h.panel == .normal, "a finger is down")
        #expect(h.controller.status.waiting == ControllerStatus.TouchWait(felt: .leftUp, touching: true, until: nil))
        #expect(wakes(h).isEmpty)
        h.controller.advanceClock(to: 12)
        h.send(.touch(false))
        #expect(h.panel == .normal, "nor just after it lifts")
        #expect(wakes(h) == [12.5])
        #expect(h.controller.status.waiting?.until == 12.5)
        h.controller.advanceClock(to: 12.5)
        h.send(.wake)
        #expect(h.panel == .leftUp, "then the held turn happens")
        #expect(h.controller.status.waiting == nil)
    }

    /// A touchscreen loses a lift, or a thumb rests on the glass: the turn waits 10 s at most,
    /// and the log says why it came. The stuck touch holds nothing more until it lifts; the next
    /// touch holds again.
    @Test func aTouchThatNeverLiftsHoldsATurnTenSecondsAtMost() throws {
        var h = ControllerHarness()
        h.controller.advanceClock(to: 10)
        h.send(.touch(true))
        h.controller.advanceClock(to: 11)
        h.send(.felt(.leftUp))
        #expect(h.panel == .normal)
        h.controller.advanceClock(to: 19.9)
        h.send(.wake)
        #expect(h.panel == .normal, "within the bound the touch still holds")
        h.controller.advanceClock(to: 20)
        h.send(.wake)
        #expect(h.panel == .leftUp, "then the turn happens with the finger still down")
        let said = h.last.compactMap { if case .runner(.log(_, let line)) = $0 { line } else { nil } }
        #expect(said.contains { $0.contains("has not lifted for 10 s") && $0.contains("touch-hold-max-ms") }, "\(said)")
        #expect(h.controller.status.waiting == nil)
        h.send(.felt(.normal))
        #expect(h.panel == .normal, "the stuck touch holds nothing more")
        h.send(.touch(false))
        h.send(.touch(true))
        h.send(.felt(.rightUp))
        #expect(h.panel == .normal, "a new touch holds again")
    }

    @Test func theBoundIsTunable() {
        var config = Config()
        config.detection.touchHoldMaxMs = 2500
        var h = ControllerHarness(config: config)
        h.send(.touch(true))
        #expect(wakes(h) == [2.5])
        h.send(.felt(.rightUp))
        h.controller.advanceClock(to: 2.5)
        h.send(.wake)
        #expect(h.panel == .rightUp)
        #expect(h.last.contains { if case .runner(.log(_, let line)) = $0 { line.contains("for 2.5 s") } else { false } })
    }

    @Test func aHeldTurnIsDroppedWhenTheDeviceReturnsBeforeTheHoldEnds() {
        var h = ControllerHarness()
        h.send(.touch(true))
        h.send(.felt(.leftUp))
        h.send(.felt(.normal))
        h.send(.touch(false))
        h.controller.advanceClock(to: 1)
        h.send(.wake)
        #expect(!h.all.contains { if case .host(.show) = $0 { true } else { false } })
    }

    @Test func aTouchDoesNotHoldWhatTheUserOrAnAppAsks() {
        var config = Config()
        config.apps = [AppRule(match: "org.example.Video", orientations: MaskSpec(parsing: "portrait"))]
        var h = ControllerHarness(config: config)
        h.send(.touch(true))
        h.send([.toplevelAdded(video, appID: "org.example.Video", covers: true), .toplevelMapped(video, true), .focus(video)])
        #expect(h.panel != .normal, "an app launched in portrait turns the screen under a finger")
        h.send(.control(.lock(MaskSpec(parsing: "normal")!)))
        #expect(h.panel == .normal)
    }

    @Test func theHoldIsTunableAndZeroTurnsAtTheLift() {
        var config = Config()
        config.detection.touchHoldMs = 0
        var h = ControllerHarness(config: config)
        h.send(.touch(true))
        h.send(.felt(.rightUp))
        #expect(h.panel == .normal)
        h.send(.touch(false))
        #expect(h.panel == .rightUp)
    }

    @Test func theTargetsCornerFollowsHowTheDeviceIsHeld() {
        let expected: [(Orientation, PanelCorner)] = [(.normal, .bottomLeft), (.leftUp, .bottomRight),
                                                      (.bottomUp, .topRight), (.rightUp, .topLeft)]
        for (held, corner) in expected {
            #expect(SuggestionTarget(orientation: held, held: held, corner: .bottomLeft).corner == corner, "\(held)")
        }
        // Turned clockwise, the panel's top-left corner went to the person's top right.
        #expect(SuggestionTarget(orientation: .leftUp, held: .leftUp, corner: .topRight).corner == .topLeft)
        // On a panel showing right-up (turned counter-clockwise), its bottom-left corner is the
        // picture's bottom-right.
        #expect(SuggestionTarget(orientation: .normal, held: .normal, corner: .bottomLeft).corner(showing: .rightUp) == .bottomRight)
        #expect(SuggestionTarget(orientation: .leftUp, held: .leftUp, corner: .bottomLeft).corner(showing: .normal) == .bottomRight)
    }

    @Test func aHostThatCannotSeeTouchesSaysSoInStatusAndHoldsNothing() throws {
        var h = ControllerHarness()
        h.send(.touch(true))
        h.send(.touchesUnseen("the compositor offers no ext-idle-notify-v1"))
        h.send(.felt(.leftUp))
        #expect(h.panel == .leftUp, "a hold it can no longer end is dropped")
        let status = h.controller.status
        #expect(status.touchesUnseen == "the compositor offers no ext-idle-notify-v1")
        #expect(try JSONDecoder().decode(ControllerStatus.self, from: Data(status.json.serialized.utf8)) == status)
    }

    @Test func theStatusCarriesTheOfferAndTheWaitBothWays() throws {
        var h = Self.locked()
        h.send(.felt(.leftUp))
        let status = h.controller.status
        let json = status.json.serialized
        #expect(json.contains(#""suggestion": {"panel": "eDP-1", "orientation": "left-up", "until_ms": 105000, "hovered": false}"#), "\(json)")
        let back = try JSONDecoder().decode(ControllerStatus.self, from: Data(json.utf8))
        #expect(back == status)
    }
}

/// What counts as a touch and as a tap on the target.
@Suite struct ContactsTests {
    @Test func aTapBeginsAndEndsOnTheTargetAndASlideOffIsNone() {
        var c = Contacts()
        #expect(c.contact(.finger, id: 0, .down, onTarget: true) == [.touching(true)])
        #expect(c.contact(.finger, id: 0, .up, onTarget: nil) == [.touching(false), .tapped])
        _ = c.contact(.finger, id: 0, .down, onTarget: true)
        _ = c.contact(.finger, id: 0, .motion, onTarget: false)
        _ = c.contact(.finger, id: 0, .motion, onTarget: true)
        #expect(c.contact(.finger, id: 0, .up, onTarget: nil) == [.touching(false)], "it slid off once: no tap")
        _ = c.contact(.finger, id: 1, .down, onTarget: false)
        #expect(c.contact(.finger, id: 1, .up, onTarget: true) == [.touching(false)], "begun beside it: no tap")
    }

    @Test func aButtonIsNoTouchButItsClickTaps() {
        var c = Contacts()
        #expect(c.contact(.button, id: 272, .down, onTarget: true).isEmpty)
        #expect(!c.touching)
        #expect(c.contact(.button, id: 272, .up, onTarget: true) == [.tapped])
        #expect(c.contact(.pen, id: 0, .down, onTarget: false) == [.touching(true)])
        #expect(c.contact(.finger, id: 3, .down, onTarget: false).isEmpty, "still touching: no news")
        #expect(c.contact(.pen, id: 0, .up, onTarget: nil).isEmpty)
        #expect(c.contact(.finger, id: 3, .cancel, onTarget: nil) == [.touching(false)])
    }

    @Test func aHoveredTargetIsTheSameTargetDrawnOtherwise() {
        let plain = SuggestionTarget(orientation: .leftUp, held: .leftUp, corner: .bottomLeft)
        var hovered = plain
        hovered.hovered = true
        #expect(hovered.differsOnlyInLook(from: plain) && plain.differsOnlyInLook(from: hovered))
        #expect(plain.differsOnlyInLook(from: plain))
        let elsewhere = SuggestionTarget(orientation: .rightUp, held: .rightUp, corner: .bottomLeft)
        #expect(!elsewhere.differsOnlyInLook(from: plain))
        let otherCorner = SuggestionTarget(orientation: .leftUp, held: .leftUp, corner: .topRight)
        #expect(!otherCorner.differsOnlyInLook(from: plain))
    }

    @Test func aDeviceUnpluggedMidTouchTakesItsContactsWithIt() {
        var c = Contacts()
        #expect(c.contact(.finger, device: 1, id: 0, .down, onTarget: false) == [.touching(true)])
        #expect(c.contact(.finger, device: 2, id: 0, .down, onTarget: false).isEmpty, "the same id on another device is another touch")
        #expect(c.removed(device: 1).isEmpty, "the other device's finger still touches")
        #expect(c.touching)
        #expect(c.contact(.finger, device: 2, id: 0, .up, onTarget: nil) == [.touching(false)])
        _ = c.contact(.pen, device: 3, id: 0, .down, onTarget: true)
        #expect(c.removed(device: 3) == [.touching(false)])
        #expect(c.contact(.pen, device: 3, id: 0, .up, onTarget: true).isEmpty, "no tap from a contact that went with its device")
        #expect(c.removed(device: 9).isEmpty)
    }

    @Test func theIconIsOpaqueInsideItsCircleAndItsArrowTurns() {
        let up = SuggestionIcon.pixels(side: 64, counterClockwiseQuarterTurns: 0)
        let left = SuggestionIcon.pixels(side: 64, counterClockwiseQuarterTurns: 1)
        #expect(up[0] == 0, "transparent outside the circle")
        #expect(up[16 * 64 + 16] >> 24 == 255)
        // The arrow's tip: near the top when upright, near the left edge turned a quarter counter-clockwise.
        #expect(up[14 * 64 + 32] & 0xff == 255 && left[32 * 64 + 14] & 0xff == 255)
        #expect(left[14 * 64 + 32] & 0xff == 40)
    }
}

/// The touch hold over a recorded timeline, as `detect --touches` replays it.
@Suite struct TouchHoldReplayTests {
    @Test func aChangeUnderAFingerComesHalfASecondAfterTheLiftIfStillHeld() {
        let turns = TouchHoldReplay.turns(changes: [(0, .normal), (2, .leftUp), (5, .normal), (6, .rightUp), (6.2, .normal)],
                                          touches: [1...3, 5.9...6.1], holdSeconds: 0.5)
        #expect(turns == [.init(t: 0, orientation: .normal, decidedAt: 0),
                          .init(t: 3.5, orientation: .leftUp, decidedAt: 2),
                          .init(t: 5, orientation: .normal, decidedAt: 5)],
                "right-up, undone at 6.2 before the hold ended at 6.6, never turned: \(turns)")
    }

    @Test func twoFingersAtOnceAndBackToBackTouchesHoldAsOne() {
        // A second finger down while the first stays, lifted first; then a touch that begins as
        // the last one lifts: the hold lasts until the last lift, 0.5 s more.
        let turns = TouchHoldReplay.turns(changes: [(0, .normal), (2, .leftUp)],
                                          touches: [1...4, 2...3, 4...5], holdSeconds: 0.5)
        #expect(turns == [.init(t: 0, orientation: .normal, decidedAt: 0), .init(t: 5.5, orientation: .leftUp, decidedAt: 2)],
                "\(turns)")
        #expect(TouchHoldReplay.touching([3...4, 1...2, 1.5...2.5, 5...6]) == [1...2.5, 3...4, 5...6])
    }

    @Test func aTouchThatNeverLiftsHoldsTheReplayedTurnAtMostTheBound() {
        let turns = TouchHoldReplay.turns(changes: [(0, .normal), (2, .leftUp)], touches: [1...60], holdSeconds: 0.5, maxSeconds: 10)
        #expect(turns == [.init(t: 0, orientation: .normal, decidedAt: 0), .init(t: 11, orientation: .leftUp, decidedAt: 2)], "\(turns)")
    }

    @Test func theTouchesFileIsCheckedLineByLine() throws {
        #expect(try TouchesReader.parse("# wlr-orient-touches v1\nstart,end\n1.0,1.5\n# a comment\n2,2.25\n", file: "f").get() == [1...1.5, 2...2.25])
        guard case .failure(let e) = TouchesReader.parse("# wlr-orient-touches v1\n2,1\n", file: "f") else {
            Issue.record("an end before its start was taken")
            return
        }
        #expect(e.description == "f:2: a touch ends before it starts: 2,1")
        #expect((try? TouchesReader.parse("t,x\n", file: "f").get()) == nil)
    }
}

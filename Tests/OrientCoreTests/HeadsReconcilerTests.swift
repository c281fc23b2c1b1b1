import Testing
@testable import OrientCore

/// The daemon's decisions about wlr-output-management heads (the daemon only
/// translates), driven without a compositor: the heads as `done` describes them, the controller's
/// wishes, the compositor's answers in every order.
struct HeadsReconcilerTests {
    typealias R = HeadsReconciler
    static let panelHead: R.HeadKey = 10
    static let external: R.HeadKey = 20

    static func head(_ key: R.HeadKey = panelHead, _ name: String = "eDP-1", showing: Orientation = .normal,
                     enabled: Bool = true, shape: PanelShape? = .landscape) -> R.Head {
        R.Head(key: key, name: name, enabled: enabled, shape: shape, showing: showing)
    }

    /// A reconciler that has seen the tablet's panel (and an external output) at serial 1.
    static func started() -> (R, PanelID) {
        var r = R(device: DeviceConfig())
        let out = r.handle(.heads([head(), head(external, "HDMI-A-1")], serial: 1))
        guard case .controller(.panelAdded(let id, name: "eDP-1", shape: .landscape, showing: .normal))? =
                out.first(where: { if case .controller = $0 { return true } else { return false } }) else {
            Issue.record("no panel added: \(out)")
            return (r, PanelID(0))
        }
        #expect(r.panel(of: external) == nil, "an external output is no panel")
        _ = r.handle(.settle)
        return (r, id)
    }

    static func sends(_ out: [R.Command]) -> [R.Command] {
        out.filter { if case .daemon(.test) = $0 { return true }; if case .daemon(.apply) = $0 { return true }; return false }
    }

    @Test func aWishIsTestedThenAppliedAndAssumed() {
        var (r, id) = Self.started()
        #expect(r.handle(.want(id, .leftUp)).isEmpty, "nothing is sent before the batch is told")
        #expect(r.handle(.settle) == [.test([Self.panelHead: .rotated90])])
        #expect(r.handle(.answered(.succeeded)) == [.apply([Self.panelHead: .rotated90])])
        let applied = r.handle(.answered(.succeeded))
        #expect(applied.contains(.assume(Self.panelHead, .rotated90)))
        #expect(Self.sends(applied).isEmpty)
        // The compositor describes what it applied: nothing more to send, nobody else's change.
        let described = r.handle(.heads([Self.head(showing: .leftUp), Self.head(Self.external, "HDMI-A-1")], serial: 2))
        #expect(!described.contains(.controller(.panelShowing(id, .leftUp))))
        #expect(Self.sends(r.handle(.settle)).isEmpty)
    }

    @Test func oneConfigurationAtATimeAndWhatIsAskedMeanwhileFollows() {
        var (r, id) = Self.started()
        _ = r.handle(.want(id, .leftUp))
        #expect(r.handle(.settle) == [.test([Self.panelHead: .rotated90])])
        _ = r.handle(.want(id, .bottomUp))
        #expect(r.handle(.settle).isEmpty, "one configuration in flight")
        // The test passed for left-up, but bottom-up is wanted now: a new test, not the apply.
        #expect(r.handle(.answered(.succeeded)) == [.test([Self.panelHead: .rotated180])])
    }

    @Test func doneBeforeSucceededIsOurOwnConfigurationNotSomeoneElses() {
        var (r, id) = Self.started()
        _ = r.handle(.want(id, .leftUp))
        _ = r.handle(.settle)
        _ = r.handle(.answered(.succeeded))   // the apply goes out
        // The compositor describes the new heads before it answers (some wlroots 0.17 ones).
        let described = r.handle(.heads([Self.head(showing: .leftUp)], serial: 2))
        #expect(!described.contains(.controller(.panelShowing(id, .leftUp))))
        let answered = r.handle(.answered(.succeeded))
        #expect(Self.sends(answered).isEmpty)
    }

    @Test func aTransformSetBySomeoneElseIsWhatThePanelShowsUntilTheDeviceTurns() {
        var (r, id) = Self.started()
        let out = r.handle(.heads([Self.head(showing: .rightUp)], serial: 2))
        #expect(out.contains(.controller(.panelSetElsewhere(id, .rightUp, by: .someoneElse, at: 0))))
        #expect(Self.sends(r.handle(.settle)).isEmpty, "not turned back")
    }

    @Test func aRefusedTestIsSaidOnceAndTheControllerHearsWhatThePanelShows() {
        var (r, id) = Self.started()
        for _ in 0..<2 {
            _ = r.handle(.want(id, .leftUp))
            _ = r.handle(.settle)
            let out = r.handle(.answered(.failed))
            #expect(out.contains(.controller(.panelShowing(id, .normal))))
            #expect(Self.sends(out).isEmpty, "not asked again by itself")
        }
        var errors = 0
        var again = r
        _ = again.handle(.want(id, .leftUp))
        _ = again.handle(.settle)
        for c in again.handle(.answered(.failed)) { if case .error = c { errors += 1 } }
        #expect(errors == 0, "the same refusal is said once")
    }

    @Test func aCancelledConfigurationIsSentAgainOnTheNewSerialABoundedNumberOfTimes() {
        var (r, id) = Self.started()
        _ = r.handle(.want(id, .leftUp))
        _ = r.handle(.settle)
        var serial: UInt32 = 1
        for _ in 0..<R.cancelLimit {
            // Cancelled before the new `done`: it waits for it, then goes again.
            #expect(Self.sends(r.handle(.answered(.cancelled))).isEmpty)
            serial += 1
            _ = r.handle(.heads([Self.head()], serial: serial))
            #expect(r.handle(.settle) == [.test([Self.panelHead: .rotated90])])
        }
        let out = r.handle(.answered(.cancelled))
        #expect(out.contains(.controller(.panelShowing(id, .normal))), "refused after \(R.cancelLimit + 1) cancels")
        #expect(out.contains { if case .error(let line) = $0 { return line.contains("cancelled 4 times") } else { return false } })
    }

    @Test func aCancelAfterTheNewDoneGoesAgainAtOnce() {
        var (r, id) = Self.started()
        _ = r.handle(.want(id, .leftUp))
        _ = r.handle(.settle)
        _ = r.handle(.heads([Self.head()], serial: 2))
        #expect(r.handle(.answered(.cancelled)) == [.test([Self.panelHead: .rotated90])])
    }

    @Test func aHeadWithoutAModeOrDisabledIsNoPanelAndIsSaidOnce() {
        var r = R(device: DeviceConfig())
        let first = r.handle(.heads([Self.head(shape: nil)], serial: 1))
        #expect(first.contains { if case .info(let line) = $0 { return line.contains("without a mode") } else { return false } })
        #expect(r.panel(of: Self.panelHead) == nil)
        let second = r.handle(.heads([Self.head(enabled: false, shape: .landscape)], serial: 2))
        #expect(!second.contains { if case .info = $0 { return true } else { return false } })
        let usable = r.handle(.heads([Self.head()], serial: 3))
        #expect(usable.contains { if case .controller(.panelAdded) = $0 { return true } else { return false } })
    }

    @Test func aHeadGoneOrNoLongerNamedTakesItsPanelWithIt() {
        var (r, id) = Self.started()
        #expect(r.handle(.headGone(Self.panelHead)).contains(.controller(.panelRemoved(id))))
        #expect(r.allPanels.isEmpty)
        // Back, then the config no longer names it.
        _ = r.handle(.heads([Self.head()], serial: 2))
        guard let again = r.panel(of: Self.panelHead) else { Issue.record("no panel again"); return }
        #expect(again != id, "a new panel")
        var device = DeviceConfig()
        device.outputs = ["DSI-*"]
        #expect(r.handle(.device(device)).contains(.controller(.panelRemoved(again))))
    }

    @Test func theConnectionGoneTakesEveryPanelAndTheConfigurationInFlight() {
        var (r, id) = Self.started()
        _ = r.handle(.want(id, .leftUp))
        _ = r.handle(.settle)
        #expect(r.handle(.disconnected).contains(.controller(.panelRemoved(id))))
        #expect(r.handle(.answered(.succeeded)).isEmpty, "an answer for the old connection is nobody's")
        // A new connection: the panel again, and a wish goes out.
        _ = r.handle(.heads([Self.head()], serial: 1))
        guard let again = r.panel(of: Self.panelHead) else { Issue.record("no panel again"); return }
        _ = r.handle(.settle)
        _ = r.handle(.want(again, .leftUp))
        #expect(r.handle(.settle) == [.test([Self.panelHead: .rotated90])])
    }

    @Test func noSerialYetSendsNothingAndSaysSo() {
        var r = R(device: DeviceConfig())
        let added = r.handle(.heads([Self.head()], serial: nil))
        guard let id = r.panel(of: Self.panelHead) else { Issue.record("no panel: \(added)"); return }
        _ = r.handle(.want(id, .leftUp))
        let out = r.handle(.settle)
        #expect(Self.sends(out).isEmpty)
        #expect(out.contains { if case .error = $0 { return true } else { return false } })
    }
}

/// The shield between the test and the apply.
struct HeadsReconcilerShieldTests {
    typealias R = HeadsReconciler
    static let rotate = TransitionPlan(kind: .rotate)

    static func tested(shield: Bool = true, plan: TransitionPlan = rotate) -> (R, PanelID, [R.Command]) {
        var (r, id) = HeadsReconcilerTests.started()
        _ = r.handle(.canShield(lacking: shield ? [] : ["zwlr_layer_shell_v1"]))
        _ = r.handle(.want(id, .leftUp, transition: plan))
        #expect(r.handle(.settle) == [.test([HeadsReconcilerTests.panelHead: .rotated90])])
        let out = r.handle(.answered(.succeeded))
        return (r, id, out)
    }

    @Test func theApplyWaitsForTheShieldAndTheAnswerUncoversIt() {
        var (r, _, out) = Self.tested()
        let key = HeadsReconcilerTests.panelHead
        #expect(out == [.cover([R.Cover(id: 1, key: key, from: .normal, to: .rotated90, transition: Self.rotate, panel: "eDP-1")])])
        #expect(r.handle(.covered(key)) == [.apply([key: .rotated90])])
        let applied = r.handle(.answered(.succeeded))
        #expect(applied.first == .uncover(1, applied: true))
        #expect(applied.contains(.assume(key, .rotated90)))
    }

    @Test func aCutWithoutShieldsOrACompositorWithoutThemAppliesAtOnce() {
        let (_, _, cut) = Self.tested(plan: TransitionPlan(kind: .none))
        #expect(cut == [.apply([HeadsReconcilerTests.panelHead: .rotated90])])
        let (_, _, none) = Self.tested(shield: false)
        #expect(none == [.apply([HeadsReconcilerTests.panelHead: .rotated90])])
    }

    @Test func aFailedApplyTakesTheShieldAwayAndAHeadGoneWhileCoveringDropsTheApply() {
        var (r, _, _) = Self.tested()
        let key = HeadsReconcilerTests.panelHead
        _ = r.handle(.covered(key))
        #expect(r.handle(.answered(.failed)).first == .uncover(1, applied: false))
        var (gone, goneID, _) = Self.tested()
        let out = gone.handle(.headGone(key))
        #expect(HeadsReconcilerTests.sends(out).isEmpty, "nothing is applied to a head that is gone")
        #expect(gone.turning(goneID) == nil)
    }

    @Test func aWishUndoneWhileTheShieldIsLaidIsNeverApplied() {
        // Locked and unlocked a few milliseconds apart: the test passed and the shield went up
        // for the lock, but the panel must not turn there and straight back.
        var (r, id, _) = Self.tested()
        let key = HeadsReconcilerTests.panelHead
        #expect(r.turning(id) == .leftUp)
        _ = r.handle(.want(id, .normal, transition: Self.rotate))
        #expect(r.handle(.settle).isEmpty, "one configuration in flight")
        #expect(r.handle(.covered(key)) == [.uncover(1, applied: false)])
        #expect(r.turning(id) == nil, "the head shows what is wanted; nothing is on its way")
        // Something else wanted by then is tested afresh, from what the head shows.
        var (other, otherID, _) = Self.tested()
        _ = other.handle(.want(otherID, .rightUp, transition: Self.rotate))
        #expect(other.handle(.covered(key)) == [.uncover(1, applied: false), .test([key: .rotated270])])
        #expect(other.turning(otherID) == .rightUp)
    }

    /// Turned to left-up with a shield that is now playing its transition (shield 1).
    static func playing() -> (R, PanelID) {
        var (r, id, _) = Self.tested()
        let key = HeadsReconcilerTests.panelHead
        _ = r.handle(.covered(key))
        _ = r.handle(.answered(.succeeded))
        _ = r.handle(.heads([HeadsReconcilerTests.head(showing: .leftUp),
                             HeadsReconcilerTests.head(HeadsReconcilerTests.external, "HDMI-A-1")], serial: 2))
        return (r, id)
    }

    @Test func aSecondTurnDuringATransitionRetiresTheOlderShieldOnceTheNewOneIsUp() {
        var (r, id) = Self.playing()
        let key = HeadsReconcilerTests.panelHead
        _ = r.handle(.want(id, .normal, transition: Self.rotate))
        #expect(r.handle(.settle) == [.test([key: .normal])])
        #expect(r.handle(.answered(.succeeded)) == [.cover([R.Cover(id: 2, key: key, from: .rotated90, to: .normal, transition: Self.rotate, panel: "eDP-1")])])
        #expect(r.handle(.covered(key)) == [.retire(1), .apply([key: .normal])], "the new one shows what the older showed")
    }

    @Test func aShieldThatEndedBeforeTheNextTurnIsNotRetiredAndACutRetiresOneStillPlaying() {
        var (ended, id) = Self.playing()
        let key = HeadsReconcilerTests.panelHead
        _ = ended.handle(.shieldGone(1))
        _ = ended.handle(.want(id, .normal, transition: Self.rotate))
        _ = ended.handle(.settle)
        _ = ended.handle(.answered(.succeeded))
        #expect(ended.handle(.covered(key)) == [.apply([key: .normal])])
        var (cut, cutID) = Self.playing()
        _ = cut.handle(.want(cutID, .normal, transition: TransitionPlan(kind: .none)))
        _ = cut.handle(.settle)
        #expect(cut.handle(.answered(.succeeded)) == [.retire(1), .apply([key: .normal])])
    }

    @Test func aShieldTheDaemonCannotStartLetsTheHeadTurnWithoutOneAndSaysWhy() {
        var (r, _, _) = Self.tested()
        let key = HeadsReconcilerTests.panelHead
        let out = r.handle(.coverFailed(key, .panelUnknown))
        #expect(out == [.info("the panel turns without a transition: cannot tell which wl_output the panel is"),
                        .event(.shieldCut(panel: "eDP-1", why: .panelUnknown)), .apply([key: .rotated90])])
    }

    /// A compositor that never gave the overlay the turned size is learnt once: one line, and its
    /// quarter turns go without a shield (no wait, nothing cropped); half turns keep theirs, and a
    /// new connection (perhaps another compositor) forgets it.
    @Test func anOverlayLeftUnresizedIsLearntOnceAndQuarterTurnsAreCutsThen() {
        var (r, id) = Self.playing()
        let key = HeadsReconcilerTests.panelHead
        let why = ShieldCut.overlayNotResized(withinMs: 50)
        #expect(r.handle(.shieldCut(key, why)) == [.info(why.line), .event(.shieldCut(panel: "eDP-1", why: why))])
        #expect(why.line.contains("every quarter turn does from now on"))
        #expect(r.handle(.shieldCut(key, why)) == [], "said once")
        _ = r.handle(.shieldGone(1))
        _ = r.handle(.want(id, .normal, transition: Self.rotate))
        _ = r.handle(.settle)
        #expect(r.handle(.answered(.succeeded)) == [.apply([key: .normal])], "a quarter turn: a cut at once")
        _ = r.handle(.answered(.succeeded))
        _ = r.handle(.heads([HeadsReconcilerTests.head(showing: .normal)], serial: 3))
        _ = r.handle(.want(id, .bottomUp, transition: Self.rotate))
        _ = r.handle(.settle)
        #expect(r.handle(.answered(.succeeded)) == [.cover([R.Cover(id: 2, key: key, from: .normal, to: .rotated180, transition: Self.rotate, panel: "eDP-1")])],
                "a half turn keeps the overlay's size: it is shielded")
        // Other cuts are said each time, and learn nothing.
        let other = ShieldCut.captureFailed
        #expect(r.handle(.shieldCut(key, other)).count == 2)
        #expect(r.handle(.shieldCut(key, other)).count == 2)
        _ = r.handle(.disconnected)
        #expect(r.handle(.shieldCut(key, why)).count == 2, "forgotten with the connection: said again")
        #expect(r.handle(.shieldCut(key, why)) == [])
    }
}

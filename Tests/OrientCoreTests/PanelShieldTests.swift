import Testing
@testable import OrientCore

/// The steps of the daemon's shield, driven without a compositor: the picture, the
/// overlay, the apply, the hold and the transition, and each way it can fail.
struct PanelShieldTests {
    static let rotate = TransitionPlan(kind: .rotate, durationMs: 200, timeoutMs: 100)

    /// A shield over a landscape panel turning to left-up, laid and on screen.
    static func covered(_ plan: TransitionPlan = rotate, to: OutputTransform = .rotated90) -> PanelShield {
        var s = PanelShield(from: .normal, to: to, plan: plan)
        #expect(PanelShield.start == [.capture])
        #expect(s.handle(.captured) == [.lay])
        #expect(s.handle(.configured(width: 1280, height: 800)) == [.show(.normal), .showAhead(to), .covered])
        #expect(s.step == .covered)
        return s
    }

    /// The apply follows the commit that shows the picture (the compositor handles it first),
    /// not the frame that presents it: a frame sooner, and nothing looks different.
    @Test func theApplyWaitsUntilThePictureIsShownUnderTheOldTransform() {
        var s = PanelShield(from: .normal, to: .rotated90, plan: Self.rotate)
        _ = s.handle(.captured)
        #expect(s.handle(.presented).isEmpty, "nothing shown yet: not covered")
        #expect(s.handle(.configured(width: 1280, height: 800)) == [.show(.normal), .showAhead(.rotated90), .covered])
        #expect(s.handle(.presented).isEmpty, "covered once is enough")
        #expect(s.handle(.configured(width: 1280, height: 800)).allSatisfy { $0 != .covered })
    }

    @Test func theTurnedSizeShowsThePictureUnderTheNewTransformThenItIsHeldThenItTurns() {
        var s = Self.covered()
        // The compositor re-configures the overlay before it answers the apply.
        #expect(s.handle(.configured(width: 800, height: 1280)) == [.show(.rotated90)])
        #expect(s.handle(.applied(true, at: 1000)) == [.wake(afterMs: 100)], "held for the timeout")
        #expect(s.handle(.frame(at: 1050)) == [.wake(afterMs: 50)])
        guard case .draw(let first)? = s.handle(.frame(at: 1101)).first else { Issue.record("no frame drawn"); return }
        #expect(abs(first.angle) > 0 && first.alpha < 1, "it turns and fades")
        guard case .draw(let later)? = s.handle(.frame(at: 1200)).first else { Issue.record("no frame drawn"); return }
        #expect(abs(later.angle) > abs(first.angle))
        #expect(s.handle(.frame(at: 1400)) == [.remove])
        #expect(s.step == .gone)
        #expect(s.handle(.frame(at: 1420)).isEmpty)
    }

    @Test func aTransitionAfterALongHoldStillPlaysFromItsStart() {
        var s = Self.covered(TransitionPlan(kind: .rotate, durationMs: 250, timeoutMs: 300))
        _ = s.handle(.configured(width: 800, height: 1280))
        _ = s.handle(.applied(true, at: 0))
        _ = s.handle(.frame(at: 17))
        // One wake-up at the end of the hold: the turn starts there, not 283 ms into it.
        guard case .draw(let first)? = s.handle(.frame(at: 301)).first else { Issue.record("no frame drawn"); return }
        #expect(first.alpha > 0.9)
    }

    @Test func anAnswerBeforeTheTurnedSizeWaitsForItBeforeShowingTheNewTransform() {
        // The reference host answers the apply, then configures the overlay anew: the picture
        // under the new transform fits only the turned size.
        var s = Self.covered()
        #expect(s.handle(.applied(true, at: 0)) == [.wake(afterMs: PanelShield.resizeGraceMs)], "a short wait for the turned size")
        #expect(s.handle(.configured(width: 800, height: 1280)) == [.show(.rotated90)])
        #expect(s.handle(.frame(at: 50)) == [.wake(afterMs: 50)], "then held for the rest of the timeout")
    }

    /// The picture is committed under the new transform, at the turned size, just before the
    /// apply: the compositor's first frame of the turned panel shows it whole.
    @Test func thePictureGoesAheadUnderTheNewTransformJustBeforeTheApply() {
        var s = PanelShield(from: .normal, to: .rotated270, plan: Self.rotate)
        _ = s.handle(.captured)
        let out = s.handle(.configured(width: 1280, height: 800))
        #expect(out == [.show(.normal), .showAhead(.rotated270), .covered], "ahead, then the apply may go")
        // The turned size comes: shown again at it (the configure is answered); nothing else.
        #expect(s.handle(.configured(width: 800, height: 1280)) == [.show(.rotated270)])
        #expect(s.handle(.applied(true, at: 0)) == [.wake(afterMs: 100)], "already under the new transform")
    }

    /// Some compositors configure the overlay again with its old size after the picture went ahead
    /// and before they answer the apply (qtile, twice): the picture stays ahead under the new
    /// transform, at the turned size; the apply never lands on it under the old one.
    @Test func aConfigureWithTheOldSizeAfterThePictureWentAheadKeepsItAhead() {
        for to in [OutputTransform.rotated90, .rotated180] {
            var s = PanelShield(from: .normal, to: to, plan: Self.rotate)
            _ = s.handle(.captured)
            #expect(s.handle(.configured(width: 1280, height: 800)) == [.show(.normal), .showAhead(to), .covered])
            #expect(s.handle(.configured(width: 1280, height: 800)) == [.showAhead(to)], "turning to \(to)")
            #expect(s.handle(.configured(width: 1280, height: 800)) == [.showAhead(to)])
            _ = s.handle(.applied(true, at: 0))
            // After a quarter turn's apply too, while the picture waits for the turned size.
            if to.swapsAxes {
                #expect(s.handle(.configured(width: 1280, height: 800)) == [.showAhead(to)])
                #expect(s.handle(.configured(width: 800, height: 1280)) == [.show(to)], "the turned size, at last")
            }
        }
    }

    /// A compositor that leaves the overlay at its old size after the turn (qtile 0.32 does not
    /// re-configure layer surfaces) would show the picture cropped: the shield goes at once.
    @Test func anOverlayNeverGivenTheTurnedSizeGoesAtOnceWithOneTrueLine() {
        var s = Self.covered()
        #expect(s.handle(.applied(true, at: 0)) == [.wake(afterMs: PanelShield.resizeGraceMs)])
        let out = s.handle(.frame(at: PanelShield.resizeGraceMs))
        #expect(out.last == .remove)
        #expect(out.first == .cut(.overlayNotResized(withinMs: Int(PanelShield.resizeGraceMs))), "said once, before it goes")
        #expect(out.filter { if case .cut = $0 { true } else { false } }.count == 1)
        #expect(s.step == .gone)
        // A half turn keeps its size: nothing to wait for.
        var half = Self.covered(to: .rotated180)
        #expect(!half.handle(.applied(true, at: 0)).contains(.remove))
    }

    @Test func aHalfTurnHasNoLayoutToWaitForAndACrossfadeStaysStill() {
        var half = Self.covered(to: .rotated180)
        guard case .draw(let turning)? = half.handle(.applied(true, at: 0)).last else { Issue.record("no frame"); return }
        #expect(turning.quarterTurns == 2)
        var fade = Self.covered(TransitionPlan(kind: .crossfade, durationMs: 200, timeoutMs: 100), to: .rotated180)
        guard case .draw(let fading)? = fade.handle(.applied(true, at: 0)).last,
              case .draw(let faded)? = fade.handle(.frame(at: 100)).last else { Issue.record("no frame"); return }
        #expect(fading.angle == 0 && faded.angle == 0 && faded.alpha < fading.alpha)
    }

    @Test func aRefusedApplyTakesTheShieldAway() {
        var s = Self.covered()
        #expect(s.handle(.applied(false, at: 0)) == [.remove])
        #expect(s.step == .gone)
    }

    @Test(arguments: [0, 1])
    func aFailureBeforeTheShieldIsUpLetsThePanelTurnWithoutOne(after steps: Int) {
        var s = PanelShield(from: .normal, to: .rotated90, plan: Self.rotate)
        if steps > 0 { _ = s.handle(.captured) }
        let out = s.handle(.failed(.captureFailed))
        #expect(out.contains(.remove) && out.last == .covered)
        #expect(out.first == .cut(.captureFailed), "said before it goes")
        #expect(s.step == .gone)
        #expect(s.handle(.applied(true, at: 0)).isEmpty)
    }

    @Test func theOverlayClosedDuringTheTurnIsRemovedAndNothingElse() {
        var s = Self.covered()
        _ = s.handle(.applied(true, at: 0))
        let out = s.handle(.failed(.overlayClosed))
        #expect(out.last == .remove && !out.contains(.covered))
        #expect(out.first == .cut(.overlayClosed))
        #expect(ShieldCut.overlayClosed.line == "the panel turns without a transition: the compositor closed the overlay")
        #expect(s.handle(.frame(at: 500)).isEmpty)
    }
}

/// The steps of one shield the daemon lays over a panel while it turns, without the
/// compositor: the daemon reports what happened (`Event`) and carries out what it is told
/// (`Command`).
///
/// A picture of the panel is taken (screencopy), shown on a full-screen overlay surface exactly
/// as the panel shows it (its raw pixels, with the panel's transform as the buffer's), and only
/// once that is in the compositor's scene may the transform be applied: from the commit that
/// shows it, since a compositor handles one client's requests in order, so the apply sent after
/// it finds it there. (Waiting until it is presented too would cost a frame and show nothing new:
/// the picture looks as the panel does.) Just before the apply the same picture is committed
/// under the new transform, at the turned size (`showAhead`): the compositor handles that commit
/// and the apply together, before it draws again, so its first frame of the turned panel shows the
/// picture whole, never the old-size overlay cut off beside the new layout while the daemon answers
/// the compositor's configure. Nothing visibly changes while the apps redraw at their new size;
/// the transition (`TransitionRun`, the plugin's) plays on the overlay, and the overlay goes. A
/// compositor that does not give the overlay the turned size soon after the apply (`resizeGraceMs`)
/// would show it cropped: the shield goes at once, a cut.
///
/// From outside, the daemon cannot see when the apps have redrawn: the picture is held for the
/// plan's `timeoutMs` after the transform is applied, then the transition plays.
public struct PanelShield: Sendable {
    public enum Step: Sendable, Hashable {
        /// Waiting for the picture.
        case capturing
        /// The overlay is being laid; waiting for it to be configured and shown.
        case covering
        /// Shown (committed with the picture): the transform may be applied; waiting for the answer.
        case covered
        /// Applied: the transition runs (the picture held first).
        case playing
        /// Over (finished, failed or taken away): nothing of the shield is left.
        case gone
    }

    public enum Event: Sendable, Hashable {
        /// The picture of the panel is in memory.
        case captured
        /// The overlay was configured (its surface's size, in the output's logical pixels).
        case configured(width: Int, height: Int)
        /// What the overlay was last told to show is on screen.
        case presented
        /// The apply it was laid for was answered: applied, or not.
        case applied(Bool, at: Double)
        /// Time for the next frame (a frame callback, or the wake-up asked for).
        case frame(at: Double)
        /// The capture failed, the compositor closed the overlay, or the output went.
        case failed(ShieldCut)
    }

    public enum Command: Sendable, Hashable {
        /// Capture the panel's current frame.
        case capture
        /// Lay the overlay on the panel's output (overlay layer, all edges, no input).
        case lay
        /// Show the picture unchanged, as raw panel pixels under this transform.
        case show(OutputTransform)
        /// The same under the new transform, at the size the overlay will have once the panel has
        /// turned (before the compositor says so): committed just before the apply.
        case showAhead(OutputTransform)
        /// The shield is on screen (or cannot be): the transform may be applied now.
        case covered
        /// Draw this frame of the transition (over a transparent overlay) under the new transform,
        /// and say `frame` when the next is due.
        case draw(OldFramePlacement)
        /// Say `frame` again after this many milliseconds (the picture is held meanwhile).
        case wake(afterMs: Double)
        /// Destroy the overlay and its buffers.
        case remove
        case info(String)
        /// It goes without its transition, for this reason (said, then removed).
        case cut(ShieldCut)
    }

    public let from: OutputTransform
    public let to: OutputTransform
    public let plan: TransitionPlan
    public private(set) var step: Step = .capturing
    /// The overlay's size when it was first configured: a different one later is the turned layout.
    private var firstSize: (width: Int, height: Int)?
    /// The compositor has configured the overlay with the turned layout's size.
    private var sizeTurned = false
    /// The transform the picture was last shown under.
    private var shownUnder: OutputTransform?
    private var run: TransitionRun?
    /// How long after the apply the overlay may wait for its turned size before it goes.
    static let resizeGraceMs = 50.0
    private var quarterTurn: Bool { from.swapsAxes != to.swapsAxes }

    public init(from: OutputTransform, to: OutputTransform, plan: TransitionPlan) {
        self.from = from
        self.to = to
        self.plan = plan
    }

    /// What to do first.
    public static let start: [Command] = [.capture]

    public mutating func handle(_ event: Event) -> [Command] {
        switch (event, step) {
        case (_, .gone):
            return []
        case (.captured, .capturing):
            step = .covering
            return [.lay]
        case (.configured(let width, let height), _):
            let commands = configured(width: width, height: height)
            guard step == .covering, shownUnder != nil else { return commands }
            step = .covered
            shownUnder = to
            return commands + [.showAhead(to), .covered]
        case (.applied(false, _), _):
            step = .gone
            return [.remove]
        case (.applied(true, _), let before) where before != .covered:
            // Laid too late (the apply went without it): nothing to hold, nothing to play.
            step = .gone
            return [.remove]
        case (.applied(true, let now), _):
            step = .playing
            run = TransitionRun(plan: plan, from: from, to: to, at: now)
            // Shown ahead under the new transform (a quarter turn then waits for the overlay's
            // turned size, which the compositor's configure brings).
            let show = shownUnder == to || (quarterTurn && !sizeTurned) ? [] : [Command.show(to)]
            return show + frame(at: now)
        case (.frame(let now), .playing):
            return frame(at: now)
        case (.failed(let why), let before):
            step = .gone
            // Before it was on screen, the apply waits for it: it goes without a transition.
            let release: [Command] = before == .capturing || before == .covering ? [.covered] : []
            // Said before it goes, so that the line comes before what its going sets off.
            return [.cut(why), .remove] + release
        case (.captured, _), (.presented, _), (.frame, _):
            return []
        }
    }

    /// The compositor sized the overlay: the picture is shown under the transform the panel has
    /// now — the new one once the size turned or the apply was answered. Once it was shown ahead
    /// under the new transform, a configure that still has the old size (some compositors send
    /// one before they answer the apply, and some never resize the overlay) shows it so again:
    /// never the old transform, which the apply would land on unturned and cropped.
    private mutating func configured(width: Int, height: Int) -> [Command] {
        guard step != .capturing else { return [] }
        if firstSize == nil { firstSize = (width, height) }
        let turned = firstSize.map { $0.width != width || $0.height != height } ?? false
        sizeTurned = sizeTurned || turned
        guard step == .covering || step == .covered || (step == .playing && run?.revealedAt == nil) else { return [] }
        if shownUnder == to, !turned { return [.showAhead(to)] }
        let under = run != nil || turned ? to : from
        shownUnder = under
        return [.show(under)]
    }

    private mutating func frame(at now: Double) -> [Command] {
        guard var run else { return [] }
        if quarterTurn, !sizeTurned {
            let waited = now - run.startedAt
            guard waited >= Self.resizeGraceMs else { return [.wake(afterMs: Self.resizeGraceMs - waited)] }
            step = .gone
            // Said before the shield goes, so that the line comes before what its going sets off.
            return [.cut(.overlayNotResized(withinMs: Int(Self.resizeGraceMs))), .remove]
        }
        let next = run.frame(at: now, clientsReady: false)
        self.run = run
        switch next {
        case .old where run.revealedAt == nil:
            return [.wake(afterMs: max(1, run.startedAt + Double(plan.timeoutMs) - now))]
        case .old(let placement):
            return [.draw(placement)]
        case .finished:
            step = .gone
            return [.remove]
        }
    }
}

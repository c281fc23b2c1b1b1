/// How one panel turns: the kind (never `auto`: chosen here), its timing and its curve.
public struct TransitionPlan: Sendable, Hashable {
    public var kind: TransitionKind
    public var durationMs: Int
    public var curve: TransitionCurve
    public var timeoutMs: Int

    public init(kind: TransitionKind, durationMs: Int = TransitionConfig().durationMs, curve: TransitionCurve = .easeInOut,
                timeoutMs: Int = TransitionConfig().timeoutMs) {
        self.kind = kind
        self.durationMs = durationMs
        self.curve = curve
        self.timeoutMs = timeoutMs
    }

    /// Whether its first frame is the old frame itself, unmoved (a rotation and a cross-fade
    /// hold it first; a cut shows the new layout at once): then the commit that changes the
    /// transform carries the frame the panel shows, and is the first frame of the turn, with
    /// nothing to draw before it.
    public var beginsWithTheOldFrame: Bool { kind == .rotate || kind == .crossfade }

    /// What the choice looks at on the panel that turns.
    public struct Layout: Sendable, Hashable {
        /// The app in front is fullscreen or maximized.
        public var frontFills: Bool
        /// Toplevels shown (mapped, or about to be).
        public var visibleWindows: Int

        public init(frontFills: Bool, visibleWindows: Int) {
            self.frontFills = frontFills
            self.visibleWindows = visibleWindows
        }

        /// One app fills the panel, or there is at most one window: nothing else reflows.
        public var isSimple: Bool { frontFills || visibleWindows <= 1 }
    }

    /// Android's rule: the app's own choice (its `[[app]] transition`) counts only when the layout
    /// is simple; otherwise the config's kind. `auto` rotates a simple layout and cross-fades a
    /// complex one, where several windows reflow and a turning picture of them would mislead.
    public static func choose(_ config: TransitionConfig, app: TransitionKind?, layout: Layout) -> TransitionPlan {
        var kind = (layout.isSimple ? app : nil) ?? config.kind
        if kind == .auto { kind = layout.isSimple ? .rotate : .crossfade }
        return TransitionPlan(kind: kind, durationMs: config.durationMs, curve: config.curve, timeoutMs: config.timeoutMs)
    }
}

/// How the screen turns: `[transition]` in config.toml, and `[[app]] transition`.
public enum TransitionKind: String, Sendable, CaseIterable {
    /// `rotate` when the layout is simple (one app fills the panel), `crossfade` when it is not.
    case auto
    /// The old frame turns by the shortest angle into the new orientation, fading as it goes.
    case rotate
    /// The old frame, held still, fades out over the new layout.
    case crossfade
    /// A cut, once the new layout is ready.
    case none
}

public struct TransitionConfig: Sendable, Hashable {
    public var kind: TransitionKind = .auto
    /// A quarter turn and a cross-fade take this long; a half turn 1.3 times as long (Android's
    /// 433 ms to 333 ms).
    public var durationMs: Int = 250
    public var curve: TransitionCurve = .easeInOut
    /// How long the old frame waits for the clients' new layout before the transition runs anyway,
    /// so that a frozen client cannot hold the screen.
    public var timeoutMs: Int = 300
    public init() {}
}

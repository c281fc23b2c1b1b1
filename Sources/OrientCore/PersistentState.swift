/// What survives a restart: the user's lock and the orientation the device was last held in
/// (so that a device switched on lying flat starts the right way up at once).
public struct PersistentState: Sendable, Hashable {
    /// The user's lock; nil when unlocked.
    public var lock: MaskSpec?
    /// The last felt orientation; nil before the first one was ever seen.
    public var lastFelt: Orientation?

    public init(lock: MaskSpec? = nil, lastFelt: Orientation? = nil) {
        self.lock = lock
        self.lastFelt = lastFelt
    }
}

extension PersistentState {
    /// The text of `state.toml`, written by the plugin and the CLI alike (reading it is
    /// OrientConfig's `StateStore`).
    public var fileText: String {
        var text = "# wlr-orient state, written by wlr-orient; edit with `wlr-orient lock`/`unlock`.\n"
        if let lock { text += "lock = \"\(lock)\"\n" }
        if let lastFelt { text += "felt = \"\(lastFelt.rawValue)\"\n" }
        return text
    }
}

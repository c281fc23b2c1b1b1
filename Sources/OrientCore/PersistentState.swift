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
    /// The file in the state directory that holds it.
    public static let fileName = "state.toml"
    /// The file whose lock its writers hold while they read, merge and write it (see `merged`).
    public static let lockFileName = ".state.toml.lock"

    /// What to write when this session's state is `self`, it last knew `known` (what it read at
    /// start, or asked to save last), and the file holds `onDisk` now: what this session changed,
    /// and what another session (a second login of the same user, `wlr-orient lock` run outside
    /// any session) wrote, for each thing the state holds. So a lock set in one session survives
    /// the other's saves of how the device was held.
    public func merged(known: PersistentState, onDisk: PersistentState) -> PersistentState {
        PersistentState(lock: lock != known.lock ? lock : onDisk.lock,
                        lastFelt: lastFelt != known.lastFelt ? lastFelt : onDisk.lastFelt)
    }

    /// The text of `state.toml`, written by the plugin and the CLI alike (reading it is
    /// OrientConfig's `StateStore`).
    public var fileText: String {
        var text = "# wlr-orient state, written by wlr-orient; edit with `wlr-orient lock`/`unlock`.\n"
        if let lock { text += "lock = \"\(lock)\"\n" }
        if let lastFelt { text += "felt = \"\(lastFelt.rawValue)\"\n" }
        return text
    }
}

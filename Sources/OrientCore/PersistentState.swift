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

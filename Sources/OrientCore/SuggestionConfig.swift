/// The tap-to-turn suggestion (`[suggestion]` in the config): while the user's lock keeps the
/// screen from the way the device is held, a target at a corner offers that turn once. Its keys,
/// bounds and documentation are rows of `ConfigKey.all`.
public struct SuggestionConfig: Sendable, Hashable {
    /// Which corner of the panel, as the person holds the device, the target sits in.
    public enum Corner: String, Sendable, CaseIterable {
        case bottomLeft = "bottom-left"
        case bottomRight = "bottom-right"
        case topLeft = "top-left"
        case topRight = "top-right"
    }

    public var enabled = true
    /// How long the target stays, in seconds (longer while a pointer rests on it: `hoveredSeconds`).
    public var seconds: Double = 5
    public var corner: Corner = .bottomLeft

    /// How long the target stays while a pointer rests on it (Android's 16 s): whoever aims at it
    /// slowly still gets to tap it.
    public static let hoveredSeconds: Double = 16
    /// How long a button pressed on the target, which then goes (its time up, the device turned
    /// back, the turn taken another way), is still kept from the app after: its release would come
    /// to an app that never had the press. Past it, a button the seat still holds pressed is kept
    /// until its release (which comes: libinput releases a vanishing device's buttons); one the
    /// seat no longer holds lets the grab go.
    public static let pressOutlivesTargetMs: Int32 = 3000

    public init() {}
}

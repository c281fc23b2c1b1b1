/// Who, other than us, set what a panel shows (its transform), and what that means.
///
/// - The compositor itself (its config reloaded, an output switched off and on, a new output, its
///   own output command) puts a panel back where its config says, which is no wish of the user:
///   the panel is turned back to our orientation at once, with a cut (the compositor has already
///   cut). The user's way to hold an orientation is our lock. A compositor that undoes our turn
///   again and again is followed instead, like a client, so that the two never fight: after
///   `mostTurnBacks` turn-backs within `undoWindow` seconds, the next undo is kept (a person
///   reloading their compositor while editing its config, every few seconds, gets each of three
///   reloads turned back; one resetting the panel every 5.5 s is followed at its fourth).
/// - A client, through wlr-output-management (wlr-randr, kanshi), acts for the person: what it set
///   is kept until the decision moves (the device turns, the lock or the app in front changes),
///   and `status` names who set it.
/// - Someone the daemon cannot name: from outside the compositor, its own change and a client's
///   look the same. Kept as a client's is.
public enum PanelSetter: String, Sendable, Hashable, CaseIterable {
    case compositor
    case outputManagement = "output-management"
    case someoneElse = "someone-else"

    /// In words, for the log and `status`.
    public var who: String {
        switch self {
        case .compositor: "the compositor"
        case .outputManagement: "a client through output management"
        case .someoneElse: "someone else"
        }
    }

    /// How many undoes within `undoWindow` seconds are turned back; the next is followed.
    static let mostTurnBacks = 3
    static let undoWindow = 20.0
}

import OrientCore

/// The controller's commands that touch the compositor: each host (the plugin inside one, the
/// daemon beside one) carries out every one in its own way, in a switch without `default`, so
/// that a command added here names every host that must learn it. `ControllerRunner` carries out
/// the rest of `ControllerCommand` itself.
public enum HostCommand: Sendable, Hashable {
    /// A panel shows `orientation`, with this transition.
    case show(PanelID, Orientation, transition: TransitionPlan)
    /// Tell a client of our protocol what its toplevel shows (plugin only: no client speaks it
    /// to the daemon).
    case tellShown(ToplevelID, ContentOrientations)
    /// Tell a client of our protocol how the person holds the device.
    case tellFelt(ToplevelID, ContentOrientations)
    /// A step toward the compositor's heads showing what is wanted (daemon only: its controller
    /// turns the heads, `ControllerRunner(turnsHeads:)`, where the plugin's gets `.show`).
    case heads(HeadsReconciler.Command)
}

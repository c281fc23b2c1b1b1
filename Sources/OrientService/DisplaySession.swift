import OrientCore
import OrientSystem

/// The Wayland display this process serves, and the control socket that belongs to it.
public enum DisplaySession {
    /// The Wayland display this process is on: `$WAYLAND_DISPLAY`, else libwayland's default.
    public static var displayName: String {
        environmentValue("WAYLAND_DISPLAY") ?? "wayland-0"
    }

    /// This display's control socket, `$XDG_RUNTIME_DIR/wlr-orient.<display>.sock`, or nil
    /// without `$XDG_RUNTIME_DIR`.
    public static var controlSocketPath: String? {
        let runtime = environmentValue("XDG_RUNTIME_DIR")
        return ControlSocketPath.path(runtimeDirectory: runtime, display: displayName)
    }
}

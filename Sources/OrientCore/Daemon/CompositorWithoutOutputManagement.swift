/// What the daemon says beside a compositor that offers no wlr-output-management, so that nothing
/// outside it can turn its outputs: which compositor it found (its process, the Wayland socket's
/// peer) and how that one turns its screen, so that the person knows where to go instead.
public enum CompositorWithoutOutputManagement {
    /// How each compositor known not to offer wlr-output-management turns its screen, by the
    /// name its process has (/proc/PID/comm: at most 15 characters).
    static let known: [(names: [String], how: String)] = [
        (["weston"], "weston turns an output only as its weston.ini says (transform=rotate-90 in that output's [output] section), not with the device"),
        (["kwin_wayland", "kwin_wayland_wr"],
         "KWin turns the built-in screen with the device itself (System Settings, Display Configuration, Orientation: Automatic; it reads iio-sensor-proxy)"),
        (["gnome-shell", "mutter"],
         "GNOME Shell turns the built-in screen with the device itself (the Auto Rotate switch in its quick settings; it reads iio-sensor-proxy)"),
        (["lomiri"], "Lomiri turns the screen with the device itself (its rotation lock is in the indicator menu)"),
        (["ubuntu-frame", "miral-shell", "miral-kiosk", "miral-app", "mir_demo_server"],
         "Mir turns an output only as its display configuration says (its orientation: field), not with the device"),
    ]

    /// The one line: the compositor found (`process`: its name, nil if it could not be read;
    /// `pid`: nil if the socket did not say) and how it turns its screen.
    public static func line(process: String?, pid: Int32?) -> String {
        let name = process.map { String($0.trimmingWhitespace()) }.flatMap { $0.isEmpty ? nil : $0 }
        let found = switch (name, pid) {
        case (let name?, let pid?): "\(name) (process \(pid))"
        case (let name?, nil): name
        case (nil, let pid?): "process \(pid)"
        case (nil, nil): "the compositor"
        }
        let how = name.flatMap { name in known.first { $0.names.contains(name) }?.how }
            ?? "\(name ?? "it") turns its screen itself, if at all"
        return "\(found) offers no wlr-output-management (zwlr_output_manager_v1), so nothing outside it can turn its outputs:"
            + " the daemon stops. \(how)."
    }
}

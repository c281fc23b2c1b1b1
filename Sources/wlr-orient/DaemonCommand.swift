import ArgumentParser
import FoundationEssentials
import OrientDaemon
import OrientSystem

/// `wlr-orient daemon`: the same controller as the plugin, as a Wayland client of any compositor
/// that offers wlr-output-management (sway 1.8+, Hyprland, river, labwc, wayfire…).
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Rotate the built-in panel of a compositor that loads no plugin (wlr-output-management).",
        discussion: """
            Runs beside the compositor as a Wayland client: the accelerometer, the detector, the \
            lock and the [[app]] rules are the plugin's, and `wlr-orient lock`, `status` and \
            `watch` reach it over the same control socket. It rotates the panels that \
            [device] outputs names through wlr-output-management, carrying every other output \
            back exactly as the compositor reported it, and learns the app in front from \
            foreign-toplevel management (without it, per-app rules are off). With \
            rotate-when = "tablet-mode" it reads the tablet-mode switch itself (evdev, read \
            only; the `input` group may be needed).

            It animates too where the compositor offers wlr-layer-shell, wl_shm and \
            ext-image-copy-capture or wlr-screencopy (sway, labwc, river, wayfire, Hyprland, niri, phoc): it shows a capture of \
            the panel on an overlay that takes no input, turns the panel under it, holds the \
            picture for [transition] timeout-ms (from outside it cannot see when the apps have \
            redrawn), then plays the rotation or cross-fade and removes the overlay. Without \
            those protocols, at a fractional scale, or with kind = "none", it cuts.

            Plugin only: launching an app already in its orientation (the daemon sees a window only once it is shown), an app's own \
            declaration over the wlr-orient protocol, and mapping touch to the panel (map the \
            touchscreen to the panel in the compositor's own config: sway `input type:touch \
            map_to_output eDP-1`, Hyprland `input:touchdevice:output`).

            Exit status: 0 stopped (SIGTERM/SIGINT); 1 the compositor went away (a service \
            manager restarts it); 2 no compositor to connect to; 3 the compositor offers no \
            wlr-output-management; 4 another wlr-orient (the plugin inside the compositor, or \
            another daemon) already serves this display.
            """
    )

    @OptionGroup var configOption: ConfigOption
    var config: String? { configOption.config }

    @Flag(help: "Also log each decision and its sample's time (for benchmarks).")
    var debug = false

    func run() throws {
        // The daemon stays all session: this process becomes a fresh one, this program started
        // as wlr-orient-daemon (nothing of the argument parser's work stays): through its link in
        // libexec where there is one, which names the process, else itself by that name.
        let configPath = config.map { URL(fileURLWithPath: $0).path }
        let options = (configPath.map { ["--config", $0] } ?? []) + (debug ? ["--debug"] : [])
        // (Without the link, argv[0] still names this directory: the daemon finds `wlr-orient`
        // beside what it was started as.)
        let link = Self.daemonProgram()
        let program = link ?? "/proc/self/exe"
        let error = becomeProgram([program] + options, name: link == nil ? Run.executableDirectory + "/" + DaemonProgram.name : nil)
        printError("wlr-orient daemon: cannot start \(program) (\(error.reason)); running in this process")
        let exit = Daemon.run(Daemon.Options(configPath: configPath, debug: debug))
        if exit != .stopped { throw ExitCode(exit.rawValue) }
    }

    /// `wlr-orient-daemon` beside this program (a build directory), else in its prefix's libexec
    /// (`make install`) or libexec/wlr-orient (a distribution's package).
    static func daemonProgram() -> String? {
        let directory = Run.executableDirectory
        return [directory + "/wlr-orient-daemon", directory + "/../libexec/wlr-orient-daemon",
                directory + "/../libexec/wlr-orient/wlr-orient-daemon"]
            .map { URL(fileURLWithPath: $0).standardized.path }
            .first(where: isExecutable)
    }
}

import ArgumentParser

@main
struct WlrOrient: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wlr-orient",
        abstract: "Screen auto-rotation for wlroots compositors on tablets, 2-in-1s and phones.",
        discussion: """
            The rotation itself runs inside the compositor (the wlr-orient plugin). This tool \
            checks its configuration, shows and records the accelerometer, and replays \
            recordings through the same detector; locking the orientation comes in a later version.

            Config: $XDG_CONFIG_HOME/wlr-orient/config.toml, then /etc/xdg/wlr-orient/config.toml.
            State (lock, last orientation): $XDG_STATE_HOME/wlr-orient/state.toml.
            """,
        subcommands: [CheckConfig.self, Detect.self, Sensor.self, Record.self, PluginInputsCommand.self]
    )
}

import ArgumentParser
import OrientDaemon
import OrientSensor

/// One program, three names: the daemon is this program started by its own name (a link to it),
/// so that the Swift runtime and the code they share are installed once (a static runtime is
/// about 6 MB a copy); the daemon starts its sensor helper as itself, by the helper's name, so
/// that the two share their pages. (The plugin's helper is a lean program of its own.)
@main
enum Program {
    static func main() {
        let arguments = CommandLine.arguments
        switch arguments.first.map({ $0.split(separator: "/").last.map(String.init) ?? $0 }) {
        case DaemonProgram.name: DaemonProgram.main(Array(arguments.dropFirst()))
        case SensorFeedProgram.name: SensorFeedProgram.main(Array(arguments.dropFirst()))
        default: WlrOrient.main()
        }
    }
}

struct WlrOrient: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wlr-orient",
        abstract: "Screen auto-rotation for wlroots compositors on tablets, 2-in-1s and phones.",
        discussion: """
            The rotation itself runs inside the compositor (the wlr-orient plugin, started in \
            unmodified wlroots compositors by `run`), or beside any other compositor \
            (`daemon`). This tool locks and inspects it over its control socket, checks its \
            configuration, shows and records the accelerometer, and replays recordings through \
            the same detector.

            Config: $XDG_CONFIG_HOME/wlr-orient/config.toml, then /etc/xdg/wlr-orient/config.toml.
            State (lock, last orientation): $XDG_STATE_HOME/wlr-orient/state.toml.
            """,
        version: wlrOrientVersion,
        subcommands: [Lock.self, Unlock.self, Toggle.self, SuggestionCommand.self, Status.self, Watch.self, Reload.self,
                      CheckConfig.self, Detect.self, Sensor.self, Calibrate.self, Record.self, Run.self, DaemonCommand.self, PluginInputsCommand.self,
                      RenderConfigDocs.self]
    )
}

/// The release, written here only: the Makefile reads this line for wlr-orient.pc, and the
/// tests check that `--version` and the installed .pc file both say it.
let wlrOrientVersion = "0.1.0"

/// `--config FILE`, as every command that reads the config takes it.
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("A config file instead of the XDG one ($XDG_CONFIG_HOME/wlr-orient/config.toml).", valueName: "file"),
            completion: .file(extensions: ["toml"]))
    var config: String?
}

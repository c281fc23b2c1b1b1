import ArgumentParser
import Foundation
import OrientConfig
import OrientCore
import OrientPlatform

/// Reads config.toml and state.toml for the plugin, which runs this at start instead of parsing
/// TOML inside the compositor (see `PluginInputs`). Always exits 0 with a complete answer:
/// problems are carried in `message` records and the defaults stand in for what is unreadable,
/// exactly as the plugin would have done itself.
struct PluginInputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-inputs",
        abstract: "Print the config and saved state in the form the compositor plugin reads (internal).",
        shouldDisplay: false
    )

    @Option(help: "The config file the compositor names (default: the XDG search path).")
    var config: String?

    func run() throws {
        let paths = XDGPaths(environment: ProcessInfo.processInfo.environment)
        var inputs = PluginInputs()
        var source = ConfigSource(explicitPath: config, paths: paths, shield: ForkedParseShield())
        for d in source.reload(fileExists: { FileManager.default.fileExists(atPath: $0) }) {
            inputs.messages.append("config: \(d); using built-in defaults")
        }
        inputs.config = source.current
        inputs.configFile = source.loadedFrom
        let store = StateStore(directory: paths.stateDirectory, shield: ForkedParseShield())
        let (state, warnings) = store.load()
        inputs.state = state
        inputs.stateDirectory = store.directory
        inputs.messages += warnings
        FileHandle.standardOutput.write(Data(inputs.encoded().utf8))
    }
}

import ArgumentParser
import FoundationEssentials
import OrientConfig
import OrientCore
import OrientDesktop
import OrientSystem

/// Reads config.toml, state.toml and the `.desktop` files that declare orientations for the
/// plugin, which runs this at start and on reload instead of parsing anything inside the
/// compositor (see `PluginInputs`). Always exits 0 with a complete answer: a config with errors
/// comes as `config-error` records with the defaults, other problems as `message` records.
struct PluginInputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-inputs",
        abstract: "Print the config and saved state in the form the compositor plugin reads (internal).",
        shouldDisplay: false
    )

    @Option(help: "The config file the compositor names (default: the XDG search path).")
    var config: String?

    @Flag(help: "Only the saved state (what a session reads before it saves its own).")
    var stateOnly = false

    func run() throws {
        let paths = XDGPaths(environment: ProcessInfo.processInfo.environment)
        var inputs = PluginInputs()
        if stateOnly {
            let (state, warnings) = StateStore(directory: paths.stateDirectory, shield: ForkedParseShield()).load()
            (inputs.state, inputs.stateDirectory, inputs.messages) = (state, paths.stateDirectory, warnings)
            try writeOut(inputs.encoded())
            return
        }
        var source = ConfigSource(explicitPath: config, paths: paths, shield: ForkedParseShield())
        for d in source.reload(fileExists: { FileManager.default.fileExists(atPath: $0) }) {
            inputs.configErrors.append(d.description)
        }
        inputs.config = source.current
        inputs.configFile = source.loadedFrom
        let store = StateStore(directory: paths.stateDirectory, shield: ForkedParseShield())
        let (state, warnings) = store.load()
        inputs.state = state
        inputs.stateDirectory = store.directory
        inputs.messages += warnings
        let environment = ProcessInfo.processInfo.environment
        let (desktop, problems) = DesktopIndexReader.read(directories: DesktopIndexReader.directories(environment: environment))
        inputs.desktop = desktop
        inputs.messages += problems.map { "desktop file: " + $0 }
        try writeOut(inputs.encoded())
    }

    /// Writes the inputs for the plugin: a failed write (the plugin gone) is this command's failure,
    /// so that the plugin never takes a cut-short text for the whole.
    private func writeOut(_ text: String) throws {
        guard case .success = FileDescriptor.standardOutput.writeAll(Array(text.utf8)) else { throw ExitCode(1) }
    }
}

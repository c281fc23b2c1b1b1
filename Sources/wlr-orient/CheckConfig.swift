import ArgumentParser
import FoundationEssentials
import OrientConfig
import OrientCore
import OrientSystem

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a config file and report every problem as FILE:LINE:COLUMN: message.",
        discussion: """
            Without FILE, checks the file the plugin would read: \
            $XDG_CONFIG_HOME/wlr-orient/config.toml, else /etc/xdg/wlr-orient/config.toml. \
            Exits 0 when the file is valid (or none exists, so defaults apply), 1 otherwise.
            """
    )

    @Argument(help: "The config file to check.", completion: .file(extensions: ["toml"]))
    var file: String?

    func run() throws {
        let paths = XDGPaths(environment: ProcessInfo.processInfo.environment)
        let source = ConfigSource(explicitPath: file, paths: paths)
        guard let path = source.resolvedPath(fileExists: { FileManager.default.fileExists(atPath: $0) }) else {
            print("no config file found; built-in defaults apply (looked in: \(paths.configSearchPath.joined(separator: ", ")))")
            return
        }
        switch ConfigLoader.load(path: path, shield: ForkedParseShield()) {
        case .success(let config):
            print("\(path): ok (\(config.apps.count) app rule\(config.apps.count == 1 ? "" : "s"))")
        case .failure(let errors):
            for d in errors.diagnostics { printError(d.description) }
            printError("\(path): \(errors.diagnostics.count) problem\(errors.diagnostics.count == 1 ? "" : "s"); nothing was applied")
            throw ExitCode(1)
        }
    }
}

/// Writes one line to standard error.
func printError(_ line: String) {
    _ = FileDescriptor.standardError.writeAll(Array((line + "\n").utf8))
}

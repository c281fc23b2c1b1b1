import ArgumentParser
import FoundationEssentials
import OrientConfig
import OrientSystem

/// Writes the example config or the man page's config sections from their template and the key
/// table (see `ConfigReference`); `make` runs it, so neither document is written by hand.
struct RenderConfigDocs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-config-docs",
        abstract: "Fill a documentation template with every config key (build step).",
        shouldDisplay: false
    )

    @Option(help: "toml (the example config) or scdoc (the man page).")
    var format: ConfigReference.Format

    @Argument(help: "The template: contrib/config.example.toml.in or docs/man/wlr-orient.5.scd.in.")
    var template: String

    func run() throws {
        let text: String
        switch UserFile.read(template, limit: 1 << 20) {
        case .success(let read): text = read
        case .failure(let problem): throw ValidationError("cannot read \(template): \(problem.reason)")
        }
        do {
            _ = FileDescriptor.standardOutput.writeAll(Array(try ConfigReference.render(text, as: format).utf8))
        } catch {
            throw ValidationError("\(template): \(error)")
        }
    }
}

extension ConfigReference.Format: ExpressibleByArgument {}

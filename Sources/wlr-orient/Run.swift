import ArgumentParser
import FoundationEssentials
import OrientConfig
import OrientSystem

/// `wlr-orient run COMPOSITOR [ARGS…]`: the compositor, with the plugin started inside it by
/// the preload library (contrib/preload). This command only finds the two libraries, names them
/// in the environment and becomes the compositor (exec): the preload takes itself out of the
/// environment again, so the compositor's children never see it.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a wlroots compositor (sway, labwc, cage, phoc…) with the plugin inside it.",
        discussion: """
            The compositor runs unmodified: libwlr-orient-preload.so, preloaded, sees what it \
            creates, starts the plugin just before its backend starts and draws the transitions \
            in its frame path. If it cannot, it says so in one line and the compositor runs on \
            without rotation. The plugin and the preload are built for one wlroots release \
            (libwlr-orient-preload.wlroots beside them names it); a compositor linked with \
            another is started without them. The libraries are looked for beside this program, \
            then in the lib directory of the prefix it was installed into (../lib, ../lib/TRIPLET) \
            and its wlr-orient/ (a package's, one directory per wlroots release): of several, \
            the one for the compositor's wlroots.

            Examples: wlr-orient run sway; wlr-orient run -- cage -d foot
            """
    )

    @OptionGroup var configOption: ConfigOption
    var config: String? { configOption.config }

    @Option(help: ArgumentHelp("The plugin to start (default: libwlr-orient.so, found as above).", valueName: "file"),
            completion: .file(extensions: ["so"]))
    var plugin: String?

    @Argument(parsing: .captureForPassthrough, help: "The compositor and its arguments.")
    var command: [String] = []

    func run() throws {
        // The passthrough capture keeps a leading "--" (`wlr-orient run -- cage …`), and takes
        // `--help` as the compositor's name: before a "--", it is this command's.
        if command.first == "--help" || command.first == "-h" { throw CleanExit.helpRequest(self) }
        let arguments = command.first == "--" ? Array(command.dropFirst()) : command
        guard let compositor = arguments.first else {
            throw ValidationError("name the compositor to start, e.g. 'wlr-orient run sway'")
        }
        let builds = Self.installedBuilds()
        guard !builds.isEmpty else {
            printError("wlr-orient run: libwlr-orient-preload.so was not found beside \(Self.executableDirectory) or in its ../lib; is wlr-orient installed (make install)?")
            throw ExitCode(1)
        }
        // Of several builds (one per wlroots release a distribution carries), the compositor's.
        let linked = Self.linkedWlroots(compositor)
        let described = builds.map { (directory: $0, builtFor: Self.builtFor(preload: $0 + "/libwlr-orient-preload.so")) }
        let (build, builtFor) = described.first { $0.builtFor.soname == linked } ?? described[0]
        let preload = build + "/libwlr-orient-preload.so"
        // An absolute path: dlopen would look for a bare name on the library path, not here.
        let besideIt = build + "/libwlr-orient.so"
        guard let plugin = plugin.map({ URL(fileURLWithPath: $0).path })
                ?? (FileManager.default.isReadableFile(atPath: besideIt) ? besideIt : nil) else {
            printError("wlr-orient run: libwlr-orient.so was not found beside \(preload); name it with --plugin")
            throw ExitCode(1)
        }
        // The plugin and the preload work with the wlroots they were built against only.
        if let other = linked, other != builtFor.soname {
            printError("wlr-orient run: \(compositor) uses \(other), not wlroots \(builtFor.release) (\(builtFor.soname)) that the plugin is built for: starting it without rotation; `wlr-orient daemon` run beside it turns the screen from outside if it offers wlr-output-management")
        } else if preload.contains(":") || preload.contains(" ") {
            // LD_PRELOAD splits its list at colons and spaces: such a path would name other files.
            printError("wlr-orient run: \(preload) has a ':' or a space in its path, which LD_PRELOAD cannot carry; install wlr-orient where the path has neither")
            throw ExitCode(1)
        } else {
            let existing = environmentValue("LD_PRELOAD").map { $0.isEmpty ? "" : $0 + ":" } ?? ""
            setEnvironmentValue("LD_PRELOAD", existing + preload)
            setEnvironmentValue("WLR_ORIENT_PLUGIN", plugin)
            if let config {
                setEnvironmentValue("WLR_ORIENT_CONFIG", URL(fileURLWithPath: config).path)
            }
        }
        let error = becomeProgram(arguments)
        printError("wlr-orient run: cannot start \(compositor): \(error.reason)")
        // As a shell answers: 127 not found, 126 found but not executable.
        throw ExitCode(error.isNotFound ? 127 : 126)
    }

    /// The wlroots the preload (and the plugin beside it) were built against: the soname and the
    /// release, from `libwlr-orient-preload.wlroots` beside it (scripts/build-plugin.sh writes it).
    /// Without that file, wlroots 0.15, which builds before it had one were for.
    static func builtFor(preload: String) -> (soname: String, release: String) {
        let file = String(preload.dropLast(".so".count)) + ".wlroots"
        guard case .success(let text) = UserFile.read(file, limit: 4096) else { return ("libwlroots.so.10", "0.15") }
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 2 else { return ("libwlroots.so.10", "0.15") }
        return (words[0], words[1])
    }

    /// The wlroots library `command` (a path, or a name on PATH) is linked with, as the dynamic
    /// linker resolves it (ldd); nil when none shows: not found, not an executable, a script that
    /// starts one (then the preload and the plugin find out for themselves).
    static func linkedWlroots(_ command: String) -> String? {
        let path = command.contains("/") ? command
            : (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .map { "\($0)/\(command)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path, FileManager.default.isExecutableFile(atPath: path) else { return nil }
        // ldd's complaints (a script, not a dynamic executable) are not the user's business here.
        guard case .success(let output) = ChildProcess.run(["/bin/sh", "-c", "exec /usr/bin/ldd \"$1\" 2>/dev/null", "sh", path],
                                                            timeout: 5) else { return nil }
        let text = String(decoding: output, as: UTF8.self)
        // Lines like "\tlibwlroots.so.10 => /usr/lib/x86_64-linux-gnu/libwlroots.so.10 (0x…)".
        return text.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.hasPrefix("libwlroots") }
    }

    /// Where this program is (a build directory, or PREFIX/bin).
    static var executableDirectory: String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// The directories that hold a build of the preload (and the plugin beside it), nearest first:
    /// beside this program (a build directory), in the lib directory of its prefix (`make
    /// install`: ../lib, ../lib64, ../lib/TRIPLET), and in that directory's private `wlr-orient/*/`
    /// (a distribution's packages: one per wlroots release, newest first).
    static func installedBuilds() -> [String] {
        /// The runs of digits in a release's name ("wlroots-0.19" → [0, 19]): 0.20 is newer than 0.9.
        func numbers(in name: String) -> [Int] { name.split { !$0.isNumber }.compactMap { Int($0) } }
        let directory = executableDirectory
        let fileManager = FileManager.default
        var libraries = [directory + "/../lib", directory + "/../lib64"]
        let lib = URL(fileURLWithPath: directory + "/../lib").standardized.path
        if let triplets = try? fileManager.contentsOfDirectory(atPath: lib) {
            libraries += triplets.filter { $0.hasSuffix("-linux-gnu") }.sorted().map { lib + "/" + $0 }
        }
        var candidates = [directory]
        for library in libraries {
            candidates.append(library)
            let own = library + "/wlr-orient"
            let releases = (try? fileManager.contentsOfDirectory(atPath: own)) ?? []
            candidates += releases.sorted { numbers(in: $0).lexicographicallyPrecedes(numbers(in: $1)) }.reversed().map { own + "/" + $0 }
        }
        return candidates.map { URL(fileURLWithPath: $0).standardized.path }
            .filter { fileManager.isReadableFile(atPath: $0 + "/libwlr-orient-preload.so") }
    }
}

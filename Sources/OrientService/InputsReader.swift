import OrientCore
import OrientSystem

/// Gets the config and the saved state from `wlr-orient plugin-inputs`, which parses the TOML
/// files in a child, so that no parser runs in the compositor or in the daemon.
public enum PluginInputsReader {
    /// How long the helper may take before it is killed (it reads two small files).
    public static let timeout: Int32 = 5000
    /// The longest answer taken: the helper reads a config of 1 MiB at most (and a state of
    /// 64 KiB), which it prints in about as many bytes.
    public static let largestAnswer = 4 << 20
    /// This very program, for a process that is `wlr-orient` by another name (the daemon): it
    /// reads the config itself wherever it was copied and whatever the copy is called, started
    /// by the name that makes it the CLI.
    public static let thisProgram = "/proc/self/exe"

    /// The helper: `wlr-orient`, from `$WLR_ORIENT_HELPER`, beside this library or in its
    /// prefix's `bin` (see `companionProgram`).
    public static func helperPath() -> String {
        companionProgram("wlr-orient", variable: "WLR_ORIENT_HELPER", prefixDirectory: "bin")
    }

    /// The inputs, or why they could not be had (then the caller runs on defaults).
    public static func read(configPath: String?, helper: String? = nil) -> Result<PluginInputs, Problem> {
        let args = arguments(configPath: configPath, helper: helper)
        let helper = args[0]
        switch run(args) {
        case .failure(let why):
            return .failure(Problem("\(helper) plugin-inputs: \(why)"))
        case .success(let output):
            return PluginInputs.decode(output).mapError { Problem("\(helper) plugin-inputs: unreadable answer (\($0))") }
        }
    }

    /// The saved state as the file holds it now (`plugin-inputs --state-only`), or nil.
    public static func readState(helper: String? = nil) -> PersistentState? {
        guard case .success(let output) = run([helper ?? helperPath(), "plugin-inputs", "--state-only"]),
              case .success(let inputs) = PluginInputs.decode(output) else { return nil }
        return inputs.state
    }

    /// The helper's command line (`helper`: a given program, else `helperPath()`).
    public static func arguments(configPath: String?, helper: String? = nil) -> [String] {
        var args = [helper ?? helperPath(), "plugin-inputs"]
        if let configPath { args += ["--config", configPath] }
        return args
    }

    /// Starts `args` (searching `$PATH` for a bare name) with a pipe as its standard output;
    /// returns its pid and the pipe's read end (close-on-exec; the caller closes it).
    static func spawn(_ args: [String]) -> Result<(pid: ProcessID, output: FileDescriptor), Problem> {
        ChildProcess.start(args, name: args.first == thisProgram ? "wlr-orient" : nil)
            .map { ($0.pid, $0.output) }
            .mapError { Problem(ChildProcess.RunFailure.cannotStart($0).description) }
    }

    /// Runs `args` and returns its standard output, waiting at most `timeout` (at start only):
    /// a helper that stays would otherwise hold the compositor here.
    private static func run(_ args: [String]) -> Result<String, Problem> {
        ChildProcess.run(args, name: args.first == thisProgram ? "wlr-orient" : nil,
                         timeout: Double(timeout) / 1000, largest: largestAnswer)
            .map { String(decoding: $0, as: UTF8.self) }
            .mapError { Problem($0.description) }
    }
}

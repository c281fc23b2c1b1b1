import OrientSystem

/// The daemon as a program of its own: what `wlr-orient` runs when started by the name
/// `wlr-orient-daemon`, which `wlr-orient daemon` becomes after checking its arguments:
///   wlr-orient-daemon [--config FILE] [--debug]
/// A fresh process, so what stays resident all session is the daemon, not the argument parser.
public enum DaemonProgram {
    public static let name = "wlr-orient-daemon"

    public static func main(_ arguments: [String]) -> Never {
        var options = Daemon.Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--config":
                guard let file = rest.popFirst(), !file.isEmpty else { usage("--config needs a file") }
                options.configPath = file
            case "--debug": options.debug = true
            case "--help", "-h":
                _ = FileDescriptor.standardOutput.writeAll(Array("usage: \(name) [--config FILE] [--debug]\n(what `wlr-orient daemon` runs; `wlr-orient help daemon` describes it)\n".utf8))
                exitProcess(0)
            default:
                usage("unknown argument '\(argument)'")
            }
        }
        Daemon.run(options).terminate()
    }

    private static func usage(_ what: String) -> Never {
        _ = FileDescriptor.standardError.writeAll(Array("\(name): \(what); start it as `wlr-orient daemon`\n".utf8))
        exitProcess(64)   // EX_USAGE: not one of the statuses a service manager acts on
    }
}

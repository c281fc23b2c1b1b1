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
            case "--config": options.configPath = rest.popFirst()
            case "--debug": options.debug = true
            default:
                _ = FileDescriptor.standardError.writeAll(Array("\(name): unknown argument '\(argument)'; start it as `wlr-orient daemon`\n".utf8))
                exitProcess(64)   // EX_USAGE: not one of the statuses a service manager acts on
            }
        }
        Daemon.run(options).terminate()
    }
}

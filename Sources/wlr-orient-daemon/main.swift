import Glibc
import OrientDaemon

// The daemon's own program, without Foundation or the CLI's parser, so that what stays resident
// all session is small: `wlr-orient daemon` checks the arguments and starts it as
//   wlr-orient-daemon [--config FILE] [--debug]
var options = Daemon.Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--config": options.configPath = arguments.popFirst()
    case "--debug": options.debug = true
    default:
        let line = Array("wlr-orient-daemon: unknown argument '\(argument)'; start it as `wlr-orient daemon`\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(64)   // EX_USAGE: not one of the statuses a service manager acts on
    }
}
let status = Daemon.run(options)
status.terminate()

import OrientCore
import OrientSystem

/// The plugin's sensor, in a process of its own (see `SensorFeed`): what `wlr-orient` runs when
/// started by the name `wlr-orient-sensor-feed`, as the plugin starts it:
///   wlr-orient-sensor-feed --active-hz HZ [--sensor NAME] [--mount-matrix MATRIX] [--buffered false]
/// with a socket as its standard input and output; it runs until that socket closes.
public enum SensorFeedProgram {
    public static let name = "wlr-orient-sensor-feed"

    public static func main(_ arguments: [String]) -> Never {
        func usage(_ why: String) -> Never {
            _ = FileDescriptor.standardError.writeAll(Array("\(name): \(why); the compositor plugin starts it\n".utf8))
            exitProcess(64)   // EX_USAGE
        }
        var device = DeviceConfig()
        var activeHz: Double?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" {
                let text = "usage: \(name) --active-hz HZ [--sensor NAME] [--mount-matrix MATRIX] [--buffered true|false]\n"
                    + "(the compositor plugin's sensor helper: it reads requests on its standard input and writes reports to its standard output)\n"
                _ = FileDescriptor.standardOutput.writeAll(Array(text.utf8))
                exitProcess(0)
            }
            guard let value = rest.popFirst() else { usage("\(argument) needs a value") }
            switch argument {
            case "--active-hz":
                guard let hz = Double(value), hz.isFinite, hz > 0 else { usage("--active-hz takes a positive rate, not '\(value)'") }
                activeHz = hz
            case "--sensor":
                device.sensor = value
            case "--mount-matrix":
                guard let matrix = MountMatrix(parsing: value) else { usage("--mount-matrix takes three rows of three numbers, not '\(value)'") }
                device.mountMatrix = matrix
            case "--buffered":
                guard value == "true" || value == "false" else { usage("--buffered takes true or false, not '\(value)'") }
                device.buffered = value == "true"
            default:
                usage("unknown argument '\(argument)'")
            }
        }
        guard let activeHz else { usage("--active-hz is required") }
        // SIGTERM, or the compositor gone (even killed), ends it as the end of its input does: the
        // device released, within the time a HID hub may take to answer.
        Termination.install(grace: SensorLiveness.marginSeconds, withParent: true)
        exitProcess(SensorFeed.run(OrientationSensor(device: device, activeHz: activeHz)))
    }
}

import OrientCore
import OrientSystem

/// The sensor in a process of its own (see `SensorFeed`): what `wlr-orient` runs when started by
/// the name `wlr-orient-sensor-feed`, as the plugin and the daemon start it:
///   wlr-orient-sensor-feed --wire json --active-hz HZ [--sensor NAME] [--mount-matrix MATRIX] [--buffered false]
/// with a socket as its standard input and output; it runs until that socket closes.
public enum SensorFeedProgram {
    public static let name = "wlr-orient-sensor-feed"

    public static func main(_ arguments: [String]) -> Never {
        func usage(_ why: String) -> Never {
            _ = FileDescriptor.standardError.writeAll(Array("\(name): \(why); the compositor plugin and `wlr-orient daemon` start it\n".utf8))
            exitProcess(64)   // EX_USAGE
        }
        var device = DeviceConfig()
        var activeHz: Double?
        var wire: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" {
                let text = "usage: \(name) --wire json --active-hz HZ [--sensor NAME] [--mount-matrix MATRIX] [--buffered true|false]\n"
                    + "(the sensor helper of the compositor plugin and of `wlr-orient daemon`, which start it: it reads requests on its standard input and writes reports to its standard output, one JSON object per line)\n"
                _ = FileDescriptor.standardOutput.writeAll(Array(text.utf8))
                exitProcess(0)
            }
            guard let value = rest.popFirst() else { usage("\(argument) needs a value") }
            switch argument {
            case "--wire":
                guard value == "json" else { usage("--wire takes json, not '\(value)'") }
                wire = value
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
        guard wire != nil else {
            // A plugin loaded before an upgrade, which starts the helper now installed: it reads
            // the older positional lines, of which this one, said once before ending, is one.
            let line = "lost the sensor helper was upgraded and speaks JSON lines, which this compositor's plugin, loaded before, does not read: restart the compositor (log in again) to rotate\n"
            _ = FileDescriptor.standardOutput.writeAll(Array(line.utf8))
            exitProcess(0)
        }
        guard let activeHz else { usage("--active-hz is required") }
        // SIGTERM, or the compositor gone (even killed), ends it as the end of its input does: the
        // device released, within the time a HID hub may take to answer.
        Termination.install(grace: SensorLiveness.marginSeconds, withParent: true)
        exitProcess(SensorFeed.run(OrientationSensor(device: device, activeHz: activeHz)))
    }
}

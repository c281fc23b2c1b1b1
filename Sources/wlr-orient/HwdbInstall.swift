import OrientCore
import OrientSystem

/// `calibrate --hwdb`: the entry goes into the local hwdb file (an older entry for the same match
/// replaced), systemd-hwdb compiles it, udev reads the device again, and udev's answer is checked.
enum HwdbInstall {
    static let localFile = "/etc/udev/hwdb.d/61-sensor-local.hwdb"

    enum Problem: Error, CustomStringConvertible {
        case notRoot
        case unreadable(String)
        case write(SystemError)
        case command([String], String)
        case notTaken(found: String?, wanted: MountMatrix)

        var description: String {
            switch self {
            case .notRoot:
                "--hwdb writes \(HwdbInstall.localFile), which only root may: run `sudo wlr-orient calibrate --hwdb`, or put the entry there yourself; nothing was written"
            case .unreadable(let why): "\(HwdbInstall.localFile): \(why); nothing was written"
            case .write(let error): "cannot write \(HwdbInstall.localFile): \(error.reason)"
            case .command(let arguments, let why): "\(arguments.joined(separator: " ")) failed: \(why)"
            case .notTaken(let found, let wanted):
                "udev does not report the new matrix after reading the hwdb again (it says \(found.map { "\"\($0)\"" } ?? "none"), not \"\(wanted)\"): an entry with a narrower match may win; see `udevadm info` of the device"
            }
        }
    }

    static func install(_ entry: HwdbEntry, device id: String) -> Result<String, Problem> {
        guard actsAsRoot else { return .failure(.notRoot) }
        var text = ""
        if pathExists(localFile) {
            guard let read = readSmallFile(localFile, limit: 1 << 20) else { return .failure(.unreadable("cannot be read")) }
            // Read whole or not at all: what was cut off would be lost in the rewrite.
            guard read.utf8.count < (1 << 20) - 1 else { return .failure(.unreadable("larger than 1 MiB, more than a local hwdb file holds")) }
            text = read
        }
        if case .failure(let error) = makeDirectories("/etc/udev/hwdb.d") { return .failure(.write(error)) }
        if case .failure(let error) = writeFileAtomically(localFile, Array(entry.merged(into: text).utf8)) {
            return .failure(.write(error))
        }
        let device = "/sys/bus/iio/devices/\(id)"
        // Each within a minute: udev answers a trigger in milliseconds, but a machine without a
        // running udevd would leave `--settle` waiting for good.
        for command in [["systemd-hwdb", "update"], ["udevadm", "trigger", "--settle", "--action=change", device]] {
            if case .failure(let failed) = ChildProcess.run(command, timeout: 60) { return .failure(.command(command, failed.description)) }
        }
        let query = ["udevadm", "info", "--query=property", "--property=ACCEL_MOUNT_MATRIX", "--value", device]
        switch ChildProcess.run(query, timeout: 60) {
        case .failure(let failed): return .failure(.command(query, failed.description))
        case .success(let output):
            let found = String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init)
            guard let found, MountMatrix(parsing: found) == entry.matrix else { return .failure(.notTaken(found: found, wanted: entry.matrix)) }
            return .success("\(localFile): written; udev now reports ACCEL_MOUNT_MATRIX=\(found) for \(id). "
                            + "It holds for every user and every program (iio-sensor-proxy too); remove the config's own line if you wrote one.")
        }
    }
}

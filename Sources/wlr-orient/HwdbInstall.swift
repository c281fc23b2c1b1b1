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
        for command in [["systemd-hwdb", "update"], ["udevadm", "trigger", "--settle", "--action=change", device]] {
            if case .failure(let failed) = run(command) { return .failure(.command(command, failed.why)) }
        }
        let query = ["udevadm", "info", "--query=property", "--property=ACCEL_MOUNT_MATRIX", "--value", device]
        switch run(query) {
        case .failure(let failed): return .failure(.command(query, failed.why))
        case .success(let output):
            let found = output.split(separator: "\n").first.map(String.init)
            guard let found, MountMatrix(parsing: found) == entry.matrix else { return .failure(.notTaken(found: found, wanted: entry.matrix)) }
            return .success("\(localFile): written; udev now reports ACCEL_MOUNT_MATRIX=\(found) for \(id). "
                            + "It holds for every user and every program (iio-sensor-proxy too); remove the config's own line if you wrote one.")
        }
    }

    struct Failed: Error { var why: String }

    /// Runs a program (its errors to ours); its output, or why it failed.
    private static func run(_ arguments: [String]) -> Result<String, Failed> {
        switch ChildProcess.start(arguments) {
        case .failure(let error): return .failure(Failed(why: error.reason))
        case .success(let child):
            let output = String(decoding: (try? child.output.readToEnd().get()) ?? [], as: UTF8.self)
            child.output.close()
            let exit = ChildProcess.reap(child.pid, until: monotonicSeconds() + 60)
            if exit == .running {
                ChildProcess.kill(child.pid)
                return .failure(Failed(why: "it did not finish within 60 s"))
            }
            return exit.succeeded ? .success(output) : .failure(Failed(why: "it exited with \(exit)"))
        }
    }
}

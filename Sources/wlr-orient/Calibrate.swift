import ArgumentParser
import FoundationEssentials
import OrientConfig
import OrientCore
import OrientSensor
import OrientSystem

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fix a screen that turns the wrong way: hold the device as asked, get its mount matrix.",
        discussion: """
            Reads the accelerometer as `sensor` does (polled, never disturbing a running session) \
            and asks you to hold the device the way you read it, then turned so that its left edge \
            is up. Each pose is taken once the device has been still for a second: no key to \
            press. It prints the mount matrix that makes those poses read right, beside the one in \
            use and where that comes from, the line for your config, and the entry of systemd's \
            hwdb for this model (to propose upstream, so that it is right for everyone).

            --write puts the line into your config ($XDG_CONFIG_HOME/wlr-orient/config.toml, or \
            --config FILE), changing that line alone; a running wlr-orient takes it at once. \
            --hwdb (as root) puts the entry into /etc/udev/hwdb.d/61-sensor-local.hwdb and makes \
            udev read it.
            """
    )

    @OptionGroup var configOption: ConfigOption
    var config: String? { configOption.config }

    @Flag(help: "Ask for a third pose, lying face up: it tells a mirrored sensor from a turned one.")
    var faceUp = false

    @Flag(help: "Put the matrix into the config file (that line alone changes).")
    var write = false

    @Flag(help: "Put the hwdb entry into /etc/udev/hwdb.d/61-sensor-local.hwdb and make udev read it (as root).")
    var hwdb = false

    @Flag(help: "One JSON object per line: device, hold, held, problem, failed, result, written.")
    var json = false

    @Option(help: "Give up after this many seconds.")
    var seconds: Double = 120

    func run() throws {
        let config = MountCalibration.reading(try loadConfig(config))
        // Said before the person holds anything.
        if hwdb, !actsAsRoot {
            printError(HwdbInstall.Problem.notRoot.description)
            throw ExitCode(1)
        }
        // Root's own config is not the person's: the line belongs in theirs.
        if write, self.config == nil, actsAsRoot {
            printError("--write puts the line into the config of the user who runs it, and this is root: run `wlr-orient calibrate --write` as yourself (and --hwdb as root), or name the file with --config")
            throw ExitCode(1)
        }
        // Written, the matrix is checked lying face up too: turned right edge up instead of left,
        // two poses give a matrix that swaps left and right, which only that pose tells.
        let asksFaceUp = faceUp || write || hwdb
        var said = CalibrationSay(json: json)
        var calibration: MountCalibration?
        var device: AccelerometerInfo?
        var outcome: (MountSolver.Solution, MountSolver.FaceUp?)?
        let missing = runSensorLoop(config, seconds: seconds) { report, opened, _, _ in
            switch report {
            case .opened:
                guard let info = opened else { break }
                device = info
                if calibration == nil {
                    said.device(info)
                    calibration = MountCalibration(inUse: info.calibration.mountMatrix, faceUp: asksFaceUp)
                    calibration.map { said.steps($0.start()) }
                }
            case .sample(let raw, _):
                guard let scale = device?.calibration.scale else { return }
                let steps = calibration?.feed(t: raw.t, Vector3(raw.x, raw.y, raw.z) * scale) ?? []
                said.steps(steps)
                for case .solved(let solution, let face) in steps { outcome = (solution, face) }
                if calibration?.isDone == true { requestStop() }
            case .lost(let why):
                // Mid-pose, what was taken says nothing of a device that may come back.
                guard let steps = calibration?.deviceGone(why), !steps.isEmpty else {
                    said.log("lost the accelerometer: \(why); looking again")
                    break
                }
                said.steps(steps)
                requestStop()
            case .log(let line):
                said.log(line)
            case .stillReading, .awaitingUdev:
                break
            }
        }
        if let missing {
            printError(noAccelerometer("calibrate", missing))
            throw ExitCode(1)
        }
        guard let device, let (solution, face) = outcome else {
            if calibration?.isDone == true { throw ExitCode(1) }   // it said why
            said.log("no matrix: no two poses could be taken in \(Int(seconds)) s; run it again and hold the device still in each")
            throw ExitCode(1)
        }
        let udev = Udev.properties(ofIIODevice: device.candidate.id, ["ACCEL_MOUNT_MATRIX"])["ACCEL_MOUNT_MATRIX"]
        let report = CalibrationReport(device: device, solution: solution, faceUp: face,
                                       hwdb: HwdbEntry.forDevice(device.candidate.id, matrix: solution.matrix),
                                       udevMatrix: udev.map { String($0.split(separator: "\n").first ?? "") })
        said.result(report)
        if face == .mirrored { throw ExitCode(1) }
        if write {
            if !report.differs {
                said.log("the matrix in use already reads the device right: nothing was written")
            } else {
                try writeConfig(solution.matrix, said: &said)
            }
        }
        if hwdb { try writeHwdb(report, said: &said) }
    }

    /// Puts the line into the config the person uses (a copy of the system's config if that is
    /// the one in force), through `MountMatrixSetting`.
    private func writeConfig(_ matrix: MountMatrix, said: inout CalibrationSay) throws {
        let paths = XDGPaths(environment: ProcessInfo.processInfo.environment)
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        // Through a link (a dotfile manager's) to the file itself: replacing the link would leave
        // the file it points to as it was.
        let named = config ?? paths.userConfigFile
        let target = exists(named) ? resolvedPath(named) ?? named : named
        let base = exists(target) ? target : ConfigSource(explicitPath: config, paths: paths).resolvedPath(fileExists: exists)
        // A config made read-only is the person's say: not replaced, with the line to add.
        if exists(target), let mode = fileMode(target), mode & 0o222 == 0 {
            printError("\(target) is read-only (mode \(String(mode & 0o7777, radix: 8))): not replacing it. Make it writable and run this again, or add under [device]: \(MountMatrixSetting.line(matrix))")
            throw ExitCode(1)
        }
        if let slash = target.lastIndex(of: "/"), case .failure(let error) = makeDirectories(String(target[..<slash])) {
            printError("cannot write \(target): \(error.reason)")
            throw ExitCode(1)
        }
        // Read, edit and replace; if the file changed meanwhile (an editor saved it), what it
        // holds now is edited instead, so nothing written there is lost.
        var attempts = 0
        while true {
            attempts += 1
            let text = try readConfig(base)
            let edited: String
            switch MountMatrixSetting.set(matrix, in: text, file: base ?? target) {
            case .failure(let problem):
                printError(problem.description)
                throw ExitCode(1)
            case .success(let result):
                edited = result
            }
            if try readConfig(base) != text {
                guard attempts < 3 else {
                    printError("\(base ?? target) keeps changing (an editor saving it?): nothing was written; run this again once it is saved")
                    throw ExitCode(1)
                }
                continue
            }
            // A Ctrl-C now comes once the file is replaced: never a temporary copy left beside it.
            let written = withEndingSignalsHeld { writeFileAtomically(target, Array(edited.utf8), mode: base.flatMap(fileMode) ?? 0o644) }
            if case .failure(let error) = written {
                printError("cannot write \(target): \(error.reason)")
                throw ExitCode(1)
            }
            break
        }
        said.written(target, copiedFrom: base == target ? nil : base, line: MountMatrixSetting.line(matrix))
        // A running wlr-orient watches the file it read: one that read the system's, or none,
        // reads the person's now.
        if let options = try? ConnectionOptions.parse([]), case .success(let client) = ControlClient.connect(options) {
            _ = try? client.ask(.command(.reload))
        }
    }

    /// The config's text as it is now ("" when there is none yet).
    private func readConfig(_ path: String?) throws -> String {
        guard let path else { return "" }
        switch UserFile.read(path, limit: ConfigLoader.largestFile) {
        case .success(let read): return read
        case .failure(let problem):
            printError("\(problem); nothing was written")
            throw ExitCode(1)
        }
    }

    private func writeHwdb(_ report: CalibrationReport, said: inout CalibrationSay) throws {
        guard let entry = report.hwdb else {
            printError("no hwdb entry can be made for this device (\(HwdbEntry.whyNot(report.device.candidate.id))); nothing was written")
            throw ExitCode(1)
        }
        switch HwdbInstall.install(entry, device: report.device.candidate.id) {
        case .success(let line): said.log(line)
        case .failure(let problem):
            printError(problem.description)
            throw ExitCode(1)
        }
    }
}

/// What `calibrate` found, for the person and for scripts.
struct CalibrationReport {
    var device: AccelerometerInfo
    var solution: MountSolver.Solution
    var faceUp: MountSolver.FaceUp?
    var hwdb: HwdbEntry?
    /// udev's ACCEL_MOUNT_MATRIX as it reads, if it has one.
    var udevMatrix: String?

    /// The matrix in use is udev's, mended: its hwdb entry has a third row that repeats the
    /// others, and the entry printed is the one to propose in its place.
    var udevRepaired: Bool {
        guard device.matrixSource == .udev, let udevMatrix else { return false }
        return MountMatrix.repairedForItsThirdRow(udevMatrix) != nil
    }

    var differs: Bool { MountSolver.differs(inUse: device.calibration.mountMatrix, found: solution.matrix) }

    var changes: [(held: Orientation, today: Orientation?)] {
        MountSolver.changes(from: device.calibration.mountMatrix, to: solution.matrix)
    }

    /// What the person will see change, in one sentence.
    var change: String {
        guard let first = changes.first else {
            return differs ? "the screen turns the right way already, but the matrix in use is off by a few degrees: the new one reads the device truer"
                : "the matrix in use already reads these poses right: there is nothing to change"
        }
        let more = changes.count > 1 ? " (and \(changes.count - 1) more way\(changes.count == 2 ? "" : "s") of holding it)" : ""
        return "the screen will turn the right way when held \(first.held.rawValue): it turns "
            + (first.today.map { "\($0.rawValue)" } ?? "nowhere (it reads as lying flat)") + " today\(more)"
    }

    /// Where the matrix in use comes from, in words.
    var source: String {
        switch device.matrixSource {
        case .config: "[device] mount-matrix in the config"
        case .udev: "udev's ACCEL_MOUNT_MATRIX (systemd's hwdb)"
        case .sysfs: "the driver's mount matrix in sysfs"
        case .identity: "the identity: no matrix from the config, udev or the driver"
        }
    }
}

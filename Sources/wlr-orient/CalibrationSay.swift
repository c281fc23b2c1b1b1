import OrientConfig
import OrientCore
import OrientSensor

/// What `calibrate` says, in sentences a person reads on a screen that may be turned the wrong
/// way (short, one thing each), or as JSON lines for scripts and tests.
struct CalibrationSay {
    let json: Bool

    func device(_ info: AccelerometerInfo) {
        let matrix = info.calibration.mountMatrix
        if json {
            printLine("{\"event\": \"device\", \"id\": \(jsonString(info.candidate.id)), \"mode\": \"\(info.mode.rawValue)\", "
                      + "\"in_use\": \(jsonString(matrix.description)), \"source\": \"\(info.matrixSource.rawValue)\"}")
        } else {
            printLine("Reading \(info.candidate.id) (\(info.candidate.name)), \(info.mode.rawValue).")
        }
    }

    func steps(_ steps: [MountCalibration.Step]) {
        for step in steps {
            switch step {
            case .hold(let pose):
                if json { printLine("{\"event\": \"hold\", \"pose\": \"\(pose.rawValue)\"}") } else { printLine(Self.ask(pose)) }
            case .held(let pose, let v):
                if json {
                    printLine("{\"event\": \"held\", \"pose\": \"\(pose.rawValue)\", \"reading\": [\(jsonNumber(v.x)), \(jsonNumber(v.y)), \(jsonNumber(v.z))]}")
                } else {
                    printLine("Got it.")
                }
            case .problem(let pose, let problem):
                if json {
                    printLine("{\"event\": \"problem\", \"pose\": \"\(pose.rawValue)\", \"problem\": \"\(Self.word(problem))\""
                              + (Self.degrees(problem).map { ", \"degrees\": \(jsonNumber($0, decimals: 1))" } ?? "") + "}")
                } else {
                    printLine(Self.sentence(problem, pose))
                }
            case .solved:
                break   // `result` says it, with what it means
            case .failed(let fault):
                if json {
                    let magnitude = if case .notGravity(let m) = fault { ", \"magnitude\": \(jsonNumber(m, decimals: 2))" } else { "" }
                    printLine("{\"event\": \"failed\", \"fault\": \"\(Self.word(fault))\"\(magnitude), \"message\": \(jsonString(Self.sentence(fault)))}")
                } else {
                    printError(Self.sentence(fault))
                }
            }
        }
    }

    func log(_ line: String) {
        if json { printLine("{\"event\": \"log\", \"message\": \(jsonString(line))}") } else { printError(line) }
    }

    func result(_ r: CalibrationReport) {
        let m = r.solution.matrix
        if json {
            func word(_ o: Orientation?) -> String { o.map { "\"\($0.rawValue)\"" } ?? "null" }
            let changes: [String] = r.changes.map { "{\"held\": \"\($0.held.rawValue)\", \"today\": \(word($0.today))}" }
            let faceUp: String = r.faceUp.map { "\"\($0.rawValue)\"" } ?? "null"
            let hwdb: String = r.hwdb.map { jsonString($0.text) } ?? "null"
            let fields: [String] = [
                "\"event\": \"result\"", "\"matrix\": \(jsonString(m.description))", "\"snapped\": \(r.solution.snapped)",
                "\"recline_degrees\": \(jsonNumber(r.solution.reclineDegrees, decimals: 1))", "\"face_up\": \(faceUp)",
                "\"in_use\": \(jsonString(r.device.calibration.mountMatrix.description))", "\"source\": \"\(r.device.matrixSource.rawValue)\"",
                "\"changes\": [\(changes.joined(separator: ", "))]", "\"change\": \(jsonString(r.change))",
                "\"config_line\": \(jsonString(MountMatrixSetting.line(m)))", "\"hwdb\": \(hwdb)",
                "\"udev_matrix\": \(r.udevMatrix.map(jsonString) ?? "null")", "\"udev_repaired\": \(r.udevRepaired)",
            ]
            printLine("{" + fields.joined(separator: ", ") + "}")
            return
        }
        if r.faceUp == .mirrored {
            printLine("")
            printLine("Lying face up, it reads face down. Either it was turned right edge up, not left: run it again")
            printLine("and turn the left edge up. Or, if it says this again, the sensor is mirrored, and no mount matrix")
            printLine("that turns it makes it right; please report it with `wlr-orient sensor --json`. Nothing is written.")
            return
        }
        printLine("")
        printLine("The matrix that makes these poses read right: \(m)")
        printLine(r.solution.snapped ? "  (every axis was within \(Int(MountSolver.snapDegrees))° of one: made exactly 0 and ±1)"
                                     : "  (not within \(Int(MountSolver.snapDegrees))° of the axes: kept as measured)")
        printLine("In use now: \(r.device.calibration.mountMatrix), from \(r.source).")
        printLine(Self.capitalized(r.change) + ".")
        if r.udevRepaired, let udev = r.udevMatrix {
            printLine("udev's matrix \"\(udev)\" (systemd's hwdb entry for this model) cannot be a mount for its third")
            printLine("row; it is used mended. The entry below is the one to propose in its place.")
        }
        guard r.differs || r.udevRepaired else { return }
        if r.differs {
            printLine("")
            printLine("For your config, under [device] (--write puts it there):")
            printLine("  \(MountMatrixSetting.line(m))")
        }
        if let entry = r.hwdb {
            printLine("")
            printLine("For everyone with this model: systemd's hwdb (--hwdb puts it into \(HwdbInstall.localFile);")
            printLine("propose it upstream in hwdb.d/60-sensor.hwdb):")
            for line in entry.text.split(separator: "\n", omittingEmptySubsequences: false) { printLine(String(line)) }
        } else {
            printLine("")
            printLine("No hwdb entry for this model: \(HwdbEntry.whyNot(r.device.candidate.id)).")
        }
    }

    func written(_ path: String, copiedFrom: String?, line: String) {
        if json {
            printLine("{\"event\": \"written\", \"file\": \(jsonString(path)), \"copied_from\": \(copiedFrom.map(jsonString) ?? "null"), \"line\": \(jsonString(line))}")
        } else {
            printLine("")
            printLine("Wrote \(path)\(copiedFrom.map { " (a copy of \($0))" } ?? ""): \(line). A running wlr-orient reads it at once.")
        }
    }

    static func ask(_ pose: MountCalibration.Pose) -> String {
        switch pose {
        case .normal: "Hold the device the way you read it (camera or logo edge up), and keep it still."
        case .leftUp: "Now turn it a quarter turn, so that its left edge is up, and keep it still."
        case .faceUp: "Now lay it on its back, screen up, and leave it still."
        }
    }

    static func sentence(_ problem: MountCalibration.Problem, _ pose: MountCalibration.Pose) -> String {
        switch problem {
        case .moving: "It keeps moving. Rest your elbows, and keep it still for a second."
        case .flat: pose == .normal ? "It lies flat. Hold it up, the way you read it." : "It lies flat. Hold it up, its left edge up."
        case .notAQuarterTurn(let d): "That is a turn of \(Int(d.rounded()))°, not a quarter turn. Turn it from the way you read it so that its left edge is up."
        case .tooReclined(let d): "It leans back \(Int(d.rounded()))°. Hold it more upright."
        case .notFlat: "It does not lie flat. Lay it on its back, screen up."
        }
    }

    static func sentence(_ fault: MountCalibration.Fault) -> String {
        switch fault {
        case .readsNothing:
            "no matrix: the sensor reads 0 on every axis while the device is still, so it is not measuring (its driver or its power); `wlr-orient sensor` shows what it reads"
        case .notGravity(let m):
            "no matrix: the sensor reads \(jsonNumber(m, decimals: 1)) m/s² while the device is still, not gravity's 9.8: its scale is wrong or it is saturated; `wlr-orient sensor` shows its scale"
        case .notANumber:
            "no matrix: the sensor's readings are not numbers (NaN): its driver reports nonsense; `wlr-orient sensor` shows what it reads"
        case .gone(let why):
            "no matrix: the accelerometer went away (\(why)); run this again once `wlr-orient sensor` finds it"
        }
    }

    static func word(_ fault: MountCalibration.Fault) -> String {
        switch fault {
        case .readsNothing: "reads-nothing"
        case .notGravity: "not-gravity"
        case .notANumber: "not-a-number"
        case .gone: "gone"
        }
    }

    static func word(_ problem: MountCalibration.Problem) -> String {
        switch problem {
        case .moving: "moving"
        case .flat: "flat"
        case .notAQuarterTurn: "not-a-quarter-turn"
        case .tooReclined: "too-reclined"
        case .notFlat: "not-flat"
        }
    }

    static func degrees(_ problem: MountCalibration.Problem) -> Double? {
        switch problem {
        case .notAQuarterTurn(let d), .tooReclined(let d): d
        case .moving, .flat, .notFlat: nil
        }
    }

    static func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}

/// The status read back from the JSON that `ControllerStatus.json` writes (the control socket's
/// replies and events): one type for the server that writes it and the CLI that reads it. Keys
/// are the written ones; a word this version does not know is an error, not a guess.
extension ControllerStatus: Decodable {
    private enum Keys: String, CodingKey {
        case lock, felt, panel, rotateWhen = "rotate_when", tabletMode = "tablet_mode", rotating, sensor, panels, front
        case name, shape, shown, allowed, setBy = "set_by", turning
        case appID = "app_id", orientations, givenAs = "given_as", source, rule, file, input
        case inputSource = "input_source", inputRule = "input_rule", inputFile = "input_file"
        case touchesUnseen = "touches_unseen", output, otherRotator = "other_rotator", by, process, since = "since_ms"
        case suggestion, suggestions, waiting, orientation, until = "until_ms", hovered, touching
        case sensorState = "sensor_state", state, device, mode, limit, why, lastReport = "last_report_ms", slowReading = "slow_reading_ms", matrix, matrixSource = "matrix_source"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let lock = try c.decodeIfPresent(String.self, forKey: .lock)
        self.lock = try lock.map { try Self.word($0, { MaskSpec(parsing: $0) }, .lock, c) }
        felt = try c.decodeIfPresent(String.self, forKey: .felt).map { try Self.word($0, Orientation.init(rawValue:), .felt, c) }
        rotateWhen = try Self.word(c.decode(String.self, forKey: .rotateWhen), Config.RotateWhen.init(rawValue:), .rotateWhen, c)
        tabletMode = try c.decodeIfPresent(Bool.self, forKey: .tabletMode)
        rotating = try c.decode(Bool.self, forKey: .rotating)
        sensorRunning = try c.decode(String.self, forKey: .sensor) != "released"
        sensor = try Self.sensor(c, running: sensorRunning)
        var list = try c.nestedUnkeyedContainer(forKey: .panels)
        var panels: [Panel] = []
        while !list.isAtEnd {
            let p = try list.nestedContainer(keyedBy: Keys.self)
            panels.append(Panel(name: try p.decode(String.self, forKey: .name),
                                shape: try Self.word(p.decode(String.self, forKey: .shape), PanelShape.init(rawValue:), .shape, p),
                                shown: try Self.word(p.decode(String.self, forKey: .shown), Orientation.init(rawValue:), .shown, p),
                                allowed: try Self.mask(p, .allowed),
                                setBy: try p.decodeIfPresent(String.self, forKey: .setBy).map { try Self.word($0, PanelSetter.init(rawValue:), .setBy, p) },
                                turning: try p.decodeIfPresent(String.self, forKey: .turning).map { try Self.word($0, Orientation.init(rawValue:), .turning, p) },
                                otherRotator: try Self.otherRotator(p)))
        }
        self.panels = panels
        suggestionsEnabled = try c.decodeIfPresent(String.self, forKey: .suggestions) != "disabled"
        touchesUnseen = try c.decodeIfPresent(String.self, forKey: .touchesUnseen)
        if try c.contains(.suggestion) && !c.decodeNil(forKey: .suggestion) {
            let o = try c.nestedContainer(keyedBy: Keys.self, forKey: .suggestion)
            suggestion = Offer(panel: try o.decode(String.self, forKey: .panel),
                               orientation: try Self.word(o.decode(String.self, forKey: .orientation), Orientation.init(rawValue:), .orientation, o),
                               until: Double(try o.decode(Int.self, forKey: .until)) / 1000,
                               hovered: try o.decode(Bool.self, forKey: .hovered))
        }
        if try c.contains(.waiting) && !c.decodeNil(forKey: .waiting) {
            let w = try c.nestedContainer(keyedBy: Keys.self, forKey: .waiting)
            waiting = TouchWait(felt: try Self.word(w.decode(String.self, forKey: .felt), Orientation.init(rawValue:), .felt, w),
                                touching: try w.decode(Bool.self, forKey: .touching),
                                until: try w.decodeIfPresent(Int.self, forKey: .until).map { Double($0) / 1000 })
        }
        guard try c.contains(.front) && !c.decodeNil(forKey: .front) else {
            front = nil
            return
        }
        let f = try c.nestedContainer(keyedBy: Keys.self, forKey: .front)
        front = Front(appID: try f.decode(String.self, forKey: .appID), orientations: try Self.mask(f, .orientations),
                      givenAs: try f.decode(String.self, forKey: .givenAs),
                      orientationsSource: try Self.source(f, .source, detail: [.rule, .file]),
                      input: try f.decode(Bool.self, forKey: .input),
                      inputSource: try Self.source(f, .inputSource, detail: [.inputRule, .inputFile]),
                      outputUnknown: try Self.outputUnknown(f))
    }

    /// Who else turns a panel, if anyone (a server that says nothing of it: nobody).
    private static func otherRotator(_ p: KeyedDecodingContainer<Keys>) throws -> OtherRotator? {
        guard try p.contains(.otherRotator) && !p.decodeNil(forKey: .otherRotator) else { return nil }
        let r = try p.nestedContainer(keyedBy: Keys.self, forKey: .otherRotator)
        return OtherRotator(by: try Self.word(r.decode(String.self, forKey: .by), PanelSetter.init(rawValue:), .by, r),
                            process: try r.decodeIfPresent(String.self, forKey: .process),
                            since: Double(try r.decode(Int.self, forKey: .since)) / 1000)
    }

    /// Whether the front's output is unknown: "output": "unknown", or no word at all (known).
    private static func outputUnknown(_ c: KeyedDecodingContainer<Keys>) throws -> Bool {
        guard let word = try c.decodeIfPresent(String.self, forKey: .output) else { return false }
        guard word == "unknown" else {
            throw DecodingError.dataCorruptedError(forKey: .output, in: c, debugDescription: "not an output word: \(word)")
        }
        return true
    }

    /// The sensor's detail; from a server that sends none, what `sensor` says.
    private static func sensor(_ c: KeyedDecodingContainer<Keys>, running: Bool) throws -> SensorStatus {
        guard try c.contains(.sensorState) && !c.decodeNil(forKey: .sensorState) else {
            return running ? SensorStatus(state: .looking) : .released
        }
        let s = try c.nestedContainer(keyedBy: Keys.self, forKey: .sensorState)
        return SensorStatus(
            state: try word(s.decode(String.self, forKey: .state), SensorStatus.State.init(rawValue:), .state, s),
            device: try s.decodeIfPresent(String.self, forKey: .device),
            mode: try s.decodeIfPresent(String.self, forKey: .mode).map { try word($0, ReadingMode.init(rawValue:), .mode, s) },
            limit: try s.decodeIfPresent(String.self, forKey: .limit).map { try word($0, ReadingLimit.init(rawValue:), .limit, s) },
            why: try s.decodeIfPresent(String.self, forKey: .why),
            lastReportAge: try s.decodeIfPresent(Int.self, forKey: .lastReport).map { Double($0) / 1000 },
            slowReading: try s.decodeIfPresent(Int.self, forKey: .slowReading).map { Double($0) / 1000 },
            matrix: try s.decodeIfPresent(String.self, forKey: .matrix).map { try word($0, MountMatrix.init(parsing:), .matrix, s) },
            matrixSource: try s.decodeIfPresent(String.self, forKey: .matrixSource).map { try word($0, MountMatrixSource.init(rawValue:), .matrixSource, s) })
    }

    private static func word<T>(_ text: String, _ make: (String) -> T?, _ key: Keys, _ c: KeyedDecodingContainer<Keys>) throws -> T {
        guard let value = make(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "an unknown word: \(text)")
        }
        return value
    }

    private static func mask(_ c: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> OrientationMask {
        OrientationMask(try c.decode([String].self, forKey: key).map { try word($0, Orientation.init(rawValue:), key, c) })
    }

    /// A source word and, for a rule or a desktop file, its match or path (under the first or
    /// second of `detail`'s keys, as `json` writes them).
    private static func source(_ c: KeyedDecodingContainer<Keys>, _ key: Keys, detail: [Keys]) throws -> WishSource {
        switch try c.decode(String.self, forKey: key) {
        case "client": return .client
        case "none": return .none
        case "rule": return .rule(try c.decodeIfPresent(String.self, forKey: detail[0]) ?? "")
        case "desktop-file": return .desktopFile(try c.decodeIfPresent(String.self, forKey: detail[1]) ?? "")
        case let other: throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "an unknown source: \(other)")
        }
    }
}

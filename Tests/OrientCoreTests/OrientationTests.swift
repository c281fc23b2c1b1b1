import Testing
@testable import OrientCore

@Suite struct OrientationTests {
    @Test(arguments: [
        (Orientation.normal, OutputTransform.normal),
        (.leftUp, .rotated90),      // device turned clockwise: content turns back counter-clockwise
        (.bottomUp, .rotated180),
        (.rightUp, .rotated270),
    ])
    func transformMakesContentUpright(orientation: Orientation, transform: OutputTransform) {
        #expect(orientation.outputTransform == transform)
        #expect(transform.orientation == orientation)
        #expect(transform.rawValue == Int32(orientation.clockwiseQuarterTurns))
    }

    @Test func quarterTurnsAreTheShortestWay() {
        #expect(Orientation.normal.quarterTurns(to: .leftUp) == 1)
        #expect(Orientation.normal.quarterTurns(to: .rightUp) == 1)
        #expect(Orientation.normal.quarterTurns(to: .bottomUp) == 2)
        #expect(Orientation.leftUp.quarterTurns(to: .rightUp) == 2)
        for o in Orientation.allCases {
            #expect(o.quarterTurns(to: o) == 0)
            #expect(Orientation(clockwiseQuarterTurns: o.clockwiseQuarterTurns + 8) == o)
        }
    }

    @Test func portraitAndLandscapeDependOnThePanel() {
        #expect(OrientationMask.landscape(on: .landscape) == [.normal, .bottomUp])
        #expect(OrientationMask.portrait(on: .landscape) == [.leftUp, .rightUp])
        #expect(OrientationMask.portrait(on: .portrait) == [.normal, .bottomUp])
        #expect(OrientationMask.landscape(on: .portrait) == [.leftUp, .rightUp])
        #expect(PanelShape(width: 1920, height: 1080) == .landscape)
        #expect(PanelShape(width: 720, height: 1440) == .portrait)
        #expect(Orientation.leftUp.isLandscape(on: .portrait))
        #expect(!Orientation.leftUp.isLandscape(on: .landscape))
    }

    @Test func maskWordsParse() throws {
        #expect(MaskSpec(parsing: "landscape")?.resolve(on: .landscape) == [.normal, .bottomUp])
        #expect(MaskSpec(parsing: "portrait, normal")?.resolve(on: .landscape) == [.leftUp, .rightUp, .normal])
        #expect(MaskSpec(parsing: "all-but-upside-down")?.resolve(on: .portrait) == [.normal, .leftUp, .rightUp])
        #expect(MaskSpec(parsing: "ALL")?.resolve(on: .portrait) == .all)
        #expect(MaskSpec(parsing: "sideways") == nil)
        #expect(MaskSpec(parsing: "") == nil)
        for word in MaskWord.allCases {
            #expect(!word.resolve(on: .landscape).isEmpty)
            #expect(!word.resolve(on: .portrait).isEmpty)
        }
    }

    @Test func mountMatrixParsesAndApplies() throws {
        let m = try #require(MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1"))
        let v = m.apply(1, 2, 3)
        #expect(v.0 == -2 && v.1 == -1 && v.2 == 3)
        #expect(m.description == "0, -1, 0; -1, 0, 0; 0, 0, 1")
        #expect(MountMatrix(parsing: "1, 0; 0, 1") == nil)
        #expect(MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, x") == nil)
        #expect(MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, nan") == nil)
    }

    /// What systemd's hwdb checker and iio-sensor-proxy refuse is refused by name; a `;` after
    /// the last row (seen in public configs) is read as meant.
    @Test(arguments: [
        ("0, 1, 0; -1, 0, 0; 0, 0, 1;", nil),
        ("  0, 1, 0; -1, 0, 0; 0, 0, 1 ; ", nil),
        ("0.5, 0, 0; 0, 0.866, 0.5; 0, -0.5, 0.866", nil),
        ("1, 0, 0; 0, 1, 0; 0, 0, 0", MountMatrix.Problem.zeroRow(3)),
        ("0, 1, 0; 1, 0, 0; 0, 0, 0", .zeroRow(3)),
        ("1, 0, 0; 0, 0, 1; 0, 0, 1", .zeroColumn(2)),
        ("1, 2, 3; 2, 4, 6; 0, 0, 1", .singular),
        ("1e-9, 0, 0; 0, 1, 0; 0, 0, 1", nil),   // small, but a mount all the same
        ("1, 0, 0; 1, 1e-9, 0; 0, 0, 1", .singular),
        ("0, 0, 0; 0, 0, 0; 0, 0, 0", .zeroRow(1)),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1;;", .shape),
        ("1, 0, 0; 0, 1, 0", .shape),
    ] as [(String, MountMatrix.Problem?)])
    func aMatrixThatCannotBeAMountIsRefusedByName(text: String, problem: MountMatrix.Problem?) {
        switch MountMatrix.parse(text) {
        case .success: #expect(problem == nil, "\(text) was taken")
        case .failure(let found): #expect(found == problem, "\(text): \(found)")
        }
    }

    /// systemd's own hwdb has two matrices whose third row repeats another (BUSH's Windows
    /// tablet, Insyde's i101c): refused, they left those devices on the identity and read
    /// bottom-up when held upright. Their first two rows are used, with a third made from them.
    @Test(arguments: [
        ("1, 0, 0; 0, -1, 0; 1, 0, 0", "1, 0, 0; 0, -1, 0; 0, 0, -1", [0, 9.8, 0]),
        ("0, 1, 0; -1, 0, 0; -1, 0, 0", "0, 1, 0; -1, 0, 0; 0, 0, 1", [9.8, 0, 0]),
    ])
    func aHwdbMatrixSingularInItsThirdRowOnlyUsesItsFirstTwo(udev: String, used: String, upright: [Double]) {
        let (matrix, source, warnings) = MountMatrixChoice.resolve(config: nil, udev: udev, sysfs: nil)
        #expect(source == .udev && matrix.description == used, "\(matrix)")
        #expect(warnings.count == 1 && warnings[0].contains("for its third row only"), "\(warnings)")
        // `calibrate` asks the same of udev's text, to print the entry to propose in its place.
        #expect(MountMatrix.repairedForItsThirdRow(udev) == matrix)
        #expect(MountMatrix.repairedForItsThirdRow(used) == nil, "a sound matrix is no repair")
        // What the sensor reads held upright (in its own, wrongly mounted axes) reads upright.
        let (x, y, _) = matrix.apply(upright[0], upright[1], upright[2])
        #expect(abs(x) < 1e-9 && y < 0, "\(x), \(y)")
        // One whose first two rows are no mount either is still refused.
        #expect(MountMatrixChoice.resolve(config: nil, udev: "1, 2, 3; 2, 4, 6; 0, 0, 1", sysfs: nil).source == .identity)
        #expect(MountMatrix.repairedForItsThirdRow("1, 2, 3; 2, 4, 6; 0, 0, 1") == nil)
        #expect(MountMatrixChoice.resolve(config: nil, udev: "1, 0, 0; 0, 1, 0; 0, 0, 0", sysfs: nil).source == .identity,
                "a row of zeros, which systemd's checker refuses, is refused")
    }

    @Test(arguments: [
        ("org.example.Game", "org.example.Game", true),
        ("org.example.*", "org.example.Game", true),
        ("*.Game", "org.example.Game", true),
        ("org.?xample.Game", "org.example.Game", true),
        ("org.example", "org.example.Game", false),
        ("eDP-*", "eDP-1", true),
        ("eDP-*", "HDMI-A-1", false),
        ("*", "", true),
        ("a*b*c", "aXbYbZc", true),
        ("a*b*c", "aXbYbZ", false),
    ])
    func globs(pattern: String, text: String, expected: Bool) {
        #expect(Glob.matches(pattern: pattern, text) == expected)
    }
}

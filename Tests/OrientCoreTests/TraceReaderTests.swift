import Testing
@testable import OrientCore

@Suite struct TraceReaderTests {
    func error(_ text: String) -> String? {
        if case .failure(let e) = TraceReader.parse(text, file: "t.csv") { return e.description }
        return nil
    }

    @Test func aWellFormedTraceParses() throws {
        let trace = try TraceReader.parse("""
            # wlr-orient-trace v1
            # device: tablet
            # scale: 0.5
            # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
            t,x,y,z
            0.004,12,-1022,40
            0.004,13,-1020,41

            0.020,-3,4,5
            """, file: "t.csv").get()
        #expect(trace.device == "tablet")
        #expect(trace.calibration.scale == 0.5)
        #expect(trace.calibration.mountMatrix == MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1"))
        #expect(trace.samples == [RawSample(t: 0.004, x: 12, y: -1022, z: 40), RawSample(t: 0.004, x: 13, y: -1020, z: 41),
                                  RawSample(t: 0.02, x: -3, y: 4, z: 5)])
        let v = trace.calibration.apply(trace.samples[0])
        #expect(v == Vector3(511, -6, 20))
    }

    @Test func windowsLineEndingsReadTheSame() throws {
        let unix = "# wlr-orient-trace v1\n# scale: 0.5\nt,x,y,z\n0.004,12,-1022,40\n0.020,-3,4,5\n"
        let windows = unix.replacingNewlines(with: "\r\n")
        #expect(windows.utf8.count == unix.utf8.count + 5)
        #expect(try TraceReader.parse(windows, file: "t.csv").get() == TraceReader.parse(unix, file: "t.csv").get())
    }

    @Test func writerOutputReadsBackTheSame() throws {
        let calibration = Calibration(scale: 0.019163, mountMatrix: try #require(MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 0, 0, -1")))
        let samples = [RawSample(t: 0.5, x: 1, y: -512, z: 3), RawSample(t: 12.0456, x: -1024, y: 0, z: 7)]
        let text = TraceWriter.header(device: "recorded", calibration: calibration) + samples.map(TraceWriter.line).joined()
        let trace = try TraceReader.parse(text, file: "t.csv").get()
        #expect(trace.calibration == calibration)
        #expect(trace.samples.map(\.x) == [1, -1024])
        #expect(trace.samples.map(\.t) == [0.5, 12.046])
        #expect(formatSeconds(0.0449) == "0.045")
        #expect(formatSeconds(1e300) == "1e+300")  // a malicious trace's time: printed, not trapped on
        #expect(formatSeconds(3) == "3.000")
    }

    @Test(arguments: [
        ("t,x,y,z\n0.1,1,2,3\n", "t.csv:1: not a wlr-orient trace: the first line must be '# wlr-orient-trace v1'"),
        ("", "t.csv:1: not a wlr-orient trace: the first line must be '# wlr-orient-trace v1'"),
        ("# wlr-orient-trace v1\n# scale: 1\n0.1,1,2\n", "t.csv:3: expected 't,x,y,z' (4 fields), got 3"),
        ("# wlr-orient-trace v1\n# scale: 1\n0.1,1,two,3\n", "t.csv:3: y is not a number: 'two'"),
        ("# wlr-orient-trace v1\n# scale: 1\nabc,1,2,3\n", "t.csv:3: t is not a number: 'abc'"),
        ("# wlr-orient-trace v1\n# scale: 1\n0.2,1,2,3\n0.1,1,2,3\n", "t.csv:4: time goes backwards: 0.1 after 0.2"),
        ("# wlr-orient-trace v1\n# scale: -2\n", "t.csv:2: scale must be a positive number, got '-2'"),
        ("# wlr-orient-trace v1\n# scale: 1\n# mount-matrix: 1, 0\n", "t.csv:3: mount-matrix must be three rows of three numbers ('a, b, c; d, e, f; g, h, i'), got '1, 0'"),
        ("# wlr-orient-trace v1\n0.1,1,2,3\n", "t.csv:1: missing '# scale: N' header line"),
        ("# wlr-orient-trace v1\n# scale: 1\n0.1,1,nan,3\n", "t.csv:3: y is not a number: 'nan'"),
    ])
    func malformedTracesNameTheLine(text: String, expected: String) {
        #expect(error(text) == expected)
    }
}

private extension String {
    func replacingNewlines(with ending: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: ending)
    }
}

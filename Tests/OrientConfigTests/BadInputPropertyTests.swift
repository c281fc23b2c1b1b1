import Foundation
import TestSupport
import PropertyBased
import Testing
@testable import OrientConfig
@testable import OrientCore

/// Whatever a user or a disk hands us — a mangled config, a damaged trace, a state file full of
/// junk — gives errors or defaults, never a crash (the plugin runs inside the compositor).
@Suite struct BadInputPropertyTests {
    static let cases = 2000

    /// Text built from pieces that look like TOML and traces, and pieces that do not.
    static let fragments = [
        "[device]", "[[app]]", "[detection]", "[transition]", "orientations = ", "\"landscape\"", "[\"all\",",
        "]", "[", "{", "}", "=", "match = \"*\"", "rate-hz = 1e308", "settle-ms = -0", "nan", "inf", "0x1F",
        "\"\\u0000\"", "'''", "\"\"\"", "# comment", "\n", "\n\n", ",", "1979-05-27T07:32:00Z", "true", "ü",
        "# wlr-orient-trace v1\n", "# scale: 0.01\n", "# mount-matrix: 1,0,0;0,1,0;0,0,1\n", "t,x,y,z\n",
        "0.1,1,2,3\n", "-1,2,3,4\n", "1e400,1,1,1\n", ",,,\n", "\r\n", "\t", " ", "felt = \"left-up\"",
        "lock = \"portrait\"", "a.b.c = 1", "x = [[1,2],[3]]", "k = {a = 1}",
    ]

    static let texts = Gen.int(in: 0...(fragments.count - 1)).array(of: 0...24).map { indices in
        indices.map { fragments[$0] }.joined()
    }

    /// As the plugin and the CLI load configs: through the parser shield (TOMLKit's parser
    /// aborts on some of these texts; without the shield this test takes its runner down).
    @Test func theConfigLoaderNeverCrashes() async {
        await propertyCheck(count: Self.cases, input: Self.texts) { text in
            switch ConfigLoader.load(text: text, file: "c.toml", shield: ForkedParseShield()) {
            case .success: break
            case .failure(let e):
                #expect(!e.diagnostics.isEmpty)
                #expect(e.diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 })
            }
        }
    }

    @Test func theTraceReaderNeverCrashes() async {
        await propertyCheck(count: Self.cases, input: Self.texts) { text in
            if case .failure(let e) = TraceReader.parse(text, file: "t.csv") {
                #expect(e.line >= 1)
            }
        }
    }

    @Test func theStateStoreNeverCrashesOnAJunkFile() async throws {
        let dir = try makeTemporaryDirectory()
        let store = StateStore(directory: dir, shield: ForkedParseShield())
        await propertyCheck(count: 300, input: Self.texts) { text in
            try? text.write(toFile: dir + "/state.toml", atomically: true, encoding: .utf8)
            let (state, warnings) = store.load()
            // Junk is named, never half-read in silence: without a warning the file held a state,
            // which reads back the same once saved; every warning names the file.
            #expect(warnings.allSatisfy { $0.hasPrefix(store.file + ":") }, "\(warnings)")
            if warnings.isEmpty {
                try? store.write(state)
                #expect(store.load().state == state)
            }
        }
    }

    @Test func theDetectorNeverCrashesOnAnyNumbers() async {
        // Mostly plausible readings, one in three a value no sensor should give.
        let special: [Double] = [.nan, .infinity, -.infinity, 0, 1e308, -1e308]
        let values = zip(Gen.int(in: 0...17), Gen.double(in: -1e6...1e6)).map { pick, v in pick < special.count ? special[pick] : v }
        await propertyCheck(count: Self.cases, input: values, values, values, Gen.double(in: -10...1e6)) { x, y, z, t in
            // Held upright first; then the numbers: one that is not finite changes nothing.
            var d = Detector()
            for i in 0..<60 { _ = d.add(Vector3(0, -9.6, -1.7), at: t - 2 + Double(i) * 0.02) }
            let before = d.felt
            _ = d.add(Vector3(x, y, z), at: t)
            _ = d.add(Vector3(y, z, x), at: t + 0.02)
            _ = d.add(Vector3(z, x, y), at: t - 1)
            _ = d.quietFor(at: t)
            #expect(before == .normal)
            if ![x, y, z].allSatisfy(\.isFinite) { #expect(d.felt == before, "\(x), \(y), \(z)") }
        }
    }

    @Test func hugeReadingsOfAlternatingSignDoNotPoisonTheFilter() {
        var d = Detector()
        for i in 0..<50 {
            let big = i.isMultiple(of: 2) ? 1e308 : -1e308
            _ = d.add(Vector3(big, -big, big), at: Double(i) * 0.02)
            _ = d.add(Vector3(1e150, 1e150, -1e150), at: Double(i) * 0.02 + 0.01)
        }
        for i in 50..<120 { _ = d.add(Vector3(9.8, 0, 0), at: Double(i) * 0.02) }
        #expect(d.felt == .leftUp)
        #expect(d.droppedSamples == 100)
    }
}

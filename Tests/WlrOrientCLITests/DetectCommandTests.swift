import Foundation
import TestSupport
import Testing

/// `wlr-orient detect`, run as the scorer and users run it.
@Suite struct DetectCommandTests {
    static let publicTraces: [String] = {
        let dir = repositoryRoot.appendingPathComponent("Tests/Fixtures/traces/public").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { dir + "/" + $0 }
    }()

    @Test func printsOneJSONLinePerChange() throws {
        let trace = try #require(Self.publicTraces.first)
        let r = try run(wlrOrientExecutable, ["detect", trace])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["t"] is Double || object["t"] is Int)
            #expect(["normal", "left-up", "right-up", "bottom-up"].contains(object["orientation"] as? String ?? ""))
        }
    }

    @Test func theSameTraceGivesByteIdenticalOutputOnEveryRun() throws {
        #expect(Self.publicTraces.count == 30)
        let first = try run(wlrOrientExecutable, ["detect"] + Self.publicTraces)
        let second = try run(wlrOrientExecutable, ["detect"] + Self.publicTraces)
        #expect(first.status == 0)
        #expect(first.stdout.utf8.count > 1000)
        #expect(first.stdout == second.stdout)
        // One trace alone gives the same lines as within a batch (no state leaks between traces).
        let alone = try run(wlrOrientExecutable, ["detect", Self.publicTraces[3]])
        #expect(first.stdout.contains(alone.stdout))
    }

    @Test func aMalformedTraceExitsOneWithFileAndLine() throws {
        let dir = try makeTemporaryDirectory()
        let cases = [
            ("header.csv", "t,x,y,z\n0.1,1,2,3\n", ":1: not a wlr-orient trace"),
            ("number.csv", "# wlr-orient-trace v1\n# scale: 1\nt,x,y,z\n0.1,1,2,3\n0.2,1,x,3\n", ":5: y is not a number"),
            ("backwards.csv", "# wlr-orient-trace v1\n# scale: 1\n0.3,1,2,3\n0.2,1,2,3\n", ":4: time goes backwards"),
        ]
        for (name, text, message) in cases {
            let path = dir + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let r = try run(wlrOrientExecutable, ["detect", path])
            #expect(r.status == 1, "\(name)")
            #expect(r.stderr.hasPrefix(path + message), "\(name): \(r.stderr)")
        }
        let missing = try run(wlrOrientExecutable, ["detect", dir + "/absent.csv"])
        #expect(missing.status == 1)
        #expect(missing.stderr == dir + "/absent.csv: cannot read the trace: there is no such file\n")
    }

    @Test func detectionTunablesComeFromAConfigFile() throws {
        let dir = try makeTemporaryDirectory()
        try "[detection]\nsettle-ms = 4000\n".write(toFile: dir + "/slow.toml", atomically: true, encoding: .utf8)
        let trace = Self.publicTraces[3]
        let normal = try run(wlrOrientExecutable, ["detect", trace])
        let slow = try run(wlrOrientExecutable, ["detect", "--config", dir + "/slow.toml", trace])
        #expect(slow.status == 0)
        #expect(slow.stdout != normal.stdout)
    }
}

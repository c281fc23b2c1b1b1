import Foundation
import TestSupport
import Testing

/// Scores `wlr-orient detect` with tools/score.py on labelled traces and fails on any
/// regression past the figures the detector was built to meet. Needs python3 (scripts/install-deps.sh installs it).
@Suite(.serialized) struct TraceCorpusTests {
    struct Score {
        var accuracy: Double
        var spurious: Int
        var p90: Int?, p95: Int?, max: Int?
        var misses: Int
        var initialMax: Int?
        var initialWrong: Int
        var errors: Int
        var flatStartEarly: Int
    }

    /// - Parameter sampling: `all` feeds every reading of a trace; `live` only those the live
    ///   sensor would have read, following its sampling plan (slow while the device is still).
    func score(_ traces: String, sampling: String = "all") throws -> Score {
        let out = try makeTemporaryDirectory() + "/score.json"
        let r = try run("/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("tools/score.py").path,
                                         "--detector", "\(wlrOrientExecutable) detect --sampling \(sampling)", "--traces", traces,
                                         "--json-out", out, "--summary-only"])
        #expect(r.status == 0, "score.py failed: \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let latency = try #require(json["latency_ms"] as? [String: Any])
        let initial = try #require(json["initial"] as? [String: Any])
        // On a flat start, any line before the pick-up is spurious ("initial_flat" segments).
        let kinds = json["spurious_by_kind"] as? [String: Int] ?? [:]
        print("corpus \(traces): \(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
        return Score(accuracy: json["accuracy"] as? Double ?? 0, spurious: json["spurious"] as? Int ?? -1,
                     p90: latency["p90"] as? Int, p95: latency["p95"] as? Int, max: latency["max"] as? Int,
                     misses: latency["misses"] as? Int ?? -1, initialMax: initial["max_ms"] as? Int,
                     initialWrong: (initial["wrong"] as? Int ?? 1) + (initial["none"] as? Int ?? 1),
                     errors: (json["errors"] as? [Any])?.count ?? -1, flatStartEarly: kinds["initial_flat"] ?? 0)
    }

    func fixtures(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/traces/\(name)").path
    }

    @Test(arguments: ["all", "live"])
    func thePublicTracesMeetIssue3sFigures(sampling: String) throws {
        let s = try score(fixtures("public"), sampling: sampling)
        #expect(s.errors == 0)
        #expect(s.accuracy == 100)
        #expect(s.spurious == 0)
        #expect(s.misses == 0)
        #expect((s.p90 ?? .max) <= 200)
        #expect((s.p95 ?? .max) <= 250)
        #expect((s.max ?? .max) <= 500)
        #expect((s.initialMax ?? .max) <= 300)
        #expect(s.initialWrong == 0)
        #expect(s.flatStartEarly == 0)
    }

    @Test func ourEdgeCasesPass() throws {
        let s = try score(fixtures("edge"))
        #expect(s.errors == 0)
        #expect(s.accuracy == 100)
        #expect(s.spurious == 0)
        // Our pivot scenario turns 90° in 0.4 s about a point 30 cm away (1.6 g centripetal):
        // harsher than the public traces, so the bound is looser.
        #expect((s.max ?? .max) <= 300)
        #expect(s.initialWrong == 0)
        #expect(s.flatStartEarly == 0)
    }

    /// Traces from seeds nobody tuned on: a guard against fitting the fixtures.
    @Test(arguments: ["all", "live"])
    func aFreshlyGeneratedValidationSetPasses(sampling: String) throws {
        let dir = try makeTemporaryDirectory()
        let gen = try run("/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("tools/synth-traces.py").path,
                                           "--out", dir, "--seed", "3", "--count", "20"])
        #expect(gen.status == 0, "\(gen.stderr)")
        let s = try score(dir, sampling: sampling)
        #expect(s.errors == 0)
        #expect(s.accuracy == 100)
        #expect(s.spurious == 0)
        // Generated sensor gaps may swallow a motion's end, so the maximum is not bounded here;
        // fast turns about a distant pivot are more common than in the public set (see above).
        #expect((s.p95 ?? .max) <= 300)
        #expect(s.initialWrong == 0)
    }
}

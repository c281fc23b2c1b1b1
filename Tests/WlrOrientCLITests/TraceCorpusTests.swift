import Foundation
import TestSupport
import Testing

/// Scores `wlr-orient detect` with tools/score.py on every labelled corpus and fails when a figure
/// is worse than its ceiling in Tests/Fixtures/traces/ceilings.json: the public synthetic set, our
/// edge cases, a validation set generated afresh, real human motion (real-sweeps, real-walk) and a
/// tablet's handling modelled on it (handheld).
/// Needs python3 (scripts/install-deps.sh installs it).
@Suite(.serialized) struct TraceCorpusTests {
    struct Ceiling: Decodable, CustomTestStringConvertible {
        var corpus: String
        var sampling: String
        var false_turns: Int?
        var misses: Int?
        var accuracy_min: Double?
        var p95_ms: Int?
        var max_ms: Int?
        var initial_max_ms: Int?
        var initial_wrong: Int?
        var testDescription: String { "\(corpus), sampling \(sampling)" }
    }

    static let ceilings: [Ceiling] = {
        struct File: Decodable { var ceilings: [Ceiling] }
        let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/traces/ceilings.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.ceilings
    }()

    @Test func theCeilingsFileIsReadAndCoversEveryCorpus() {
        let corpora = Set(Self.ceilings.map(\.corpus))
        #expect(corpora == ["public", "real-sweeps", "real-walk", "handheld", "edge", "validation"])
    }

    @Test(arguments: ceilings)
    func noFigureIsWorseThanItsCeiling(_ ceiling: Ceiling) throws {
        let traces = try folder(ceiling.corpus)
        let out = try makeTemporaryDirectory() + "/score.json"
        let r = try run("/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("tools/score.py").path,
                                         "--detector", "\(wlrOrientExecutable) detect --sampling \(ceiling.sampling)",
                                         "--traces", traces, "--json-out", out, "--summary-only"])
        try #require(r.status == 0, "score.py failed: \(r.stderr)")
        print("corpus \(ceiling.corpus) \(ceiling.sampling): \(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let latency = try #require(json["latency_ms"] as? [String: Any])
        let initial = try #require(json["initial"] as? [String: Any])
        #expect((json["errors"] as? [Any])?.count == 0, "the detector failed on a trace")
        // On a flat start, any line before the pick-up is a false turn ("initial_flat" segments).
        if let most = ceiling.false_turns { #expect(try #require(json["spurious"] as? Int) <= most) }
        if let most = ceiling.misses { #expect(try #require(latency["misses"] as? Int) <= most) }
        if let least = ceiling.accuracy_min { #expect(try #require(json["accuracy"] as? Double) >= least) }
        if let most = ceiling.p95_ms { #expect(try #require(latency["p95"] as? Int) <= most) }
        if let most = ceiling.max_ms { #expect(try #require(latency["max"] as? Int) <= most) }
        if let most = ceiling.initial_max_ms { #expect(try #require(initial["max_ms"] as? Int) <= most) }
        if let most = ceiling.initial_wrong {
            #expect(try #require(initial["wrong"] as? Int) + (try #require(initial["none"] as? Int)) <= most)
        }
    }

    /// The corpus's folder; `validation` is generated afresh (seeds nobody tuned on).
    func folder(_ corpus: String) throws -> String {
        guard corpus == "validation" else {
            return repositoryRoot.appendingPathComponent("Tests/Fixtures/traces/\(corpus)").path
        }
        let dir = try makeTemporaryDirectory()
        let gen = try run("/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("tools/synth-traces.py").path,
                                           "--out", dir, "--seed", "3", "--count", "20"])
        try #require(gen.status == 0, "\(gen.stderr)")
        return dir
    }
}

import Foundation
import Testing

/// OrientCore holds every decision and must stay portable and testable without wlroots:
/// it may import only Swift modules. This fails the suite if a C module creeps in.
@Suite struct CoreImportsTests {
    static let allowed: Set<String> = ["Foundation", "FoundationEssentials", "TOMLKit"]

    @Test func orientCoreImportsNoCModule() throws {
        let dir = repositoryRoot.appendingPathComponent("Sources/OrientCore")
        let files = try #require(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5)
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "internal" || $0 == "private" }) else { continue }
                guard i + 1 < words.count else { continue }
                // `import struct Foundation.Data` names the module after the kind.
                let target = ["struct", "class", "enum", "func", "protocol", "typealias", "var", "let"].contains(words[i + 1]) && i + 2 < words.count ? words[i + 2] : words[i + 1]
                let module = String(target.split(separator: ".").first ?? "")
                #expect(Self.allowed.contains(module), "\(file): imports \(module), which OrientCore must not")
            }
        }
    }
}

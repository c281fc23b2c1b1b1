import Foundation
import TestSupport
import Testing

/// OrientCore holds every decision and must stay portable and testable without wlroots, and
/// light enough for the plugin: it may import only the C library (for libm), not Foundation, not
/// a parser. Reading TOML lives in OrientConfig, which may add Foundation and TOMLKit only.
/// This fails the suite if anything else creeps in.
@Suite struct CoreImportsTests {
    func imports(of module: String) throws -> [(file: String, module: String)] {
        let dir = repositoryRoot.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 3)
        var found: [(String, String)] = []
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "internal" || $0 == "private" }) else { continue }
                guard i + 1 < words.count else { continue }
                // `import struct Foundation.Data` names the module after the kind.
                let target = ["struct", "class", "enum", "func", "protocol", "typealias", "var", "let"].contains(words[i + 1]) && i + 2 < words.count ? words[i + 2] : words[i + 1]
                found.append((file, String(target.split(separator: ".").first ?? "")))
            }
        }
        return found
    }

    @Test func orientCoreImportsOnlyTheCLibrary() throws {
        for (file, module) in try imports(of: "OrientCore") {
            #expect(module == "Glibc", "\(file): imports \(module), which OrientCore must not")
        }
    }

    @Test func orientConfigImportsOnlyFoundationAndTOMLKit() throws {
        for (file, module) in try imports(of: "OrientConfig") {
            #expect(["OrientCore", "Foundation", "TOMLKit"].contains(module), "\(file): imports \(module)")
        }
    }
}

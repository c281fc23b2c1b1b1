import Foundation
import TestSupport
import Testing

/// OrientCore holds every decision and must stay portable and testable without wlroots, and
/// light enough for the plugin: it may import only the C library (for libm), not Foundation, not
/// a parser. Reading TOML lives in OrientConfig, which may add TOMLKit only.
/// This fails the suite if anything else creeps in.
@Suite struct CoreImportsTests {
    func imports(of module: String, atLeast fileCount: Int = 4) throws -> [(file: String, module: String)] {
        let dir = repositoryRoot.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count >= fileCount, "Sources/\(module): \(files.count) files")
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

    @Test func orientConfigImportsOnlyTOMLKitAndTheSystemLayer() throws {
        for (file, module) in try imports(of: "OrientConfig") {
            #expect(["OrientCore", "OrientSystem", "Glibc", "TOMLKit"].contains(module), "\(file): imports \(module)")
        }
    }

    /// What is installed imports FoundationEssentials at most, never all of Foundation: that one
    /// brings swift-corelibs-foundation and ICU's data, 43 MB of the CLI when it came in.
    @Test func nothingInstalledImportsAllOfFoundation() throws {
        for module in ["OrientCore", "OrientConfig", "OrientDesktop", "OrientSystem", "OrientSensor", "OrientService",
                       "OrientDaemon", "WlrOrientPlugin", "wlr-orient"] {
            for (file, imported) in try imports(of: module, atLeast: 1) {
                #expect(!["Foundation", "FoundationInternationalization"].contains(imported), "\(module)/\(file): imports \(imported)")
            }
        }
    }

    /// The C library is called from the system layer (OrientSystem) and from
    /// the edges that face C libraries. This is the list of files that still import Glibc; it
    /// may only shrink, as their calls move into OrientSystem (a new file that needs a libc call
    /// asks OrientSystem for it instead).
    static let filesThatMayImportGlibc: Set<String> = [
        // The system layer.
        "OrientSystem/ChildProcess.swift", "OrientSystem/Clock.swift", "OrientSystem/ForkedTrial.swift", "OrientSystem/DirectoryWatch.swift", "OrientSystem/FDSet.swift",
        "OrientSystem/Files.swift", "OrientSystem/PathWatch.swift", "OrientSystem/SystemError.swift",
        "OrientSystem/UnixSocketAddress.swift", "OrientSystem/FileDescriptor.swift", "OrientSystem/UnixSocket.swift",
        "OrientSystem/Threads.swift", "OrientSystem/Environment.swift", "OrientSystem/Formatting.swift",
        // libm for the core's geometry (sqrt, atan2...).
        "OrientCore/Detector.swift", "OrientCore/Sensor/ReadingMode.swift", "OrientCore/Transition/TransitionRun.swift",
        // The edges: libiio and sysfs, Wayland clients and evdev.
        "OrientSensor/Accelerometer.swift", "OrientSensor/IIO.swift", "OrientSensor/PollLoop.swift",
        "OrientDaemon/Daemon.swift", "OrientDaemon/Shield.swift", "OrientDaemon/TabletSwitches.swift",
        // Reading a user's file: what stat and read say, in the user's words.
        "OrientConfig/UserFile.swift",
        "wlr-orient/SensorLoop.swift",
    ]

    @Test func onlyTheSystemLayerAndTheCEdgesImportGlibc() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var importing: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if text.split(separator: "\n").contains(where: { $0.split(separator: " ").prefix(2) == ["import", "Glibc"] }) {
                importing.insert(file)
            }
        }
        #expect(importing.subtracting(Self.filesThatMayImportGlibc).isEmpty,
                "import Glibc where it may not be: \(importing.subtracting(Self.filesThatMayImportGlibc).sorted())")
        // A file that no longer needs it leaves the list, so that the list stays the truth.
        #expect(Self.filesThatMayImportGlibc.subtracting(importing).isEmpty,
                "no longer import Glibc (take them off the list): \(Self.filesThatMayImportGlibc.subtracting(importing).sorted())")
    }
}

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

    /// The C library is called from the system layer (OrientSystem), which wraps each call in a
    /// typed one (`FileDescriptor`, `SharedMemory`, `SystemError`...). Elsewhere only these calls
    /// are made, by file: libm's, and the few at the edges that face C libraries or the kernel
    /// with nothing to wrap. A file that imports Glibc is listed, with no call if it uses only
    /// errno's names. The list may only shrink: a new need asks OrientSystem for a wrapper.
    static let libcCallsOutsideTheSystemLayer: [String: Set<String>] = [
        // libm for the core's geometry.
        "OrientCore/Detector.swift": ["asin", "atan2"],
        "OrientCore/DirectionHistory.swift": ["acos"],
        "OrientCore/HoldTracker.swift": ["cos"],
        "OrientCore/Sensor/ReadingMode.swift": ["log10"],
        "OrientCore/Transition/TransitionRun.swift": ["cos", "sin"],
        "OrientCore/Sensor/MountSolver.swift": ["acos", "asin", "atan2", "cos", "sin"],
        "OrientCore/Sensor/MountCalibration.swift": ["acos"],
        // The kernel's IIO event-fd request: one ioctl, with no call to share it with.
        "OrientSensor/IIO.swift": ["ioctl"],
        // errno's names, for libiio's and udev's failures.
        "OrientSensor/Accelerometer.swift": [],
        // errno's names after libwayland's calls, which report failure only through errno.
        "OrientDaemon/Daemon.swift": [],
        // errno's names a user is told in words (a socket, a directory).
        "OrientConfig/UserFile.swift": [],
        // A handler that only sets a flag the sensor loop reads (an orderly end with its file
        // written), where OrientSystem's Termination would end the process on a timer.
        "wlr-orient/SensorLoop.swift": ["signal"],
        // A benchmark that links the core only.
        "orient-bench/main.swift": ["exit"],
    ]

    /// The functions the C library and libm define, as the test process has them loaded.
    static func cLibraryFunctions() throws -> Set<String> {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let loaded = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init),
                  path.hasPrefix("/") else { return nil }
            return path
        })
        let libc = try #require(loaded.first { $0.hasSuffix("/libc.so.6") }, "no libc.so.6 in /proc/self/maps")
        // libm is glibc's too, beside libc (loaded or not: the test process may not need it).
        let libm = loaded.first { $0.hasSuffix("/libm.so.6") } ?? (libc.dropLast("libc.so.6".count) + "libm.so.6")
        let libraries = [libc, libm]
        var functions: Set<String> = []
        for library in libraries {
            let nm = try run("/usr/bin/env", ["nm", "-D", "--defined-only", library])
            try #require(nm.status == 0, "nm -D \(library): \(nm.stderr)")
            for line in nm.stdout.split(separator: "\n") {
                // "0000000000114a20 T read@@GLIBC_2.2.5": T/W a function, i an indirect one.
                let fields = line.split(separator: " ")
                guard fields.count == 3, ["T", "W", "i"].contains(fields[1]) else { continue }
                functions.insert(String(fields[2].prefix { $0 != "@" }))
            }
        }
        #expect(functions.count > 1000, "\(functions.count) functions in \(libraries.sorted())")
        return functions
    }

    /// `text` with comments and string literals taken out, but the code interpolated into the
    /// strings kept (`"\\(String(cString: strerror(errno)))"` calls strerror).
    static func codeOnly(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var i = 0
        var out: [UInt8] = []
        skimCode(bytes, &i, &out, inInterpolation: false)
        return String(decoding: out, as: UTF8.self)
    }

    private static func skimCode(_ s: [UInt8], _ i: inout Int, _ out: inout [UInt8], inInterpolation: Bool) {
        var depth = 0
        func at(_ k: Int) -> UInt8 { k < s.count ? s[k] : 0 }
        while i < s.count {
            let c = s[i]
            if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "/") {
                while i < s.count, s[i] != UInt8(ascii: "\n") { i += 1 }
            } else if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") {
                var nesting = 0
                repeat {
                    if at(i) == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") { nesting += 1; i += 2 }
                    else if at(i) == UInt8(ascii: "*"), at(i + 1) == UInt8(ascii: "/") { nesting -= 1; i += 2 }
                    else { i += 1 }
                } while nesting > 0 && i < s.count
                out.append(UInt8(ascii: " "))
            } else if c == UInt8(ascii: "\"") {
                skimString(s, &i, &out, hashes: 0)
            } else if c == UInt8(ascii: "#") {
                var hashes = 0
                while at(i + hashes) == UInt8(ascii: "#") { hashes += 1 }
                if at(i + hashes) == UInt8(ascii: "\"") {
                    i += hashes
                    skimString(s, &i, &out, hashes: hashes)
                } else {
                    out.append(c)
                    i += 1
                }
            } else {
                if inInterpolation {
                    if c == UInt8(ascii: "(") { depth += 1 }
                    if c == UInt8(ascii: ")") {
                        if depth == 0 { i += 1; return }
                        depth -= 1
                    }
                }
                out.append(c)
                i += 1
            }
        }
    }

    /// From the opening quote: past the literal, leaving `""` and what is interpolated.
    private static func skimString(_ s: [UInt8], _ i: inout Int, _ out: inout [UInt8], hashes: Int) {
        func at(_ k: Int) -> UInt8 { k < s.count ? s[k] : 0 }
        let quote = UInt8(ascii: "\"")
        let multiline = at(i + 1) == quote && at(i + 2) == quote
        i += multiline ? 3 : 1
        out.append(contentsOf: [quote, quote])
        func closes(_ k: Int) -> Int? {
            let quotes = multiline ? 3 : 1
            guard (0..<quotes).allSatisfy({ at(k + $0) == quote }), (0..<hashes).allSatisfy({ at(k + quotes + $0) == UInt8(ascii: "#") })
            else { return nil }
            return quotes + hashes
        }
        while i < s.count {
            if let length = closes(i) { i += length; return }
            if s[i] == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ at(i + 1 + $0) == UInt8(ascii: "#") }) {
                i += 1 + hashes
                if at(i) == UInt8(ascii: "(") {
                    i += 1
                    out.append(contentsOf: Array(" (".utf8))
                    skimCode(s, &i, &out, inInterpolation: true)
                    out.append(contentsOf: Array(") ".utf8))
                } else {
                    i += 1   // the escaped character
                }
                continue
            }
            i += 1
        }
    }

    static func matches(_ pattern: String, in text: String, group: Int = 1) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    /// The C library's functions each file outside the system layer calls: `name(` where no `.`
    /// or word comes just before and the module declares nothing of that name itself (its own
    /// `read(` or `log(` is its own), and any `Glibc.name(`.
    static func libcCalls() throws -> (calls: [String: Set<String>], importing: Set<String>) {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let functions = try cLibraryFunctions()
            // The standard library's own free function of that name comes first.
            .subtracting(["abs"])
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("OrientSystem/") }
        var code: [String: String] = [:]
        var importing: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            code[file] = codeOnly(text)
            // Foundation and FoundationEssentials bring the C library with them.
            let reaching: Set<Substring> = ["Glibc", "Foundation", "FoundationEssentials", "Musl"]
            if text.split(separator: "\n").contains(where: { line in
                let words = line.split(separator: " ")
                return words.count >= 2 && words[0] == "import" && reaching.contains(words[1])
            }) { importing.insert(file) }
        }
        var declared: [Substring: Set<String>] = [:]
        for (file, text) in code {
            let module = file.split(separator: "/")[0]
            declared[module, default: []].formUnion(try matches(#"\b(?:func|case|var|let)\s+`?([A-Za-z_]\w*)"#, in: text))
            // `case a, b(Int), c`: every case of the list.
            for list in try matches(#"\bcase\s+([^:{=\n]*)"#, in: text) {
                declared[module, default: []].formUnion(try matches(#"(?:^|,)\s*\.?([A-Za-z_]\w*)"#, in: list))
            }
        }
        var calls: [String: Set<String>] = [:]
        for (file, text) in code {
            let module = file.split(separator: "/")[0]
            let free = Set(try matches(#"(?<![\w.])([A-Za-z_]\w*)\s*\("#, in: text))
                .intersection(functions).subtracting(declared[module] ?? [])
            let qualified = Set(try matches(#"\bGlibc\.([A-Za-z_]\w*)\s*\("#, in: text))
            if !free.isEmpty || !qualified.isEmpty { calls[file] = free.union(qualified) }
        }
        return (calls, importing)
    }

    @Test func theCLibraryIsCalledOnlyThroughTheSystemLayerButForTheListedCalls() throws {
        let (calls, importing) = try Self.libcCalls()
        let allowed = Self.libcCallsOutsideTheSystemLayer
        for (file, names) in calls.sorted(by: { $0.key < $1.key }) {
            let extra = names.subtracting(allowed[file] ?? [])
            #expect(extra.isEmpty, "\(file) calls \(extra.sorted()) of the C library: ask OrientSystem for it (or list it, with why)")
        }
        for (file, names) in allowed.sorted(by: { $0.key < $1.key }) {
            // A call no longer made leaves the list, so that the list stays the truth.
            let gone = names.subtracting(calls[file] ?? [])
            #expect(gone.isEmpty, "\(file) no longer calls \(gone.sorted()): take them off the list")
            #expect(importing.contains(file) || !(calls[file] ?? []).isEmpty, "\(file) reaches no C library: take it off the list")
        }
    }

    /// Glibc is imported in the system layer and in the files listed above only.
    @Test func onlyTheSystemLayerAndTheListedFilesImportGlibc() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("OrientSystem/") }
        var importing: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if text.split(separator: "\n").contains(where: { $0.split(separator: " ").prefix(2) == ["import", "Glibc"] }) {
                importing.insert(file)
            }
        }
        let listed = Set(Self.libcCallsOutsideTheSystemLayer.keys)
        #expect(importing.subtracting(listed).isEmpty, "import Glibc where it may not be: \(importing.subtracting(listed).sorted())")
    }

    /// The scan itself: what it counts as a call, and what it does not.
    @Test func theScanSeesCallsInInterpolationsAndNotInCommentsOrText() {
        let text = ##"""
        // close(fd) in a comment
        /* open( /* nested */ mmap( */
        let a = "poll( in text \(strerror(errno)) and \("(" + "nested)")"
        let b = #"raw "\(free(x)) \#(exit(1))"#
        let c = """
            ioctl( in a block \(signal(s))
            """
        """##
        let code = Self.codeOnly(text)
        for name in ["strerror(", "exit(", "signal("] { #expect(code.contains(name), "\(name) in \(code)") }
        for name in ["close(", "open(", "mmap(", "poll(", "free(", "ioctl("] { #expect(!code.contains(name), "\(name) in \(code)") }
    }
}

import Foundation
import OrientSystem
import Testing

/// The pages a process gives back once it has started, against the real kernel.
@Suite struct StartupPagesTests {
    /// Resident kB of the read-only mappings of this test program's own file.
    func residentOfOwnProgram() throws -> Int {
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var counted = false
        var kB = 0
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {   // a mapping's first line
                counted = fields.count > 5 && fields[5] == program && !fields[1].contains("w")
            } else if counted, fields.count == 3, fields[0] == "Rss:", let value = Int(fields[1]) {
                kB += value
            }
        }
        return kB
    }

    @Test func theProgramsOwnReadOnlyPagesGoBack() throws {
        let before = try residentOfOwnProgram()
        try #require(before > 512, "this program holds \(before) kB of its own file: nothing to give back")
        #expect(StartupPages.release() >= before * 1024)
        // Other suites run meanwhile and bring back what they run: far less than all of it.
        let after = try residentOfOwnProgram()
        #expect(after < before / 2, "resident of its own file: \(before) kB before, \(after) kB after")
    }
}

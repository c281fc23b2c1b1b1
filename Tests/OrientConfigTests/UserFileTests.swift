import Foundation
import TestSupport
import Testing
@testable import OrientConfig
@testable import OrientCore

/// Every file the CLI and the helper read is checked to be a regular
/// file of sane size before a byte is read, so a FIFO or a huge file costs an error, not a hang.
@Suite struct UserFileTests {
    @Test func aFIFOIsRefusedAtOnceNotWaitedOn() throws {
        let path = try makeTemporaryDirectory() + "/config.toml"
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        let result = UserFile.read(path)
        #expect(Date().timeIntervalSince(started) < 5, "a FIFO without a writer must not block the reader")
        #expect(result == .failure(.notRegular(path, kind: "a FIFO (named pipe)")))
        #expect(UserFile.Problem.notRegular(path, kind: "a FIFO (named pipe)").description
                == "\(path): it is a FIFO (named pipe), not a regular file")
    }

    @Test func aFileLargerThanItsLimitIsRefusedWithItsSize() throws {
        let path = try makeTemporaryDirectory() + "/state.toml"
        try String(repeating: "# padding\n", count: 120_000).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(UserFile.read(path, limit: 64 << 10) == .failure(.tooLarge(path, bytes: 1_200_000, limit: 64 << 10)))
        #expect(UserFile.Problem.tooLarge(path, bytes: 1_200_000, limit: 64 << 10).reason
                == "it is 1.2 MB, larger than 64 KiB, the most such a file may be")
    }

    @Test func aDeviceIsRefused() {
        guard case .failure(.notRegular(_, let kind)) = UserFile.read("/dev/zero") else {
            Issue.record("/dev/zero was read")
            return
        }
        #expect(kind == "a character device")
    }

    @Test func aRegularFileWithinItsLimitIsRead() throws {
        let path = try makeTemporaryDirectory() + "/c.toml"
        try "scope = \"focused\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(UserFile.read(path, limit: 18) == .success("scope = \"focused\"\n"))
        #expect(UserFile.read(path, limit: 17) == .failure(.tooLarge(path, bytes: 18, limit: 17)))
    }

    @Test func aFIFOOrAHugeFileAsTheSavedStateCostsTheStateOnlyAndNamesIt() throws {
        for make in ["fifo", "huge"] {
            let dir = try makeTemporaryDirectory()
            let file = dir + "/state.toml"
            if make == "fifo" {
                #expect(mkfifo(file, 0o600) == 0)
            } else {
                // Valid TOML: a lock and padding, 1.2 MB in all.
                try ("lock = \"landscape\"\n" + String(repeating: "# padding\n", count: 120_000))
                    .write(toFile: file, atomically: true, encoding: .utf8)
            }
            let (state, warnings) = StateStore(directory: dir).load()
            #expect(state == PersistentState())
            #expect(warnings.count == 1 && warnings[0].hasPrefix(file + ": "), "\(warnings)")
            #expect(warnings.allSatisfy { $0.contains("using defaults") })
        }
    }

    @Test func aConfigThatIsAFIFOOrTooLargeGetsAMessageNamingWhy() throws {
        let dir = try makeTemporaryDirectory()
        let fifo = dir + "/fifo.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        guard case .failure(let e) = ConfigLoader.load(path: fifo) else { Issue.record("a FIFO was read as a config"); return }
        #expect(e.diagnostics.map(\.description) == ["\(fifo):1:1: cannot use it as a config: it is a FIFO (named pipe), not a regular file"])

        let big = dir + "/big.toml"
        try String(repeating: "x = 1\n", count: 300_000).write(toFile: big, atomically: true, encoding: .utf8)
        guard case .failure(let f) = ConfigLoader.load(path: big) else { Issue.record("a 1.8 MB config was read"); return }
        #expect(f.diagnostics.map(\.description) == ["\(big):1:1: cannot use it as a config: it is 1.8 MB, larger than 1 MiB, the most such a file may be"])
    }
}

import Testing
@testable import OrientConfig
import OrientCore

/// `calibrate --write`: the person's config keeps every byte but the one line that sets the matrix.
struct MountMatrixSettingTests {
    static let matrix = MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")!

    static func set(_ text: String) -> Result<String, MountMatrixSetting.Problem> {
        MountMatrixSetting.set(matrix, in: text, file: "config.toml")
    }

    /// The lines that differ, as (before, after) pairs; the texts must have as many lines.
    static func changed(_ a: String, _ b: String) -> [(String, String)] {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false), y = b.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(x.count == y.count)
        return zip(x, y).filter { $0 != $1 }.map { (String($0), String($1)) }
    }

    @Test func theLineThatSetsItIsTheOnlyOneChangedWithItsCommentAndIndentation() throws {
        let text = """
            # my tablet
            scope = "focused"   # what counts

            [device]
              outputs = ["eDP-1"]
              mount-matrix = "1, 0, 0; 0, 1, 0; 0, 0, 1"  # guessed, wrong

            [[app]]
            match = "mpv"
            orientations = "landscape"

            """
        let after = try Self.set(text).get()
        let diff = Self.changed(text, after)
        #expect(diff.count == 1)
        #expect(diff.first?.1 == "  mount-matrix = \"0, -1, 0; 1, 0, 0; 0, 0, 1\"  # guessed, wrong")
    }

    @Test func withoutTheKeyItGoesRightUnderTheDeviceHeader() throws {
        let text = "[device]\noutputs = [\"eDP-1\"]\n\n[detection]\nhysteresis-deg = 12\n"
        let after = try Self.set(text).get()
        #expect(after == "[device]\nmount-matrix = \"0, -1, 0; 1, 0, 0; 0, 0, 1\"\noutputs = [\"eDP-1\"]\n\n[detection]\nhysteresis-deg = 12\n")
    }

    @Test func withoutADeviceTableOneIsAddedAtTheEnd() throws {
        #expect(try Self.set("").get() == "[device]\nmount-matrix = \"0, -1, 0; 1, 0, 0; 0, 0, 1\"\n")
        #expect(try Self.set("scope = \"focused\"").get() == "scope = \"focused\"\n\n[device]\nmount-matrix = \"0, -1, 0; 1, 0, 0; 0, 0, 1\"\n")
        #expect(try Self.set("scope = \"focused\"\r\n").get() == "scope = \"focused\"\r\n\r\n[device]\r\nmount-matrix = \"0, -1, 0; 1, 0, 0; 0, 0, 1\"\r\n")
    }

    @Test func aDottedKeyKeepsItsSpelling() throws {
        let text = "device.mount-matrix = '1, 0, 0; 0, 1, 0; 0, 0, 1' # from the wiki\nscope = \"focused\"\n"
        #expect(try Self.set(text).get() == "device.mount-matrix = \"0, -1, 0; 1, 0, 0; 0, 0, 1\" # from the wiki\nscope = \"focused\"\n")
    }

    @Test func aConfigWithProblemsOrAnInlineDeviceTableIsNotWritten() {
        guard case .failure(.invalid(let diagnostics)) = Self.set("scope = \"sideways\"\n") else {
            Issue.record("an invalid config was edited")
            return
        }
        #expect(!diagnostics.isEmpty)
        guard case .failure(.notPlaced(_, let line)) = Self.set("device = { outputs = [\"eDP-1\"] }\n") else {
            Issue.record("an inline table was edited")
            return
        }
        #expect(line == "mount-matrix = \"0, -1, 0; 1, 0, 0; 0, 0, 1\"")
    }
}

import Testing
import TestSupport
@testable import OrientConfig
@testable import OrientCore

/// The inputs that made TOMLKit abort, and the valid ones the guard must leave alone.
@Suite struct TOMLHeaderGuardTests {
    @Test(arguments: [
        ("[\n", 1, 2), ("[#\n", 1, 2), ("[[#", 1, 3), ("[ü]\n", 1, 2), ("  [ =x]\n", 1, 5),
        ("a = 1\n[device]\n[\n", 3, 2), ("[[ \n", 1, 4), ("[", 1, 2),
    ])
    func headersTOMLKitWouldAbortOnAreFound(text: String, line: Int, column: Int) {
        let found = TOMLHeaderGuard.firstUnsafeHeader(in: text)
        #expect(found?.line == line && found?.column == column, "\(text.debugDescription) → \(String(describing: found))")
    }

    @Test(arguments: [
        "[device]\norientations = [\"all\"]\n", "[ \"quoted key\" ]\n", "[[app]]\nmatch = \"x\"\n", "[a.b-c_d]\n",
        "x = [\n  [ ],\n  [\n  ],\n]\n", "a = \"\"\"\n[\n\"\"\"\n", "b = '''\n[#\n'''\n", "c = \"[\" # [\n",
        "[]\n", "", "# [\n",
    ])
    func validOrHarmlessTextIsLeftToTheParser(text: String) {
        #expect(TOMLHeaderGuard.firstUnsafeHeader(in: text) == nil, "\(text.debugDescription)")
    }

    @Test func theLoadersReportItInsteadOfAborting() throws {
        guard case .failure(let e) = ConfigLoader.load(text: "scope = \"focused\"\n[\n", file: "c.toml") else {
            Issue.record("accepted")
            return
        }
        #expect(e.diagnostics.map(\.description) == ["c.toml:2:2: a table header needs a name: '[' must be followed by a letter, digit, '_', '-' or a quote"])
        let dir = try makeTemporaryDirectory()
        try "[ü]\n".write(toFile: dir + "/state.toml", atomically: true, encoding: .utf8)
        let (state, warnings) = StateStore(directory: dir).load()
        #expect(state == PersistentState())
        #expect(warnings.count == 1)
    }
}

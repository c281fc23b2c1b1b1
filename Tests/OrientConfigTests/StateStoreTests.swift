import Foundation
import OrientSystem
import TestSupport
import Testing
@testable import OrientConfig
@testable import OrientCore

@Suite struct StateStoreTests {
    @Test func aMissingFileIsTheDefaultStateWithoutWarnings() throws {
        let store = StateStore(directory: try makeTemporaryDirectory() + "/not-yet")
        let (state, warnings) = store.load()
        #expect(state == PersistentState())
        #expect(warnings.isEmpty)
    }

    @Test func stateRoundTripsAndSavingLeavesNoTemporaryFiles() throws {
        let dir = try makeTemporaryDirectory() + "/wlr-orient"
        let store = StateStore(directory: dir)
        let saved = PersistentState(lock: MaskSpec([.landscape]), lastFelt: .leftUp)
        try store.write(saved)
        try store.write(saved)
        #expect(store.load().state == saved)
        #expect(store.load().warnings.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["state.toml"])
        try store.write(PersistentState())
        #expect(store.load().state == PersistentState())
    }

    @Test(arguments: [
        "lock = [[[\n",                    // not TOML
        "\u{0}\u{1}\u{2}garbage",          // binary junk
        "lock = 3\nfelt = \"sideways\"\n",  // TOML, wrong values
    ])
    func aCorruptFileGivesAWarningAndDefaults(content: String) throws {
        let dir = try makeTemporaryDirectory()
        try content.write(toFile: dir + "/state.toml", atomically: true, encoding: .utf8)
        let (state, warnings) = StateStore(directory: dir).load()
        #expect(state == PersistentState())
        #expect(!warnings.isEmpty)
        #expect(warnings.allSatisfy { $0.hasPrefix(dir + "/state.toml: ") })
    }

    @Test func anUnreadableFileGivesAWarningAndDefaults() throws {
        let dir = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/state.toml", withIntermediateDirectories: true)
        let (state, warnings) = StateStore(directory: dir).load()
        #expect(state == PersistentState())
        #expect(warnings.count == 1)
    }

    @Test func oneGoodValueSurvivesABadNeighbour() throws {
        let dir = try makeTemporaryDirectory()
        try "lock = \"nonsense\"\nfelt = \"right-up\"\n".write(toFile: dir + "/state.toml", atomically: true, encoding: .utf8)
        let (state, warnings) = StateStore(directory: dir).load()
        #expect(state.lastFelt == .rightUp)
        #expect(state.lock == nil)
        #expect(warnings.count == 1)
    }
}

extension StateStore {
    /// What a save puts there (OrientService's `StateFile`, which this target does not link):
    /// the state's text, renamed into place.
    func write(_ state: PersistentState) throws {
        try makeDirectories(directory).get()
        try writeFileAtomically(file, Array(state.fileText.utf8)).get()
    }
}

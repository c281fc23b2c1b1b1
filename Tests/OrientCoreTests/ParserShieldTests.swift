import Foundation
import OrientPlatform
import Testing
@testable import OrientConfig
@testable import OrientCore

@Suite struct ParserShieldTests {
    @Test func aParseThatCompletesSurvives() {
        // Generous: this asserts that a parse survives the shield, not how fast a forked child runs
        // while every other suite runs beside it on two cores.
        #expect(ForkedParseShield(timeout: 30).survives { _ = ConfigLoader.load(text: "scope = \"focused\"\n", file: "c") })
    }

    @Test func aParseThatAbortsDoesNotTakeTheCallerWithIt() {
        #expect(!ForkedParseShield().survives { abort() })
    }

    @Test func aParseThatHangsIsKilledAfterTheTimeout() {
        #expect(!ForkedParseShield(timeout: 0.2).survives { while true { sleep(1) } })
    }

    /// Inputs on which TOMLKit's toml++ aborts (found by fuzzing): refused with an error.
    @Test(arguments: ["x = [[}\n", "-[a]x = -:[[\n", "[\n", "[[#", "[ü]\n"])
    func textsThatCrashTheParserAreRefused(text: String) {
        guard case .failure(let e) = ConfigLoader.load(text: text, file: "c.toml", shield: ForkedParseShield()) else {
            Issue.record("accepted \(text.debugDescription)")
            return
        }
        #expect(e.diagnostics.count == 1)
        #expect(e.diagnostics[0].description.hasPrefix("c.toml:"))
    }
}

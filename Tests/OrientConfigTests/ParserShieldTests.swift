import Foundation
import Testing
@testable import OrientConfig
@testable import OrientCore

@Suite struct ParserShieldTests {
    @Test func aParseThatCompletesSurvives() {
        // Generous: this asserts that a parse survives the shield, not how fast a forked child runs
        // while every other suite runs beside it on two cores.
        #expect(ForkedParseShield(timeout: 30).attempt { _ = ConfigLoader.load(text: "scope = \"focused\"\n", file: "c") } == .completed)
    }

    @Test func aParseThatAbortsDoesNotTakeTheCallerWithIt() {
        #expect(ForkedParseShield().attempt { abort() } == .crashed)
    }

    @Test func aParseThatHangsIsKilledAfterTheTimeoutAndSaidToHaveTakenTooLong() {
        #expect(ForkedParseShield(timeout: 0.2).attempt { while true { sleep(1) } } == .tookTooLong(seconds: 0.2))
    }

    /// A big valid config that outlasts the shield is reported as what it is, with its
    /// size, never as a parser crash.
    @Test func aParseThatTakesTooLongIsReportedWithTheFilesSizeNotAsACrash() {
        let text = String(repeating: "# a long comment line, as in a file that is not a config at all\n", count: 20_000)
        guard case .failure(let e) = ConfigLoader.load(text: text, file: "big.toml", shield: ForkedParseShield(timeout: 0)) else {
            Issue.record("accepted")
            return
        }
        let message = e.diagnostics.map(\.description).joined()
        #expect(message.contains("had not finished after 0 s"), "\(message)")
        #expect(message.contains("1.3 MB"), "\(message)")
        #expect(!message.contains("crash"))
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

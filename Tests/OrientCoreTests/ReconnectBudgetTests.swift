import Testing
@testable import OrientCore

/// When the daemon connects again after losing its connection (its decisions in the core).
struct ReconnectBudgetTests {
    /// The answers to `failures`, each at its time (the expectation macro cannot mutate).
    static func answers(_ failures: [(ReconnectBudget.Failure, Double)]) -> [Bool] {
        var budget = ReconnectBudget()
        return failures.map { budget.reconnects(after: $0.0, at: $0.1) }
    }

    @Test func aProtocolErrorIsMetByConnectingAgainThreeTimesAMinute() {
        let answers = Self.answers([(.protocolError, 100), (.protocolError, 101), (.protocolError, 102),
                                    (.protocolError, 130), (.protocolError, 160.5)])
        // A fourth within the minute: give up; a minute after the first, again.
        #expect(answers == [true, true, true, false, true])
    }

    @Test func aConnectionGoneIsNeverMetByConnectingAgainAndCostsNothing() {
        let answers = Self.answers([(.connectionGone, 1), (.protocolError, 2), (.protocolError, 3), (.protocolError, 4)])
        #expect(answers == [false, true, true, true])
    }
}

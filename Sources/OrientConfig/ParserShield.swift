import OrientSystem

/// Runs a piece of parsing somewhere it cannot take the caller down with it.
///
/// TOMLKit's C++ parser (toml++) aborts the whole process, through assertions, on some malformed
/// input instead of reporting an error; found inputs include `[` followed by a newline and
/// `x = [[}`. Inside the compositor that would end the user's session over a typo. So loaders
/// first let a shield run the parse; if it does not complete, the text is refused with an error
/// that says what happened: a crash, or a parse that took too long (a huge file).
/// The CLI, which runs every TOML parse (the plugin and the daemon get the result from it),
/// passes `ForkedParseShield`.
public protocol ParserShield: Sendable {
    /// Runs `parse` where a crash could do no harm, and says how it ended.
    func attempt(_ parse: () -> Void) -> ParseOutcome
}

/// How a shielded parse ended.
public enum ParseOutcome: Sendable, Hashable {
    case completed
    /// It ended the process it ran in (an abort, a crash).
    case crashed
    /// It had not finished after this many seconds, and was stopped.
    case tookTooLong(seconds: Double)
}

/// No shield: the parse runs in-process (tests, and callers that accept the risk).
public struct NoParserShield: ParserShield {
    public init() {}
    public func attempt(_ parse: () -> Void) -> ParseOutcome {
        parse()
        return .completed
    }
}

/// The shield of the CLI: the parse runs first in a forked child (`ForkedTrial`, from the system
/// layer), and in-process only if the child got through it (same code, same input, so the second
/// run cannot abort either).
public struct ForkedParseShield: ParserShield {
    public let timeout: Double

    public init(timeout: Double = 2) { self.timeout = timeout }

    public func attempt(_ parse: () -> Void) -> ParseOutcome {
        switch ForkedTrial.run(timeout: timeout, parse) {
        case .completed: .completed
        case .crashed: .crashed
        case .tookTooLong(let seconds): .tookTooLong(seconds: seconds)
        }
    }
}

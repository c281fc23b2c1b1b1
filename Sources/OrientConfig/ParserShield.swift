/// Runs a piece of parsing somewhere it cannot take the caller down with it.
///
/// TOMLKit's C++ parser (toml++) aborts the whole process, through assertions, on some malformed
/// input instead of reporting an error; found inputs include `[` followed by a newline and
/// `x = [[}`. Inside the compositor that would end the user's session over a typo. So loaders
/// first let a shield run the parse; if it does not survive, the text is refused with an error.
/// The core stays pure: the plugin and the CLI pass `ForkedParseShield` (OrientPlatform).
public protocol ParserShield: Sendable {
    /// Whether `parse` ran to completion where a crash could do no harm.
    func survives(_ parse: () -> Void) -> Bool
}

/// No shield: the parse runs in-process (tests, and callers that accept the risk).
public struct NoParserShield: ParserShield {
    public init() {}
    public func survives(_ parse: () -> Void) -> Bool { true }
}

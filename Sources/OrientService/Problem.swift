/// Why a process or file operation failed, for the log.
public struct Problem: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

import Glibc

/// A failed system call: which call, on what, and the errno it gave. Every call of the system
/// layer that fails throws (or returns) one; the edges add what an errno means to them.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var errno: Int32

    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    public var description: String {
        "\(operation): \(String(cString: strerror(errno)))"
    }
}

import Glibc

/// A failed system call: which call, on what, and the errno it gave. Every call of the system
/// layer that fails throws (or returns) one; the edges add what an errno means to them.
public struct SystemError: Error, CustomStringConvertible, Sendable, Hashable {
    public var operation: String
    public var errno: Int32

    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// Not allowed (EACCES, EPERM): another user's file, a read-only directory.
    public var permissionDenied: Bool { errno == EACCES || errno == EPERM }

    /// The file is not there (ENOENT, or ENOTDIR: a part of its path is not a directory).
    public var isNotFound: Bool { errno == ENOENT || errno == ENOTDIR }

    public var description: String {
        "\(operation): \(reason)"
    }

    /// The error the last failed call of this thread left (for a call made through another
    /// module, which says only that it failed).
    public static func last(_ operation: String) -> SystemError {
        SystemError(operation: operation, errno: Glibc.errno)
    }

    /// What the errno says, in the C library's words.
    public var reason: String { String(cString: strerror(errno)) }

    /// A non-blocking descriptor had nothing to give or take (EAGAIN).
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    /// A socket had no room for a message now (EAGAIN, or ENOBUFS: the system's memory for it).
    public var noRoomNow: Bool { wouldBlock || errno == ENOBUFS }

    /// A message longer than a socket ever takes at once (EMSGSIZE).
    public var messageTooLong: Bool { errno == EMSGSIZE }

    /// Nothing is at the path (ENOENT).
    public var noSuchFile: Bool { errno == ENOENT }

    /// Another process holds what opens once (an IIO device's node, its event fd).
    public var busy: Bool { errno == EBUSY }

    /// Not this user's to open or write.
    public var denied: Bool { errno == EACCES || errno == EPERM }

    /// Nobody accepts connections at a socket (ECONNREFUSED).
    public var refused: Bool { errno == ECONNREFUSED }

    /// A path longer than the call takes (ENAMETOOLONG).
    public var pathTooLong: Bool { errno == ENAMETOOLONG }

    /// The process has no descriptor left to give (EMFILE, ENFILE).
    public var outOfDescriptors: Bool { errno == EMFILE || errno == ENFILE }
}

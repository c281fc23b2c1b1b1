import CSystem
import Glibc

/// Stream sockets in the file system, as the control socket uses them: every descriptor
/// close-on-exec, and non-blocking where a server holds it.
public enum UnixSocket {
    /// Why a socket could not listen at a path.
    public enum ListenFailure: Error, Sendable {
        case pathTooLong
        /// Something that is not a socket is at the path (it is left alone).
        case notASocket
        /// A live server answers there.
        case served
        case system(SystemError)
    }

    /// Listens at `path`, which only this user may connect to (mode 0600 before anyone can).
    /// A socket file that nobody answers on (a server that crashed left it) is replaced.
    public static func listen(at path: String, backlog: Int32) -> Result<FileDescriptor, ListenFailure> {
        guard let address = UnixSocketAddress(path) else { return .failure(.pathTooLong) }
        let listener: FileDescriptor
        switch stream(nonBlocking: true) {
        case .success(let fd): listener = fd
        case .failure(let error): return .failure(.system(error))
        }
        var bound = address.bind(listener.rawValue)
        if !bound, errno == EADDRINUSE {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
                listener.close()
                return .failure(.notASocket)
            }
            guard !answers(address) else {
                listener.close()
                return .failure(.served)
            }
            unlink(path)
            bound = address.bind(listener.rawValue)
        }
        guard bound, chmod(path, 0o600) == 0, Glibc.listen(listener.rawValue, backlog) == 0 else {
            let error = SystemError(operation: "listen", errno: errno)
            listener.close()
            return .failure(.system(error))
        }
        return .success(listener)
    }

    /// Whether a live server answers at `path`.
    public static func isServed(_ path: String) -> Bool {
        UnixSocketAddress(path).map(answers) ?? false
    }

    /// Only a refusal (or no file) means nobody is there: a live server with a full backlog
    /// says EAGAIN.
    private static func answers(_ address: UnixSocketAddress) -> Bool {
        guard case .success(let probe) = stream(nonBlocking: true) else { return false }
        defer { probe.close() }
        return address.connect(probe.rawValue) || (errno != ECONNREFUSED && errno != ENOENT)
    }

    /// A connection to the server at `path` (blocking).
    public static func connect(to path: String) -> Result<FileDescriptor, SystemError> {
        guard let address = UnixSocketAddress(path) else { return .failure(SystemError(operation: "connect", errno: ENAMETOOLONG)) }
        return stream(nonBlocking: false).flatMap { fd in
            guard address.connect(fd.rawValue) else {
                let error = SystemError(operation: "connect", errno: errno)
                fd.close()
                return .failure(error)
            }
            return .success(fd)
        }
    }

    /// A sequenced-packet connection to the listener at `path` (close-on-exec, non-blocking),
    /// with a send buffer of `sendBuffer` bytes (as much of it as the system allows): each `send`
    /// is one whole message or none, never blocks (EAGAIN while the buffer is full: the reader
    /// is behind), and a reader gone is EPIPE, never a signal. Unlike a datagram socket's, a
    /// connection's queue is not cut at `net.unix.max_dgram_qlen` (10) messages.
    public static func connectSequencedPacket(to path: String, sendBuffer: Int32) -> Result<FileDescriptor, SystemError> {
        guard let address = UnixSocketAddress(path) else { return .failure(SystemError(operation: "connect", errno: ENAMETOOLONG)) }
        let flags = SOCK_SEQPACKET.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue
        let fd = socket(AF_UNIX, Int32(flags), 0)
        guard fd >= 0 else { return .failure(SystemError(operation: "socket", errno: errno)) }
        var size = sendBuffer
        // Best effort: the kernel caps it at net.core.wmem_max.
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        guard address.connect(fd) else {
            let error = SystemError(operation: "connect \(path)", errno: errno)
            close(fd)
            return .failure(error)
        }
        return .success(FileDescriptor(rawValue: fd))
    }

    /// The next waiting connection (close-on-exec, non-blocking); EAGAIN when none waits.
    public static func accept(on listener: FileDescriptor) -> Result<FileDescriptor, SystemError> {
        let fd = glue_accept(listener.rawValue)
        return fd >= 0 ? .success(FileDescriptor(rawValue: fd)) : .failure(SystemError(operation: "accept", errno: errno))
    }

    /// The user id of the process at the other end.
    public static func peerUser(of connection: FileDescriptor) -> Result<UInt32, SystemError> {
        peer(of: connection).map(\.uid)
    }

    /// The process at the other end (the one that listened, for a connection made to a server).
    public static func peerProcess(of connection: FileDescriptor) -> Result<Int32, SystemError> {
        peer(of: connection).map(\.pid)
    }

    private static func peer(of connection: FileDescriptor) -> Result<(pid: Int32, uid: UInt32), SystemError> {
        var pid: pid_t = 0
        var uid: uid_t = 0
        guard glue_peer(connection.rawValue, &pid, &uid) == 0 else { return .failure(SystemError(operation: "SO_PEERCRED", errno: errno)) }
        return .success((pid, uid))
    }

    /// This process's user id.
    public static var ownUser: UInt32 { getuid() }

    /// A user's login name, for a line a person reads (nil when the system knows no such user).
    public static func userName(of uid: UInt32) -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var storage = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &storage, storage.count, &found) == 0, found != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    /// Removes the socket's file (the server is done with it).
    public static func remove(_ path: String) {
        unlink(path)
    }

    private static func stream(nonBlocking: Bool) -> Result<FileDescriptor, SystemError> {
        let flags = SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | (nonBlocking ? SOCK_NONBLOCK.rawValue : 0)
        let fd = socket(AF_UNIX, Int32(flags), 0)
        return fd >= 0 ? .success(FileDescriptor(rawValue: fd)) : .failure(SystemError(operation: "socket", errno: errno))
    }
}
